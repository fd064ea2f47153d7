"""Invariants of the Basra engine over every preset (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafenio import load_game
from kafenio.cards import RANK
from kafenio.fishing.captures import VALUE, capture_options, sum_unions
from kafenio.games.basra import PRESETS

VARIANTS = [(p.name, {}) for p in PRESETS] + [
    ("egyptian", {"capture_mode": "player_choice"}),
    ("greek_bastra", {"capture_mode": "player_choice", "capture_compulsory": False, "num_players": 3}),
    ("egyptian", {"num_players": 4}),
]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_in_play(state):
    return (sum(map(len, state.hands)) + len(state.floor) + sum(map(len, state.captured))
            + len(state.stock) - state.stock_pos + (state.pending is not None))


def check_capture(game, floor, card, taken):
    """The cards taken are legal for ``card``: a sweep, or pairs plus groups summing to its value."""
    spec = game.capture_spec
    options = capture_options(floor, card, spec)
    as_sets = [sorted(floor[i] for i in o) for o in options]
    assert sorted(taken) in as_sets or (not taken and not options) or (not taken and [] in as_sets)
    if card in spec.sweepers or not taken or floor == [spec.lone_prey]:
        return
    rest = [c for c in taken if RANK[c] != RANK[card]]
    values = tuple(VALUE[c] for c in rest)
    assert not rest or (all(values) and tuple(range(len(rest))) in sum_unions(values, VALUE[card]))
    if spec.mode == "maximal":
        assert len(taken) == max(len(o) for o in options)


@pytest.mark.parametrize("preset, options", VARIANTS)
@FAST
@given(seed=st.integers(0, 2**32), rng_seed=st.integers(0, 1000))
def test_deal_invariants(preset, options, seed, rng_seed):
    game = load_game("basra", preset=preset, options=options)
    deck_size = len(game.full_deck())
    state = game.new_initial_state(seed=seed)
    rng = random.Random(rng_seed)
    steps = 0
    while not state.is_terminal():
        assert cards_in_play(state) == deck_size
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        floor, log_len = list(state.floor), len(state.log)
        card = state.pending[0] if state.pending is not None else action
        state.apply_action(action)
        steps += 1
        if state.pending is None:
            event = next(e for e in state.log[log_len:] if isinstance(e[0], int))
            check_capture(game, floor, card, list(event[2]))
        assert steps <= 2 * deck_size
    assert sum(map(len, state.captured)) + len(state.floor) == deck_size
    assert state.floor == [] or state.last_capturer == -1
