"""The computer players think in worker processes (issue 19, ``kafenio.server.thinking``): every
level of every game plays there as it would in the server's process; at most ``bot_workers``
search at once; a worker killed in the middle of a search loses no table; a hub stops at once,
its workers with it; a hint whose workers keep dying is refused in words."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import kafenio
from kafenio.agents import RandomPlayer
from kafenio.engine.game import Seat, State
from kafenio.engine.match import Match
from kafenio.server import live as live_module
from kafenio.server.limits import Limits
from kafenio.server.live import make_bot
from kafenio.server.thinking import Thinkers
from test_server_api import make_app, migrated_sqlite
from test_server_persistence import close_hub, new_hub
from test_server_ws import BOT, HUMAN, drain, my_turn, new_table, snapshot_when

GAMES = ("biriba", "buraco", "basra", "pisti", "xeri", "diloti")
LEVELS = ("random", "easy", "medium", "hard", "expert", "pimc")
#: the levels without a time cap: the same seed gives the same action on any machine
UNCAPPED = ("random", "easy", "medium", "pimc")


class SlowPlayer(RandomPlayer):
    """A random player that takes ``pause`` seconds a search and writes its worker's process id
    with the start and the end of each search to the file ``log`` (``start|end pid seconds``)."""

    def __init__(self, game, seed=None, log: str = "", pause: float = 0.02):
        super().__init__(game, seed)
        self.log, self.pause = log, pause

    def step(self, seat: Seat) -> int:
        self._write("start")
        time.sleep(self.pause)
        self._write("end")
        return super().step(seat)

    def _write(self, what: str) -> None:
        with open(self.log, "a") as out:
            out.write(f"{what} {os.getpid()} {time.monotonic()}\n")


class DyingPlayer(RandomPlayer):
    """A player whose worker dies in every search (as one killed by the system)."""

    def step(self, seat: Seat) -> int:
        os._exit(9)


def searches(log: Path) -> list[tuple[str, int]]:
    """The log's lines of :class:`SlowPlayer`: (start or end, worker's process id), in order."""
    if not log.exists():
        return []
    return [(what, int(pid)) for what, pid, _at in (line.split() for line in log.read_text().splitlines())]


def a_decision(name: str) -> State:
    """A deal of game ``name`` a few moves in, its seat to act having a choice."""
    game_cls = kafenio.game_class(name)
    state = Match(game_cls(game_cls.rulebook.build([], {})), seed=19).start_deal()
    moves = 0
    while moves < 4 or len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[-1])
        moves += 1
    return state


@pytest.mark.asyncio
@pytest.mark.parametrize("name", GAMES)
async def test_every_level_of_every_game_thinks_in_a_worker(name):
    """Each level's player goes to a worker and back: a legal action; the levels without a time
    cap choose the action a player seeded alike chooses in this process, and come back with
    their random generator where that player's is (the next search goes on from there)."""
    state = a_decision(name)
    seat = state.current_player()
    thinkers = Thinkers(2)
    try:
        players = [make_bot(level, state.game, seed=7) for level in LEVELS]
        found = await asyncio.gather(*(thinkers.step(player, state, seat) for player in players))
    finally:
        thinkers.close()
    for level, player, (action, after) in zip(LEVELS, players, found, strict=True):
        assert action in state.legal_actions(), level
        assert type(after) is type(player) and after.name == player.name, level
        if level in UNCAPPED:
            here = make_bot(level, state.game, seed=7)
            assert here.step(Seat(state.clone(), seat)) == action, level
            assert after.rng.getstate() == here.rng.getstate(), level
    random_player, (_action, after) = players[0], found[0]
    assert after.rng.getstate() != random_player.rng.getstate()  # it drew a number in the worker


