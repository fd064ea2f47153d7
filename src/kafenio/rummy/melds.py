"""The meld model shared by Biriba and Buraco: runs and sets, wilds, the natural 2.

Implements ``biriba.md`` §4 (and ``buraco.md`` §4, which differs only by data):

* a **run** is one suit in consecutive *positions*: A = 1 or 14, 2 = 2, …, K = 13;
* a **set** is one rank (A, 3–K by default), duplicates allowed; a set of 2s is a special
  all-natural set (``twos_set_allowed``);
* jokers are always wild; a 2 is wild unless it sits in position 2 of a run of its own suit
  (the **natural 2**); at most ``max_wilds`` cards per meld are used as wilds;
* ``max_run_len`` is 13 for ``run_ace_span = one_end`` (never both aces) and 14 for the
  Buraco ace-to-ace runs; ``max_natural_aces`` 1 makes the 14th position a wild
  (``both_ends_one_natural``).

A meld on the table is a :class:`Meld`: for a run, ``cards[i]`` occupies position
``lo + i`` and ``wilds`` lists the indices of the cards used as wilds; for a set the order is
irrelevant. Everything else works on per-type count lists (length 53, see
:mod:`kafenio.cards`).

>>> mr = MeldRules()
>>> meld, why = validate([(c, None) for c in parse_cards("4H 5H 2C 7H")], mr)
>>> meld.notation(), meld.clean
(['4H', '5H', '2C=6H', '7H'], False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from mypy_extensions import mypyc_attr

from kafenio.cards import JOKER, RANK, SUIT, card, format_card, parse_cards  # noqa: F401
from kafenio.i18n import _, n_, number

TWO = 2
SECTION = "biriba.md §4"


def fields_reduce(obj: Any) -> tuple[type, tuple]:
    """``__reduce__`` of a frozen dataclass: rebuilt from its fields (mypyc's unpickling of a
    compiled class sets attribute by attribute, which a frozen one refuses)."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))


@dataclass(frozen=True)
class MeldRules:
    """The meld rules of one game, built from its :class:`~kafenio.engine.rules.Rules`.

    Attributes:
        max_wilds: cards used as wilds per meld (``max_wilds_per_meld``; 0 or 1 supported).
        allow_sets: sets allowed (``allow_sets``).
        set_ranks: ranks that may form a set (2s only through ``twos_set_allowed``).
        twos_set_allowed / twos_set_may_contain_joker: the all-2s set (biriba.md §4.3).
        max_run_len: 13 (``one_end``) or 14 (ace to ace).
        max_natural_aces: natural aces one run may hold (2, or 1 for ``both_ends_one_natural``).
        suited_two_goes_natural: ``displaced_suited_two_goes_natural`` (§4.5).
        free_wild_moves: a wild at either end of a run may move inside it so that a laid-off
            natural card joins (``free_wild_may_move``, biriba.md and buraco.md §4.5 move 2).
        natural_two_wild: a clean run's natural 2 at its bottom may become its wild so that a
            laid-off card joins (``natural_two_may_become_wild``, §4.5 move 3).
        end_wild_low: an end wild of a new run, and a wild displaced by its natural card, goes
            to the low end whenever that position exists (buraco.md §4.4
            ``end_wild_placement = low``).
        section: the spec section quoted in error reasons.
    """

    max_wilds: int = 1
    allow_sets: bool = True
    set_ranks: frozenset = field(default_factory=lambda: frozenset([1, *range(3, 14)]))
    twos_set_allowed: bool = True
    twos_set_may_contain_joker: bool = False
    max_run_len: int = 13
    max_natural_aces: int = 2
    suited_two_goes_natural: bool = True
    free_wild_moves: bool = False
    natural_two_wild: bool = False
    end_wild_low: bool = False
    section: str = SECTION

    def __reduce__(self) -> tuple[type, tuple]:
        return fields_reduce(self)

    @classmethod
    def from_rules(cls, rules, game: str = "biriba") -> MeldRules:
        """The meld rules of a rule set (options absent from a game keep their Biriba value)."""
        get = rules.get
        span = get("run_ace_span", "one_end")
        ranks = get("set_allowed_ranks", "all")
        return cls(max_wilds=get("max_wilds_per_meld", 1), allow_sets=get("allow_sets", True),
                   set_ranks=frozenset([1, 3, 13] if ranks == "a_k_3" else [1, *range(3, 14)]),
                   twos_set_allowed=get("twos_set_allowed", True),
                   twos_set_may_contain_joker=get("twos_set_may_contain_joker", False),
                   max_run_len=13 if span == "one_end" else 14,
                   max_natural_aces=1 if span == "both_ends_one_natural" else 2,
                   suited_two_goes_natural=get("displaced_suited_two_goes_natural", True),
                   free_wild_moves=get("free_wild_may_move", False),
                   natural_two_wild=get("natural_two_may_become_wild", False),
                   end_wild_low=get("end_wild_placement", "free") == "low",
                   section=f"{game}.md §4")


def position_card(suit: int, pos: int) -> int:
    """The natural card of run position ``pos`` (1…14) in ``suit``."""
    return card(1 if pos == 14 else pos, suit)


def is_wild_type(c: int) -> bool:
    """True for a joker or a 2 (a 2 may still be natural in a run of its suit)."""
    return c == JOKER or RANK[c] == TWO


