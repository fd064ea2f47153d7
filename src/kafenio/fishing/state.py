"""The fishing deal state machine shared by Basra, Pişti, Xeri and Diloti.

``basra.md`` §2–§6 and ``fishing-relatives.md`` §0: deal in batches (no new floor cards after
the first), play one card a turn, capture or trail, a capture choice as a **second decision
step** when the rules let the player choose (``AI-NOTES.md`` §5), the last capturer takes what
is left, and the deal is scored by card points, the majority bonus and special captures.

A game is data plus small hooks on :class:`FishingGame` / :class:`FishingState`:

* ``FishingGame``: ``capture_spec``, ``card_points``, ``floor_redeal`` (cards taken off the
  opening floor; ``floor_redeal_destination``: buried in the stock or put under it),
  ``majority_points``/``tie_rule``,
  ``special_name``, ``rule_refs`` (spec sections for errors);
* ``FishingState._options(card)``: what a card may take (default: :func:`capture_options`;
  a pile game restricts it to the top card, Diloti adds declarations);
* ``FishingState._capture_bonus(card, option, final)``: points of a special capture (basra,
  pişti, xeri) — read ``self.floor`` (before the capture) and ``self.lone_trail``;
* ``FishingState._layout()`` (the first batch and the floor), ``_turn_legal(seat)`` (what the
  seat on turn may play: its hand by default), ``_resolve(card, option)`` (a play with its chosen
  option: take or trail by default; Diloti's declarations), ``_extra_action(action)`` (actions
  past the capture choices: Pişti's bluff);
* hidden cards (Pişti's face-down opening cards, a believed bluff): ``_card_text(card, seat)``
  masks them in views and information strings, ``_secret_from(seat)`` lists them for
  determinizations and ``_map_cards(rename)`` renames them wherever they lie.

The pile games live in :mod:`kafenio.fishing.pile`, Diloti's declarations in
:mod:`kafenio.fishing.declarations`.

**Compiled** (issue #8): this module, the other fishing modules but ``observation``, and the four
game modules are compiled with mypyc when kafenio is installed (``compiled`` in ``pyproject.toml``,
``hatch_build.py``; the plain sources play the same game, ``tests/test_compiled.py``). Their classes
are native: each declares ``@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)``
(copies and pickles work, and a class called from Python runs its ``__init__``), a state names
its game's class (``FishingState[BasraGame]``), each module ends with :func:`own_abc_caches`.
Compiled code trusts the annotations, boxes a tuple constant anew at each use (compare moves with
``==``, never ``is``) and does not bind a function stored as a class attribute.

**Action ids** (fixed size ``52 + max_choices + extra``): ``0 … 51`` play that card type
(``play 7D``); ``52 + k`` takes capture option ``k`` of the pending play (``capture 5C 4D``,
or ``trail`` for the empty option when capturing is optional). Options are ordered most cards
first, then by floor position; at most ``game.max_choices`` are offered (``docs/views-fishing.md``).
"""

from __future__ import annotations

import copy
import hashlib
import math
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar, Final, Generic, Self, TypeVar, cast

import numpy as np
from mypy_extensions import mypyc_attr

from kafenio.cards import RANK, SUIT, format_card, format_cards, parse_cards
from kafenio.engine.errors import IllegalAction, KafenioError, RulesError
from kafenio.engine.game import DRAWN_MATCH, TERMINAL, Game, State, own_abc_caches
from kafenio.engine.rules import Option, Rules
from kafenio.engine.shuffle import shuffle
from kafenio.fishing import observation
from kafenio.fishing.captures import CaptureSpec, capture_options
from kafenio.fishing.scoring import score_deal
from kafenio.i18n import _, n_, number

NUM_PLAY: Final = 52
MAX_CHOICES: Final = 128
CHOOSE: Final = NUM_PLAY
FLOOR_ORDER: Final = tuple(RANK[c] * 4 + SUIT[c] for c in range(52))
WORLD_TRIES: Final = 16
"""Draws of a determinization before a card that a hand must hold is swapped into it
(:meth:`FishingState.resample_from_infostate`)."""


def tally_option(*sources: str) -> Option:
    """The option every fishing game has (README §8, ``basra.md`` §3, ``fishing-relatives.md``
    A3, B3, C3), with the source keys that the game's own option table gives for it."""
    return Option(
        "capture_tally_visibility", "enum", "hidden", ("hidden", "public"),
        doc="during the deal: captured cards stay face down and uncounted (hidden), "
            "or their count and card points are shown (public)", sources=sources)


def lay_card(floor: list[int], card: int) -> None:
    """Insert ``card`` into ``floor``, sorted in :data:`FLOOR_ORDER`, after its equals (as
    ``bisect.insort`` with that key; a plain loop, which compiled code runs in C where ``insort``
    would call the key back through Python at each step)."""
    order = FLOOR_ORDER[card]
    lo, hi = 0, len(floor)
    while lo < hi:
        mid = (lo + hi) // 2
        if order < FLOOR_ORDER[floor[mid]]:
            hi = mid
        else:
            lo = mid + 1
    floor.insert(lo, card)


def check_choices(options: Sequence[Option], values: dict[str, Any]) -> None:
    """Refuse an ``int`` option value outside its listed ``choices`` (the spec's allowed values).

    Raises:
        RulesError: naming the option.
    """
    for option in options:
        if option.kind == "int" and option.choices and values[option.name] not in option.choices:
            raise RulesError(option.name, _("{v} is not one of {c}").format(
                v=values[option.name], c=", ".join(map(str, option.choices))))


