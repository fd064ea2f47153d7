"""kafenio: the card games of the Greek and Mediterranean coffee house.

>>> import kafenio
>>> game = kafenio.load_game("biriba", preset="standard_4p")     # doctest: +SKIP
>>> state = game.new_initial_state(seed=7)                       # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable, Mapping
from typing import Any

from kafenio.engine.errors import KafenioError, RulesError
from kafenio.engine.game import Game, Seat, State
from kafenio.engine.rules import RuleBook, Rules

__all__ = ["GAMES", "Game", "KafenioError", "RuleBook", "Rules", "Seat", "State", "game_class", "load_game", "rulebook"]
__version__ = "0.1.0"

#: game name → module that defines it (imported on first use)
GAMES: dict[str, str] = {
    "biriba": "kafenio.games.biriba",
    "buraco": "kafenio.games.buraco",
    "basra": "kafenio.games.basra",
    "pisti": "kafenio.games.pisti",
    "xeri": "kafenio.games.xeri",
    "diloti": "kafenio.games.diloti",
}


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass of ``name``.

    Raises:
        RulesError: an unknown or not yet available game, listing the available ones.
    """
    module_name = GAMES.get(name)
    if module_name is not None:
        try:
            return importlib.import_module(module_name).GAME
        except ModuleNotFoundError as err:
            if err.name != module_name:
                raise
    raise RulesError(name, "unknown game; the games are: " + ", ".join(available_games()))


def available_games() -> list[str]:
    """The names of the games that are installed."""
    found = []
    for name, module_name in GAMES.items():
        if importlib.util.find_spec(module_name) is not None:
            found.append(name)
    return found


def rulebook(name: str) -> RuleBook:
    """The options and presets of game ``name``."""
    return game_class(name).rulebook


def load_game(name: str, preset: str | Iterable[str] | None = None,
              options: Mapping[str, Any] | Iterable[str] | None = None, **kwargs: Any) -> Game:
    """A game with its rules: defaults, then ``preset`` (one base, modifiers stack), then options.

    Args:
        name: ``biriba``, ``buraco``, ``basra``, ``pisti``, ``xeri`` or ``diloti``.
        preset: a preset name or a list of them (``["standard_4p", "runs_only"]``).
        options: ``{option: value}`` or ``["option=value", …]``; keyword arguments add to it.

    Raises:
        RulesError: an unknown game, preset or option, a bad value, or a combination the
            game's spec marks incompatible; the message names it.
    """
    cls = game_class(name)
    merged: dict[str, Any] | list[str]
    if options is None or isinstance(options, Mapping):
        merged = {**(options or {}), **kwargs}
    else:
        merged = list(options) + [f"{k}={v}" for k, v in kwargs.items()]
    return cls(cls.rulebook.build(preset, merged))