@mypyc_attr(serializable=True)
class Meld:
    """A meld on the table (or a candidate one).

    Attributes:
        is_run: run or set.
        suit: the run's suit (−1 for a set).
        rank: the set's rank (0 for a run; 2 for a set of 2s).
        lo: the run's lowest position (0 for a set).
        cards: card types; for a run ``cards[i]`` is at position ``lo + i``.
        wilds: indices in ``cards`` of the cards used as wilds.
    """

    __slots__ = ("cands", "cards", "fits", "is_run", "lo", "opts", "rank", "score", "suit", "wilds")

    def __init__(self, is_run: bool, suit: int, rank: int, lo: int, cards: list[int],
                 wilds: list[int]):
        self.is_run = is_run
        self.suit = suit
        self.rank = rank
        self.lo = lo
        self.cards = cards
        self.wilds = wilds
        self.cands: list[int] | None = None     # layoff_candidates cache (a meld never mutates)
        self.opts: tuple | None = None          # layoff_options cache: (rules, {card: melds})
        self.fits: tuple | None = None          # layoff_lanes cache: (rules, one, two)
        self.score: tuple | None = None         # the state's scoring cache (bonus rules, points)

    def copy(self) -> Meld:
        """An independent copy."""
        return Meld(self.is_run, self.suit, self.rank, self.lo, self.cards[:], self.wilds[:])

    @property
    def hi(self) -> int:
        """The run's highest position."""
        return self.lo + len(self.cards) - 1

    @property
    def clean(self) -> bool:
        """No card used as a wild."""
        return not self.wilds

    @property
    def kind(self) -> str:
        """``"run"`` or ``"set"``."""
        return "run" if self.is_run else "set"

    def is_full_run(self) -> bool:
        """A run covering all 13 ranks (A…K or 2…A, or ace to ace)."""
        return self.is_run and len(self.cards) >= 13

    def notation(self) -> list[str]:
        """The cards in the spec's notation, a run in position order with ``wild=stand-in``."""
        out = []
        for i, c in enumerate(self.cards):
            text = format_card(c)
            if self.is_run and i in self.wilds:
                text += "=" + format_card(position_card(self.suit, self.lo + i))
            out.append(text)
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple:
        """A hashable identity (sets compare as multisets)."""
        cards = tuple(self.cards) if self.is_run else tuple(sorted(self.cards))
        return (self.is_run, self.suit, self.rank, self.lo, cards, tuple(self.wilds))

    def __repr__(self) -> str:
        return f"Meld({' '.join(self.notation())})"


# -- validation of a card list ---------------------------------------------------------------

def _run_positions(c: int, suit: int, stand: int | None) -> tuple[int, ...] | None:
    """Positions ``c`` may take as a natural card of a ``suit`` run (None: it must be wild)."""
    if c == JOKER or SUIT[c] != suit or (stand is not None and stand != c):
        return None
    r = RANK[c]
    return (1, 14) if r == 1 else (r,)


def _stand_positions(stand: int, suit: int) -> tuple[int, ...]:
    if SUIT[stand] != suit:
        return ()
    r = RANK[stand]
    return (1, 14) if r == 1 else (r,)


def run_layouts(cards: Sequence[tuple[int, int | None]], mr: MeldRules) -> list[Meld]:
    """Every valid run reading of ``cards`` ((card, stand-in or None) pairs), canonical first.

    Canonical (biriba.md §4.4): fewest wilds (a suited 2 that can be natural is natural),
    then the lowest placement (an end wild goes low when it can).
    """
    suits = {SUIT[c] for c, _s in cards if not is_wild_type(c)}
    if not suits:
        suits = {SUIT[c] for c, _s in cards if c != JOKER} | {SUIT[s] for _c, s in cards if s is not None}
    if len(suits) != 1 or len(cards) < 3 or len(cards) > mr.max_run_len:
        return []
    suit = suits.pop()
    found: dict[tuple, Meld] = {}
    _assign(cards, 0, suit, {}, [], mr, found)
    return sorted(found.values(), key=lambda m: (len(m.wilds), m.lo))


def _assign(cards, i, suit, placed: dict[int, int], wild_items: list, mr: MeldRules,
            found: dict) -> None:
    """Backtracking: give every card a natural position or make it a wild."""
    if len(wild_items) > mr.max_wilds:
        return
    if i == len(cards):
        _fill_wilds(placed, wild_items, len(cards), suit, mr, found)
        return
    c, stand = cards[i]
    for pos in _run_positions(c, suit, stand) or ():
        if pos not in placed:
            placed[pos] = c
            _assign(cards, i + 1, suit, placed, wild_items, mr, found)
            del placed[pos]
    if is_wild_type(c):
        wild_items.append((c, stand))
        _assign(cards, i + 1, suit, placed, wild_items, mr, found)
        wild_items.pop()


def _fill_wilds(placed: dict[int, int], wild_items: list, n: int, suit: int, mr: MeldRules,
                found: dict) -> None:
    if not placed:
        return
    lo0, hi0 = min(placed), max(placed)
    if hi0 - lo0 + 1 > n or sum(1 for p in placed if p in (1, 14)
                                 and RANK[placed[p]] == 1) > mr.max_natural_aces:
        return
    for lo in range(max(1, hi0 - n + 1), lo0 + 1):
        hi = lo + n - 1
        if hi > 14 or (hi - lo + 1) > mr.max_run_len:
            continue
        gaps = [p for p in range(lo, hi + 1) if p not in placed]
        if not _wilds_fit(gaps, wild_items, suit):
            continue
        _record(lo, hi, placed, gaps, wild_items, suit, found)


def _wilds_fit(gaps: list[int], wild_items: list, suit: int) -> bool:
    """Wild cards with stand-ins must sit at their stand-in's position (one wild ⇒ one gap)."""
    for (c, stand), pos in zip(wild_items, gaps, strict=False):
        if stand is not None and pos not in _stand_positions(stand, suit):
            return False
        if c != JOKER and RANK[c] == TWO and SUIT[c] == suit and pos == 2 and stand is None:
            return False  # that reading is the natural 2, found separately
    return True


def _record(lo, hi, placed, gaps, wild_items, suit, found) -> None:
    cards, wilds = [], []
    gap_cards = dict(zip(gaps, (c for c, _s in wild_items), strict=False))
    for p in range(lo, hi + 1):
        if p in placed:
            cards.append(placed[p])
        else:
            wilds.append(p - lo)
            cards.append(gap_cards[p])
    meld = Meld(True, suit, 0, lo, cards, wilds)
    found.setdefault(meld.key(), meld)


def set_layout(cards: Sequence[tuple[int, int | None]], mr: MeldRules) -> tuple[Meld | None, str]:
    """The set reading of ``cards`` or ``(None, "biriba.md §4.x: reason")`` (§4.3)."""
    sec = mr.section
    plain = [c for c, _s in cards]
    if not mr.allow_sets:
        return None, f"{sec}.3: " + _("sets are not allowed (runs only)")
    if any(s is not None and s != c for c, s in cards):
        return None, f"{sec}.4: " + _("a wild in a set stands for no particular card")
    twos = [c for c in plain if c != JOKER and RANK[c] == TWO]
    if len(twos) + plain.count(JOKER) == len(plain) and twos:
        return _twos_set(plain, len(plain) - len(twos), mr)
    naturals = [c for c in plain if not is_wild_type(c)]
    if not naturals:
        return None, f"{sec}.3: " + _("jokers never form a set by themselves")
    rank = RANK[naturals[0]]
    if any(RANK[c] != rank for c in naturals):
        return None, f"{sec}.2: " + _("a run is cards of one suit and a set cards of one rank")
    wilds = [i for i, c in enumerate(plain) if is_wild_type(c)]
    if len(wilds) > mr.max_wilds:
        return None, f"{sec}.1: " + _("at most one wild per meld")
    if rank not in mr.set_ranks:
        return None, f"{sec}.3: " + _("this rank may not form a set")
    return Meld(False, -1, rank, 0, list(plain), wilds), ""