@cache
def _radix_plan(n: int) -> tuple[int, int, int, tuple[tuple[int, tuple[int, ...]], ...]]:
    """How :meth:`FishingGame.shuffle` decodes a number below ``n!``: the bound ``n!``, the
    digest size in bytes, the shift that keeps its bits, and the card counts ``i = n, n − 2, …``
    (two-card digits of radix ``i(i − 1)``) in runs whose radix product fits a machine word, so
    one big division per run leaves the digits to small ones (the same digits, fewer big steps)."""
    bound = math.factorial(n)
    size = (bound.bit_length() + 7) // 8
    runs: list[tuple[int, tuple[int, ...]]] = []
    run: list[int] = []
    product = 1
    for i in range(n, 1, -2):
        if run and product * i * (i - 1) >= 1 << 62:
            runs.append((product, tuple(run)))
            run, product = [], 1
        run.append(i)
        product *= i * (i - 1)
    if run:
        runs.append((product, tuple(run)))
    return bound, size, 8 * size - bound.bit_length(), tuple(runs)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class FishingGame(Game):
    """A fishing game's rules turned into the tables the hot path reads.

    Subclasses set ``name``, ``rulebook``, ``state_class`` and fill the attributes below in
    ``__init__`` (after calling this one).
    """

    special_name: ClassVar[str] = "basras"
    rule_refs: ClassVar[dict[str, str]] = {"play": "§3", "choice": "§3.1", "end": "§5", "special": "§4",
                                           "score": "§6"}
    spec_file: ClassVar[str] = "basra.md"
    #: True keeps the floor in arrival order (a pile, top card last: Pişti, Xeri); False keeps it
    #: sorted by rank then suit (Basra, Diloti: the floor is a set, and the capture memo hits)
    pile_floor: ClassVar[bool] = False
    #: later batches go to each player as one packet (Pişti, Xeri, Diloti) or one card at a time
    packets: ClassVar[bool] = False
    #: capture (or move) choices one play may offer; the action space is ``52 + max_choices + extra``
    max_choices: ClassVar[int] = MAX_CHOICES
    #: action ids after the choices (Pişti's claims and answers)
    extra_actions: ClassVar[int] = 0

    def __init__(self, rules: Rules):
        super().__init__(rules)
        n = rules.num_players
        teams = n == 4 and rules.get("partnerships", False)
        self._sides = tuple(s % 2 if teams else s for s in range(n))
        self._num_sides = 2 if teams else n
        #: per side, its seats (every view lists them)
        self._seats: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in range(n) if self._sides[s] == side) for side in range(self._num_sides))
        self.capture_spec = CaptureSpec()
        self.card_points: tuple[int, ...] = (0,) * 52
        self.floor_redeal: frozenset[int] = frozenset()
        self.majority_points = rules.get("majority_points", 0)
        #: README §8: running captured-card counts and card points shown during the deal
        self.tallies_public: bool = rules.get("capture_tally_visibility", "hidden") == "public"
        self.tie_rule = rules.get("majority_tie_rule", "nobody")
        step = self.direction
        #: per seat, the next one (typed: compiled code indexes with it, and ``step`` is untyped)
        self._next: tuple[int, ...] = tuple((s + step) % n for s in range(n))
        #: per dealer, the seats in dealing order: from the first player round to the dealer
        self._orders = tuple(tuple((dealer + step * k) % n for k in range(1, n + 1)) for dealer in range(n))

    @property
    def num_sides(self) -> int:
        return self._num_sides

    def side_of(self, seat: int) -> int:
        return self._sides[seat]

    def seats_of(self, side: int) -> list[int]:
        return list(self._seats[side])

    def num_distinct_actions(self) -> int:
        return NUM_PLAY + self.max_choices + self.extra_actions

    def shuffle(self, seed: int) -> list[int]:
        """A uniformly random deck order fixed by ``seed`` (faster than ``random.shuffle``).

        A uniform integer below ``n!`` (from BLAKE2b of the seed, rejection-sampled) is decoded
        as a mixed-radix number, two digits per division: every permutation is equally likely.
        """
        deck = self.full_deck()
        bound, size, shift, runs = _radix_plan(len(deck))
        key = seed.to_bytes(16, "little", signed=True)
        counter = 0
        while True:
            digest = hashlib.blake2b(key + counter.to_bytes(4, "little"), digest_size=min(size, 64)).digest()
            r = int.from_bytes(digest, "little") >> shift
            if r < bound:
                break
            counter += 1
        out: list[int] = []
        for product, run in runs:
            r, chunk = divmod(r, product)
            # two cards from the i left: digit j of radix i(i − 1); the word-sized digits by % and
            # // and the list's own pop and append, which compiled code runs natively (divmod
            # and bound methods are generic calls)
            for i in run:
                radix = i * (i - 1)
                j = chunk % radix
                chunk //= radix
                out.append(deck.pop(j // (i - 1)))
                out.append(deck.pop(j % (i - 1)))
        out.extend(deck)
        return out

    def rule(self, key: str) -> str:
        """The spec reference of a rule (``"basra.md §3"``) for :class:`IllegalAction`."""
        return f"{self.spec_file} {self.rule_refs[key]}"

    def position(self, floor: Sequence[int], hands: Sequence[Sequence[int]], *, to_play: int | None = None,
                 stock: Sequence[int] = (), lone_trail: int | None = None, **table: Any) -> FishingState:
        """A constructed mid-deal position (referee, worked examples): ``floor`` on the table
        (a pile: bottom to top), ``hands`` per seat, ``stock`` (top first) still to deal; cards
        named nowhere are out of play. ``lone_trail``: the lone floor card the previous player
        trailed onto (§4.1). ``table``: game-specific parts (Diloti's ``declarations``).
        Its history starts here, so it does not serialize."""
        state = cast(FishingState, self.new_initial_state(seed=0))
        state.floor = state._arrange(floor)
        state.hands = [sorted(h) for h in hands]
        state.stock, state.stock_pos, state.stock_known = tuple(stock), 0, ()
        state.returned, state.stock_ops = [], []
        state.cur = state.cur if to_play is None else to_play
        state.cards_left = sum(map(len, state.hands)) + len(stock)
        state.lone_trail = lone_trail
        state.log = [("floor", tuple(floor), (), tuple(floor))]
        state._set_table(table)
        state._legal = state._turn_legal(state.cur)
        return state

    def _reached(self, total: float, target: float) -> bool:
        """§7 ``target_comparison``: ``total`` reaches ``target`` (≥, or > with ``greater``)."""
        if self.rules.get("target_comparison", "greater_or_equal") == "greater":
            return total > target
        return total >= target

    def target_after(self, totals: Sequence[float], target: int) -> int:
        """§7 ``extend_target``: the target in force after a deal that leaves ``totals`` when
        ``target`` was in force before it. Only a real tie moves it: when the highest total
        reaches the target and is shared, the new target is that total plus ``tie_extension``;
        a lead is never extended (BAS-39)."""
        ranked = sorted(totals, reverse=True)
        if (self.rules.get("final_tie_rule", "play_on") == "extend_target" and len(ranked) > 1
                and ranked[0] == ranked[1] and self._reached(ranked[0], target)):
            return int(ranked[0]) + self.rules.get("tie_extension", 20)
        return target

    def match_outcome(self, totals: Sequence[float], deals_won: Sequence[int], deals_played: int,
                      carry: Mapping[str, Any]) -> int | None:
        """:meth:`match_winner` against the target the finished deal handed on (``carry["target"]``,
        raised by ``extend_target`` after a tie, :meth:`target_after`)."""
        target = carry.get("target")
        if target is None:
            return self.match_winner(totals, deals_won, deals_played)
        return self._winner(totals, target)

    def match_winner(self, totals: Sequence[float], deals_won: Sequence[int],
                     deals_played: int) -> int | None:
        """§7: once a side reaches the target the highest total wins, also when others reached it
        too; a tie at the top follows ``final_tie_rule``: ``play_on`` and ``extend_target`` →
        ``None`` (with ``extend_target`` the next deals play to the raised target, which the deal
        hands on: :meth:`match_outcome`), ``draw`` → ``DRAWN_MATCH``."""
        return self._winner(totals, self.rules.target_score)

    def _winner(self, totals: Sequence[float], target: int) -> int | None:
        best = max(totals)
        if not self._reached(best, target):
            return None
        if list(totals).count(best) > 1:
            return DRAWN_MATCH if self.rules.get("final_tie_rule", "play_on") == "draw" else None
        return list(totals).index(best)


G = TypeVar("G", bound=FishingGame)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class FishingState(State, Generic[G]):
    """One fishing deal (see the module docstring for the hooks and the action ids); ``G``: the
    class of its game (a subclass states its own, e.g. ``FishingState[BasraGame]``)."""

    game: G
    # :class:`State`'s attributes, declared again: compiled, they are then read as fields, not
    # looked up in the instance's dictionary
    dealer: int
    #: the seat to play, or TERMINAL (typed here: the seats of :class:`FishingGame` are untyped)
    cur: int
    match_scores: list[float]
    carry_in: dict[str, Any]
    history: list[int]
    _deck: list[int]
    #: the cards still to deal (top first; set by :meth:`_layout`), the cards of it every seat knows
    stock: tuple[int, ...]
    stock_known: tuple[int, ...]

    def __init__(self, game: G, deck: list[int], dealer: int, match_scores: list[float],
                 reinsert_positions: Sequence[int] = ()):
        super().__init__(game, deck, dealer, match_scores)
        n = game.num_players()
        #: README §4: the positions still to use for cards returned to the stock, then every
        #: position used in this deal (recorded, so the deal replays from its deck)
        self._given_positions: list[Any] = list(reinsert_positions)
        self.reinsert_positions: list[int] = []
        #: the cards returned to the stock at hidden places, in order, and what the deal procedure
        #: did to the stock after it was cut from the deck at :attr:`stock_start` (``("take",
        #: cards)`` off the top, ``("insert", cards)`` at hidden places): a determinization moves
        #: the returned cards and rebuilds the deck from these (:meth:`_rebuild_deck`)
        self.returned: list[int] = []
        self.stock_ops: list[tuple[str, tuple[int, ...]]] = []
        self.hands_end = 0
        self.stock_start = 0
        self._reinsert_rng: random.Random | None = None
        self.hands: list[list[int]] = [[] for _s in range(n)]
        self.floor: list[int] = []
        self.captured: list[list[int]] = [[] for _s in range(game.num_sides)]
        self.specials: list[list[int]] = [[] for _s in range(game.num_sides)]
        #: per side: (the captured pile summed, how many of its cards, their card points)
        self.pile_points: list[tuple[list[int], int, int]] = [(p, 0, 0) for p in self.captured]
        self.last_capturer = -1
        self.last_capture: tuple[int, tuple[int, ...]] | None = None
        self.lone_trail: int | None = None
        #: the played card and its capture options (floor positions; Diloti's moves) while a choice is open
        self.pending: tuple[int, Sequence[tuple[Any, ...]]] | None = None
        self.final_take: tuple[int, tuple[int, ...]] = (-1, ())
        self.log: list[tuple] = []
        self.stock_pos = 0
        #: cards whose deal slot the deal procedure depends on (a cut): never moved by resampling
        self.pinned: tuple[int, ...] = ()
        #: memos: the final sheet (:meth:`_final_score`), the public cards (``observation``)
        self._scored: tuple[list[dict[str, Any]], int] | None = None
        self._seen_memo: tuple[list[tuple], int, set[int], np.ndarray] | None = None
        self.cur = game._next[dealer]
        self._layout()
        if self._given_positions:
            extra = len(self._given_positions)
            raise KafenioError(n_("reinsert_positions: {n} more position than cards returned to the stock",
                                  "reinsert_positions: {n} more positions than cards returned to the stock", extra)
                               .format(n=number(extra)))
        self.cards_left = sum(map(len, self.hands)) + len(self.stock)
        self._legal = self._turn_legal(self.cur)

    # -- hooks -----------------------------------------------------------------------------
    def _layout(self) -> None:
        """Deal the first batch and the floor (``basra.md`` §2): ``hand_size`` cards one at a
        time from the first player round to the dealer, ``floor_size`` face up, then every floor
        card of ``floor_redeal`` is replaced from the top of the stock (a replacement of that kind
        in turn); the removed cards go back as ``floor_redeal_destination`` says: ``buried`` at
        hidden places (:meth:`_return_to_stock`), ``stock_bottom`` under the stock, where
        everybody knows they lie."""
        rules = self.game.rules
        deck = self._deck
        order = self._order()
        pos = rules.hand_size * len(order)
        for i, seat in enumerate(order):  # one card at a time: every n-th card from the i-th
            self.hands[seat] = sorted(deck[i:pos:len(order)])
        size = rules.get("floor_size", 4)
        floor = list(deck[pos:pos + size])
        stock = list(deck[pos + size:])
        self.hands_end, self.stock_start = pos, pos + size
        redeal = self.game.floor_redeal
        bottom = rules.get("floor_redeal_destination", "buried") == "stock_bottom"
        moved = []
        while any(c in redeal for c in floor):
            for i, c in enumerate(floor):
                if c in redeal:
                    if bottom:
                        stock.append(c)
                    moved.append(c)
                    floor[i] = self._take_from_stock(stock, 1)[0]
        if not bottom:
            self._return_to_stock(stock, moved)
        self.floor = self._arrange(floor)
        self.stock = tuple(stock)
        self.stock_known = tuple(moved) if bottom else ()
        self.log.append(("floor", tuple(deck[pos:pos + size]), self.stock_known, tuple(floor)))

    def _return_to_stock(self, stock: list[int], cards: Sequence[int], keep_bottom: bool = False) -> None:
        """README §4: put ``cards`` back into ``stock`` (top first) at hidden places, in the given
        order: each at index ``p`` (``0 ≤ p ≤ len(stock)``, so ``p`` cards lie above it), ``p`` from
        ``reinsert_positions`` while they last, then uniform from the deal's random source (fixed
        by the deck, so a deal replays from its deck). Used by the Basra floor clean-up, the Xeri
        opening-pile check and the Diloti table check alike. ``keep_bottom``: the stock's bottom
        card was shown at the cut (Xeri's ``expose_stock_bottom``, ``fishing-relatives.md`` B2
        step 4, A2) and stays the bottom card: ``p ≤ len(stock) − 1``.

        Raises:
            KafenioError: a given position outside that range, naming ``reinsert_positions``.
        """
        given = self._given_positions
        for card in cards:
            high = len(stock) - 1 if keep_bottom and stock else len(stock)
            if given:
                p = given.pop(0)
                if type(p) is not int or not 0 <= p <= high:
                    if high < len(stock):
                        raise KafenioError(_("reinsert_positions: {p!r} is not a place above the exposed bottom "
                                             "card of a stock of {n} cards (0 to {high})")
                                           .format(p=p, n=len(stock), high=high))
                    raise KafenioError(_("reinsert_positions: {p!r} is not a place in a stock of {n} cards (0 to {n})")
                                       .format(p=p, n=len(stock)))
            else:
                rng = self._reinsert_rng
                if rng is None:
                    digest = hashlib.blake2b(bytes(self._deck), digest_size=8, person=b"reinsert").digest()
                    rng = self._reinsert_rng = random.Random(int.from_bytes(digest, "little"))
                p = rng.randint(0, high)
            stock.insert(p, card)
            self.reinsert_positions.append(p)
            self.returned.append(card)
        self.stock_ops.append(("insert", tuple(cards)))

    def _take_from_stock(self, stock: list[int], n: int) -> list[int]:
        """The top ``n`` cards of ``stock``, removed (a step of the deal procedure, recorded)."""
        taken = stock[:n]
        del stock[:n]
        self.stock_ops.append(("take", tuple(taken)))
        return taken

    def _options(self, card: int) -> Sequence[tuple[Any, ...]]:
        """What ``card`` may take from the floor (positions); see :func:`capture_options`."""
        return capture_options(self.floor, card, self.game.capture_spec)

    def _capture_bonus(self, card: int, option: tuple[int, ...], final: bool) -> int:
        """Points of a special capture made by ``card`` taking ``option`` (0 = none)."""
        return 0

    def _turn_legal(self, seat: int) -> list[int]:
        """The legal actions of ``seat`` coming on turn (its hand: the list itself, no copy)."""
        return self.hands[seat]

    def _set_table(self, table: dict[str, Any]) -> None:
        """Game-specific parts of a constructed :meth:`FishingGame.position` (a game's override
        takes its own parts out of ``table`` and passes the rest on)."""
        if table:
            raise KafenioError(_("{game} has no table parts {names}").format(
                game=self.game.name, names=", ".join(table)))

    def _extra_action(self, action: int) -> None:
        """Apply an action id past the capture choices (none in Basra)."""
        raise AssertionError(action)

    def _card_text(self, card: int, seat: int | None) -> str:
        """``card`` as ``seat`` may see it (``??`` for a card hidden from it)."""
        return format_card(card)

    def _secret_from(self, seat: int | None) -> list[int]:
        """Cards lying face down on the table or in a capture pile that ``seat`` does not know."""
        return []

    def _stock_known_to(self, seat: int | None) -> tuple[int, ...]:
        """The stock cards whose places ``seat`` knows (still in the stock or dealt since): those
        everybody saw go under it (:attr:`stock_known`), and what a game shows one seat alone."""
        return self.stock_known

    def _no_return_slots(self) -> tuple[int, ...]:
        """Cards lying where no card returned to the stock can be (a bottom card kept at the
        bottom that not every seat knows): a determinization puts no returned card in their slots."""
        return ()

    def _pinned_for(self, seat: int) -> tuple[int, ...]:
        """Cards a determinization for ``seat`` keeps in place (:attr:`pinned`, and what the
        public play reveals: Diloti's declared values)."""
        return self.pinned

    def _map_cards(self, rename: dict[int, int]) -> None:
        """Rename the secret cards (:meth:`_secret_from`) wherever they lie (determinizations)."""

    def outcomes(self, card: int) -> list[tuple[tuple[int, ...], int]]:
        """What playing ``card`` now may do: ``[(floor positions taken, special points)]``,
        ``[]`` when it trails; several entries mean the player chooses."""
        final = self.cards_left == 1
        return [(o, self._capture_bonus(card, o, final) if o else 0) for o in self._options(card)]

    def _arrange(self, cards: Sequence[int]) -> list[int]:
        """The floor in this game's order (see :attr:`FishingGame.pile_floor`)."""
        return list(cards) if self.game.pile_floor else sorted(cards, key=FLOOR_ORDER.__getitem__)

    # -- dealing ---------------------------------------------------------------------------
    def _order(self) -> tuple[int, ...]:
        """The seats in dealing order: from the first player round to the dealer."""
        return self.game._orders[self.dealer]

    def _deal_batch(self) -> None:
        """§2 later distributions: ``hand_size`` each, or the stock shared out evenly with any
        leftover (fewer than the players) dealt face up to the floor first."""
        n = self.game.num_players()
        size = self.game.rules.hand_size
        pos = self.stock_pos
        remaining = len(self.stock) - pos
        if remaining < n * size:
            size = remaining // n
            extra = remaining - size * n
            if extra:  # face up to the floor: never played, so no longer counted as to play
                self.floor = self._arrange(self.floor + list(self.stock[pos:pos + extra]))
                pos += extra
                self.cards_left -= extra
        order = self._order()
        stock = self.stock
        if self.game.packets:
            for i, seat in enumerate(order):
                self.hands[seat] = sorted(stock[pos + i * size:pos + (i + 1) * size])
        else:  # one card at a time: seat i of the order gets every n-th card from pos + i
            for i, seat in enumerate(order):
                self.hands[seat] = sorted(stock[pos + i:pos + size * n:n])
        self.log.append(("deal", tuple(stock[self.stock_pos:pos])))
        self.stock_pos = pos + size * n

    # -- the contract ----------------------------------------------------------------------
    def current_player(self) -> int:
        return self.cur

    def is_terminal(self) -> bool:
        return self.cur == TERMINAL

    def legal_actions(self) -> list[int]:
        return self._legal[:]

    def apply_action(self, action: object) -> None:
        """Apply ``action`` after checking it is legal (the hot path: no copy of the legal list).
        Any object is checked (compiled, an ``int`` parameter would refuse a string with a
        ``TypeError`` before the check); a refusal is :meth:`State.refusal`'s, as in every game.

        Raises:
            IllegalAction: naming the rule; the state is unchanged.
        """
        if type(action) is not int or action not in self._legal:
            raise self.refusal(action)
        self._apply(action)
        self.history.append(action)

    def _apply(self, action: int) -> None:
        if action < NUM_PLAY:
            self.hands[self.cur].remove(action)
            options = self._options(action)
            if len(options) > 1:
                limit = self.game.max_choices
                if len(options) > limit:  # rare: keep the first ones and the last (the trail)
                    options = [*options[:limit - 1], options[-1]]
                self.pending = (action, options)
                self._legal = list(range(CHOOSE, CHOOSE + len(options)))
                return
            self._resolve(action, options[0] if options else ())
        elif action < CHOOSE + self.game.max_choices:
            assert self.pending is not None
            card, options = self.pending
            self.pending = None
            self._resolve(card, options[action - CHOOSE])
        else:
            self._extra_action(action)

    def _resolve(self, card: int, option: tuple[Any, ...]) -> None:
        """Play ``card`` taking the floor positions ``option`` (``()``: trail), end the turn."""
        seat = self.cur
        floor = self.floor
        self.cards_left -= 1
        final = self.cards_left == 0
        if option:
            bonus = self._capture_bonus(card, option, final)
            if len(option) == len(floor):
                taken = tuple(floor)
                self.floor = []
            else:
                taken = tuple(floor[i] for i in option)
                self.floor = [c for c in floor if c not in taken]
            self._take(seat, card, taken, bonus)
        else:
            self.lone_trail = floor[0] if len(floor) == 1 else None
            if self.game.pile_floor:
                floor.append(card)
            else:
                lay_card(floor, card)
            self.log.append((seat, card, (), 0))
        self._end_turn(seat)

    def _take(self, seat: int, card: int, taken: tuple[int, ...], bonus: int) -> None:
        """``seat`` captures ``taken`` with ``card`` (both to its side's pile), scoring ``bonus``."""
        side = self.game._sides[seat]
        pile = self.captured[side]
        pile.extend(taken)
        pile.append(card)
        if bonus:
            self.specials[side].append(bonus)
        self.last_capturer = seat
        self.last_capture = (seat, (*taken, card))
        self.lone_trail = None
        self.log.append((seat, card, taken, bonus))

    def _end_turn(self, seat: int) -> None:
        """After ``seat``'s play: finish the deal, or deal a new batch when due and pass the turn."""
        if self.cards_left == 0:
            self._finish()
            return
        nxt = self.game._next[seat]
        if not self.hands[nxt]:
            self._deal_batch()
        self.cur = nxt
        self._legal = self._turn_legal(nxt)

    def _finish(self) -> None:
        """§5: the last capturer's side takes the floor (never a special capture); then score."""
        game = self.game
        if self.floor and self.last_capturer >= 0:
            self.final_take = (self.last_capturer, tuple(self.floor))
            self.captured[game._sides[self.last_capturer]].extend(self.floor)
            self.floor = []
        self.cur = TERMINAL
        self._legal = []
        self.log.append(("end", self.final_take))

    def _final_score(self) -> tuple[list[dict[str, Any]], int] | None:
        """The deal's final sheet and the majority points it carries out (§6), or ``None`` before
        the end; scored the first time it is read (a playout that never reads it skips it)."""
        if self.cur != TERMINAL:
            return None
        scored = self._scored
        if scored is None:
            game = self.game
            scored = self._scored = score_deal(
                self.captured, self.specials, game.card_points, majority_points=game.majority_points,
                tie_rule=game.tie_rule, carry=self.majority_in, special_name=game.special_name,
                extras=self._extras())
        return scored

    @property
    def sheet(self) -> list[dict[str, Any]] | None:
        """The final score sheet (:func:`score_deal`), ``None`` before the deal ends."""
        scored = self._final_score()
        return scored[0] if scored is not None else None

    @property
    def majority_out(self) -> int:
        """The majority points this deal carries into the next one (0 before the end)."""
        scored = self._final_score()
        return scored[1] if scored is not None else 0

    def _extras(self) -> dict[str, list[int]] | None:
        """Further score lines per side (:func:`score_deal` ``extras``); none in Basra."""
        return None

    def side_scores(self) -> list[float]:
        sheet = self.sheet
        if sheet is not None:
            return [s["total"] for s in sheet]
        extras = list((self._extras() or {}).values())
        return [self._pile_points(side) + sum(sp) + sum(e[side] for e in extras)
                for side, sp in enumerate(self.specials)]

    def _pile_points(self, side: int) -> int:
        """The card points of ``side``'s captured pile, added up as it grows: a pile only grows
        (captures and the last capturer's floor are appended); a pile replaced by another list
        (a copy, renamed cards) is summed afresh."""
        pile = self.captured[side]
        summed, done, points = self.pile_points[side]
        if summed is not pile:
            done = points = 0
        if done < len(pile):
            card_points = self.game.card_points
            for c in pile[done:]:  # a plain loop: compiled, it runs in C (map would call back)
                points += card_points[c]
            self.pile_points[side] = (pile, len(pile), points)
        return points

    def score_sheet(self) -> dict[str, Any]:
        sides = self.sheet
        if sides is None:
            sides, _carry = score_deal(self.captured, self.specials, self.game.card_points,
                                       majority_points=0, tie_rule="nobody",
                                       special_name=self.game.special_name, extras=self._extras())
        return {"game": self.game.name, "final": self.sheet is not None,
                "majority_carried_in": self.majority_in, "majority_carried_out": self.majority_out,
                "left_on_floor": format_cards(self.floor) if self.sheet is not None else "",
                "last_capturer_takes": {"seat": self.final_take[0],
                                        "cards": [format_card(c) for c in self.final_take[1]]},
                "sides": [dict(s, seats=self.game.seats_of(s["side"])) for s in sides]}

    # -- errors and notation ---------------------------------------------------------------
    def explain_illegal(self, action: int) -> IllegalAction:
        game = self.game
        if self.cur == TERMINAL:
            return IllegalAction(game.rule("end"), _("the deal is over"), action)
        if self.pending is not None:
            if action < NUM_PLAY:
                return IllegalAction(game.rule("choice"), _(
                    "{card} was played: choose which cards it captures first").format(
                    card=format_card(self.pending[0])), action)
            choices = len(self.pending[1])
            return IllegalAction(game.rule("choice"), n_("there is only {n} capture choice",
                                                         "there are only {n} capture choices", choices).format(
                n=number(choices)), action)
        if NUM_PLAY <= action < CHOOSE + game.max_choices:
            return IllegalAction(game.rule("choice"), _("no capture choice is pending"), action)
        if action >= NUM_PLAY:
            return IllegalAction(game.rule("play"), _("that action is not open now"), action)
        return IllegalAction(game.rule("play"), _("{card} is not in the hand of seat {seat}, who is to play")
                             .format(card=format_card(action), seat=self.cur), action)

    def option_cards(self, k: int) -> tuple[int, ...]:
        """The floor cards of pending capture option ``k``."""
        assert self.pending is not None
        return tuple(self.floor[i] for i in self.pending[1][k])

    def action_to_string(self, action: int, player: int | None = None) -> str:
        if action < NUM_PLAY:
            return "play " + format_card(action)
        k = action - CHOOSE
        if self.pending is None or k >= len(self.pending[1]):
            return f"choose {k}"
        cards = self.option_cards(k)
        return "capture " + format_cards(cards) if cards else "trail"

    def string_to_action(self, text: str) -> int:
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb == "play" and len(words) == 2:
            return parse_cards(words[1:])[0]
        if verb == "choose" and len(words) == 2 and words[1].isdigit() and int(words[1]) < self.game.max_choices:
            return CHOOSE + int(words[1])
        if verb in ("capture", "trail") and (verb == "capture") == (len(words) > 1):
            wanted = sorted(parse_cards(words[1:]))
            if self.pending is not None:
                for k in range(len(self.pending[1])):
                    if sorted(self.option_cards(k)) == wanted:
                        return CHOOSE + k
            raise IllegalAction(self.game.rule("choice"), _("no pending capture takes exactly {cards}")
                                .format(cards=format_cards(wanted) or "nothing"), text)
        raise KafenioError(_("cannot read {text!r}: write play 7D, capture 5C 4D, trail or choose 2")
                           .format(text=text))

    # -- views ------------------------------------------------------------------------------
    # the observations live in :mod:`kafenio.fishing.observation`; these methods call them (a
    # compiled class does not bind a function stored as a class attribute: one method each)
    def seen_cards(self, seat: int | None = None) -> list[int]:
        """:func:`observation.seen_cards`: the public card count, with what ``seat`` knows."""
        return observation.seen_cards(self, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (README §8; ``docs/views-fishing.md``): the floor, its hand,
        every hand's and the stock's size, the known bottom cards of the stock (never a card
        returned to it at a hidden place), each side's specials and the most recent capture;
        ``captured`` and ``deal_points`` are ``None`` during the deal unless
        ``capture_tally_visibility = public``."""
        game = self.game
        n = game.num_players()
        pending = None
        if self.pending is not None:
            pending = {"card": format_card(self.pending[0]),
                       "choices": [{"action": CHOOSE + k, "text": self.action_to_string(CHOOSE + k),
                                    "cards": [format_card(c) for c in self.option_cards(k)]}
                                   for k in range(len(self.pending[1]))]}
        last = None
        if self.last_capture is not None:
            last = {"seat": self.last_capture[0], "cards": [self._card_text(c, seat) for c in self.last_capture[1]]}
        points = game.card_points
        hidden = set(self._secret_from(seat))
        # README §8: captured piles lie face down; their counts and card points only with
        # capture_tally_visibility = public, or once the deal is over
        tallies = game.tallies_public or self.cur == TERMINAL
        out = {
            "game": game.name, "seat": seat, "num_players": n, "dealer": self.dealer,
            "current_player": self.cur, "phase": "end" if self.cur == TERMINAL else (
                "choose" if self.pending is not None else "play"),
            "match_scores": list(self.match_scores), "majority_carry": self.majority_in,
            "sides": [game.seats_of(s) for s in range(game.num_sides)],
            "hand": [format_card(c) for c in self.hands[seat]] if seat is not None else [],
            "hand_sizes": [len(h) for h in self.hands],
            "stock": len(self.stock) - self.stock_pos,
            "stock_bottom_known": [format_card(c) for c in self._stock_known_to(seat)
                                   if self.stock.index(c) >= self.stock_pos],
            "floor": [format_card(c) for c in self.floor],
            "capture_tally_visibility": "public" if tallies else "hidden",
            "captured": [len(p) for p in self.captured] if tallies else None,
            game.special_name: [{"count": len(sp), "points": sum(sp)} for sp in self.specials],
            "last_capture": last,
            "deal_points": [{"card_points": sum(points[c] for c in p if c not in hidden), game.special_name: sum(sp)}
                            for p, sp in zip(self.captured, self.specials, strict=True)] if tallies else None,
            "pending": pending,
            "legal_actions": self.legal_actions() if seat == self.cur else [],
            "terminal": self.cur == TERMINAL,
        }
        if self.cur == TERMINAL:
            out["deal_scores"] = self.score_sheet()
        return out

    def observation_tensor(self, seat: int) -> np.ndarray:
        """:func:`observation.observation_tensor`."""
        return observation.observation_tensor(self, seat)

    def write_observation(self, seat: int, out: np.ndarray) -> None:
        """:func:`observation.write_observation`."""
        observation.write_observation(self, seat, out)

    def information_state_string(self, seat: int) -> str:
        """:func:`observation.information_state_string`."""
        return observation.information_state_string(self, seat)

    def _dealt_to(self, seat: int) -> list[list[int]]:
        """:func:`observation.dealt_to`: the batches dealt to ``seat``."""
        return observation.dealt_to(self, seat)

    @property
    def majority_in(self) -> int:
        """Majority points carried into this deal from tied earlier deals (§6 ``carry_over``)."""
        return self.carry_in.get("majority", 0)

    def carry_out(self) -> dict[str, Any]:
        """What this finished deal hands on (``{}`` for nothing): the majority points carried into
        the next deal (§6), and the match target when a tie at the top raised it (§7
        ``extend_target``, :meth:`FishingGame.target_after`)."""
        out: dict[str, Any] = {"majority": self.majority_out} if self.majority_out else {}
        game = self.game
        base = game.rules.get("target_score", 0)
        target = self.carry_in.get("target", base)
        if game.rules.get("final_tie_rule", "play_on") == "extend_target" and self.cur == TERMINAL:
            totals = [m + s for m, s in zip(self.match_scores, self.side_scores(), strict=True)]
            target = game.target_after(totals, target)
        if target != base:
            out["target"] = target
        return out

    def deal_inputs(self) -> dict[str, Any]:
        """The places where this deal returned cards to the stock (README §4), if any."""
        return {"reinsert_positions": list(self.reinsert_positions)} if self.reinsert_positions else {}

    # -- copies and determinizations -------------------------------------------------------
    def clone(self) -> Self:
        new = copy.copy(self)  # every attribute, also those of a compiled class (not in __dict__)
        new.hands = [h[:] for h in self.hands]
        new.floor = self.floor[:]
        new.captured = [p[:] for p in self.captured]
        new.specials = [p[:] for p in self.specials]
        new.pile_points = self.pile_points[:]
        new.log = self.log[:]
        new.history = self.history[:]
        new._legal = new._decision_legal()
        return new

    def _decision_legal(self) -> list[int]:
        """The legal actions of the decision now open (rebuilt for copies)."""
        if self.cur == TERMINAL:
            return []
        if self.pending is not None:
            return list(range(CHOOSE, CHOOSE + len(self.pending[1])))
        return self._turn_legal(self.cur)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> FishingState:
        """Swap the cards ``seat`` cannot know — other hands, the unseen stock and hidden table
        cards — among themselves (sizes kept); the deck, hands and hidden cards are renamed
        consistently, so the result replays from its deck and history like any state.

        The result depends on ``seat``'s information and ``rng`` only, never on where the hidden
        cards really lie: the unknown cards are drawn in a fixed order (sorted) and go to the
        hidden slots in the order the deal filled them. A card returned to the stock at a hidden
        place (README §4) is known to be in the stock but not where: it lands on any unknown
        stock slot with equal chance, or in a hand dealt after it went back, never in the first
        batch, which was dealt before; a known card (an exposed bottom card, Diloti's declared
        values, :meth:`_pinned_for`) stays where it is. A hand that the play proves holds one of
        some cards (:meth:`_hand_needs`) gets such a card: the draw is repeated up to
        :data:`WORLD_TRIES` times (each try exact), then one of those cards is swapped into it."""
        known = set(self._stock_known_to(seat)) | set(self._pinned_for(seat))
        deck = self._running_deck()
        dealt = {c: i for i, c in enumerate(deck)}
        unseen: list[int] = []
        slots: dict[int, range] = {}
        for s, h in enumerate(self.hands):
            if s != seat:
                start = len(unseen)
                unseen += [c for c in sorted(h, key=dealt.__getitem__) if c not in known]
                slots[s] = range(start, len(unseen))
        unseen += [c for c in self.stock[self.stock_pos:] if c not in known]
        unseen += [c for c in self._secret_from(seat) if c not in known]  # a known card played face down stays
        needs = [(slots[s], cards) for s, cards in self._hand_needs(seat)  # (a hand all known keeps its cards)
                 if slots[s] and not any(c in cards for c in self.hands[s] if c in known)]
        for _try in range(WORLD_TRIES):
            fresh = sorted(unseen)  # sorted first: the draw must not depend on where they lie
            shuffle(rng, fresh)
            if self.returned:
                fresh = self._returned_in_stock_slots(unseen, fresh, rng)
            if all(any(fresh[i] in cards for i in hand) for hand, cards in needs):
                break
        else:
            for k, (hand, cards) in enumerate(needs):
                if not any(fresh[i] in cards for i in hand):
                    self._swap_in(unseen, fresh, needs, k, rng)
        rename = dict(zip(unseen, fresh, strict=True))
        new = self.clone()
        new._deck = [rename.get(c, c) for c in deck]
        new.stock = tuple(rename.get(c, c) for c in self.stock)
        new.hands = [sorted(rename.get(c, c) for c in h) for h in self.hands]
        new._map_cards(rename)
        if self.returned:
            # the first batch renamed, the opening floor (seen, where the returned cards were) kept
            new._rebuild_deck(new._deck[:self.hands_end] + list(deck[self.hands_end:self.stock_start]))
        new._legal = new._decision_legal()
        return new

    def _swap_in(self, unseen: list[int], fresh: list[int], needs: list[tuple[range, frozenset[int]]], k: int,
                 rng: random.Random) -> None:
        """Meet need ``k`` (a hand's slots of ``unseen``, cards it must hold one of) in ``fresh``
        (the new card per slot): swap one of its cards, drawn outside the hand, with one of the
        hand's; never the one card that meets another need, never a returned card into the first
        batch."""
        hand, cards = needs[k]
        sole = set()
        for n, (other, wanted) in enumerate(needs):
            hits = [i for i in other if fresh[i] in wanted]
            if n != k and len(hits) == 1:
                sole.add(hits[0])
        first = set(self._running_deck()[:self.hands_end])
        back = set(self.returned)
        free = [j for j in hand if j not in sole]
        if not free:
            return
        j = rng.choice(free)
        fits = [i for i, c in enumerate(fresh) if c in cards and i not in hand and i not in sole
                and (c not in back or unseen[j] not in first) and (fresh[j] not in back or unseen[i] not in first)]
        if fits:
            i = rng.choice(fits)
            fresh[i], fresh[j] = fresh[j], fresh[i]

    def _hand_needs(self, seat: int) -> list[tuple[int, frozenset[int]]]:
        """What the public play proves about the other hands, for ``seat``'s determinizations:
        ``(other seat, cards)``, that seat holds at least one of ``cards`` (none here; Diloti's
        declaration owners, C3.7)."""
        return []

    def _running_deck(self) -> Sequence[int]:
        """The deck the deal now running was dealt from, as its deal procedure used it (a
        determinization renames this one; Diloti: the new deck after a redeal; Pişti and Xeri:
        after the ``bottom_not_jack`` cut)."""
        return self._deck

    def _returned_in_stock_slots(self, unseen: list[int], fresh: list[int], rng: random.Random) -> list[int]:
        """``fresh`` (the new card for each slot of ``unseen``) changed so that a returned card
        only lands where a card of the stock could be: not in a slot of the first batch, which
        was dealt before the cards went back (those were dealt from the deck's first cards), nor
        in the slot of a bottom card kept at the bottom (:meth:`_no_return_slots`)."""
        first = set(self._running_deck()[:self.hands_end])
        returned = set(self.returned)
        barred = first.union(self._no_return_slots())
        slots = [i for i, c in enumerate(unseen) if c not in barred]
        chosen = set(rng.sample(slots, sum(1 for c in fresh if c in returned)))
        back = [c for c in fresh if c in returned]
        rest = [c for c in fresh if c not in returned]
        return [back.pop() if i in chosen else rest.pop() for i in range(len(fresh))]

    def _rebuild_deck(self, head: list[int]) -> None:
        """After the stock was renamed (a determinization): the deck — ``head`` (the deck before
        :attr:`stock_start`) and the stock as first cut — and the reinsertion places that deal it,
        undoing :attr:`stock_ops` from the stock backwards (README §4)."""
        cur = list(self.stock)
        places: list[list[int]] = []
        for kind, cards in reversed(self.stock_ops):
            if kind == "take":
                cur[:0] = cards
                continue
            at: list[int] = []
            for card in reversed(cards):
                p = cur.index(card)
                del cur[p]
                at.append(p)
            places.append(at[::-1])
        self._deck = head + cur
        self.reinsert_positions = [p for at in reversed(places) for p in at]


own_abc_caches(FishingGame, FishingState)
