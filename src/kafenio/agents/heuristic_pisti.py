"""A card-counting Pişti player that sees only its seat (``fishing-relatives.md`` Part A).

It is the Basra player (:mod:`kafenio.agents.heuristic_basra`) on the pile: it remembers every
card seen this deal, values what a play takes (cards, card points, the pişti) against what it
leaves the next player (the pişti on a lone card, a jack on a fat pile), so it plays for piştis
and keeps jacks for full piles. The face-down opening cards count in the pile's size. With the
bluff it never claims, and answers a claim by the odds that the claimant holds the lone card's
rank: challenging pays 2v or costs 2v, believing costs v, so it challenges below 3 in 4.

Unlike Basra's player, it weighs a pile by its size (:data:`CARD_WEIGHT`: a card captured is
worth far more than its share of the 3-point majority, since a fat pile left behind is what a
jack or a pişti takes next), values a jack kept in hand before the last deal
(:data:`JACK_KEPT`), and does not discount the threats when many ranks are unseen. The values
were chosen on duplicate deals against the former player (card weight 0.06, no jack kept, the
discount): ``docs/strength.md``, "The pile games' heuristic".
"""

from __future__ import annotations

from kafenio.agents import heuristic_basra
from kafenio.cards import CARD_OF, RANK
from kafenio.engine.game import Seat
from kafenio.fishing.captures import JACK
from kafenio.fishing.pile import BELIEVE, CHALLENGE

FILLER = 2  # 3S: stands for a face-down card (no points in any table, never a pile's top)

CARD_WEIGHT = {"pisti": 2.0, "xeri": 3.0}
"""Per pile game, points one captured card is worth beyond its own card points."""

JACK_KEPT = 2.0
"""Points a jack is worth kept in hand while the stock still holds cards."""


class HeuristicPlayer(heuristic_basra.HeuristicPlayer):
    """Greedy one-ply pile player with card counting and bluff answers."""

    crowd_discount = 0.0

    def _captured_card_weight(self, game) -> float:
        return CARD_WEIGHT[game.name]

    def _kept(self, card: int, view: dict) -> float:
        return JACK_KEPT if RANK[card] == JACK and view["stock"] else 0.0

    def _floor(self, view: dict) -> list[int]:
        return [FILLER] * view["pile_face_down"] + [CARD_OF[c] for c in view["floor"]]

    def _choose(self, seat: Seat, view: dict) -> int:
        if view.get("claim") is None:
            return super()._choose(seat, view)
        self._remember(view)
        lone = CARD_OF[view["floor"][-1]]
        unseen = self._unseen(view)
        matches = sum(1 for c in unseen if RANK[c] == RANK[lone])
        held = max(1, view["hand_sizes"][view["claim"]["seat"]] + 1)
        odds = min(1.0, matches * held / max(1, len(unseen)))
        return CHALLENGE if odds < 0.75 else BELIEVE


class ShareWeightedPlayer(HeuristicPlayer):
    """The pile player with Basra's player's weights (the pile games' heuristic before
    2026-11-27): a captured card worth its share of the majority bonus, no jack kept, each rank's
    threat discounted when more than six ranks are unseen. Xeri's expert imagines it at every
    seat of its playouts (:attr:`kafenio.agents.pimc.PIMCSettings.imagined`): with it the expert
    beats pimc by more than with :class:`HeuristicPlayer`, though this player loses to that one
    (``docs/strength.md``, "The pile games' expert and the player it imagines")."""

    crowd_discount = heuristic_basra.HeuristicPlayer.crowd_discount

    def _captured_card_weight(self, game) -> float:
        return heuristic_basra.HeuristicPlayer._captured_card_weight(self, game)

    def _kept(self, card: int, view: dict) -> float:
        return 0.0
