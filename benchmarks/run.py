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
    """One kafenio row: what it runs, the figure it is judged by, and its anchors.

    Attributes:
        name: the row's name (``--only`` selects it).
        job: ``"playout"`` (random playouts, :func:`kafenio_playout`), ``"env"`` (the PettingZoo
            AEC loop, :func:`benchmarks.rl_bench.kafenio_env_steps`) or ``"ismcts"``
            (:func:`benchmarks.ismcts_bench.kafenio_ismcts`).
        game: the game the job plays, by the name ``kafenio.load_game`` knows.
        options: keyword arguments for ``load_game`` (``preset`` and rule overrides).
        metric: the result key compared with the anchors' same key.
        targets: anchor name (in :data:`benchmarks.anchors.ANCHORS`) → the ratio to reach.
    """

    name: str
    job: str
    game: str
    options: dict
    metric: str
    targets: dict


def _playout(game: str, preset: str | None = None, target: float = 1.0) -> Workload:
    options = {"preset": preset} if preset else {}
    return Workload(game, "playout", game, options, "transitions_per_s", {"openspiel_gin_rummy": target})


def _env(game: str) -> Workload:
    return Workload(f"{game}_env", "env", game, {}, "decisions_per_s",
                    {"pettingzoo_gin_rummy": 5.0, "rlcard_gin_rummy": 1.0})


WORKLOADS = (
    _playout("biriba", "standard_4p"),
    _playout("buraco", "brazilian_4p"),
    _playout("basra", "egyptian", 4.0),
    _playout("pisti", None, 4.0),
    _playout("xeri", None, 4.0),
    _playout("diloti", None, 4.0),
    _env("biriba"),
    _env("buraco"),
    _env("basra"),
    Workload("biriba_ismcts", "ismcts", "biriba", {}, "iterations_per_s", {"openspiel_ismcts_gin_rummy": 1.0}),
)
"""The kafenio rows; a new game or job plugs in with one entry here."""


def kafenio_playout(game: str, options: dict, seconds: float = 10.0, seed: int = 0) -> dict:
    """Play uniformly random kafenio games for ``seconds`` and count games and transitions.

    Game ``i`` draws its deal seed and its moves from ``random.Random(seed + i)``. The deal is not
    a chance node in kafenio, so every transition is a decision.

    Returns:
        a result dict as :func:`benchmarks.anchors.result` builds it.
    """
    from kafenio import load_game

    loaded = load_game(game, **options)
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


def run_workload(name: str, job: str, game: str, options: dict, seconds: float = 10.0, seed: int = 0) -> dict:
    """Run one kafenio row's job (in the worker process).

    Returns:
        the job's result dict named ``name``, or ``{"name", "error": "not available yet",
        "detail"}`` when kafenio (or the game) cannot be loaded yet.
    """
    try:
        import kafenio

        kafenio.game_class(game)
    except (ImportError, ValueError) as exc:
        return _not_available(name, exc)
    if job == "playout":
        row = kafenio_playout(game, options, seconds, seed)
    elif job == "env":
        from benchmarks.rl_bench import kafenio_env_steps
        row = kafenio_env_steps(seconds, seed, game)
    else:
        from benchmarks.ismcts_bench import kafenio_ismcts
        row = kafenio_ismcts(seconds, seed, game)
    row["name"] = name
    return row


def _not_available(game: str, exc: Exception) -> dict:
    return {"name": game, "error": "not available yet", "detail": f"{type(exc).__name__}: {exc}"}


def run_isolated(name: str, job: Callable[..., dict], on_tick: Callable[[float], None], /,
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
    workloads = [w for w in WORKLOADS if not only or w.name in only]
    anchors = {a for w in workloads for a in w.targets} | {a for a in ANCHORS if not only or a in only}
    return workloads, [a for a in ANCHORS if a in anchors]


def measure(workloads: Sequence[Workload], anchors: Sequence[str], seconds: float, seed: int,
            console: Console) -> list[dict]:
    """Run every workload, then every anchor, each in its own process, behind a progress bar.

    Returns:
        one result dict per row; a kafenio row also carries ``metric`` and ``ratios``: anchor →
        ``{"target", "ratio"}`` (its figure over the anchor's, ``None`` when either is missing).
    """
    jobs = [(w.name, run_workload, {"name": w.name, "job": w.job, "game": w.game, "options": w.options})
            for w in workloads]
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
        rate = row.get(workload.metric)
        ratios = {}
        for anchor, target in workload.targets.items():
            anchor_rate = by_name[anchor].get(workload.metric)
            ratios[anchor] = {"target": target, "ratio": rate / anchor_rate if rate and anchor_rate else None}
        row.update(metric=workload.metric, ratios=ratios)
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
        ratios = row.get("ratios", {})
        known = [r for r in ratios.values() if r["ratio"] is not None]
        if "error" in row:
            status = f"[yellow]{row['error']}"
        elif not ratios:
            status = f"[green]anchor {NOTES_ROWS[row['name']]}"
        elif not known:
            status = "[yellow]no anchor figure"
        elif all(r["ratio"] >= r["target"] for r in known):
            status = "[green]meets target"
        else:
            status = "[red]below target"
        versus = "; ".join(f"{r['ratio']:.2f}× {NOTES_ROWS[a]}" for a, r in ratios.items() if r["ratio"] is not None)
        targets = "; ".join(f"≥ {r['target']:g}× {NOTES_ROWS[a]}" for a, r in ratios.items())
        table.add_row(row["name"], num(row.get("transitions_per_s")), num(row.get("decisions_per_s")),
                      num(row.get("iterations_per_s")), versus or "–", targets or "–", status)
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, run the selected rows, print the table and write the JSON.

    Returns:
        the exit status: 1 when a row failed (its game or anchor raised, or its process died),
        else 0. A game not available yet or an anchor not installed is not a failure.
    """
    names = [w.name for w in WORKLOADS] + list(ANCHORS)
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
