"""The Biriba deal as a state machine (biriba.md §2–§8, §10).

A turn is a sequence of atomic actions (:mod:`kafenio.games.biriba.actions`):

* ``kozi X`` — only after a joker up-card, by the first player (§2.2);
* ``draw`` | ``take`` | ``pass`` (§3, §7);
* any number of melds (``meld+ c`` … ``meld end``), lay-offs (``layoff k c``) and, during a
  provisional opening, ``retract``;
* ``discard c`` (ends the turn; may take the pot or close, §5, §6).

The legal actions never lead into a dead end: a meld under construction is only extended
by cards that still allow a legal meld from the rest of the hand under the "Emptying the
hand" rule (§3) and the pot and closing rules (§5, §6).

Engine decisions where the spec is silent (documented choices):

* **Opening minimum / whole-hand opening** (§4.6, §4.7): the melds a side lays in its opening
  turn are *provisional* until the requirement is met (then they are committed at once);
  ``retract`` puts them back in hand. Starting such an opening is only offered when a search
  finds a way to meet the requirement from the hand. A provisional opening may not empty the
  hand except the whole-hand opening itself.
* **use_any_pile_card** (§3): until a pile card is used, new melds must start with, and
  lay-offs must be, a card type that came from the pile (the same melds stay reachable);
  ``take`` is only offered when such a first step exists.
* A meld that becomes a biriba while emptying the hand counts for taking the pot (§5).
* The minimum of §4.7 uses the melding player's own match total (in the 3-player solo form
  the pair's players have separate totals).
* A meld under construction is public (shown in the view).
"""

from __future__ import annotations

import random
from typing import Any

from kafenio.cards import JOKER, NUM_TYPES, RANK, SUIT
from kafenio.games.biriba import actions as A
from kafenio.games.biriba.rulebook import INITIAL_MELD_TABLES
from kafenio.games.biriba.scoring import BIRIBA_LEN, side_sheet
from kafenio.rummy.melds import Meld, can_complete, layoff_options, run_layouts, startable, validate
from kafenio.rummy.search import find_opening

P_KOZI, P_DRAW, P_PLAY, P_END = 0, 1, 2, 3
PHASES = ("kozi", "draw", "play", "end")


