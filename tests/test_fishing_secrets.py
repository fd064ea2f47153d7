"""README §8 for the fishing games, over every preset of Basra, Pişti, Xeri and Diloti (and the
three-player forms added in basra.md v1.2): every card is conserved, every deal ends, and no view
shows a card its seat may not know — no other hand, no card returned to the stock at a hidden
place (README §4), no running capture tallies where the rules hide them."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafenio
from kafenio import load_game
from kafenio.cards import format_card

VARIANTS = [(g, p.name, {}) for g in ("basra", "pisti", "xeri", "diloti")
            for p in kafenio.rulebook(g).presets if p.kind == "base"] + [
    ("basra", "palestinian", {"num_players": 3}), ("basra", "palestinian", {"num_players": 3, "hand_size": 5}),
    ("basra", "lebanese_a", {"num_players": 3}), ("basra", "egyptian", {"num_players": 4}),
    ("basra", "greek_bastra", {"capture_tally_visibility": "public"}),
    ("xeri", "gamerules_2p", {}), ("diloti", "pagat_4p", {}),
]
CARD = re.compile(r'"((?:10|[2-9AJQK])[SHDC])"')
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_in_play(state):
    declared = sum(len(d.cards) for d in getattr(state, "decls", []))
    return (sum(map(len, state.hands)) + len(state.floor) + sum(map(len, state.captured)) + declared
            + len(state.stock) - state.stock_pos + (state.pending is not None))


def check_view(state, seat):
    view = state.view(seat)
    terminal = state.is_terminal()
    if not terminal:
        known = set(state.seen_cards(seat)) | set(state.floor) - set(state._secret_from(seat)) | set(state.stock_known)
        if seat is not None:
            known |= set(state.hands[seat])
        shown = {c for c in CARD.findall(json.dumps(view))}
        assert shown <= {format_card(c) for c in known}, shown - {format_card(c) for c in known}
        if not state.game.tallies_public:
            assert view["captured"] is None and view["deal_points"] is None
    hidden_places = set(state.returned) - set(state.stock_known)
    assert not hidden_places & {c for c in state.stock_known}
    assert not {format_card(c) for c in hidden_places} & set(view["stock_bottom_known"])


@pytest.mark.parametrize(("game_name", "preset", "options"), VARIANTS)
@FAST
@given(seed=st.integers(0, 2**32), rng_seed=st.integers(0, 1000))
def test_cards_conserved_deal_ends_views_keep_secrets(game_name, preset, options, seed, rng_seed):
    game = load_game(game_name, preset=preset, options=options)
    deck_size = len(game.full_deck())
    state = game.new_initial_state(seed=seed)
    rng = random.Random(rng_seed)
    steps = 0
    seats = [*range(game.num_players()), None]
    while not state.is_terminal():
        assert cards_in_play(state) == deck_size
        for seat in seats:
            check_view(state, seat)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps <= 3 * deck_size
    for seat in seats:
        check_view(state, seat)
    left = state.sheet is not None and len(state.floor)
    assert sum(map(len, state.captured)) + (left or 0) == deck_size
