"""Server benchmark: N concurrent tables, every seat played over its own loopback WebSocket.

Starts ``uvicorn`` with the kafenio server (the settings of ``kafenio serve``) on a fresh SQLite
database (or ``--database-url``) on 127.0.0.1, creates N tables whose seats are all "human"
seats, claims every seat over REST and opens one WebSocket per seat from this process. Each
seat plays like a person who thinks: when its snapshot offers it legal actions it waits a think
time drawn uniformly from 0.5–1.5 × ``--think`` seconds, then sends a random legal ``move``;
between deals it sends ``next_deal``. A move's latency runs from sending ``move`` to receiving
the snapshot of the next version (the server's whole path: parse, rules, commit, fan-out).
``--think 0`` plays flat out and measures the server's capacity instead.

Hostile load on top (``docs/operations.md``, "Limits"): ``--expert-tables`` tables of computer
players only (``--bot-level``, expert by default) play all along, and ``--flood`` spectator
sockets from one other client address send pings as fast as the per-socket rate limit allows.
Each table's people connect from their own loopback address (127.0.x.y), as people do from their
own machines, so the per-client quotas apply to the flood and not to them.

Reports moves/s achieved, the people's latency p50/p90/p99/max, the server process's CPU time per
move (from ``/proc``), the share of the time its event loop ran and the share it waited for a CPU
while it could run (``loop_wait_share``: the machine's other work delaying every move), every
error frame and every crashed client, the computers' moves, and the flood's sockets accepted and
refused. Bounded: ``--seconds`` of play, then it stops the server.
Loopback only; ``benchmarks/README.md`` (server section) explains the figures.

    python benchmarks/server_bench.py --tables 200 --seconds 40 --think 1 --expert-tables 12 --flood 300
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import websockets
from rich.console import Console
from rich.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
SERVER = """
import sys
sys.path.insert(0, {src!r})
import uvicorn
from kafenio.server.app import ServerSettings, create_app
from kafenio.server.cli import uvicorn_options
from kafenio.server.store import upgrade
upgrade({url!r})
uvicorn.run(create_app(ServerSettings(database_url={url!r}, bot_delay={bot_delay!r})), host="127.0.0.1",
            port={port}, log_level="warning", **uvicorn_options())
"""
#: at most this many REST calls or WebSocket handshakes in flight while setting up
SETUP_CONCURRENCY = 32
#: the client addresses of the computer tables' creator and of the flood
BOTS_ADDRESS, FLOOD_ADDRESS = "127.0.0.3", "127.0.0.2"
#: pings a second each flood socket sends (just under the per-socket rate limit of 20)
FLOOD_RATE = 19.0


def people_address(table: int) -> str:
    """The loopback address the people of table ``table`` connect from."""
    return f"127.0.{1 + table // 200}.{1 + table % 200}"


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (``nan`` without ``/proc``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loop_seconds(pid: int) -> tuple[float, float]:
    """Seconds the main thread of process ``pid`` (the server's event loop) has run so far, and
    waited for a CPU while it could run (``/proc/PID/task/PID/schedstat``; ``nan`` without it)."""
    try:
        ran, waited, _slices = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
    except (OSError, ValueError):
        return float("nan"), float("nan")
    return int(ran) / 1e9, int(waited) / 1e9


class Stats:
    """What the seats measured."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: Counter[str] = Counter()
        self.moves = 0


async def seat_loop(ws: websockets.ClientConnection, rng: random.Random, think: float, stop: float,
                    stats: Stats) -> None:
    """Play one seat until ``stop`` or the end of the match."""
    sent_at, acted, ready_for = None, -1, -1
    while time.monotonic() < stop:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
        except TimeoutError:
            break
        msg = json.loads(raw)
        if msg["type"] == "error":
            stats.errors[msg["code"]] += 1
            continue
        if msg["type"] != "snapshot":
            continue
        if sent_at is not None and msg["version"] > acted:
            stats.latencies.append(time.perf_counter() - sent_at)
            sent_at = None
        if msg["phase"] == "finished":
            break
        if msg["phase"] == "deal_over" and msg["deal"]["index"] > ready_for:
            ready_for = msg["deal"]["index"]
            await ws.send('{"type":"next_deal"}')
        elif msg["deal"] and msg["deal"]["legal"] and msg["version"] > acted:
            acted = msg["version"]
            action = rng.choice(msg["deal"]["legal"])["id"]
            if think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                if time.monotonic() >= stop:
                    break
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "version": msg["version"], "action": action}))
            stats.moves += 1


