"""One PettingZoo AEC environment for every kafenio game (``AI-NOTES.md`` §1, §5).

The environment is generic over the engine contract (:mod:`kafenio.engine.game`); the per-game
modules (:mod:`kafenio.rl.basra_v0`, …) only name the game and add PettingZoo's standard wrappers.

* Agents are ``"player_0" … "player_{n−1}"``, one per seat; seat ``i`` is ``"player_i"``.
* ``observe(agent)`` → ``{"observation": float32 (game.observation_tensor_shape()),
  "action_mask": int8 (num_distinct_actions,)}``; the mask is 1 for a legal action and all zeros
  for an agent not on turn. The observation layout belongs to the game module
  (``docs/observations.md``). Both arrays are per-agent buffers that the next ``observe`` of
  the same agent overwrites in place: copy them to keep them.
* The action space is ``Discrete(num_distinct_actions)`` (:class:`ActionSpace`, with a faster
  masked ``sample``): the game's fixed action ids. A turn may take several consecutive
  decisions of the same agent (e.g. play a card, then choose the capture), so
  ``agent_selection`` can stay on one agent.
* Rewards are in game points: after every step each agent gets the change of its **side's**
  running deal score (``State.side_scores``), so partners get equal rewards and the sum of an
  agent's rewards over a deal equals its side's final deal score (``State.returns``).
* Every agent terminates when the deal ends (one episode = one deal); there is no truncation.
* An action outside the mask raises :class:`~kafenio.engine.errors.IllegalAction` naming the
  action and the legal ones (PettingZoo's ``TerminateIllegalWrapper`` can be added by hand for
  the classic "−1 and end the game" behaviour instead).
* ``render_mode="ansi"``: ``render()`` returns the spectator view and the view of the agent on
  turn as text.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from kafenio import load_game
from kafenio.engine.errors import IllegalAction, RulesError
from kafenio.engine.game import TERMINAL, Game, State


def agent_name(seat: int) -> str:
    """The PettingZoo agent name of ``seat``: ``player_<seat>``."""
    return f"player_{seat}"


def resolve_game(game: str | Game, preset: str | Iterable[str] | None = None,
                 rules: Mapping[str, Any] | Iterable[str] | None = None) -> Game:
    """A loaded game: ``game`` as is, or ``kafenio.load_game(game, preset, rules)``.

    Raises:
        RulesError: an unknown game, preset (the message lists the presets) or option, or
            preset/rules given together with a :class:`Game` instance.
    """
    if isinstance(game, Game):
        if preset is not None or rules is not None:
            raise RulesError(game.name, "preset and rules apply to a game name, not a loaded game")
        return game
    return load_game(game, preset=preset, options=rules)


def illegal_action_error(state: State, action: Any, who: str) -> IllegalAction:
    """The error for ``action`` outside the legal set: names the action, why, and the legal ones.

    Args:
        state: the state the action was tried in (unchanged).
        action: the action as given (any type).
        who: the actor's name for the message (``player_1``, ``the learner``).
    """
    legal = ", ".join(f"{a} ({state.action_to_string(a)})" for a in state.legal_actions())
    try:
        error = state.explain_illegal(int(action))
        reason, rule = str(error), error.rule
    except (TypeError, ValueError, IndexError, KeyError):
        reason, rule = "not an action id", "kafenio.rl"
    return IllegalAction(rule, f"{who} cannot play it now ({reason}); the legal actions are: {legal or 'none'}",
                         action)


def view_text(state: State, seat: int | None) -> str:
    """A seat's view (``None``: spectator) as ``key: value`` lines of JSON values."""
    title = "spectator" if seat is None else agent_name(seat)
    lines = [f"== {title} =="]
    lines += [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in state.view(seat).items()]
    return "\n".join(lines)


