"""Store and migrations on SQLite and on the real PostgreSQL; the Redis broker on the real Redis;
a table resuming after ``kill -9`` of the server process."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from kafenio.server.broker import Hint, MemoryBroker, RedisBroker
from kafenio.server.models import MoveRow, TableRow
from kafenio.server.store import CAS_ROWS, Store, upgrade, upgrade_async
from test_server_api import make_app, migrated_sqlite
from test_server_ws import drain, my_turn, snapshot_when

ROOT = Path(__file__).resolve().parents[1]
PG_ADMIN = dict(host="127.0.0.1", port=5432, user="postgres", database="test")
REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def pg_url():
    """A fresh, uniquely named PostgreSQL database, dropped afterwards."""
    import asyncpg

    name = "kafenio_test_" + secrets.token_hex(4)

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(**PG_ADMIN)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE "{name}" WITH (FORCE)'))


def _row(table_id: str) -> TableRow:
    at = datetime.now(UTC)
    return TableRow(id=table_id, game="toy", presets=["standard"], options={}, rules={"num_players": 2},
                    seed=2**62 + 5, first_dealer=1, seats=[{"kind": "human", "token_hash": None, "away": False}],
                    phase="playing", deal=0, version=0, timer="blitz", spectators=True, hints=True, ready=[],
                    rematch=[], next_table=None, deadline=None, summary={"totals": [0, 0]}, created_at=at,
                    updated_at=at)


async def _store_roundtrip(url: str) -> None:
    await upgrade_async(url)
    await upgrade_async(url)  # idempotent
    store = Store(url)
    try:
        await store.create(_row("t1"))
        loaded = await store.load("t1")
        assert loaded.row.seed == 2**62 + 5 and loaded.row.seats[0]["kind"] == "human" and loaded.moves == []
        moves = [MoveRow(table_id="t1", seq=i, deal=0, seat=i % 2, action=10 + i, by_bot=i == 2) for i in range(3)]
        assert await store.commit("t1", 0, {"phase": "deal_over", "deadline": 100.0}, moves)
        assert not await store.commit("t1", 0, {"phase": "finished"})  # stale version: refused
        assert await store.commit("t1", 1, {}, [], delete_from=1)  # an undo
        loaded = await store.load("t1")
        assert loaded.row.version == 2 and loaded.row.phase == "deal_over"
        assert [(m.seq, m.action) for m in loaded.moves] == [(0, 10)]
        assert await store.due_ids(99.0) == [] and await store.due_ids(100.0) == ["t1"]
        assert await store.active_ids() == ["t1"]
        assert [r.id for r in await store.list_tables("deal_over")] == ["t1"] and await store.list_tables("x") == []
        first = await store.add_chat("t1", 0, "Eleni", "γεια")
        await store.add_chat("t1", 1, "Nikos", "yia")
        assert [c.text for c in await store.chat("t1")] == ["γεια", "yia"]
        assert await store.load("nope") is None
        # changes of three tables arriving together share one transaction and one compare-and-set
        # statement; the stale one is refused alone
        for table_id in ("t2", "t3"):
            await store.create(_row(table_id))
        move = MoveRow(table_id="t2", seq=0, deal=0, seat=0, action=7, by_bot=False)
        finished = {"phase": "finished", "deadline": None, "next_table": None}  # NULLs of typed columns
        assert await asyncio.gather(store.commit("t2", 0, finished, [move]), store.commit("t1", 0, finished),
                                    store.commit("t3", 0, finished)) == [True, False, True]
        assert [(await store.load(t)).row.version for t in ("t1", "t2", "t3")] == [2, 1, 1]
        assert [(m.seq, m.action) for m in (await store.load("t2")).moves] == [(0, 7)]
        assert (await store.load("t1")).row.phase == "deal_over"
        await store.add_chat("t2", 0, "Eleni", "καλησπέρα")
        assert [c.text for c in await store.chat_after({"t1": first.id, "t2": 0, "t3": 0})] == ["yia", "καλησπέρα"]
        # a rematch: the new table is stored with the change that links it, or not at all
        assert not await store.commit("t1", 0, {"next_table": "r1"}, create=_row("r1"))
        assert await store.load("r1") is None
        assert await store.commit("t1", 2, {"next_table": "r1"}, create=_row("r1"))
        assert (await store.load("t1")).row.next_table == "r1" and (await store.load("r1")).row.seed == 2**62 + 5
        many = [f"m{i}" for i in range(CAS_ROWS + 3)]  # a group written in two statements
        for table_id in many:
            await store.create(_row(table_id))
        assert all(await asyncio.gather(*(store.commit(t, 0, finished) for t in many)))
        assert {(await store.load(t)).row.version for t in many} == {1}
    finally:
        await store.close()


def test_store_on_sqlite(tmp_path):
    asyncio.run(_store_roundtrip(f"sqlite:///{tmp_path / 's.sqlite3'}"))


def test_store_on_postgresql(pg_url):
    asyncio.run(_store_roundtrip(pg_url))


def test_migration_downgrade_and_upgrade(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    upgrade(url)
    from alembic import command

    from kafenio.server.store import _alembic_config

    command.downgrade(_alembic_config(url), "base")
    upgrade(url)
    asyncio.run(_store_roundtrip(url))


def test_migration_0002_names_the_stored_computer_seats(tmp_path):
    """A table stored before computers had names gets the names a new table would have."""
    from alembic import command

    from kafenio.agents.names import computer_names
    from kafenio.server.store import _alembic_config

    url = f"sqlite:///{tmp_path / 'n.sqlite3'}"
    upgrade(url, "0001")
    row = _row("old-one")
    row.seats = [{"kind": "human", "level": None, "name": "Eleni", "token_hash": None, "away": False},
                 {"kind": "computer", "level": "medium", "name": None, "token_hash": None, "away": False}]

    async def stored(create: bool = False) -> list[dict]:
        store = Store(url)
        try:
            if create:
                await store.create(row)
            return (await store.load("old-one")).row.seats
        finally:
            await store.close()

    assert asyncio.run(stored(create=True))[1]["name"] is None
    upgrade(url)
    seats = asyncio.run(stored())
    assert seats[1]["name"] == computer_names(1, "old-one", ["Eleni"])[0] and seats[0]["name"] == "Eleni"
    command.downgrade(_alembic_config(url), "0001")
    assert asyncio.run(stored())[1]["name"] is None


@pytest.mark.asyncio
async def test_redis_broker_carries_hints():
    one, two = RedisBroker(REDIS_URL, channel="kafenio:test:" + secrets.token_hex(4)), None
    two = RedisBroker(REDIS_URL, channel=one.channel)
    got_one, got_two = [], []

    async def on_one(hint):
        got_one.append(hint)

    async def on_two(hint):
        got_two.append(hint)

    one.subscribe(on_one)
    two.subscribe(on_two)
    await one.start()
    await two.start()
    try:
        await one.publish(Hint("t1", 7))
        await two.publish(Hint("t2", 0, "chat", 31))
        for _ in range(100):
            if got_one and got_two:
                break
            await asyncio.sleep(0.02)
        assert [(h.table, h.version, h.kind) for h in got_two] == [("t1", 7, "state")]
        assert [(h.table, h.kind, h.chat_id) for h in got_one] == [("t2", "chat", 31)]
    finally:
        await one.close()
        await two.close()


@pytest.mark.asyncio
async def test_redis_presence_one_claim_per_seat_and_claims_run_out():
    channel = "kafenio:test:" + secrets.token_hex(4)
    # claims of 2 s, renewed every 2/3 s: a starved renewer (a loaded machine) still renews in time
    one = RedisBroker(REDIS_URL, channel, presence_ttl=2.0)
    two = RedisBroker(REDIS_URL, channel, presence_ttl=2.0)
    await one.start()
    await two.start()
    try:
        assert await one.claim("t", 0) and await one.claim("t", 0)  # again: still its own
        assert not await two.claim("t", 0) and await two.claim("t", 1)
        assert await two.present(["t", "u"]) == {"t": {0, 1}, "u": set()}
        await asyncio.sleep(3.0)  # renewed: still held
        assert not await two.claim("t", 0)
        await two.release("t", 0)  # not its claim: nothing happens
        assert await one.present(["t"]) == {"t": {0, 1}}
        one._stop.set()  # the process dies without releasing: its claims are no longer renewed, and run out
        await asyncio.sleep(2.5)
        assert await two.present(["t"]) == {"t": {1}} and await two.claim("t", 0)
        await two.release("t", 1)
        assert await one.present(["t"]) == {"t": {0}}
    finally:
        await one.close()
        await two.close()


def test_presence_is_shared_by_processes_over_redis(tmp_path):
    """A seat connected to one process is ``connected`` in the other's snapshots and lobby, and
    cannot open a second socket there (4409) until it leaves."""
    url = migrated_sqlite(tmp_path, "shared.sqlite3")
    channel = "kafenio:test:" + secrets.token_hex(4)
    first = make_app(url, broker=RedisBroker(REDIS_URL, channel))
    second = make_app(url, broker=RedisBroker(REDIS_URL, channel))
    with TestClient(first) as c1, TestClient(second) as c2:
        made = c1.post("/api/tables", json={"game": "toy", "seats": [{"kind": "human"}] * 2,
                                            "join": {"seat": 0, "name": "A"}}).json()
        tid, token = made["table"]["id"], made["token"]

        def seat_0(snap: dict) -> bool:
            return snap["table"]["seats"][0]["connected"]

        with c2.websocket_connect(f"/ws/tables/{tid}") as watcher:
            watcher.last_snapshot = watcher.receive_json()  # later presence frames apply to it
            assert not seat_0(watcher.last_snapshot)
            with c1.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
                assert seat_0(ws.receive_json())
                snapshot_when(watcher, seat_0)
                assert c2.get(f"/api/tables/{tid}").json()["seats"][0]["connected"]
                listed = c2.get("/api/tables").json()["tables"]
                assert [t["seats"][0]["connected"] for t in listed if t["id"] == tid] == [True]
                with pytest.raises(WebSocketDisconnect) as err, \
                        c2.websocket_connect(f"/ws/tables/{tid}?token={token}"):
                    pass
                assert err.value.code == 4409
            snapshot_when(watcher, lambda s: not seat_0(s))
            assert not c1.get(f"/api/tables/{tid}").json()["seats"][0]["connected"]
            with c2.websocket_connect(f"/ws/tables/{tid}?token={token}") as moved:  # free again
                assert seat_0(moved.receive_json())


@pytest.mark.asyncio
async def test_memory_broker_peers():
    bus = MemoryBroker()
    peer = bus.peer()
    got = []

    async def handler(hint):
        got.append(hint)

    peer.subscribe(handler)
    bus.subscribe(handler)
    await bus.publish(Hint("t", 3))
    assert [(h.table, h.origin) for h in got] == [("t", bus.origin)]
    # presence is shared by the bus: one claim per seat
    assert await bus.claim("t", 0) and not await peer.claim("t", 0) and await peer.claim("t", 1)
    await peer.release("t", 0)  # not its claim: nothing happens
    assert await peer.present(["t", "u"]) == {"t": {0, 1}, "u": set()}
    await bus.release("t", 0)
    await peer.release("t", 1)
    assert await bus.present(["t"]) == {"t": set()}


def test_two_servers_share_postgresql_over_redis(pg_url):
    """A seat on one server process, a spectator on another: the spectator sees every move."""
    upgrade(pg_url)
    channel = "kafenio:test:" + secrets.token_hex(4)
    first = make_app(pg_url, broker=RedisBroker(REDIS_URL, channel))
    second = make_app(pg_url, broker=RedisBroker(REDIS_URL, channel))
    with TestClient(first) as c1, TestClient(second) as c2:
        tid = c1.post("/api/tables", json={"game": "toy", "seats": [{"kind": "human"}, {"kind": "computer",
                                                                                      "level": "random"}],
                                           "join": {"seat": 0, "name": "A"}}).json()
        token, tid = tid["token"], tid["table"]["id"]
        with c1.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws, \
                c2.websocket_connect(f"/ws/tables/{tid}") as watcher:
            snap = snapshot_when(ws, my_turn)
            ws.send_json({"type": "move", "version": snap["version"], "action": "draw"})
            seen = snapshot_when(watcher, lambda s: s["version"] == snap["version"] + 1)
            assert seen["deal"]["last"]["text"] == "draw" and seen["deal"]["view"]["hand"] is None
            ws.send_json({"type": "chat", "text": "over redis"})
            drain(ws)
            for _ in range(100):
                if any(m["type"] == "chat" and m["text"] == "over redis" for m in drain(watcher)):
                    break
                time.sleep(0.02)
            else:
                raise AssertionError("the chat line did not cross processes")
        # the move is in the shared database: the second process serves the seat too
        with c2.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws2:
            assert ws2.receive_json()["deal"]["last"]["text"] == "draw"


# -- kill -9 and restart -----------------------------------------------------------------------------------

SERVER = """
import sys
sys.path[:0] = {paths!r}
import uvicorn
from test_server_api import make_app
uvicorn.run(make_app({url!r}, bot_delay=0.02), host="127.0.0.1", port={port}, log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(url: str, port: int) -> subprocess.Popen:
    code = SERVER.format(paths=[str(ROOT / "src"), str(ROOT / "tests")], url=url, port=port)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    return wait_until_serving(proc, port, seconds=20)


def wait_until_serving(proc: subprocess.Popen, port: int, seconds: float) -> subprocess.Popen:
    """``proc`` once the server it runs answers the lobby at ``port``; killed (and an
    AssertionError) when it does not within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    proc.wait()
    raise AssertionError("the server did not start")


def _ws_snapshot(port: int, path: str, cond=lambda s: True) -> dict:
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}{path}") as ws:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] == "snapshot" and cond(msg):
                return msg
    raise AssertionError("no matching snapshot")


def _play(port: int, path: str, moves: int) -> dict:
    """Make ``moves`` moves as the seat of ``path``; the last snapshot seen."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}{path}") as ws:
        made, last = 0, None
        while made < moves:
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] != "snapshot":
                continue
            last = msg
            if my_turn(msg) and msg["version"] > getattr(_play, "acted", -1):
                _play.acted = msg["version"]
                action = msg["deal"]["legal"][-1]["id"]
                ws.send(json.dumps({"type": "move", "version": msg["version"], "action": action}))
                made += 1
        while True:  # the snapshot of the last move
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] == "snapshot" and msg["version"] > last["version"]:
                return msg


