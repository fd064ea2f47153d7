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

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass

import kafenio
from kafenio.agents import Player, play_deal
from kafenio.agents.levels import make_named_player
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, State
from kafenio.engine.match import deal_seed
from kafenio.i18n import _

SEED_SCHEME_VERSION = 1
"""Bump when the mapping from (base seed, deal index) to deals, dealers or player seeds changes."""

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
        raise KafenioError(_("{game} has {n} sides: give one player per side, got {m}").format(
            game=game.name, n=n, m=len(entrants)))
    return [[entrants[entrant_of_side(game.side_of(seat), r, n)] for seat in range(game.num_players)]
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
    dealer = shuffle % game.num_players
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


def make_tasks(spec: GameSpec, game: Game, players: Sequence[str], deals: int, seed: int) -> list[Task]:
    """Every task of a run: ``deals`` deal sets for each pairing (same deals for every pairing).

    Raises:
        KafenioError: a bad player list or name (checked here, before any work is sent out).
    """
    if deals < 1:
        raise KafenioError(_("the arena needs at least one deal"))
    for name in players:
        make_named_player(name, game, 0)
    return [Task(spec, p, entrants, seed, i)
            for p, entrants in enumerate(pairings(game, players)) for i in range(deals)]


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
        results = map(play_deal_set, tasks)
    else:
        results = _run_executor(tasks, ProcessPoolExecutor(max_workers=workers))
    collected = []
    for result in results:
        collected.append(result)
        if on_result is not None:
            on_result(result)
    return sorted(collected, key=lambda r: (r.pairing, r.deal))


def _run_executor(tasks: Iterable[Task], executor: Executor) -> Iterator[DealSetResult]:
    with executor:
        futures = [executor.submit(play_deal_set, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()


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
