"""The rummy family's rule-of-thumb player, shared by Biriba and Buraco: sees only its
:class:`~kafenio.engine.game.Seat`.

Policy (``big`` = a biriba or canastra, 7+ cards):

* **draw**: takes the discard pile when a pile card joins a meld it can make or lays off on its
  side's melds and the pile is not a big gift of junk (≤ 8 cards, or ≥ 2 useful cards);
* **melds**: lays off natural cards first, then starts melds with natural cards, extending a
  meld with naturals before closing it; wilds are added only to complete a meld or to turn a
  6-card meld into a big one when :meth:`RummyHeuristic.wild_to_big_ok` allows it; a natural
  card whose lay-off would make a clean meld of 6 cards or more dirty (a natural 2 turned wild,
  biriba.md / buraco.md §4.5 move 3) is kept back; an opening it had to take back (``retract``)
  is not tried again in the same turn;
* **discard**: the least useful card — no pairs (where sets are allowed) or near neighbours in
  hand — never a wild if
  avoidable, never a card that fits the next opponent side's melds when another choice
  exists; among equals the highest-valued card (fewer points left in hand).

A game's player subclasses :class:`RummyHeuristic` for its set-up step and its own choices.
"""

from __future__ import annotations

from typing import Any

from kafenio.agents import Player
from kafenio.cards import NUM_TYPES, RANK, SUIT, counts, parse_card, parse_cards, parse_meld_cards
from kafenio.engine.game import Seat
from kafenio.rummy import actions as A
from kafenio.rummy.melds import Meld, is_wild_type, layoff_candidates, layoff_options, startable, validate


