"""A rule-of-thumb Biriba player: sees only its :class:`~kafenio.engine.game.Seat`.

Policy (biriba.md terms):

* **kozi** after a joker up-card: the suit it holds most of;
* **draw**: takes the discard pile when a pile card joins a meld it can make or lays off on its
  side's melds and the pile is not a big gift of junk (≤ 8 cards, or ≥ 2 useful cards);
* **melds**: lays off natural cards first, then starts melds with natural cards, extending a
  meld with naturals before closing it; wilds are added only to complete a meld or to turn a
  meld into a biriba (prefers clean biribas);
* **discard**: the least useful card — no pairs or near neighbours in hand — never a wild if
  avoidable, never a card that fits the next opponent side's melds when another choice
  exists; among equals the highest-valued card (fewer points left in hand).
"""

from __future__ import annotations

from kafenio.agents import Player
from kafenio.cards import NUM_TYPES, RANK, SUIT, SUITS, counts, parse_card, parse_cards, parse_meld_cards
from kafenio.engine.game import Seat
from kafenio.games.biriba import actions as A
from kafenio.rummy.melds import is_wild_type, layoff_candidates, startable, validate

VALUES = [15, 10, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10]


class HeuristicPlayer(Player):
    """Greedy melder and careful discarder (see the module docstring)."""

    name = "heuristic"

    def step(self, seat: Seat) -> int:
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = seat.view()
        hand = counts(parse_cards(view["hand"]))
        if legal[0] >= A.KOZI and legal[-1] <= A.KOZI_NONE:
            best = max(range(4), key=lambda s: sum(hand[s * 13:(s + 1) * 13]))
            return A.KOZI + best
        if A.DRAW in legal or A.TAKE in legal or A.PASS in legal:
            return self._draw(view, hand, legal)
        return self._play(view, hand, legal)

    def _own_melds(self, view):
        side = next(i for i, seats in enumerate(view["sides"]) if view["seat"] in seats)
        return side, [self._meld(m) for m in view["melds"][side]]

    def _meld(self, m):
        meld, _why = validate(parse_meld_cards(m["cards"]), self.game.meld_rules)
        return meld

    def _draw(self, view, hand, legal) -> int:
        if A.TAKE in legal:
            pile = parse_cards(view["discard_pile"])
            _side, melds = self._own_melds(view)
            fits = {c for m in melds for c in layoff_candidates(m, self.game.meld_rules)}
            with_pile = [a + b for a, b in zip(hand, counts(pile), strict=True)]
            now = set(startable(hand, self.game.meld_rules, lambda n: True))
            later = set(startable(with_pile, self.game.meld_rules, lambda n: True))
            useful = {c for c in pile if not is_wild_type(c) and (c in fits or (c in later and c not in now))}
            if useful and (len(pile) <= 8 or len(useful) >= 2):
                return A.TAKE
        return A.DRAW if A.DRAW in legal else (A.TAKE if A.TAKE in legal else A.PASS)

    def _play(self, view, hand, legal) -> int:
        adds = [a - A.MELD_ADD for a in legal if A.MELD_ADD <= a < A.DISCARD]
        discards = [a - A.DISCARD for a in legal if A.DISCARD <= a < A.LAYOFF]
        layoffs = [a for a in legal if a >= A.LAYOFF]
        building = view["turn"]["building"]
        natural_adds = [c for c in adds if not is_wild_type(c)]
        if building:
            if natural_adds:
                return A.MELD_ADD + self._best_add(natural_adds, building)
            if A.MELD_END in legal:
                return A.MELD_END
            return A.MELD_ADD + adds[0]
        good = [a for a in layoffs if not is_wild_type((a - A.LAYOFF) % NUM_TYPES)]
        if good:
            return good[0]
        biriba_wild = self._wild_to_biriba(view, layoffs)
        if biriba_wild is not None:
            return biriba_wild
        if natural_adds:
            return A.MELD_ADD + natural_adds[0]
        if A.RETRACT in legal and not discards:
            return A.RETRACT
        if discards:
            return A.DISCARD + self._discard(view, hand, discards)
        return legal[0]

    def _best_add(self, adds, building) -> int:
        first = parse_card(building[0])
        same_suit = [c for c in adds if SUIT[c] == SUIT[first]]
        return (same_suit or adds)[0]

    def _wild_to_biriba(self, view, layoffs):
        _side, melds = self._own_melds(view)
        for a in layoffs:
            k = ((a - A.LAYOFF) % (A.MAX_MELDS * NUM_TYPES)) // NUM_TYPES
            if k < len(melds) and len(melds[k].cards) == 6:
                return a
        return None

    def _discard(self, view, hand, options) -> int:
        danger = self._opponent_fits(view)
        pile_big = len(view["discard_pile"]) >= 6

        def cost(c: int) -> tuple:
            if is_wild_type(c):
                use = 50
            else:
                use = 3 * (sum(hand[SUIT[x] * 13 + RANK[c] - 1] for x in range(4)
                               if x * 13 + RANK[c] - 1 != c) + hand[c] - 1)
                use += sum(hand[SUIT[c] * 13 + r - 1] for r in range(max(1, RANK[c] - 2),
                                                                   min(13, RANK[c] + 2) + 1)
                           if r != RANK[c])
            risk = (10 if pile_big else 6) if c in danger else 0
            return (use + risk, -VALUES[RANK[c] - 1] if c < 52 else -20)

        return min(options, key=cost)

    def _opponent_fits(self, view) -> set[int]:
        n = view["num_players"]
        direction = -1 if self.game.rules.play_direction == "counterclockwise" else 1
        nxt = (view["seat"] + direction) % n
        side = next(i for i, seats in enumerate(view["sides"]) if nxt in seats)
        if view["seat"] in view["sides"][side]:
            return set()
        out: set[int] = set()
        for m in view["melds"][side]:
            meld = self._meld(m)
            if meld is not None:
                out.update(layoff_candidates(meld, self.game.meld_rules))
        return out


__all__ = ["SUITS", "HeuristicPlayer"]
