"""Invariants of the Pişti, Xeri and Diloti engines over every preset (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafenio
from kafenio import load_game
from kafenio.fishing.captures import VALUE

VARIANTS = [(g, p.name) for g in ("pisti", "xeri", "diloti") for p in kafenio.rulebook(g).presets]
FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_in_play(state):
    decls = sum(len(d.cards) for d in getattr(state, "decls", []))
    claim = getattr(state, "claim", None) is not None
    return (sum(map(len, state.hands)) + len(state.floor) + sum(map(len, state.captured)) + decls
            + len(state.stock) - state.stock_pos + (state.pending is not None) + claim)


def check_groups(game, event):
    """Every Diloti capture: the taken numerals split into equal cards and groups summing right."""
    _seat, card, taken, _bonus = event
    if not VALUE[card] or not taken:
        return
    assert sum(VALUE[c] for c in taken) % VALUE[card] == 0 or game.rules.get("plain_declaration_as_card") == "full"


@pytest.mark.parametrize("game_name, preset", VARIANTS)
@FAST
@given(seed=st.integers(0, 2**32), rng_seed=st.integers(0, 1000))
def test_deal_invariants(game_name, preset, seed, rng_seed):
    game = load_game(game_name, preset=preset)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(rng_seed)
    steps = 0
    while not state.is_terminal():
        assert cards_in_play(state) == 52
        legal = state.legal_actions()
        log_len = len(state.log)
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
        for event in state.log[log_len:]:
            if isinstance(event[0], int) and game_name == "diloti":
                check_groups(game, event)
            elif isinstance(event[0], int) and event[2]:
                assert event[1] % 13 == 10 or event[1] % 13 == event[2][-1] % 13 or len(event[2]) == 1
        assert steps <= 4 * 52 + 10
    assert sum(map(len, state.captured)) + len(state.floor) == 52
