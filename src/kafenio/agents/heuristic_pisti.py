"""A card-counting Pişti player that sees only its seat (``fishing-relatives.md`` Part A).

It is the Basra player (:mod:`kafenio.agents.heuristic_basra`) on the pile: it remembers every
card seen this deal, values what a play takes (cards, card points, the pişti) against what it
leaves the next player (the pişti on a lone card, a jack on a fat pile), so it plays for piştis
and keeps jacks for full piles. The face-down opening cards count in the pile's size. With the
bluff it never claims, and answers a claim by the odds that the claimant holds the lone card's
rank: challenging pays 2v or costs 2v, believing costs v, so it challenges below 3 in 4.
"""

from __future__ import annotations

from kafenio.agents import heuristic_basra
from kafenio.cards import RANK, parse_cards
from kafenio.engine.game import Seat
from kafenio.fishing.pile import BELIEVE, CHALLENGE

FILLER = 2  # 3S: stands for a face-down card (no points in any table, never a pile's top)


class HeuristicPlayer(heuristic_basra.HeuristicPlayer):
    """Greedy one-ply pile player with card counting and bluff answers."""

    def _floor(self, view: dict) -> list[int]:
        return [FILLER] * view["pile_face_down"] + parse_cards(view["floor"])

    def step(self, seat: Seat) -> int:
        view = seat.view()
        if view.get("claim") is None:
            return super().step(seat)
        self._remember(view)
        lone = parse_cards(view["floor"])[-1]
        unseen = self._unseen(view)
        matches = sum(1 for c in unseen if RANK[c] == RANK[lone])
        held = max(1, view["hand_sizes"][view["claim"]["seat"]] + 1)
        odds = min(1.0, matches * held / max(1, len(unseen)))
        return CHALLENGE if odds < 0.75 else BELIEVE
