"""The public card count of the fishing games (``FishingState.seen_cards``) is memoised on the
log; at every step, and after clones and determinizations, it equals a fresh reading of the log."""

from __future__ import annotations

import random

import pytest

from kafenio import load_game


def fresh_seen(state, seat):
    seen = set()
    for event in state.log:
        if event[0] == "floor":
            seen.update(event[1], event[3])
        elif event[0] == "deal":
            seen.update(event[1])
        elif isinstance(event[0], int):
            seen.add(event[1])
            seen.update(event[2])
    if state.pending is not None:
        seen.add(state.pending[0])
    return sorted(seen.difference(state._secret_from(seat)))


@pytest.mark.parametrize("game", ["basra", "pisti", "xeri", "diloti"])
def test_memoised_seen_cards_match_the_log(game):
    g = load_game(game)
    rng = random.Random(7)
    for deal in range(6):
        state = g.new_initial_state(seed=deal)
        while not state.is_terminal():
            seat = state.current_player()
            assert state.seen_cards(seat) == fresh_seen(state, seat)
            if rng.random() < 0.1:
                other = state.resample_from_infostate(seat, rng)
                assert other.seen_cards(seat) == fresh_seen(other, seat)
                copy = state.clone()
                legal = copy.legal_actions()
                copy.apply_action(legal[0])
                assert copy.seen_cards(seat) == fresh_seen(copy, seat)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        assert state.seen_cards(None) == fresh_seen(state, None)
