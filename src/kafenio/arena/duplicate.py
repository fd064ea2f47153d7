"""Duplicate deals: every deal is played once per rotation of the entrants around the sides.

With two sides a deal is played twice, the entrants swapping seats, so each sits in the other's
cards with the same dealer; with ``n`` sides it is played ``n`` times, one per rotation. The
luck of the deal then cancels in the **deal set** (a "deal pair" with two sides).

Seed scheme (version :data:`SEED_SCHEME_VERSION`, written in every report): for a run with base
seed ``S``, deal ``i`` (0-based, the same deals for every pairing of entrants) is shuffled with
``D = deal_seed(S, i)`` (:func:`kafenio.engine.match.deal_seed`), its dealer is seat
``D mod num_players``, and the player at seat ``k`` is seeded with ``deal_seed(D, k + 1)`` at
every table of the set. Each deal is played as the first deal of a match (match scores 0).

Search players play **iteration-bound** here (``make_named_player(..., time_caps=False)``): a
level's or an ``ismcts:N/Ts`` budget loses its time cap, so a run's results are a function of its
command, not of the machine's load (only a seconds-only budget such as ``ismcts:1s`` stays timed).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

import kafenio
from kafenio.agents import Player, play_deal
from kafenio.agents.levels import make_named_player
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, State
from kafenio.engine.match import deal_seed
from kafenio.i18n import _, n_, number
from kafenio.words import game_name

SEED_SCHEME_VERSION = 1
"""Bump when the mapping from (base seed, deal index) to deals, dealers or player seeds changes."""

PLAYING_CODE = ("agents", "engine", "games", "rummy", "fishing", "cards.py", "arena/duplicate.py")
"""The parts of the package whose source decides a deal set's scores (:func:`code_fingerprint`)."""

BACKENDS = ("process", "ray")


@dataclass(frozen=True)
class GameSpec:
    """How to rebuild the game in a worker: ``kafenio.load_game(name, preset, options)``."""

    name: str
    preset: tuple[str, ...] = ()
    options: tuple[str, ...] = ()

    def load(self) -> Game:
        """The game (raises RulesError for an unknown game, preset or option)."""
        return kafenio.load_game(self.name, preset=list(self.preset) or None, options=list(self.options))


@dataclass(frozen=True)
class Task:
    """One deal set: deal ``deal`` of the run with ``base_seed``, between ``entrants``.

    Attributes:
        pairing: index of the pairing in the run.
        entrants: one player name per side at the first table.
    """

    game: GameSpec
    pairing: int
    entrants: tuple[str, ...]
    base_seed: int
    deal: int


@dataclass(frozen=True)
class DealSetResult:
    """The scores of one deal set.

    Attributes:
        scores: per table, each side's deal score (table ``r`` seats rotation ``r``).
        think: per entrant, ``(searches, seconds, longest)``: the moves its search player
            searched (more than one legal action), their total and their longest wall time in
            seconds (zeros for a player without search). Machine-dependent, unlike the scores.
    """

    pairing: int
    deal: int
    entrants: tuple[str, ...]
    scores: tuple[tuple[float, ...], ...]
    think: tuple[tuple[int, float, float], ...] = ()

    def margins(self) -> list[float]:
        """Per entrant, its mean margin over the tables: its side's score minus the best other side's."""
        n = len(self.entrants)
        totals = [0.0] * n
        for rotation, scores in enumerate(self.scores):
            for side, score in enumerate(scores):
                best_other = max(s for o, s in enumerate(scores) if o != side)
                totals[entrant_of_side(side, rotation, n)] += score - best_other
        return [t / len(self.scores) for t in totals]


def entrant_of_side(side: int, rotation: int, sides: int) -> int:
    """Which entrant (index into the entrants) plays ``side`` at table ``rotation``."""
    return (side + rotation) % sides


