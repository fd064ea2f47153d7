"""A rule-of-thumb Biriba player: the rummy family's :class:`~kafenio.agents.heuristic_rummy.
RummyHeuristic` (draw, meld, discard policy) plus Biriba's own step: after a joker up-card it
names as **kozi** the suit it holds most of (biriba.md §2.2)."""

from __future__ import annotations

from kafenio.agents.heuristic_rummy import RummyHeuristic
from kafenio.rummy import actions as A


class HeuristicPlayer(RummyHeuristic):
    """Greedy melder and careful discarder; names the kozi after a joker up-card."""

    def setup_step(self, view, hand, legal) -> int:
        best = max(range(4), key=lambda s: sum(hand[s * 13:(s + 1) * 13]))
        return A.KOZI + best


__all__ = ["HeuristicPlayer"]
