"""A card-counting Basra player that sees only its seat (``basra.md``).

Each turn it scores every card in hand with the engine's own capture rules
(:meth:`kafenio.fishing.state.FishingState.outcomes` on the public floor):

* what the play takes now: cards (the majority), card points, the basra;
* what it leaves: for every rank still unseen (the count comes from the views it has
  seen this deal), the chance the next player holds one and what that card would then
  take — a basra left behind costs dearly, a floor a jack sweeps costs its card points;
* trailing a point card or a card whose rank is live is a small extra cost;
* what keeping the card is worth (:meth:`HeuristicPlayer._kept`: nothing in Basra; the pile
  games' player keeps its jacks, :mod:`kafenio.agents.heuristic_pisti`).

A pending capture choice is settled the same way (most cards, then points). The arithmetic
(gain, threat, the unseen cards) is :mod:`kafenio.agents.capture_value`, compiled.
"""

from __future__ import annotations

from kafenio.agents import Player
from kafenio.agents.capture_value import capture_gain, outcomes_on, play_value, rank_groups, threat, unseen_cards
from kafenio.cards import CARD_OF
from kafenio.engine.game import Seat
from kafenio.fishing.state import CHOOSE, FishingState

MAJORITY_WEIGHT = 0.6  # value of one captured card towards the majority bonus (per 30 points)


class HeuristicPlayer(Player):
    """Greedy one-ply Basra player with card counting (see the module docstring).

    Attributes:
        crowd_discount: with more than six ranks unseen, each rank's threat is divided by
            ``1 + crowd_discount``.
    """

    name = "heuristic"
    crowd_discount = 0.5

    def __init__(self, game, seed=None):
        super().__init__(game, seed)
        self._seen: set[int] = set()
        self._deal_key: tuple | None = None
        self._last_stock = 0
        self._probe: FishingState | None = None
        self._card_weight = self._captured_card_weight(game)

    def _captured_card_weight(self, game) -> float:
        """Points one captured card is worth beyond its own card points (Basra: its share of
        the majority bonus, :data:`MAJORITY_WEIGHT` per 30 points of the bonus)."""
        return MAJORITY_WEIGHT * game.rules.get("majority_points", 30) / 30

    def _kept(self, card: int, view: dict) -> float:
        """Points keeping ``card`` in hand for a later turn is worth (0: Basra plays every card
        for what it does now)."""
        return 0.0

    def _remember(self, view: dict) -> None:
        key = (view["dealer"], tuple(view["match_scores"]))
        if key != self._deal_key or view["stock"] > self._last_stock:
            self._deal_key = key
            self._seen = set()
        self._last_stock = view["stock"]
        self._seen.update(CARD_OF[c] for c in view["floor"])
        if view["last_capture"]:
            self._seen.update(CARD_OF[c] for c in view["last_capture"]["cards"] if c != "??")
        if view["pending"]:
            self._seen.add(CARD_OF[view["pending"]["card"]])

    def observe(self, seat: Seat) -> None:
        """Remember what ``seat`` sees now (the floor, the last capture, a pending card) without
        choosing a move: how a player that joins a deal late catches up on its plays."""
        self._remember(seat.view())

    def recall(self, other: Player) -> None:
        """The cards ``other`` has seen this deal (floors, captures, pending cards: all public)."""
        self._seen = set(other._seen)
        self._deal_key = other._deal_key
        self._last_stock = other._last_stock

    def _position(self) -> FishingState:
        """A position of the game whose floor :mod:`kafenio.agents.capture_value` replaces to ask
        the engine what a card takes."""
        if self._probe is None:
            self._probe = self.game.position([], [[] for _s in range(self.game.num_players())], to_play=0)
        return self._probe

    def step(self, seat: Seat) -> int:
        return self._choose(seat, seat.view())

    def _choose(self, seat: Seat, view: dict) -> int:
        """The move for ``seat`` on turn, whose view is ``view``."""
        self._remember(view)
        legal = seat.legal_actions()
        floor = self._floor(view)
        unseen = self._unseen(view)
        groups = rank_groups(unseen)
        divisor = 1 + self.crowd_discount * (len(groups) > 6)
        probe, points, weight = self._position(), self.game.card_points, self._card_weight
        if view["pending"]:
            card = CARD_OF[view["pending"]["card"]]
            options = outcomes_on(probe, floor, card)
            scored = [(capture_gain(points, weight, floor, card, o, b) - threat(
                probe, points, weight, [c for i, c in enumerate(floor) if i not in o], groups, len(unseen), 4,
                divisor), a) for (o, b), a in zip(options, legal, strict=True)]
            return max(scored)[1]
        nxt = (view["seat"] + self.game.direction) % view["num_players"]
        next_hand = view["hand_sizes"][nxt] or min(4, len(unseen))
        best, choice = None, legal[0]
        for card in legal:
            if card >= CHOOSE:
                continue
            value = play_value(probe, points, weight, floor, card, groups, len(unseen), next_hand, divisor)
            value += 0.01 * self.rng.random() - self._kept(card, view)
            if best is None or value > best:
                best, choice = value, card
        return choice

    def _floor(self, view: dict) -> list[int]:
        """The floor as the capture rules see it (a pile game adds its face-down cards)."""
        return [CARD_OF[c] for c in view["floor"]]

    def _unseen(self, view: dict) -> list[int]:
        return unseen_cards(self.game.full_deck(), self._seen, view["hand"])
