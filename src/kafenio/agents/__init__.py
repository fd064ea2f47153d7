"""Computer players. Every player sees only its seat, through :class:`kafenio.engine.game.Seat`.

A player has ``name`` and ``step(seat) -> action id``; :func:`make_player` builds one by name:
``random`` for every game, ``heuristic`` from the game's module
``kafenio.agents.heuristic_<game>`` (class ``HeuristicPlayer``), and the search player and the
four levels from :mod:`kafenio.agents.levels`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence

from kafenio.agents.names import computer_names
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, Seat, State
from kafenio.engine.match import DealResult, Match
from kafenio.engine.records import Recorder
from kafenio.i18n import _, n_, number


class Player:
    """Base class of computer players.

    Args:
        game: the game being played (rules, seats).
        seed: seeds the player's own randomness (reproducible arena runs).
    """

    name = "player"

    def __init__(self, game: Game, seed: int | None = None):
        self.game = game
        self.rng = random.Random(seed)

    def step(self, seat: Seat) -> int:
        """The action to play for ``seat`` (on turn)."""
        raise NotImplementedError

    def recall(self, other: Player) -> None:
        """Take over what ``other``, a player of the same kind in the same deal, remembers of
        the cards seen so far (a player with no memory has nothing to take over). Public
        cards only: a searcher hands its own memory to the players it imagines at every seat."""


class RandomPlayer(Player):
    """Plays a uniformly random legal action."""

    name = "random"

    def step(self, seat: Seat) -> int:
        legal = seat.legal_actions()
        return legal[self.rng.randrange(len(legal))]


#: the players every game has without search; levels and ``ismcts`` come from
#: :mod:`kafenio.agents.levels`
PLAYER_KINDS = ("random", "heuristic")


def make_player(name: str, game: Game, seed: int | None = None) -> Player:
    """A player for ``game`` by name: ``random``, ``heuristic``, ``ismcts[:BUDGET]`` or a level
    (``easy``, ``medium``, ``hard``, ``expert``; :mod:`kafenio.agents.levels`).

    Raises:
        KafenioError: an unknown name, listing the known ones, or a game without that player.
    """
    if name == "random":
        return RandomPlayer(game, seed)
    if name == "heuristic":
        module_name = f"kafenio.agents.heuristic_{game.name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name != module_name:
                raise
            raise KafenioError(_("no heuristic player for {game} yet").format(game=game.name)) from None
        return module.HeuristicPlayer(game, seed)
    from kafenio.agents.levels import make_named_player

    return make_named_player(name, game, seed)


def play_deal(state: State, players: Sequence[Player], recorder: Recorder | None = None,
              on_action: Callable[[State, int], None] | None = None) -> None:
    """Play ``state`` to the end of the deal, each seat asking its player."""
    while not state.is_terminal():
        seat = state.current_player()
        action = players[seat].step(Seat(state, seat))
        if recorder is not None:
            recorder.action(state, action)
        if on_action is not None:
            on_action(state, action)
        state.apply_action(action)


def play_match(match: Match, players: Sequence[Player], recorder: Recorder | None = None,
               max_deals: int | None = None,
               on_deal_end: Callable[[DealResult, Match], None] | None = None) -> Match:
    """Play deals until a side wins (or ``max_deals`` deals were played).

    Args:
        match: a match not yet started or in progress between deals.
        players: one player per seat.
        recorder: writes the record as the match goes.
        max_deals: stop after this many deals even without a winner.
        on_deal_end: called after each deal.
    """
    if len(players) != match.game.num_players():
        seats = match.game.num_players()
        raise KafenioError(n_("{n} player given for {seats}", "{n} players given for {seats}", len(players)).format(
            n=number(len(players)), seats=n_("{n} seat", "{n} seats", seats).format(n=number(seats))))
    if recorder is not None and not match.deals:
        names = computer_names(len(players), match.seed)
        recorder.start(match, [{"name": name, "level": player.name}
                               for name, player in zip(names, players, strict=True)])
    while not match.is_over and (max_deals is None or len(match.deals) < max_deals):
        state = match.start_deal()
        if recorder is not None:
            recorder.deal_started(len(match.deals), state)
        play_deal(state, players, recorder)
        result = match.finish_deal()
        if recorder is not None:
            recorder.deal_finished(result, list(match.totals))
        if on_deal_end is not None:
            on_deal_end(result, match)
    if recorder is not None and match.is_over:
        recorder.finish(match)
    return match
