"""Playing strength levels, and the one place that turns a player name into a player.

=========  ====================================================================================
level      player
=========  ====================================================================================
easy       the game's heuristic, but half of its moves are uniformly random
medium     the game's heuristic player
hard       ISMCTS, 200 iterations (at most 1 s) a move, random rollouts
expert     ISMCTS, 1000 iterations (at most 2 s) a move, random rollouts
=========  ====================================================================================

Player names (:func:`make_named_player`): ``random``, ``heuristic``, ``ismcts`` (500 iterations),
``ismcts:BUDGET`` (``ismcts:2000``, ``ismcts:1.5s``, ``ismcts:500/2s``; see
:meth:`kafenio.agents.ismcts.Budget.parse`), and the four levels. ``docs/strength.md`` has the
measured ordering of the levels.

When a level's time cap binds (long Biriba rollouts on a slow machine) its moves depend on the
machine's speed; with the iteration limit binding they depend on the seed only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kafenio.agents import Player, make_player
from kafenio.agents.ismcts import Budget, ISMCTSPlayer
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, Seat
from kafenio.i18n import _


class NoisyPlayer(Player):
    """Plays like ``base`` but picks a uniformly random legal action with probability ``noise``.

    Args:
        game: the game.
        seed: fixes the noise (the base player has its own seed).
        base: the player whose moves are kept.
        noise: probability in [0, 1] of a random move.
    """

    name = "noisy"

    def __init__(self, game: Game, seed: int | None, base: Player, noise: float):
        super().__init__(game, seed)
        self.base = base
        self.noise = noise

    def step(self, seat: Seat) -> int:
        """A random legal action with probability ``noise``, else the base player's action."""
        if self.rng.random() < self.noise:
            legal = seat.legal_actions()
            return legal[self.rng.randrange(len(legal))]
        return self.base.step(seat)


@dataclass(frozen=True)
class Level:
    """A named strength level.

    Attributes:
        name: ``easy``, ``medium``, ``hard`` or ``expert``.
        description: one line for menus and ``--help``.
        build: ``(game, seed) -> Player``.
    """

    name: str
    description: str
    build: Callable[[Game, int | None], Player]


def _easy(game: Game, seed: int | None) -> Player:
    base = make_player("heuristic", game, None if seed is None else seed + 1)
    return NoisyPlayer(game, seed, base, noise=0.5)


def _ismcts(budget: Budget) -> Callable[[Game, int | None], Player]:
    return lambda game, seed: ISMCTSPlayer(game, seed, budget)


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", _("heuristic play with half of the moves at random"), _easy),
    Level("medium", _("the heuristic player"), lambda game, seed: make_player("heuristic", game, seed)),
    Level("hard", _("information-set search, 200 iterations (at most 1 s) a move"),
          _ismcts(Budget(iterations=200, seconds=1.0))),
    Level("expert", _("information-set search, 1000 iterations (at most 2 s) a move"),
          _ismcts(Budget(iterations=1000, seconds=2.0))),
)}
"""The levels from weakest to strongest."""

BASE_PLAYERS = ("random", "heuristic", "ismcts")
"""Player names besides the levels; ``ismcts`` also takes a budget: ``ismcts:BUDGET``."""


def make_level_player(level: str, game: Game, seed: int | None = None) -> Player:
    """The player of strength ``level`` for ``game``; its ``name`` is set to the level's name.

    Raises:
        KafenioError: an unknown level, listing the levels; a game without a heuristic player
            for ``easy`` and ``medium``.
    """
    spec = LEVELS.get(level)
    if spec is None:
        raise KafenioError(_("unknown level {level!r}; the levels are: {known}").format(
            level=level, known=", ".join(LEVELS)))
    player = spec.build(game, seed)
    player.name = level
    return player


def player_names() -> list[str]:
    """Every accepted player name, for help texts and error messages."""
    return [*BASE_PLAYERS, "ismcts:BUDGET", *LEVELS]


def make_named_player(name: str, game: Game, seed: int | None = None) -> Player:
    """A player from its name: ``random``, ``heuristic``, ``ismcts[:BUDGET]`` or a level.

    Args:
        name: the player name (see :func:`player_names`).
        game: the game to play.
        seed: fixes the player's randomness.

    Raises:
        KafenioError: an unknown name, listing the accepted ones; a bad budget, naming the
            accepted budget forms; a game without a heuristic player for ``heuristic``,
            ``easy`` and ``medium``.
    """
    kind, _sep, budget = name.partition(":")
    if kind == "ismcts":
        player = ISMCTSPlayer(game, seed, Budget.parse(budget) if budget else None)
        player.name = name
        return player
    if not budget:
        if kind in LEVELS:
            return make_level_player(kind, game, seed)
        if kind in BASE_PLAYERS:
            return make_player(kind, game, seed)
    raise KafenioError(_("unknown player {name!r}; the players are: {known}").format(
        name=name, known=", ".join(player_names())))