class ActionSpace(spaces.Discrete):
    """``Discrete(n)`` whose masked ``sample`` reads the mask twice in C and does the rest per
    legal action: gymnasium's own makes six passes and four temporary arrays over all ``n``
    ids, a third of a Biriba step when ``n`` is 5,841 (the rummy action space). Same checks
    (anything gymnasium would reject goes to gymnasium, which raises its AssertionError), same
    result for an all-zero mask (``start``), the legal id drawn uniformly by the space's
    seeded ``np_random``.
    """

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        """A uniformly drawn id with ``mask[id] == 1``, as :meth:`gymnasium.spaces.Discrete.sample`.

        Args:
            mask: int8 array of shape ``(n,)`` of 0/1, or ``None`` (any id).
            probability: float64 array of shape ``(n,)`` (handled by gymnasium).

        Raises:
            AssertionError: a mask of another type, dtype, shape or with values other than 0/1
                (gymnasium's message), or both ``mask`` and ``probability`` (ValueError).
        """
        if (probability is not None or not isinstance(mask, np.ndarray) or mask.dtype != np.int8
                or mask.shape != (self.n,) or mask.view(np.uint8).max() > 1):
            return super().sample(mask, probability)
        legal = mask.view(np.bool_).nonzero()[0]
        if not len(legal):
            return self.start
        return self.start + self.dtype.type(legal[self.np_random.integers(len(legal))])