def _twos_set(plain: list[int], jokers: int, mr: MeldRules) -> tuple[Meld | None, str]:
    sec = mr.section
    if not mr.twos_set_allowed:
        return None, f"{sec}.3: " + _("a set of 2s is not allowed")
    if jokers and not mr.twos_set_may_contain_joker:
        return None, f"{sec}.3: " + _("a set of 2s may not contain a joker")
    if jokers > mr.max_wilds:
        return None, f"{sec}.1: " + _("at most one wild per meld")
    return Meld(False, -1, TWO, 0, list(plain), [i for i, c in enumerate(plain) if c == JOKER]), ""


def _high_aces(meld: Meld) -> int:
    """How many natural aces of a run sit at position 14 (above the king)."""
    return sum(1 for i, c in enumerate(meld.cards)
               if RANK[c] == 1 and meld.lo + i == 14 and i not in meld.wilds)


def validate(cards: Sequence[tuple[int, int | None]], mr: MeldRules) -> tuple[Meld | None, str]:
    """Validate a new meld: ``(Meld, "")`` or ``(None, "biriba.md §4.x: reason")``.

    ``cards`` are (card, stand-in or None) pairs in any order; a stand-in fixes a wild's
    position (``2C=6H``), otherwise the canonical reading of §4.4 is used: fewest wilds, and an
    end wild at the low end when that position exists. Where an ace could sit at either end, the
    order written decides (``2C … KC AC`` keeps its ace high, BIR-18); it never moves a wild.
    """
    if len(cards) < 3:
        return None, f"{mr.section}: " + _("a meld has at least 3 cards")
    runs = run_layouts(cards, mr)
    if runs:
        return canonical_run(runs, [c for c, _s in cards]), ""
    meld, why = set_layout(cards, mr)
    if meld is not None:
        return meld, ""
    naturals = [c for c, _s in cards if not is_wild_type(c)]
    if len({RANK[c] for c in naturals}) <= 1 and (len(naturals) > 1 or not naturals):
        return None, why
    return None, _explain_bad_run(cards, mr)


def _naturals(meld: Meld) -> dict[int, int]:
    """A run's natural cards by position."""
    return {meld.lo + i: c for i, c in enumerate(meld.cards) if i not in meld.wilds}


def placement_problem(meld: Meld, mr: MeldRules) -> str:
    """Why a **new** meld may not be laid down as written ("" when it may): with
    ``end_wild_low`` its wild sits at the high end although the position below its lowest
    natural card exists (buraco.md §4.4; a table meld may hold a high wild laid off later)."""
    if (mr.end_wild_low and meld.is_run and len(meld.wilds) == 1
            and meld.wilds[0] == len(meld.cards) - 1 and meld.lo > 1):
        return f"{mr.section}.4: " + _("a wild at an end of a new run goes below it when that "
                                       "position exists")
    return ""


def end_choices(runs: list[Meld], mr: MeldRules) -> list[Meld]:
    """``runs`` (canonical first) without the readings that only send the wild to the high end
    where ``end_wild_low`` keeps it low (buraco.md §4.4)."""
    if not mr.end_wild_low or len(runs) < 2:
        return runs
    first = _naturals(runs[0])
    return [runs[0], *(m for m in runs[1:] if _naturals(m) != first or not m.wilds)]


def canonical_run(runs: list[Meld], written: list[int]) -> Meld:
    """The canonical one of the run readings ``runs`` of the cards ``written`` (§4.4, see
    :func:`validate`)."""
    best = min(len(m.wilds) for m in runs)
    runs = [m for m in runs if len(m.wilds) == best]
    as_written = next((m for m in runs if m.cards == written), None)
    if as_written is not None:
        runs = [m for m in runs if _high_aces(m) == _high_aces(as_written)]
    return runs[0]


def _explain_bad_run(cards, mr: MeldRules) -> str:
    sec = mr.section
    naturals = [c for c, _s in cards if not is_wild_type(c)]
    if len(cards) > mr.max_run_len:
        return f"{sec}.2: " + n_("a run has at most {n} card (an ace may not be at both ends)",
                                 "a run has at most {n} cards (an ace may not be at both ends)",
                                 mr.max_run_len).format(n=number(mr.max_run_len))
    if len({SUIT[c] for c in naturals}) > 1:
        return f"{sec}.2: " + _("a run is cards of one suit and a set cards of one rank")
    loose = MeldRules(max_wilds=len(cards), allow_sets=False, max_run_len=14,
                      max_natural_aces=mr.max_natural_aces)
    readings = [m for m in run_layouts(cards, loose) if len(m.cards) <= mr.max_run_len]
    if readings:
        return f"{sec}.1: " + _("at most one wild per meld")
    if any(s is not None and s != c and not is_wild_type(c) for c, s in cards):
        return f"{sec}.4: " + _("only a wild (joker or 2) may stand for another card")
    return f"{sec}.2: " + _("the cards are not consecutive (no wrap-around K-A-2)")


# -- laying off (§4.5) ----------------------------------------------------------------------

def layoff_options(meld: Meld, c: int, mr: MeldRules) -> list[Meld]:
    """The melds that laying ``c`` off on ``meld`` may give, canonical (low) variant first.

    At most two results: when the player chooses an end (a moved or added wild, a free end wild
    that the naturals leave no hole for, or an ace that fits both ends) the variant with the
    wild lower comes first and the other second.
    ``meld`` is not changed. An empty list means the lay-off is illegal. The answer is cached
    on ``meld`` (melds never mutate): do not modify the returned list.
    """
    opts = meld.opts
    if opts is None or opts[0] is not mr:
        opts = meld.opts = (mr, {})
    found = opts[1].get(c)
    if found is None:
        found = opts[1][c] = _set_layoff(meld, c, mr) if not meld.is_run else _run_layoff(meld, c, mr)
    return found