class DealCore:
    """The deal's data and transitions (no legality checks: see :mod:`.legal`)."""

    def _setup(self, deck: list[int]) -> None:
        game = self.game
        r = game.rules
        self.rules = r
        self.mr = game.meld_rules
        self.values = game.card_values
        n = game.num_players
        self.n = n
        self.dir = game.direction
        first = (self.dealer + self.dir) % n
        order = [(first + self.dir * i) % n for i in range(n)]
        self.hands = [[0] * NUM_TYPES for _s in range(n)]
        pos = 0
        for _round in range(r.hand_size):
            for seat in order:
                self.hands[seat][deck[pos]] += 1
                pos += 1
        self.hand_size = [r.hand_size] * n
        self.pots = []
        for size in r.biribaki_sizes:
            self.pots.append(deck[pos:pos + size])
            pos += size
        up = deck[pos]
        self.stock = deck[pos + 1:][::-1]          # pop() takes the top card
        self.up_card = up
        self.pile: list[int] = []
        self.kozi_suit: int | None = None
        self.kozi_rank: int | None = None
        self.phase = P_DRAW
        if up == JOKER:
            self.hands[first][JOKER] += 1
            self.hand_size[first] += 1
            if r.kozi_mode != "none":
                self.phase = P_KOZI
        else:
            self.pile.append(up)
            if r.kozi_mode != "none":
                self.kozi_suit = SUIT[up]
                self.kozi_rank = RANK[up]
        self.solo_mode = r.partnership_mode == "solo_vs_pair"
        if r.partnership_mode == "teams_of_two":
            k = n // 2
            self.sides = [[s for s in range(n) if s % k == i] for i in range(k)]
        else:
            self.sides = [[s] for s in range(n)]
        self.side_of = [0] * n
        for i, seats in enumerate(self.sides):
            for s in seats:
                self.side_of[s] = i
        ns = len(self.sides)
        self.melds: list[list[Meld]] = [[] for _i in range(ns)]
        self.pot_taken = [False] * ns
        self.opened = [INITIAL_MELD_TABLES[r.initial_meld_table] == ()] * ns
        self.whole_hand_pending = bool(r.whole_hand_first_meld)
        self.solo: int | None = None
        self.known = [[0] * NUM_TYPES for _s in range(n)]
        self.unplayed = [False] * n
        self.unplayed_cards: list[list[int]] = [[] for _s in range(n)]
        self.current = first
        self.turns = 0
        self.passes = 0
        self.empty_turns = 0
        self.empty_phase = False
        self.last_turn = False
        self.closed_by: int | None = None
        self.last_action: int | None = None
        self._reset_turn()
        self.version = 0
        self._legal_cache: tuple[int, list[int]] | None = None
        if self.phase == P_DRAW:
            self._start_turn()

    def _reset_turn(self) -> None:
        self.building: list[int] = []
        self.pile_types: set[int] | None = None     # types taken with the pile, until one is used
        self.single_restricted = False
        self.provisional: tuple | None = None       # snapshot while an opening is provisional
        self.free_pot = False                       # whole-hand opener: pot without a biriba
        self.opening_cache: dict | None = None

    # -- turn flow -----------------------------------------------------------------------
    def _start_turn(self) -> None:
        seat = self.current
        self.unplayed[seat] = False
        self.unplayed_cards[seat] = []
        if not self.stock and self.pots and self.rules.untaken_biribaki_to_stock:
            self.stock = self.pots.pop(0)[::-1]
        if not self.stock:
            self.empty_phase = True
        self.phase = P_DRAW

    def _end_turn(self) -> None:
        self.turns += 1
        if self.empty_phase:
            self.empty_turns += 1
        r = self.rules
        if (self.last_turn or self.passes >= self.n or self.turns >= r.deal_turn_limit
                or (self.empty_phase and self.empty_turns >= r.stock_empty_turn_limit)):
            self.phase = P_END
            return
        self.current = (self.current + self.dir) % self.n
        self._reset_turn()
        self._start_turn()

    def _apply(self, action: int) -> None:
        self.version += 1
        self.last_action = action
        seat = self.current
        if action >= A.LAYOFF:
            self._do_layoff(seat, action)
        elif action >= A.DISCARD:
            self._do_discard(seat, action - A.DISCARD)
        elif action >= A.MELD_ADD:
            c = action - A.MELD_ADD
            self.hands[seat][c] -= 1
            self.hand_size[seat] -= 1
            self.building.append(c)
        elif action == A.DRAW:
            c = self.stock.pop()
            self.hands[seat][c] += 1
            self.hand_size[seat] += 1
            self.passes = 0
            if not self.stock and self.rules.stock_exhausted_rule == "end_after_last_card":
                self.last_turn = True
            self.phase = P_PLAY
        elif action == A.TAKE:
            self._do_take(seat)
        elif action == A.PASS:
            self.passes += 1
            self._end_turn()
        elif action in (A.MELD_END, A.MELD_END_HIGH):
            self._do_meld_end(seat, action == A.MELD_END_HIGH)
        elif action == A.RETRACT:
            self._do_retract(seat)
        else:
            if action != A.KOZI_NONE:
                self.kozi_suit = action - A.KOZI
            self._start_turn()

    def _do_take(self, seat: int) -> None:
        hand, known = self.hands[seat], self.known[seat]
        r = self.rules
        self.single_restricted = (r.single_card_pickup_restriction == "no_going_out"
                                  and self.hand_size[seat] == 1 and len(self.pile) == 1)
        for c in self.pile:
            hand[c] += 1
            known[c] += 1
        self.hand_size[seat] += len(self.pile)
        if r.discard_pickup_requirement == "use_any_pile_card":
            self.pile_types = set(self.pile)
        self.pile = []
        self.passes = 0
        self.phase = P_PLAY

    def _played(self, seat: int, c: int) -> None:
        """Bookkeeping after ``seat`` put card type ``c`` on the table or the pile."""
        known = self.known[seat]
        if known[c] > self.hands[seat][c]:
            known[c] = self.hands[seat][c]
        if self.pile_types is not None and c in self.pile_types:
            self.pile_types = None

    def _do_meld_end(self, seat: int, high: bool) -> None:
        meld = self.meld_choices()[1 if high else 0]
        side = self.side_of[seat]
        self._snapshot(seat)
        self.melds[side].append(meld)
        cards, self.building = self.building, []
        for c in cards:
            self._played(seat, c)
        self._after_table_change(seat)

    def _do_layoff(self, seat: int, action: int) -> None:
        high, rest = divmod(action - A.LAYOFF, A.MAX_MELDS * NUM_TYPES)
        k, c = divmod(rest, NUM_TYPES)
        side = self.side_of[seat]
        options = layoff_options(self.melds[side][k], c, self.mr)
        self._snapshot(seat)
        self.melds[side][k] = options[-1] if high else options[0]
        self.hands[seat][c] -= 1
        self.hand_size[seat] -= 1
        self._played(seat, c)
        self._after_table_change(seat)

    def _do_discard(self, seat: int, c: int) -> None:
        self.hands[seat][c] -= 1
        self.hand_size[seat] -= 1
        self.pile.append(c)
        self._played(seat, c)
        if self.hand_size[seat] == 0:
            side = self.side_of[seat]
            if self._pot_open(side):
                pot = self._take_pot(seat)
                self.unplayed[seat] = True
                self.unplayed_cards[seat] = pot
            else:
                self.closed_by = side
                self.phase = P_END
                return
        self._end_turn()

    def _take_pot(self, seat: int) -> list[int]:
        pot = self.pots.pop(0)
        hand = self.hands[seat]
        for c in pot:
            hand[c] += 1
        self.hand_size[seat] += len(pot)
        self.pot_taken[self.side_of[seat]] = True
        return pot

    # -- openings (§4.6, §4.7) ------------------------------------------------------------
    def opening_pending(self, seat: int) -> bool:
        """True while ``seat``'s side must still meet an opening requirement."""
        return self.whole_hand_pending or not self.opened[self.side_of[seat]]

    def opening_minimum(self, seat: int) -> int:
        """The §4.7 minimum for ``seat``'s side in this deal (0 when none)."""
        total = self.match_scores[self.game.side_of(seat)]
        minimum = 0
        for low, value in INITIAL_MELD_TABLES[self.rules.initial_meld_table]:
            if total >= low:
                minimum = value
        return minimum

    def _snapshot(self, seat: int) -> None:
        if self.provisional is None and self.opening_pending(seat):
            side = self.side_of[seat]
            back = self.hands[seat][:]
            for c in self.building:
                back[c] += 1
            self.provisional = (back, self.hand_size[seat] + len(self.building),
                                len(self.melds[side]), self.pile_types, self.known[seat][:])

    def provisional_points(self, seat: int) -> int:
        """Card points laid down in this turn's provisional opening."""
        if self.provisional is None:
            return 0
        return sum(self.values[c] * (n - self.hands[seat][c])
                   for c, n in enumerate(self.provisional[0]) if n)

    def _do_retract(self, seat: int) -> None:
        hand, size, n_melds, pile_types, known = self.provisional
        self.hands[seat] = hand[:]
        self.hand_size[seat] = size
        del self.melds[self.side_of[seat]][n_melds:]
        self.pile_types = pile_types
        self.known[seat] = known[:]
        self.provisional = None

    def _commit_opening(self, seat: int) -> None:
        side = self.side_of[seat]
        self.provisional = None
        if self.whole_hand_pending:
            self.whole_hand_pending = False
            self.free_pot = True
            if self.solo_mode:
                self._make_solo(seat)
                side = 0
        self.opened[side] = True

    def _make_solo(self, seat: int) -> None:
        self.solo = seat
        pair = [s for s in range(self.n) if s != seat]
        self.melds = [self.melds[self.side_of[seat]], []]
        self.sides = [[seat], pair]
        self.side_of = [0 if s == seat else 1 for s in range(self.n)]
        self.pot_taken = [False, False]
        self.opened = [True, INITIAL_MELD_TABLES[self.rules.initial_meld_table] == ()]

    def _after_table_change(self, seat: int) -> None:
        if self.provisional is not None:
            if self.whole_hand_pending:
                if self.hand_size[seat] <= 1:
                    self._commit_opening(seat)
            elif self.provisional_points(seat) >= self.opening_minimum(seat):
                self._commit_opening(seat)
        if self.hand_size[seat] == 0:
            side = self.side_of[seat]
            if self._pot_open(side):
                self._take_pot(seat)
            else:
                self.closed_by = side
                self.phase = P_END

    # -- qualification (§5, §6) -----------------------------------------------------------
    def has_biriba(self, side: int, clean: bool = False) -> bool:
        """The side owns a meld of 7+ cards (a clean one when ``clean``)."""
        return any(len(m.cards) >= BIRIBA_LEN and (m.clean or not clean) for m in self.melds[side])

    def _pot_open(self, side: int, biriba: bool | None = None) -> bool:
        """The side may take its pot now (with ``biriba`` overriding its biriba state)."""
        if self.pot_taken[side] or not self.pots:
            return False
        if self.free_pot or not self.rules.biriba_required_for_biribaki:
            return True
        return self.has_biriba(side) if biriba is None else biriba

    def _may_close(self, side: int, biriba: bool | None = None, clean: bool | None = None) -> bool:
        if not self.pot_taken[side] or self.single_restricted:
            return False
        if self.rules.closing_requirement == "clean_biriba":
            return self.has_biriba(side, True) if clean is None else clean
        return self.has_biriba(side) if biriba is None else biriba

    def hand_ok(self, seat: int, left: int, biriba: bool | None = None,
                clean: bool | None = None) -> bool:
        """"Emptying the hand" (§3): may ``seat`` be left with ``left`` cards after melding?

        ``biriba``/``clean`` give the side's biriba state after the play (None: as now).
        """
        if left >= 2:
            return True
        if self.whole_hand_pending:
            return True
        if self.provisional is not None or (self.opening_pending(seat)
                                            and self.opening_minimum(seat) > 0):
            return False
        side = self.side_of[seat]
        if self._pot_open(side, biriba):
            return True
        if not self._may_close(side, biriba, clean):
            return False
        return left == 1 or not self.rules.closing_requires_discard

    # -- melds ------------------------------------------------------------------------------
    def meld_choices(self) -> list[Meld]:
        """Readings of the meld under construction: ``[canonical]`` or ``[canonical, high]``."""
        cards = [(c, None) for c in self.building]
        meld, _why = validate(cards, self.mr)
        if meld is None:
            return []
        if not meld.is_run:
            return [meld]
        others = [m for m in run_layouts(cards, self.mr) if m.key() != meld.key()]
        if not others:
            return [meld]
        return [meld, max(others, key=lambda m: (m.hi, -len(m.wilds)))]

    def set_ranks_allowed(self, side: int) -> frozenset | None:
        """Ranks a new set of ``side`` may have (``allow_duplicate_set_ranks``)."""
        if self.rules.allow_duplicate_set_ranks:
            return None
        owned = {m.rank for m in self.melds[side] if not m.is_run}
        return self.mr.set_ranks - owned

    def opening_witness(self, seat: int) -> bool:
        """A way to meet the pending opening requirement from the hand exists (cached per turn)."""
        key = (self.hand_size[seat], self.pile_types is not None)
        if self.opening_cache is None or self.opening_cache.get("key") != key:
            hand = self.hands[seat]
            must = self.pile_types
            if self.whole_hand_pending:
                ok = find_opening(hand, self.mr, whole=True, must=must)
            else:
                ok = find_opening(hand, self.mr, minimum=self.opening_minimum(seat), must=must,
                                  values=self.values)
            self.opening_cache = {"key": key, "ok": ok}
        return self.opening_cache["ok"]

    def can_complete_building(self, chosen: list[int], seat: int) -> bool:
        """The meld under construction ``chosen`` can still become legal for ``seat``."""
        total = self.hand_size[seat] + len(self.building)
        side = self.side_of[seat]
        has = self.has_biriba(side)

        def size_ok(size: int) -> bool:
            return self.hand_ok(seat, total - size, has or size >= BIRIBA_LEN, None)

        return can_complete(chosen, self.hands[seat], self.mr, size_ok, self.set_ranks_allowed(side))

    def startable_types(self, seat: int, types: Any = range(NUM_TYPES)) -> list[int]:
        """Card types that may start a new meld now."""
        side = self.side_of[seat]
        total = self.hand_size[seat]
        has = self.has_biriba(side)

        def size_ok(size: int) -> bool:
            return self.hand_ok(seat, total - size, has or size >= BIRIBA_LEN, None)

        return startable(self.hands[seat], self.mr, size_ok, self.set_ranks_allowed(side), types)

    def deal_score_sheet(self) -> dict[str, Any]:
        """The itemised sheet per deal side (see :mod:`.scoring`)."""
        out = []
        for side, seats in enumerate(self.sides):
            hands = []
            unplayed: list[int] = []
            pot = "taken" if self.pot_taken[side] else "untaken"
            for s in seats:
                cards = [c for c in range(NUM_TYPES) for _i in range(self.hands[s][c])]
                if self.unplayed[s]:
                    pot = "unplayed"
                    unplayed = self.unplayed_cards[s]
                    for c in unplayed:
                        cards.remove(c)
                hands.append(cards)
            out.append(side_sheet(self.rules, side, seats, self.melds[side], hands, pot,
                                  self.closed_by == side, unplayed if pot == "unplayed" else (),
                                  self.kozi_suit, self.kozi_rank if self.kozi_suit is not None else None))
        return {"sides": out}


def shuffle_unknown(state: DealCore, seat: int, rng: random.Random) -> None:
    """Reshuffle in place the cards ``seat`` cannot see (other hands minus known cards, stock,
    pots), keeping every size (biriba.md: what a seat knows stays)."""
    pool: list[int] = []
    others = [s for s in range(state.n) if s != seat]
    for s in others:
        hand, known = state.hands[s], state.known[s]
        for c in range(NUM_TYPES):
            pool.extend([c] * (hand[c] - known[c]))
    pool.extend(state.stock)
    for pot in state.pots:
        pool.extend(pot)
    rng.shuffle(pool)
    pos = 0
    for s in others:
        known = state.known[s]
        hand = known[:]
        free = state.hand_size[s] - sum(known)
        for c in pool[pos:pos + free]:
            hand[c] += 1
        pos += free
        state.hands[s] = hand
    state.stock = pool[pos:pos + len(state.stock)]
    pos += len(state.stock)
    for i, pot in enumerate(state.pots):
        state.pots[i] = pool[pos:pos + len(pot)]
        pos += len(pot)
