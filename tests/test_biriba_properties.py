"""Property tests of the Biriba engine over every base preset and a few modifiers."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import kafenio
from kafenio.cards import NUM_TYPES

PRESETS = [["standard_4p"], ["two_players"], ["three_players_individual"],
           ["three_players_solo_18"], ["five_players_individual"], ["six_players"],
           ["standard_4p", "runs_only"], ["standard_4p", "catsatcards_house"],
           ["two_players", "whole_hand_opening"], ["standard_4p", "wikipedia_vulnerability"]]
GAMES = {tuple(p): kafenio.load_game("biriba", preset=p) for p in PRESETS}


def card_counts(state) -> list[int]:
    total = [0] * NUM_TYPES
    for hand in state.hands:
        for c, n in enumerate(hand):
            total[c] += n
    for c in [*state.stock, *state.pile, *state.building, *(c for p in state.pots for c in p),
              *(c for ms in state.melds for m in ms for c in m.cards)]:
        total[c] += 1
    return total


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6))
def test_random_deal_invariants(preset, seed):
    game = GAMES[tuple(preset)]
    state = game.new_initial_state(seed=seed)
    expected = card_counts(state)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
        if steps % 7 == 0:
            assert card_counts(state) == expected
        assert steps < 20000
    assert card_counts(state) == expected
    for side in state.score_sheet()["sides"]:
        assert side["total"] == (side["melds"] + sum(b["bonus"] for b in side["bonuses"])
                                 + side["closing"] + side["hands"] + side["pot_points"])
    returns = state.returns()
    for seat in range(game.num_players):
        partners = [s for s in range(game.num_players) if game.side_of(s) == game.side_of(seat)]
        assert len({returns[s] for s in partners}) == 1
    copy = game.deserialize_state(state.serialize())
    assert copy.score_sheet() == state.score_sheet()
    json.dumps(state.view(0))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.integers(5, 150))
def test_resample_moves_only_unknown_cards(seed, cut):
    game = GAMES[("standard_4p",)]
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _i in range(cut):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    seat = state.current_player()
    other = state.resample_from_infostate(seat, random.Random(1))
    assert other.hands[seat] == state.hands[seat]
    assert other.pile == state.pile and other.melds == state.melds
    assert other.hand_size == state.hand_size and len(other.stock) == len(state.stock)
    assert [len(p) for p in other.pots] == [len(p) for p in state.pots]
    assert card_counts(other) == card_counts(state)
    for s in range(game.num_players):
        assert all(other.hands[s][c] >= state.known[s][c] for c in range(NUM_TYPES))
    assert other.legal_actions() == state.legal_actions()
    assert other.information_state_string(seat).splitlines()[0] == \
        state.information_state_string(seat).splitlines()[0]
