"""The OpenSpiel adapter (kafenio.openspiel): registration, the API, and ISMCTS playing whole deals.

Needs open-spiel==2.0.2; skipped without it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from kafenio import load_game, openspiel  # noqa: E402

REGISTERED = openspiel.register()


def play_deal(game, bot_seat: int, seed: int, simulations: int) -> tuple[list[float], int]:
    """One deal: OpenSpiel's Python ISMCTSBot at ``bot_seat``, uniform random elsewhere.

    Returns:
        the returns and the number of moves the bot chose.
    """
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, simulations, random_state=rs)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        elif state.current_player() == bot_seat:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    return state.returns(), moves


def test_register_is_idempotent():
    assert openspiel.register() == REGISTERED
    assert set(REGISTERED) <= set(pyspiel.registered_names())


def test_basra_api():
    game = pyspiel.load_game("kafenio_basra", {"deals": 100, "rules": "num_players=4"})
    assert game.num_players() == 4 and game.max_chance_outcomes() == 100
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 100
    state.apply_action(42)
    player = state.current_player()
    assert len(state.observation_tensor(player)) == int(np.prod(game.observation_tensor_shape()))
    assert "hand" in state.information_state_string(player)
    assert state.legal_actions_mask(player).count(1) == len(state.legal_actions())
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() == [42, state.legal_actions()[0]] and state.history() == [42]
    sampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sampled.information_state_string(player) == state.information_state_string(player)
    assert state.deal.hands[player] == sampled.deal.hands[player]


def test_ismcts_plays_a_whole_basra_deal():
    game = pyspiel.load_game("kafenio_basra")
    returns, moves = play_deal(game, bot_seat=0, seed=0, simulations=20)
    assert moves > 0 and sum(returns) == pytest.approx(0.0)


def test_ismcts_plays_a_whole_biriba_deal():
    game = pyspiel.load_game("kafenio_biriba")
    returns, moves = play_deal(game, bot_seat=0, seed=0, simulations=3)
    assert moves > 0 and sum(returns) == pytest.approx(0.0)


@pytest.mark.parametrize("name", [n.removeprefix("kafenio_") for n in REGISTERED])
def test_side_scores_stay_within_the_declared_utility_bounds(name):
    game = load_game(name)
    lo, hi = openspiel.side_score_bounds(game)
    spiel = pyspiel.load_game(openspiel.short_name(name))
    assert (spiel.min_utility(), spiel.max_utility()) == (lo - hi, hi - lo)
    rng = random.Random(0)
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        state.playout(rng)
        assert all(lo <= score <= hi for score in state.side_scores())