def seatings(game: Game, entrants: Sequence[str]) -> list[list[str]]:
    """Per table of a deal set, the player name at each seat (partners play the same player).

    Raises:
        KafenioError: not one entrant per side.
    """
    n = game.num_sides
    if len(entrants) != n:
        raise KafenioError(n_("{game} has {n} side: give one player per side, got {m}",
                              "{game} has {n} sides: give one player per side, got {m}", n).format(
            game=game_name(game.name), n=number(n), m=number(len(entrants))))
    return [[entrants[entrant_of_side(game.side_of(seat), r, n)] for seat in range(game.num_players())]
            for r in range(n)]


def pairings(game: Game, players: Sequence[str]) -> list[tuple[str, ...]]:
    """The pairings of a run: every pair of ``players`` for a two-sided game, else all of them.

    Raises:
        KafenioError: a name given twice, fewer than two players, or (more than two sides) not
            one player per side.
    """
    if len(set(players)) != len(players):
        raise KafenioError(_("each player may be listed once: {players}").format(players=", ".join(players)))
    if len(players) < 2:
        raise KafenioError(_("the arena needs at least two players"))
    if game.num_sides == 2:
        return list(itertools.combinations(players, 2))
    seatings(game, players)  # checks one per side
    return [tuple(players)]


def play_deal_set(task: Task) -> DealSetResult:
    """Play one deal set (runs in a worker process); a pure function of the task."""
    game = task.game.load()
    shuffle = deal_seed(task.base_seed, task.deal)
    dealer = shuffle % game.num_players()
    tables = []
    think = {name: [0, 0.0, 0.0] for name in task.entrants}
    for names in seatings(game, task.entrants):
        players = [make_named_player(name, game, deal_seed(shuffle, seat + 1), time_caps=False)
                   for seat, name in enumerate(names)]

        def timed(state: State, _action: int, players: list[Player] = players, names: list[str] = names) -> None:
            seat = state.current_player()
            search = getattr(players[seat], "last_search", None)
            if search is not None and search.iterations:
                record = think[names[seat]]
                record[0] += 1
                record[1] += search.seconds
                record[2] = max(record[2], search.seconds)

        state = game.new_initial_state(seed=shuffle, dealer=dealer)
        play_deal(state, players, on_action=timed)
        tables.append(tuple(state.side_scores()))
    return DealSetResult(task.pairing, task.deal, task.entrants, tuple(tables),
                         tuple((int(n), t, m) for n, t, m in (think[name] for name in task.entrants)))


def make_tasks(spec: GameSpec, game: Game, players: Sequence[str], deals: int, seed: int,
               done: Iterable[tuple[tuple[str, ...], int]] = ()) -> list[Task]:
    """Every task of a run: ``deals`` deal sets for each pairing (same deals for every pairing),
    except the ``(entrants, deal)`` sets in ``done`` (played already: :func:`read_log`).

    Raises:
        KafenioError: a bad player list or name (checked here, before any work is sent out).
    """
    if deals < 1:
        raise KafenioError(_("the arena needs at least one deal"))
    for name in players:
        make_named_player(name, game, 0)
    skip = set(done)
    return [Task(spec, p, entrants, seed, i)
            for p, entrants in enumerate(pairings(game, players)) for i in range(deals)
            if (entrants, i) not in skip]


def code_fingerprint() -> str:
    """16 hex digits of a SHA-256 over the source files of :data:`PLAYING_CODE` (paths and
    contents, in path order): two runs with the same fingerprint, game, rules and seed play the
    same deal sets to the same scores, so a log of one may complete the other."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for part in PLAYING_CODE:
        path = root / part
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(root).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def run_identity(spec: GameSpec, seed: int) -> dict:
    """What a log line must share with a run to stand for one of its deal sets: ``{"game",
    "preset", "options", "seed", "seed_scheme", "code"}`` (:func:`code_fingerprint`). The players
    are not part of it: a pairing's deal sets serve every run that has that pairing."""
    return {"game": spec.name, "preset": list(spec.preset), "options": list(spec.options), "seed": seed,
            "seed_scheme": SEED_SCHEME_VERSION, "code": code_fingerprint()}


