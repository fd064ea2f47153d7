"""The names computer players go by at a table, and a computer seat's label with its level.

One mechanism for every place a computer seat is named: the web server gives each computer seat
its name when the table is made (stored with the seat; the browser, the chat, the move log and
the match record read it there), and the terminal table draws its computers' names the same way.

The names are one message of the catalogs: a list that each language fills with names common where
it is spoken, so a table made in Greek seats Ελένη and Νίκος, one made in Turkish Ayşe and Mehmet.
A table's names are drawn once, deterministically from a key (the table id, the match seed),
distinct at the table and different from the people's names known by then; a label keeps the
level in sight: "Eleni · medium".
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable

from kafenio.i18n import _

#: the separators of the names' message: a comma, or the Arabic comma
SEPARATORS = re.compile("[,،]")


def name_pool() -> list[str]:
    """The names computer players may go by, in the current language (at least 10, distinct).

    Returns:
        The catalog's list in its order (English: Greek names, the coffee house's own).
    """
    # Translators: the names computer players go by, separated by commas; 10 first names common
    # where the language is spoken, men's and women's, each short and different from the others.
    text = _("Eleni, Nikos, Maria, Giorgos, Katerina, Stavros, Anna, Petros, Despina, Kostas")
    return [name.strip() for name in SEPARATORS.split(text) if name.strip()]


def computer_names(count: int, key: str | int, taken: Iterable[str] = ()) -> list[str]:
    """``count`` distinct names for the computer seats of one table.

    Args:
        count: how many computer seats (at most 10 less the ``taken`` names in the pool).
        key: what the draw depends on (a table id, a match seed): the same key, language and
            ``taken`` give the same names.
        taken: the people's names at the table; no computer gets one of them (case ignored).

    Returns:
        The names in seat order.

    Raises:
        ValueError: more seats than names left in the pool.
    """
    busy = {name.casefold() for name in taken}
    pool = [name for name in name_pool() if name.casefold() not in busy]
    return random.Random(f"kafenio-names:{key}").sample(pool, count)


#: the computer levels in words (the browser's ``levelName`` gives the same)
LEVEL_WORDS: dict[str, Callable[[], str]] = {
    "easy": lambda: _("easy"), "medium": lambda: _("medium"), "hard": lambda: _("hard"),
    "expert": lambda: _("expert"),
}


def level_word(level: str) -> str:
    """A computer level in words (``"medium"`` → "medium" in the current language); another
    player kind (``heuristic``, ``ismcts:2000``) as written."""
    word = LEVEL_WORDS.get(level)
    return word() if word else level


def computer_label(name: str, level: str) -> str:
    """A computer seat as people read it: its name and level, "Eleni · medium"."""
    return _("{name} · {level}").format(name=name, level=level_word(level))
