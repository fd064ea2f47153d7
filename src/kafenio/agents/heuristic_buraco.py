"""A rule-of-thumb Buraco player: the rummy family's :class:`~kafenio.agents.heuristic_rummy.
RummyHeuristic` (draw, meld, discard policy) plus what is Buraco's own (buraco.md):

* **going out needs a canastra** (§6): while its side has no clean canastra (under
  ``clean_canastra``), it never puts a wild on a 6-card meld — a dirty canastra would not let it
  go out — so its canastras grow clean first; with ``any_canastra`` it does;
* **the morto / pozzetto** (§5): the greedy melder empties its hand as soon as the engine lets
  it, which takes the side's pot in flight (or by the last discard);
* **cut** (§2, exact-cut bonus): aims at 22 with a hand's noise of ±2 cards;
* **first card** (§3 ``first_draw_may_reject``): rejects a first card that is neither a wild
  nor close to a pair or a run in its hand.
"""

from __future__ import annotations

from kafenio.agents.heuristic_rummy import RummyHeuristic
from kafenio.cards import parse_card
from kafenio.rummy import actions as A


class HeuristicPlayer(RummyHeuristic):
    """Greedy melder and careful discarder that keeps its canastras clean until it has one."""

    def setup_step(self, view, hand, legal) -> int:
        target = 2 * self.game.rules.pot_size + self.rng.randint(-2, 2)
        return A.CUT + target - 1

    def wild_to_big_ok(self, view, melds) -> bool:
        if self.game.rules.going_out_requirement != "clean_canastra":
            return True
        return any(m is not None and len(m.cards) >= 7 and m.clean for m in melds)

    def reject(self, view, hand) -> bool:
        last = view["last_action"]
        drawn = view["turn"].get("drawn_card")
        c = parse_card(drawn) if drawn else None
        return last == "draw" and c is not None and self.usefulness(hand, c) < 3


__all__ = ["HeuristicPlayer"]
