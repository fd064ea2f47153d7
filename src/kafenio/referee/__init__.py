"""The referee: settle a dispute at the table without playing a deal.

Each function builds the game's rules (presets, then options, as :func:`kafenio.load_game`) and
asks the game family's referee module — the same code the engine uses — returning a JSON-ready
dict:

* :func:`meld` / :func:`layoff` (rummy: Biriba, Buraco): ``{"valid": true, "kind": "run",
  "clean": false, "cards": ["5H", "6H", "7H", "2C=8H"], "bonus": 0}`` or ``{"valid": false,
  "rule": "biriba.md §4.1: …"}``;
* :func:`capture` (fishing: Basra, Pişti, Xeri, Diloti): ``{"captured": […], "basra": true,
  "points": 10, "floor_after": []}`` (plus ``"choices"`` where the player may choose);
* :func:`declare` (Diloti): whether a declaration is allowed, or the rule that forbids it;
* :func:`score`: a deal's itemised score sheet from its end position.

Errors: :class:`kafenio.engine.errors.RulesError` for an unknown game, preset or option, or a
verb the game does not have; :class:`kafenio.engine.errors.CardError` for a bad card.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

import kafenio
from kafenio.engine.errors import RulesError
from kafenio.engine.rules import Rules
from kafenio.i18n import _

FAMILY = {"biriba": "rummy", "buraco": "rummy", "basra": "fishing", "pisti": "fishing",
          "xeri": "fishing", "diloti": "fishing"}
VERBS = {"rummy": ("meld", "layoff", "score"), "fishing": ("capture", "declare", "score")}

Presets = str | Iterable[str] | None
Options = Mapping[str, Any] | Iterable[str] | None


def _setup(game: str, verb: str, preset: Presets, options: Options) -> tuple[ModuleType, Rules]:
    family = FAMILY.get(game)
    if family is None:
        raise RulesError(game, _("unknown game; the games are: {known}").format(known=", ".join(FAMILY)))
    if verb not in VERBS[family] or (verb == "declare" and game != "diloti"):
        raise RulesError(verb, _("{game} has no {verb} question").format(game=game, verb=verb))
    module = importlib.import_module(f"kafenio.referee.{family}")
    return module, kafenio.rulebook(game).build(preset, options)


def meld(game: str, cards: str, preset: Presets = None, options: Options = None,
         **kwargs: Any) -> dict[str, Any]:
    """Is ``cards`` a legal new meld? Its kind, cleanliness, order with stand-ins and bonus."""
    module, rules = _setup(game, "meld", preset, options)
    return module.meld(rules, cards, **kwargs)


def layoff(game: str, meld: str, cards: str, preset: Presets = None, options: Options = None,
           **kwargs: Any) -> dict[str, Any]:
    """Can ``cards`` be laid off on the meld ``meld``? The meld after it, or the rule against."""
    module, rules = _setup(game, "layoff", preset, options)
    return module.layoff(rules, meld, cards, **kwargs)


def capture(game: str, floor: str, play: str, preset: Presets = None, options: Options = None,
            **kwargs: Any) -> dict[str, Any]:
    """What does playing ``play`` onto ``floor`` capture?"""
    module, rules = _setup(game, "capture", preset, options)
    return module.capture(rules, floor, play, **kwargs)


def declare(game: str, floor: str, hand: str, declaration: str, preset: Presets = None,
            options: Options = None) -> dict[str, Any]:
    """Is the Diloti ``declaration`` allowed with this floor and hand?"""
    module, rules = _setup(game, "declare", preset, options)
    return module.declare(rules, floor, hand, declaration)


def score(game: str, data: Mapping[str, Any], preset: Presets = None,
          options: Options = None) -> dict[str, Any]:
    """Score a deal from its end position (the shape of ``data`` is the family's)."""
    module, rules = _setup(game, "score", preset, options)
    return module.score(rules, dict(data))


def describe(game: str, verb: str, result: Mapping[str, Any]) -> str:
    """Human-readable lines for a referee answer."""
    module = importlib.import_module(f"kafenio.referee.{FAMILY[game]}")
    if FAMILY[game] == "fishing":  # the sweep bonus has each game's own name (fishing-relatives.md §0)
        return module.describe(verb, dict(result), game)
    return module.describe(verb, dict(result))
