"""A Diloti player that sees only its seat (``fishing-relatives.md`` Part C).

It rebuilds the public table from its view (loose cards and declarations) with its own hand
and asks the engine for every legal move (:meth:`DeclarationState.moves`), then scores each:

* a capture: cards taken (towards the majority), card points, the xeri;
* a declaration, raise or group: the cards it locks up and will take with the card it keeps,
  discounted (an opponent may take or raise it first); raising or absorbing an opponent's
  declaration scores its cards too — this is how it **declares** and **defends**: an owner's
  choices are only capturing or adding to its own build, and it prefers adding while the
  opponents could steal the build with a raise;
* laying: a small cost for the points left and for a table the next player could clear.

It plays the card of the best move and, when the move must be chosen, takes that move.
"""

from __future__ import annotations

from kafenio.agents import Player
from kafenio.cards import parse_cards
from kafenio.engine.game import Seat
from kafenio.fishing.captures import VALUE
from kafenio.fishing.diloti_moves import Move, parse_table
from kafenio.fishing.state import CHOOSE, NUM_PLAY

MAJORITY_WEIGHT = 0.25
BUILD_DISCOUNT = 0.6


class HeuristicPlayer(Player):
    """Greedy one-ply Diloti player (see the module docstring)."""

    name = "heuristic"

    def _table(self, view: dict):
        game = self.game
        loose, decls = parse_table(" ".join(view["floor"] + [d["text"] for d in view["declarations"]]))
        hands = [[] for _s in range(game.num_players())]
        hands[view["seat"]] = parse_cards(view["hand"])
        if view["pending"]:
            hands[view["seat"]].append(parse_cards(view["pending"]["card"])[0])
        state = game.position(loose, hands, to_play=view["seat"], declarations=decls)
        state.cards_left = 2 + view["stock"] + sum(view["hand_sizes"])
        return state

    def _score(self, state, card: int, move) -> float:
        points = self.game.card_points
        cards = [state.floor[i] for i in move.loose] + [c for d in move.decls for c in state.decls[d].cards]
        gain = sum(points[c] for c in cards) + points[card] + MAJORITY_WEIGHT * (len(cards) + 1)
        if move.kind == "capture":
            left = len(state.floor) - len(move.loose) + len(state.decls) - len(move.decls)
            return gain + (self.game.xeri_points if left == 0 else 0) + 0.1
        if move.kind == "lay":
            small = sum(VALUE[c] for c in state.floor if VALUE[c]) + VALUE[card]
            return -points[card] - 0.3 * (small <= 10) - 0.05 * VALUE[card]
        return BUILD_DISCOUNT * gain

    def step(self, seat: Seat) -> int:
        view = seat.view()
        legal = seat.legal_actions()
        state = self._table(view)
        if view["pending"]:
            card = parse_cards(view["pending"]["card"])[0]
            state.apply_action(card)
            options = state.pending[1] if state.pending is not None else []
            scored = [(self._score(state, card, Move._make(options[a - CHOOSE])) + 0.001 * self.rng.random(), a)
                      for a in legal if CHOOSE <= a - 0 < CHOOSE + len(options)]
            return max(scored)[1] if scored else legal[0]
        best, choice = None, legal[0]
        for card in legal:
            if card >= NUM_PLAY:
                continue
            for move in state.moves(card):
                value = self._score(state, card, move) + 0.001 * self.rng.random()
                if best is None or value > best:
                    best, choice = value, card
        return choice
