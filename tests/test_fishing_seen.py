"""The public card count of the fishing games (``FishingState.seen_cards``) is memoised on the
log; at every step, and after clones and determinizations, it equals a fresh reading of the log.
The observation written into a reused buffer (``write_observation``) equals a plain reading of
the state (:func:`ref_observation`), for every seat; it counts no captured cards during the deal
while ``capture_tally_visibility = hidden`` (README §8)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kafenio import load_game
from kafenio.engine.game import TERMINAL


def fresh_seen(state, seat):
    seen = set()
    for event in state.log:
        if event[0] == "floor":
            seen.update(event[1], event[3])
        elif event[0] == "deal":
            seen.update(event[1])
        elif event[0] == "declare":
            seen.add(event[2])
        elif isinstance(event[0], int):
            seen.add(event[1])
            seen.update(event[2])
    if state.pending is not None:
        seen.add(state.pending[0])
    return sorted(seen.difference(state._secret_from(seat)))


def ref_observation(state, seat):
    """The observation tensor slot by slot, as ``docs/observations.md`` lays it out."""
    n, sides, direction = state.game.num_players(), state.game.num_sides, state.game.direction
    out = np.zeros(4 * 52 + 2 * n + 3 * sides + 1, dtype=np.float32)
    hidden = state._secret_from(seat)
    for c in state.hands[seat]:
        out[c] = 1
    for c in state.floor:
        if c not in hidden:
            out[52 + c] = 1
    for c in fresh_seen(state, seat):
        out[104 + c] = 1
    if state.pending is not None:
        out[156 + state.pending[0]] = 1
    if state.cur != TERMINAL:
        out[208 + (state.cur - seat) * direction % n] = 1
    for s in range(n):
        out[208 + n + (s - seat) * direction % n] = len(state.hands[s]) / 6
    base = 208 + 2 * n
    tallies = state.game.rules.capture_tally_visibility == "public" or state.cur == TERMINAL
    for s in range(sides):
        out[base + s] = len(state.captured[s]) / 52 if tallies else 0.0   # README §8
        out[base + sides + s] = sum(state.specials[s]) / 100
        out[base + 2 * sides + 1 + s] = state.match_scores[s] / 100
    out[base + 2 * sides] = (len(state.stock) - state.stock_pos) / 52
    return out


def assert_observations(state, buffer):
    for seat in range(state.game.num_players()):
        expected = ref_observation(state, seat)
        state.write_observation(seat, buffer)
        assert np.array_equal(buffer, expected)
        assert np.array_equal(state.observation_tensor(seat), expected)


@pytest.mark.parametrize(("game", "options"), [("basra", None), ("basra", {"num_players": 4}), ("pisti", None),
                                               ("xeri", None), ("diloti", None),
                                               ("basra", {"capture_tally_visibility": "public"})])
def test_memoised_seen_cards_match_the_log(game, options):
    g = load_game(game, options=options)
    rng = random.Random(7)
    buffer = np.full(g.observation_tensor_shape(), np.nan, dtype=np.float32)
    for deal in range(6):
        state = g.new_initial_state(seed=deal, match_scores=[17 * (s + 1) for s in range(g.num_sides)])
        while not state.is_terminal():
            seat = state.current_player()
            assert state.seen_cards(seat) == fresh_seen(state, seat)
            assert_observations(state, buffer)
            if rng.random() < 0.1:
                other = state.resample_from_infostate(seat, rng)
                assert other.seen_cards(seat) == fresh_seen(other, seat)
                assert_observations(other, buffer)
                copy = state.clone()
                legal = copy.legal_actions()
                copy.apply_action(legal[0])
                assert copy.seen_cards(seat) == fresh_seen(copy, seat)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        assert state.seen_cards(None) == fresh_seen(state, None)
        assert_observations(state, buffer)