def _set_layoff(meld: Meld, c: int, mr: MeldRules) -> list[Meld]:
    if meld.rank == TWO:
        if c != JOKER and RANK[c] == TWO:
            return [Meld(False, -1, TWO, 0, [*meld.cards, c], meld.wilds[:])]
        if c == JOKER and mr.twos_set_may_contain_joker and len(meld.wilds) < mr.max_wilds:
            return [Meld(False, -1, TWO, 0, [*meld.cards, c], [*meld.wilds, len(meld.cards)])]
        return []
    if c != JOKER and RANK[c] == meld.rank:
        return [Meld(False, -1, meld.rank, 0, [*meld.cards, c], meld.wilds[:])]
    if is_wild_type(c) and len(meld.wilds) < mr.max_wilds:
        return [Meld(False, -1, meld.rank, 0, [*meld.cards, c], [*meld.wilds, len(meld.cards)])]
    return []


def _end_ok(lo: int, hi: int, cards: list[int], suit: int, mr: MeldRules) -> bool:
    """The run ``cards`` on positions ``lo … hi`` fits the run length and the aces' rule."""
    if lo < 1 or hi > 14 or hi - lo + 1 > mr.max_run_len:
        return False
    if lo == 1 and hi == 14 and mr.max_natural_aces < 2:
        return cards[0] != card(1, suit) or cards[-1] != card(1, suit)
    return True


def _run_layoff(meld: Meld, c: int, mr: MeldRules) -> list[Meld]:
    suit, lo, hi = meld.suit, meld.lo, meld.hi
    out: list[Meld] = []
    natural_pos = _run_positions(c, suit, None) or ()
    if c != JOKER and RANK[c] == TWO and SUIT[c] == suit:
        natural_pos = (2,)
    free = mr.free_wild_moves and _free_end_wild(meld)
    for pos in natural_pos:
        if lo <= pos <= hi and (pos - lo) in meld.wilds:
            out.extend(_displace(meld, c, pos, mr))
        elif free:
            out.extend(_free_wild_move(meld, c, pos, mr))
        elif pos in (lo - 1, hi + 1):
            out.extend(_extend(meld, c, pos, False, mr))
    if is_wild_type(c) and len(meld.wilds) < mr.max_wilds:
        for pos in (lo - 1, hi + 1):
            if not (pos == 2 and SUIT[c] == suit and c != JOKER):
                out.extend(_extend(meld, c, pos, True, mr))
    if not out and mr.natural_two_wild and _natural_two_at_bottom(meld) and not is_wild_type(c):
        out.extend(_natural_two_move(meld, c, natural_pos, mr))
    if len(out) > 1:    # the low variant first (an ace at both ends, a free wild at either end)
        out = sorted({m.key(): m for m in out}.values(), key=_wild_low_first)
    return out


def _wild_low_first(meld: Meld) -> tuple[int, int]:
    """Sort key of a lay-off's results: its wild's position, then its lowest position."""
    return (meld.lo + meld.wilds[0] if meld.wilds else 0, meld.lo)


def second_wild(meld: Meld, c: int, mr: MeldRules) -> bool:
    """Whether laying ``c`` off on ``meld`` would need a second wild: ``c`` is a joker or a 2
    and the meld already holds its one wild (biriba.md / buraco.md §4.1 — the rule a refusal
    cites; a wild is never replaced by another wild, §4.5)."""
    return is_wild_type(c) and len(meld.wilds) >= mr.max_wilds and not layoff_options(meld, c, mr)


def _natural_two_at_bottom(meld: Meld) -> bool:
    """A clean run whose lowest card is its natural 2 (no ace below it; §4.5 move 3)."""
    return meld.is_run and not meld.wilds and meld.lo == 2


def _natural_two_move(meld: Meld, c: int, natural_pos: tuple[int, ...], mr: MeldRules) -> list[Meld]:
    """biriba.md / buraco.md §4.5 move 3 (``natural_two_may_become_wild``): ``c`` cannot join
    while the natural 2 stays in position 2, so the 2 leaves it and becomes the run's wild in
    the single hole the naturals then leave (``2C 3C 4C 5C`` + ``7C`` → ``3C 4C 5C 2C=6C 7C``;
    two holes: illegal). The run becomes dirty."""
    return _moved_to_gap(meld, 0, c, natural_pos, mr, natural_at_two=False)


def _free_end_wild(meld: Meld) -> bool:
    """A run whose one wild sits at its lowest or highest position, not between two naturals
    (biriba.md / buraco.md §4.5 move 2: a *free* wild)."""
    return meld.is_run and len(meld.wilds) == 1 and meld.wilds[0] in (0, len(meld.cards) - 1)


def _free_wild_move(meld: Meld, c: int, pos: int, mr: MeldRules) -> list[Meld]:
    """biriba.md / buraco.md §4.5 move 2 (``free_wild_may_move``): the natural ``c`` joins at
    ``pos`` and the free wild takes its place again: the naturals must leave at most one hole;
    the wild fills it (``2S=4S 5S 6S`` + ``8S`` → ``5S 6S 2S=7S 8S``), and with none it sits
    directly below or directly above the naturals, where the player chooses
    (``JK=4C 5C 6C`` + ``7C`` → ``JK=4C 5C 6C 7C`` or ``5C 6C 7C JK=8C``; with
    ``end_wild_placement = low`` below whenever that position exists, buraco.md §4.4). A 2 of the
    run's suit landing on position 2 is natural there."""
    return _moved_to_gap(meld, meld.wilds[0], c, (pos,), mr, natural_at_two=True, ends=True)


def _moved_to_gap(meld: Meld, moving: int, c: int, natural_pos: tuple[int, ...], mr: MeldRules, *,
                  natural_at_two: bool, ends: bool = False) -> list[Meld]:
    """The runs in which ``meld.cards[moving]`` leaves its place and fills the single gap that
    the run's other cards and ``c`` (at one of ``natural_pos``) leave, as a wild (§4.5 moves 2
    and 3); with ``ends`` (move 2), where they leave no gap, it sits at either end of them (the
    low end only with ``end_wild_low`` when that one exists). A 2 of the run's suit landing on
    position 2 is natural there: kept as such when ``natural_at_two``, else that placement is
    not a move."""
    card = meld.cards[moving]
    placed = {meld.lo + i: x for i, x in enumerate(meld.cards) if i != moving}
    out = []
    for pos in natural_pos:
        if pos in placed:
            continue
        cells = {**placed, pos: c}
        lo, hi = min(cells), max(cells)
        gaps = [p for p in range(lo, hi + 1) if p not in cells]
        if len(gaps) == 1:
            places = gaps
        elif not gaps and ends:
            places = [p for p in (lo - 1, hi + 1) if 1 <= p <= 14]
        else:
            continue
        found = []
        for gap in places:
            natural = card != JOKER and SUIT[card] == meld.suit and gap == 2
            if natural and not natural_at_two:
                continue
            at = {**cells, gap: card}
            low, high = min(at), max(at)
            new = Meld(True, meld.suit, 0, low, [at[p] for p in range(low, high + 1)], [] if natural else [gap - low])
            if _end_ok(low, high, new.cards, meld.suit, mr) and _aces_ok(new, mr):
                found.append(new)
        out.extend(found[:1] if mr.end_wild_low and not gaps else found)
    return out


