"""Persistence of tables (SQLAlchemy 2 async): SQLite (WAL) by default, PostgreSQL with asyncpg.

Every call opens a short session and closes it (never one per connection). A change of a table
is a compare-and-set on its ``version`` (:meth:`Store.commit`), so two server processes cannot
both apply a move to the same version. The schema is created and upgraded by alembic
(:func:`upgrade`, ``kafenio db upgrade``), never by ``create_all`` at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, event, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from kafenio.server.models import ChatRow, MoveRow, TableRow

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def default_database_url() -> str:
    """SQLite in the user's data folder (``platformdirs``): ``…/kafenio/server.sqlite3``."""
    from platformdirs import user_data_path

    folder = user_data_path("kafenio")
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'server.sqlite3'}"


def async_url(url: str) -> str:
    """The URL with an async driver: ``sqlite://`` → aiosqlite, ``postgresql://`` → asyncpg."""
    parsed = make_url(url)
    driver = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg",
              "postgres": "postgresql+asyncpg"}.get(parsed.drivername)
    return parsed.set(drivername=driver).render_as_string(hide_password=False) if driver else url


def _alembic_config(url: str) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", async_url(url).replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Run the migrations up to ``revision`` (blocking; not from inside an event loop)."""
    from alembic import command

    command.upgrade(_alembic_config(url), revision)


async def upgrade_async(url: str, revision: str = "head") -> None:
    """:func:`upgrade` from async code (in a worker thread, which runs its own loop)."""
    await asyncio.to_thread(upgrade, url, revision)


def now() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


@dataclass
class Loaded:
    """A table row and its accepted moves in order."""

    row: TableRow
    moves: list[MoveRow]


class Store:
    """The server's database.

    Args:
        url: a SQLAlchemy URL; ``sqlite://`` and ``postgresql://`` get their async drivers.
    """

    def __init__(self, url: str):
        self.url = async_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("postgresql"):
            kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer: queueing writes here beats waiting on its busy lock
        self._write = asyncio.Lock() if self.engine.dialect.name == "sqlite" else contextlib.nullcontext()

    async def close(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()

    # -- tables -------------------------------------------------------------------------------
    async def create(self, row: TableRow, moves: Iterable[MoveRow] = ()) -> None:
        """Insert a new table."""
        async with self._write, self.sessions() as session, session.begin():
            session.add(row)
            session.add_all(list(moves))

    async def load(self, table_id: str) -> Loaded | None:
        """The table and its moves, or ``None`` when there is no such table."""
        async with self.sessions() as session:
            row = await session.get(TableRow, table_id)
            if row is None:
                return None
            moves = (await session.scalars(select(MoveRow).where(MoveRow.table_id == table_id)
                                           .order_by(MoveRow.seq))).all()
            return Loaded(row, list(moves))

    async def commit(self, table_id: str, version: int, changes: dict[str, Any],
                     moves: Iterable[MoveRow] = (), delete_from: int | None = None) -> bool:
        """Compare-and-set: apply ``changes`` (columns) and set ``version + 1`` iff the table is
        still at ``version``; add ``moves``, and first delete the moves from seq ``delete_from``
        on (an undo).

        Returns:
            False when another writer got there first (nothing was changed).
        """
        async with self._write, self.sessions() as session, session.begin():
            result = await session.execute(
                update(TableRow).where(TableRow.id == table_id, TableRow.version == version)
                .values(version=version + 1, updated_at=now(), **changes))
            if result.rowcount != 1:
                await session.rollback()
                return False
            if delete_from is not None:
                await session.execute(delete(MoveRow).where(MoveRow.table_id == table_id,
                                                            MoveRow.seq >= delete_from))
            session.add_all(list(moves))
        return True

    async def list_tables(self, phase: str | None = None, limit: int = 50) -> list[TableRow]:
        """Tables, newest first."""
        query = select(TableRow).order_by(TableRow.created_at.desc()).limit(limit)
        if phase is not None:
            query = query.where(TableRow.phase == phase)
        async with self.sessions() as session:
            return list((await session.scalars(query)).all())

    async def active_ids(self) -> list[str]:
        """Ids of the tables being played or between deals (to resume after a restart)."""
        async with self.sessions() as session:
            return list((await session.scalars(select(TableRow.id).where(
                TableRow.phase.in_(("playing", "deal_over"))))).all())

    async def due_ids(self, at: float) -> list[str]:
        """Ids of the tables whose clock ran out at Unix time ``at``."""
        async with self.sessions() as session:
            return list((await session.scalars(select(TableRow.id).where(
                TableRow.deadline.is_not(None), TableRow.deadline <= at))).all())

    # -- chat ----------------------------------------------------------------------------------
    async def add_chat(self, table_id: str, seat: int, name: str, text: str) -> ChatRow:
        """Store a chat line; returns it with its id."""
        row = ChatRow(table_id=table_id, seat=seat, name=name, text=text, at=now())
        async with self._write, self.sessions() as session, session.begin():
            session.add(row)
        return row

    async def chat(self, table_id: str, limit: int = 50, after: int | None = None) -> list[ChatRow]:
        """The last ``limit`` chat lines (oldest first), or those after id ``after``."""
        query = select(ChatRow).where(ChatRow.table_id == table_id)
        if after is not None:
            query = query.where(ChatRow.id > after).order_by(ChatRow.id)
        else:
            query = query.order_by(ChatRow.id.desc()).limit(limit)
        async with self.sessions() as session:
            rows = list((await session.scalars(query)).all())
        return rows if after is not None else rows[::-1]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
