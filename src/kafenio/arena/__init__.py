"""The arena: computer players against each other on duplicate deals, with CIs and ratings.

>>> from kafenio.arena import run_arena
>>> report = run_arena("basra", ["random", "ismcts:20"], deals=4, seed=1, workers=1)  # doctest: +SKIP
>>> report["pairings"][0]["rows"][1]["mean_margin"]                                   # doctest: +SKIP

:mod:`kafenio.arena.duplicate` schedules and plays the deal sets (the seed scheme is documented
there), :mod:`kafenio.arena.report` computes the statistics, :mod:`kafenio.arena.cli` is the
``kafenio arena`` command.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from kafenio.arena.duplicate import (
    BACKENDS,
    SEED_SCHEME_VERSION,
    DealSetResult,
    GameSpec,
    make_tasks,
    pairings,
    run_tasks,
    seatings,
)
from kafenio.arena.report import build_report, mean_ci

__all__ = ["BACKENDS", "SEED_SCHEME_VERSION", "GameSpec", "mean_ci", "run_arena", "seatings"]


def run_arena(game: str, players: Sequence[str], deals: int, seed: int = 0, *,
              preset: Sequence[str] = (), options: Sequence[str] = (), workers: int | None = None,
              backend: str = "process", on_start: Callable[[int], None] | None = None,
              on_result: Callable[[DealSetResult], None] | None = None,
              done: Sequence[DealSetResult] = ()) -> dict:
    """Play ``deals`` duplicate deal sets for every pairing of ``players`` and report.

    Args:
        game: the game name; ``preset`` and ``options`` as for :func:`kafenio.load_game`.
        players: player names (:func:`kafenio.agents.levels.make_named_player`); a two-sided
            game pairs each with each, a game with more sides needs one per side.
        deals: deal sets per pairing.
        seed: the base seed of the deals (scheme :data:`SEED_SCHEME_VERSION`).
        workers: processes (default: every core); 1 plays in this process.
        backend: ``process`` or ``ray``.
        on_start: called with the number of tasks before they run (progress bars).
        on_result: called with each finished deal set, in completion order.
        done: deal sets of this run played before (:func:`kafenio.arena.duplicate.read_log`):
            those of its pairings and first ``deals`` deals are reported, not played again.

    Returns:
        the report dict of :func:`kafenio.arena.report.build_report`.

    Raises:
        KafenioError: an unknown game, preset, option, player, budget or backend (nothing runs).
    """
    spec = GameSpec(game, tuple(preset), tuple(options))
    loaded = spec.load()
    index = {entrants: p for p, entrants in enumerate(pairings(loaded, players))}
    kept = [replace(r, pairing=index[r.entrants]) for r in done if r.entrants in index and r.deal < deals]
    tasks = make_tasks(spec, loaded, players, deals, seed, [(r.entrants, r.deal) for r in kept])
    workers = workers or os.cpu_count() or 1
    if on_start is not None:
        on_start(len(tasks))
    start = time.perf_counter()
    results = sorted([*kept, *run_tasks(tasks, workers, backend, on_result)], key=lambda r: (r.pairing, r.deal))
    return build_report(loaded, results, preset=preset, options=options, players=players, deals=deals,
                        seed=seed, seconds=time.perf_counter() - start, backend=backend, workers=workers,
                        resumed=len(kept))
