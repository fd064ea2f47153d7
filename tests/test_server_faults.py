"""Faults of real services (issue 19): ``kill -9`` of a real ``kafenio serve`` in every deal of a
match with 0 acknowledged moves lost; a Redis of the test's own stopped and started under two
server processes, which keep serving their sockets, their lobbies, their computer players and
their chat, and hear each other again by themselves."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from kafenio.server.broker import RedisBroker
from kafenio.server.live import GameRegistry, LiveTable
from kafenio.server.store import Store, upgrade
from test_server_api import make_app
from test_server_store import _free_port, pg_url, wait_until_serving  # noqa: F401 (a fixture)
from test_server_ws import BOT, HUMAN, drain, my_turn, new_table, snapshot_when

ROOT = Path(__file__).resolve().parents[1]


# -- kill -9 in every deal ---------------------------------------------------------------------------

def _serve(url: str, port: int) -> subprocess.Popen:
    """``kafenio serve`` on ``url`` at ``port``, once it answers."""
    proc = subprocess.Popen([sys.executable, "-m", "kafenio", "serve", "--no-browser", "--port", str(port),
                             "--database-url", url, "--bot-delay", "0"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return wait_until_serving(proc, port, seconds=60)


def _kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait()


PACE = 0.06
"""Seconds the player waits before each message: under the server's 20 messages a second per
socket (docs/protocol.md), since a message dropped as ``rate_limited`` is never answered."""


def _play_until(port: int, path: str, rng: random.Random, acked: list[dict], stop) -> dict:
    """Play random legal actions (and ``next_deal``) as the seat of ``path``; every snapshot
    that shows one of its own moves is an acknowledgement, kept in ``acked``. Once
    ``stop(snapshot)`` holds, send one more move if it is the seat's turn, without waiting for
    its answer (the caller kills the server with it in flight); returns that snapshot (or the
    one that finished the match)."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}{path}") as ws:
        acted = -1
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            snap = json.loads(ws.recv(timeout=30))
            if snap["type"] != "snapshot":
                continue
            last = (snap["deal"] or {}).get("last")
            if last and last["seat"] == snap["seat"] and not last["by_bot"] and \
                    (not acked or acked[-1]["version"] < snap["version"]):
                acked.append({"version": snap["version"], "deal": snap["deal"]["index"],
                              "step": snap["deal"]["step"], "text": last["text"]})
            if snap["phase"] == "finished":
                return snap
            if snap["version"] <= acted:
                continue
            done = stop(snap)
            time.sleep(PACE)  # within the socket's rate limit: a dropped move would never be answered
            if snap["phase"] == "deal_over" and snap["seat"] not in snap["ready"] and not done:
                ws.send(json.dumps({"type": "next_deal"}))
                acted = snap["version"]
            elif my_turn(snap):
                action = rng.choice(snap["deal"]["legal"])["id"]
                ws.send(json.dumps({"type": "move", "version": snap["version"], "action": action}))
                acted = snap["version"]
            if done:
                return snap
    raise AssertionError("the table stopped moving")


async def _stored(url: str, table_id: str) -> LiveTable:
    store = Store(url)
    try:
        loaded = await store.load(table_id)
        return LiveTable.build(loaded.row, loaded.moves, GameRegistry())
    finally:
        await store.close()


