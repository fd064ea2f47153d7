"""Persistence of tables (SQLAlchemy 2 async): SQLite (WAL) by default, PostgreSQL with asyncpg.

Every call opens a short session and closes it (never one per connection). A change of a table
is a compare-and-set on its ``version`` (:meth:`Store.commit`), so two server processes cannot
both apply a move to the same version. Changes of different tables that arrive while a write is
under way are written together in the next transaction (a group commit); each caller is answered
only once its transaction has committed, so an answered move survives ``kill -9``. The schema is
created and upgraded by alembic (:func:`upgrade`, ``kafenio db upgrade``), never by
``create_all`` at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Select,
    Update,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from kafenio.server.models import ChatRow, MoveRow, TableRow

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
#: seconds a write waits for a lock held by another connection or process before it is refused
LOCK_TIMEOUT = 5.0


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
class Change:
    """One compare-and-set of :meth:`Store.commit`, waiting for its transaction."""

    table_id: str
    version: int
    columns: dict[str, Any]
    moves: list[MoveRow]
    delete_from: int | None
    done: asyncio.Future[bool]
    create: TableRow | None = None


#: at most this many changes per compare-and-set statement (a group's statements share one
#: transaction); statements are built and compiled once per column set and row count
CAS_ROWS = 32


@lru_cache(maxsize=256)
def _compare_and_set(keys: tuple[str, ...], n: int) -> Update:
    """``WITH changes AS (SELECT :c0_id, :c0_version, … UNION ALL …) UPDATE … FROM changes …
    RETURNING id`` for ``n`` changes of the columns ``keys``: each table moves to ``version + 1``
    iff it is still at its change's ``version``; the ids returned are the changes applied.
    ``updated_at`` is the time of the write unless the change sets it. Values are bound
    parameters (:func:`_params`), typed by their columns."""
    table = TableRow.__table__
    stamp = {} if "updated_at" in keys else {"updated_at": bindparam("c_at", type_=table.c.updated_at.type)}

    def row(i: int) -> Select:
        return select(bindparam(f"c{i}_id", type_=table.c.id.type).label("id"),
                      bindparam(f"c{i}_version", type_=table.c.version.type).label("version"),
                      *(bindparam(f"c{i}_{k}", type_=table.c[k].type).label(k) for k in keys))

    rows = (union_all(*map(row, range(n))) if n > 1 else row(0)).cte("changes")
    return (update(table).where(table.c.id == rows.c.id, table.c.version == rows.c.version)
            .values(version=rows.c.version + 1, **stamp, **{k: rows.c[k] for k in keys})
            .returning(table.c.id))


def _params(changes: list[Change], at: datetime) -> dict[str, Any]:
    """The bound values of :func:`_compare_and_set` for ``changes``."""
    out: dict[str, Any] = {} if changes and "updated_at" in changes[0].columns else {"c_at": at}
    for i, change in enumerate(changes):
        out[f"c{i}_id"], out[f"c{i}_version"] = change.table_id, change.version
        out.update((f"c{i}_{k}", v) for k, v in change.columns.items())
    return out


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
            # a row locked by another connection is waited for LOCK_TIMEOUT at most, then the
            # change is refused (as SQLite's busy_timeout does), never waited for forever
            kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True, connect_args={
                "server_settings": {"lock_timeout": str(int(LOCK_TIMEOUT * 1000))}})
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            event.listen(self.engine.sync_engine, "begin", _sqlite_begin("BEGIN"))
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        sqlite = self.engine.dialect.name == "sqlite"
        # SQLite has one writer: queueing writes here beats waiting on its busy lock
        self._write = asyncio.Lock() if sqlite else contextlib.nullcontext()
        # SQLite: a group commit is one trip to a worker thread with the blocking driver, rather
        # than a dozen trips to aiosqlite's thread (each a wait for the CPU on a busy machine)
        self._blocking: Engine | None = None
        if sqlite:
            self._blocking = create_engine(make_url(self.url).set(drivername="sqlite+pysqlite"),
                                           connect_args={"check_same_thread": False})
            event.listen(self._blocking, "connect", _sqlite_pragmas)
            # the group commits only write: take the write lock at once (waiting LOCK_TIMEOUT)
            event.listen(self._blocking, "begin", _sqlite_begin("BEGIN IMMEDIATE"))
        self._pending: list[Change] = []
        self._writers: set[asyncio.Task] = set()
        # SQLite writes one transaction at a time; PostgreSQL overlaps a few (each group holds
        # other tables than the others: a table has at most one change pending)
        self._max_writers = 1 if sqlite else 4

    async def close(self) -> None:
        """Let the pending commits finish, then close every pooled connection."""
        await asyncio.gather(*self._writers, return_exceptions=True)
        await self.engine.dispose()
        if self._blocking is not None:
            self._blocking.dispose()

    # -- tables -------------------------------------------------------------------------------
    async def create(self, row: TableRow, moves: Iterable[MoveRow] = ()) -> None:
        """Insert a new table (and its moves)."""
        async with self._write, self.engine.begin() as conn:
            await conn.run_sync(_insert_table, row, list(moves))

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
                     moves: Iterable[MoveRow] = (), delete_from: int | None = None,
                     create: TableRow | None = None) -> bool:
        """Compare-and-set: apply ``changes`` (columns) and set ``version + 1`` iff the table is
        still at ``version``; add ``moves``, and first delete the moves from seq ``delete_from``
        on (an undo); insert the new table ``create`` in the same transaction (a rematch: the
        table the change links as ``next_table`` exists iff the change is stored).

        The change joins the next group commit (see the module docstring); this returns once
        that transaction has committed. Call it at most once at a time per table (the hub holds
        the table's lock).

        Returns:
            False when another writer got there first (nothing was changed).

        Raises:
            SQLAlchemyError: the database refused this change (the others of its group are
                written without it).
        """
        change = Change(table_id, version, changes, list(moves), delete_from,
                        asyncio.get_running_loop().create_future(), create)
        self._pending.append(change)
        if len(self._writers) < self._max_writers:
            self._writers.add(asyncio.create_task(self._write_pending(), name="kafenio-group-commit"))
        return await change.done

    async def _write_pending(self) -> None:
        """Take the pending changes as one group and write them in one transaction, until none
        is left (several such writers run at once on PostgreSQL)."""
        try:
            while self._pending:
                group, self._pending = self._pending, []
                try:
                    written = await self._write_group(group)
                except Exception:  # a refused change must not fail its group: one by one
                    for change in group:
                        try:
                            (ok,) = await self._write_group([change])
                        except Exception as err:
                            _answer(change, err)
                        else:
                            _answer(change, ok)
                    continue
                for change, ok in zip(group, written, strict=True):
                    _answer(change, ok)
        finally:  # no await since the loop found nothing pending: a later commit starts a writer
            self._writers.discard(asyncio.current_task())

    async def _write_group(self, group: list[Change]) -> list[bool]:
        """One transaction for ``group`` (:func:`_write`); whether each change was applied."""
        at = now()
        if self._blocking is not None:
            async with self._write:
                applied = await asyncio.to_thread(self._write_blocking, group, at)
        else:
            async with self.engine.begin() as conn:
                applied = await conn.run_sync(_write, group, at)
        return [c.table_id in applied for c in group]

    def _write_blocking(self, group: list[Change], at: datetime) -> set[str]:
        with self._blocking.begin() as conn:
            return _write(conn, group, at)

    async def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The stored version of each of ``table_ids`` (those that exist)."""
        if not table_ids:
            return {}
        async with self.sessions() as session:
            rows = await session.execute(select(TableRow.id, TableRow.version).where(TableRow.id.in_(table_ids)))
            return {table_id: version for table_id, version in rows}

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

    async def chat(self, table_id: str, limit: int = 50) -> list[ChatRow]:
        """The table's last ``limit`` chat lines, oldest first."""
        query = select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(limit)
        async with self.sessions() as session:
            return list((await session.scalars(query)).all())[::-1]

    async def chat_after(self, after: dict[str, int]) -> list[ChatRow]:
        """The chat lines of each table of ``after`` (table id → chat line id) whose id is
        greater than the one given for their table, in id order (one query)."""
        if not after:
            return []
        query = select(ChatRow).where(or_(*(and_(ChatRow.table_id == table_id, ChatRow.id > last)
                                            for table_id, last in after.items()))).order_by(ChatRow.id)
        async with self.sessions() as session:
            return list((await session.scalars(query)).all())


def _write(conn: Connection, group: list[Change], at: datetime) -> set[str]:
    """Write ``group`` in ``conn``'s transaction; the ids of the tables whose change applied.

    The compare-and-sets of changes with the same columns go in one statement per
    :data:`CAS_ROWS` changes (one round trip each); tables are locked in id order, so that two
    processes writing the same tables cannot deadlock. Then the undos' deletions, the new tables
    of the applied changes, then every applied change's moves in one ``INSERT``.
    """
    by_columns: dict[tuple[str, ...], list[Change]] = {}
    for change in sorted(group, key=lambda c: c.table_id):
        by_columns.setdefault(tuple(change.columns), []).append(change)
    applied: set[str] = set()
    for keys, same in by_columns.items():
        for i in range(0, len(same), CAS_ROWS):
            chunk = same[i:i + CAS_ROWS]
            applied.update(conn.execute(_compare_and_set(keys, len(chunk)), _params(chunk, at)).scalars())
    done = [c for c in group if c.table_id in applied]
    for change in done:
        if change.delete_from is not None:
            conn.execute(delete(MoveRow).where(MoveRow.table_id == change.table_id, MoveRow.seq >= change.delete_from))
        if change.create is not None:
            _insert_table(conn, change.create, [])
    _insert_moves(conn, [m for change in done for m in change.moves])
    return applied


def _insert_table(conn: Connection, row: TableRow, moves: list[MoveRow]) -> None:
    """Insert the table ``row`` (every column as set on it) and its ``moves``."""
    conn.execute(insert(TableRow), [{c.key: getattr(row, c.key) for c in TableRow.__table__.columns}])
    _insert_moves(conn, moves)


def _insert_moves(conn: Connection, moves: list[MoveRow]) -> None:
    """Insert ``moves`` in one ``INSERT`` (none: nothing)."""
    if moves:
        conn.execute(insert(MoveRow), [{"table_id": m.table_id, "seq": m.seq, "deal": m.deal, "seat": m.seat,
                                        "action": m.action, "by_bot": m.by_bot} for m in moves])


def _answer(change: Change, outcome: bool | Exception) -> None:
    """Resolve a change's future (unless its caller stopped waiting)."""
    if change.done.done():
        return
    if isinstance(outcome, Exception):
        change.done.set_exception(outcome)
    else:
        change.done.set_result(outcome)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Set up a new SQLite connection: WAL, the lock wait, foreign keys; and no transaction
    handling of the driver's own (``_sqlite_begin`` begins every transaction). The driver
    begins one only before a statement that starts with INSERT, UPDATE or DELETE, so the
    compare-and-set (``WITH changes AS (…) UPDATE …``) ran in autocommit: committed even when
    the moves of its transaction were then refused (a full disk), leaving a gap in them."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={int(LOCK_TIMEOUT * 1000)}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(statement: str) -> Callable[[Connection], None]:
    """A ``begin`` event handler that starts the transaction with ``statement``."""

    def begin(conn: Connection) -> None:
        conn.exec_driver_sql(statement)

    return begin
