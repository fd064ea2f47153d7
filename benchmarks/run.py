"""The benchmark command: kafenio's random playouts and the anchors, in one invocation.

    python -m benchmarks.run [--seconds N] [--only NAME ...] [--seed S] [--json FILE]

Every row runs in a fresh spawned process, one after another (one core, one job), and a row that
cannot run (a game not registered yet, an anchor library not installed) says why while the run
goes on. The table gives each row's transitions/s and decisions/s and, for a kafenio row, the
ratio of its transitions/s to its anchor's, measured in the same run, against the target.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from benchmarks.anchors import ANCHORS, NOTES_ROWS, result

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))  # measure the working tree's kafenio, installed or not


@dataclass(frozen=True)
class Workload:
    """One kafenio row: a game (by registered name and load options), its anchor and target.

    Attributes:
        game: the name ``kafenio.load_game`` knows the game by; also the row's name.
        options: keyword arguments for ``load_game`` (``preset`` and rule overrides).
        anchor: the name of the anchor in :data:`benchmarks.anchors.ANCHORS` to compare with.
        target: the transitions/s ratio to the anchor that the game must reach.
    """

    game: str
    options: dict
    anchor: str
    target: float


WORKLOADS = (
    Workload("biriba", {"preset": "standard_4p"}, "openspiel_gin_rummy", 1.0),
    Workload("buraco", {"preset": "brazilian_4p"}, "openspiel_gin_rummy", 1.0),
    Workload("basra", {"preset": "egyptian"}, "openspiel_gin_rummy", 4.0),
    Workload("pisti", {}, "openspiel_gin_rummy", 4.0),
    Workload("xeri", {}, "openspiel_gin_rummy", 4.0),
    Workload("diloti", {}, "openspiel_gin_rummy", 4.0),
)
"""The kafenio rows; a new game plugs in with one entry here."""


def kafenio_playout(game: str, options: dict, seconds: float = 10.0, seed: int = 0) -> dict:
    """Play uniformly random kafenio games for ``seconds`` and count games and transitions.

    Game ``i`` draws its deal seed and its moves from ``random.Random(seed + i)``. The deal is not
    a chance node in kafenio, so every transition is a decision.

    Returns:
        a result dict as :func:`benchmarks.anchors.result` builds it, or
        ``{"name", "error": "not available yet", "detail"}`` when kafenio cannot load the game.
    """
    try:
        from kafenio import KafenioError, load_game
    except ImportError as exc:
        return _not_available(game, exc)
    try:
        loaded = load_game(game, **options)
    except (KeyError, KafenioError) as exc:
        return _not_available(game, exc)
    games = transitions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        rng = random.Random(seed + games)
        state = loaded.new_initial_state(seed=rng.getrandbits(64))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            transitions += 1
        games += 1
    return result(game, elapsed, games=games, transitions=transitions, decisions=transitions)


def _not_available(game: str, exc: Exception) -> dict:
    return {"name": game, "error": "not available yet", "detail": f"{type(exc).__name__}: {exc}"}


def run_isolated(name: str, job: Callable[..., dict], on_tick: Callable[[float], None],
                 **kwargs) -> dict:
    """Run ``job(**kwargs)`` in a fresh spawned process and return its result dict.

    ``on_tick(elapsed_seconds)`` is called about ten times a second while it runs. An exception
    in the job, or the process dying, becomes ``{"name": name, "error": "failed", "detail": ...}``.
    """
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        future = pool.submit(job, **kwargs)
        while True:
            try:
                return future.result(timeout=0.1)
            except TimeoutError:
                on_tick(time.perf_counter() - start)
            except BrokenProcessPool:
                return {"name": name, "error": "failed", "detail": "the worker process died"}
            except Exception as exc:  # the job's own failure, raised again here
                return {"name": name, "error": "failed", "detail": f"{type(exc).__name__}: {exc}"}


def machine_info() -> dict:
    """The CPU model, core count, Python version and anchor library versions of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for dist in ("open-spiel", "rlcard", "pettingzoo"):
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "packages": versions}


def plan(only: Sequence[str]) -> tuple[list[Workload], list[str]]:
    """The kafenio workloads and anchors to run for ``--only`` (everything when empty).

    A selected workload brings its anchor along, so its ratio is measured in the same run.
    """
    workloads = [w for w in WORKLOADS if not only or w.game in only]
    anchors = {w.anchor for w in workloads} | {a for a in ANCHORS if not only or a in only}
    return workloads, [a for a in ANCHORS if a in anchors]


