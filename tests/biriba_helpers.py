"""Test-only helpers: set up a Biriba position directly (worked examples, engine tests)."""

from __future__ import annotations

import kafenio
from kafenio.cards import SUITS, counts, parse_cards, parse_meld_cards
from kafenio.games.biriba.state import P_DRAW, P_PLAY
from kafenio.rummy.melds import validate


def make_meld(game, text: str):
    meld, why = validate(parse_meld_cards(text), game.meld_rules)
    assert meld is not None, why
    return meld


def position(preset="standard_4p", seat=0, hand="", *, melds=None, pile="", pot_taken=(),
             phase="play", kozi="S", options=None, match_scores=None):
    """A deal from seed 0 with ``seat`` on turn holding ``hand`` (other hands as dealt).

    ``melds``: {side: ["5C 6C 7C", …]}; ``pot_taken``: sides that took their pot;
    ``phase``: "draw" or "play" (already drew).
    """
    game = kafenio.load_game("biriba", preset=preset, options=options or {})
    st = game.new_initial_state(seed=0, match_scores=match_scores)
    st.current = seat
    st.hands[seat] = counts(parse_cards(hand))
    st.hand_size[seat] = len(parse_cards(hand))
    for side, texts in (melds or {}).items():
        st.melds[side] = [make_meld(game, t) for t in texts]
    st.pile = parse_cards(pile)
    for side in pot_taken:
        st.pot_taken[side] = True
        st.pots.pop(0)
    st.kozi_suit = SUITS.index(kozi) if kozi else None
    st._reset_turn()
    st.phase = P_PLAY if phase == "play" else P_DRAW
    st.version += 1
    return st


def strings(st) -> list[str]:
    return [st.action_to_string(a) for a in st.legal_actions()]
