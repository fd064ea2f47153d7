"""The Gymnasium single-agent environment (kafenio.rl.gym): env_checker, masks, rewards.

Needs gymnasium (1.x) and pettingzoo==1.26.1 (kafenio.rl imports it); skipped without them.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env

from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.rl.gym import KafenioGymEnv


def test_env_checker():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box: the score slots have no fixed range
        check_env(KafenioGymEnv("basra", opponents="random"), skip_render_check=False)


def test_action_masks_and_reward_sum():
    env = KafenioGymEnv("basra", seat=1, opponents="random")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=4)
    total, terminated = 0.0, False
    while not terminated:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,)
        assert (mask == info["action_mask"].astype(bool)).all() and mask.any()
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        total += reward
    assert not env.action_masks().any()
    assert total == pytest.approx(env.state.returns()[1])


def test_illegal_action():
    env = KafenioGymEnv("basra", illegal_action="raise")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalAction, match="the legal actions are"):
        env.step(illegal)
    env = KafenioGymEnv("basra", illegal_reward=-5)
    env.reset(seed=0)
    _obs, reward, terminated, _truncated, info = env.step(illegal)
    assert terminated and reward == -5 and repr(illegal) in info["illegal_action"]


def test_opponents_by_name_and_errors():
    env = KafenioGymEnv("basra", opponents=["random", "random"])
    env.reset(seed=0)
    with pytest.raises(KafenioError, match="random"):
        KafenioGymEnv("basra", opponents="grandmaster")
    with pytest.raises(ValueError, match="one per seat"):
        KafenioGymEnv("basra", opponents=["random"] * 3)