def http_from(address: str, port: int) -> httpx.AsyncClient:
    """An HTTP client of the server whose connections come from ``address``."""
    return httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


async def seat_urls(args: argparse.Namespace) -> tuple[list[tuple[str, str]], int, list[str]]:
    """Create the people's tables (each from its people's address) and claim every seat, and the
    computers' tables: the seats' (address, WebSocket URL), seats per table, the computer tables."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    async with http_from("127.0.0.1", args.port) as http:
        game = next(g for g in (await http.get("/api/games")).json()["games"] if g["name"] == args.game)
        n = game["num_players"]

    async def table(i: int) -> list[tuple[str, str]]:
        address = people_address(i)
        async with gate, http_from(address, args.port) as http:
            made = await http.post("/api/tables", json={"game": args.game, "seats": [{"kind": "human"}] * n})
            tid = made.json()["table"]["id"]
            urls = []
            for s in range(n):
                token = (await http.post(f"/api/tables/{tid}/join", json={"seat": s, "name": f"b{s}"})).json()
                urls.append((address, f"ws://127.0.0.1:{args.port}/ws/tables/{tid}?token={token['token']}"))
            return urls

    tables = await asyncio.gather(*(table(i) for i in range(args.tables)))
    async with http_from(BOTS_ADDRESS, args.port) as http:
        bots = [(await http.post("/api/tables", json={
            "game": args.game, "seats": [{"kind": "computer", "level": args.bot_level}] * n})).json()["table"]["id"]
            for _ in range(args.expert_tables)]
    return [u for urls in tables for u in urls], n, bots


async def flood(args: argparse.Namespace, table_ids: list[str], stop: float) -> dict[str, int]:
    """``args.flood`` spectator sockets from :data:`FLOOD_ADDRESS`, each pinging at
    :data:`FLOOD_RATE` until ``stop``: how many were accepted and refused, and the frames sent."""
    counts = Counter()

    async def one(i: int) -> None:
        url = f"ws://127.0.0.1:{args.port}/ws/tables/{table_ids[i % len(table_ids)]}"
        try:
            ws = await websockets.connect(url, max_size=2**22, open_timeout=30, local_addr=(FLOOD_ADDRESS, 0))
        except Exception:  # refused (the client's socket quota) or timed out
            counts["refused"] += 1
            return
        counts["accepted"] += 1
        reader = asyncio.create_task(drain(ws))
        try:
            while time.monotonic() < stop:
                await ws.send('{"type":"ping"}')
                counts["frames"] += 1
                await asyncio.sleep(1.0 / FLOOD_RATE)
        except websockets.ConnectionClosed:
            counts["closed"] += 1
        finally:
            reader.cancel()
            await ws.close()

    await asyncio.gather(*(one(i) for i in range(args.flood)))
    return dict(counts)


async def drain(ws: websockets.ClientConnection) -> None:
    """Read and forget everything the server sends (a flood socket)."""
    async for _msg in ws:
        pass


async def table_versions(args: argparse.Namespace, table_ids: list[str]) -> int:
    """The sum of the tables' versions (the computer tables: their moves and deals)."""
    async with http_from(BOTS_ADDRESS, args.port) as http:
        return sum([(await http.get(f"/api/tables/{t}")).json()["version"] for t in table_ids])