def measure(workloads: Sequence[Workload], anchors: Sequence[str], seconds: float, seed: int,
            console: Console) -> list[dict]:
    """Run every workload, then every anchor, each in its own process, behind a progress bar.

    Returns:
        one result dict per row; a kafenio row also carries ``anchor``, ``target`` and ``ratio``
        (its transitions/s over the anchor's, ``None`` when either is missing).
    """
    jobs = [(w.game, kafenio_playout, {"game": w.game, "options": w.options}) for w in workloads]
    jobs += [(name, ANCHORS[name], {}) for name in anchors]
    rows = []
    columns = (TextColumn("{task.description:<28}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("starting", total=len(jobs) * seconds)
        for done, (name, job, kwargs) in enumerate(jobs):
            progress.update(task, description=name)

            def tick(elapsed: float, done: int = done) -> None:
                progress.update(task, completed=done * seconds + min(elapsed, seconds))

            rows.append(run_isolated(name, job, tick, seconds=seconds, seed=seed, **kwargs))
            progress.update(task, completed=(done + 1) * seconds)
    by_name = {row["name"]: row for row in rows}
    for workload, row in zip(workloads, rows[:len(workloads)], strict=True):
        anchor_rate = by_name[workload.anchor].get("transitions_per_s")
        rate = row.get("transitions_per_s")
        row.update(anchor=workload.anchor, target=workload.target,
                   ratio=rate / anchor_rate if rate and anchor_rate else None)
    return rows


def render(rows: Sequence[dict], machine: dict, seconds: float) -> Table:
    """The results as a rich table, with the machine in its caption."""
    def num(value: float | None, spec: str = ",.0f") -> str:
        return "–" if value is None else format(value, spec)

    packages = ", ".join(f"{k} {v or 'missing'}" for k, v in machine["packages"].items())
    table = Table(title=f"kafenio benchmarks: {seconds:g} s per row, each in its own process",
                  caption=f"{machine['cpu']} ({machine['cores']} cores), Python {machine['python']}; "
                          f"{packages}")
    table.add_column("row", no_wrap=True)
    for header in ("transitions/s", "decisions/s", "iterations/s", "vs anchor", "target"):
        table.add_column(header, justify="right", min_width=len(header))
    table.add_column("status", no_wrap=True)
    for row in rows:
        ratio = row.get("ratio")
        if "error" in row:
            status = f"[yellow]{row['error']}"
        elif "target" not in row:
            status = f"[green]anchor {NOTES_ROWS[row['name']]}"
        elif ratio is None:
            status = "[yellow]no anchor figure"
        else:
            status = "[green]meets target" if ratio >= row["target"] else "[red]below target"
        table.add_row(row["name"], num(row.get("transitions_per_s")), num(row.get("decisions_per_s")),
                      num(row.get("iterations_per_s")),
                      f"{ratio:.2f}× {NOTES_ROWS[row['anchor']]}" if ratio is not None else "–",
                      f"≥ {row['target']:g}×" if "target" in row else "–", status)
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, run the selected rows, print the table and write the JSON.

    Returns:
        the exit status: 1 when a row failed (its game or anchor raised, or its process died),
        else 0. A game not available yet or an anchor not installed is not a failure.
    """
    names = [w.game for w in WORKLOADS] + list(ANCHORS)
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run",
        description="Measure kafenio's random playouts against the OpenSpiel, RLCard and "
                    "PettingZoo anchors, each row in its own process.")
    parser.add_argument("--seconds", type=float, default=10.0, help="time per row (default 10)")
    parser.add_argument("--only", nargs="+", default=[], choices=names, metavar="NAME",
                        help=f"run only these rows (and their anchors): {', '.join(names)}")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write all figures here")
    args = parser.parse_args(argv)
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 132)  # logs and pipes: keep the table on one line per row
    machine = machine_info()
    workloads, anchors = plan(args.only)
    rows = measure(workloads, anchors, args.seconds, args.seed, console)
    console.print(render(rows, machine, args.seconds))
    for row in rows:
        if "detail" in row:
            console.print(f"{row['name']}: {row['detail']}", style="dim", markup=False, highlight=False)
    if args.json:
        report = {"machine": machine, "seconds": args.seconds, "seed": args.seed, "rows": rows}
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return int(any(row.get("error") == "failed" for row in rows))


if __name__ == "__main__":
    sys.exit(main())
