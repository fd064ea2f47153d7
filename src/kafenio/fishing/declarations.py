"""Diloti's table: the Basra floor plus declarations (``fishing-relatives.md`` Part C).

The table holds loose cards (``state.floor``, sorted) and **declarations** (``state.decls``): a
:class:`Decl` has a kind (``P`` plain, ``G`` group), a value 1–10, an owner and its components
(tuples of cards; a plain declaration has one). A played numeral makes exactly one **move**
(C3): a capture, a plain declaration, a raise, a group declaration, or laying the card.

A :class:`Move` names table items by loose-card position and declaration index. The engine
offers the moves of a played card as its capture choices (action ``52 + k``), so this module is
the one place that knows what a Diloti card may do — the engine, the referee and the players
call :meth:`DeclarationState.moves`.

Speed (the hot path of every playout): a numeral's public move list is a pure function of its
value, the loose numerals' values and the declarations as the mover sees them; it is memoised
on exactly that and, on a miss, assembled from smaller memoised pieces (see "the move
enumerator" below). Each listed move carries its *need* — the value the hand must still hold —
so the legal choices are a bit test per move, not a second enumeration.

Notation: ``P8@1(5C 3D)``, ``G9@0(9S | 5C 3D AH)`` (README of the spec); moves are written
``capture 7C 5S 2C P7@1``, ``declare P8 5C``, ``raise P4@1 to 9``, ``group G8 8C P8@0``, ``lay``.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from functools import lru_cache
from itertools import islice
from typing import Any, NamedTuple

from kafenio.cards import RANK, format_card, format_cards, parse_cards
from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.engine.game import TERMINAL
from kafenio.fishing.captures import VALUE, sum_unions
from kafenio.fishing.state import CHOOSE, FLOOR_ORDER, NUM_PLAY, FishingGame, FishingState
from kafenio.i18n import _

FACE_RANKS = (11, 12, 13)
_DECL_TEXT = re.compile(r"([PG])(\d+)@(\d+)\(([^)]*)\)")


class Decl(NamedTuple):
    """A declaration on the table (C3.1)."""

    kind: str
    value: int
    owner: int
    components: tuple[tuple[int, ...], ...]
    soy: bool = False

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(c for comp in self.components for c in comp)

    def label(self) -> str:
        """``P8@1``: kind, value and owner (unique: a player owns at most one declaration)."""
        return f"{self.kind}{self.value}@{self.owner}"

    def text(self) -> str:
        """``P8@1(5C 3D)`` / ``G9@0(9S | 5C 3D AH)``."""
        return f"{self.label()}({' | '.join(format_cards(list(c)) for c in self.components)})"


class Move(NamedTuple):
    """One move of a played card: ``kind`` (capture, declare, raise, group, lay), the loose-card
    positions and declaration indices it involves, the declared value (0 for captures/lays)."""

    kind: str
    loose: tuple[int, ...] = ()
    decls: tuple[int, ...] = ()
    value: int = 0


LAY = Move("lay")


def parse_table(text: str) -> tuple[list[int], list[Decl]]:
    """``{7S QC P8@1(5C 3D) G9@0(9S | 4D 5H)}`` → loose cards and declarations.

    Raises:
        CardError: a bad card; KafenioError: a malformed declaration.
    """
    text = text.replace("{", " ").replace("}", " ")
    decls = []
    for kind, value, owner, body in _DECL_TEXT.findall(text):
        comps = tuple(tuple(parse_cards(part)) for part in body.split("|"))
        if not all(comps) or (kind == "P" and len(comps) != 1) or (kind == "G" and len(comps) < 2):
            raise KafenioError(_("malformed declaration {d}").format(d=f"{kind}{value}@{owner}({body})"))
        decls.append(Decl(kind, int(value), int(owner), comps, kind == "G" and len(comps) == 2
                          and all(len(c) == 1 for c in comps)))
    loose = parse_cards(_DECL_TEXT.sub(" ", text))
    return loose, decls


@lru_cache(maxsize=100_000)
def _partition(items: tuple[tuple[int, int, int], ...], target: int) -> tuple[tuple[int, ...], ...] | None:
    """Split ``items`` — ``(value, kind, flags)`` with item 0 the played card — into parts worth
    ``target``: kind 0 loose card, 1 plain declaration usable only whole or raised by the
    played card (strict), 2 plain declaration usable as a card; flags 1 = the played card may
    raise it. The played card's part holds at most one declaration, which it may raise.
    Returns the parts (item indices) or ``None``."""
    n = len(items)

    def solve(left: int) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        sub = rest
        while True:
            part = sub | (1 << first)
            members = [i for i in range(n) if part >> i & 1]
            if sum(items[i][0] for i in members) == target and _part_ok(items, members):
                tail = solve(left & ~part)
                if tail is not None:
                    return [tuple(members), *tail]
            if not sub:
                return None
            sub = (sub - 1) & rest

    found = solve((1 << n) - 1)
    return tuple(found) if found is not None else None


def _part_ok(items: tuple[tuple[int, int, int], ...], members: list[int]) -> bool:
    decls = [i for i in members if items[i][1]]
    if not decls:
        return True
    if 0 in members:
        return len(decls) == 1 and items[decls[0]][2] == 1 and (
            items[decls[0]][1] == 2 or len(members) == 2)
    return all(items[i][1] == 2 for i in decls) or len(members) == 1


# -- the move enumerator (the hot path) ----------------------------------------------------
#
# A numeral's moves depend only on its value, the values of the loose numerals (in floor order)
# and a signature of the declarations as the mover sees them, so the public list is memoised on
# exactly that (``DeclarationGame.move_memo``). A miss is assembled from pieces memoised on less:
# the captures of a value ``x`` only see the loose numerals below or at ``x``, the declarations
# those at most ``10 − x``, the groups of a value ``V`` those at most ``V`` — and the floor is
# sorted, so each piece is keyed by a prefix of the values (its *head*), which every card, both
# players and many tables share. Under them, subsets by sum and unions of disjoint parts worth a
# value are bit-mask tables (as :func:`kafenio.fishing.captures.sum_unions`). Loose positions are
# numeral indices (the numerals come first on the sorted floor; the state maps them when a
# constructed floor is out of order, and an unsorted one is keyed by all its values).
#
# Every move also carries what the hand must hold after the play (its *need*, a bit mask of
# values; 0 for nothing), so the engine enables the legal moves without listing them again.

_LIMIT = 200_000
#: per card type, its value as a bit (faces: bit 0, which no move needs)
_BIT = tuple(1 << v for v in VALUE)
_BITS: dict[int, tuple[int, ...]] = {}
_SMALL: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
_BUDGET: dict[tuple[tuple[int, ...], int], tuple[tuple[int, int], ...]] = {}
_PACKS: dict[tuple[tuple[int, ...], int], dict[int, int]] = {}
_LOOSE_SETS: dict[tuple[int, tuple[int, ...], int], tuple[tuple[int, int], ...]] = {}
_POOL_SETS: dict[tuple, tuple[tuple[int, int], ...]] = {}
_BASES: dict[tuple, tuple] = {}
_CAPTURES: dict[tuple, tuple[Move, ...]] = {}
_DECLARES: dict[tuple, tuple] = {}
_GROUPS: dict[tuple, tuple[Move, ...]] = {}

_new = tuple.__new__  # a Move without the named tuple's Python-level constructor
#: the moves and the need of each
Entry = tuple[tuple[Move, ...], tuple[int, ...]]


def _bits(mask: int) -> tuple[int, ...]:
    """The set bit positions of ``mask``, ascending (memoised)."""
    hit = _BITS.get(mask)
    if hit is None:
        hit = _remember(_BITS, mask, tuple(i for i in range(mask.bit_length()) if mask >> i & 1))
    return hit


def _remember(memo: dict, key: Any, value: Any) -> Any:
    """``memo[key] = value``; a full memo first forgets its older half (bounded memory)."""
    if len(memo) >= _LIMIT:
        for old in list(islice(memo, _LIMIT // 2)):
            memo.pop(old, None)
    memo[key] = value
    return value


def _small_subsets(vals: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Index 0 … 10: the non-empty subsets (bit masks over ``vals``) with that sum, ascending.
    A subset worth ``s`` only holds values ≤ ``s``: with ``vals`` sorted, it lies in the prefix
    of those, so the table of ``vals`` serves every head of it."""
    hit = _SMALL.get(vals)
    if hit is not None:
        return hit
    by_sum: list[list[int]] = [[] for _s in range(11)]
    n = len(vals)
    ordered = vals == tuple(sorted(vals))
    stack = [(0, 0, 0)]
    while stack:
        start, mask, total = stack.pop()
        for j in range(start, n):
            t = total + vals[j]
            if t <= 10:
                m = mask | 1 << j
                by_sum[t].append(m)
                if j + 1 < n:
                    stack.append((j + 1, m, t))
            elif ordered:
                break
    for masks in by_sum:
        masks.sort()
    return _remember(_SMALL, vals, tuple(map(tuple, by_sum)))