def _extend(meld: Meld, c: int, pos: int, wild: bool, mr: MeldRules) -> list[Meld]:
    if pos < meld.lo:
        cards, wilds, lo = [c, *meld.cards], [w + 1 for w in meld.wilds], pos
        if wild:
            wilds.insert(0, 0)
    else:
        cards, wilds, lo = [*meld.cards, c], meld.wilds[:], meld.lo
        if wild:
            wilds.append(len(meld.cards))
    new = Meld(True, meld.suit, 0, lo, cards, sorted(wilds))
    ok = _end_ok(new.lo, new.hi, new.cards, meld.suit, mr)
    return [new] if ok and (wild or _aces_ok(new, mr)) else []


def _aces_ok(meld: Meld, mr: MeldRules) -> bool:
    aces = sum(1 for i, c in enumerate(meld.cards) if RANK[c] == 1 and i not in meld.wilds)
    return aces <= min(mr.max_natural_aces, 1 if mr.max_run_len == 13 else 2)


def _displace(meld: Meld, c: int, pos: int, mr: MeldRules) -> list[Meld]:
    """The natural card ``c`` takes ``pos``; the wild there moves to an end (§4.5)."""
    idx = pos - meld.lo
    wild = meld.cards[idx]
    base = meld.cards[:]
    base[idx] = c
    rest = Meld(True, meld.suit, 0, meld.lo, base, [w for w in meld.wilds if w != idx])
    suited_two = wild != JOKER and SUIT[wild] == meld.suit
    if suited_two and mr.suited_two_goes_natural and meld.lo == 3:
        return _extend(rest, wild, 2, False, mr)
    out = []
    for end in (meld.lo - 1, meld.hi + 1):
        out.extend(_extend(rest, wild, end, True, mr))
        if out and mr.end_wild_low:     # buraco.md §4.4: a replaced wild goes low if it can
            break
    return out


# -- reachability from a hand (legal actions, heuristics) ------------------------------------
#
# These answers depend only on a few counts of the hand, so they are memoized per rule set:
# a hand changes one card type at a time, and the counts of the suits and ranks it did not
# touch keep their memo entries.

@mypyc_attr(native_class=False)
class RulesMemo(dict):
    """The memo dict of a rule set; a pickled or deep-copied one is the memo of its (equal) rule
    set where it is loaded (a state's copy shares the memo, it does not carry one)."""

    def __init__(self, mr: MeldRules):
        super().__init__()
        self.mr = mr

    def __reduce__(self):
        return memo_of, (self.mr,)


_MEMOS: dict[int, tuple[MeldRules, RulesMemo]] = {}
_BY_RULES: dict[MeldRules, RulesMemo] = {}
MEMO_LIMIT = 400_000


def memo_of(mr: MeldRules) -> RulesMemo:
    """The memo dict of the rule set ``mr`` (shared by equal rule sets; cleared when large)."""
    entry = _MEMOS.get(id(mr))
    if entry is not None and entry[0] is mr:
        memo = entry[1]
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        return memo
    if len(_MEMOS) > 1000:
        _MEMOS.clear()
    memo = _BY_RULES.setdefault(mr, RulesMemo(mr))
    _MEMOS[id(mr)] = (mr, memo)
    return memo


def can_complete(chosen: Sequence[int], hand: Sequence[int], mr: MeldRules,
                 size_ok: Callable[[int], bool], set_ranks: frozenset | None = None) -> bool:
    """Whether the partial meld ``chosen`` can become a legal meld using cards of ``hand``.

    ``hand`` is a per-type count list of the cards still in hand (``chosen`` not included);
    ``size_ok(n)`` says whether a final meld of ``n`` cards is acceptable (the caller's
    "emptying the hand" rule); ``set_ranks`` narrows the ranks a new set may have (a side
    that may not own two sets of one rank).
    """
    return any(size_ok(n) for n in complete_sizes(chosen, hand, mr, set_ranks))


def complete_sizes(chosen: Sequence[int], hand: Sequence[int], mr: MeldRules,
                   set_ranks: frozenset | None = None) -> tuple[int, ...]:
    """The sizes (ascending) of the legal melds that complete ``chosen`` from ``hand``
    (see :func:`can_complete`, which asks whether one of them is acceptable)."""
    naturals = [c for c in chosen if not is_wild_type(c)]
    suits = {SUIT[c] for c in naturals}
    sizes: set[int] = set()
    if len(suits) <= 1:
        memo = memo_of(mr)
        other = hand[JOKER] + hand[1] + hand[14] + hand[27] + hand[40]
        for suit in (suits or range(4)):
            key = ("run", *run_memo_key(chosen, hand, suit, mr, other))
            found = memo.get(key)
            if found is None:
                found = memo[key] = _run_sizes(chosen, hand, suit, mr, key[3])
            sizes.update(found)
    set_sizes(chosen, naturals, hand, mr, mr.set_ranks if set_ranks is None else set_ranks, sizes)
    return tuple(sorted(sizes))


def twos_set_open(mr: MeldRules, set_ranks: frozenset) -> bool:
    """A new set of 2s may be melded: ``twos_set_allowed``, and ``set_ranks`` (the ranks a new
    set may have) is the rule set's own or holds 2 — a side that may not own two sets of one
    rank (``allow_duplicate_set_ranks`` false) gets 2 in it until it owns a set of 2s
    (:class:`~kafenio.rummy.state.SideFacts`; buraco.md §4.1, §4.3)."""
    return mr.twos_set_allowed and (set_ranks is mr.set_ranks or TWO in set_ranks)


