"""The FastAPI application: the REST lobby, the table WebSocket and the web front end.

``create_app(ServerSettings(...))`` builds an app whose lifespan opens the store, the broker
and the hub (migrations are run before, by ``kafenio serve`` or ``kafenio db upgrade``). The
endpoints and every message are described in ``docs/protocol.md``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query, WebSocket
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

import kafenio
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game
from kafenio.i18n import LanguageMiddleware, _
from kafenio.server import protocol as p
from kafenio.server.broker import Broker, MemoryBroker, RedisBroker
from kafenio.server.hub import Hub, HubError
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
    static_dir: Path = STATIC_DIR


class SeatSpec(BaseModel):
    """A seat of a new table."""

    kind: Literal["human", "computer"]
    level: str | None = None
    name: Annotated[str, Field(max_length=32)] | None = None


class JoinSpec(BaseModel):
    """Claim a human seat."""

    seat: int
    name: Annotated[str, Field(min_length=1, max_length=32)]


class NewTable(BaseModel):
    """``POST /api/tables`` (``docs/protocol.md`` §2)."""

    game: str
    presets: list[str] = []
    options: dict[str, Any] = {}
    seats: list[SeatSpec] | None = None
    timer: Literal["off", "relaxed", "blitz"] = "off"
    spectators: bool = True
    hints: bool = True
    join: JoinSpec | None = None


def _error(err: HubError) -> HTTPException:
    detail = {"code": err.code, "reason": err.reason}
    if err.field is not None:
        detail["field"] = err.field
    return HTTPException(err.status, detail)


def create_app(settings: ServerSettings) -> FastAPI:
    """The server application."""
    store = Store(settings.database_url)
    broker = settings.broker or (RedisBroker(settings.redis_url) if settings.redis_url else MemoryBroker())
    games = GameRegistry(settings.games)
    hub = Hub(store, broker, games, settings.bot_delay, settings.sweep_interval, settings.message_rate,
              settings.message_burst)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            await store.close()

    app = FastAPI(title="kafenio", version=kafenio.__version__, lifespan=lifespan)
    app.state.hub = hub
    app.add_middleware(LanguageMiddleware)  # each request and socket in its browser's language

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
    async def create_table(spec: NewTable) -> dict[str, Any]:
        """Create a table (and claim a seat for its creator with ``join``)."""
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
    async def get_table(table_id: str) -> p.TableInfo:
        """One table."""
        try:
            live = await hub.table(table_id)
        except HubError as err:
            raise _error(err) from None
        return live.table_info((await hub.presence([table_id]))[table_id])

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, spec: JoinSpec) -> dict[str, Any]:
        """Claim a human seat: the token (shown once) and the WebSocket path."""
        try:
            token = await hub.join(table_id, spec.seat, spec.name)
        except HubError as err:
            raise _error(err) from None
        return {"token": token, "seat": spec.seat, "ws": f"/ws/tables/{table_id}?token={token}"}

    async def finished(table_id: str) -> Any:
        try:
            live = await hub.table(table_id)
        except HubError as err:
            raise _error(err) from None
        if live.phase != "finished":
            raise HTTPException(409, {"code": "not_finished", "reason": _("the match is still being played")})
        return live

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> PlainTextResponse:
        """The finished match's record (JSON lines)."""
        live = await finished(table_id)
        return PlainTextResponse(record_text(live), media_type="application/x-ndjson")

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, deal: int = 0, seat: int | None = None) -> dict[str, Any]:
        """Every position of a deal of a finished match, as ``seat`` (or a spectator) saw it."""
        live = await finished(table_id)
        try:
            return replay_frames(live, deal, seat)
        except KafenioError as err:
            raise HTTPException(422, {"code": "bad_request", "reason": str(err)}) from None

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        """The table protocol (``docs/protocol.md`` §3–§5)."""
        await hub.serve_socket(ws, table_id, token)

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
