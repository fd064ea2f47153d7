"""README §8 for the fishing games, over every preset of Basra, Pişti, Xeri and Diloti (and the
three-player forms added in basra.md v1.2): every card is conserved, every deal ends, and no view
shows a card its seat may not know — no other hand, no card returned to the stock at a hidden
place (README §4), no running capture tallies where the rules hide them — while the deal lasts; a
deal ends with every hand played out, so there is no leftover hand to show."""

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
            for p in kafenio.rulebook(g).presets] + [
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
            + len(state.stock) - state.stock_pos + (state.pending is not None)
            + (getattr(state, "claim", None) is not None))   # Pişti: a card played face down, claimed


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
    else:  # every hand is played out: no hand is left to lay face up (docs/views-rummy.md, the rummy games')
        assert not any(state.hands) and (seat is None or view["hand"] == [])
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


@pytest.mark.parametrize(("game_name", "preset", "deck_text", "positions"), [
    ("basra", "egyptian", "2H 9C 5S QD 3D KH 8C 6S 4C JS 10H 7D AS 6D 9H", [17, 30]),           # BAS-40
    ("xeri", "pagat_2p", "7S 2D KC 9H 4C AD 5S QH 8D 3C 10S 6H 9S 4D QC QS 2C 7H KD 5D 8S", [5, 12, 0, 33]),
    ("diloti", "pagat_2p", "3H 9D AC 6S 10C 2D 5C JD 8H 4S KH 7C KS 4D KD KC 9C 2S QH 6D 5H", [8, 20, 31, 35]),
])
def test_a_determinization_does_not_know_where_returned_cards_lie(game_name, preset, deck_text, positions):
    """README §4: the cards put back at hidden places land anywhere a stock card could be in a
    determinization, and the determinization still replays from its deck and places."""
    from kafenio.cards import parse_cards

    game = load_game(game_name, preset=preset)
    top = parse_cards(deck_text)
    state = game.new_initial_state(deck=top + [c for c in range(52) if c not in top], reinsert_positions=positions)
    rng = random.Random(3)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
        if state.pending is not None:
            state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    where = {c: set() for c in state.returned}
    for _ in range(40):
        sample = state.resample_from_infostate(seat, rng)
        assert sample.view(seat) == state.view(seat)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        replayed = game.deserialize_state(sample.serialize())
        assert replayed.stock == sample.stock and replayed.hands == sample.hands
        for c in state.returned:
            if c in sample.stock[sample.stock_pos:]:
                where[c].add(sample.stock.index(c))
    assert all(len(places) > 3 for c, places in where.items() if c in state.stock[state.stock_pos:])
