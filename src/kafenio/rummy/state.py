"""The rummy deal as a state machine, shared by Biriba and Buraco (biriba.md §2–§8, buraco.md §2–§8).

A turn is a sequence of atomic actions (:mod:`kafenio.rummy.actions`):

* a game's set-up step, if any: ``kozi X`` (Biriba, after a joker up-card) or ``cut n`` (Buraco
  with the exact-cut bonus: the player to the dealer's right states the cut size);
* ``draw`` | ``take`` | ``pass`` (``pass`` only in Biriba's stock-exhausted round); on the first
  turn of a Buraco deal with ``first_draw_may_reject``, ``reject`` right after ``draw``;
* any number of melds (``meld+ c`` … ``meld end``), lay-offs (``layoff k c``) and, during a
  provisional opening, ``retract``;
* ``discard c`` (ends the turn; may take the pot or go out).

The legal actions never lead into a dead end: a meld under construction is only extended
by cards that still allow a legal meld from the rest of the hand under the "Emptying the
hand" rule (both specs §3), the pot and going-out rules (§5, §6) and the rules on the final
discard (Buraco: ``final_discard_may_be_wild``, ``single_card_pile_not_rediscardable``).

What differs between the games is data (:class:`TurnRules`, built by each game from its
rules) and a few hooks of :class:`RummyState` (the deal procedure, the set-up step, meld
bonuses, score sheet, view and observation extras).

Engine decisions where the specs are silent (documented choices):

* **Opening minimum / whole-hand opening** (biriba.md §4.6–4.7, buraco.md §4.6): the melds a side
  lays in its opening turn are *provisional* until the requirement is met (then they are
  committed at once); ``retract`` puts them back in hand. Buraco with
  ``initial_meld_failure_increment``: a retract is a failed attempt, the side's minimum rises at
  once, and the player makes no second attempt in that turn; a pile requirement (§3) lapses with
  it, so the turn ends with a discard. Starting such an opening is only offered
  when a search finds a way to meet the requirement from the hand. A provisional opening may not
  empty the hand except the whole-hand opening itself.
* **Pile requirements** (``use_any_pile_card``, ``use_top_card``): until a required card is used,
  new melds must start with, and lay-offs must be, a card type that came from the pile (the
  same melds stay reachable); with ``must_meld_this_turn`` any meld or lay-off satisfies it.
  No discard before that; ``take`` is only offered when such a first step exists.
* **Single-card pile** (``TurnRules.rediscard_ban``, both specs §3): with ``same_card`` cards
  of one type are indistinguishable, so a card of the taken type may be discarded while the
  hand holds two or more of that type, and once one of that type went onto the table (it was
  the copy taken) the ban ends. With ``same_or_identical`` no card of that type may be the
  discard, so a meld or lay-off must leave a card that may be (counting conservatively, as if
  the banned cards all stayed in hand, while the meld under construction is open). A pick-up
  after which no legal action remains is not offered.
* A meld that becomes a biriba/canastra while emptying the hand counts for taking the pot or
  going out.
* The opening minimum uses the melding player's own match total (plus an exact-cut bonus
  scored in this deal).
* A meld under construction is public (shown in the view).

**Compiled** (issue #7): this package's modules are compiled with mypyc when kafenio is
installed, under the rules of :mod:`kafenio.fishing.state` ("Compiled"); the games' packages
stay plain (a compiled package ``__init__`` gets a wrong ``__path__``), so ``BiribaState`` and
``BuracoState`` are interpreted subclasses of the native :class:`RummyState`. Three more
consequences: :meth:`RummyState.clone` gives such a copy its own ``__dict__`` (mypyc's copy
shares the original's); frozen dataclasses (:class:`TurnRules`, ``MeldRules``) pickle by their
fields (``fields_reduce``); the shared rule-set memo pickles as a ``RulesMemo`` that reloads it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import mul as _mul
from typing import Any, ClassVar, Self, cast

import numpy as np
from mypy_extensions import mypyc_attr

from kafenio.cards import JOKER, NUM_TYPES, format_card, format_cards
from kafenio.engine.errors import IllegalAction
from kafenio.engine.game import TERMINAL, State, own_abc_caches
from kafenio.engine.shuffle import shuffle
from kafenio.i18n import _
from kafenio.rummy import actions as A
from kafenio.rummy import observation
from kafenio.rummy.melds import (
    LANE_BITS,
    TWO,
    Meld,
    can_complete,
    canonical_run,
    end_choices,
    fields_reduce,
    is_wild_type,
    lanes_of,
    layoff_lanes,
    layoff_options,
    memo_of,
    run_layouts,
    set_layout,
    startable,
    three_card_lanes,
    validate,
)
from kafenio.rummy.scoring import unplayed_points
from kafenio.rummy.search import find_opening

P_SETUP, P_DRAW, P_PLAY, P_END = 0, 1, 2, 3


@dataclass(frozen=True)
class TurnRules:
    """What the shared turn machine needs from a game's rules (data only).

    Attributes:
        spec: the rules file quoted by errors (``"biriba.md"``).
        sections: topic → section (``turn``, ``melds``, ``layoff``, ``opening``, ``pot``,
            ``close``, ``stock``, ``setup``).
        big: cards of a biriba / canastra (7).
        pot_needs_big: a side needs a biriba to take its pot (biriba.md §5; Buraco: false).
        close_needs_clean: going out needs a clean biriba/canastra (else any).
        close_requires_discard: the hand must be emptied by a discard to go out.
        final_discard_may_be_wild: a wild may be the going-out discard (buraco.md §6).
        pickup: ``none``, ``use_any_pile_card``, ``use_top_card``, ``use_top_card_with_pile``
            or ``must_meld_this_turn``.
        wild_top_new_meld_only: with a ``use_top_card*`` pick-up, a wild top card must start a
            new meld; it may not be laid off (buraco.md §3 ``wild_top_card_new_meld_only``).
        single_pickup: Biriba's one-card pick-up restriction (``no_going_out``, ``forbidden``,
            ``none``).
        one_card_hand_no_pickup: a player holding one card may not take the pile (Buraco).
        rediscard_ban: after taking a one-card pile, which card may not be the turn's discard
            (biriba.md §3 ``single_card_pile_rediscard_ban``, buraco.md §3
            ``single_card_pile_not_rediscardable``): ``same_or_identical`` (that card and any
            card identical to it), ``same_card`` (only the physical card taken) or ``none``.
        stock_rule: ``pass_round``, ``end_after_last_card`` (Biriba), ``end_when_empty`` or
            ``end_at_threshold`` (Buraco).
        pot_to_stock: an untaken pot becomes the stock when the stock is empty.
        stock_end_threshold: with ``end_at_threshold``.
        stock_empty_turn_limit: with ``pass_round``, turns with an empty stock after which the
            deal ends (engine safeguard; None: no limit, biriba.md §7).
        deal_turn_limit: the deal ends after this many turns (engine safeguard).
        opening_bands: ascending ``(from score, minimum)`` bands of the opening minimum.
        opening_increment: the minimum's rise after a retracted (failed) opening.
        whole_hand_first_meld: biriba.md §4.6.
        first_draw_may_reject: buraco.md §3.
        stalemate: ``none``, ``end_deal`` or ``force_draw`` (buraco.md §3 ``stalemate_rule``).
        pot_face_down: a pot taken by discarding stays face down, its owner's too, until the
            owner's partner has finished a turn, or the owner's next turn without a partner
            (buraco.md §5).
        solo_sides: the deal starts with every player alone; the first to take a pot
            (biriba.md §10.3/§10.4: by the whole-hand opening; buraco.md §5 ``italian_3p``)
            plays alone against the others in pairs of players who do not sit side by side
            (:meth:`RummyState.make_solo`).
    """

    spec: str
    sections: Mapping[str, str]
    big: int = 7
    pot_needs_big: bool = True
    close_needs_clean: bool = False
    close_requires_discard: bool = True
    final_discard_may_be_wild: bool = True
    pickup: str = "none"
    wild_top_new_meld_only: bool = False
    single_pickup: str = "none"
    one_card_hand_no_pickup: bool = False
    rediscard_ban: str = "none"
    stock_rule: str = "pass_round"
    pot_to_stock: bool = False
    stock_end_threshold: int = 0
    stock_empty_turn_limit: int | None = None
    deal_turn_limit: int = 1000
    opening_bands: tuple = ()
    opening_increment: int = 0
    whole_hand_first_meld: bool = False
    first_draw_may_reject: bool = False
    stalemate: str = "none"
    pot_face_down: bool = False
    solo_sides: bool = False

    def rule(self, topic: str) -> str:
        """``"buraco.md §5"`` for a topic."""
        return f"{self.spec} {self.sections[topic]}"

    def __reduce__(self) -> tuple[type, tuple]:
        return fields_reduce(self)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class RummyState(State):
    """One rummy deal; a game subclasses it and fills the hooks marked *hook*.

    Public attributes (tests and referees read them): ``hands`` (per seat, counts per card
    type), ``hand_size``, ``stock`` (``pop()`` is the top), ``pile`` (bottom → top), ``pots``
    (untaken, next first), ``melds`` (per deal side), ``sides``, ``side_of``, ``pot_taken``,
    ``known`` (per seat, cards known to be in that hand), ``building``, ``phase``, ``current``.
    """

    #: the view's name for a meld of ``big`` cards (``biriba``, ``canastra``)
    big_name: ClassVar[str] = "big"

    def __init__(self, game, deck: list[int], dealer: int, match_scores: list[float]):
        State.__init__(self, game, deck, dealer, match_scores)
        self._setup(deck)

    # -- hooks ------------------------------------------------------------------------------
    def _deal(self, deck: list[int], order: list[int]) -> None:
        """*hook*: fill ``hands``, ``pots``, ``stock``, ``pile``, ``up_card`` from the deck and
        set ``phase`` (``P_SETUP`` when a set-up step comes first)."""
        raise NotImplementedError

    def setup_actions(self) -> list[int]:
        """*hook*: the legal actions of the set-up step."""
        return []

    def setup_problem(self, action: int) -> str:
        """*hook*: why a set-up action is not legal now."""
        return _("finish the set-up step of the deal first")

    def _apply_setup(self, action: int) -> None:
        """*hook*: apply a set-up action (then call :meth:`_start_turn`)."""
        raise NotImplementedError

    def meld_bonus(self, meld: Meld) -> tuple[int, str]:
        """*hook*: the bonus of a meld on the table and why."""
        raise NotImplementedError

    def _side_sheet(self, side: int, seats: list[int], hands: list[list[int]], pot: str,
                    unplayed: Sequence[int]) -> dict[str, Any]:
        """*hook*: one side's itemised deal score."""
        raise NotImplementedError

    def _view_extra(self, seat: int | None, out: dict[str, Any]) -> None:
        """*hook*: add the game's own view keys."""

    def unplayed_at_values(self) -> bool:
        """*hook*: an unplayed pot (taken by discarding, the deal over before its owner's next
        turn) counts at its cards' values; else a flat 100 (biriba.md §8.3, buraco.md §8)."""
        raise NotImplementedError

    def _obs_tail(self) -> list[float]:
        """*hook*: the game's own observation features (after the shared ones)."""
        return []

    # -- set-up -----------------------------------------------------------------------------
    def _setup(self, deck: list[int]) -> None:
        game: Any = self.game      # a rummy game (BiribaGame, BuracoGame)
        self.rules = game.rules
        self.tr: TurnRules = game.turn_rules
        self.mr = game.meld_rules
        self.values = game.card_values
        n = game.num_players()
        self.n = n
        self.dir = game.direction
        first = (self.dealer + self.dir) % n
        self.current = first
        self.hands = [[0] * NUM_TYPES for _s in range(n)]
        self.pots: list[list[int]] = []
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.up_card: int | None = None
        self.phase = P_DRAW
        self.sides = game.deal_sides()
        self.side_of = [0] * n
        for i, seats in enumerate(self.sides):
            for s in seats:
                self.side_of[s] = i
        ns = len(self.sides)
        self.melds: list[list[Meld]] = [[] for _i in range(ns)]
        self.pot_taken = [False] * ns
        self.opened = [not self.tr.opening_bands] * ns
        self.min_raise = [0] * ns
        self.cut_points = [0] * ns
        self.whole_hand_pending = self.tr.whole_hand_first_meld
        self.known = [[0] * NUM_TYPES for _s in range(n)]
        self.unplayed = [False] * n
        self.unplayed_cards: list[list[int]] = [[] for _s in range(n)]
        #: per seat: holds a pot taken by discarding that is still face down (buraco.md §5)
        self.pot_face_down = [False] * n
        self.swap_turns = 0                         # consecutive swap turns (buraco.md §3)
        self.turns = 0
        self.passes = 0
        self.empty_turns = 0
        self.empty_phase = False
        self.last_turn = False
        self.closed_by: int | None = None
        self.solo: int | None = None
        self.last_action: int | None = None
        self.reject_open = False
        self.drawn: int | None = None
        self._reset_turn()
        self.version = 0
        self._legal_cache: tuple[int, list[int]] | None = None
        self.memo = memo_of(self.mr)
        #: the observation's memos (:mod:`~kafenio.rummy.observation`), shared with clones
        self._obs_images: observation.ObservationImages | None = None
        self._meld_memo: list[tuple[list[Meld], bytes]] | None = None
        self.facts: dict[int, SideFacts] = {}
        #: per seat: (a copy of the hand's counts, their points)
        self.hand_points: list[tuple[list[int], int]] = [([], 0)] * n
        self.side_rest: dict[int, tuple] = {}          # per side: (inputs, total without hands)
        self._deal(deck, [(first + self.dir * i) % n for i in range(n)])
        self.hand_size = [sum(h) for h in self.hands]
        if self.phase == P_DRAW:
            self._start_turn()

    def _reset_turn(self) -> None:
        self.building: list[int] = []
        self.building_known: list[int] = []         # building cards that were known in hand
        self.must_use: set[int] | None = None       # card types of which one must be used
        self.must_play = False                      # a meld or lay-off is due before discarding
        self.no_discard: int | None = None          # the one-card pile's card (both specs §3)
        self.new_meld_only = False                  # the pile's wild top card must start a meld
        self.swap = False                           # this turn took a one-card pile, melds nothing
        self.single_restricted = False
        #: snapshot while an opening is provisional: the hand, its size, the side's meld count,
        #: ``must_use``, ``must_play``, the known cards
        self.provisional: tuple[list[int], int, int, set[int] | None, bool, list[int]] | None = None
        self.free_pot = False                       # whole-hand opener: pot without a biriba
        self.opening_cache: dict | None = None
        self.attempt_failed = False                 # a retracted opening with a cost this turn

    # -- turn flow -----------------------------------------------------------------------
    def _start_turn(self) -> None:
        tr = self.tr
        if not self.stock and self.pots and tr.pot_to_stock:
            self.stock = self.pots.pop(0)[::-1]
        if (tr.stock_rule == "end_at_threshold" and len(self.stock) <= tr.stock_end_threshold) or (
                tr.stock_rule == "end_when_empty" and not self.stock):
            self.phase = P_END
            return
        seat = self.current
        self.unplayed[seat] = False
        self.unplayed_cards[seat] = []
        self.pot_face_down[seat] = False
        if not self.stock:
            self.empty_phase = True
        self.phase = P_DRAW

    def _end_turn(self) -> None:
        self.turns += 1
        if self.empty_phase:
            self.empty_turns += 1
        tr = self.tr
        seat = self.current
        for s in self.sides[self.side_of[seat]]:     # the partner has played (buraco.md §5)
            if s != seat:
                self.pot_face_down[s] = False
        self.swap_turns = self.swap_turns + 1 if self.swap else 0
        limit = tr.stock_empty_turn_limit
        if (self.last_turn or self.passes >= self.n or self.turns >= tr.deal_turn_limit
                or (tr.stalemate == "end_deal" and self.swap_turns >= self.n)
                or (self.empty_phase and tr.stock_rule == "pass_round" and limit is not None
                    and self.empty_turns >= limit)):
            self.phase = P_END
            return
        self.current = (self.current + self.dir) % self.n
        self._reset_turn()
        self._start_turn()

    def _apply(self, action: int) -> None:
        self.version += 1
        self.last_action = action
        seat = self.current
        self.reject_open = False
        if action >= A.BIRIBA_ACTIONS:
            if action == A.REJECT:
                self._do_reject(seat)
            else:
                self._apply_setup(action)
        elif action >= A.LAYOFF:
            self._do_layoff(seat, action)
        elif action >= A.DISCARD:
            self._do_discard(seat, action - A.DISCARD)
        elif action >= A.MELD_ADD:
            c = action - A.MELD_ADD
            self.hands[seat][c] -= 1
            self.hand_size[seat] -= 1
            self.building.append(c)
            known = self.known[seat]
            if known[c] > self.hands[seat][c]:
                known[c] -= 1
                self.building_known.append(c)
        elif action == A.DRAW:
            c = self.stock.pop()
            self.hands[seat][c] += 1
            self.hand_size[seat] += 1
            self.passes = 0
            if not self.stock and self.tr.stock_rule == "end_after_last_card":
                self.last_turn = True
            if self.tr.first_draw_may_reject and self.turns == 0 and self.drawn is None:
                self.reject_open = True
            self.drawn = c
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
            self._apply_setup(action)

    def _do_reject(self, seat: int) -> None:
        """buraco.md §3 ``first_draw_may_reject``: the drawn card starts the pile; draw the next."""
        hand = self.hands[seat]
        drawn = self.drawn
        assert drawn is not None        # offered right after the draw
        hand[drawn] -= 1
        self.pile.append(drawn)
        c = self.stock.pop()
        hand[c] += 1
        self.drawn = c

    def _do_take(self, seat: int) -> None:
        hand, known = self.hands[seat], self.known[seat]
        tr = self.tr
        self.single_restricted = (tr.single_pickup == "no_going_out"
                                  and self.hand_size[seat] == 1 and len(self.pile) == 1)
        if tr.rediscard_ban != "none" and len(self.pile) == 1:
            self.no_discard = self.pile[0]
        self.swap = len(self.pile) == 1
        top = self.pile[-1]
        for c in self.pile:
            hand[c] += 1
            known[c] += 1
        self.hand_size[seat] += len(self.pile)
        if tr.pickup != "none":
            self.must_play = True
            if tr.pickup == "use_any_pile_card":
                self.must_use = set(self.pile)
            elif tr.pickup in ("use_top_card", "use_top_card_with_pile"):
                self.must_use = {top}
                self.new_meld_only = tr.wild_top_new_meld_only and is_wild_type(top)
        self.pile = []
        self.passes = 0
        self.phase = P_PLAY

    def _used(self, cards: Sequence[int]) -> None:
        """A meld or lay-off of ``cards`` satisfies a pending pile requirement and makes this
        turn no swap turn (buraco.md §3); with the ``same_card`` rediscard ban a card of the
        taken type going onto the table is the one taken (the player lays off that copy and
        keeps the other), so the ban ends."""
        self.swap = False
        if self.no_discard in cards and self.tr.rediscard_ban == "same_card" and self.provisional is None:
            self.no_discard = None
        if self.must_play and (self.must_use is None or not self.must_use.isdisjoint(cards)):
            self.must_play = False
            self.must_use = None

    def _forget(self, seat: int, c: int) -> None:
        known = self.known[seat]
        if known[c] > self.hands[seat][c]:
            known[c] = self.hands[seat][c]

    def _do_meld_end(self, seat: int, high: bool) -> None:
        meld = self.meld_choices()[1 if high else 0].copy()     # the memo's own gathers no caches
        side = self.side_of[seat]
        self._snapshot(seat)
        self.melds[side].append(meld)
        cards, self.building, self.building_known = self.building, [], []
        self._used(cards)
        self._after_table_change(seat)

    def _do_layoff(self, seat: int, action: int) -> None:
        k, c, high = A.layoff_parts(action)
        side = self.side_of[seat]
        options = layoff_options(self.melds[side][k], c, self.mr)
        self._snapshot(seat)
        self.melds[side][k] = options[-1] if high else options[0]
        self.hands[seat][c] -= 1
        self.hand_size[seat] -= 1
        self._forget(seat, c)
        self._used((c,))
        self._after_table_change(seat)

    def _do_discard(self, seat: int, c: int) -> None:
        self.hands[seat][c] -= 1
        self.hand_size[seat] -= 1
        self.pile.append(c)
        self._forget(seat, c)
        if self.hand_size[seat] == 0:
            side = self.side_of[seat]
            if self._pot_open(side):
                pot = self._take_pot(seat)
                self.unplayed[seat] = True
                self.unplayed_cards[seat] = pot
                self.pot_face_down[seat] = self.tr.pot_face_down
            else:
                self.closed_by = side
                self.phase = P_END
                return
        self._end_turn()

    def _take_pot(self, seat: int) -> list[int]:
        """``seat`` takes the next pot (§5); in a solo form the first pot taken makes its taker
        the solo (biriba.md §10.3, §10.4: the whole-hand opener; buraco.md §5: the first to
        empty their hand)."""
        if self.tr.solo_sides and self.solo is None:
            self.make_solo(seat)
        pot = self.pots.pop(0)
        hand = self.hands[seat]
        for c in pot:
            hand[c] += 1
        self.hand_size[seat] += len(pot)
        self.pot_taken[self.side_of[seat]] = True
        return pot

    # -- openings -------------------------------------------------------------------------
    def opening_pending(self, seat: int) -> bool:
        """True while ``seat``'s side must still meet an opening requirement."""
        return self.whole_hand_pending or not self.opened[self.side_of[seat]]

    def opening_minimum(self, seat: int) -> int:
        """The opening minimum for ``seat``'s side in this deal (0 when none): the band of its
        match total (with an exact-cut bonus of this deal) plus the rises after failed attempts."""
        side = self.side_of[seat]
        total = self.match_scores[self.game.side_of(seat)] + self.cut_points[side]
        minimum = 0
        for low, value in self.tr.opening_bands:
            if total >= low:
                minimum = value
        return minimum + self.min_raise[side]

    def _snapshot(self, seat: int) -> None:
        if self.provisional is None and self.opening_pending(seat):
            side = self.side_of[seat]
            back = self.hands[seat][:]
            known = self.known[seat][:]
            for c in self.building:
                back[c] += 1
            for c in self.building_known:
                known[c] += 1
            self.provisional = (back, self.hand_size[seat] + len(self.building),
                                len(self.melds[side]), self.must_use, self.must_play, known)

    def provisional_points(self, seat: int) -> int:
        """Card points laid down in this turn's provisional opening."""
        if self.provisional is None:
            return 0
        return sum(self.values[c] * (n - self.hands[seat][c])
                   for c, n in enumerate(self.provisional[0]) if n)

    def _do_retract(self, seat: int) -> None:
        assert self.provisional is not None     # offered only during a provisional opening
        hand, size, n_melds, must_use, must_play, known = self.provisional
        side = self.side_of[seat]
        self.hands[seat] = hand[:]
        self.hand_size[seat] = size
        del self.melds[side][n_melds:]
        self.must_use, self.must_play = must_use, must_play
        self.known[seat] = known[:]
        self.provisional = None
        if self.tr.opening_increment:
            self.min_raise[side] += self.tr.opening_increment
            self.attempt_failed = True
            self.must_play, self.must_use = False, None

    def _commit_opening(self, seat: int) -> None:
        side = self.side_of[seat]
        self.provisional = None
        if self.whole_hand_pending:
            self.whole_hand_pending = False
            self.free_pot = True
        self.opened[side] = True

    # -- a solo against pairs (biriba.md §10.3, §10.4; buraco.md §5 three players) ------------
    def make_solo(self, seat: int) -> None:
        """``seat`` plays alone for the rest of the deal; the others form pairs of players who
        do not sit side by side: ``{s+1, s+3}`` and ``{s+2, s+4}`` with five players, the other
        two with three (biriba.md §10.4, §10.3). The solo's side is side 0 and keeps its melds;
        each pair's melds on the table are joined (buraco.md §5: the two become partners at
        once) and it shares one pot. The pots already taken stay taken; a pair keeps its
        players' exact-cut points (added) and opening-minimum rises (the higher)."""
        n = self.n
        self.solo = seat
        others = [(seat + i) % n for i in range(1, n)]
        half = len(others) // 2
        pairs = [sorted(others[i::half]) for i in range(half)]
        old_side = self.side_of
        melds = [self.melds[old_side[seat]]]
        taken = [self.pot_taken[old_side[seat]]]
        opened = [self.opened[old_side[seat]]]
        cuts = [self.cut_points[old_side[seat]]]
        rises = [self.min_raise[old_side[seat]]]
        for pair in pairs:
            melds.append([m for s in pair for m in self.melds[old_side[s]]])
            taken.append(any(self.pot_taken[old_side[s]] for s in pair))
            opened.append(all(self.opened[old_side[s]] for s in pair))
            cuts.append(sum(self.cut_points[old_side[s]] for s in pair))
            rises.append(max(self.min_raise[old_side[s]] for s in pair))
        self.sides = [[seat], *pairs]
        self.side_of = [0] * n
        for i, side in enumerate(self.sides):
            for s in side:
                self.side_of[s] = i
        self.melds = melds
        self.pot_taken = taken
        self.opened = opened
        self.min_raise = rises
        self.cut_points = cuts
        self.facts = {}
        self.side_rest = {}

    def solo_scores(self, totals: Sequence[float]) -> list[float]:
        """Per player, from the deal sides' totals: each player of a side is credited the
        side's total divided by its players (the solo all of it, each partner of a pair half;
        ``half_score_rounding = exact``, biriba.md §10.3, §10.4; buraco.md §5)."""
        return [totals[self.side_of[s]] / len(self.sides[self.side_of[s]]) for s in range(self.n)]

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

    # -- qualification (pot §5, going out §6) ------------------------------------------------
    def has_big(self, side: int, clean: bool = False) -> bool:
        """The side owns a biriba / canastra (7+ cards; a clean one when ``clean``)."""
        facts = self.side_facts(side)
        return facts.clean_big if clean else facts.big

    def side_facts(self, side: int) -> SideFacts:
        """What the legal actions read about ``side``'s melds, recomputed when they change."""
        melds = self.melds[side]
        facts = self.facts.get(side)
        if facts is None or facts.melds != melds:
            facts = self.facts[side] = SideFacts(melds, self, facts)
        return facts

    def _pot_open(self, side: int, big: bool | None = None) -> bool:
        """The side may take its pot now (with ``big`` overriding its biriba/canastra state)."""
        if self.pot_taken[side] or not self.pots:
            return False
        if self.free_pot or not self.tr.pot_needs_big:
            return True
        return self.has_big(side) if big is None else big

    def _may_close(self, side: int, big: bool | None = None, clean: bool | None = None) -> bool:
        if not self.pot_taken[side] or self.single_restricted:
            return False
        if self.tr.close_needs_clean:
            return self.has_big(side, True) if clean is None else clean
        return self.has_big(side) if big is None else big

    def discard_ok(self, seat: int, c: int) -> bool:
        """A card of type ``c`` may be discarded under the rediscard ban (both specs §3):
        ``same_or_identical`` bans every card of the taken type, ``same_card`` only the copy
        taken (so another copy held may go)."""
        if c != self.no_discard:
            return True
        return self.tr.rediscard_ban == "same_card" and self.hands[seat][c] >= 2

    def banned_held(self, seat: int) -> int:
        """Cards of ``seat``'s hand (not the meld under construction, which goes onto the
        table) that the ``same_or_identical`` ban keeps from being discarded this turn (0 under
        the other values, which never keep a hand of two cards or more from discarding one)."""
        no = self.no_discard
        if no is None or self.tr.rediscard_ban != "same_or_identical":
            return 0
        return self.hands[seat][no]

    def last_card_restricted(self, seat: int, closes: bool = True) -> bool:
        """Whether the identity of ``seat``'s last card could matter for discarding it
        (buraco.md §3 one-card pile, §6 ``final_discard_may_be_wild``)."""
        hand = self.hands[seat]
        if self.no_discard is not None and hand[self.no_discard]:
            return True
        return closes and not self.tr.final_discard_may_be_wild and bool(
            hand[JOKER] or hand[1] or hand[14] or hand[27] or hand[40])     # a joker or a 2

    def hand_ok(self, seat: int, left: int, big: bool | None = None, clean: bool | None = None,
                last: int = -1, banned: int = -1) -> bool:
        """"Emptying the hand" (§3): may ``seat`` be left with ``left`` cards after melding?

        ``big``/``clean`` give the side's biriba/canastra state after the play (None: as now);
        ``last`` is the card left when ``left == 1`` (−1: unknown — then a hand whose last card
        matters is refused; callers check those cases exactly). ``banned`` is how many of the
        ``left`` cards the rediscard ban keeps (§3; −1: :meth:`banned_held`, at most): two or
        more cards left need one that may be discarded.
        """
        if left >= 2:
            return left > (self.banned_held(seat) if banned < 0 else banned)
        if self.whole_hand_pending:
            return True
        if self.provisional is not None or (self.opening_pending(seat)
                                            and self.opening_minimum(seat) > 0):
            return False
        side = self.side_of[seat]
        if self._pot_open(side, big):
            return self._last_ok(seat, left, last, False)
        if not self._may_close(side, big, clean):
            return False
        if left == 0:
            return not self.tr.close_requires_discard
        return self._last_ok(seat, left, last, True)

    def _last_ok(self, seat: int, left: int, last: int, closes: bool) -> bool:
        if left == 0:
            return True
        if last < 0:
            return not self.last_card_restricted(seat, closes)
        wild_rule = closes and not self.tr.final_discard_may_be_wild
        return last != self.no_discard and not (wild_rule and is_wild_type(last))

    # -- melds ------------------------------------------------------------------------------
    def meld_choices(self) -> list[Meld]:
        """Readings of the meld under construction: ``[canonical]`` or ``[canonical, high]``."""
        memo = self.memo
        key = ("choices", *self.building)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _meld_choices(self.building, self.mr)
        return found

    def set_ranks_allowed(self, side: int) -> frozenset | None:
        """Ranks a new set of ``side`` may have (``allow_duplicate_set_ranks``; None: any)."""
        return self.side_facts(side).set_ranks

    def opening_witness(self, seat: int) -> bool:
        """A way to meet the pending opening requirement from the hand exists (cached per turn)."""
        key = (self.hand_size[seat], self.must_play, self.min_raise[self.side_of[seat]])
        if self.opening_cache is None or self.opening_cache.get("key") != key:
            hand = self.hands[seat]
            must = self.must_use
            if self.whole_hand_pending:
                ok = find_opening(hand, self.mr, whole=True, must=must)
            else:
                ok = find_opening(hand, self.mr, minimum=self.opening_minimum(seat), must=must,
                                  values=self.values)
            self.opening_cache = {"key": key, "ok": ok}
        return self.opening_cache["ok"]

    def _size_ok(self, seat: int, total: int) -> Callable[[int], bool]:
        side = self.side_of[seat]
        has = self.has_big(side)
        big = self.tr.big

        def size_ok(size: int) -> bool:
            return self.hand_ok(seat, total - size, has or size >= big, None)

        return size_ok

    def can_complete_building(self, chosen: list[int], seat: int) -> bool:
        """The meld under construction ``chosen`` can still become legal for ``seat``."""
        total = self.hand_size[seat] + len(self.building)
        side = self.side_of[seat]
        if can_complete(chosen, self.hands[seat], self.mr, self._size_ok(seat, total),
                        self.set_ranks_allowed(side)):
            return True
        return bool(self._last_card_melds(seat, chosen))

    def startable_lanes(self, seat: int, hb: bytes, held: int) -> int:
        """The card types that may start a new meld now, as a lane set (see
        :func:`~kafenio.rummy.melds.three_card_lanes`); ``hb`` is ``bytes`` of the hand,
        ``held`` its lane set."""
        allowed = self.set_ranks_allowed(self.side_of[seat])
        mr = self.mr
        size = self.hand_size[seat]
        # a 3-card meld from five cards or more leaves two: "emptying the hand" allows it (§3)
        # unless the rediscard ban keeps them all
        fine = size >= 5 and size - 3 > self.banned_held(seat)
        if mr.max_wilds <= 1 and (fine or self._size_ok(seat, size)(3)):
            found = three_card_lanes(hb, held, mr, mr.set_ranks if allowed is None else allowed, self.memo)
        else:   # a meld holds at most the hand: no size of one allowed, no meld starts
            size_ok = self._size_ok(seat, size)
            found = lanes_of(startable(self.hands[seat], mr, size_ok, allowed)) if any(
                size_ok(n) for n in range(3, size + 1)) else 0
        for meld in self._last_card_melds(seat, []):
            found |= lanes_of(meld)
        return found

    def _last_card_melds(self, seat: int, chosen: list[int]) -> list[list[int]]:
        """Melds (card lists, ``chosen`` first) that leave exactly one card which may then be
        discarded — the cases :meth:`hand_ok` cannot judge without the card (buraco.md §3, §6)."""
        size = self.hand_size[seat] - 1 + len(chosen)     # of such a meld
        if (size > self.mr.max_run_len or size < 3 or not self.last_card_restricted(seat)
                or not self._one_left_possible(seat)):
            return []
        hand = self.hands[seat]
        if not _one_meld_possible(chosen, hand):
            return []
        side = self.side_of[seat]
        has, has_clean = self.has_big(side), self.has_big(side, True)
        allowed = self.set_ranks_allowed(side)
        held = [c for c in range(NUM_TYPES) for _i in range(hand[c])]
        out = []
        for r in {c for c in held}:
            cards = list(chosen) + held
            cards.remove(r)
            meld, _why = validate([(c, None) for c in cards], self.mr)
            if meld is None or (not meld.is_run and allowed is not None and meld.rank not in allowed):
                continue
            big = len(cards) >= self.tr.big
            if self.hand_ok(seat, 1, has or big, has_clean or (big and meld.clean), last=r):
                out.append(cards)
        return out

    def _one_left_possible(self, seat: int) -> bool:
        """Whether any play could leave ``seat`` one card to discard (the side's pot or going out)."""
        if self.whole_hand_pending:
            return True
        if self.provisional is not None or (self.opening_pending(seat) and self.opening_minimum(seat) > 0):
            return False
        side = self.side_of[seat]
        return self._pot_open(side, True) or self._may_close(side, True, True)

    def deal_score_sheet(self) -> dict[str, Any]:
        """The itemised sheet per deal side (``{"sides": [...]}``)."""
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
            out.append(self._side_sheet(side, list(seats), hands, pot,
                                        unplayed if pot == "unplayed" else ()))
        return {"sides": out}

    # -- contract ------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == P_END else self.current

    def legal_actions(self) -> list[int]:
        cache = self._legal_cache
        if cache is not None and cache[0] == self.version:
            return cache[1]
        legal = _legal.legal_actions(self)
        self._legal_cache = (self.version, legal)
        return legal

    def explain_illegal(self, action: int) -> IllegalAction:
        return _legal.explain_illegal(self, action)

    def is_terminal(self) -> bool:
        return self.phase == P_END

    def deal_side(self, seat: int) -> int:
        return self.side_of[seat]

    def side_scores(self) -> list[float]:
        """Per match side: each deal side's total (with ``solo_sides``, per player:
        :meth:`solo_scores`)."""
        if self.tr.solo_sides:
            return self.solo_scores(self.deal_totals())
        return cast("list[float]", self.deal_totals())

    def deal_totals(self) -> list[int]:
        """Each deal side's total, as :meth:`deal_score_sheet` itemises it (without building
        the sheet: this runs after every step of a learning environment).

        A total is the side's hand points plus a part that does not read the hands
        (:meth:`_side_total`); each is kept with what it was computed from — a hand's points
        with the hand's counts, the rest with the side's melds (the same objects: a meld never
        changes), the bonus rules' key, the pot state, who closed and the exact-cut points — and
        recomputed only when that changed, so the result is the plain sum's."""
        values = self.values
        hands = self.hands
        seen = self.hand_points
        rest = self.side_rest
        bonus = self._bonus_key()
        out = []
        for side, seats in enumerate(self.sides):
            pot = "taken" if self.pot_taken[side] else "untaken"
            unplayed: Sequence[int] = ()
            hand_points = 0
            for s in seats:
                counts = hands[s]
                known = seen[s]
                if known[0] != counts:
                    known = seen[s] = (counts[:], sum(map(_mul, values, counts)))
                hand_points += known[1]
                if self.unplayed[s]:
                    pot = "unplayed"
                    unplayed = self.unplayed_cards[s]
                    hand_points -= sum(values[c] for c in unplayed)
            key = (bonus, self.closed_by, pot, tuple(unplayed), self.cut_points[side], tuple(self.melds[side]))
            kept = rest.get(side)
            if kept is None or kept[0] != key:
                kept = rest[side] = (key, self._side_total(side, 0, pot, unplayed))
            out.append(kept[1] - hand_points)
        return out

    def _meld_points(self, meld: Meld) -> tuple[int, int]:
        """``(card points, bonus)`` of a meld on the table (cached on the meld per bonus rules)."""
        key = self._bonus_key()
        cached = meld.score
        if cached is not None and cached[0] == key:
            return cached[1]
        values = self.values
        points = (sum(values[c] for c in meld.cards), self.meld_bonus(meld)[0])
        meld.score = (key, points)
        return points

    def _bonus_key(self) -> Any:
        """*hook*: what :meth:`meld_bonus` depends on besides the meld (the game by default)."""
        return self.game

    def _side_total(self, side: int, hand_points: int, pot: str, unplayed: Sequence[int]) -> int:
        """*hook*: the total of :meth:`_side_sheet` from the side's (negative) hand points: those
        plus a part that reads neither the hands nor anything but the side's melds,
        :meth:`_bonus_key`, ``pot``, ``unplayed``, ``closed_by`` and ``cut_points`` (what
        :meth:`deal_totals` keeps it with)."""
        raise NotImplementedError

    def score_sheet(self) -> dict[str, Any]:
        """Itemised per deal side: ``{"sides": [{"side", "seats", "melds", "bonuses", "closing",
        "hands", "pot", "pot_points", …, "total"}, …]}`` (the games' §8)."""
        return self.deal_score_sheet()

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return A.to_string(action)

    def string_to_action(self, text: str) -> int:
        return A.from_string(text, self.game.num_distinct_actions(), self.game.name)

    def clone(self) -> Self:
        new = copy.copy(self)  # every attribute, also those of a compiled class (not in __dict__)
        own = getattr(self, "__dict__", None)
        if own is not None:    # compiled, copy.copy hands a Python subclass's copy the same dict
            new.__dict__ = dict(own)
        new.hands = [h[:] for h in self.hands]
        new.known = [h[:] for h in self.known]
        new.hand_size = self.hand_size[:]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.pots = self.pots[:]
        new.pot_taken = self.pot_taken[:]
        new.opened = self.opened[:]
        new.unplayed = self.unplayed[:]
        new.unplayed_cards = self.unplayed_cards[:]
        new.pot_face_down = self.pot_face_down[:]
        new.side_of = self.side_of[:]
        new.building = self.building[:]
        new.building_known = self.building_known[:]
        new.history = self.history[:]
        new.min_raise = self.min_raise[:]
        new.cut_points = self.cut_points[:]
        new.melds = [m[:] for m in self.melds]
        new.facts = self.facts.copy()
        new.hand_points = self.hand_points[:]
        new.side_rest = self.side_rest.copy()
        new.sides = [s[:] for s in self.sides]
        if self.must_use is not None:
            new.must_use = set(self.must_use)
        return new

    def resample_from_infostate(self, seat: int, rng: random.Random) -> RummyState:
        """A determinization: only the cards ``seat`` cannot know move (other hands minus the
        cards known from pile pick-ups, the stock, the pots). Its ``serialize()`` is not a
        replayable record (the deck it would need is not reconstructed)."""
        new = self.clone()
        shuffle_unknown(new, seat, rng)
        new.version += 1
        return new

    # -- views -----------------------------------------------------------------------------
    def _meld_view(self, meld: Meld) -> dict[str, Any]:
        bonus, _why = self.meld_bonus(meld)
        return {"cards": meld.notation(), "kind": meld.kind, "clean": meld.clean,
                self.big_name: len(meld.cards) >= self.tr.big, "bonus": bonus}

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator); keys in ``docs/views-rummy.md``.

        A pot taken by discarding stays face down until the owner's partner has played
        (buraco.md §5, README §8): its cards are left out of the owner's ``hand`` and
        ``pots.face_down`` gives its size per seat. Once the deal is over every seat's hand
        is laid face up to be counted (README §8): ``leftover`` (:meth:`leftover_hands`)."""
        hand = [] if seat is None else format_cards(self.visible_hand(seat)).split()
        cur = self.current
        out = {
            "game": self.game.name, "seat": seat, "num_players": self.n, "dealer": self.dealer,
            "current_player": self.current_player(), "phase": self.phase_name(),
            "match_scores": list(self.match_scores), "sides": [list(s) for s in self.sides],
            "solo": self.solo,
            "hand": hand, "hand_sizes": list(self.hand_size), "stock": len(self.stock),
            "discard_pile": [format_card(c) for c in self.pile],
            "melds": [[self._meld_view(m) for m in ms] for ms in self.melds],
            "pots": {"left": [len(p) for p in self.pots], "taken": list(self.pot_taken),
                     "face_down": [len(self.unplayed_cards[s]) if self.pot_face_down[s] else 0
                                   for s in range(self.n)]},
            "pot_taken": list(self.pot_taken),
            "known_cards": [format_cards(c for c in range(NUM_TYPES) for _i in range(k[c])).split()
                            for k in self.known],
            "turn": {"drawn": self.phase == P_PLAY,
                     "building": [format_card(c) for c in self.building],
                     "provisional_points": self.provisional_points(cur),
                     "opening_minimum": self.opening_minimum(cur),
                     "opening_pending": self.opening_pending(cur),
                     "pile_card_to_use": self.must_play and self.must_use is not None,
                     "must_meld": self.must_play,
                     "no_discard": None if self.no_discard is None else format_card(self.no_discard),
                     "may_reject": self.reject_open,
                     "drawn_card": format_card(self.drawn) if self.reject_open and seat == cur
                     and self.drawn is not None else None},
            "turns": self.turns,
            "last_action": None if self.last_action is None else A.to_string(self.last_action),
            "terminal": self.is_terminal(),
        }
        self._view_extra(seat, out)
        if self.is_terminal():
            out["deal_scores"] = self.side_scores()
            out["score_sheet"] = self.score_sheet()
            out["leftover"] = self.leftover_hands()
        return out

    def leftover_hands(self) -> list[dict[str, Any]]:
        """Every seat's cards once the deal is over, as they are laid face up to be counted
        against the side (README §8: what is face up; ``docs/views-rummy.md``).

        Returns:
            Per seat ``{"cards": [...], "points": p, "unplayed_pot": None or {"size": n,
            "cards": [...] or None, "points": q}}``: the hand in notation, sorted, without an
            unplayed pot, and its card points as charged (≤ 0); an unplayed pot's cards only
            where they count at their values (``cards`` None under the flat 100), its charge
            ``q`` the sheet's ``pot_points``. An untaken pot counts for nothing and stays hidden
            (biriba.md §8.1, buraco.md §8)."""
        values = self.values
        at_values = self.unplayed_at_values()
        out = []
        for s in range(self.n):
            cards = [c for c in range(NUM_TYPES) for _i in range(self.hands[s][c])]
            pot = None
            if self.unplayed[s]:
                unplayed = self.unplayed_cards[s]
                for c in unplayed:
                    cards.remove(c)
                pot = {"size": len(unplayed), "cards": format_cards(sorted(unplayed)).split() if at_values else None,
                       "points": unplayed_points(values, unplayed, not at_values)}
            out.append({"cards": format_cards(cards).split(), "points": -sum(values[c] for c in cards),
                        "unplayed_pot": pot})
        return out

    def visible_hand(self, seat: int) -> list[int]:
        """The card types ``seat`` holds and may look at, sorted: its hand without a pot that is
        still face down (buraco.md §5)."""
        cards = [c for c in range(NUM_TYPES) for _i in range(self.hands[seat][c])]
        if self.pot_face_down[seat]:
            for c in self.unplayed_cards[seat]:
                cards.remove(c)
        return cards

    def phase_name(self) -> str:
        """``setup`` names of the games (``kozi``, ``cut``), ``draw``, ``play``, ``end``."""
        return ("setup", "draw", "play", "end")[self.phase]

    # the observations live in :mod:`kafenio.rummy.observation`; these methods call them
    def observation_tensor(self, seat: int) -> np.ndarray:
        """:func:`observation.observation_tensor`."""
        return observation.observation_tensor(self, seat)

    def write_observation(self, seat: int, out: np.ndarray) -> None:
        """:func:`observation.write_observation`."""
        observation.write_observation(self, seat, out)

    def information_state_string(self, seat: int) -> str:
        """:func:`observation.information_state_string`."""
        return observation.information_state_string(self, seat)


@mypyc_attr(serializable=True)
class SideFacts:
    """What the legal actions read about one side's melds (:meth:`RummyState.side_facts`).

    Attributes:
        melds: a copy of the meld list they were computed from (compared to notice a change).
        lows: lanes ``53·k + t`` of the lay-offs ``layoff k t`` the melds accept (§4.5; see
            :func:`~kafenio.rummy.melds.layoff_lanes`).
        highs: the same for ``layoff k t high`` (a choice of end).
        set_ranks: ranks a new set may have (None: any; ``allow_duplicate_set_ranks``, §4.3);
            2 stands for the set of 2s (``twos_set_allowed``, :func:`~kafenio.rummy.melds.twos_set_open`).
        big / clean_big: the side owns a biriba / canastra (a clean one; §5, §6).
    """

    __slots__ = ("big", "clean_big", "highs", "lows", "melds", "set_ranks")

    def __init__(self, melds: list[Meld], st: RummyState, old: SideFacts | None = None):
        """``old``: the side's previous facts; the lanes of the melds still at their index are
        kept (one lay-off or new meld changes one meld; fewer melds than before: all recomputed)."""
        mr = st.mr
        size = st.tr.big
        self.melds = melds[:]
        before = old.melds if old is not None and len(old.melds) <= len(melds) else []
        lows, highs = (old.lows, old.highs) if old is not None and before else (0, 0)
        big = clean_big = False
        for k, meld in enumerate(melds):       # meld k in bytes 53·k …
            if k >= len(before) or meld is not before[k]:
                one, two = layoff_lanes(meld, mr)
                if k < len(before):
                    was_one, was_two = layoff_lanes(before[k], mr)
                    one -= was_one
                    two -= was_two
                lows += one << LANE_BITS * k
                highs += two << LANE_BITS * k
            if len(meld.cards) >= size:
                big = True
                clean_big = clean_big or not meld.wilds
        self.lows: int = lows
        self.highs: int = highs
        self.big: bool = big
        self.clean_big: bool = clean_big
        ranks = mr.set_ranks | {TWO} if mr.twos_set_allowed else mr.set_ranks
        self.set_ranks: frozenset[int] | None = None if st.rules.allow_duplicate_set_ranks else (
            ranks - {m.rank for m in melds if not m.is_run})


_ONE_SUIT = (1 << 13 * 8) - 1      # the byte lanes of one suit's counts (A…K)


def _one_meld_possible(chosen: list[int], hand: list[int]) -> bool:
    """A necessary condition for ``chosen`` and the hand (counts) minus one card to be a meld:
    their natural cards (neither joker nor 2) are of one suit, of one rank, or none (but one)."""
    counts = hand[:]
    for c in chosen:
        counts[c] += 1
    hb = bytes(counts)
    suits = [sum(hb[base:base + 13]) - hb[base + 1] for base in (0, 13, 26, 39)]
    n = sum(suits)
    if n - max(suits) <= 1:
        return True
    v = int.from_bytes(hb, "little")
    ranks = ((v + (v >> 104) + (v >> 208) + (v >> 312)) & _ONE_SUIT).to_bytes(13, "little")
    return n - max(ranks[0], *ranks[2:]) <= 1


def _meld_choices(building: list[int], mr) -> list[Meld]:
    """:meth:`RummyState.meld_choices` computed (the readings :func:`validate` picks from)."""
    if len(building) < 3:
        return []
    cards = [(c, None) for c in building]
    runs = run_layouts(cards, mr)
    if not runs:
        meld, _why = set_layout(cards, mr)
        return [] if meld is None else [meld]
    meld = canonical_run(runs, building)
    others = [m for m in end_choices([meld, *runs], mr)[1:] if m.key() != meld.key()]
    if not others:
        return [meld]
    return [meld, max(others, key=lambda m: (m.hi, -len(m.wilds)))]


def _one_hot(i: int | None, n: int) -> list[float]:
    out = [0.0] * n
    if i is not None:
        out[i] = 1.0
    return out


def one_hot(i: int | None, n: int) -> list[float]:
    """A one-hot list of length ``n`` (all zeros for ``None``)."""
    return _one_hot(i, n)


def shuffle_unknown(state: RummyState, seat: int, rng: random.Random) -> None:
    """Reshuffle in place the cards ``seat`` cannot see (other hands minus known cards, stock,
    pots), keeping every size (what a seat knows stays); the outcome depends only on ``rng``
    and what ``seat`` knows. A seat holding the pot it has not played yet holds the new
    cards as that pot."""
    pool: list[int] = []
    others = [s for s in range(state.n) if s != seat]
    for s in others:
        hand, known = state.hands[s], state.known[s]
        for c in range(NUM_TYPES):
            pool.extend([c] * (hand[c] - known[c]))
    pool.extend(state.stock)
    for pot in state.pots:
        pool.extend(pot)
    pool.sort()                 # the result must not depend on where the hidden cards are
    shuffle(rng, pool)
    pos = 0
    for s in others:
        known = state.known[s]
        hand = known[:]
        free = state.hand_size[s] - sum(known)
        for c in pool[pos:pos + free]:
            hand[c] += 1
        pos += free
        prov = state.provisional
        if prov is not None and s == state.current:   # the opening's snapshot: new hand + laid cards
            was, size, n_melds, must_use, must_play, known_then = prov
            back = [b + h - o for b, h, o in zip(was, hand, state.hands[s], strict=True)]
            state.provisional = (back, size, n_melds, must_use, must_play, known_then)
        state.hands[s] = hand
        if state.unplayed[s]:   # the hand is the pot it took by discarding its last card (§5)
            state.unplayed_cards[s] = [c for c in range(NUM_TYPES) for _i in range(hand[c])]
    state.stock = pool[pos:pos + len(state.stock)]
    pos += len(state.stock)
    for i, pot in enumerate(state.pots):
        state.pots[i] = pool[pos:pos + len(pot)]
        pos += len(pot)


own_abc_caches(RummyState)

# legal.py reads this module's names; imported last, it finds them whichever module loads first
from kafenio.rummy import legal as _legal  # noqa: E402
