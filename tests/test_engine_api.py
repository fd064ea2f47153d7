"""The engine API refuses bad calls clearly (issue 20): ``apply_action`` with anything that is not
an action id of the game raises the engine's own error naming the action and the type expected,
the same check for every game, and nothing changes; ``Game.num_players()`` is a method."""

from __future__ import annotations

import pytest

from kafenio import load_game
from kafenio.engine.errors import IllegalAction, KafenioError

GAMES = ["basra", "pisti", "xeri", "diloti", "biriba", "buraco"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", ["play 7D", None, 3.0, True, False, -1, 10 ** 6, [1], b"1"])
def test_apply_action_refuses_what_is_not_an_action_id(name, bad):
    game = load_game(name)
    state = game.new_initial_state(seed=1)
    before = state.serialize()
    with pytest.raises(IllegalAction) as err:
        state.apply_action(bad)
    message = str(err.value)
    assert repr(bad) in message and "integer from 0 to" in message and str(game.num_distinct_actions() - 1) in message
    assert isinstance(err.value, KafenioError) and state.serialize() == before


@pytest.mark.parametrize("name", GAMES)
def test_an_id_in_range_but_not_legal_names_the_rule(name):
    game = load_game(name)
    state = game.new_initial_state(seed=1)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalAction) as err:
        state.apply_action(illegal)
    assert ".md" in err.value.rule and "integer from 0" not in str(err.value)


@pytest.mark.parametrize("name", GAMES)
def test_num_players_is_a_method(name):
    game = load_game(name)
    assert game.num_players() == game.rules.num_players and type(game.num_players()) is int
    assert game.num_players == game.num_players()   # the deprecated reading still gives the number
