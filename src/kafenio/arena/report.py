"""Arena statistics: mean margin with a 95% confidence interval, win rate, openskill ratings.

The unit of every statistic is the **deal set** (a deal pair with two sides): an entrant's margin
in a set is the mean, over the set's tables, of its side's deal score minus the best other
side's, in game points per deal. Deal sets are independent, so the 95% CI of the mean margin is
Student's t interval over the sets, ``mean ± t(0.975, n−1) · s / √n`` with ``s`` the sample
standard deviation (``n−1`` denominator); t quantiles are exact table values up to 30 degrees of
freedom and the Cornish–Fisher expansion beyond (error below 0.001). A set is won when the
margin is positive, tied at zero (a tie counts half in the win rate).

Ratings: openskill's Plackett–Luce model, updated once per deal set in (pairing, deal) order, so
they are reproducible, with the entrants ranked by their margins in the set: the duplicate deals
cancel the luck of the cards over a set, not at one table, where the cards often decide (see
docs/strength.md). Each entrant is one competitor (its seats all play the same policy). The
table lists ``ordinal = mu − 3·sigma``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from kafenio.arena.duplicate import SEED_SCHEME_VERSION, DealSetResult, code_fingerprint
from kafenio.engine.game import Game

T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042)
"""t(0.975, df) for df = 1 … 30."""

Z975 = 1.959964


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df ≥ 1`` degrees of freedom."""
    if df <= len(T975):
        return T975[df - 1]
    z, v = Z975, df
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3))


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% t interval (``inf`` with fewer than two values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))


@dataclass
class EntrantRow:
    """One entrant's record in a pairing (margins in game points per deal)."""

    player: str
    deal_sets: int
    mean_margin: float
    ci_half_width: float
    wins: int
    ties: int
    losses: int

    @property
    def win_rate(self) -> float:
        """Deal sets won, ties counting half, as a fraction."""
        return (self.wins + 0.5 * self.ties) / self.deal_sets

    def to_dict(self) -> dict:
        """JSON-ready; ``ci95`` is ``[low, high]`` (``null`` ends with a single deal set)."""
        finite = math.isfinite(self.ci_half_width)
        return {"player": self.player, "deal_sets": self.deal_sets, "mean_margin": self.mean_margin,
                "ci95_half_width": self.ci_half_width if finite else None,
                "ci95": [self.mean_margin - self.ci_half_width, self.mean_margin + self.ci_half_width]
                if finite else None,
                "win_rate": self.win_rate, "wins": self.wins, "ties": self.ties, "losses": self.losses}


def pairing_rows(results: Sequence[DealSetResult]) -> list[EntrantRow]:
    """Per entrant of one pairing's results, its :class:`EntrantRow` (entrants in listed order)."""
    entrants = results[0].entrants
    per_set = [r.margins() for r in results]
    rows = []
    for k, name in enumerate(entrants):
        margins = [m[k] for m in per_set]
        mean, half = mean_ci(margins)
        wins = sum(m > 0 for m in margins)
        ties = sum(m == 0 for m in margins)
        rows.append(EntrantRow(name, len(margins), mean, half, wins, ties, len(margins) - wins - ties))
    return rows


def ratings(results: Sequence[DealSetResult]) -> list[dict]:
    """Openskill ratings of every entrant over ``results`` (sorted by ``(pairing, deal)``): one
    Plackett–Luce update per deal set, the entrants ranked by :meth:`DealSetResult.margins`
    (equal margins tie).

    Returns:
        ``[{"player", "mu", "sigma", "ordinal"}]``, best ordinal first.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated: dict[str, object] = {}
    for result in results:
        for name in result.entrants:
            rated.setdefault(name, model.rating(name=name))
        updated = model.rate([[rated[name]] for name in result.entrants], scores=result.margins())
        for name, (rating,) in zip(result.entrants, updated, strict=True):
            rated[name] = rating
    table = [{"player": name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
             for name, r in rated.items()]
    return sorted(table, key=lambda row: -row["ordinal"])


def think_times(results: Sequence[DealSetResult]) -> list[dict]:
    """Per search entrant over ``results``: searched moves, mean and longest seconds a move.

    Returns:
        ``[{"player", "searches", "mean_seconds", "max_seconds"}]`` for the entrants that searched
        (wall times: they depend on the machine and its load, the scores do not).
    """
    totals: dict[str, list[float]] = {}
    for result in results:
        for name, (searches, seconds, longest) in zip(result.entrants, result.think, strict=True):
            record = totals.setdefault(name, [0, 0.0, 0.0])
            record[0] += searches
            record[1] += seconds
            record[2] = max(record[2], longest)
    return [{"player": name, "searches": int(n), "mean_seconds": t / n, "max_seconds": m}
            for name, (n, t, m) in totals.items() if n]


def build_report(game: Game, results: Sequence[DealSetResult], *, preset: Sequence[str],
                 options: Sequence[str], players: Sequence[str], deals: int, seed: int,
                 seconds: float, backend: str, workers: int, resumed: int = 0) -> dict:
    """The whole run as one JSON-ready dict (what ``--json`` writes and the tables show).

    Shape: ``{"kafenio_arena": 1, "seed_scheme", "code", "game", "preset", "options", "players",
    "deals", "seed", "backend", "workers", "seconds", "resumed", "pairings": [{"entrants",
    "deal_sets", "rows": [EntrantRow.to_dict()]}], "ratings": [...], "think": [...]}``: ``code``
    is :func:`~kafenio.arena.duplicate.code_fingerprint`, ``resumed`` the deal sets taken from a
    log rather than played (``seconds`` is this invocation's wall time), ``think`` is
    :func:`think_times`.
    """
    by_pairing: dict[int, list[DealSetResult]] = {}
    for result in results:
        by_pairing.setdefault(result.pairing, []).append(result)
    pairings = [{"entrants": list(group[0].entrants), "deal_sets": len(group),
                 "rows": [row.to_dict() for row in pairing_rows(group)]}
                for _p, group in sorted(by_pairing.items())]
    return {"kafenio_arena": 1, "seed_scheme": SEED_SCHEME_VERSION, "code": code_fingerprint(),
            "game": game.name, "preset": list(preset), "options": list(options), "players": list(players),
            "deals": deals, "seed": seed, "backend": backend, "workers": workers,
            "seconds": seconds, "resumed": resumed, "pairings": pairings, "ratings": ratings(results),
            "think": think_times(results)}
