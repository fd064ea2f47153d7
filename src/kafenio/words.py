"""The table's words in the reader's language: each game's name, each pot's word, the counted
nouns (cards, points, seconds) and the scores that the terminal table, the command line, the
engine, the referee and the server put into their messages.

The names and the pot words are the browser's own messages (``gameName`` and ``potWord`` of
``web/src``), so that one ``.po`` entry gives both sides the glossary's word
(``shared/i18n/GLOSSARY.md``: «Μπιρίμπα», «Pişti», «البصرة»; the pot «μπιριμπάκι», «morto»,
«pozzetto», «fiy», «المور»). A game's id (``basra``) and a pot's kind (``morto``) stay the
engine's and the records' notation; only what a person reads is translated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kafenio.i18n import _, n_, number

GAME_NAMES: dict[str, Callable[[], str]] = {
    "biriba": lambda: _("Biriba"), "buraco": lambda: _("Buraco"), "basra": lambda: _("Basra"),
    "pisti": lambda: _("Pişti"), "xeri": lambda: _("Xeri"), "diloti": lambda: _("Diloti")}
"""Each game's name by its id (the browser's ``gameName`` gives the same)."""

POT_WORDS: dict[str, tuple[Callable[[], str], Callable[[], str]]] = {
    "biribaki": (lambda: _("biribaki"), lambda: _("biribakia")),
    "morto": (lambda: _("morto"), lambda: _("mortos")),
    "pozzetto": (lambda: _("pozzetto"), lambda: _("pozzetti"))}
"""Each kind of pot (a rummy view's ``pot_name``) in words, one and many: Biriba's biribaki
(biriba.md §5), Buraco's morto, Italian Burraco's pozzetto (buraco.md §5)."""


def game_name(game: str) -> str:
    """The name of the game ``game`` (an id: ``basra``, ``pisti`` …) in the current language
    (``"Μπάστρα"``, ``"Pişti"``); a game without a name here is shown by its id."""
    name = GAME_NAMES.get(game)
    return name() if name is not None else game


def pot_word(kind: str | None, many: bool = False) -> str:
    """The word for a pot of ``kind`` (a rummy view's ``pot_name``; ``None``, as Biriba's view
    has it: the biribaki) in the current language, for one pot or, with ``many``, the pots.

    Raises:
        KeyError: a kind of pot no game has.
    """
    one, several = POT_WORDS["biribaki" if kind is None else kind]
    return several() if many else one()


def cards_count(n: int) -> str:
    """``n`` cards in words, in the current language's plural form and digits (``"3 cards"``)."""
    return n_("{n} card", "{n} cards", n).format(n=number(n))


def points_count(n: float) -> str:
    """``n`` points in words, in the current language's plural form and digits (``"1 point"``)."""
    return n_("{n} point", "{n} points", n).format(n=number(n))


def seconds_count(n: float) -> str:
    """``n`` seconds in words, in the current language's plural form and digits (``"1,5 δευτερόλεπτα"``)."""
    return n_("{n} second", "{n} seconds", n).format(n=number(n))


def scores_text(scores: Iterable[float]) -> str:
    """Scores or totals, one per side, in the current language (``"120 · -35"``; a comma may be a
    decimal sign, so the sides are set apart by a middle dot)."""
    return " · ".join(map(number, scores))