def _state(snap: dict) -> dict:
    return {k: snap[k] for k in ("version", "phase", "deal", "match", "can_undo")}


def test_kill_9_and_restart_resumes_every_table(tmp_path):
    url = migrated_sqlite(tmp_path, "killed.sqlite3")
    port = _free_port()
    proc = _start_server(url, port)
    try:
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{base}/api/tables", json={
            "game": "toy", "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}],
            "join": {"seat": 0, "name": "A"}, "options": {"target": 80}}).json()
        tid, token = made["table"]["id"], made["token"]
        bots = httpx.post(f"{base}/api/tables", json={
            "game": "toy", "seats": [{"kind": "computer", "level": "random"}] * 2,
            "options": {"target": 120}}).json()["table"]["id"]
        _play.acted = -1
        _play(port, f"/ws/tables/{tid}?token={token}", 5)
        before = _ws_snapshot(port, f"/ws/tables/{tid}?token={token}", my_turn)  # the computer has moved
        time.sleep(0.3)  # the computers' table is under way
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    bots_at_kill = asyncio.run(_load_version(url, bots))
    assert bots_at_kill > 0
    proc = _start_server(url, port)
    try:
        after = _ws_snapshot(port, f"/ws/tables/{tid}?token={token}")
        assert _state(after) == _state(before)
        _play.acted = -1
        moved = _play(port, f"/ws/tables/{tid}?token={token}", 1)  # and play goes on
        assert moved["version"] > after["version"]
        done = _ws_snapshot(port, f"/ws/tables/{bots}", lambda s: s["phase"] == "finished")
        assert done["version"] > bots_at_kill and done["match"]["winner"] is not None
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


async def _load_version(url: str, table_id: str) -> int:
    store = Store(url)
    try:
        return (await store.load(table_id)).row.version
    finally:
        await store.close()
