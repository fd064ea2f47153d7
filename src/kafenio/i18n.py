"""Translation: every user-facing string goes through :func:`_` (gettext, English source), and
every message whose words depend on a count through :func:`n_` (gettext's plural forms: Arabic has
six, Brazilian Portuguese takes the singular for 0).

Catalogs live in ``kafenio/locale/<lang>/LC_MESSAGES/kafenio.mo``, compiled from the ``.po``
beside them by the build (``hatch_build.py``); with none installed the English text is returned
unchanged.

One language per person, not per process. :func:`_` translates into the *current* language:

* the language of the running context, set with :func:`language` (a context manager over a
  :class:`contextvars.ContextVar`): the server sets it for each request and each socket
  (``kafenio.server.app``), so every coroutine and task started from there speaks the language
  its browser asked for, and builds per-socket frames inside ``with language(...)``;
* else the process's language: the environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
  ``LANG``) or the one given to :func:`set_language` / :func:`use_language` (``--lang`` of
  ``kafenio play`` and ``kafenio serve``).

Typer's own words (``Options``, ``Commands``, ``Arguments``, ``Error``, ``Try … for help.``) are
looked up by Typer with the standard library's ``gettext.gettext`` in gettext's default domain
``messages``; :func:`_install_typer_words` binds that domain to the ``messages.mo`` beside each
catalog (the build writes it from the same ``.po``), so the command line speaks the process's
language (``LANGUAGE=el kafenio --help``); the words its copy of Click writes without gettext
(``Usage:``, the help option, parse errors) are translated by ``kafenio.cli``. The commands' help
texts are written in English and marked with :func:`N_` (gettext's deferred translation): Typer
builds the commands before ``--lang`` is read, so ``kafenio.cli`` translates them with
:func:`translated` when it shows the help, in the language ``--lang`` chose
(``kafenio play --lang el --help``). Typer looks its own words up when it first shows a help or an
error, after ``--lang``; the terminal table is imported after ``--lang`` too (its key names are
set at import).

Codes are gettext's (``el``, ``pt_BR``); :func:`match_language` maps browser tags (``pt-BR``,
``it-IT``, ``ar-EG``) and ``Accept-Language`` headers onto them.

Numbers shown to people (scores, counts, seconds, rates) are written in the current language by
:func:`number` and :func:`percent` from CLDR's data (Babel), as the browser's ``formatNumber``
writes them with ``Intl.NumberFormat``: the same separators (``1.234,5`` in Greek, ``1,234.5`` in
Arabic), signs and digits. Both sides write Latin digits in every language, Arabic included: CLDR's
default numbering system for ``ar`` (the tag the page and the server use) is ``latn``; ``ar-EG``
would take Arabic-Indic digits (٣٬٠٠٠), which neither side offers, so one score sheet never mixes
the two. Card codes, seeds, ports and the numbers a command or key takes back stay as typed.
"""

from __future__ import annotations

import copy
import gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "kafenio"
#: gettext's default domain, in which Typer looks up its own words
DEFAULT_DOMAIN = "messages"
SOURCE_LANGUAGE = "en"

_process: gettext.NullTranslations = gettext.translation(DOMAIN, localedir=LOCALE_DIR, fallback=True)
_process_language: str | None = None
#: the ``LANGUAGE`` variable the process started with (restored by ``set_language(None)``)
_ENV_LANGUAGE = os.environ.get("LANGUAGE")
#: the running context's language (``None``: the process's)
_current: ContextVar[str | None] = ContextVar("kafenio_language", default=None)
#: why the running context speaks English although another language was asked for
_note: ContextVar[str | None] = ContextVar("kafenio_language_note", default=None)


@cache
def translation(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English, the source, when it has none)."""
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang], fallback=True)


def _(message: str) -> str:
    """Translate ``message`` into the current language (the context's, else the process's)."""
    lang = _current.get()
    return (_process if lang is None else translation(lang)).gettext(message)


#: the texts :func:`N_` filled in with fields: the English text → its message and fields
_marked: dict[str, tuple[str, dict[str, Any]]] = {}


def N_(message: str, **fields: Any) -> str:
    """Mark ``message`` for translation where it is shown rather than where it is written
    (gettext's deferred translation), for a text made before its reader's language is known, such
    as a command's ``--help`` texts. Returns the English text, with ``fields`` filled in
    (``str.format``); :func:`translated` gives it in the current language.

    >>> text = N_("Where tasks run: {b}.", b="process, ray")
    >>> with language("el"):
    ...     text, translated(text)
    ('Where tasks run: process, ray.', 'Πού εκτελούνται οι εργασίες: process, ray.')
    """
    if not fields:
        return message
    text = message.format(**fields)
    _marked[text] = (message, fields)
    return text


def translated(text: str) -> str:
    """``text``, an English message as :func:`N_` returned it, in the current language (the
    message translated, then its fields filled in again)."""
    message, fields = _marked.get(text, (text, {}))
    return _(message).format(**fields) if fields else _(message)


def n_(singular: str, plural: str, n: float) -> str:
    """Translate the message for the count ``n`` into the current language: the form the
    language's plural rule picks (``hatch_build.PLURAL_FORMS``; the browser's ``t()`` uses the same
    rule). A negative count takes its size's form; a fraction takes the form of 100 (CLDR's "other"
    in the five languages, where gettext's rules know whole numbers only)."""
    lang = _current.get()
    count = int(abs(n)) if n == int(n) else 100
    return (_process if lang is None else translation(lang)).ngettext(singular, plural, count)