async def run(args: argparse.Namespace, server_pid: int | None = None) -> dict:
    """Set the tables up, connect every seat, play ``args.seconds``; the figures."""
    urls, per_table, bots = await seat_urls(args)
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def connect(address: str, url: str) -> websockets.ClientConnection:
        async with gate:
            return await websockets.connect(url, max_size=2**22, open_timeout=60, local_addr=(address, 0))

    sockets = await asyncio.gather(*(connect(a, u) for a, u in urls))
    stats = Stats()
    bots_before = await table_versions(args, bots)
    cpu_before, client_before = cpu_seconds(server_pid) if server_pid else float("nan"), time.process_time()
    loop_before = loop_seconds(server_pid) if server_pid else (float("nan"), float("nan"))
    start = time.monotonic()
    stop = start + args.seconds
    tasks = [asyncio.create_task(seat_loop(ws, random.Random(i), args.think, stop, stats))
             for i, ws in enumerate(sockets)]
    people_tables = [url.split("/ws/tables/")[1].split("?")[0] for _a, url in urls[::per_table]]
    tasks.append(asyncio.create_task(flood(args, people_tables, stop)))
    with Progress(transient=True) as progress:
        bar = progress.add_task(f"{args.tables} tables of {args.game}", total=args.seconds)
        while not all(t.done() for t in tasks) and time.monotonic() < stop + 5:
            await asyncio.sleep(0.5)
            progress.update(bar, completed=min(args.seconds, time.monotonic() - start))
    *results, flooded = await asyncio.gather(*tasks, return_exceptions=True)
    if isinstance(flooded, BaseException):
        raise flooded
    elapsed = time.monotonic() - start
    bot_moves = await table_versions(args, bots) - bots_before
    server_cpu = (cpu_seconds(server_pid) - cpu_before) if server_pid else float("nan")
    loop_ran, loop_waited = (after - before for after, before in zip(
        loop_seconds(server_pid) if server_pid else (float("nan"), float("nan")), loop_before, strict=True))
    client_cpu = time.process_time() - client_before
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    crashed = [repr(r) for r in results if isinstance(r, BaseException)]
    lat = sorted(stats.latencies)

    def pct(q: float) -> float | None:
        return round(1000 * lat[min(len(lat) - 1, int(q * len(lat)))], 1) if lat else None

    return {"tables": args.tables, "seats": len(urls), "game": args.game, "think_s": args.think,
            "seconds": round(elapsed, 1), "moves": stats.moves, "moves_per_s": round(stats.moves / elapsed, 1),
            "offered_moves_per_s": round(args.tables / args.think, 1) if args.think else None,
            "p50_ms": pct(0.50), "p90_ms": pct(0.90), "p99_ms": pct(0.99), "max_ms": pct(1.0),
            "server_cpu_ms_per_move": round(1000 * server_cpu / stats.moves, 2) if stats.moves else None,
            "server_cpu_share": round(server_cpu / elapsed, 2), "client_cpu_share": round(client_cpu / elapsed, 2),
            "loop_cpu_share": round(loop_ran / elapsed, 2), "loop_wait_share": round(loop_waited / elapsed, 2),
            "seats_per_table": per_table, "errors": dict(stats.errors), "crashed_clients": crashed,
            "expert_tables": args.expert_tables, "bot_level": args.bot_level, "bot_changes": bot_moves,
            "flood": {"sockets": args.flood, "accepted": flooded.get("accepted", 0),
                      "refused": flooded.get("refused", 0), "frames": flooded.get("frames", 0)}}


def main() -> None:
    """Parse the options, start the server, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play (setup not counted)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time of a seat before each move, seconds (0: flat out)")
    parser.add_argument("--game", default="basra")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    parser.add_argument("--expert-tables", type=int, default=12, help="tables of computer players only")
    parser.add_argument("--bot-level", default="expert", help="the level of those computers")
    parser.add_argument("--bot-delay", type=float, default=0.6, help="the server's bot delay (kafenio serve's)")
    parser.add_argument("--flood", type=int, default=300, help="spectator sockets pinging from one address")
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 1 <= args.seconds <= 300 or not 0 <= args.think <= 60:
        parser.error("--tables 1..500, --seconds 1..300, --think 0..60")
    if not 0 <= args.expert_tables <= 100 or not 0 <= args.flood <= 2000:
        parser.error("--expert-tables 0..100, --flood 0..2000")
    args.port = free_port()
    folder = tempfile.mkdtemp(prefix="kafenio-bench-")
    url = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
    code = SERVER.format(src=str(ROOT / "src"), url=url, port=args.port, bot_delay=args.bot_delay)
    server = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "PYTHONWARNINGS": "ignore"})
    console = Console()
    try:
        for _ in range(200):
            try:
                if httpx.get(f"http://127.0.0.1:{args.port}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        result = asyncio.run(run(args, server.pid))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    console.print_json(json.dumps(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))
    ok = not result["errors"] and not result["crashed_clients"] and (result["p99_ms"] or 0) < 100
    console.print(f"[{'green' if ok else 'red'}]{'target met' if ok else 'target missed'}[/]: "
                  f"{result['tables']} tables (+ {args.expert_tables} of {args.bot_level} computers, "
                  f"{result['flood']['accepted']} flood sockets), {result['moves_per_s']} moves/s, people's p99 "
                  f"{result['p99_ms']} ms (target < 100), errors {sum(result['errors'].values())}")


if __name__ == "__main__":
    main()
