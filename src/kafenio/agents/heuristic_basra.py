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

A pending capture choice is settled the same way (most cards, then points).
"""

from __future__ import annotations

from kafenio.agents import Player
from kafenio.cards import RANK, parse_card, parse_cards
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
        self._seen.update(parse_cards(view["floor"]))
        if view["last_capture"]:
            self._seen.update(parse_cards([c for c in view["last_capture"]["cards"] if c != "??"]))
        if view["pending"]:
            self._seen.add(parse_card(view["pending"]["card"]))

    def observe(self, seat: Seat) -> None:
        """Remember what ``seat`` sees now (the floor, the last capture, a pending card) without
        choosing a move: how a player that joins a deal late catches up on its plays."""
        self._remember(seat.view())

    def recall(self, other: Player) -> None:
        """The cards ``other`` has seen this deal (floors, captures, pending cards: all public)."""
        self._seen = set(other._seen)
        self._deal_key = other._deal_key
        self._last_stock = other._last_stock

    def _outcomes(self, floor: list[int], card: int) -> list[tuple[tuple[int, ...], int]]:
        probe = self._probe
        if probe is None:
            probe = self._probe = self.game.position([], [[] for _s in range(self.game.num_players())], to_play=0)
        probe.floor = floor
        probe.cards_left = 2
        probe.lone_trail = None
        return probe.outcomes(card)

    def _gain(self, floor: list[int], card: int, option: tuple[int, ...], bonus: int) -> float:
        points = self.game.card_points
        taken = [floor[i] for i in option]
        return (bonus + sum(points[c] for c in taken) + points[card]
                + self._card_weight * (len(taken) + 1))

    def _threat(self, floor: list[int], unseen: list[int], next_hand: int) -> float:
        """Expected points the next player takes from ``floor`` with one of the unseen cards."""
        if not floor or not unseen:
            return 0.0
        by_rank: dict[int, list[int]] = {}
        for c in unseen:
            by_rank.setdefault(RANK[c], []).append(c)
        total = len(unseen)
        risk = 0.0
        for cards in by_rank.values():
            holds = min(1.0, len(cards) * next_hand / total)
            best = 0.0
            for c in cards[:2]:
                for option, bonus in self._outcomes(floor, c):
                    best = max(best, self._gain(floor, c, option, bonus))
            risk += holds * best / (1 + self.crowd_discount * (len(by_rank) > 6))
        return risk

    def step(self, seat: Seat) -> int:
        view = seat.view()
        self._remember(view)
        legal = seat.legal_actions()
        floor = self._floor(view)
        if view["pending"]:
            card = parse_card(view["pending"]["card"])
            options = self._outcomes(floor, card)
            scored = [(self._gain(floor, card, o, b) - self._threat(
                [c for i, c in enumerate(floor) if i not in o], self._unseen(view), 4), a)
                for (o, b), a in zip(options, legal, strict=True)]
            return max(scored)[1]
        unseen = self._unseen(view)
        nxt = (view["seat"] + self.game.direction) % view["num_players"]
        next_hand = view["hand_sizes"][nxt] or min(4, len(unseen))
        best, choice = None, legal[0]
        for card in legal:
            if card >= CHOOSE:
                continue
            outcomes = self._outcomes(floor, card)
            if outcomes:
                value = max(self._gain(floor, card, o, b) - self._threat(
                    [c for i, c in enumerate(floor) if i not in o], unseen, next_hand) for o, b in outcomes)
            else:
                value = -self._threat([*floor, card], unseen, next_hand) - 0.5 * self.game.card_points[card]
            value += 0.01 * self.rng.random() - self._kept(card, view)
            if best is None or value > best:
                best, choice = value, card
        return choice

    def _floor(self, view: dict) -> list[int]:
        """The floor as the capture rules see it (a pile game adds its face-down cards)."""
        return parse_cards(view["floor"])

    def _unseen(self, view: dict) -> list[int]:
        mine = set(parse_cards(view["hand"]))
        return [c for c in self.game.full_deck() if c not in self._seen and c not in mine]
