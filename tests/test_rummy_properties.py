"""Property tests of the rummy engine (Biriba and Buraco) over every base preset and every
modifier on its game's default base: cards conserved at every step, every meld on the table valid
under its game's rules (no set where only runs are legal, buraco.md §4.3), a legal action until
the end, every deal terminates, score sheets add up, partners share returns, serialize
round-trips, a seat's view shows no card of a pot still face down (buraco.md §5) nor any hand but
its own during the deal, every hand to everyone once the deal is over (README §8,
docs/views-rummy.md "At the end of a deal"), and a determinization moves only what the seat cannot
know."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import kafenio
from kafenio.cards import NUM_TYPES, format_cards, parse_meld_cards
from kafenio.rummy.melds import validate


def _presets(name: str, extra: list[list[str]]) -> list[tuple[str, tuple[str, ...]]]:
    book = kafenio.rulebook(name)
    combos = [[p.name] for p in book.presets if p.kind == "base"]
    combos += [[book.default_base, p.name] for p in book.presets if p.kind == "modifier"]
    return [(name, tuple(p)) for p in combos + extra]


PRESETS = _presets("biriba", [["two_players", "whole_hand_opening"]]) + _presets(
    "buraco", [["italian_2p", "stbl"], ["ludopoli_4p", "international_pickup"],
               ["brazilian_2p", "fechado"], ["italian_4p", "stalemate_draw"],
               ["brazilian_4p", "fechado", "no_vulnerability", "semi_clean_150"]])
GAMES = {key: kafenio.load_game(key[0], preset=list(key[1])) for key in PRESETS}


def _views_keep_secrets(state) -> None:
    """During the deal: a seat's own hand without a pot still face down, no other hand. Once it is
    over: every seat's leftover cards in every view, the spectator's too, as the sheet counts them."""
    views = [state.view(seat) for seat in [*range(state.n), None]]
    for seat, view in enumerate(views[:-1]):
        assert len(view["hand"]) == state.hand_size[seat] - view["pots"]["face_down"][seat]
    if not state.is_terminal():
        assert not any("leftover" in view for view in views)
        return
    leftover = views[-1]["leftover"]
    assert all(view["leftover"] == leftover for view in views)
    for side in state.score_sheet()["sides"]:
        shown = [leftover[s] for s in side["seats"]]
        assert sum(h["points"] for h in shown) == side["hands"]
        pots = [h["unplayed_pot"] for h in shown if h["unplayed_pot"]]
        assert [p["points"] for p in pots] == ([side["pot_points"]] if pots else [])
        for s, h in zip(side["seats"], shown, strict=True):
            cards = sorted(h["cards"] + ((h["unplayed_pot"] or {}).get("cards") or []))
            size = len(h["cards"]) + ((h["unplayed_pot"] or {}).get("size") or 0)
            assert size == state.hand_size[s]
            held = [c for c in range(NUM_TYPES) for _i in range(state.hands[s][c])]
            assert set(cards) <= set(format_cards(held).split())
            if not h["unplayed_pot"] or h["unplayed_pot"]["cards"] is not None:
                assert cards == sorted(format_cards(held).split())


def card_counts(state) -> list[int]:
    total = [0] * NUM_TYPES
    for hand in state.hands:
        for c, n in enumerate(hand):
            total[c] += n
    for c in [*state.stock, *state.pile, *state.building, *(c for p in state.pots for c in p),
              *(c for ms in state.melds for m in ms for c in m.cards)]:
        total[c] += 1
    return total


def melds_valid(state) -> bool:
    """Every meld on the table, read back from its notation (wilds at their stand-ins), is a
    legal meld under the game's rules with the same cards, positions and cleanliness, and no set
    where only runs are legal (§4, buraco.md §4.3)."""
    mr = state.game.meld_rules
    for melds in state.melds:
        for meld in melds:
            if not (meld.is_run or mr.allow_sets):
                return False
            again, _why = validate(parse_meld_cards(" ".join(meld.notation())), mr)
            if again is None or again.is_run != meld.is_run or again.clean != meld.clean:
                return False
            if (again.lo, again.cards if meld.is_run else sorted(again.cards)) != (
                    meld.lo, meld.cards if meld.is_run else sorted(meld.cards)):
                return False
    return True


@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from(PRESETS), seed=st.integers(0, 10**6))
def test_random_deal_invariants(key, seed):
    game = GAMES[key]
    state = game.new_initial_state(seed=seed)
    expected = card_counts(state)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
        assert card_counts(state) == expected
        assert steps % 25 or melds_valid(state)
        assert steps < 20000
        _views_keep_secrets(state)
    assert melds_valid(state)
    for side in state.score_sheet()["sides"]:
        assert side["total"] == (side["melds"] + sum(b["bonus"] for b in side["bonuses"]) + side["closing"]
                                 + side["hands"] + side["pot_points"] + side.get("cut", 0))
    returns = state.returns()
    for seat in range(game.num_players()):
        partners = [s for s in range(game.num_players()) if game.side_of(s) == game.side_of(seat)]
        assert len({returns[s] for s in partners}) == 1
    copy = game.deserialize_state(state.serialize())
    assert copy.score_sheet() == state.score_sheet() and copy.history == state.history
    json.dumps(state.view(0))


@settings(max_examples=30, deadline=None)
@given(key=st.sampled_from(PRESETS), seed=st.integers(0, 10**6), cut=st.integers(1, 200))
def test_serialize_and_resample_mid_deal(key, seed, cut):
    game = GAMES[key]
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _i in range(cut):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    if state.is_terminal():
        return
    again = game.deserialize_state(state.serialize())
    assert again.view(state.current_player()) == state.view(state.current_player())
    assert again.legal_actions() == state.legal_actions()
    seat = state.current_player()
    other = state.resample_from_infostate(seat, random.Random(1))
    assert other.hands[seat] == state.hands[seat] and other.view(seat) == state.view(seat)
    assert other.pile == state.pile and other.melds == state.melds
    assert other.hand_size == state.hand_size and len(other.stock) == len(state.stock)
    assert [len(p) for p in other.pots] == [len(p) for p in state.pots]
    assert card_counts(other) == card_counts(state)
    for s in range(game.num_players()):
        assert all(other.hands[s][c] >= state.known[s][c] for c in range(NUM_TYPES))
    assert other.legal_actions() == state.legal_actions()
    assert other.information_state_string(seat) == state.information_state_string(seat)
