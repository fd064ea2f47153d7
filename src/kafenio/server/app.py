"""The FastAPI application: the REST lobby, the table WebSocket and the web front end.

``create_app(ServerSettings(...))`` builds an app whose lifespan opens the store, the broker
and the hub (migrations are run before, by ``kafenio serve`` or ``kafenio db upgrade``). The
endpoints and every message are described in ``docs/protocol.md``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, Field

import kafenio
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game
from kafenio.i18n import LanguageMiddleware, _
from kafenio.server import protocol as p
from kafenio.server.broker import Broker, MemoryBroker, RedisBroker
from kafenio.server.hub import Hub, HubError
from kafenio.server.limits import URL_LOGGERS, BodyGuard, Limits, TokenLogFilter, client_of, origin_allowed
from kafenio.server.live import (
    GameRegistry,
    computer_levels,
    describe_game,
    record_text,
    replay_frames,
    table_info,
    timer_modes,
)
from kafenio.server.store import Store

STATIC_DIR = Path(__file__).parent / "static"


@dataclass
class ServerSettings:
    """How to run the server.

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///…`` or ``postgresql://…``), already migrated.
        redis_url: pass hints over Redis (several processes); else in memory.
        broker: a ready broker (tests: ``MemoryBroker().peer()``); overrides ``redis_url``.
        games: extra games by name (tests); kafenio's installed games are always offered.
        bot_delay: seconds a computer waits before each action.
        sweep_interval: seconds between two looks for run-out clocks.
        message_rate, message_burst: each socket's message rate limit (``docs/protocol.md`` §4,
            ``rate_limited``).
        limits: the per-client quotas and server-wide budgets (``docs/operations.md``, "Limits").
        static_dir: the web front end's files.
    """

    database_url: str
    redis_url: str | None = None
    broker: Broker | None = None
    games: Mapping[str, type[Game]] | None = None
    bot_delay: float = 0.0
    sweep_interval: float = 0.5
    message_rate: float = p.MESSAGE_RATE
    message_burst: int = p.MESSAGE_BURST
    limits: Limits = field(default_factory=Limits)
    static_dir: Path = STATIC_DIR


#: a short word chosen from a list (a game, preset, option or level name)
Word = Annotated[str, Field(max_length=64), AfterValidator(p.clean_text)]
Seat = Annotated[int, Field(ge=0, le=15)]


def _option_value(value: Any) -> Any:
    """A rule option's value as sent: a number, a boolean, null, a word, or a list or mapping of
    those (the rule book checks it further); strings as :data:`~kafenio.server.protocol.Text`."""
    for item in value.values() if isinstance(value, dict) else value if isinstance(value, list) else [value]:
        if isinstance(item, (list, dict)) or (isinstance(item, str) and len(item) > 64):
            raise ValueError(_("a rule value is a number, a word, or a list or table of them"))
        if isinstance(item, str):
            p.clean_text(item)
    if isinstance(value, dict):
        for key in value:
            p.clean_text(key)
    return value


OptionValue = Annotated[Any, AfterValidator(_option_value)]


class SeatSpec(BaseModel):
    """A seat of a new table."""

    kind: Literal["human", "computer"]
    level: Word | None = None
    name: p.Name | None = None


class JoinSpec(BaseModel):
    """Claim a human seat."""

    seat: Seat
    name: p.Name


class NewTable(BaseModel):
    """``POST /api/tables`` (``docs/protocol.md`` §2)."""

    game: Word
    presets: Annotated[list[Word], Field(max_length=16)] = []
    options: Annotated[dict[Word, OptionValue], Field(max_length=128)] = {}
    seats: Annotated[list[SeatSpec], Field(max_length=16)] | None = None
    timer: Literal["off", "relaxed", "blitz"] = "off"
    spectators: bool = True
    hints: bool = True
    join: JoinSpec | None = None


def _error(err: HubError) -> HTTPException:
    detail = {"code": err.code, "reason": err.reason}
    if err.field is not None:
        detail["field"] = err.field
    return HTTPException(err.status, detail)


def _table_id(table_id: str) -> str:
    """``table_id`` when it has the form of one.

    Raises:
        HubError: ``unknown_table`` (404) for an id no table can have (no database call).
    """
    if p.TABLE_ID_RE.fullmatch(table_id) is None:
        raise HubError("unknown_table", _("no such table"), 404)
    return table_id


def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    """A request that does not fit its model: ``422 bad_request`` naming the field, in words
    (never the value sent: it may not even be printable)."""
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0]
    loc = [part for part in first["loc"] if part not in ("body", "query", "path")]
    message = str(first["msg"]).removeprefix("Value error, ")
    where = p.field_name(loc)
    detail = {"code": "bad_request", "reason": f"{where}: {message}" if where else message}
    if where:
        detail["field"] = where
    return JSONResponse({"detail": detail}, status_code=422)


def create_app(settings: ServerSettings) -> FastAPI:
    """The server application."""
    store = Store(settings.database_url)
    broker = settings.broker or (RedisBroker(settings.redis_url) if settings.redis_url else MemoryBroker())
    games = GameRegistry(settings.games)
    hub = Hub(store, broker, games, settings.bot_delay, settings.sweep_interval, settings.message_rate,
              settings.message_burst, settings.limits)
    quotas = hub.quotas
    token_filter = TokenLogFilter()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for name in URL_LOGGERS:  # uvicorn has configured its loggers by now
            logging.getLogger(name).addFilter(token_filter)
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            await store.close()
            for name in URL_LOGGERS:
                logging.getLogger(name).removeFilter(token_filter)

    app = FastAPI(title="kafenio", version=kafenio.__version__, lifespan=lifespan)
    app.state.hub = hub
    app.add_middleware(LanguageMiddleware)  # each request and socket in its browser's language
    app.add_middleware(BodyGuard, limit=settings.limits.body_bytes)
    app.add_exception_handler(RequestValidationError, _validation_error)

    def too_many(kind: str, reason: str) -> HTTPException:
        return HTTPException(429, {"code": "too_many_requests", "reason": reason.format(
            limit=quotas.describe(kind))})

    async def lookup(request: Request, table_id: str) -> Any:
        """The live table, counting a miss against the client's lookups of unknown tables."""
        client = client_of(request.scope)
        if not quotas.ready("lookups", client):
            raise too_many("lookups", _("too many requests for tables that do not exist ({limit})"))
        try:
            return await hub.table(_table_id(table_id))
        except HubError as err:
            if err.status == 404:
                quotas.take("lookups", client)
            raise _error(err) from None

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        """The games with their presets and options in words, the computer levels, the timers."""
        return {"games": [describe_game(n, games.game_class(n).rulebook) for n in games.names()],
                "levels": computer_levels(), "timers": timer_modes()}

    @app.get("/api/tables")
    async def list_tables(phase: Literal["waiting", "playing", "deal_over", "finished"] | None = None,
                          limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
        """Tables, newest first."""
        rows = await store.list_tables(phase, limit)
        present = await hub.presence([row.id for row in rows])
        out = []
        for row in rows:
            try:
                book = games.game_class(row.game).rulebook
            except KafenioError:  # a game no longer installed
                continue
            out.append(table_info(row, book, present[row.id]).model_dump())
        return {"tables": out}

    @app.post("/api/tables", status_code=201)
    async def create_table(spec: NewTable, request: Request) -> dict[str, Any]:
        """Create a table (and claim a seat for its creator with ``join``)."""
        if not quotas.take("tables", client_of(request.scope)):
            raise too_many("tables", _("too many tables created from your address ({limit})"))
        try:
            live, tokens = await hub.create_table(
                spec.game, spec.presets, spec.options,
                [s.model_dump() for s in spec.seats] if spec.seats is not None else None,
                spec.timer, spec.spectators, spec.hints,
                (spec.join.seat, spec.join.name) if spec.join else None)
        except HubError as err:
            raise _error(err) from None
        seat = spec.join.seat if spec.join else None
        return {"table": live.table_info(hub.connected(live.id)).model_dump(),
                "token": tokens.get(seat) if seat is not None else None, "seat": seat}

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> p.TableInfo:
        """One table."""
        live = await lookup(request, table_id)
        return live.table_info((await hub.presence([table_id]))[table_id])

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, spec: JoinSpec, request: Request) -> dict[str, Any]:
        """Claim a human seat: the token (shown once) and the WebSocket path."""
        await lookup(request, table_id)
        try:
            token = await hub.join(table_id, spec.seat, spec.name)
        except HubError as err:
            raise _error(err) from None
        return {"token": token, "seat": spec.seat, "ws": f"/ws/tables/{table_id}?token={token}"}

    async def finished(request: Request, table_id: str) -> Any:
        live = await lookup(request, table_id)
        if live.phase != "finished":
            raise HTTPException(409, {"code": "not_finished", "reason": _("the match is still being played")})
        return live

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> PlainTextResponse:
        """The finished match's record (JSON lines)."""
        live = await finished(request, table_id)
        return PlainTextResponse(record_text(live), media_type="application/x-ndjson")

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, request: Request, deal: Annotated[int, Query(ge=0, le=10_000)] = 0,
                     seat: Annotated[int | None, Query(ge=0, le=15)] = None) -> dict[str, Any]:
        """Every position of a deal of a finished match, as ``seat`` (or a spectator) saw it."""
        live = await finished(request, table_id)
        try:
            return replay_frames(live, deal, seat)
        except KafenioError as err:
            raise HTTPException(422, {"code": "bad_request", "reason": str(err)}) from None

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        """The table protocol (``docs/protocol.md`` §3–§5), after the edge's checks: the origin
        (4403 ``bad_origin``), the forms of the table id (4404) and the token (4401), the
        client's lookups of unknown tables and open sockets (4429 ``too_many_requests``)."""
        client = client_of(ws.scope)
        if not origin_allowed(ws.headers, settings.limits.allowed_origins):
            await ws.close(4403, "bad_origin")
            return
        if p.TABLE_ID_RE.fullmatch(table_id) is None:
            await ws.close(4404, "unknown_table")
            return
        if token is not None and p.TABLE_ID_RE.fullmatch(token) is None:  # tokens are URL-safe words too
            await ws.close(4401, "bad_token")
            return
        if not quotas.ready("lookups", client) or not quotas.open_socket(client):
            await ws.close(4429, "too_many_requests")
            return
        try:
            if not await hub.serve_socket(ws, table_id, token):
                quotas.take("lookups", client)
        finally:
            quotas.close_socket(client)

    static = settings.static_dir
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> Any:
        """The browser table built from web/ (``static/app/``), else the placeholder page."""
        for page in (static / "app" / "index.html", static / "index.html"):
            if page.is_file():
                return FileResponse(page)
        return JSONResponse({"kafenio": kafenio.__version__, "lobby": "/api/tables"})

    return app
