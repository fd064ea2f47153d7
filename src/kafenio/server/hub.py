"""The table hub: sockets, their messages, commits, fan-out, computer players and clocks.

Rules it keeps (``shared/DESIGN.md``, "Server rules"): one receive loop per socket
(:meth:`Hub.serve_socket`); one ordered outbox and one sender task per socket
(:class:`Connection`); a short database session per message; every change of a table is made
under the table's lock, committed with a compare-and-set on ``version``, then fanned out as a
full snapshot per seat (``view(seat)`` only) and published to the other processes as a hint;
the seat token is checked before ``accept()``, and the seat claimed in the broker's presence
(one socket per seat across every process; ``connected`` is the deployment's). Computer
players run in a per-table driver task started by the change that hands them the turn, and
think in worker processes (:mod:`kafenio.server.thinking`).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import hashlib
import logging
import secrets
import sys
import time
import weakref
from collections import deque
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocket

from kafenio.agents.names import computer_names
from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.engine.game import Seat
from kafenio.engine.match import Match
from kafenio.i18n import _, context_language, language, language_note, n_, negotiate, number
from kafenio.server import protocol as p
from kafenio.server.broker import Broker, Hint
from kafenio.server.limits import ClientQuotas, Limits, TokenBucket, client_of
from kafenio.server.live import GameRegistry, LiveTable, Move, accepted_levels, default_level
from kafenio.server.models import MoveRow, TableRow
from kafenio.server.store import Store, now
from kafenio.server.thinking import Thinkers
from kafenio.server.timers import MISSES_AWAY
from kafenio.words import game_name

log = logging.getLogger(__name__)

#: pending messages after which a socket that does not read is closed (1008)
MAX_PENDING = 256
#: the longest pause, in seconds, before a computer's step that the database refused is tried again
RETRY_LIMIT = 4.0
CHAT_HISTORY = 50
#: seconds after Redis's return during which a process keeps re-reading its tables and presence
RESYNC_AFTER_RETURN = 3.0
#: how long a thread holds the interpreter before another may take it, in the server (seconds;
#: Python's default is 0.005): SQLite's group commits run in a thread, and the event loop waits
#: for the interpreter each time it wakes while one runs, up to this long (people's p99 with
#: and without it: ``benchmarks/server_bench.py``, docs/operations.md "Measured")
SWITCH_INTERVAL = 0.0005


def token_hash(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


class HubError(Exception):
    """A refused lobby request: ``code`` for code, ``reason`` for people, an HTTP ``status``, and
    the rule ``field`` (option or preset name) it is about, if any."""

    def __init__(self, code: str, reason: str, status: int = 409, field: str | None = None):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.status = status
        self.field = field


class NotSaved(HubError):
    """The database refused a change (a full disk, a lock held too long, the database away): the
    change is dropped and the table stays at its last stored state (HTTP 503)."""

    def __init__(self) -> None:
        super().__init__("not_saved", _("the table could not be saved just now: nothing changed; try again"), 503)


#: what a refused or failed database call raises (SQLAlchemy wraps the driver's errors; a
#: connection may fail below it)
STORE_ERRORS = (SQLAlchemyError, OSError)


class Connection:
    """One accepted socket: its seat (``None``: a spectator), its client's address, its language
    (``lang``, a code of :func:`kafenio.i18n.negotiate`; ``None``: the server's), its mutes, its
    ordered outbox, its message rate limit."""

    def __init__(self, ws: WebSocket, table_id: str, seat: int | None, limit: p.RateLimit,
                 lang: str | None = None):
        self.ws = ws
        self.table_id = table_id
        self.seat = seat
        self.lang = lang
        self.client = client_of(ws.scope)
        self.muted: set[int] = set()
        self.closed = False
        self.limit = limit
        self.bucket = TokenBucket(limit.per_second, limit.burst)
        self._queue: deque[tuple[str, bool]] = deque()
        self._wake = asyncio.Event()
        self._sender = asyncio.create_task(self._send_loop())

    def push(self, text: str, snapshot: bool = False) -> None:
        """Queue a message; a new snapshot replaces a pending one (it holds everything)."""
        if self.closed:
            return
        if snapshot and any(is_snap for _t, is_snap in self._queue):
            self._queue = deque(item for item in self._queue if not item[1])
        if len(self._queue) >= MAX_PENDING:
            self.closed = True
            asyncio.get_running_loop().create_task(self.close(1008))
            return
        self._queue.append((text, snapshot))
        self._wake.set()

    def send(self, message: p.BaseModel) -> None:
        """Queue a protocol message."""
        self.push(p.dump(message), isinstance(message, p.SnapshotMsg))

    async def _send_loop(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    text, _snap = self._queue.popleft()
                    await self.ws.send_text(text)
        except Exception:  # a closed or broken socket: the receive loop ends the connection
            self.closed = True

    async def close(self, code: int) -> None:
        """Close the socket with ``code`` (errors ignored: it may be gone already)."""
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    def stop(self) -> None:
        """Stop the sender (after the socket closed)."""
        self.closed = True
        self._sender.cancel()


class Hub:
    """All tables of this process.

    Args:
        store: the database.
        broker: hints to and from the other processes.
        games: the games on offer.
        bot_delay: seconds a computer waits before each action (so people can follow).
        sweep_interval: seconds between two looks for run-out clocks.
        message_rate, message_burst: each socket's message rate limit (messages a second on
            average, and at once); a message beyond it is dropped with ``rate_limited``.
        limits: the per-client quotas (chat here) and the computer players' budget: at most
            ``bot_workers`` of them think at once, each in a worker process.
    """

    def __init__(self, store: Store, broker: Broker, games: GameRegistry, bot_delay: float = 0.0,
                 sweep_interval: float = 0.5, message_rate: float = p.MESSAGE_RATE,
                 message_burst: int = p.MESSAGE_BURST, limits: Limits | None = None):
        self.store = store
        self.broker = broker
        self.games = games
        self.bot_delay = bot_delay
        self.sweep_interval = sweep_interval
        self.limit = p.RateLimit(per_second=message_rate, burst=message_burst)
        self.limits = limits or Limits()
        self.quotas = ClientQuotas(self.limits)
        #: the computer players' processes: a crowd of computer tables waits here, not the loop
        self.thinkers = Thinkers(self.limits.bot_workers)
        self.live: dict[str, LiveTable] = {}
        #: a lock lives while a task holds or awaits it (a lookup of an unknown id leaves none)
        self.locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        #: table → the seats last announced as connected to its sockets (``presence`` frames)
        self.announced: dict[str, set[int]] = {}
        self.conns: dict[str, set[Connection]] = {}
        #: table → the ids of the chat lines lately sent to its sockets here (for the tables with
        #: sockets here): a line reaches each socket once, whether a hint or a re-read brings it
        self.chat_sent: dict[str, deque[int]] = {}
        #: table → its seats connected in any process (the broker's presence), for tables with
        #: sockets here; renewed at each connect and drop here and at each presence hint
        self.present: dict[str, set[int]] = {}
        self.drivers: dict[str, asyncio.Task] = {}
        self.socket_tasks: set[asyncio.Task] = set()
        self._stopping = asyncio.Event()
        self._sweeper: asyncio.Task | None = None

    # -- life -------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Subscribe to hints, start the clock sweeper, resume computer players of every table
        (the interpreter's switch interval set to :data:`SWITCH_INTERVAL`); then freeze the
        objects made so far out of the garbage collector's scans."""
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.broker.subscribe(self._on_hint)
        await self.broker.start()
        self._sweeper = asyncio.create_task(self._sweep(), name="kafenio-sweeper")
        for table_id in await self.store.active_ids():
            async with self.lock(table_id):
                try:
                    live = await self.get(table_id)
                except KafenioError:  # a table whose moves do not replay stays stopped; the others go on
                    log.exception("table %s cannot be rebuilt from its stored moves", table_id)
                    continue
                if live is not None:
                    self._kick(live)
        # what start-up made (modules, schemas, resumed tables) lives as long as the process: kept
        # out of the collector's scans, a full collection no longer stalls every table ~0.1 s
        gc.collect()
        gc.freeze()

    async def stop(self) -> None:
        """Stop the computer players' workers, close the sockets, let the drivers and the
        sweeper finish their step, stop the broker.

        Tasks are asked to stop rather than cancelled in the middle of a database call; only
        those still running after a few seconds are cancelled. A search under way ends at
        once, its table as stored.
        """
        self._stopping.set()
        self.thinkers.close()
        for conns in list(self.conns.values()):
            for conn in list(conns):
                await conn.close(1001)
        tasks = [t for t in [self._sweeper, *self.drivers.values(), *self.socket_tasks] if t is not None]
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=5)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        await self.broker.close()
        gc.unfreeze()

    async def _pause(self, seconds: float) -> bool:
        """Wait ``seconds``; True when the hub is stopping."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)
        return self._stopping.is_set()

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock every change of ``table_id`` in this process is made under."""
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table (rebuilt from the database when not cached); call under its lock."""
        live = self.live.get(table_id)
        if live is None:
            loaded = await self.store.load(table_id)
            if loaded is None:
                return None
            live = self.live[table_id] = LiveTable.build(loaded.row, loaded.moves, self.games)
        return live

    async def fresh(self, table_id: str) -> LiveTable | None:
        """The live table as stored now: the cache is rebuilt when the database holds another
        version (a change made by another process whose hint was lost, e.g. while Redis was
        away); call under its lock. While the database does not answer, the cached table is
        the best known."""
        live = self.live.get(table_id)
        if live is not None:
            try:
                if (await self.store.versions([table_id])).get(table_id) == live.version:
                    return live
            except STORE_ERRORS as err:
                log.warning("table %s: its stored version could not be read: %s", table_id, err)
                return live
            self.live.pop(table_id, None)
        return await self.get(table_id)

    def _here(self, table_id: str) -> set[int]:
        """The seats with an open socket in this process."""
        return {c.seat for c in self.conns.get(table_id, ()) if c.seat is not None and not c.closed}

    def connected(self, table_id: str) -> set[int]:
        """The seats with an open socket in any process: this process's, and the others' as
        last heard from the broker (for a table with sockets here)."""
        return self._here(table_id) | self.present.get(table_id, set())

    async def presence(self, table_ids: list[str]) -> dict[str, set[int]]:
        """The seats of each table with an open socket in any process, asked of the broker."""
        found = await self.broker.present(table_ids)
        return {t: found.get(t, set()) | self._here(t) for t in table_ids}

    async def _presence_changed(self, table_id: str) -> None:
        """Renew the table's presence from the broker and tell the other processes."""
        if self.conns.get(table_id):
            self.present[table_id] = (await self.broker.present([table_id]))[table_id]
        else:
            self.present.pop(table_id, None)
        await self.broker.publish(Hint(table_id, 0, "presence"))

    # -- commits and fan-out --------------------------------------------------------------------
    async def _commit(self, live: LiveTable, moves: list[Move] | None = None, delete_from: int | None = None,
                      keep_clock: bool = False, create: TableRow | None = None) -> bool:
        """Compare-and-set the in-memory change of ``live`` (with the new table ``create``, a
        rematch, in the same transaction), and only once it is stored fan it out (commit before
        show). False: lost the race (the cache is dropped; the caller answers ``conflict``).

        Raises:
            NotSaved: the database refused the change; the cache is dropped, so the table is
                rebuilt from its last stored state and nobody was shown the change.
        """
        version = live.row.version
        rows = [MoveRow(table_id=live.id, seq=m.seq, deal=m.deal, seat=m.seat, action=m.action, by_bot=m.by_bot)
                for m in moves or ()]
        try:
            ok = await self.store.commit(live.id, version, live.columns(keep_clock), rows, delete_from, create)
        except STORE_ERRORS as err:
            self.live.pop(live.id, None)
            log.warning("table %s: a change of version %s was not stored: %s", live.id, version, err)
            raise NotSaved from err
        if not ok:
            self.live.pop(live.id, None)
            return False
        live.row.version = version + 1
        self._fan_out(live)
        await self.broker.publish(Hint(live.id, live.row.version))
        self._kick(live)
        return True

    def _fan_out(self, live: LiveTable) -> None:
        """Send every socket of the table its snapshot, built for its seat in its language."""
        conns = [c for c in self.conns.get(live.id, ()) if not c.closed]
        if not conns:
            return
        connected, at = self.connected(live.id), time.time()
        self.announced[live.id] = connected
        by_lang: dict[str | None, list[Connection]] = {}
        for conn in conns:
            by_lang.setdefault(conn.lang, []).append(conn)
        for lang, group in by_lang.items():
            with language(lang):
                snapshots = live.snapshots({c.seat for c in group}, connected, at)
                texts = {seat: p.dump(snapshot) for seat, snapshot in snapshots.items()}
            for conn in group:
                conn.push(texts[conn.seat], snapshot=True)

    def _announce_presence(self, table_id: str) -> None:
        """Send a small ``presence`` frame to the table's sockets when its connected seats
        changed since the last one (a spectator coming or going changes nothing)."""
        conns = [c for c in self.conns.get(table_id, ()) if not c.closed]
        if not conns:
            self.announced.pop(table_id, None)
            return
        seats = self.connected(table_id)
        if self.announced.get(table_id) == seats:
            return
        self.announced[table_id] = seats
        text = p.dump(p.PresenceMsg(connected=sorted(seats)))
        for conn in conns:
            conn.push(text)

    def _snapshot(self, live: LiveTable, conn: Connection) -> p.SnapshotMsg:
        with language(conn.lang):
            return live.snapshot(conn.seat, self.connected(live.id), time.time())

    async def _on_hint(self, hint: Hint) -> None:
        if not self.conns.get(hint.table) and hint.table not in self.live:
            return
        if hint.kind == "chat":
            if (sent := self.chat_sent.get(hint.table)) is not None:
                await self._catch_up_chat({hint.table: min(max(sent, default=0), (hint.chat_id or 0) - 1)})
            return
        if hint.kind == "presence":
            if self.conns.get(hint.table):
                self.present[hint.table] = (await self.broker.present([hint.table]))[hint.table]
                self._announce_presence(hint.table)
            return
        async with self.lock(hint.table):
            cached = self.live.get(hint.table)
            if cached is not None and cached.version >= hint.version:
                return
            self.live.pop(hint.table, None)
            live = await self.get(hint.table)
            if live is not None:
                self._fan_out(live)

    # -- computer players and clocks -------------------------------------------------------------
    def _kick(self, live: LiveTable) -> None:
        """Start the table's driver when a computer is to act or the next deal may start."""
        if not (live.computer_acts() or live.all_ready()):
            return
        task = self.drivers.get(live.id)
        if task is None or task.done():
            self.drivers[live.id] = asyncio.get_running_loop().create_task(self._drive(live.id))

    async def _drive(self, table_id: str) -> None:
        """Play the table's computer seats and start its next deals while there is one to do. A
        computer thinks in a worker process without the table's lock (people's messages to the
        table go on meanwhile); its action is applied only if the table did not change since. A
        step the database refuses, or whose workers kept dying, is tried again after a pause (a
        quarter of a second, doubling up to :data:`RETRY_LIMIT`)."""
        retry = 0.0
        while not self._stopping.is_set():
            if (retry or self.bot_delay) and await self._pause(retry or self.bot_delay):
                return
            try:
                if not await self._drive_step(table_id):
                    return
                retry = 0.0
            except (NotSaved, BrokenProcessPool, *STORE_ERRORS) as err:
                if self._stopping.is_set():  # the workers were stopped under the search
                    return
                retry = min(RETRY_LIMIT, 2 * retry or 0.25)
                log.warning("table %s: the computer's step is retried in %.2f s: %s", table_id, retry, err)

    async def _drive_step(self, table_id: str) -> bool:
        """One step of :meth:`_drive`; False when there is nothing left to do."""
        async with self.lock(table_id):
            live = await self.get(table_id)
            if live is None:
                return False
            if live.all_ready():
                live.start_next_deal()
                await self._commit(live)
                return True
            if not live.computer_acts():
                return False
            seat, version = live.to_act(), live.version
            thinking = self.thinkers.step(live.bot_for(seat), live.state, seat)  # copies them at once
        action, player = await thinking
        async with self.lock(table_id):
            live = await self.get(table_id)
            if live is None or live.version != version:
                return True  # the table changed meanwhile (a seat came back, an undo): think again
            live.bots[seat] = player
            by_bot = live.row.seats[seat]["kind"] == "human"
            try:
                move = live.apply(seat, action, by_bot)
            except KafenioError:
                log.exception("computer player %s chose an illegal action at table %s", player.name, table_id)
                move = live.apply(seat, live.state.legal_actions()[0], by_bot)
            await self._commit(live, [move])
            return True

    async def _sweep(self) -> None:
        """Every ``sweep_interval``: run out the clocks that are due and, while the broker's
        hints may be lost (Redis away, or back for less than :data:`RESYNC_AFTER_RETURN`
        seconds, while the other processes claim their seats again), re-read the versions and
        presence of the tables with sockets here (:meth:`_resync`)."""
        generation, until = self.broker.generation, 0.0
        while not await self._pause(self.sweep_interval):
            try:
                back = self.broker.generation != generation
                if back:
                    generation, until = self.broker.generation, time.monotonic() + RESYNC_AFTER_RETURN
                if back or not self.broker.healthy or time.monotonic() < until:
                    await self._resync(announce=back)
                due = await self.store.due_ids(time.time())
                for table_id in due:
                    await self._timeout(table_id)
            except Exception:
                log.exception("clock sweep failed")

    async def _resync(self, announce: bool = False) -> None:
        """Bring the tables with sockets here up to their stored versions and chat lines
        (changes and lines of other processes whose hints were lost) and renew their presence;
        each table that changed is fanned out. ``announce``: hints flow again, tell the other
        processes about this one's seats (which the broker claimed again)."""
        ids = [t for t, conns in self.conns.items() if conns]
        if announce:
            for table_id in {t for t in ids if self._here(t)}:
                await self.broker.publish(Hint(table_id, 0, "presence"))
        await self._catch_up_chat({t: max(sent, default=0) for t, sent in self.chat_sent.items()})
        stored = await self.store.versions(ids)
        present = await self.broker.present(ids)
        for table_id in ids:
            live = self.live.get(table_id)
            moved = live is None or stored.get(table_id) != live.version
            if not moved and present[table_id] == self.present.get(table_id, set()):
                continue
            self.present[table_id] = present[table_id]
            async with self.lock(table_id):
                if moved:
                    self.live.pop(table_id, None)
                if (live := await self.get(table_id)) is not None:
                    self._fan_out(live)

    async def _timeout(self, table_id: str) -> None:
        async with self.lock(table_id):
            live = await self.get(table_id)
            if live is None or live.row.deadline is None or live.row.deadline > time.time():
                return
            moves = []
            if live.phase == "deal_over":
                live.start_next_deal()
            elif live.phase == "playing" and not live.computer_acts():
                try:
                    moves = await self._missed_turn(live, live.to_act())
                except Exception:  # workers that died: nothing stored, the next sweep plays the turn
                    self.live.pop(table_id, None)
                    raise
            else:
                live.row.deadline = None
            await self._commit(live, moves)

    async def _missed_turn(self, live: LiveTable, seat: int) -> list:
        """A clock ran out on ``seat`` (docs/protocol.md §6): the first miss in a row is played by a
        computer, for that turn only (the seat's next snapshot shows the turn played ``by_bot``);
        the ``MISSES_AWAY``-th miss in a row makes the seat away until its owner acts again."""
        seats = copy.deepcopy(live.row.seats)
        missed = int(seats[seat].get("missed", 0)) + 1
        seats[seat]["missed"] = missed
        seats[seat]["away"] = missed >= MISSES_AWAY
        live.row.seats = seats
        moves = []
        player = live.bot_for(seat)
        while not seats[seat]["away"] and live.phase == "playing" and live.to_act() == seat and len(moves) < 200:
            action, player = await self.thinkers.step(player, live.state, seat)
            live.bots[seat] = player
            moves.append(live.apply(seat, action, True))
        return moves

    @staticmethod
    def _set_away(live: LiveTable, seat: int, away: bool) -> None:
        seats = copy.deepcopy(live.row.seats)
        seats[seat]["away"] = away
        live.row.seats = seats

    # -- lobby ----------------------------------------------------------------------------------
    async def create_table(self, game: str, presets: list[str], options: dict[str, Any],
                           seats: list[dict[str, Any]] | None, timer: str, spectators: bool, hints: bool,
                           join: tuple[int, str] | None = None) -> tuple[LiveTable, dict[int, str]]:
        """Create a table with a secret seed; claim ``join`` = (seat, name) for the creator.

        Seats given with ``"token": True`` are claimed too (a rematch). Returns the table and
        the tokens of the claimed seats.

        Raises:
            HubError: ``bad_rules`` (an unknown game or a bad option), ``bad_seats``;
                :class:`NotSaved` (503) when the database refused the new table.
            RulesError: through ``bad_rules``.
        """
        live, tokens = self._new_table(game, presets, options, seats, timer, spectators, hints, join)
        try:
            await self.store.create(live.row)
        except STORE_ERRORS as err:
            log.warning("a new table was not stored: %s", err)
            raise NotSaved from err
        await self._open(live)
        return live, tokens

    def _new_table(self, game: str, presets: list[str], options: dict[str, Any],
                   seats: list[dict[str, Any]] | None, timer: str, spectators: bool, hints: bool,
                   join: tuple[int, str] | None) -> tuple[LiveTable, dict[int, str]]:
        """The table :meth:`create_table` makes (not stored yet), and the tokens of its
        claimed seats (same errors, but :class:`NotSaved`)."""
        try:
            game_cls = self.games.game_class(game)
            rules = game_cls.rulebook.build(presets, options)
            instance = game_cls(rules)
        except KafenioError as err:
            raise HubError("bad_rules", str(err), 422, getattr(err, "option", None)) from None
        n = instance.num_players()
        levels = accepted_levels()
        if seats is None:
            seats = [{"kind": "human"}] + [{"kind": "computer"} for _i in range(n - 1)]
        if len(seats) != n:
            raise HubError("bad_seats", n_("{game} with these rules has {n} seat, {m} given",
                                           "{game} with these rules has {n} seats, {m} given", n).format(
                game=game_name(game), n=number(n), m=number(len(seats))), 422)
        tokens: dict[int, str] = {}
        stored = []
        for i, seat in enumerate(seats):
            if seat["kind"] == "computer":
                level = seat.get("level") or default_level()
                if level not in levels:
                    raise HubError("bad_seats", _("unknown computer level {l!r}; the levels are: {k}").format(
                        l=level, k=", ".join(levels)), 422)
                stored.append({"kind": "computer", "level": level, "name": seat.get("name"), "token_hash": None,
                               "away": False})
                continue
            entry = {"kind": "human", "level": None, "name": seat.get("name"), "token_hash": None, "away": False}
            if seat.get("token") or (join is not None and join[0] == i):
                tokens[i] = secrets.token_urlsafe(24)
                entry["token_hash"] = token_hash(tokens[i])
                if join is not None and join[0] == i:
                    entry["name"] = join[1]
            stored.append(entry)
        if join is not None and join[0] not in tokens:
            raise HubError("bad_seat", _("seat {s} is not a human seat of this table").format(s=join[0]), 422)
        table_id = secrets.token_urlsafe(6)
        unnamed = [s for s in stored if s["kind"] == "computer" and not s["name"]]
        people = [s["name"] for s in stored if s["name"]]
        for seat, name in zip(unnamed, computer_names(len(unnamed), table_id, people), strict=True):
            seat["name"] = name
        match = Match(instance)  # a secret seed from ``secrets``
        at = now()
        row = TableRow(id=table_id, game=game, presets=list(rules.presets), options=dict(options),
                       rules=rules.to_dict(), seed=match.seed, first_dealer=match.first_dealer, seats=stored,
                       phase="waiting", deal=-1, version=0, timer=timer, spectators=spectators, hints=hints,
                       ready=[], rematch=[], next_table=None, deadline=None, summary={}, created_at=at,
                       updated_at=at)
        live = LiveTable.build(row, [], self.games)
        if all(s["kind"] == "computer" or s["token_hash"] for s in stored):
            live.start_next_deal()
        live.columns()
        return live, tokens

    async def _open(self, live: LiveTable) -> None:
        """Serve a table just stored: cache it and start its computer players."""
        async with self.lock(live.id):
            self.live[live.id] = live
            self._kick(live)

    async def join(self, table_id: str, seat: int, name: str) -> str:
        """Claim a free human seat; returns its token (shown once). The first deal starts when
        the last human seat is claimed.

        Raises:
            HubError: ``unknown_table`` (404), ``bad_seat`` (422), ``not_human``, ``seat_taken``,
                ``finished``, ``conflict`` (409); :class:`NotSaved` (503).
        """
        async with self.lock(table_id):
            live = await self.get(table_id)
            if live is None:
                raise HubError("unknown_table", _("no table {t}").format(t=table_id), 404)
            if not 0 <= seat < len(live.row.seats):
                raise HubError("bad_seat", _("no seat {s} at this table").format(s=seat), 422)
            info = live.row.seats[seat]
            if info["kind"] != "human":
                raise HubError("not_human", _("seat {s} is a computer seat").format(s=seat))
            if info["token_hash"]:
                raise HubError("seat_taken", _("seat {s} is taken").format(s=seat))
            if live.phase == "finished":
                raise HubError("finished", _("the match is over"))
            token = secrets.token_urlsafe(24)
            seats = copy.deepcopy(live.row.seats)
            seats[seat].update(token_hash=token_hash(token), name=name)
            live.row.seats = seats
            if live.phase == "waiting" and all(s["kind"] == "computer" or s["token_hash"] for s in seats):
                live.start_next_deal()
            if not await self._commit(live):
                raise HubError("conflict", _("the table changed; try again"))
            return token

    async def table(self, table_id: str) -> LiveTable:
        """The live table (for the REST answers).

        Raises:
            HubError: ``unknown_table``.
        """
        async with self.lock(table_id):
            live = await self.get(table_id)
        if live is None:
            raise HubError("unknown_table", _("no table {t}").format(t=table_id), 404)
        return live

    # -- sockets --------------------------------------------------------------------------------
    async def serve_socket(self, ws: WebSocket, table_id: str, token: str | None) -> bool:
        """Authenticate (before accepting), then run the socket's receive loop until it closes.
        False when there is no such table (the socket is refused with 4404)."""
        async with self.lock(table_id):
            live = await self.fresh(table_id)
            seat = None
            if live is None:
                await ws.close(4404, "unknown_table")
                return False
            if token is None:
                if not live.row.spectators:
                    await ws.close(4403, "no_spectators")
                    return True
            else:
                seat = live.seat_of_token(token_hash(token))
                if seat is None:
                    await ws.close(4401, "bad_token")
                    return True
                if seat in self._here(table_id) or not await self.broker.claim(table_id, seat):
                    await ws.close(4409, "seat_in_use")
                    return True
            try:
                await ws.accept()
            except Exception:
                if seat is not None:
                    await self.broker.release(table_id, seat)
                raise
            conn = Connection(ws, table_id, seat, self.limit, context_language())
            self.conns.setdefault(table_id, set()).add(conn)
            if (note := language_note()) is not None:
                conn.send(p.ErrorMsg(code="unknown_language", reason=note))
        task = asyncio.current_task()
        self.socket_tasks.add(task)
        try:
            if seat is not None:
                await self._presence_changed(table_id)
            elif table_id not in self.present:  # a first socket here: the seats connected elsewhere
                self.present[table_id] = (await self.broker.present([table_id]))[table_id]
            async with self.lock(table_id):
                live = await self.get(table_id)
                if seat is not None and live.row.seats[seat]["away"]:
                    self._set_away(live, seat, False)
                    try:
                        back = await self._commit(live)
                    except NotSaved:  # still away: the seat's next message brings it back
                        back = False
                    if not back and (stored := await self.get(table_id)) is not None:
                        self._fan_out(stored)
                else:  # the others hear of a seat's arrival by a presence frame, not a snapshot
                    conn.send(self._snapshot(live, conn))
                history = await self.store.chat(table_id, CHAT_HISTORY)
                conn.send(p.ChatHistoryMsg(messages=[_chat_msg(r) for r in history]))
                self._announce_presence(table_id)
            await self._chat_joined(table_id, history)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                with language(conn.lang):  # a hello may have changed it
                    if not conn.bucket.take():
                        conn.send(p.ErrorMsg(code="rate_limited", limit=conn.limit, reason=_(
                            "more than {rate} messages a second (or {burst} at once) from this socket: "
                            "the message was dropped").format(rate=number(conn.limit.per_second),
                                                              burst=number(conn.limit.burst))))
                        continue
                    raw = message.get("text")
                    if raw is None:
                        raw = message.get("bytes") or b""
                    if not await self.handle(conn, raw):
                        break
        finally:
            try:
                await self._drop(conn)
            finally:  # stop() waits for the seat's release too, before the broker closes
                self.socket_tasks.discard(task)
        return True

    async def _drop(self, conn: Connection) -> None:
        conns = self.conns.get(conn.table_id, set())
        conns.discard(conn)
        conn.stop()
        if not conns:
            self.conns.pop(conn.table_id, None)
            self.chat_sent.pop(conn.table_id, None)
        if conn.seat is not None:  # shielded: a socket task cancelled while closing still releases
            await asyncio.shield(self._release(conn.table_id, conn.seat))
        else:  # a spectator changes no seat's presence (this forgets the table's when it was the last)
            self._announce_presence(conn.table_id)

    async def _release(self, table_id: str, seat: int) -> None:
        """Release the seat's claim in the broker's presence (unless it reconnected here
        meanwhile: claims are made under the table's lock), tell the other processes, and the
        sockets here (a ``presence`` frame, not a snapshot)."""
        try:
            async with self.lock(table_id):
                if seat not in self._here(table_id):
                    await self.broker.release(table_id, seat)
            await self._presence_changed(table_id)
        except Exception:  # the broker is away: the claim runs out by itself
            log.exception("could not release seat %s of table %s", seat, table_id)
        self._announce_presence(table_id)

    async def handle(self, conn: Connection, raw: str | bytes) -> bool:
        """Handle one frame; returns False when the socket must be closed."""
        try:
            msg = p.parse_client_message(raw)
        except p.ProtocolError as err:
            conn.send(p.ErrorMsg(code=err.code, reason=err.reason, ref=err.ref))
            return True
        kind, ref = msg.type, msg.ref
        if kind == "ping":
            conn.send(p.PongMsg(ref=ref))
            return True
        if kind == "mute":
            (conn.muted.add if msg.muted else conn.muted.discard)(msg.seat)
            return True
        if kind == "hello" and msg.protocol != p.PROTOCOL_VERSION:
            conn.send(p.ErrorMsg(code="unsupported_protocol", reason=_(
                "this server speaks protocol {v}").format(v=p.PROTOCOL_VERSION), ref=ref))
            await conn.ws.close(4400, "unsupported_protocol")
            return False
        if kind == "hello" and msg.lang is not None:
            conn.lang, note = negotiate(msg.lang, None)
            if note is not None:
                conn.send(p.ErrorMsg(code="unknown_language", reason=note, ref=ref))
        if kind not in ("hello", "sync") and conn.seat is None:
            conn.send(p.ErrorMsg(code="spectator", reason=_("spectators can only watch"), ref=ref))
            return True
        if kind == "chat":
            if not self.quotas.take("chat", conn.client):
                conn.send(p.ErrorMsg(code="chat_limited", ref=ref, reason=_(
                    "too many chat lines from your address ({limit}): the line was not sent").format(
                        limit=self.quotas.describe("chat"))))
                return True
            await self._chat(conn, msg.text)
            return True
        async with self.lock(conn.table_id):
            live = await self.get(conn.table_id)
            if live is not None and (kind in ("hello", "sync") or getattr(msg, "version", -1) > live.version):
                live = await self.fresh(conn.table_id)  # changed by another process, its hint lost
            if live is None:  # deleted meanwhile
                return False
            if kind in ("hello", "sync"):
                conn.send(self._snapshot(live, conn))
                return True
            try:
                if kind != "away" and live.row.seats[conn.seat]["away"]:
                    self._set_away(live, conn.seat, False)
                    if not await self._commit(live):
                        return self._conflict(conn, ref)
                error = await getattr(self, "_on_" + kind)(live, conn, msg)
            except NotSaved as err:
                error = err.code, err.reason
            if error is not None:
                code, reason, *rule = error
                conn.send(p.ErrorMsg(code=code, reason=reason, rule=rule[0] if rule else None, ref=ref))
                if code in ("stale", "conflict", "not_saved"):
                    with contextlib.suppress(*STORE_ERRORS):  # the database away: the next sync tells
                        fresh = await self.fresh(conn.table_id)
                        if fresh is not None:
                            conn.send(self._snapshot(fresh, conn))
        return True

    def _conflict(self, conn: Connection, ref: Any) -> bool:
        conn.send(p.ErrorMsg(code="conflict", reason=_("the table changed at the same moment"), ref=ref))
        return True

    # -- message handlers: each returns None or (code, reason[, rule]) -------------------------------
    async def _on_move(self, live: LiveTable, conn: Connection, msg: p.Move) -> tuple | None:
        if msg.version != live.version:
            return "stale", _("version {v} is not the table's version {c}").format(v=msg.version, c=live.version)
        if live.phase != "playing":
            return "not_playing", _("no deal is being played")
        if live.to_act() != conn.seat:
            return "not_your_turn", _("it is seat {s}'s turn").format(s=live.to_act())
        try:
            action = live.parse_action(msg.action)
        except KafenioError as err:
            return "bad_action", str(err)
        try:
            move = live.apply(conn.seat, action, False)
        except IllegalAction as err:
            return "illegal", str(err), err.rule
        if live.row.seats[conn.seat].get("missed"):  # the owner plays again: missed turns start over
            seats = copy.deepcopy(live.row.seats)
            seats[conn.seat]["missed"] = 0
            live.row.seats = seats
        if not await self._commit(live, [move]):
            return "conflict", _("the table changed at the same moment")
        return None

    async def _on_undo_request(self, live: LiveTable, conn: Connection, msg: p.UndoRequest) -> tuple | None:
        if msg.version != live.version:
            return "stale", _("version {v} is not the table's version {c}").format(v=msg.version, c=live.version)
        seq, reason = live.undo_point(conn.seat)
        if seq is None:
            return "undo_refused", reason
        rebuilt = LiveTable.build(live.row, live.moves[:seq], self.games)
        self.live[live.id] = rebuilt
        if not await self._commit(rebuilt, delete_from=seq):
            return "conflict", _("the table changed at the same moment")
        return None

    async def _on_hint_request(self, live: LiveTable, conn: Connection, msg: p.HintRequest) -> tuple | None:
        if not live.row.hints:
            return "hints_off", _("hints are off at this table")
        if msg.version != live.version:
            return "stale", _("version {v} is not the table's version {c}").format(v=msg.version, c=live.version)
        if live.to_act() != conn.seat:
            return "not_your_turn", _("a hint is only given on your turn")
        try:
            action, _player = await self.thinkers.step(live.hint_player(), live.state, conn.seat)
        except BrokenProcessPool:
            return "no_hint", _("no hint could be found just now; try again")
        text = Seat(live.state, conn.seat).action_to_string(action)
        conn.send(p.HintMsg(version=live.version, action=p.LegalAction(id=action, text=text)))
        return None

    async def _on_next_deal(self, live: LiveTable, conn: Connection, msg: p.NextDeal) -> tuple | None:
        if live.phase == "finished":
            return "finished", _("the match is over")
        if live.phase != "deal_over":
            return "not_playing", _("the deal is not over")
        if conn.seat not in live.row.ready:
            live.row.ready = [*live.row.ready, conn.seat]
            if not await self._commit(live, keep_clock=True):
                return "conflict", _("the table changed at the same moment")
        return None

    async def _on_away(self, live: LiveTable, conn: Connection, msg: p.Away) -> tuple | None:
        if not live.row.seats[conn.seat]["away"]:
            self._set_away(live, conn.seat, True)
            if not await self._commit(live):
                return "conflict", _("the table changed at the same moment")
        return None

    async def _on_back(self, live: LiveTable, conn: Connection, msg: p.Back) -> tuple | None:
        return None  # handled before dispatch: any message brings an away seat back

    async def _on_rematch(self, live: LiveTable, conn: Connection, msg: p.Rematch) -> tuple | None:
        if live.phase != "finished":
            return "not_finished", _("the match is not over")
        if live.row.next_table is not None:
            await self._resend(live, conn)
            return None
        if conn.seat not in live.row.rematch:
            live.row.rematch = [*live.row.rematch, conn.seat]
        if set(live.human_seats()) <= set(live.row.rematch):
            row = live.row
            seats = [{"kind": s["kind"], "level": s["level"], "name": s["name"], "token": True} for s in row.seats]
            new, tokens = self._new_table(row.game, list(row.presets), dict(row.options), seats, row.timer,
                                          row.spectators, row.hints, None)
            live.row.next_table = new.id
            live.rematch_tokens = tokens
            if not await self._commit(live, keep_clock=True, create=new.row):  # stored with the link, or not at all
                return "conflict", _("the table changed at the same moment")
            await self._open(new)
            for other in self.conns.get(live.id, ()):
                other.send(p.RematchMsg(table_id=new.id, token=tokens.get(other.seat)))
        elif not await self._commit(live, keep_clock=True):
            return "conflict", _("the table changed at the same moment")
        return None

    async def _resend(self, live: LiveTable, conn: Connection) -> None:
        """The rematch table exists: ``conn``'s seat gets its token there again, the one sent
        when the table was made (``rematch`` is idempotent). A process that did not make the
        table (or made it before a restart) never knew that token: it issues one, once, and
        later votes get that one."""
        token = live.rematch_tokens.get(conn.seat)
        table_id = live.row.next_table
        if token is None:
            async with self.lock(table_id):
                new = await self.get(table_id)
                if new is None:
                    return
                token = secrets.token_urlsafe(24)
                seats = copy.deepcopy(new.row.seats)
                seats[conn.seat]["token_hash"] = token_hash(token)
                new.row.seats = seats
                if not await self._commit(new, keep_clock=True):
                    return
            live.rematch_tokens[conn.seat] = token
        conn.send(p.RematchMsg(table_id=table_id, token=token))

    # -- chat -----------------------------------------------------------------------------------
    async def _chat(self, conn: Connection, text: str) -> None:
        async with self.lock(conn.table_id):
            live = await self.get(conn.table_id)
            name = live.table_info(set()).seats[conn.seat].name
        try:
            row = await self.store.add_chat(conn.table_id, conn.seat, name, text)
        except STORE_ERRORS as err:
            log.warning("table %s: a chat line was not stored: %s", conn.table_id, err)
            error = NotSaved()
            conn.send(p.ErrorMsg(code=error.code, reason=error.reason))
            return
        self._send_chat(conn.table_id, row)
        await self.broker.publish(Hint(conn.table_id, 0, "chat", row.id))

    def _send_chat(self, table_id: str, row: Any) -> None:
        """Send the chat line ``row`` to the table's sockets here, unless it was sent already."""
        sent = self.chat_sent.get(table_id)
        if sent is None or row.id in sent:
            return
        sent.append(row.id)
        text = p.dump(_chat_msg(row))
        for conn in self.conns.get(table_id, ()):
            if row.seat not in conn.muted:
                conn.push(text)

    async def _chat_joined(self, table_id: str, history: list[Any]) -> None:
        """A socket of the table got the chat ``history``: count its lines as sent, and send the
        lines stored since (their hints may have come before the table had sockets here)."""
        sent = self.chat_sent.setdefault(table_id, deque(maxlen=CHAT_HISTORY))
        known = set(sent)
        sent.extend(r.id for r in history if r.id not in known)
        await self._catch_up_chat({table_id: max(sent, default=0)})

    async def _catch_up_chat(self, after: dict[str, int]) -> None:
        """Send the chat lines stored after the given id of each table (``after``) that its
        sockets here have not had yet: the lines of other processes, whose hints may be lost."""
        for row in await self.store.chat_after(after):
            self._send_chat(row.table_id, row)


def _chat_msg(row: Any) -> p.ChatMsg:
    return p.ChatMsg(id=row.id, seat=row.seat, name=row.name, text=row.text, at=row.at.isoformat())