def set_sizes(chosen, naturals, hand, mr: MeldRules, set_ranks, sizes: set[int]) -> None:
    """Add to ``sizes`` those of the sets (and the set of 2s) that complete ``chosen`` (its
    ``naturals`` listed) from ``hand`` (biriba.md §4.3)."""
    if not mr.allow_sets:
        return
    n = len(chosen)
    jokers = sum(1 for c in chosen if c == JOKER)
    twos_hand = hand[1] + hand[14] + hand[27] + hand[40]
    if twos_set_open(mr, set_ranks) and all(c == JOKER or RANK[c] == TWO for c in chosen):
        twos = n - jokers
        room = (mr.max_wilds - jokers) if mr.twos_set_may_contain_joker else 0
        if room >= 0 and (jokers == 0 or mr.twos_set_may_contain_joker):
            avail = twos_hand
            extra_j = min(room, hand[JOKER])
            for size in range(max(3, n), n + avail + extra_j + 1):
                if twos + min(avail, size - n) >= 3 and (size - n) - min(avail, size - n) <= extra_j:
                    sizes.add(size)
    ranks = {RANK[c] for c in naturals}
    if len(ranks) > 1:
        return
    wild_n = n - len(naturals)
    if wild_n > mr.max_wilds:
        return
    wild_room = min(mr.max_wilds - wild_n, hand[JOKER] + twos_hand)
    low = max(3, n)
    for rank in (ranks or set_ranks):
        if rank not in set_ranks or rank == TWO:
            continue
        a = rank - 1
        nat_hand = hand[a] + hand[a + 13] + hand[a + 26] + hand[a + 39]
        if not naturals and nat_hand == 0:
            continue
        max_size = n + nat_hand + wild_room
        if naturals:
            sizes.update(range(low, max_size + 1))
        else:   # len(naturals) + min(nat_hand, size - n) >= 1
            sizes.update(range(max(low, n + 1), max_size + 1))


def run_key(chosen: Sequence[int], suit: int) -> bytes:
    """The chosen cards as :func:`run_spans` reads them for the runs of ``suit`` (whose
    naturals they all are, if any), the same for every suit: a card of the suit as its
    suit-0 card (the suit's 2 as 1), any other wild (a joker, another suit's 2) as the joker;
    sorted. With the suit's counts and the other wilds it decides the spans (a memo key)."""
    base = 13 * suit
    return bytes(sorted([JOKER if c == JOKER or (RANK[c] == TWO and SUIT[c] != suit) else c - base
                         for c in chosen]))


def run_memo_key(chosen: Sequence[int], hand: Sequence[int], suit: int, mr: MeldRules,
                 other: int) -> tuple[bytes, bytes, int]:
    """What decides the runs of ``suit`` completing ``chosen`` from ``hand`` (a memo key, shared
    by hands alike in it): :func:`run_key`, :func:`run_counts` and the other wilds usable (the
    hand's ``other`` wilds but the suit's 2, at most ``max_wilds``; the last item is that number,
    :func:`run_spans`'s ``other_wilds``)."""
    others = min(other - hand[13 * suit + 1], mr.max_wilds)
    return run_key(chosen, suit), run_counts(chosen, hand, suit, mr.max_wilds), others


def run_counts(chosen: Sequence[int], hand: Sequence[int], suit: int, max_wilds: int) -> bytes:
    """The counts of ``suit`` in ``hand`` (A…K, 13 bytes) as :func:`_scan_intervals` reads them
    for runs holding the chosen naturals 3…K of the suit: with such a natural at positions
    ``lo…hi``, a run reaching past the ``max_wilds + 1``-th position left of ``lo`` (or right of
    ``hi``) that the hand cannot fill lacks more cards than wilds may replace, so the counts past
    it are read as 0; a count of 3…K counts as 1 (only whether the card is held matters). The
    ace's count stays when the runs may reach an end (position 1 or 14); the suit's 2 always (it
    may stand in anywhere). With the other wilds and :func:`run_key` it is a memo key that
    different hands share."""
    base = 13 * suit
    seg = bytes(hand[base:base + 13])
    lo, hi = 14, 0
    for c in chosen:
        if base + 2 <= c < base + 13:
            r = c - base + 1
            lo = min(lo, r)
            hi = max(hi, r)
    if not hi:
        return seg
    left = _reach(seg, lo - 1, -1, max_wilds)
    right = _reach(seg, hi + 1, 1, max_wilds)
    ace = seg[0] if left < 3 or right > 13 else 0
    start = max(left, 2)                 # the first kept position is start + 1, at index start
    stop = min(right, 14) - 1            # the last kept one
    return (bytes((ace, seg[1])) + bytes(start - 2) + seg[start:stop].translate(PRESENT)
            + bytes(13 - stop))


def _reach(seg: bytes, pos: int, step: int, max_wilds: int) -> int:
    """From run position ``pos`` (3…13) on, in direction ``step``, the first position a run
    cannot reach: the ``max_wilds + 1``-th one the suit's counts ``seg`` leave empty, or the
    first past 3…13 (2 or 14)."""
    gaps = 0
    while 3 <= pos <= 13:
        if not seg[pos - 1]:
            gaps += 1
            if gaps > max_wilds:
                break
        pos += step
    return pos


def _run_sizes(chosen, hand, suit: int, mr: MeldRules, other_wilds: int) -> tuple[int, ...]:
    """The sizes of the ``suit`` runs (position intervals) that complete the chosen cards."""
    return tuple(sorted({n for lo, first, last in run_spans(chosen, hand, suit, mr, other_wilds)
                         for n in range(first - lo + 1, last - lo + 2)}))


#: the positions the chosen aces take in a run, by their count (low, high or both ends)
_ACE_SETS: tuple[tuple[tuple[int, ...], ...], ...] = (((),), ((1,), (14,)), ((1, 14),))