class RummyHeuristic(Player):
    """Greedy melder and careful discarder (see the module docstring)."""

    name = "heuristic"
    #: the deal turn in which this player took back its opening (no new attempt in that turn)
    retracted_turn: tuple[int, int] | None = None

    def step(self, seat: Seat) -> int:
        legal = seat.legal_actions()
        if legal == [A.RETRACT]:
            view = seat.view()
            self.retracted_turn = (view["dealer"], view["turns"])
        if len(legal) == 1:
            return legal[0]
        view = seat.view()
        hand = counts(parse_cards(view["hand"]))
        if view["phase"] not in ("draw", "play"):
            return self.setup_step(view, hand, legal)
        if A.DRAW in legal or A.TAKE in legal or A.PASS in legal:
            return self._draw(view, hand, legal)
        return self._play(view, hand, legal)

    def setup_step(self, view: dict[str, Any], hand: list[int], legal: list[int]) -> int:
        """The game's set-up step (Biriba's kozi, Buraco's cut)."""
        return legal[0]

    def wild_to_big_ok(self, view: dict[str, Any], melds: list[Meld]) -> bool:
        """Whether a wild may make a 6-card meld big (and dirty)."""
        return True

    def own_melds(self, view: dict[str, Any]) -> tuple[int, list[Meld]]:
        """The own side's index and melds (rebuilt from the view)."""
        side = next(i for i, seats in enumerate(view["sides"]) if view["seat"] in seats)
        return side, [self._meld(m) for m in view["melds"][side]]

    def _meld(self, m: dict[str, Any]) -> Meld:
        meld, _why = validate(parse_meld_cards(m["cards"]), self.game.meld_rules)
        return meld

    def _draw(self, view, hand, legal) -> int:
        if A.TAKE in legal:
            pile = parse_cards(view["discard_pile"])
            _side, melds = self.own_melds(view)
            fits = {c for m in melds for c in layoff_candidates(m, self.game.meld_rules)}
            with_pile = [a + b for a, b in zip(hand, counts(pile), strict=True)]
            now = set(startable(hand, self.game.meld_rules, lambda n: True))
            later = set(startable(with_pile, self.game.meld_rules, lambda n: True))
            useful = {c for c in pile if not is_wild_type(c) and (c in fits or (c in later and c not in now))}
            if useful and (len(pile) <= 8 or len(useful) >= 2):
                return A.TAKE
        return A.DRAW if A.DRAW in legal else (A.TAKE if A.TAKE in legal else A.PASS)

    def _play(self, view, hand, legal) -> int:
        this_turn = (view["dealer"], view["turns"])
        adds = [a - A.MELD_ADD for a in legal if A.MELD_ADD <= a < A.DISCARD]
        discards = [a - A.DISCARD for a in legal if A.DISCARD <= a < A.LAYOFF]
        layoffs = [a for a in legal if A.LAYOFF <= a < A.BIRIBA_ACTIONS]
        building = view["turn"]["building"]
        natural_adds = [c for c in adds if not is_wild_type(c)]
        if building:
            if natural_adds:
                return A.MELD_ADD + self._best_add(natural_adds, building)
            if A.MELD_END in legal:
                return A.MELD_END
            return A.MELD_ADD + adds[0]
        if A.REJECT in legal and self.reject(view, hand):
            return A.REJECT
        good = [a for a in layoffs if not is_wild_type(A.action_card(a)) and not self._dirties(view, a)]
        if good:
            return good[0]
        big_wild = self._wild_to_big(view, layoffs)
        if big_wild is not None:
            return big_wild
        if natural_adds and self.retracted_turn != this_turn:
            return A.MELD_ADD + natural_adds[0]
        if A.RETRACT in legal and not discards:
            self.retracted_turn = this_turn
            return A.RETRACT
        if discards:
            return A.DISCARD + self._discard(view, hand, discards)
        return next(a for a in legal if a != A.REJECT)

    def reject(self, view: dict[str, Any], hand: list[int]) -> bool:
        """Whether to turn the first card drawn face up (Buraco ``first_draw_may_reject``)."""
        return False

    def _best_add(self, adds, building) -> int:
        first = parse_card(building[0])
        same_suit = [c for c in adds if SUIT[c] == SUIT[first]]
        return (same_suit or adds)[0]

    def _dirties(self, view, action: int) -> bool:
        """The lay-off ``action`` turns a clean meld of 6 cards or more dirty (§4.5 move 3)."""
        k, c, high = A.layoff_parts(action)
        _side, melds = self.own_melds(view)
        if k >= len(melds) or not melds[k].clean or len(melds[k].cards) < self.game.turn_rules.big - 1:
            return False
        options = layoff_options(melds[k], c, self.game.meld_rules)
        return bool(options) and not options[-1 if high else 0].clean

    def _wild_to_big(self, view, layoffs):
        _side, melds = self.own_melds(view)
        if not self.wild_to_big_ok(view, melds):
            return None
        for a in layoffs:
            k, _c, _high = A.layoff_parts(a)
            if k < len(melds) and len(melds[k].cards) == 6:
                return a
        return None

    def usefulness(self, hand: list[int], c: int) -> int:
        """How much ``c`` helps the rest of ``hand`` (pairs where sets are allowed, same-suit
        neighbours; wilds 50). Under runs only (``allow_sets`` false, Buraco aberto and STBL,
        buraco.md §4.3) a card of the same rank in another suit is no help, and a duplicate
        helps only as a second run."""
        if is_wild_type(c):
            return 50
        use = hand[c] - 1
        if self.game.meld_rules.allow_sets and RANK[c] in self.game.meld_rules.set_ranks:
            use = 3 * (sum(hand[x * 13 + RANK[c] - 1] for x in range(4)
                           if x * 13 + RANK[c] - 1 != c) + hand[c] - 1)
        use += sum(hand[SUIT[c] * 13 + r - 1] for r in range(max(1, RANK[c] - 2),
                                                           min(13, RANK[c] + 2) + 1) if r != RANK[c])
        return use

    def _discard(self, view, hand, options) -> int:
        danger = self._opponent_fits(view)
        pile_big = view.get("discard_pile_size", len(view["discard_pile"])) >= 6
        values = self.game.card_values

        def cost(c: int) -> tuple:
            risk = (10 if pile_big else 6) if c in danger else 0
            return (self.usefulness(hand, c) + risk, -values[c])

        return min(options, key=cost)

    def _opponent_fits(self, view) -> set[int]:
        n = view["num_players"]
        nxt = (view["seat"] + self.game.direction) % n
        side = next(i for i, seats in enumerate(view["sides"]) if nxt in seats)
        if view["seat"] in view["sides"][side]:
            return set()
        out: set[int] = set()
        for m in view["melds"][side]:
            meld = self._meld(m)
            if meld is not None:
                out.update(layoff_candidates(meld, self.game.meld_rules))
        return out


__all__ = ["NUM_TYPES", "RummyHeuristic"]
