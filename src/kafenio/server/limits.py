"""What one client may ask of the server, and the guards at its edge (``docs/operations.md``,
"Limits").

A client is an IP address (``request.client.host``; behind a reverse proxy, the address uvicorn
takes from ``X-Forwarded-For`` when the proxy is listed in ``--forwarded-allow-ips``).
:class:`ClientQuotas` keeps a token bucket per client and kind of request, and counts its open
sockets; :class:`BodyGuard` refuses REST bodies that are too large or not acceptable JSON before
the application reads them; :func:`origin_allowed` checks a WebSocket's ``Origin``;
:class:`TokenLogFilter` keeps seat tokens out of the server's logs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from kafenio.i18n import _, n_, number

#: REST bodies larger than this are refused with 413 ``too_large`` (``--body-bytes``)
MAX_BODY_BYTES = 64 * 1024
#: arrays and objects nested deeper than this are refused (a frame or a REST body)
MAX_JSON_DEPTH = 16

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class JsonError(ValueError):
    """A body or frame that is not acceptable JSON: ``code`` ``too_large`` or ``bad_json``."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def load_json(raw: str | bytes, limit: int) -> Any:
    """Parse a client's JSON text, at most ``limit`` bytes and :data:`MAX_JSON_DEPTH` deep.

    Raises:
        JsonError: ``too_large``, or ``bad_json`` (not JSON, not UTF-8, nested too deep).
    """
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > limit:
        raise JsonError("too_large", n_("message of {n} byte; the limit is {m}",
                                        "message of {n} bytes; the limit is {m}", size).format(
            n=number(size), m=number(limit)))
    try:
        data = json.loads(raw)
    except RecursionError:
        raise JsonError("bad_json", _too_deep_reason()) from None
    except ValueError as err:  # not JSON, not UTF-8, an integer of over 4300 digits
        raise JsonError("bad_json", _("not JSON: {err}").format(err=err)) from None
    if _too_deep(data):
        raise JsonError("bad_json", _too_deep_reason())
    return data


def _too_deep_reason() -> str:
    return n_("JSON nested deeper than {n} level", "JSON nested deeper than {n} levels", MAX_JSON_DEPTH).format(
        n=number(MAX_JSON_DEPTH))


def _too_deep(value: Any, level: int = 1) -> bool:
    """True when ``value``'s arrays and objects nest more than :data:`MAX_JSON_DEPTH` deep."""
    if not isinstance(value, (list, dict)):
        return False
    if level > MAX_JSON_DEPTH:
        return True
    return any(_too_deep(v, level + 1) for v in (value.values() if isinstance(value, dict) else value))


@dataclass(frozen=True)
class Limits:
    """The per-client quotas and the server-wide budgets (``kafenio serve`` options).

    Args:
        tables_per_minute, tables_burst: tables a client may create a minute on average, and at
            once.
        sockets_per_client: WebSockets a client may hold open at the same time.
        chat_per_minute, chat_burst: chat lines a client may send a minute on average, and at once
            (over all its sockets).
        lookups_per_minute, lookups_burst: requests for tables that do not exist a client may make
            a minute on average, and at once (beyond: ``429`` for every table lookup).
        bot_workers: computer players thinking at the same time, server-wide (each in a thread;
            the others wait their turn).
        body_bytes: the largest REST body accepted.
        allowed_origins: the ``Origin`` values a WebSocket may come from besides the server's own
            (``*``: any).
    """

    tables_per_minute: float = 10.0
    tables_burst: int = 20
    sockets_per_client: int = 32
    chat_per_minute: float = 30.0
    chat_burst: int = 10
    lookups_per_minute: float = 60.0
    lookups_burst: int = 30
    bot_workers: int = 1
    body_bytes: int = MAX_BODY_BYTES
    allowed_origins: tuple[str, ...] = ()