class KafenioAECEnv(AECEnv):
    """A PettingZoo AEC environment playing one deal of a kafenio game per episode.

    Args:
        game: a game name (``"basra"``, ``"biriba"``, …) or a loaded :class:`Game`.
        preset: preset name(s) for a game name (see ``kafenio.load_game``).
        rules: rule options for a game name: ``{option: value}`` or ``["option=value", …]``.
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        RulesError: an unknown game, preset (the message lists the presets) or option.
        ValueError: an unsupported ``render_mode``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "kafenio_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game = "basra", preset: str | Iterable[str] | None = None,
                 rules: Mapping[str, Any] | Iterable[str] | None = None, render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self._rng = random.Random(secrets.randbits(63))
        self.state: State | None = None
        self._set_game(resolve_game(game, preset, rules))

    def _set_game(self, game: Game) -> None:
        """Adopt ``game``: agents, spaces, per-seat buffers and static infos."""
        self.game = game
        self.metadata = {**type(self).metadata, "name": f"{game.name}_v0"}
        n = game.num_players()
        self.possible_agents = [agent_name(s) for s in range(n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._side = [game.side_of(s) for s in range(n)]
        shape = tuple(game.observation_tensor_shape())
        num_actions = game.num_distinct_actions()
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape, np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        })
        # one space object per agent, so seeding one agent's space does not seed the others'
        self.observation_spaces = {a: obs_space if s == 0 else spaces.Dict(dict(obs_space.spaces))
                                   for s, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: ActionSpace(num_actions) for a in self.possible_agents}
        self._buffers = [(np.zeros(shape, np.float32), np.zeros(num_actions, np.int8)) for _s in range(n)]
        # per side, the agents of that side (rewards go to a side's agents)
        self._side_agents = [[a for s, a in enumerate(self.possible_agents) if self._side[s] == side]
                             for side in range(game.num_sides)]

    def observation_space(self, agent: str) -> spaces.Dict:
        """``Dict(observation=Box float32, action_mask=Box int8 0/1)``; the same object per agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_distinct_actions)``; the same object per agent."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new hand.

        Args:
            seed: seeds the deal sequence: the same seed gives the same deals from here on.
            options: ``preset`` and ``rules`` (as the constructor's; when either is given the
                game is reloaded from these two alone, and the spaces follow the new rules) and
                ``dealer`` (a seat, default 0). Other keys are ignored.

        Raises:
            RulesError: a bad preset (listing the presets) or rule option.
            KafenioError: a dealer out of range.
        """
        options = options or {}
        if "preset" in options or "rules" in options:
            self._set_game(load_game(self.game.name, preset=options.get("preset"), options=options.get("rules")))
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(seed=self._rng.getrandbits(63), dealer=options.get("dealer", 0))
        self._scores = [0.0] * self.game.num_sides
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"side": self._side[s]} for s, a in enumerate(self.agents)}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32, "action_mask": int8}``: the agent's two reused buffers,
        rewritten in place (``State.write_observation``, ``State.legal_actions_mask``)."""
        seat = self._seat[agent]
        observation, mask = self._buffers[seat]
        state = self.state
        state.write_observation(seat, observation)
        state.legal_actions_mask(seat, mask)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (``None`` for an agent whose deal is over).

        Raises:
            IllegalAction: an action outside the mask, naming it and the legal actions; the
                environment is unchanged.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        try:
            state.apply_action(int(action))
        except (IllegalAction, TypeError, ValueError):
            raise illegal_action_error(state, action, agent) from None
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        scores = state.side_scores()
        previous = self._scores
        if scores == previous:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        else:
            self._scores = scores
            self.rewards = rewards = dict.fromkeys(self.agents, 0.0)
            for side, agents in enumerate(self._side_agents):
                reward = float(scores[side] - previous[side])
                if reward:
                    for a in agents:
                        rewards[a] = reward
                        cumulative[a] += reward
        player = state.current_player()
        if player == TERMINAL:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[player]

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the spectator view, then the view of the agent on turn."""
        if self.render_mode is None or self.state is None:
            return None
        parts = [view_text(self.state, None)]
        player = self.state.current_player()
        if player >= 0:
            parts.append(view_text(self.state, player))
        return "\n".join(parts)

    def close(self) -> None:
        """Nothing to release."""


class OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the reads of every step made direct.

    The base wrapper reaches each attribute of the raw environment through a failed lookup
    and two ``__getattr__`` frames; ``last()`` makes six such reads and the ``agent_iter``
    loop two more, a tenth of a step. Here ``last``, ``agents`` and ``agent_selection`` read
    the raw environment after checking ``reset`` was called, and raise the wrapper's own
    AttributeError before it.
    """

    def _after_reset(self, name: str) -> Any:
        return getattr(self.env, name) if self._has_reset else super().__getattr__(name)

    @property
    def agents(self) -> list[str]:
        return self._after_reset("agents")

    @property
    def agent_selection(self) -> str:
        return self._after_reset("agent_selection")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent on turn's ``(observation, cumulative reward, terminated, truncated, info)``.

        Raises:
            AttributeError: before ``reset``.
        """
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")  # as the base's last()
        return self.env.last(observe)

    def __str__(self) -> str:
        return str(self.env)


def wrap(env: KafenioAECEnv) -> AECEnv:
    """PettingZoo's standard wrapping of a raw environment, as the classic envs do.

    Only order enforcing (``reset`` before ``step``/``observe``; :class:`OrderEnforcing`): the
    raw environment already rejects an action outside the mask or the action space with a
    clearer error than ``AssertOutOfBoundsWrapper``'s, and illegal moves raise rather than end
    the game (add ``TerminateIllegalWrapper`` by hand for the classic −1 behaviour).
    """
    return OrderEnforcing(env)


def env_functions(game: str) -> tuple[Callable[..., KafenioAECEnv], Callable[..., AECEnv]]:
    """The ``raw_env`` and ``env`` functions of the module ``kafenio.rl.<game>_v0``.

    ``raw_env(**kwargs)`` is the unwrapped environment (keyword arguments ``preset``, ``rules`` —
    ``load_game``'s options — and ``render_mode``); it raises RulesError for an unknown preset
    (the message lists the presets) or rule option. ``env(**kwargs)`` adds PettingZoo's standard
    wrappers (:func:`wrap`).
    """

    def raw_env(**kwargs: Any) -> KafenioAECEnv:
        return KafenioAECEnv(game, **kwargs)

    def env(**kwargs: Any) -> AECEnv:
        return wrap(raw_env(**kwargs))

    raw_env.__doc__ = f"The unwrapped {game} environment (see :func:`kafenio.rl.aec.env_functions`)."
    env.__doc__ = f"The {game} environment with PettingZoo's standard wrappers."
    return raw_env, env