def available_languages() -> list[str]:
    """The languages with a compiled catalog (``el``, ``pt_BR``, …; not English, the source)."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))


def known_languages() -> list[str]:
    """English and every language with a catalog, as listed to people (``en, el, …``)."""
    return [SOURCE_LANGUAGE, *available_languages()]


def current_language() -> str:
    """The code of the language :func:`_` translates into now (``en`` for the source)."""
    lang = _current.get() or _process_language
    if lang is None:
        info = _process.info() if isinstance(_process, gettext.GNUTranslations) else {}
        lang = info.get("language") or SOURCE_LANGUAGE
    return lang


def set_language(language: str | None) -> None:
    """Use ``language`` (a gettext code such as ``el``, ``pt_BR``; ``None``: the environment's)
    as the process's language for later messages, Typer's words included."""
    global _process, _process_language
    _install_typer_words(language)  # first: ``None`` reads the environment as it was
    _process = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language] if language else None,
                                   fallback=True)
    _process_language = language


#: CLDR's ``minimumGroupingDigits`` of the languages where it is 2 (Babel does not read it): no
#: group separator below 10 000 (Italian «3150», «12.345»), as ``Intl.NumberFormat`` writes them
MIN_GROUPING_DIGITS = {"it": 2}
#: numbering system of every language (Babel's and the browser's ``formatNumber``'s: Latin digits)
NUMBERING_SYSTEM = "latn"


def number(value: float, digits: int | None = None, sign: bool = False) -> str:
    """``value`` as the current language writes a number (CLDR's decimal pattern, via Babel): its
    group and decimal separators and its minus sign, which in Arabic carries a left-to-right mark
    (U+200E) so that «-120» stays a negative number inside right-to-left text.

    ``digits``: exactly that many decimals (else up to 3, as CLDR's pattern and ``Intl`` give);
    ``sign``: a plus sign before a positive value (``Intl``'s ``signDisplay: "exceptZero"``), for
    margins and differences. Halves round away from zero, as ``Intl.NumberFormat`` does.

    >>> with language("el"):
    ...     number(-1234.5), number(2.5, digits=2, sign=True)
    ('-1.234,5', '+2,50')
    """
    return _formatted(value, "decimal", digits, sign)


def percent(fraction: float, digits: int = 0) -> str:
    """``fraction`` (0.123 for 12.3 %) as a percentage in the current language's pattern and
    percent sign (Turkish «%12,3», Greek «12,3%»), with exactly ``digits`` decimals."""
    return _formatted(fraction, "percent", digits, False)


def _formatted(value: float, kind: str, digits: int | None, sign: bool) -> str:
    from babel.numbers import get_minus_sign_symbol, get_plus_sign_symbol

    locale = _number_locale(current_language())
    base = locale.decimal_formats[None] if kind == "decimal" else locale.percent_formats[None]
    pattern = copy.copy(base)
    pattern.scale = 0  # scaled here, in decimal: 0.0725 is 7.25 %, not 7.2499…
    if digits is not None:
        pattern.frac_prec = (digits, digits)
    places = Decimal(1).scaleb(-(3 if digits is None else digits))
    exact = Decimal(str(value)).scaleb(base.scale)
    magnitude = abs(exact.quantize(places, rounding=ROUND_HALF_UP))
    grouped = magnitude >= 10 ** (2 + MIN_GROUPING_DIGITS.get(locale.language, 1))
    text = pattern.apply(magnitude, locale, group_separator=grouped, numbering_system=NUMBERING_SYSTEM)
    if kind == "percent":
        text = text.replace("%", locale.number_symbols[NUMBERING_SYSTEM]["percentSign"])
    if magnitude and value < 0:
        return get_minus_sign_symbol(locale, numbering_system=NUMBERING_SYSTEM) + text
    if magnitude and sign:
        return get_plus_sign_symbol(locale, numbering_system=NUMBERING_SYSTEM) + text
    return text


@cache
def _number_locale(lang: str) -> Any:
    """Babel's locale of a language code (``pt_BR``)."""
    from babel import Locale

    return Locale.parse(lang)


def unknown_language_note(asked: str) -> str:
    """The words saying that ``asked`` has no catalog and which languages there are."""
    return _("no catalog for {lang}; the languages are: {known}").format(
        lang=asked, known=", ".join(known_languages()))


def use_language(language: str) -> str | None:
    """Switch the process to ``language`` (``en`` or one of :func:`available_languages`; a
    browser tag such as ``pt-BR`` is matched too).

    An unknown language falls back to English: the process speaks English and the note saying
    which languages exist (:func:`unknown_language_note`) is returned; ``None`` when it is known.
    """
    found = match_language(language)
    set_language(found or SOURCE_LANGUAGE)
    return None if found else unknown_language_note(language)


@contextmanager
def language(lang: str | None) -> Iterator[None]:
    """Translate into ``lang`` (a code :func:`match_language` returned; ``None``: the process's
    language) inside the block, in this context only (other requests, sockets and tasks keep
    theirs); tasks created inside the block inherit it."""
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


def context_language() -> str | None:
    """The running context's language as :func:`language` set it (``None``: the process's)."""
    return _current.get()


def language_note() -> str | None:
    """Why the running request or socket speaks English although it asked for another
    language (:func:`negotiate`'s note, set by :class:`LanguageMiddleware`), or ``None``."""
    return _note.get()


def match_language(tag: str) -> str | None:
    """The language code of :func:`known_languages` that ``tag`` asks for (``pt-BR``, ``pt_br``,
    ``pt`` → ``pt_BR``; ``it-IT`` → ``it``; ``en-US`` → ``en``), or ``None``."""
    wanted = tag.strip().replace("-", "_").lower()
    if not wanted:
        return None
    known = known_languages()
    for lang in known:
        if lang.lower() == wanted:
            return lang
    base = wanted.split("_")[0]
    return next((lang for lang in known if lang.lower().split("_")[0] == base), None)


def negotiate(choice: str | None, accept_language: str | None) -> tuple[str | None, str | None]:
    """The language to answer in: the page's ``choice`` (a ``lang`` parameter), else the best of
    an ``Accept-Language`` header (RFC 9110 §12.5.4: tags by ``q`` weight).

    Returns ``(code, note)``: ``code`` is ``None`` when nothing was asked for (the process's
    language applies); when something was asked for but no catalog matches, ``code`` is ``en``
    and ``note`` says which languages exist (:func:`unknown_language_note`).
    """
    if choice:
        found = match_language(choice)
        return (found, None) if found else (SOURCE_LANGUAGE, unknown_language_note(choice))
    tags = _accepted_tags(accept_language or "")
    if not tags:
        return None, None
    for tag in tags:
        found = match_language(tag)
        if found:
            return found, None
    return SOURCE_LANGUAGE, unknown_language_note(tags[0])


def _accepted_tags(header: str) -> list[str]:
    """The tags of an ``Accept-Language`` header, best first (``*`` and ``q=0`` left out)."""
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, *params = (s.strip() for s in part.split(";"))
        q = 1.0
        for param in params:
            if param.lower().startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0:
            weighted.append((-q, i, tag))
    return [tag for _q, _i, tag in sorted(weighted)]


class LanguageMiddleware:
    """ASGI middleware: each HTTP request and each WebSocket is served in the language its
    browser asks for — the page's choice (the ``lang`` query parameter, e.g. ``?lang=pt-BR``), else
    the ``Accept-Language`` header, else the process's language (:func:`negotiate`).

    The language is set with :func:`language` around the whole request or socket, so every
    message, error and frame made while serving it is in that language; an HTTP answer names it
    in ``Content-Language`` and, when the asked-for language has no catalog, carries
    ``Kafenio-Language-Note`` with :func:`unknown_language_note` (the socket's server sends the
    same note as an ``unknown_language`` error, :func:`language_note`).
    """

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        lang, note = negotiate(query.get("lang", [None])[-1], headers.get("accept-language"))

        async def send_with_language(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                extra = [(b"content-language", current_language().replace("_", "-").encode("latin-1"))]
                if note is not None:
                    extra.append((b"kafenio-language-note", note.encode("latin-1", "replace")))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        note_token = _note.set(note)
        try:
            with language(lang):
                await self.app(scope, receive, send_with_language)
        finally:
            _note.reset(note_token)


def _install_typer_words(lang: str | None) -> None:
    """Bind gettext's default domain (Typer's words) to our ``messages.mo`` files
    and make ``lang`` (``None``: the environment's) the language they are looked up in: the
    standard library's ``gettext.gettext`` reads the ``LANGUAGE`` variable at each call."""
    gettext.bindtextdomain(DEFAULT_DOMAIN, str(LOCALE_DIR))
    chosen = lang or _ENV_LANGUAGE
    if chosen is None:
        os.environ.pop("LANGUAGE", None)
    else:
        os.environ["LANGUAGE"] = chosen


_install_typer_words(None)
