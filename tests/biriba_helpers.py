"""Test-only helpers: set up a Biriba or Buraco position directly (worked examples, engine tests)."""

from __future__ import annotations

import kafenio
from kafenio.cards import SUITS, counts, parse_cards, parse_meld_cards
from kafenio.rummy.melds import validate
from kafenio.rummy.state import P_DRAW, P_PLAY


def make_meld(game, text: str):
    meld, why = validate(parse_meld_cards(text), game.meld_rules)
    assert meld is not None, why
    return meld


def position(preset="standard_4p", seat=0, hand="", *, melds=None, pile="", pot_taken=(),
             phase="play", kozi="S", options=None, match_scores=None, game="biriba"):
    """A deal from seed 0 with ``seat`` on turn holding ``hand`` (other hands as dealt).

    ``melds``: {side: ["5C 6C 7C", …]}; ``pot_taken``: sides that took their pot;
    ``phase``: "draw" or "play" (already drew); ``kozi`` only for Biriba.
    """
    g = kafenio.load_game(game, preset=preset, options=options or {})
    st = g.new_initial_state(seed=0, match_scores=match_scores)
    if st.phase not in (P_DRAW, P_PLAY):        # Buraco's cut step
        st.apply_string("cut 1")
    st.current = seat
    st.hands[seat] = counts(parse_cards(hand))
    st.hand_size[seat] = len(parse_cards(hand))
    for side, texts in (melds or {}).items():
        st.melds[side] = [make_meld(g, t) for t in texts]
    st.pile = parse_cards(pile)
    for side in pot_taken:
        st.pot_taken[side] = True
        st.pots.pop(0)
    if game == "biriba":
        st.kozi_suit = SUITS.index(kozi) if kozi else None
    st._reset_turn()
    st.phase = P_PLAY if phase == "play" else P_DRAW
    st.version += 1
    return st


def strings(st) -> list[str]:
    return [st.action_to_string(a) for a in st.legal_actions()]