def test_computers_think_within_the_server_wide_budget(tmp_path, monkeypatch):
    """Three tables of computers only, ``bot_workers = 1``: never two searches at once, while a
    person's table answers at once."""
    log = tmp_path / "searches.log"
    monkeypatch.setattr(live_module, "make_bot", lambda level, game, seed=None: SlowPlayer(game, seed, str(log)))
    with TestClient(make_app(migrated_sqlite(tmp_path), limits=Limits(bot_workers=1))) as client:
        bots = [client.post("/api/tables", json={"game": "toy", "seats": [BOT, BOT]}).json()["table"]["id"]
                for _ in range(3)]
        tid, (token,) = new_table(client, [HUMAN, BOT])
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            snapshot_when(ws)
            deadline = time.monotonic() + 30
            versions = [0]
            while time.monotonic() < deadline and min(versions) < 5:
                versions = [client.get(f"/api/tables/{t}").json()["version"] for t in bots]
                time.sleep(0.05)
            ws.send_json({"type": "sync"})
            assert snapshot_when(ws, timeout=1.0)["seat"] == 0
    done = searches(log)
    assert min(versions) >= 5 and len(done) >= 30
    assert [what for what, _pid in done[: len(done) // 2 * 2]] == ["start", "end"] * (len(done) // 2)
    assert os.getpid() not in {pid for _what, pid in done}


async def _wait_until(cond, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_a_worker_killed_in_a_search_loses_no_table(tmp_path, monkeypatch, caplog):
    """``kill -9`` of the worker while it searches: the search is made again by a new worker,
    both computer tables play on, and each one's moves are the stored ones."""
    log = tmp_path / "searches.log"
    monkeypatch.setattr(live_module, "make_bot",
                        lambda level, game, seed=None: SlowPlayer(game, seed, str(log), pause=0.3))
    hub = await new_hub(await asyncio.to_thread(migrated_sqlite, tmp_path))
    try:
        tables = [(await hub.create_table("toy", [], {"target": 500}, [BOT, BOT], "off", True, True))[0].id
                  for _ in range(2)]
        with caplog.at_level(logging.WARNING, "kafenio.server.thinking"):
            await _wait_until(lambda: searches(log))
            pid = searches(log)[-1][1]
            os.kill(pid, signal.SIGKILL)
            before = await hub.store.versions(tables)
            for _ in range(1500):
                now = await hub.store.versions(tables)
                if all(now[t] >= before[t] + 3 for t in tables):
                    break
                await asyncio.sleep(0.02)
        assert all(now[t] >= before[t] + 3 for t in tables), (before, now)
        assert "worker process died" in caplog.text
        assert {p for _what, p in searches(log)} - {pid}  # a new worker took over
        for table_id in tables:
            async with hub.lock(table_id):
                live = await hub.get(table_id)
                stored = await hub.store.load(table_id)
                assert [(m.seq, m.deal, m.seat, m.action) for m in live.moves] == \
                    [(m.seq, m.deal, m.seat, m.action) for m in stored.moves]
                assert live.version == stored.row.version
    finally:
        await close_hub(hub)


@pytest.mark.asyncio
async def test_a_hub_stops_at_once_with_its_workers(tmp_path, monkeypatch):
    """A hub stopped while a computer searches (for a minute): the stop does not wait for the
    search, and the worker is gone."""
    log = tmp_path / "searches.log"
    monkeypatch.setattr(live_module, "make_bot",
                        lambda level, game, seed=None: SlowPlayer(game, seed, str(log), pause=60))
    hub = await new_hub(await asyncio.to_thread(migrated_sqlite, tmp_path))
    stopped = False
    try:
        await hub.create_table("toy", [], {"target": 500}, [BOT, BOT], "off", True, True)
        await _wait_until(lambda: searches(log))
        (_what, pid), = searches(log)
        await asyncio.wait_for(close_hub(hub), 30)
        stopped = True
        await _wait_until(lambda: not _alive(pid), timeout=10)
    finally:
        if not stopped:
            await close_hub(hub)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_hint_whose_workers_keep_dying_is_refused_in_words(tmp_path, monkeypatch):
    """Every worker dies in the search, on every new pool: the hint request gets an error
    frame, the socket stays open and the seat plays on."""
    monkeypatch.setattr(live_module, "make_bot", lambda level, game, seed=None: DyingPlayer(game, seed))
    with TestClient(make_app(migrated_sqlite(tmp_path))) as client:
        tid, tokens = new_table(client, [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as first, \
                client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as second:
            ws = next(w for w in (first, second) if my_turn(snapshot_when(w)))
            snap = ws.last_snapshot
            ws.send_json({"type": "hint_request", "version": snap["version"]})
            error = next(m for m in drain(ws) if m["type"] == "error")
            assert error["code"] == "no_hint" and "try again" in error["reason"]
            ws.send_json({"type": "move", "version": snap["version"], "action": snap["deal"]["legal"][0]["id"]})
            assert snapshot_when(ws, lambda s: s["version"] > snap["version"])["seat"] == snap["seat"]


def _children(pid: int) -> set[int]:
    """The process ids whose parent is ``pid`` (``/proc``)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


@pytest.mark.timeout(300)
def test_the_workers_of_a_killed_server_end(tmp_path):
    """``kill -9`` of a real ``kafenio serve`` whose computers are thinking: its fork server and
    workers do not outlive it."""
    import httpx

    from test_server_faults import _kill, _serve
    from test_server_store import _free_port

    port = _free_port()
    server = _serve(migrated_sqlite(tmp_path), port)
    try:
        made = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"game": "basra", "seats": [BOT, BOT]})
        assert made.status_code == 201
        deadline = time.monotonic() + 60
        while not (workers := {w for f in _children(server.pid) for w in _children(f)}):
            assert time.monotonic() < deadline, "no worker started"
            time.sleep(0.1)
        helpers = _children(server.pid) | workers
    finally:
        _kill(server)
    deadline = time.monotonic() + 30
    while alive := {p for p in helpers if _alive(p)}:
        assert time.monotonic() < deadline, f"still running: {alive}"
        time.sleep(0.2)

