"""The Basra engine: presets, the action space and notation, errors, views and records."""

from __future__ import annotations

import json
import random

import pytest

from kafenio import load_game
from kafenio.cards import format_card
from kafenio.engine.errors import CardError, IllegalAction, KafenioError, RulesError
from kafenio.engine.match import Match
from kafenio.games.basra import PRESETS, BasraGame

PRESET_NAMES = [p.name for p in PRESETS]


def test_thirteen_presets():
    assert len(PRESET_NAMES) == 13


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_every_preset_plays_a_random_deal(preset, players):
    game = load_game("basra", preset=preset, options={"num_players": players})
    state = game.new_initial_state(seed=11)
    state.playout(random.Random(5))
    assert state.is_terminal() and state.legal_actions() == []
    assert sum(s["cards"] for s in state.score_sheet()["sides"]) + len(state.floor) == len(game.full_deck())
    sheet = state.score_sheet()
    for side in sheet["sides"]:
        assert side["total"] == side["majority"] + side["card_points"] + side["basras"]["points"]
    assert state.side_scores() == [s["total"] for s in sheet["sides"]]
    json.dumps(state.view(0))


def test_three_players_and_four_individuals():
    game = load_game("basra", preset="greek_bastra", options={"num_players": 3})
    assert game.num_sides == 3 and [game.side_of(s) for s in range(3)] == [0, 1, 2]
    game = load_game("basra", options={"num_players": 4})
    assert game.num_sides == 2 and game.seats_of(0) == [0, 2]
    game = load_game("basra", options={"num_players": 4, "partnerships": False})
    assert game.num_sides == 4
    game = load_game("basra", preset="greek_bastra", options={"num_players": 3, "deck": "no_kings_queens_44"})
    assert len(game.full_deck()) == 44   # basra.md v1.2 §1: three players with 44 cards (uneven last distribution)


@pytest.mark.parametrize("bad, option", [
    ({"seven_diamonds_basra_rule": "yemeni"}, "seven_diamonds_basra_rule"),
    ({"capture_compulsory": False}, "capture_compulsory"),  # with capture_mode = maximal: no effect (§3.1)
    ({"num_players": 5}, "num_players"),
    ({"jack_on_lone_jack_points": 15}, "jack_on_lone_jack_points"),
    ({"target_score": 99}, "target_score"),
    ({"card_points": {"X": 1}}, "card_points"),
    ({"colour": "red"}, "colour"),
])
def test_bad_options_name_the_option(bad, option):
    with pytest.raises(RulesError) as err:
        load_game("basra", preset="greek_bastra", options=bad)
    assert err.value.option == option


def test_constraints_on_egyptian_and_44_cards():
    with pytest.raises(RulesError) as err:
        load_game("basra", options={"basra_definition": "lone_card"})
    assert err.value.option == "basra_definition"
    with pytest.raises(RulesError) as err:
        load_game("basra", preset="palestinian", options={"picture_basra_values": "ten"})
    assert err.value.option == "picture_basra_values"
    with pytest.raises(RulesError) as err:
        load_game("basra", preset="cypriot")
    assert err.value.option == "cypriot"
    with pytest.raises(RulesError):
        load_game("basra", preset=["egyptian", "greek_bastra"])
    assert load_game("basra", options=["target_score=121", "capture_mode=player_choice"]).rules.target_score == 121
    free = load_game("basra", options=["capture_mode=player_choice", "capture_compulsory=false"])
    assert not free.rules.capture_compulsory


def test_illegal_actions_name_the_rule_and_change_nothing():
    game = load_game("basra")
    state = game.new_initial_state(seed=2)
    before = state.serialize()
    other = state.hands[1 - state.current_player()][0]
    with pytest.raises(IllegalAction) as err:
        state.apply_action(other)  # out of turn: another seat's card
    assert err.value.rule == "basra.md §3" and state.serialize() == before
    for bad in (60, 200, -1):
        with pytest.raises(IllegalAction):
            state.apply_action(bad)
        assert state.serialize() == before
    state.playout(random.Random(1))
    with pytest.raises(IllegalAction) as err:
        state.apply_action(0)
    assert err.value.rule == "basra.md §5"