def log_line(identity: dict, result: DealSetResult) -> str:
    """One JSON line of a run's log: the result's fields and ``"run": identity``."""
    return json.dumps({"run": identity, **asdict(result)})


def read_log(path: Path, identity: dict) -> tuple[list[DealSetResult], int]:
    """The deal sets of the run ``identity`` (:func:`run_identity`) in the log at ``path``, and
    how many lines belong to other runs (another game, rules, seed or playing code; a line of
    a log written before runs were named counts as another run's). A deal set logged twice
    counts once. A missing file is an empty log.

    Raises:
        KafenioError: a line that is not a JSON object of a deal set, naming the file and line.
    """
    if not path.exists():
        return [], 0
    found: dict[tuple[tuple[str, ...], int], DealSetResult] = {}
    others = 0
    for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if row.get("run") != identity:
                others += 1
                continue
            result = DealSetResult(int(row["pairing"]), int(row["deal"]), tuple(row["entrants"]),
                                   tuple(tuple(float(x) for x in table) for table in row["scores"]),
                                   tuple((int(n), float(t), float(m)) for n, t, m in row["think"]))
        except (ValueError, TypeError, KeyError, AttributeError) as err:
            raise KafenioError(_("{path} line {n}: not a deal set of an arena log ({err})").format(
                path=path, n=line_number, err=err)) from None
        found.setdefault((result.entrants, result.deal), result)
    return list(found.values()), others


def run_tasks(tasks: Sequence[Task], workers: int, backend: str = "process",
              on_result: Callable[[DealSetResult], None] | None = None) -> list[DealSetResult]:
    """Run the tasks on ``workers`` local processes (or Ray); results sorted by (pairing, deal).

    ``workers=1`` with the process backend plays in this process (no pool).

    Raises:
        KafenioError: an unknown backend, or ``ray`` requested but not installed.
    """
    if backend not in BACKENDS:
        raise KafenioError(_("unknown backend {b!r}; the backends are: {known}").format(
            b=backend, known=", ".join(BACKENDS)))
    if backend == "ray":
        results = _run_ray(tasks, workers)
    elif workers == 1:
        results = (play_deal_set(task) for task in tasks)
    else:
        results = _run_executor(tasks, ProcessPoolExecutor(max_workers=workers))
    collected = []
    with contextlib.closing(results):  # stopped here (Ctrl-C in on_result), the workers end too
        for result in results:
            collected.append(result)
            if on_result is not None:
                on_result(result)
    return sorted(collected, key=lambda r: (r.pairing, r.deal))


def _run_executor(tasks: Iterable[Task], executor: ProcessPoolExecutor) -> Iterator[DealSetResult]:
    """The results as they finish; once the iterator ends, every worker process has ended and
    been reaped. Stopped early (Ctrl-C, a failed task, the caller closing the iterator), the
    workers are ended with their tasks unfinished and the tasks not started are
    cancelled: ``with executor`` would play every task first (its shutdown waits for all pending
    tasks, and a worker survives a KeyboardInterrupt, sending it back as its task's result)."""
    try:
        futures = [executor.submit(play_deal_set, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()
    except BaseException:
        _end_workers(executor)
        raise
    finally:
        # Waits for the executor's own thread, which joins every worker: only then is each one
        # reaped, since that thread and a join of ours race for the same child (the one that
        # loses sees it alive a moment longer).
        executor.shutdown(wait=True, cancel_futures=True)


def _end_workers(executor: ProcessPoolExecutor) -> None:
    """End the executor's worker processes now (``terminate_workers`` from Python 3.14; before
    it, through the executor's table of processes, which it has kept since Python 3.2); the
    executor's shutdown then reaps them."""
    terminate = getattr(executor, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    processes = list((executor._processes or {}).values())  # None once shut down
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join()


def _run_ray(tasks: Sequence[Task], workers: int) -> Iterator[DealSetResult]:
    try:
        import ray
    except ImportError:
        raise KafenioError(_("the ray backend needs Ray: pip install 'ray>=2'")) from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_deal_set)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            yield ray.get(ready[0])
    finally:
        if started_here:
            ray.shutdown()
