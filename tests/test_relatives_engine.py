"""Pişti, Xeri and Diloti engines: presets, bad input, records, heuristics."""

from __future__ import annotations

import json
import random

import pytest

import kafenio
from kafenio import load_game
from kafenio.agents import RandomPlayer, make_player, play_deal
from kafenio.engine.errors import CardError, IllegalAction, KafenioError, RulesError

GAMES = ("pisti", "xeri", "diloti")
ALL_PRESETS = [(g, p.name) for g in GAMES for p in kafenio.rulebook(g).presets]


@pytest.mark.parametrize("game_name, preset", ALL_PRESETS)
def test_every_preset_loads_and_plays(game_name, preset):
    game = load_game(game_name, preset=preset)
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        state.playout(random.Random(seed))
        sheet = state.score_sheet()
        assert state.is_terminal() and sheet["final"]
        assert sum(s["cards"] for s in sheet["sides"]) + len(state.floor) == 52
        for side in sheet["sides"]:
            extra = sum(v for k, v in side.items() if k in ("last_pile_bonus", "bluff_penalties"))
            assert side["total"] == side["majority"] + side["card_points"] + side[game.special_name]["points"] + extra
        json.dumps(state.view(0))


@pytest.mark.parametrize("game_name", GAMES)
def test_illegal_and_out_of_turn_name_the_rule(game_name):
    game = load_game(game_name)
    state = game.new_initial_state(seed=2)
    before = state.serialize()
    other = state.hands[(state.current_player() + 1) % game.num_players()][0]
    with pytest.raises(IllegalAction) as err:
        state.apply_action(other)
    assert err.value.rule.startswith("fishing-relatives.md §") and state.serialize() == before
    for bad in (500, -1, "x"):   # not an action id at all: the engine contract's one check
        with pytest.raises(IllegalAction) as err:
            state.apply_action(bad)
        assert "integer from 0 to" in str(err.value) and state.serialize() == before
    state.playout(random.Random(1))
    with pytest.raises(IllegalAction) as err:
        state.apply_action(0)
    assert "§" in err.value.rule


def test_pile_bluff_and_diloti_specific_errors():
    state = load_game("pisti").new_initial_state(seed=1)
    with pytest.raises(IllegalAction) as err:
        state.apply_action(52 + state.hands[state.current_player()][0])
    assert err.value.rule == "fishing-relatives.md §A4.2"
    with pytest.raises(IllegalAction):
        state.apply_string("believe")
    game = load_game("diloti")
    state = game.position([], [[], []], to_play=0)
    with pytest.raises(IllegalAction) as err:
        state.apply_action(game.redeal_action)
    assert err.value.rule == "fishing-relatives.md §C2"


@pytest.mark.parametrize("game_name", GAMES)
def test_bad_cards_and_text(game_name):
    state = load_game(game_name).new_initial_state(seed=1)
    with pytest.raises(CardError):
        state.string_to_action("play 1Z")
    with pytest.raises(KafenioError):
        state.string_to_action("discard 5H")
    with pytest.raises(KafenioError):
        load_game(game_name).new_initial_state(deck=[0, 1, 2])


@pytest.mark.parametrize("game_name, bad, option", [
    ("pisti", {"num_players": 5}, "num_players"),
    ("pisti", {"jack_pisti_points": 15}, "jack_pisti_points"),
    ("pisti", {"card_points": "greek"}, "card_points"),
    ("xeri", {"num_players": 3}, "num_players"),
    ("xeri", {"cut_jack_rule": "bottom_not_jack"}, "cut_jack_rule"),
    ("xeri", {"both_reach_rule": "higher_wins"}, "both_reach_rule"),
    ("diloti", {"capture_rule": "maximal"}, "capture_rule"),
    ("diloti", {"target_score": 99}, "target_score"),
    ("diloti", {"colour": "red"}, "colour"),
])
def test_bad_options_name_the_option(game_name, bad, option):
    with pytest.raises(RulesError) as err:
        load_game(game_name, options=bad)
    assert err.value.option == option


@pytest.mark.parametrize("game_name", GAMES)
def test_heuristic_beats_random(game_name):
    game = load_game(game_name, preset="pagat_2p")
    wins = 0
    total = 0.0
    for seed in range(12):
        state = game.new_initial_state(seed=seed)
        players = [make_player("heuristic", game, seed), RandomPlayer(game, seed)]
        if seed % 2:
            players.reverse()
        me = 0 if seed % 2 == 0 else 1
        play_deal(state, players)
        scores = state.side_scores()
        total += scores[me] - scores[1 - me]
        wins += scores[me] > scores[1 - me]
    assert wins >= 8 and total > 0


def test_xeri_opening_check_through_the_whole_stock_keeps_the_view_consistent():
    """gamerules_4p: when the opening-pile check goes through the whole stock, the cards that end
    on the pile are not listed as known at the bottom of the stock (fishing-relatives.md B2)."""
    state = load_game("xeri", preset="gamerules_4p").new_initial_state(seed=122974)
    assert all(c in state.stock for c in state.stock_known)
    for seat in (None, 0, 1, 2, 3):
        state.view(seat)
