"""A Gymnasium single-agent environment: one seat learns, kafenio players sit in the others.

>>> from kafenio.rl.gym import KafenioGymEnv
>>> env = KafenioGymEnv("basra", opponents="random")    # doctest: +SKIP
>>> obs, info = env.reset(seed=0)                       # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))  # doctest: +SKIP

* ``observation_space`` is ``Box(float32, game.observation_tensor_shape())`` (layout in
  ``docs/observations.md``); ``action_space`` is ``Discrete(num_distinct_actions)``
  (:class:`~kafenio.rl.aec.ActionSpace`).
* ``action_masks()`` is the learner's legal-action mask as ``bool`` — the method sb3-contrib's
  ``MaskablePPO`` calls; ``info["action_mask"]`` carries the same mask as ``int8``.
* An episode is one deal. After each learner action the other seats play (their players see
  only their own seats) until the learner is on turn again or the deal ends.
* The reward is the change of the learner **side's** running deal score since the learner's
  previous action (points scored by the other seats' moves included), so an episode's rewards
  sum to the learner side's deal score. ``info["side_scores"]`` has every side's running score.
* An action outside the mask (``illegal_action="terminate"``, the default, as PettingZoo's
  ``TerminateIllegalWrapper`` and as ``gymnasium.utils.env_checker.check_env``'s unmasked random
  actions need) ends the episode with reward ``illegal_reward`` and ``info["illegal_action"]``,
  the message naming the action and the legal ones; with ``illegal_action="raise"`` it raises
  :class:`~kafenio.engine.errors.IllegalAction` with that message instead.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from kafenio.agents import Player
from kafenio.agents.levels import make_named_player
from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.engine.game import TERMINAL, Game, Seat
from kafenio.rl.aec import ActionSpace, illegal_action_error, resolve_game, view_text


def make_opponent(spec: str | Player, game: Game, seed: int) -> Player:
    """A player for a non-learning seat.

    Args:
        spec: a :class:`Player`, or a player name of
            :func:`kafenio.agents.levels.make_named_player` (``random``, ``heuristic``,
            ``ismcts[:BUDGET]`` or a level name).
        game: the game.
        seed: the player's seed.

    Raises:
        KafenioError: an unknown name, listing the known ones.
    """
    return spec if isinstance(spec, Player) else make_named_player(spec, game, seed)


class KafenioGymEnv(gymnasium.Env):
    """One deal of a kafenio game per episode, played from one seat.

    Args:
        game: a game name or a loaded :class:`Game`.
        preset, rules: as ``kafenio.load_game``'s ``preset`` and ``options`` (with a name).
        seat: the learner's seat.
        opponents: one spec for every other seat, or one per seat in seat order (the learner's
            entry is ignored); see :func:`make_opponent`.
        render_mode: ``None`` or ``"ansi"`` (the spectator's and the learner's views as text).
        illegal_action: ``"terminate"`` or ``"raise"`` (see the module docstring).
        illegal_reward: the reward of an illegal action with ``"terminate"``, in game points.

    Raises:
        RulesError: an unknown game, preset (listing the presets) or option.
        KafenioError: an unknown opponent kind, or a seat out of range.
        ValueError: an unsupported ``render_mode`` or ``illegal_action``, or ``opponents`` of
            the wrong length.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(self, game: str | Game = "basra", preset: str | Iterable[str] | None = None,
                 rules: Mapping[str, Any] | Iterable[str] | None = None, seat: int = 0,
                 opponents: str | Player | Sequence[str | Player] = "random", render_mode: str | None = None,
                 illegal_action: str = "terminate", illegal_reward: float = -1.0):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.game = resolve_game(game, preset, rules)
        n = self.game.num_players()
        if not 0 <= seat < n:
            raise KafenioError(f"seat must be from 0 to {n - 1}, got {seat}")
        self.seat = seat
        self.side = self.game.side_of(seat)
        specs = [opponents] * n if isinstance(opponents, (str, Player)) else list(opponents)
        if len(specs) != n:
            raise ValueError(f"opponents: give one spec or {n} (one per seat), got {len(specs)}")
        self._specs = specs
        self.observation_space = spaces.Box(-np.inf, np.inf, tuple(self.game.observation_tensor_shape()), np.float32)
        self.action_space = ActionSpace(self.game.num_distinct_actions())
        self._rng = random.Random(secrets.randbits(63))
        self._players: list[Player | None] = self._make_players()
        self.state = None
        self._score = 0.0

    def _make_players(self) -> list[Player | None]:
        """The opponents, seeded from the environment's random stream (``None`` at the learner)."""
        return [None if s == self.seat else make_opponent(spec, self.game, self._rng.getrandbits(63))
                for s, spec in enumerate(self._specs)]

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Deal a new hand and let the others play up to the learner's first turn.

        Args:
            seed: reseeds the deals and the opponents (which are rebuilt).
            options: ``dealer`` (a seat, default 0); other keys are ignored.

        Returns:
            ``(observation, info)``.
        """
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self._players = self._make_players()
        dealer = (options or {}).get("dealer", 0)
        self.state = self.game.new_initial_state(seed=self._rng.getrandbits(63), dealer=dealer)
        self._score = 0.0
        self._play_others()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play the learner's ``action``, then the others' moves until the learner is on turn.

        Returns:
            ``(observation, reward, terminated, truncated=False, info)``.

        Raises:
            IllegalAction: with ``illegal_action="raise"``, an action outside the mask (the
                state is unchanged).
        """
        state = self.state
        try:
            state.apply_action(int(action))
        except (IllegalAction, TypeError, ValueError):
            error = illegal_action_error(state, action, "the learner")
            if self.illegal_action == "raise":
                raise error from None
            return self._observation(), self.illegal_reward, True, False, {**self._info(), "illegal_action": str(error)}
        self._play_others()
        scores = state.side_scores()
        score = float(scores[self.side])
        reward = score - self._score
        self._score = score
        return self._observation(), reward, state.is_terminal(), False, self._info(scores)

    def _play_others(self) -> None:
        state = self.state
        players = self._players
        while (player := state.current_player()) not in (self.seat, TERMINAL):
            state.apply_action(players[player].step(Seat(state, player)))

    def _observation(self) -> np.ndarray:
        return self.state.observation_tensor(self.seat)

    def _info(self, scores: list[float] | None = None) -> dict:
        """``action_mask`` (int8) and ``side_scores`` (``scores`` when the caller has them)."""
        state = self.state
        return {"action_mask": state.legal_actions_mask(self.seat),
                "side_scores": list(state.side_scores() if scores is None else scores)}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a ``bool`` array of length ``num_distinct_actions``
        (all False once the deal is over)."""
        return self.state.legal_actions_mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the spectator view and the learner's view as text."""
        if self.render_mode is None or self.state is None:
            return None
        return view_text(self.state, None) + "\n" + view_text(self.state, self.seat)
