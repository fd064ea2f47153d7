"""The PettingZoo AEC environments (kafenio.rl): API and seed tests, rewards, errors.

Needs pettingzoo==1.26.1 (and its gymnasium); skipped without them.
"""

from __future__ import annotations

import copy
import importlib
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test

import kafenio
from kafenio.engine.errors import IllegalAction, RulesError
from kafenio.rl.aec import KafenioAECEnv

GAMES = list(kafenio.GAMES)


def env_module(game: str):
    """The per-game module ``kafenio.rl.<game>_v0``."""
    return importlib.import_module(f"kafenio.rl.{game}_v0")


@pytest.mark.parametrize("game", GAMES)
def test_api(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: PettingZoo warns by env-name lists
        api_test(env_module(game).env(), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_seed(game):
    seed_test(env_module(game).env, num_cycles=200)


def play_random_deal(env, seed: int) -> dict[str, float]:
    """Play one deal with random legal actions; each agent's rewards summed as ``last()`` gives them."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _info = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8
        assert obs["observation"].dtype == np.float32
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return total


@pytest.mark.parametrize("game", GAMES)
def test_reward_sum_is_side_score(game):
    env = KafenioAECEnv(game)
    for seed in range(3):
        total = play_random_deal(env, seed)
        state = env.state
        assert state.is_terminal()
        returns = state.returns()
        for seat, agent in enumerate(env.possible_agents):
            assert total[agent] == pytest.approx(returns[seat])


def test_partners_get_equal_rewards():
    env = KafenioAECEnv("basra", rules={"num_players": 4, "partnerships": True})
    total = play_random_deal(env, 5)
    assert total["player_0"] == total["player_2"]
    assert total["player_1"] == total["player_3"]


@pytest.mark.parametrize("game", GAMES)
def test_observe_rewrites_each_agents_buffers(game):
    env = KafenioAECEnv(game)
    env.reset(seed=5)
    rng = random.Random(5)
    first = {agent: env.observe(agent) for agent in env.agents}
    for _step in range(60):
        state = env.state
        for seat, agent in enumerate(env.agents):
            obs = env.observe(agent)
            assert all(obs[key] is first[agent][key] for key in ("observation", "action_mask"))
            assert np.array_equal(obs["observation"], state.observation_tensor(seat))
            legal = state.legal_actions() if seat == state.current_player() else []
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        if state.is_terminal():
            break
        env.step(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", ["biriba", "basra"])
def test_a_deep_copy_observes_its_own_state(game):
    env = KafenioAECEnv(game)
    env.reset(seed=2)
    rng = random.Random(2)
    for _step in range(20):
        env.observe(env.agent_selection)
        env.step(rng.choice(env.state.legal_actions()))
    twin = copy.deepcopy(env)
    for current in (env, twin, twin, env):
        state = current.state
        obs = current.observe(current.agent_selection)
        assert np.flatnonzero(obs["action_mask"]).tolist() == state.legal_actions()
        assert np.array_equal(obs["observation"], state.observation_tensor(state.current_player()))
        current.step(state.legal_actions()[-1])


def test_mask_is_zero_off_turn():
    env = KafenioAECEnv("basra")
    env.reset(seed=1)
    on_turn = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == on_turn)


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_names_it_and_the_legal_ones(game):
    env = env_module(game).env()
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    legal = np.flatnonzero(obs["action_mask"]).tolist()
    with pytest.raises(IllegalAction) as info:
        env.step(illegal)
    message = str(info.value)
    assert repr(illegal) in message and env.agent_selection in message
    assert all(str(a) in message for a in legal)
    with pytest.raises(IllegalAction, match=r"1000000.*the legal actions are"):
        env.step(10**6)


@pytest.mark.parametrize("game", GAMES)
def test_bad_preset_lists_the_presets(game):
    module = env_module(game)
    presets = kafenio.rulebook(game).preset_by_name
    with pytest.raises(RulesError) as info:
        module.env(preset="no_such_preset")
    assert all(name in str(info.value) for name in presets)


def test_reset_options_reload_the_rules():
    env = KafenioAECEnv("basra")
    env.reset(seed=0, options={"rules": {"num_players": 4}})
    assert env.agents == ["player_0", "player_1", "player_2", "player_3"]
    with pytest.raises(RulesError, match="egyptian"):
        env.reset(options={"preset": "nope"})


def test_render_ansi():
    env = KafenioAECEnv("basra", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "== spectator ==" in text and f"== {env.agent_selection} ==" in text


def test_masked_sample_draws_as_gymnasium_does():
    """ActionSpace.sample: only ids of the mask, the same draws as gymnasium's Discrete for the
    same seed, ``start`` for an all-zero mask."""
    from gymnasium import spaces

    from kafenio.rl.aec import ActionSpace

    ours, theirs = ActionSpace(5841, seed=7), spaces.Discrete(5841, seed=7)
    mask = np.zeros(5841, np.int8)
    for legal in ([3], [0, 5840], [17, 4000, 4001, 5000], list(range(100, 5841, 37))):
        mask.fill(0)
        mask[legal] = 1
        draws = [ours.sample(mask) for _ in range(200)]
        assert draws == [theirs.sample(mask) for _ in range(200)]
        assert set(draws) <= set(legal) and type(draws[0]) is np.int64
    mask.fill(0)
    assert ours.sample(mask) == 0


@pytest.mark.parametrize("bad", [np.full(5841, 2, np.int8), np.full(5841, -1, np.int8),
                                 np.ones(5841, np.int32), np.ones(40, np.int8), [1] * 5841])
def test_masked_sample_rejects_what_gymnasium_rejects(bad):
    from kafenio.rl.aec import ActionSpace

    with pytest.raises(AssertionError):
        ActionSpace(5841, seed=1).sample(bad)


def test_order_enforcing_before_reset():
    """The wrapper's direct reads (last, agents, agent_selection) still refuse before reset."""
    env = env_module("basra").env()
    for read in (lambda: env.last(), lambda: env.agents, lambda: env.agent_selection):
        with pytest.raises(AttributeError, match="before reset"):
            read()
    env.reset(seed=3)
    assert env.agent_selection == env.unwrapped.agent_selection and env.agents == env.possible_agents
    assert str(env) == "basra_v0"
