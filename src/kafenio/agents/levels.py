"""Playing strength levels, and the one place that turns a player name into a player.

=========  ====================================================================================
level      player
=========  ====================================================================================
easy       the game's heuristic, but half of its moves are uniformly random
medium     the game's heuristic player
hard       ISMCTS with the game's search settings, :data:`SEARCH_BUDGETS` ``["hard"]`` a move;
           the pile games (Pişti, Xeri): expert's playouts with fewer worlds, :data:`HARD_FISHING`
expert     Biriba and Buraco: ISMCTS with :data:`LEVEL_SEARCH` ``["expert"]`` (Biriba: rollouts
           that take the pile and keep wilds; Buraco: rollouts of 16 moves),
           :data:`SEARCH_BUDGETS` ``["expert"]`` a move; the fishing games: sampled worlds
           searched by alpha-beta with the majority counted and the last cards solved exactly,
           or (Pişti, Xeri) played out by the heuristic, :data:`EXPERT_FISHING`
           (:mod:`kafenio.agents.pimc`)
=========  ====================================================================================

The search settings (rollout depth, leaf evaluation, rollout rule of thumb) are
:data:`kafenio.agents.ismcts.GAME_SEARCH`, replaced per level and game by :data:`LEVEL_SEARCH`;
the budgets are per game, so that expert stays within about 2 s a move on a 2-core machine.

Player names (:func:`make_named_player`): ``random``, ``heuristic``, ``ismcts`` (500 iterations),
``ismcts:BUDGET`` (``ismcts:2000``, ``ismcts:1.5s``, ``ismcts:500/2s``; see
:meth:`kafenio.agents.ismcts.Budget.parse`), and the four levels. ``docs/strength.md`` has the
measured ordering of the levels.

A budget's time cap makes moves depend on the machine's speed when it binds; with
``time_caps=False`` (what the arena uses) every budget with an iteration limit loses its cap, so
moves depend on the seed and the seat's information only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial

from kafenio.agents import Player, make_player
from kafenio.agents.ismcts import (
    DEFAULT_BUDGET,
    ROLLOUT_DEPTH_RUMMY,
    RUMMY_PILE_SEARCH,
    RUMMY_SEARCH,
    Budget,
    ISMCTSPlayer,
    SearchSettings,
)
from kafenio.agents.pimc import SPEC_WORDS, PIMCPlayer, PIMCSettings, make_pimc_player
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


SEARCH_BUDGETS: dict[str, dict[str, Budget]] = {
    "hard": {"*": Budget(iterations=200, seconds=1.0)},
    "expert": {"*": Budget(iterations=1000, seconds=2.0),
               "biriba": Budget(iterations=400, seconds=2.0), "buraco": Budget(iterations=600, seconds=2.0)},
}
"""Per search level, the per-move budget per game name (``"*"``: every other game). Expert
searches 400 iterations on Biriba, with its own rollouts (:data:`LEVEL_SEARCH`): 600 with hard's
rollouts did not beat hard there. On Buraco it searches 600 with rollouts of 16 moves (about 0.48
CPU s a search instead of 0.37 with hard's 8). A rummy iteration costs about 0.25 ms of CPU on the shared 2-core
development machine (``hard`` 0.06 s, ``expert`` 0.12 s a searched move in the runs of
``docs/strength.md``); under heavy load the 2 s cap binds."""


LEVEL_SEARCH: dict[str, dict[str, SearchSettings]] = {
    "expert": {"biriba": RUMMY_PILE_SEARCH, "buraco": replace(RUMMY_SEARCH, rollout_depth=2 * ROLLOUT_DEPTH_RUMMY)},
}
"""Per search level, search settings per game name that replace the game's own
(:data:`kafenio.agents.ismcts.GAME_SEARCH`); a game not listed searches with its own. Expert's
Biriba rollouts take the discard pile and keep their wilds
(:func:`kafenio.agents.rummy_search.pile_preferred_moves`; on Buraco they did worse). Expert's
Buraco rollouts are hard's, 16 moves long instead of 8, so a leaf is scored after the next
opponent has answered the discard (taken the pile and melded from it, or drawn); a lower
exploration constant did not help there. ``docs/strength.md`` has the runs that chose them."""


EXPERT_FISHING: dict[str, PIMCSettings] = {
    "basra": PIMCSettings(worlds=40, depth=4, majority=True, endgame=10),
    "pisti": PIMCSettings(worlds=40, playout=True, keep=1.5),
    "xeri": PIMCSettings(worlds=40, playout=True, keep=1.5, imagined="share"),
    "diloti": PIMCSettings(worlds=40, depth=4, majority=True, endgame=6),
}
"""Expert's search per fishing game: 40 worlds a decision. In Basra and Diloti each world is
searched 4 plies by alpha-beta with the captured cards counted towards the majority, and to the
end of the deal once 10 cards or fewer are left to play (6 in Diloti, whose last plays have more
choices: with 10 its longest decisions took 10.8 s, with 6 at most 0.6 s on the loaded
development machine). In the pile games, Pişti and Xeri, each world is played out to the end of
the deal by the heuristic at every seat, and the heuristic's own move stands unless another is
better by 1.5 standard errors over the worlds (:attr:`PIMCSettings.playout`,
:attr:`PIMCSettings.keep`): alpha-beta's worlds, where every player sees every hand, did not
beat the heuristic there. Xeri's playouts imagine the pile player that values a captured card as
its share of the majority (:attr:`PIMCSettings.imagined`, the heuristic before 2026-11-27): with
the game's heuristic instead, the expert did 2.5 points a deal worse against ``pimc:40,4``. ``docs/strength.md``
("The fishing games' expert", "Worlds played out by the heuristic") has the runs that chose
them."""

FISHING_GAMES = tuple(EXPERT_FISHING)
"""The games whose expert is :data:`EXPERT_FISHING`."""

HARD_FISHING: dict[str, PIMCSettings] = {
    "pisti": PIMCSettings(worlds=16, playout=True, keep=1.5),
    "xeri": PIMCSettings(worlds=16, playout=True, keep=1.5, imagined="share"),
}
"""Hard's player in the pile games: expert's playouts with 16 worlds instead of 40 (Xeri's, as
the expert's, imagining the share-weighted pile player). Hard's
ISMCTS of the other games lost to the heuristic there (on 500 pairs Pişti −0.77 [−1.55, +0.01],
Xeri −3.58 [−4.74, −2.42]: ``docs/strength.md``, "Hard in the pile games")."""


def _pimc_level(table: Mapping[str, PIMCSettings], game: Game, seed: int | None) -> Player:
    return PIMCPlayer(game, seed, table[game.name])


@dataclass(frozen=True)
class Level:
    """A named strength level.

    Attributes:
        name: ``easy``, ``medium``, ``hard`` or ``expert``.
        description: one line for menus and ``--help``.
        build: ``(game, seed) -> Player`` for a level without search, else ``None``.
        budgets: a search level's budgets per game name (``"*"`` for the rest).
        settings: a search level's search settings per game name (a game not listed: its own).
        players: per game name, ``(game, seed) -> Player`` replacing the level's search there.
    """

    name: str
    description: str
    build: Callable[[Game, int | None], Player] | None = None
    budgets: Mapping[str, Budget] = field(default_factory=dict)
    settings: Mapping[str, SearchSettings] = field(default_factory=dict)
    players: Mapping[str, Callable[[Game, int | None], Player]] = field(default_factory=dict)

    def make(self, game: Game, seed: int | None = None, *, time_caps: bool = True) -> Player:
        """The level's player for ``game``; ``time_caps=False`` drops a search budget's time cap."""
        build = self.players.get(game.name, self.build)
        if build is not None:
            return build(game, seed)
        budget = self.budgets.get(game.name, self.budgets["*"])
        return ISMCTSPlayer(game, seed, budget if time_caps else budget.iteration_bound(),
                            settings=self.settings.get(game.name))


def _easy(game: Game, seed: int | None) -> Player:
    base = make_player("heuristic", game, None if seed is None else seed + 1)
    return NoisyPlayer(game, seed, base, noise=0.5)


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", _("heuristic play with half of the moves at random"), _easy),
    Level("medium", _("the heuristic player"), lambda game, seed: make_player("heuristic", game, seed)),
    Level("hard", _("information-set search, at most 1 s a move"), budgets=SEARCH_BUDGETS["hard"],
          players=dict.fromkeys(HARD_FISHING, partial(_pimc_level, HARD_FISHING))),
    Level("expert", _("search over the cards it cannot see, at most 2 s a move"), budgets=SEARCH_BUDGETS["expert"],
          settings=LEVEL_SEARCH["expert"], players=dict.fromkeys(FISHING_GAMES, partial(_pimc_level, EXPERT_FISHING))),
)}
"""The levels from weakest to strongest."""

BASE_PLAYERS = ("random", "heuristic", "ismcts", "pimc")
"""Player names besides the levels; ``ismcts`` also takes a budget (``ismcts:BUDGET``) and
``pimc`` its worlds, depth and other settings (``pimc:N,D``, ``pimc:40,playout,keep=1.5``,
:func:`kafenio.agents.pimc.parse_spec`)."""


def make_level_player(level: str, game: Game, seed: int | None = None, *, time_caps: bool = True) -> Player:
    """The player of strength ``level`` for ``game``; its ``name`` is set to the level's name.

    ``time_caps=False`` drops a search level's time cap (reproducible arena runs).

    Raises:
        KafenioError: an unknown level, listing the levels; a game without a heuristic player
            for ``easy`` and ``medium``.
    """
    spec = LEVELS.get(level)
    if spec is None:
        raise KafenioError(_("unknown level {level!r}; the levels are: {known}").format(
            level=level, known=", ".join(LEVELS)))
    player = spec.make(game, seed, time_caps=time_caps)
    player.name = level
    return player


def player_names() -> list[str]:
    """Every accepted player name, for help texts and error messages."""
    return [*BASE_PLAYERS, "ismcts:BUDGET", "pimc:N,D", *LEVELS]


def split_player_names(text: str) -> list[str]:
    """The player names of a comma-separated list, keeping ``pimc:N,D`` whole.

    A part that is only digits, or one of pimc's setting words (:data:`kafenio.agents.pimc.SPEC_WORDS`,
    alone or as ``NAME=VALUE``), continues the setting of the name before it when that name has
    one (``"expert,pimc:20,4"`` is ``["expert", "pimc:20,4"]``, ``"pimc:40,playout,keep=1.5,medium"``
    is ``["pimc:40,playout,keep=1.5", "medium"]``); empty parts are dropped.
    """
    names: list[str] = []
    for part in (part.strip() for part in text.split(",")):
        setting = part.isdigit() or part.partition("=")[0] in SPEC_WORDS
        if setting and names and ":" in names[-1]:
            names[-1] += "," + part
        elif part:
            names.append(part)
    return names


def make_named_player(name: str, game: Game, seed: int | None = None, *, time_caps: bool = True) -> Player:
    """A player from its name: ``random``, ``heuristic``, ``ismcts[:BUDGET]``, ``pimc[:N[,D]]`` or a level.

    Args:
        name: the player name (see :func:`player_names`).
        game: the game to play.
        seed: fixes the player's randomness.
        time_caps: ``False`` drops the time cap of every search budget that also has an
            iteration limit (:meth:`Budget.iteration_bound`), so moves do not depend on the
            machine's load.

    Raises:
        KafenioError: an unknown name, listing the accepted ones; a bad budget or pimc setting,
            naming the accepted forms; a game without a heuristic player for ``heuristic``,
            ``easy`` and ``medium``.
    """
    kind, _sep, budget = name.partition(":")
    if kind == "ismcts":
        parsed = Budget.parse(budget) if budget else DEFAULT_BUDGET
        player = ISMCTSPlayer(game, seed, parsed if time_caps else parsed.iteration_bound())
        player.name = name
        return player
    if kind == "pimc":
        return make_pimc_player(name, game, seed)
    if not budget:
        if kind in LEVELS:
            return make_level_player(kind, game, seed, time_caps=time_caps)
        if kind in BASE_PLAYERS:
            return make_player(kind, game, seed)
    raise KafenioError(_("unknown player {name!r}; the players are: {known}").format(
        name=name, known=", ".join(player_names())))