def run_spans(chosen, hand, suit: int, mr: MeldRules, other_wilds: int,
              extra: int = 0) -> list[tuple[int, int, int]]:
    """The position intervals of the ``suit`` runs that complete the chosen cards from
    ``hand`` (``other_wilds``: the hand's wilds other than the suit's 2, at most ``max_wilds``):
    ``(lo, first, last)`` stands for [lo, hi] with ``first ≤ hi ≤ last`` (an interval may be
    listed twice).

    With ``extra = 1`` an interval must also hold one free position more than the chosen
    wilds need: those are the runs of chosen + a natural 3…K of ``suit`` taken from the hand at
    a free position of the interval (the hand's card filled it already; as a chosen card it
    is one free position less), all of them from one scan.
    """
    pos_of: list[int] = []
    aces = 0
    s2_chosen = 0
    wild_chosen = 0
    for c in chosen:
        if c == JOKER or (RANK[c] == TWO and SUIT[c] != suit):
            wild_chosen += 1
        elif RANK[c] == TWO:
            s2_chosen += 1
        elif SUIT[c] != suit:
            return []
        elif RANK[c] == 1:
            aces += 1
        else:
            pos_of.append(RANK[c])
    if (len(set(pos_of)) != len(pos_of) or aces > mr.max_natural_aces
            or wild_chosen + max(0, s2_chosen - 1) > mr.max_wilds):   # one 2 may be natural
        return []
    ace_sets = _ACE_SETS[aces]
    spans: list[tuple[int, int, int]] = []
    for ace_pos in ace_sets:
        fixed = set(pos_of) | set(ace_pos)
        if len(fixed) != len(pos_of) + len(ace_pos):
            continue
        _scan_intervals(fixed, s2_chosen, wild_chosen, hand, suit, other_wilds, mr, extra, spans)
    return spans


def _scan_intervals(fixed: set[int], s2_chosen: int, wild_chosen: int, hand, suit: int,
                    other_wilds: int, mr: MeldRules, extra: int, spans: list) -> None:
    """Add ``(lo, first, last)``: the intervals [lo, hi] with ``first ≤ hi ≤ last`` make a legal
    run (``extra``: see :func:`run_spans`). For each ``lo``
    the positions are taken in order, each wider interval extending the narrower one: the
    natural cards of the hand fill what they can (the suit's 2 at position 2, an ace at
    1 or 14 while natural aces remain allowed), the chosen wilds and the hand's wilds the rest;
    once more positions are missing than wilds may be used, no wider interval works, and when
    they lie left of the chosen cards no lower start works either. The intervals that work
    from one ``lo`` are consecutive: the chosen wilds need enough free positions (more as
    ``hi`` grows), the missing ones enough wilds (fewer as ``hi`` grows)."""
    base = suit * 13
    nat = [0, *hand[base:base + 13], hand[base]]
    ace_hand = nat[1]
    s2_hand = nat[2]
    max_wilds = mr.max_wilds
    max_aces = mr.max_natural_aces
    max_len = mr.max_run_len
    fixed_aces = (1 in fixed) + (14 in fixed)
    if fixed:
        lo_max, hi_min = min(fixed), max(fixed)
    else:
        lo_max, hi_min = 14, 1
    for lo in range(lo_max, 0, -1):
        if hi_min - lo + 1 > max_len:
            break
        first_hi = max(lo + 2, hi_min)
        missing = free = 0
        aces_used = fixed_aces
        aces_left = ace_hand
        s2_left_chosen = s2_chosen
        s2_left_hand = s2_hand
        first = last = 0
        for p in range(lo, min(14, lo + max_len - 1) + 1):
            if p in fixed:
                pass
            elif p == 2 and s2_left_chosen:
                s2_left_chosen -= 1
            else:
                free += 1
                if p == 2 and s2_left_hand:
                    s2_left_hand -= 1
                elif (p == 1 or p == 14) and aces_left and aces_used < max_aces:
                    aces_used += 1
                    aces_left -= 1
                elif 2 < p < 14 and nat[p]:
                    pass
                else:
                    missing += 1
                    if missing > max_wilds:
                        break
            if p < first_hi:
                continue
            chosen_wild = wild_chosen + s2_left_chosen
            if missing - chosen_wild > other_wilds + s2_left_hand:
                break
            if chosen_wild <= free - extra and chosen_wild <= max_wilds:
                if not first:
                    first = p
                last = p
        if first:
            spans.append((lo, first, last))
        if missing > max_wilds and fixed and p < lo_max:
            break   # left of the chosen cards too many are missing: so for every lower start


def startable(hand: list[int], mr: MeldRules, size_ok: Callable[[int], bool],
              set_ranks: frozenset | None = None, types: Sequence[int] = range(53)) -> list[int]:
    """Card types among ``types`` of ``hand`` that can begin a legal meld (see ``can_complete``).

    When 3-card melds are acceptable the answer comes from the 3-card melds alone (every
    legal meld holding a card contains a legal 3-card meld holding it, :func:`three_card_lanes`);
    otherwise each type is checked with :func:`can_complete`.
    """
    if size_ok(3) and mr.max_wilds <= 1:
        hb = bytes(hand)
        found = three_card_lanes(hb, int.from_bytes(hb.translate(PRESENT), "little"), mr,
                                 mr.set_ranks if set_ranks is None else set_ranks,
                                 memo_of(mr)).to_bytes(NUM_LANES, "little")
        return [c for c in types if found[c]]
    out = []
    for c in types:
        if hand[c]:
            hand[c] -= 1
            if can_complete((c,), hand, mr, size_ok, set_ranks):
                out.append(c)
            hand[c] += 1
    return out


# -- type sets as byte lanes ------------------------------------------------------------------
#
# A set of card types is an int whose byte ``t`` (little-endian) is 1 when type ``t`` is in it:
# ``&``/``|`` intersect and join, ``bytes(hand).translate(PRESENT)`` turns a count list into the
# set of the types held, and ``itertools.compress(ids, lanes.to_bytes(...))`` lists the members
# in order (all C loops).

NUM_LANES = 53
LANE_BITS = 8 * NUM_LANES
#: ``bytes.translate`` table: a count to 1 when positive
PRESENT = bytes([0, *[1] * 255])
_SUIT_SHIFT = (0, 13 * 8, 26 * 8, 39 * 8)
OWN_TWO = tuple(1 << 8 * card(2, s) for s in range(4))
WILD_LANES = (1 << 8 * JOKER) | sum(OWN_TWO)
_TWO_LANES = sum(OWN_TWO)
_ALL_SUITS = sum(1 << shift for shift in _SUIT_SHIFT)   # × a rank lane: that rank in every suit
_RANK_ALL_SUITS = tuple(_ALL_SUITS << 8 * a for a in range(13))
_RANK_MASK = (1 << 13 * 8) - 1          # the lanes of one suit: a count per rank
_SUIT_RUNS = tuple((13 * s, shift, OWN_TWO[s]) for s, shift in enumerate(_SUIT_SHIFT))
_AT_LEAST = {need: bytes(int(n >= need) for n in range(256)) for need in (2, 3)}
_RANK_LANES: dict[frozenset, int] = {}