def _budget_subsets(vals: tuple[int, ...], budget: int) -> tuple[tuple[int, int], ...]:
    """``(mask, sum)`` of the non-empty subsets of ``vals`` with sum ≤ ``budget``, by mask."""
    if budget <= 0:
        return ()
    key = (vals, budget)
    hit = _BUDGET.get(key)
    if hit is None:
        small = _small_subsets(vals)
        hit = _remember(_BUDGET, key, tuple(sorted((m, s) for s in range(1, min(budget, 10) + 1)
                                                   for m in small[s])))
    return hit


def _unions(parts: Sequence[int]) -> dict[int, int]:
    """Every union of disjoint ``parts`` (bit masks), the empty one included: mask → parts."""
    packs = {0: 0}
    frontier = [0]
    while frontier:
        used = frontier.pop()
        k = packs[used] + 1
        for part in parts:
            if not part & used:
                both = used | part
                if both not in packs:
                    packs[both] = k
                    frontier.append(both)
    return packs


def _loose_sets(x: int, head: tuple[int, ...], target: int,
                small: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """A group of ``target`` made by the played value ``x`` and loose numerals only:
    ``(mask of the loose cards, number of parts)``, ascending by mask. ``head``: the values
    ≤ ``target`` (the key); ``small``: :func:`_small_subsets` of values that ``head`` begins."""
    key = (x, head, target)
    hit = _LOOSE_SETS.get(key)
    if hit is None:
        hit = _remember(_LOOSE_SETS, key, _sets_of(x, head, target, small))
    return hit


def _sets_of(x: int, head: tuple[int, ...], target: int,
             small: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """:func:`_loose_sets` without its memo."""
    firsts = (0,) if x == target else small[target - x]
    pkey = (head, target)
    packs = _PACKS.get(pkey)
    if packs is None:
        packs = _remember(_PACKS, pkey, _unions(small[target]))
    chosen: dict[int, int] = {}
    for first in firsts:
        for union, k in packs.items():
            if not first & union:
                chosen[first | union] = k + 1
    return tuple(sorted(chosen.items()))


def _pool_sets(x: int, target: int, pool: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int], ...]:
    """As :func:`_loose_sets` for a pool with plain declarations (items as in :func:`_partition`):
    ``(mask over the pool, number of parts)`` for every subset that, with the played card, splits
    into parts worth ``target`` that :func:`_part_ok` accepts; ascending by mask."""
    key = (x, target, pool)
    hit = _POOL_SETS.get(key)
    if hit is not None:
        return hit
    items = ((x, 0, 0), *pool)
    n = len(items)
    firsts: list[int] = []
    parts: list[int] = []
    stack = [(0, 0, 0)]
    while stack:
        start, mask, total = stack.pop()
        for j in range(start, n):
            t = total + items[j][0]
            if t < target:
                stack.append((j + 1, mask | 1 << j, t))
            elif t == target:
                m = mask | 1 << j
                if _part_ok(items, list(_bits(m))):
                    (firsts if m & 1 else parts).append(m)
    packs = _unions(parts)
    chosen: dict[int, int] = {}
    for first in firsts:
        for union, k in packs.items():
            if not first & union:
                chosen[(first | union) >> 1] = k + 1
    return _remember(_POOL_SETS, key, tuple(sorted(chosen.items())))


def _captures(x: int, vals: tuple[int, ...], sig: tuple[tuple, ...], rule: str, full: bool) -> tuple[Move, ...]:
    """C3.2: equal loose numerals, sum groups of loose numerals (plain declarations too with
    ``full``), declarations of value ``x``; ``capture_rule`` filters or completes them. Sorted
    most cards first, then by loose positions and declarations."""
    equal = [i for i, v in enumerate(vals) if v == x]
    equal += [-1 - d for d, s in enumerate(sig) if s[1] == x]
    addends = [i for i, v in enumerate(vals) if v < x]
    add_values = [vals[i] for i in addends]
    if full:
        for d, s in enumerate(sig):
            if s[0] == "P" and s[1] < x:
                addends.append(-1 - d)
                add_values.append(s[1])
    unions = sum_unions(tuple(add_values), x) if len(addends) > 1 else ((),)
    if not equal and len(unions) == 1:
        return ()
    full_mask = (1 << len(equal)) - 1
    sets: list[tuple[int, ...]] = []
    for mask in (full_mask,) if rule == "take_all_equal" else range(full_mask + 1):
        chosen = [equal[j] for j in _bits(mask)]
        for union in unions:
            items = chosen + [addends[j] for j in union]
            if items:
                sets.append(tuple(items))
    if rule == "forced_maximal":
        frozen = [frozenset(s) for s in sets]
        sets = [s for s, f in zip(sets, frozen, strict=True) if not any(f < g for g in frozen)]
    keyed = []
    for items in sets:
        loose = tuple(sorted(i for i in items if i >= 0))
        decls = tuple(sorted(-1 - i for i in items if i < 0))
        keyed.append((-len(loose) - sum(sig[d][2] for d in decls), loose, decls))
    keyed.sort()
    return tuple(Move("capture", loose, decls) for _size, loose, decls in keyed)


def _head(vals: tuple[int, ...], limit: int, ordered: bool) -> tuple[int, ...]:
    """The values a move touching only values ≤ ``limit`` can use: a prefix when ``ordered``."""
    return vals[:bisect_right(vals, limit)] if ordered else vals


def _capture_piece(x: int, vals: tuple[int, ...], ordered: bool, rule: str) -> tuple[Move, ...]:
    """The captures of ``x`` from loose numerals only (no declaration involved)."""
    head = _head(vals, x, ordered)
    key = (x, head, rule)
    hit = _CAPTURES.get(key)
    if hit is None:
        found = _loose_captures(x, head, rule) if ordered else _captures(x, head, (), rule, False)
        hit = _remember(_CAPTURES, key, found)
    return hit


def _loose_captures(x: int, head: tuple[int, ...], rule: str) -> tuple[Move, ...]:
    """:func:`_captures` without declarations, for sorted values ≤ ``x``: the addends (values
    below ``x``) come first, then the equal cards, so every capture's positions are a union of
    addends followed by equal cards, already in order."""
    n_add = bisect_left(head, x)
    equal = tuple(range(n_add, len(head)))
    masks = list(_unions(_small_subsets(head[:n_add])[x])) if n_add > 1 else [0]
    if not equal and len(masks) == 1:
        return ()
    if rule == "forced_maximal":  # every equal card, with a union no other union contains
        masks = [m for m in masks if not any(o != m and o & m == m for o in masks)]
    unions = [_bits(m) for m in masks]
    if rule == "forced_maximal":
        subsets: Sequence[tuple[int, ...]] = (equal,)
    elif rule == "take_all_equal":
        subsets = (equal,)
    else:
        subsets = [tuple(equal[j] for j in _bits(mask)) for mask in range(1 << len(equal))]
    found = [(-len(u) - len(e), u + e) for e in subsets for u in unions if u or e]
    found.sort()
    return tuple(_new(Move, ("capture", loose, (), 0)) for _size, loose in found)


def _declare_piece(x: int, vals: tuple[int, ...], ordered: bool) -> tuple[tuple[Move, ...], tuple[int, ...]]:
    """C3.4: the new plain declarations of ``x`` with loose numerals (every value listed), and
    their needs."""
    head = _head(vals, 10 - x, ordered)
    key = (x, head)
    hit = _DECLARES.get(key)
    if hit is None:
        found = _budget_subsets(head, 10 - x)
        hit = _remember(_DECLARES, key, (tuple(_new(Move, ("declare", _bits(mask), (), x + total))
                                             for mask, total in found),
                                       tuple(1 << (x + total) for _mask, total in found)))
    return hit


def _group_piece(x: int, target: int, vals: tuple[int, ...], ordered: bool,
                 small: tuple[tuple[int, ...], ...]) -> tuple[Move, ...]:
    """C3.6: the new groups of ``target`` from ``x`` and loose numerals only."""
    head = _head(vals, target, ordered)
    key = (x, target, head)
    hit = _GROUPS.get(key)
    if hit is None:
        # the played card's part, and at least one more part worth ``target``
        firsts = (0,) if x == target else small[target - x]
        pkey = (head, target)
        packs = _PACKS.get(pkey)
        if packs is None:
            packs = _remember(_PACKS, pkey, _unions(small[target]))
        masks = sorted({first | union for union in packs if union for first in firsts if not first & union})
        bits = _BITS
        hit = _remember(_GROUPS, key, tuple(_new(Move, ("group", bits.get(mask) or _bits(mask), (), target))
                                            for mask in masks))
    return hit


def _base(x: int, vals: tuple[int, ...], rule: str) -> tuple:
    """The moves of ``x`` with loose numerals alone: ``(entry, captures, declarations, groups)``,
    ``entry`` the whole list when the table holds no declaration, ``groups[V]`` the new groups of
    value ``V`` (memoised on ``x``, ``vals`` and the capture rule)."""
    key = (x, vals, rule)
    hit = _BASES.get(key)
    if hit is not None:
        return hit
    ordered = vals == tuple(sorted(vals))
    small = _small_subsets(vals)
    captures = _capture_piece(x, vals, ordered, rule)
    declares, declare_needs = _declare_piece(x, vals, ordered)
    groups: list[tuple[Move, ...]] = [()] * 11
    moves = list(captures)
    needs = [0] * len(captures)
    if not (captures and rule == "forced_maximal"):
        moves += declares
        needs += declare_needs
        for target in range(x, 11):
            # a new group needs the played card's part and another part worth ``target``
            if small[target] and (x == target or small[target - x]):
                found = groups[target] = _group_piece(x, target, vals, ordered, small)
                moves += found
                needs += [1 << target] * len(found)
        moves.append(LAY)
        needs.append(0)
    # tuples throughout: the memos hold no list for the garbage collector to keep scanning
    return _remember(_BASES, key, ((tuple(moves), tuple(needs)), captures, declares, tuple(groups)))


def _needs(moves: Sequence[Move], sig: tuple[tuple, ...], captures: int) -> tuple[int, ...]:
    """Per move, what the hand must hold after the play (see :meth:`DeclarationState._listed`):
    ``moves`` begins with ``captures`` captures; a lay, if any, is last."""
    own = next((d for d, s in enumerate(sig) if not s[5]), None)
    if own is None:
        needs = [0] * captures
    else:
        leave = 1 << sig[own][1]
        needs = [0 if own in m[2] else leave for m in moves[:captures]]
    needs += [1 << m[3] for m in moves[captures:]]
    if moves and moves[-1] is LAY:
        needs[-1] = 0
    return tuple(needs)


def numeral_moves(x: int, vals: tuple[int, ...], sig: tuple[tuple, ...], rules: tuple) -> list[Move]:
    """Every move of a numeral of value ``x`` listed publicly (C3.2–C3.9): captures, plain
    declarations, raises, groups of each value ``x … 10``, lay — without the rule "still holds a
    card of the declared value", which the needs of :func:`table_entry` apply.

    ``vals``: the loose numerals' values (positions are indices into it); ``sig``: per
    declaration ``(kind, value, cards, components, soy, relation)`` with relation 0 the mover's
    own, 1 a partner's, 2 an opponent's; ``rules``: ``(capture_rule, plain_declaration_as_card,
    self_raise, soy_locked)``."""
    return list(table_entry(x, vals, sig, rules)[0])


def table_entry(x: int, vals: tuple[int, ...], sig: tuple[tuple, ...], rules: tuple) -> Entry:
    """:func:`numeral_moves` and the need of each move (shared lists: do not change them)."""
    capture_rule, plain_as_card, self_raise, soy_locked = rules
    if not sig:  # the common table: loose cards only
        return _base(x, vals, capture_rule)[0]
    own = None
    for d, s in enumerate(sig):
        if not s[5]:
            own = d
            break
    full = plain_as_card == "full"
    ordered = vals == tuple(sorted(vals))
    if own is None:
        _entry, captures, declares, loose_groups = _base(x, vals, capture_rule)
    else:  # the owner only captures or adds to their declaration (C3.7): no loose-only moves
        captures, declares, loose_groups = _capture_piece(x, vals, ordered, capture_rule), (), ()
    involved = tuple((d, s[0], s[1], s[2]) for d, s in enumerate(sig)
                     if s[1] == x or (full and s[0] == "P" and s[1] < x))
    if involved:
        head = _head(vals, x, ordered)
        key = (x, head, involved, capture_rule, full)
        captured = _CAPTURES.get(key)
        if captured is None:
            captured = _remember(_CAPTURES, key, _captures(x, head, sig, capture_rule, full))
        out = list(captured)
    else:
        out = list(captures)
    n_captures = len(out)
    if out and capture_rule == "forced_maximal":
        return tuple(out), _needs(out, sig, n_captures)
    if own is None:
        out += declares
    # C3.5: an opponent's plain declaration (one's own with ``self_raise``; never a partner's)
    raisable = [s[0] == "P" and (self_raise if not s[5] else s[5] == 2) for s in sig]
    for d, s in enumerate(sig):
        if not raisable[d] or (own is not None and own != d):
            continue
        if full:
            budget = 10 - x - s[1]
            out += [Move("raise", _bits(mask), (d,), s[1] + x + total)
                    for mask, total in _budget_subsets(_head(vals, budget, ordered), budget)]
        elif s[1] + x <= 10:
            out.append(Move("raise", (), (d,), s[1] + x))
    liberal = plain_as_card != "strict"
    # the values whose groups a declaration can enter (C3.6, C3.9)
    touched = 0
    for d, s in enumerate(sig):
        if s[0] == "P":
            touched |= (0x7FF >> s[1] << s[1]) if liberal else 1 << s[1]
            if raisable[d] and s[1] + x <= 10:
                touched |= 1 << (s[1] + x)
        elif not (s[4] and soy_locked):
            touched |= 1 << s[1]
    small = None
    for target in range(x, 11):
        if not touched >> target & 1:
            if own is None:
                out += loose_groups[target]
            continue
        plains = []
        groups: list[int | None] = [None]
        for d, s in enumerate(sig):
            if s[0] == "P":
                if liberal and s[1] <= target:
                    plains.append((d, 2, int(raisable[d])))
                elif s[1] == target or (raisable[d] and s[1] == target - x):
                    plains.append((d, 1, int(raisable[d])))
            elif s[1] == target and not (s[4] and soy_locked):
                groups.append(d)
        if own is not None and own not in groups and all(d != own for d, _k, _r in plains):
            continue  # the owner may only add to their own declaration (C3.7)
        if plains and all(k == 1 and sig[d][1] == target for d, k, _r in plains):
            # whole plain declarations of the value: each only ever a component on its own, so
            # the sets are the loose ones with any of them added (ordered as over the pool)
            if small is None:
                small = _small_subsets(vals)
            found = _loose_sets(x, _head(vals, target, ordered), target, small)
            sets = [(_bits(mask), tuple(plains[j][0] for j in _bits(dm)), nparts + dm.bit_count())
                    for dm in range(1 << len(plains)) for mask, nparts in found]
        elif plains:
            loose = [i for i, v in enumerate(vals) if v <= target]
            n_loose = len(loose)
            pool = tuple([(vals[i], 0, 0) for i in loose] + [(sig[d][1], k, r) for d, k, r in plains])
            sets = []
            for mask, nparts in _pool_sets(x, target, pool):
                chosen = _bits(mask)
                sets.append((tuple(loose[j] for j in chosen if j < n_loose),
                             tuple(plains[j - n_loose][0] for j in chosen if j >= n_loose), nparts))
        elif len(groups) == 1:
            if own is None:
                out += loose_groups[target]
            continue
        else:
            if small is None:
                small = _small_subsets(vals)
            sets = [(_bits(mask), (), nparts)
                    for mask, nparts in _loose_sets(x, _head(vals, target, ordered), target, small)]
        for chosen_loose, decl_ids, nparts in sets:
            for group in groups:
                ids = decl_ids if group is None else (*decl_ids, group)
                if own is not None and own not in ids:
                    continue
                if nparts + (sig[group][3] if group is not None else 0) < 2:
                    continue
                out.append(Move("group", chosen_loose, tuple(sorted(ids)), target))
    if own is None:
        out.append(LAY)
    return tuple(out), _needs(out, sig, n_captures)


class DeclarationGame(FishingGame):
    """Diloti's rules as plain attributes (the game module fills them from its options)."""

    packets = True
    max_choices = 256
    extra_actions = 1
    #: the face-card redeal (C2 variation), the one action after the move choices
    redeal_action = NUM_PLAY + 256
    spec_file = "fishing-relatives.md"

    def __init__(self, rules):
        super().__init__(rules)
        self.capture_rule = rules.capture_rule
        self.plain_as_card = rules.plain_declaration_as_card
        self.self_raise = rules.self_raise
        self.absorbs = rules.declaration_absorbs_loose
        self.soy_locked = rules.soy_locked
        self.xeri_points = rules.xeri_points
        self.xeri_first = rules.xeri_on_first_card
        self.xeri_last = rules.xeri_on_last_card
        self.redeal_rule = rules.face_card_hand_redeal
        #: what the move enumerator reads, and its memo (``numeral_moves``)
        self.move_rules = (self.capture_rule, self.plain_as_card, self.self_raise, self.soy_locked)
        self.move_memo: dict[tuple, list[Move]] = {}

    def full_deck(self) -> list[int]:
        return list(range(52))


class DeclarationState(FishingState):
    """A Diloti round: the fishing deal with declarations (see the module docstring).

    Attributes beyond :class:`FishingState`: ``decls`` (the declarations on the table),
    ``first_play`` (no card played yet this round), ``deal_deck`` (the deck of the deal now
    running: differs from the recorded deck after a face-card redeal), ``redeal_from`` (history
    index where the running deal began).
    """

    game: DeclarationGame

    def _layout(self) -> None:
        """C2: packets of 6 from the first player to the dealer, 4 to the table, the table check."""
        game = self.game
        deck = list(self._deck)
        self.decls: list[Decl] = []
        self.first_play = True
        self.deal_deck = tuple(deck)
        self.redeal_from = getattr(self, "redeal_from", 0)
        size = game.rules.hand_size
        pos = 0
        for seat in self._order():
            self.hands[seat] = sorted(deck[pos:pos + size])
            pos += size
        table = deck[pos:pos + 4]
        stock = deck[pos + 4:]
        moved: list[int] = []
        check = game.rules.initial_table_check
        for _turn in range(len(stock) // 4 + 1):
            counts: dict[int, int] = {}
            for c in table:
                counts[RANK[c]] = counts.get(RANK[c], 0) + 1
            worst = max(counts.items(), key=lambda kv: kv[1])
            bad = any(n >= 3 and (check == "any_triples" or r in FACE_RANKS) for r, n in counts.items())
            if check == "face_quads_only":
                bad = worst[1] == 4 and worst[0] in FACE_RANKS
            if not bad:
                break
            stock.extend(table)
            moved.extend(table)
            table = stock[:4]
            del stock[:4]
        self.floor = self._arrange(table)
        self.stock = tuple(stock)
        self.stock_known = tuple(moved)
        self.log.append(("floor", tuple(deck[pos:pos + 4]), tuple(moved), tuple(table)))

    def _set_table(self, declarations: Sequence[Decl] = (), first_card: bool = False, **table: Any) -> None:
        """A constructed position: ``declarations`` on the table; ``first_card``: no card has
        been played this round yet (C4)."""
        super()._set_table(**table)
        self.decls = list(declarations)
        self.first_play = first_card

    # -- moves ---------------------------------------------------------------------------
    def owned(self, seat: int) -> int | None:
        """The index of the declaration ``seat`` owns, or ``None`` (C3.7)."""
        for i, d in enumerate(self.decls):
            if d.owner == seat:
                return i
        return None

    def moves(self, card: int, seat: int | None = None, public: bool = False) -> list[Move]:
        """Every legal move of ``card`` (in ``seat``'s hand) now, in a fixed order: captures
        (most cards first), declarations, raises, groups, lay. ``[]``: the card cannot be played.

        ``public``: the moves as the other players can list them, without the rule "still holds
        a card of the declared value" (it depends on the hidden hand). The engine offers this
        list as the choices of a played card, with the legal ones enabled, so that choice ids
        mean the same move in every determinization."""
        seat = self.cur if seat is None else seat
        listed, needs = self._listed(card, seat)
        if public:
            return list(listed)
        held = 0
        rest = list(self.hands[seat])
        if card in rest:
            rest.remove(card)
        for c in rest:
            held |= _BIT[c]
        return [listed[k] for k, need in enumerate(needs) if not need or need & held]

    def _listed(self, card: int, seat: int) -> tuple[Sequence[Move], tuple[int, ...]]:
        """The public moves of ``card`` for ``seat`` and what each needs in the hand after the
        play: 0 nothing, else a bit mask of values, one of which must be held (the declared value,
        C3.4–C3.6; for a capture leaving the owner's declaration, its value, C3.7). Memoised per
        game: do not change the lists."""
        x = VALUE[card]
        if not x:
            out = self._face_moves(card)
            own = self.owned(seat)
            if own is None:
                return out, (0,) * len(out)
            if out[-1] is LAY:  # C3.7: the owner may not lay
                out.pop()
            return out, (1 << self.decls[own].value,) * len(out)
        floor = self.floor
        vals = tuple(map(VALUE.__getitem__, floor))
        npos = None
        if 0 in vals:
            cut = vals.index(0)
            if any(vals[cut:]):  # a constructed floor out of order: numerals are not a prefix
                npos = [i for i, v in enumerate(vals) if v]
                vals = tuple(vals[i] for i in npos)
            else:
                vals = vals[:cut]
        decls = self.decls
        if decls:
            sides = self.game._sides
            side = sides[seat]
            sig = tuple((d.kind, d.value, sum(map(len, d.components)), len(d.components), d.soy,
                         0 if d.owner == seat else 1 if sides[d.owner] == side else 2) for d in decls)
        else:
            sig = ()
        game = self.game
        if sig:
            key = (x, vals, sig)
            memo = game.move_memo
            entry = memo.get(key)
            if entry is None:
                entry = _remember(memo, key, table_entry(x, vals, sig, game.move_rules))
        else:  # loose cards only: the memo of the pieces holds the whole list
            base = _BASES.get((x, vals, game.capture_rule))
            entry = (base or _base(x, vals, game.capture_rule))[0]
        if npos is not None:
            return [m._replace(loose=tuple(npos[i] for i in m.loose)) for m in entry[0]], entry[1]
        return entry

    def _apply(self, action: int) -> None:
        if action >= NUM_PLAY:
            super()._apply(action)
            return
        hand = self.hands[self.cur]
        hand.remove(action)
        options, needs = self._listed(action, self.cur)
        if len(options) == 1:
            self._resolve(action, options[0])
            return
        limit = self.game.max_choices
        if len(options) > limit:  # rare: keep the first ones and the last (lay, or a group)
            options = [*options[:limit - 1], options[-1]]
            needs = (*needs[:limit - 1], needs[-1])
        self.pending = (action, list(options))
        held = 0
        for c in hand:
            held |= _BIT[c]
        self._legal = [CHOOSE + k for k, need in enumerate(needs) if not need or need & held]

    def _decision_legal(self) -> list[int]:
        if self.pending is not None and self.cur != TERMINAL:
            card, options = self.pending
            needs = self._listed(card, self.cur)[1]
            if len(needs) > len(options):
                needs = (*needs[:len(options) - 1], needs[-1])
            held = 0
            for c in self.hands[self.cur]:
                held |= _BIT[c]
            return [CHOOSE + k for k, need in enumerate(needs) if not need or need & held]
        return super()._decision_legal()

    def _pinned_for(self, seat: int) -> tuple[int, ...]:
        """A player who declared a value this round held a card of it then (C3.4): for every
        other seat, one held card of each value it declared stays in place."""
        declared: dict[int, set[int]] = {}
        for event in self.log:
            if event[0] == "declare":
                declared.setdefault(event[1], set()).add(event[4])
        pins = list(self.pinned)
        for other, values in declared.items():
            if other != seat:
                for value in values:
                    pins += [c for c in self.hands[other] if VALUE[c] == value][:1]
        if self.pending is not None and self.cur != seat:  # the mover's enabled choices
            pins += self.hands[self.cur]
        return tuple(pins)

    def _face_moves(self, card: int) -> list[Move]:
        """C3.3: a face card takes one equal loose face card (all three of three); else it is laid."""
        same = tuple(i for i, c in enumerate(self.floor) if RANK[c] == RANK[card])
        if len(same) >= 3:
            return [Move("capture", same)]
        if same:
            return [Move("capture", (i,)) for i in same]
        return [LAY]

    # -- the engine's hooks --------------------------------------------------------------
    def _turn_legal(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        # without a declaration every card can be laid or take its face card (C3.3, C3.8)
        own = self.owned(seat)
        legal = hand[:] if own is None else self._owner_legal(seat, own)
        if self.game.redeal_rule != "none" and self._may_redeal(seat):
            legal.append(self.game.redeal_action)
        return legal

    def _owner_legal(self, seat: int, own: int) -> list[int]:
        """The cards of ``seat``, owner of declaration ``own``, that have a legal move (C3.7).

        A card of the declaration's value always has one (taking it: every capture list of that
        value includes it); a card with a capture while another card of that value stays in hand
        has one. When the own declaration is the only one, with strict plain declarations and no
        self-raise, a numeral without a capture can only add to it, at its value V: it needs a
        V card left and loose numerals worth V − x (C3.6). Other cards are decided by their full
        move list."""
        hand = self.hands[seat]
        game = self.game
        decl = self.decls[own]
        value = decl.value
        holders = sum(1 for c in hand if VALUE[c] == value)
        alone = len(self.decls) == 1 and game.plain_as_card == "strict" and not game.self_raise
        if alone:
            addable = holders and (decl.kind == "P" or not (decl.soy and game.soy_locked))
            reach = 1  # bit s: loose numerals worth s
            for c in self.floor:
                if VALUE[c]:
                    reach |= reach << VALUE[c]
        legal = []
        for card in hand:
            x = VALUE[card]
            if x == value or (x and holders and self._can_capture(x)):
                legal.append(card)
                continue
            if alone and x:
                if addable and x < value and reach >> (value - x) & 1:
                    legal.append(card)
                continue
            held = 0
            for c in hand:
                if c != card:
                    held |= _BIT[c]
            if any(not need or need & held for need in self._listed(card, seat)[1]):
                legal.append(card)
        return legal

    def _can_capture(self, x: int) -> bool:
        """A numeral of value ``x`` has some capture (C3.2): an equal loose numeral or
        declaration, or loose numerals below ``x`` (plain declarations too with ``full``) that add
        up to ``x`` — two or more of them, as each is below ``x``."""
        reach = 1
        for c in self.floor:
            v = VALUE[c]
            if v == x:
                return True
            if v and v < x:
                reach = reach | reach << v
        full = self.game.plain_as_card == "full"
        for d in self.decls:
            if d.value == x:
                return True
            if full and d.kind == "P" and d.value < x:
                reach = reach | reach << d.value
        return bool(reach >> x & 1)

    def _options(self, card: int) -> list[Move]:
        return self.moves(card)

    def _may_redeal(self, seat: int) -> bool:
        """C2 variation: 5 or 6 face cards in a full hand, in the first deal (or any deal)."""
        rule = self.game.redeal_rule
        hand = self.hands[seat]
        return (rule != "none" and len(hand) == self.game.rules.hand_size
                and sum(1 for c in hand if not VALUE[c]) >= 5
                and (rule == "any_deal" or not any(e[0] == "deal" for e in self.log)))

    def _extra_action(self, action: int) -> None:
        """C2 variation: the round is cancelled; the same dealer deals a new one (D5). The new
        order is a reshuffle fixed by the running deal's deck, so the record still replays."""
        digest = hashlib.blake2b(bytes(self.deal_deck), digest_size=8).digest()
        deck = self.game.shuffle(int.from_bytes(digest, "little") >> 1)
        keep = (self._deck, self.history, self.carry_in, len(self.history) + 1)
        FishingState.__init__(self, self.game, deck, self.dealer, self.match_scores)
        self._deck, self.history, self.carry_in, self.redeal_from = keep
        self.log.append(("redeal", self.dealer))

    def _resolve(self, card: int, move: Move) -> None:
        """Apply ``move`` of ``card`` (C3), then end the turn."""
        seat = self.cur
        self.cards_left -= 1
        game = self.game
        floor = self.floor
        kind = move.kind
        if kind == "lay":
            insort(floor, card, key=FLOOR_ORDER.__getitem__)
            self.log.append((seat, card, (), 0))
        elif kind == "capture":
            taken = tuple(floor[i] for i in move.loose) + tuple(c for d in move.decls for c in self.decls[d].cards)
            self._remove(move)
            bonus = 0
            if not self.floor and not self.decls and (game.xeri_first or not self.first_play) and (
                    game.xeri_last or self.cards_left):
                bonus = game.xeri_points
            self._take(seat, card, taken, bonus)
        else:
            self._declare(seat, card, move)
        self.first_play = False
        self._end_turn(seat)

    def _remove(self, move: Move) -> None:
        keep = set(move.loose)
        self.floor = [c for i, c in enumerate(self.floor) if i not in keep]
        gone = set(move.decls)
        self.decls = [d for i, d in enumerate(self.decls) if i not in gone]

    def _declare(self, seat: int, card: int, move: Move) -> None:
        """A new plain declaration, a raise or a group (C3.4–C3.6, C3.9)."""
        game = self.game
        floor = self.floor
        loose = [floor[i] for i in move.loose]
        old = [self.decls[d] for d in move.decls]
        value = move.value
        if move.kind == "declare":
            comps: list[tuple[int, ...]] = [(card, *loose)]
        elif move.kind == "raise":
            comps = [(*old[0].cards, card, *loose)]
        else:
            comps = self._components(card, loose, old, value)
        self._remove(move)
        kind = "P" if move.kind in ("declare", "raise") else "G"
        if game.absorbs and not old:
            same = [c for c in self.floor if VALUE[c] == value]
            if same:
                comps += [(c,) for c in same]
                self.floor = [c for c in self.floor if VALUE[c] != value]
                kind = "G"
        soy = kind == "G" and len(comps) == 2 and all(len(c) == 1 for c in comps)
        self.decls.append(Decl(kind, value, seat, tuple(comps), soy))
        self.log.append(("declare", seat, card, self.decls[-1].text(), value))

    def _components(self, card: int, loose: list[int], old: list[Decl], value: int) -> list[tuple[int, ...]]:
        """The components of a group move: the existing group's, then a partition of the rest."""
        group = [d for d in old if d.kind == "G"]
        plains = [d for d in old if d.kind == "P"]
        items = [(VALUE[card], 0, 0)] + [(VALUE[c], 0, 0) for c in loose] + [(d.value, 2, 1) for d in plains]
        parts = _partition(tuple(items), value)
        cards_of = [(card,)] + [(c,) for c in loose] + [d.cards for d in plains]
        comps = list(group[0].components) if group else []
        comps += [tuple(c for i in part for c in cards_of[i]) for part in parts]
        return comps

    # -- notation and views -----------------------------------------------------------------
    def move_text(self, move: Move, card: int | None = None) -> str:
        """``capture 7C 5S P7@1``, ``declare P8 5C``, ``raise P4@1 to 9``, ``group G8 8C P8@0``, ``lay``."""
        loose = [format_card(self.floor[i]) for i in move.loose]
        labels = [self.decls[d].label() for d in move.decls]
        if move.kind == "lay":
            return "lay"
        if move.kind == "capture":
            return " ".join(["capture", *loose, *labels])
        if move.kind == "raise":
            return " ".join([f"raise {labels[0]} to {move.value}", *(["with", *loose] if loose else [])])
        head = f"declare P{move.value}" if move.kind == "declare" else f"group G{move.value}"
        return " ".join([head, *loose, *labels])

    def option_cards(self, k: int) -> tuple[int, ...]:
        move = self.pending[1][k]
        return tuple(self.floor[i] for i in move.loose) + tuple(c for d in move.decls for c in self.decls[d].cards)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        if action == self.game.redeal_action:
            return "redeal"
        if action < NUM_PLAY or self.pending is None or not 0 <= action - CHOOSE < len(self.pending[1]):
            return super().action_to_string(action, player)
        return self.move_text(self.pending[1][action - CHOOSE])

    def string_to_action(self, text: str) -> int:
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb == "redeal" and len(words) == 1:
            return self.game.redeal_action
        if verb in ("capture", "declare", "raise", "group", "lay"):
            wanted = _normal(text)
            if self.pending is not None:
                for k, move in enumerate(self.pending[1]):
                    if _normal(self.move_text(move)) == wanted:
                        return CHOOSE + k
            raise IllegalAction(self.game.rule("choice"), _("no pending move is {text!r}").format(text=text), text)
        return super().string_to_action(text)

    def explain_illegal(self, action: int) -> IllegalAction:
        game = self.game
        if (self.cur != TERMINAL and self.pending is None and isinstance(action, int)
                and 0 <= action < NUM_PLAY and action in self.hands[self.cur]):
            if self.owned(self.cur) is not None:
                return IllegalAction(game.rule("owner"), _(
                    "{card} has no legal move: the owner of a declaration may not lay a card and must keep "
                    "a card that takes it").format(card=format_card(action)), action)
            return IllegalAction(game.rule("face"), _("{card} has no legal move").format(
                card=format_card(action)), action)
        if action == game.redeal_action and self.cur != TERMINAL:
            return IllegalAction(game.rule("deal"), _("a redeal needs 5 or 6 face cards in a full hand "
                                                      "(face_card_hand_redeal)"), action)
        return super().explain_illegal(action)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Base view plus ``declarations`` (each ``{kind, value, owner, components, text, soy}``)
        and ``owns`` (the text of the seat's own declaration or ``null``)."""
        out = super().view(seat)
        out["declarations"] = [{"kind": d.kind, "value": d.value, "owner": d.owner, "soy": d.soy,
                                "components": [[format_card(c) for c in comp] for comp in d.components],
                                "text": d.text()} for d in self.decls]
        own = self.owned(seat) if seat is not None else None
        out["owns"] = self.decls[own].text() if own is not None else None
        return out

    def information_state_string(self, seat: int) -> str:
        table = " ".join(d.text() for d in self.decls)
        return f"{super().information_state_string(seat)}|decls {table}"

    def clone(self) -> DeclarationState:
        new = super().clone()
        new.decls = self.decls[:]
        return new

    def _map_cards(self, rename: dict[int, int]) -> None:
        """After a redeal the running deal is what a seat knows: the copy starts from it."""
        if self.redeal_from:
            self._deck = [rename.get(c, c) for c in self.deal_deck]
            self.history = self.history[self.redeal_from:]
            self.redeal_from = 0
        self.deal_deck = tuple(self._deck)

    def _finish(self) -> None:
        """C5 (a declaration cannot be left, C3.7; a constructed position might: its cards count
        as table cards)."""
        self.floor += [c for d in self.decls for c in d.cards]
        self.decls = []
        super()._finish()


def _normal(text: str) -> tuple[str, ...]:
    words = text.replace("(", " ").replace(")", " ").replace("|", " ").split()
    return (words[0].lower(), *sorted(w.upper() for w in words[1:]))