@pytest.mark.timeout(600)  # a server start takes 10-25 s on a loaded machine, and there are 3-7 of them
def test_kill_9_in_every_deal_loses_no_acknowledged_move(tmp_path):
    """Basra to 52 points (a majority worth 3: two deals at least) against a computer:
    ``kafenio serve`` is killed with SIGKILL once in every deal, at a random step of it (or
    between deals), with a move in flight; every move the server
    acknowledged (a snapshot showing it) is stored, in its deal, at its step."""
    url = f"sqlite:///{tmp_path / 'killed.sqlite3'}"
    upgrade(url)
    port, rng = _free_port(), random.Random(19)
    proc = _serve(url, port)
    try:
        made = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={
            "game": "basra", "options": {"target_score": 52, "majority_points": 3},
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}],
            "join": {"seat": 0, "name": "Eleni"}}).json()
        table_id, path = made["table"]["id"], f"/ws/tables/{made['table']['id']}?token={made['token']}"
        acked: list[dict] = []
        kill_at: dict[int, int] = {}  # deal → the step of it (of 48) at which the server is killed
        killed: list[int] = []

        def stop(snap: dict) -> bool:
            deal = snap["deal"]["index"]
            if deal in killed:
                return False
            return snap["deal"]["step"] >= kill_at.setdefault(deal, rng.randint(1, 44)) or snap["phase"] == "deal_over"

        for _round in range(20):
            snap = _play_until(port, path, rng, acked, stop)
            if snap["phase"] == "finished":
                break
            _kill(proc)
            killed.append(snap["deal"]["index"])
            live = asyncio.run(_stored(url, table_id))
            for ack in acked:
                moves = [m for m in live.moves if m.deal == ack["deal"]]
                assert len(moves) >= ack["step"] and ack["text"] in moves[ack["step"] - 1].texts.values(), ack
            proc = _serve(url, port)
        else:
            raise AssertionError("the match did not end")
    finally:
        _kill(proc)
    deals = asyncio.run(_stored(url, table_id)).row.deal + 1
    assert deals >= 2 and killed == list(range(deals)), (deals, killed)
    assert len(acked) > 20


# -- Redis stopped and started -----------------------------------------------------------------------

