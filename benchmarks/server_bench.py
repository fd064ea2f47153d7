"""Server benchmark: N concurrent tables of computer players driven over loopback WebSockets.

Starts ``uvicorn`` with the kafenio server on a fresh SQLite (or ``--database-url``) database on
127.0.0.1, creates N tables whose seats are all "human" seats, and drives every seat from this
process with a random player choosing among the snapshot's legal actions. It measures each
move's latency (from sending ``move`` to receiving the snapshot of the next version) and reports
moves/s, p50 and p99, and every error frame. Bounded: ``--seconds`` of play, then it stops the
server. Loopback only.

    PYTHONPATH=src python benchmarks/server_bench.py --tables 50 --seconds 20 --game basra
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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
from kafenio.server.store import upgrade
upgrade({url!r})
uvicorn.run(create_app(ServerSettings(database_url={url!r})), host="127.0.0.1", port={port},
            log_level="warning", ws_max_size=65536)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def seat_loop(url: str, rng: random.Random, stop: float, latencies: list[float], errors: list[str]) -> int:
    """Play one seat until ``stop`` or the match ends; returns the moves made."""
    moves = 0
    async with websockets.connect(url, max_size=2**22) as ws:
        sent_at, acted = None, -1
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] == "error":
                errors.append(msg["code"])
                continue
            if msg["type"] != "snapshot":
                continue
            if sent_at is not None and msg["version"] > acted:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["phase"] == "finished":
                break
            if msg["phase"] == "deal_over" and msg["seat"] not in msg["ready"] and msg["version"] > acted:
                acted = msg["version"]
                await ws.send('{"type":"next_deal"}')
            elif msg["deal"] and msg["deal"]["legal"] and msg["version"] > acted:
                acted = msg["version"]
                action = rng.choice(msg["deal"]["legal"])["id"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "version": msg["version"], "action": action}))
                moves += 1
    return moves


async def run(args: argparse.Namespace) -> dict:
    base = f"http://127.0.0.1:{args.port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        game = next(g for g in (await http.get("/api/games")).json()["games"] if g["name"] == args.game)
        seats = [{"kind": "human"}] * game["num_players"]
        urls = []
        for _ in range(args.tables):
            tid = (await http.post("/api/tables", json={"game": args.game, "seats": seats})).json()["table"]["id"]
            for s in range(game["num_players"]):
                token = (await http.post(f"/api/tables/{tid}/join", json={"seat": s, "name": f"b{s}"})).json()["token"]
                urls.append(f"ws://127.0.0.1:{args.port}/ws/tables/{tid}?token={token}")
    latencies: list[float] = []
    errors: list[str] = []
    start = time.monotonic()
    stop = start + args.seconds
    tasks = [asyncio.create_task(seat_loop(u, random.Random(i), stop, latencies, errors)) for i, u in enumerate(urls)]
    with Progress(transient=True) as progress:
        bar = progress.add_task(f"{args.tables} tables of {args.game}", total=args.seconds)
        while not all(t.done() for t in tasks) and time.monotonic() < stop + 5:
            await asyncio.sleep(0.5)
            progress.update(bar, completed=min(args.seconds, time.monotonic() - start))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - start
    crashed = [repr(r) for r in results if isinstance(r, BaseException)]
    moves = sum(r for r in results if isinstance(r, int))
    lat = sorted(latencies)
    pct = (lambda q: 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]) if lat else (lambda q: float("nan"))
    return {"tables": args.tables, "game": args.game, "seconds": round(elapsed, 1), "moves": moves,
            "moves_per_s": round(moves / elapsed, 1), "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
            "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
            "errors": errors, "crashed_clients": crashed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="basra")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 1 <= args.seconds <= 300:
        parser.error("--tables 1..500, --seconds 1..300")
    args.port = free_port()
    folder = tempfile.mkdtemp(prefix="kafenio-bench-")
    url = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
    code = SERVER.format(src=str(ROOT / "src"), url=url, port=args.port)
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
        result = asyncio.run(run(args))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    console.print_json(json.dumps(result))
    ok = not result["errors"] and not result["crashed_clients"] and result["p99_ms"] < 100
    console.print(f"[{'green' if ok else 'red'}]{'target met' if ok else 'target missed'}[/]: "
                  f"p99 {result['p99_ms']} ms (target < 100), errors {len(result['errors'])}")


if __name__ == "__main__":
    main()