def lanes_of(types) -> int:
    """The lane set of an iterable of card types."""
    out = 0
    for c in types:
        out |= 1 << 8 * c
    return out


def _rank_lanes(ranks: frozenset) -> int:
    found = _RANK_LANES.get(ranks)
    if found is None:
        found = _RANK_LANES[ranks] = lanes_of(r - 1 for r in ranks if r != TWO)
    return found


def three_card_lanes(hb: bytes, held: int, mr: MeldRules, set_ranks: frozenset, memo: dict) -> int:
    """The lane set of the card types of a hand that belong to some legal 3-card meld.

    ``hb`` is ``bytes(hand)`` (counts per type), ``held`` its lane set; ``memo`` is
    :func:`memo_of` ``(mr)`` (one suit's 3-card runs are memoized on its 13 counts, in one
    table with other wilds held and one without, each cleared when large).
    """
    tables: tuple[dict[bytes, tuple[int, bool, bool]], dict[bytes, tuple[int, bool, bool]]] | None
    tables = memo.get("three")
    if tables is None:
        tables = ({}, {})
        memo["three"] = tables
    others = hb[JOKER] + hb[1] + hb[14] + hb[27] + hb[40]
    wilds = held & WILD_LANES
    found = 0
    for base, shift, own in _SUIT_RUNS:
        seg = hb[base:base + 13]
        pool = others > hb[base + 1]
        entry = tables[pool].get(seg)
        if entry is None:
            if len(tables[pool]) > MEMO_LIMIT:
                tables[pool].clear()
            entry = tables[pool][seg] = _three_card_runs(seg, pool, mr)
        found |= entry[0] << shift
        if entry[1]:
            found |= wilds if entry[2] else wilds & ~own
    if mr.allow_sets:
        any_wild = mr.max_wilds > 0 and others > 0
        counts = int.from_bytes(hb, "little")
        by_rank = (counts + (counts >> 104) + (counts >> 208) + (counts >> 312)) & _RANK_MASK
        ranks = int.from_bytes(by_rank.to_bytes(13, "little").translate(_AT_LEAST[2 if any_wild else 3]),
                               "little") & _rank_lanes(set_ranks)
        if ranks:
            found |= ranks * _ALL_SUITS & held
            if any_wild:
                found |= wilds
        if twos_set_open(mr, set_ranks) and hb[1] + hb[14] + hb[27] + hb[40] >= 3:
            found |= held & _TWO_LANES
    return found


def _three_card_runs(seg: bytes, pool: bool, mr: MeldRules) -> tuple[int, bool, bool]:
    """The 3-card runs of one suit: ``(lanes of the natural types in one, counted from the
    suit's ace; a wild completes one; the suit's own 2 may be that wild)``; ``seg`` holds the
    suit's counts A…K, ``pool`` whether other wilds (jokers, other suits' 2s) are in hand."""
    found: set[int] = set()
    nat = [0, *seg, seg[0]]
    own_twos = seg[1]
    wild_room = mr.max_wilds > 0
    wild = own_two = False
    for lo in range(1, 13):
        present = [p for p in (lo, lo + 1, lo + 2) if nat[p]]
        if len(present) < 2:
            continue
        spare_s2 = own_twos - (1 if 2 in present else 0)
        wilds = (pool or spare_s2 > 0) if wild_room else False
        if len(present) == 3 or wilds:
            found.update((p - 1) % 13 for p in present)
        if wilds:
            wild = True
            if spare_s2 > 0:
                own_two = True
    return lanes_of(found), wild, own_two


def layoff_candidates(meld: Meld, mr: MeldRules) -> list[int]:
    """Card types that might be laid off on ``meld`` (a cheap superset for legal actions)."""
    if meld.cands is None:
        meld.cands = _layoff_candidates(meld, mr)
    return meld.cands


def layoff_lanes(meld: Meld, mr: MeldRules) -> tuple[int, int]:
    """``(lanes of the types that can be laid off on meld, lanes of those with a choice of
    end)`` (see :func:`layoff_options`; cached on the meld, a run's memoized by its key; a set
    takes its rank's naturals and, with room for a wild, the wilds: §4.3, §4.5)."""
    fits = meld.fits
    if fits is None or fits[0] is not mr:
        if not meld.is_run:     # one option per card (see _set_layoff)
            room = len(meld.wilds) < mr.max_wilds
            if meld.rank == TWO:
                one = _TWO_LANES | (1 << 8 * JOKER if room and mr.twos_set_may_contain_joker else 0)
            else:
                one = (_RANK_ALL_SUITS[meld.rank - 1]) | (WILD_LANES if room else 0)
            fits = meld.fits = (mr, one, 0)
            return one, 0
        memo = memo_of(mr)
        key = ("lanes", meld.key())
        found = memo.get(key)
        if found is None:
            one = two = 0
            for c in layoff_candidates(meld, mr):
                n = len(layoff_options(meld, c, mr))
                if n:
                    one |= 1 << 8 * c
                    if n > 1:
                        two |= 1 << 8 * c
            found = memo[key] = (one, two)
        fits = meld.fits = (mr, *found)
    return fits[1], fits[2]


def _layoff_candidates(meld: Meld, mr: MeldRules) -> list[int]:
    wild_room = len(meld.wilds) < mr.max_wilds
    if not meld.is_run:
        if meld.rank == TWO:
            return [card(2, s) for s in range(4)] + ([JOKER] if wild_room else [])
        nat = [card(meld.rank, s) for s in range(4)]
        return nat + ([JOKER] + [card(2, s) for s in range(4)] if wild_room else [])
    out = {position_card(meld.suit, p) for p in (meld.lo - 1, meld.hi + 1) if 1 <= p <= 14}
    out.update(position_card(meld.suit, meld.lo + w) for w in meld.wilds)
    if mr.free_wild_moves and len(meld.wilds) == 1 and meld.wilds[0] in (0, len(meld.cards) - 1):
        lo, hi = (meld.lo + 1, meld.hi) if meld.wilds[0] == 0 else (meld.lo, meld.hi - 1)
        out.update(position_card(meld.suit, p) for p in (lo - 2, hi + 2) if 1 <= p <= 14)
    if mr.natural_two_wild and _natural_two_at_bottom(meld) and meld.hi + 2 <= 14:
        out.add(position_card(meld.suit, meld.hi + 2))
    if wild_room:
        out.update([JOKER] + [card(2, s) for s in range(4)])
    return sorted(out)