class TokenBucket:
    """A rate limit: ``rate`` tokens a second accrue up to ``burst``; each request spends one.

    Args:
        rate: tokens per second (> 0).
        burst: the bucket's size, full at the start (≥ 1).
        clock: seconds, monotonic (tests pass their own).
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.at = clock()

    def _fill(self) -> None:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now

    def ready(self) -> bool:
        """True when a token is there (nothing spent)."""
        self._fill()
        return self.tokens >= 1.0

    def take(self) -> bool:
        """Spend a token; False (nothing spent) when the bucket is empty."""
        if not self.ready():
            return False
        self.tokens -= 1.0
        return True

    def full(self) -> bool:
        """True when the bucket is as a new one (it can be forgotten)."""
        self._fill()
        return self.tokens >= self.burst


class ClientQuotas:
    """Each client's buckets (``tables``, ``chat``, ``lookups``) and open sockets.

    Memory stays bounded: past :attr:`MAX_CLIENTS` clients, the buckets that are full again
    (their clients quiet) are forgotten.
    """

    MAX_CLIENTS = 10_000

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self.clock = clock
        self.rates = {"tables": (limits.tables_per_minute / 60.0, limits.tables_burst),
                      "chat": (limits.chat_per_minute / 60.0, limits.chat_burst),
                      "lookups": (limits.lookups_per_minute / 60.0, limits.lookups_burst)}
        self.buckets: dict[tuple[str, str], TokenBucket] = {}
        self.sockets: dict[str, int] = {}

    def _bucket(self, kind: str, client: str) -> TokenBucket:
        bucket = self.buckets.get((kind, client))
        if bucket is None:
            if len(self.buckets) >= self.MAX_CLIENTS:
                self.buckets = {key: b for key, b in self.buckets.items() if not b.full()}
            rate, burst = self.rates[kind]
            bucket = self.buckets[kind, client] = TokenBucket(rate, burst, self.clock)
        return bucket

    def take(self, kind: str, client: str) -> bool:
        """Spend one of ``client``'s ``kind`` tokens; False when none is left."""
        return self._bucket(kind, client).take()

    def ready(self, kind: str, client: str) -> bool:
        """True when ``client`` has a ``kind`` token left (nothing spent)."""
        bucket = self.buckets.get((kind, client))
        return bucket is None or bucket.ready()

    def open_socket(self, client: str) -> bool:
        """Count a new socket of ``client``; False (not counted) past ``sockets_per_client``."""
        held = self.sockets.get(client, 0)
        if held >= self.limits.sockets_per_client:
            return False
        self.sockets[client] = held + 1
        return True

    def close_socket(self, client: str) -> None:
        """A socket counted by :meth:`open_socket` closed."""
        held = self.sockets.get(client, 0) - 1
        if held > 0:
            self.sockets[client] = held
        else:
            self.sockets.pop(client, None)

    def describe(self, kind: str) -> str:
        """The limit of ``kind`` in words (for the refusal)."""
        rate, burst = self.rates[kind]
        return _("{n} a minute, {b} at once").format(n=number(rate * 60.0), b=number(burst))


def client_of(scope: Mapping[str, Any]) -> str:
    """The client's address of an ASGI connection (``"-"`` when unknown)."""
    client = scope.get("client")
    return str(client[0]) if client else "-"


# -- REST bodies ------------------------------------------------------------------------------------

class BodyGuard:
    """ASGI middleware: an HTTP request body over ``limit`` bytes is refused with ``413
    too_large`` as soon as it is seen to be (the rest is not read); a JSON body that does not
    parse or nests too deep is refused with ``400 bad_json``; a valid body is handed on as it
    came. Other requests pass untouched."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _refuse(send, 413, "too_large", _too_large(self.limit))
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _refuse(send, 413, "too_large", _too_large(self.limit))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:
            try:
                load_json(body, self.limit)
            except JsonError as err:
                await _refuse(send, 413 if err.code == "too_large" else 400, err.code, err.reason)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _too_large(limit: int) -> str:
    return n_("the request body is over {n} byte", "the request body is over {n} bytes", limit).format(n=number(limit))


async def _refuse(send: Send, status: int, code: str, reason: str) -> None:
    body = json.dumps({"detail": {"code": code, "reason": reason}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


# -- WebSocket origins ---------------------------------------------------------------------------------

def origin_allowed(headers: Mapping[str, str], allowed: Iterable[str]) -> bool:
    """True when a WebSocket handshake's ``Origin`` may open a socket: none given (not a browser),
    the server's own (its scheme-less ``host[:port]`` equals the ``Host`` header), or one of
    ``allowed`` (``*``: any)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    allowed = tuple(allowed)
    if "*" in allowed or origin.rstrip("/") in {a.rstrip("/") for a in allowed}:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and netloc.lower() == headers.get("host", "").lower()


# -- logs --------------------------------------------------------------------------------------------

TOKEN_RE = re.compile(r"(token=)([^&\s\"']+)")


def hide_tokens(text: str) -> str:
    """``text`` with every ``token=…`` query value replaced by ``#`` and the first 12 hex digits
    of its SHA-256 (enough to tell two log lines of one seat apart; useless to connect)."""
    return TOKEN_RE.sub(lambda m: m.group(1) + "#" + hashlib.sha256(m.group(2).encode()).hexdigest()[:12], text)


class TokenLogFilter(logging.Filter):
    """Rewrites a log record's message and arguments with :func:`hide_tokens` (uvicorn's access
    log and its WebSocket lines print the whole URL, query included)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = hide_tokens(record.msg)
        if isinstance(record.args, tuple) and any(isinstance(a, str) and "token=" in a for a in record.args):
            record.args = tuple(hide_tokens(a) if isinstance(a, str) else a for a in record.args)
        return True


#: the loggers whose lines may hold a URL with its query
URL_LOGGERS = ("uvicorn.access", "uvicorn.error")
