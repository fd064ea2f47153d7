"""Translation: every user-facing string goes through :func:`_` (gettext, English source).

Catalogs live in ``kafenio/locale/<lang>/LC_MESSAGES/kafenio.mo``, compiled from the ``.po``
beside them by the build (``hatch_build.py``); with none installed the English text is returned
unchanged. By default the language comes from the environment (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); ``set_language("el")`` (``kafenio serve --lang el``) switches the
process's language.
"""

from __future__ import annotations

import gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
_translation: gettext.NullTranslations = gettext.translation(
    "kafenio", localedir=LOCALE_DIR, fallback=True)


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _translation.gettext(message)


def available_languages() -> list[str]:
    """The languages with a compiled catalog (``el``, …; English, the source, is always there)."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/kafenio.mo"))


def set_language(language: str | None) -> None:
    """Use ``language`` (a gettext code such as ``el``, ``pt_BR``) for later messages."""
    global _translation
    _translation = gettext.translation(
        "kafenio", localedir=LOCALE_DIR, languages=[language] if language else None,
        fallback=True)
