"""Levels and player names resolve; unknown names are refused with the list; hints are legal."""

from __future__ import annotations

import importlib.util

import pytest

import kafenio
from kafenio.agents import RandomPlayer
from kafenio.agents.hints import _worlds_verdict, suggest
from kafenio.agents.ismcts import Budget, ISMCTSPlayer, search_settings
from kafenio.agents.levels import (
    EXPERT_FISHING,
    FISHING_GAMES,
    HARD_FISHING,
    LEVEL_SEARCH,
    LEVELS,
    SEARCH_BUDGETS,
    make_level_player,
    make_named_player,
)
from kafenio.agents.pimc import PIMCPlayer, PIMCResult
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Seat

pytestmark = pytest.mark.skipif("basra" not in kafenio.available_games(), reason="basra not available yet")
HAS_HEURISTIC = importlib.util.find_spec("kafenio.agents.heuristic_basra") is not None


@pytest.fixture
def game():
    return kafenio.load_game("basra")


def test_levels_in_order_and_resolve(game):
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    hard, expert = make_level_player("hard", game, 1), make_level_player("expert", game, 1)
    assert isinstance(hard, ISMCTSPlayer) and isinstance(expert, PIMCPlayer)
    assert expert.settings == EXPERT_FISHING["basra"] and expert.settings.majority and expert.settings.endgame
    assert hard.name == "hard" and expert.name == "expert"
    for level in ("easy", "medium"):
        if HAS_HEURISTIC:
            assert make_named_player(level, game, 1).name == level
        else:
            with pytest.raises(KafenioError, match="heuristic"):
                make_named_player(level, game, 1)


def test_named_players(game):
    assert isinstance(make_named_player("random", game, 1), RandomPlayer)
    assert make_named_player("ismcts", game, 1).budget == Budget(iterations=500)
    player = make_named_player("ismcts:50/1.5s", game, 1)
    assert player.budget == Budget(50, 1.5) and player.name == "ismcts:50/1.5s"


@pytest.mark.parametrize("name", ["grandmaster", "random:5", "Expert", ""])
def test_unknown_names_list_the_players(game, name):
    with pytest.raises(KafenioError) as err:
        make_named_player(name, game, 1)
    assert all(level in str(err.value) for level in LEVELS) and "random" in str(err.value)


def test_unknown_level_lists_levels(game):
    with pytest.raises(KafenioError, match="easy, medium, hard, expert"):
        make_level_player("heuristic", game)


def test_hint_is_legal_with_a_reason(game):
    state = game.new_initial_state(seed=8)
    for _ in range(3):
        seat = state.current_player()
        hint = suggest(Seat(state, seat), budget=Budget(iterations=40), seed=2)
        assert hint.action in state.legal_actions()
        assert hint.text == state.action_to_string(hint.action, seat)
        assert hint.reason.strip()
        assert suggest(state, seat, budget=Budget(iterations=40), seed=2) == hint
        state.apply_action(hint.action)


@pytest.mark.parametrize("name", FISHING_GAMES)
def test_a_fishing_hint_is_the_experts_move(name):
    """The fishing games' hints search the expert's worlds (in the pile games the hint's ISMCTS
    played worse than the heuristic: docs/strength.md, "Hints in the pile games")."""
    game = kafenio.load_game(name)
    state = game.new_initial_state(seed=4)
    for _ in range(4):
        seat = Seat(state, state.current_player())
        hint = suggest(seat, seed=3)
        expert = PIMCPlayer(game, 3, EXPERT_FISHING[name])
        expert.catch_up(seat)
        found = expert.decide(seat)
        assert hint.action == found.action and hint.action in seat.legal_actions()
        if found.worlds:
            assert hint.reason.endswith(f"({found.worlds * len(found.values)} simulations)"), hint.reason
        state.apply_action(hint.action)


def test_the_worlds_verdict_says_when_the_kept_move_is_not_the_best_mean():
    assert _worlds_verdict(PIMCResult(7, 40, 0.1, {7: 1.5, 9: -0.5})) == (
        "expected margin +1.5 a deal, next best move -0.5 (80 simulations)")
    assert _worlds_verdict(PIMCResult(7, 40, 0.1, {7: 0.5, 9: 1.0, 12: 0.0})) == (
        "expected margin +0.5 a deal, no other move clearly better (120 simulations)")
    assert _worlds_verdict(PIMCResult(7, 0, 0.0, {7: 0.0})) == "the only legal move"


@pytest.mark.parametrize(("name", "levels"), [("basra", ("hard",)), ("biriba", ("hard", "expert"))])
def test_search_levels_take_the_games_budget_and_drop_caps_on_request(name, levels):
    game = kafenio.load_game(name)
    for level in levels:
        budgets = SEARCH_BUDGETS[level]
        player = make_level_player(level, game, 1)
        assert player.budget == budgets.get(game.name, budgets["*"])
        assert player.settings == LEVEL_SEARCH.get(level, {}).get(name, search_settings(game))
        bound = make_level_player(level, game, 1, time_caps=False)
        assert bound.budget == Budget(player.budget.iterations)
    assert make_named_player("ismcts:50/1.5s", game, 1, time_caps=False).budget == Budget(50)
    assert make_named_player("hard", game, 1, time_caps=False).budget.seconds is None


@pytest.mark.parametrize("name", FISHING_GAMES)
def test_the_fishing_experts_search_sampled_worlds(name):
    expert = make_named_player("expert", kafenio.load_game(name), 1, time_caps=False)
    assert isinstance(expert, PIMCPlayer) and expert.settings == EXPERT_FISHING[name]


@pytest.mark.parametrize("name", ["pisti", "xeri"])
def test_hard_plays_out_fewer_worlds_than_expert_in_the_pile_games(name):
    game = kafenio.load_game(name)
    hard, expert = (make_named_player(level, game, 1, time_caps=False) for level in ("hard", "expert"))
    assert isinstance(hard, PIMCPlayer) and hard.settings == HARD_FISHING[name] and hard.name == "hard"
    assert hard.settings.playout and expert.settings.playout and hard.settings.worlds < expert.settings.worlds


@pytest.mark.parametrize("name", ["biriba", "buraco"])
def test_rummy_expert_searches_with_its_levels_settings(name):
    if name not in kafenio.available_games():
        pytest.skip(f"{name} not available yet")
    game = kafenio.load_game(name)
    hard, expert = make_level_player("hard", game, 1), make_level_player("expert", game, 1)
    assert hard.settings == search_settings(game)
    assert expert.settings == LEVEL_SEARCH["expert"].get(name, search_settings(game))
    assert expert.settings != hard.settings
    # Buraco's expert: hard's rollouts, twice as long (docs/strength.md, commit 3a753d9)
    assert (expert.settings.rollout_depth > hard.settings.rollout_depth) == (name == "buraco")
    assert (expert.settings.preferred_moves == hard.settings.preferred_moves) == (name == "buraco")
    assert hard.budget.iterations < expert.budget.iterations and expert.budget.seconds <= 2.0
