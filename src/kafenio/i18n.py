"""Translation: every user-facing string goes through :func:`_` (gettext, English source).

Catalogs live in ``kafenio/locale/<lang>/LC_MESSAGES/kafenio.mo``, compiled from the ``.po``
beside them by the build (``hatch_build.py``); with none installed the English text is returned
unchanged. By default the language comes from the environment (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); ``set_language("el")`` switches the process's language, and
:func:`use_language` does so after checking that the language has a catalog (``--lang`` of
``kafenio serve`` and ``kafenio play``). Texts computed at import time (the CLI's ``--help``, the
terminal table's key names) keep the language the process started with.
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


def use_language(language: str) -> None:
    """Switch to ``language`` (``en`` or one of :func:`available_languages`).

    Raises:
        LookupError: there is no catalog for ``language``; the message lists the languages.
    """
    known = ["en", *available_languages()]
    if language not in known:
        raise LookupError(_("no catalog for {lang}; the languages are: {known}").format(
            lang=language, known=", ".join(known)))
    set_language(language)