def find_choice(game, seed=0):
    rng = random.Random(seed)
    for s in range(200):
        state = game.new_initial_state(seed=s)
        while not state.is_terminal():
            if state.pending is not None:
                return state
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    raise AssertionError("no capture choice met")


def test_pending_choice_is_a_second_step():
    game = load_game("basra", options={"capture_mode": "player_choice"})
    state = find_choice(game)
    before = state.serialize()
    with pytest.raises(IllegalAction) as err:
        state.apply_action(state.hands[state.current_player()][0] if state.hands[state.current_player()] else 0)
    assert err.value.rule == "basra.md §3.1" and state.serialize() == before
    view = state.view(state.current_player())
    assert view["phase"] == "choose" and len(view["pending"]["choices"]) == len(state.legal_actions())
    text = state.action_to_string(state.legal_actions()[-1])
    assert text.startswith("capture ")
    assert state.string_to_action(text) == state.legal_actions()[-1]
    with pytest.raises(IllegalAction):
        state.string_to_action("capture AS AH AD AC KS")


def test_notation_round_trips_and_bad_cards():
    for options in ({}, {"capture_mode": "player_choice", "capture_compulsory": False}):
        game = load_game("basra", options=options)
        rng = random.Random(3)
        for seed in range(20):
            state = game.new_initial_state(seed=seed)
            while not state.is_terminal():
                for action in state.legal_actions():
                    assert state.string_to_action(state.action_to_string(action)) == action
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    state = load_game("basra").new_initial_state(seed=1)
    with pytest.raises(CardError):
        state.string_to_action("play 1Z")
    with pytest.raises(KafenioError):
        state.string_to_action("discard 5H")
    with pytest.raises(KafenioError):
        load_game("basra").new_initial_state(deck=[0, 1, 2])
    with pytest.raises(KafenioError):
        load_game("basra", preset="palestinian").new_initial_state(deck=list(range(52)))


def test_views_hide_other_hands_and_the_stock():
    game = load_game("basra", options={"num_players": 4})
    state = game.new_initial_state(seed=9)
    for seat in (0, 1, None):
        view = state.view(seat)
        text = json.dumps({k: v for k, v in view.items() if k != "floor"})
        for other in range(4):
            if other != seat:
                for card in state.hands[other]:
                    assert f'"{format_card(card)}"' not in text
        assert "seed" not in view and "deck" not in view
    assert state.view(None)["hand"] == [] and len(state.view(0)["hand"]) == 4
    for key in ("game", "seat", "num_players", "dealer", "current_player", "phase", "match_scores", "sides",
                "hand", "hand_sizes", "stock", "floor", "captured", "basras", "last_capture", "deal_points",
                "pending", "terminal"):
        assert key in state.view(0)
    assert state.observation_tensor(0).dtype.name == "float32"
    assert game.observation_tensor_shape() == state.observation_tensor(1).shape


def test_clone_is_independent():
    state = load_game("basra").new_initial_state(seed=4)
    copy = state.clone()
    copy.playout(random.Random(2))
    assert not state.is_terminal() and len(state.history) == 0
    state.playout(random.Random(2))
    assert state.serialize() == copy.serialize()



def test_match_winner_draw_and_game_class():
    assert BasraGame.name == "basra"
    game = load_game("basra", options={"target_comparison": "greater"})
    assert game.match_winner([101, 50], [0, 0], 1) is None and game.match_winner([102, 50], [0, 0], 1) == 0


def test_match_carries_a_tied_majority_into_the_next_deal():
    """basra.md §6 ``carry_over``: the engine's Match hands the tied majority to the next deal."""
    game = load_game("basra", preset="egyptian")
    rng = random.Random(5)
    for seed in range(300):
        match = Match(game, seed=seed)
        state = match.start_deal()
        state.playout(rng)
        carried = state.carry_out()
        match.finish_deal()
        if carried and not match.is_over:
            assert match.start_deal().carry_in == carried
            return
    raise AssertionError("no tied majority in 300 random first deals")