@contextlib.contextmanager
def redis_server(port: int) -> Iterator[subprocess.Popen]:
    """A ``redis-server`` of the test's own on ``port`` (no persistence), stopped at the end."""
    import redis

    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = redis.Redis(port=port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _healthy(client: TestClient) -> bool:
    return client.app.state.hub.broker.healthy


def _wait(cond, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.05)


@contextlib.contextmanager
def two_processes_on_own_redis(url: str) -> Iterator[tuple[TestClient, TestClient, subprocess.Popen, int]]:
    """Two apps (two processes' worth) on the database ``url`` sharing a Redis server of their
    own on a free port: yields their clients, that server's process and its port, once both
    have subscribed (a process that has not yet subscribed sends no hints: the other, already
    subscribed, would not re-read what it writes)."""
    upgrade(url)
    port = _free_port()
    redis_url, channel = f"redis://127.0.0.1:{port}/0", "kafenio:test:" + secrets.token_hex(4)
    with redis_server(port) as redis_proc:
        first = make_app(url, broker=RedisBroker(redis_url, channel, timeout=0.5))
        second = make_app(url, broker=RedisBroker(redis_url, channel, timeout=0.5))
        with TestClient(first) as c1, TestClient(second) as c2:
            _wait(lambda: _healthy(c1) and _healthy(c2))
            yield c1, c2, redis_proc, port


def test_redis_stopped_and_started_under_two_processes(pg_url):  # noqa: F811 (the fixture)
    """While Redis is away: the seat's moves are answered on its socket, the computer answers
    them, the spectator in the other process sees them (its process re-reads the table), both
    lobbies answer. When Redis is back both processes hear each other again by themselves."""
    with two_processes_on_own_redis(pg_url) as (c1, c2, redis_proc, port):
        made = c1.post("/api/tables", json={"game": "toy", "seats": [HUMAN, BOT], "options": {"target": 500},
                                            "join": {"seat": 0, "name": "A"}}).json()
        tid, token = made["table"]["id"], made["token"]
        with c1.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws, \
                c2.websocket_connect(f"/ws/tables/{tid}") as watcher:
            snapshot_when(watcher, lambda s: s["table"]["seats"][0]["connected"])
            snap = _move(ws)
            snapshot_when(watcher, lambda s: s["version"] >= snap["version"])
            redis_proc.terminate()
            redis_proc.wait(10)
            _wait(lambda: not _healthy(c1) and not _healthy(c2))
            for _ in range(4):  # answered, and the computer answers in turn
                snap = _move(ws)
                seen = snapshot_when(watcher, lambda s, v=snap["version"]: s["version"] >= v)
                assert seen["deal"]["view"]["hand"] is None
            for client in (c1, c2):
                lobby = client.get("/api/tables")
                assert lobby.status_code == 200 and tid in [t["id"] for t in lobby.json()["tables"]]
                assert client.get(f"/api/tables/{tid}").status_code == 200
            with redis_server(port):
                _wait(lambda: _healthy(c1) and _healthy(c2))
                snapshot_when(watcher, lambda s: s["table"]["seats"][0]["connected"])  # claimed again
                time.sleep(0.5)  # each process re-read its tables once; from now on only hints carry moves
                c2.app.state.hub._resync = _no_resync
                for _ in range(2):
                    snap = _move(ws)
                    snapshot_when(watcher, lambda s, v=snap["version"]: s["version"] >= v)


def test_chat_reaches_every_process_while_redis_is_away(pg_url):  # noqa: F811 (the fixture)
    """Two seats in two processes: while Redis is away each process re-reads the chat lines of
    its tables as it re-reads their versions, so a line reaches the other process's socket
    all the same; before, during and after, every socket gets every line once, in order. The
    first line is said at once after connecting: a socket still joining has it in its chat
    history, or as a line, never both."""
    with two_processes_on_own_redis(pg_url) as (c1, c2, redis_proc, port):
        tid, tokens = new_table(c1, [HUMAN, HUMAN])
        with c1.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ws0, \
                c2.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as ws1:
            heard: dict[int, list[str]] = {0: [], 1: []}
            sockets = {0: ws0, 1: ws1}

            def say(seat: int, text: str) -> None:
                sockets[seat].send_json({"type": "chat", "text": text})
                for other in (0, 1):
                    _hear(sockets[other], heard[other], text)

            say(0, "before")
            redis_proc.terminate()
            redis_proc.wait(10)
            _wait(lambda: not _healthy(c1) and not _healthy(c2))
            say(0, "while away, from the first")
            say(1, "while away, from the second")
            with redis_server(port):
                _wait(lambda: _healthy(c1) and _healthy(c2))
                say(1, "back")
                time.sleep(1.0)  # a line sent twice (a hint and a re-read) would be here by now
                for seat in (0, 1):
                    _hear(sockets[seat], heard[seat], None)
    lines = ["before", "while away, from the first", "while away, from the second", "back"]
    assert heard == {0: lines, 1: lines}


def _hear(ws, heard: list[str], text: str | None, timeout: float = 10.0) -> None:
    """Add the chat lines ``ws`` was sent, alone or in its chat history, to ``heard`` until
    ``text`` is among them (``None``: those sent so far)."""
    deadline = time.monotonic() + timeout
    while True:
        for m in drain(ws):
            if m["type"] == "chat":
                heard.append(m["text"])
            elif m["type"] == "chat_history":
                heard.extend(line["text"] for line in m["messages"])
        if text is None or text in heard:
            return
        assert time.monotonic() < deadline, f"{text!r} never arrived; heard {heard}"
        time.sleep(0.05)


async def _no_resync(announce: bool = False) -> None:
    """A process that never re-reads its tables by itself (hints alone must reach it)."""


def _move(ws) -> dict:
    """Make the seat's next move (on its turn); the snapshot showing it."""
    snap = snapshot_when(ws, my_turn)
    ws.send_json({"type": "move", "version": snap["version"], "action": snap["deal"]["legal"][0]["id"]})
    return snapshot_when(ws, lambda s: s["version"] > snap["version"])


def test_a_server_starts_without_redis(tmp_path):
    """Redis away at start: the server starts, serves, and joins Redis once it is there."""
    from test_server_api import migrated_sqlite

    port = _free_port()
    app = make_app(migrated_sqlite(tmp_path), broker=RedisBroker(f"redis://127.0.0.1:{port}/0",
                                                                 "kafenio:test:" + secrets.token_hex(4), timeout=0.3))
    with TestClient(app) as client:
        assert not _healthy(client)
        made = client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, BOT],
                                                "join": {"seat": 0, "name": "A"}})
        assert made.status_code == 201
        tid, token = made.json()["table"]["id"], made.json()["token"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            _move(ws)
            with redis_server(port):
                _wait(lambda: _healthy(client))
                _move(ws)
