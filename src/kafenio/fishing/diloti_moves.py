"""Diloti's moves: declarations, the move notation, and the move enumerator (the hot path).

Split from :mod:`kafenio.fishing.declarations` (the Diloti table's state machine, which offers
these moves as a played card's capture choices). A :class:`Decl` is a declaration on the table
(``P`` plain or ``G`` group, a value 1–10, an owner, its components); a :class:`Move` is what a
played numeral does (C3): a capture, a plain declaration, a raise, a group declaration, or laying
the card. :func:`numeral_moves` lists a numeral's moves from the public table, memoised (see
"the move enumerator" below); :func:`parse_table` reads the spec's table notation
(``{7S QC P8@1(5C 3D) G9@0(9S | 4D 5H)}``, ``fishing-relatives.md`` Part C).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from itertools import islice
from typing import Any, Final, NamedTuple, TypeVar

from kafenio.cards import format_cards, parse_cards
from kafenio.engine.errors import KafenioError
from kafenio.fishing.captures import VALUE, sum_unions
from kafenio.i18n import _

FACE_RANKS: Final = (11, 12, 13)
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

    def __str__(self) -> str:  # how a declaration event of the log reads
        return self.text()


class Move(NamedTuple):
    """One move of a played card: ``kind`` (capture, declare, raise, group, lay), the loose-card
    positions and declaration indices it involves, the declared value (0 for captures/lays).
    The engine's lists hold the same fields as plain tuples (:data:`RawMove`), equal to these."""

    kind: str
    loose: tuple[int, ...] = ()
    decls: tuple[int, ...] = ()
    value: int = 0


def parse_table(text: str) -> tuple[list[int], list[Decl]]:
    """``{7S QC P8@1(5C 3D) G9@0(9S | 4D 5H)}`` → loose cards and declarations.

    Raises:
        CardError: a bad card; KafenioError: a malformed declaration.
    """
    text = text.replace("{", " ").replace("}", " ")
    decls = []
    for kind, value, owner, body in _DECL_TEXT.findall(text):
        comps = tuple(tuple(parse_cards(part)) for part in body.split("|"))
        written = f"{kind}{value}@{owner}({body})"
        if not all(comps):
            raise KafenioError(_("malformed declaration {d}: an empty component").format(d=written))
        if kind == "P" and len(comps) != 1:
            raise KafenioError(_("malformed declaration {d}: a plain declaration is one pile, without |")
                               .format(d=written))
        if kind == "G" and len(comps) < 2:
            raise KafenioError(_("malformed declaration {d}: a group needs at least two components").format(d=written))
        decls.append(Decl(kind, int(value), int(owner), comps, kind == "G" and len(comps) == 2
                          and all(len(c) == 1 for c in comps)))
    loose = parse_cards(_DECL_TEXT.sub(" ", text))
    return loose, decls


@lru_cache(maxsize=100_000)
def partition(items: tuple[tuple[int, int, int], ...], target: int) -> tuple[tuple[int, ...], ...] | None:
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
# and a signature of the declarations as the mover sees them. Without declarations (most tables)
# the list is memoised on exactly that; a miss, and any table with declarations (whose keys
# rarely repeat), is assembled from pieces memoised on less:
# the captures of a value ``x`` only see the loose numerals below or at ``x``, the declarations
# those at most ``10 − x``, the groups of a value ``V`` those at most ``V`` — and the floor is
# sorted, so each piece is keyed by a prefix of the values (its *head*), which every card, both
# players and many tables share. What the declarations allow (who owns one, what may be raised,
# which group values they enter) depends on the value and the signature alone: it is a *plan*
# memoised on those, so a table with declarations costs the loose pieces plus its few
# declaration moves. Under them, subsets by sum and unions of disjoint parts worth a value are
# bit-mask tables (as :func:`kafenio.fishing.captures.sum_unions`). The new groups are built from
# those tables at each miss, not memoised: their keys repeated about one time in two, and each
# memo entry costs memory and a walk at every full collection of the garbage collector, which
# cost more than building them. The groups declarations enter cost more to build, and their keys
# (the plan's, one int, with the head's values) repeat as often: those are memoised, with flat
# values (below). The signature too is one int (:func:`add_declaration`). Loose positions are numeral
# indices (the numerals come first on the sorted floor; the state maps them when a constructed
# floor is out of order, and an unsorted one is keyed by all its values).
#
# The memos hold moves as plain ``(kind, loose, decls, value)`` tuples, the fields of
# :class:`Move`: the garbage collector stops tracking a tuple of ints and strings, but never a
# named tuple, and would otherwise walk every memoised move at each full collection. It stops
# tracking a tuple only when the tuple's items are untracked, one level of nesting per young
# collection: a memo value nested deeper reaches the oldest generation still tracked, and each
# such value brings the next full collection (which walks every memo) nearer. So the values of
# the busy memos are flat: a tuple of tuples of untracked items, with the loose positions of a
# move taken from :data:`BITS` and each group move shared (:func:`_group_move`), created once.
#
# Every move also carries what the hand must hold after the play (its *need*, a bit mask of
# values, one of which must be held; :data:`FREE`, bit 0, for nothing: the engine's mask of a
# hand always has it), so the engine enables the legal moves without listing them again.

_LIMIT: Final = 200_000
K = TypeVar("K")
V = TypeVar("V")
#: per card type, its value as a bit (faces: bit 0)
VALUE_BIT: Final = tuple(1 << v for v in VALUE)
#: the need of a move that needs nothing: bit 0, set in every hand's mask of held values
FREE: Final = 1
#: a move as the memos hold it: ``(kind, loose positions, declaration indices, value)``
RawMove = tuple[str, tuple[int, ...], tuple[int, ...], int]
#: laying the card, as the memos hold it (typed ``Any``: compiled code holds a tuple typed
#: :data:`RawMove` unboxed and boxes it anew at each use, and the memoised lists must share this
#: one, which the garbage collector stops tracking)
LAID: Final[Any] = ("lay", (), (), 0)
#: per declaration, as the mover sees it: ``(kind, value, cards, components, soy, relation)``; the
#: enumerator takes it packed into one int (:func:`add_declaration`, :data:`SIG_BITS` each)
Sig = tuple[tuple[str, int, int, int, bool, int], ...]
#: the bits of one declaration in a packed signature
SIG_BITS: Final = 20
#: what the move enumerator reads of the rules: ``(capture_rule, plain_declaration_as_card,
#: self_raise, soy_locked)``
MoveRules = tuple[str, str, bool, bool]
#: per sum 0 … 10, bit masks (:func:`_small_subsets`)
Masks = tuple[tuple[int, ...], ...]
#: a group value's declarations (:func:`_group_spec`): the plain ones, the group ones, all whole
GroupSpec = tuple[tuple[tuple[int, int, int, int], ...], tuple[tuple[int | None, int], ...], bool]
#: :func:`_plan`: the own declaration and what a capture leaving it needs, the capturable
#: declarations (a memo key), the raises, the group values
Plan = tuple[int | None, int, int, tuple[int, ...], tuple[int, ...]]
_SMALL: Final[dict[int, Masks]] = {}
_INFO: Final[dict[int, tuple[Masks, tuple[int, ...], bool]]] = {}
_PACKS: Final[dict[int, dict[int, int]]] = {}
_CAPTURES: Final[dict[int, tuple[RawMove, ...]]] = {}
#: the captures a declaration takes part in, and the groups declarations enter (:func:`table_entry`)
_DECL_CAPTURES: Final[dict[tuple[int, int], tuple[RawMove, ...]]] = {}
_DECLARED_GROUPS: Final[dict[tuple[int, int], tuple[RawMove, ...]]] = {}
_DECLARES: Final[dict[int, tuple[RawMove, ...]]] = {}
#: per ``mask << 4 | value``: the group move of those loose positions and that value (``Any``, as
#: :data:`LAID`)
_GROUP_MOVES: Final[dict[int, Any]] = {}
_PLANS: Final[dict[int, Plan]] = {}

#: the moves and the need of each
Entry = tuple[tuple[RawMove, ...], tuple[int, ...]]
#: :func:`loose_table_entry`: the moves, their needs, the captures, the declarations, and per
#: value 0 … 11 where its groups begin among the moves (those of ``V``: ``starts[V]:starts[V + 1]``)
Base = tuple[tuple[RawMove, ...], tuple[int, ...], tuple[RawMove, ...], tuple[RawMove, ...], tuple[int, ...]]
_BASES: Final[dict[int, Base]] = {}
#: the capture rules as 2 bits of a memo key
_RULE_BITS: Final = {"free_choice": 0, "forced_maximal": 1, "take_all_equal": 2}
#: ``plain_declaration_as_card`` as 2 bits of a memo key
_PLAIN_BITS: Final = {"strict": 0, "groups": 1, "full": 2}


class _BitPositions(dict[int, tuple[int, ...]]):
    """``BITS[mask]``: the set bit positions of ``mask``, ascending (memoised on first use; the
    masks are those of loose-card subsets, so they stay few)."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        value = self[mask] = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
        return value


BITS: Final = _BitPositions()


def packed(vals: tuple[int, ...]) -> int:
    """The loose values (each 1 … 10) as one int, 4 bits each, the first the highest: distinct
    values, distinct ints (no value is 0), a memo key cheaper to hash and compare than a tuple."""
    out = 0
    for v in vals:  # a plain loop: compiled, it runs in C
        out = out << 4 | v
    return out


def add_declaration(sig: int, kind: str, value: int, cards: int, components: int, soy: bool, relation: int) -> int:
    """The packed signature ``sig`` with one more declaration of a :data:`Sig` shifted in after
    the others, in :data:`SIG_BITS` bits, its value (never 0) highest: a signature packs into one
    int, a memo key cheaper to hash and compare than the tuples (:func:`unpack_sig` reads it back;
    the empty signature is 0)."""
    bits = ((((value << 6 | cards) << 6 | components) << 1 | int(kind == "G")) << 1 | int(soy)) << 2 | relation
    return sig << SIG_BITS | bits


def unpack_sig(sig: int) -> Sig:
    """The declarations packed into ``sig`` (:func:`add_declaration`), in order."""
    out = []
    while sig:
        bits = sig & ((1 << SIG_BITS) - 1)
        out.append(("G" if bits >> 3 & 1 else "P", bits >> 16, bits >> 10 & 63, bits >> 4 & 63,
                    bool(bits >> 2 & 1), bits & 3))
        sig >>= SIG_BITS
    out.reverse()
    return tuple(out)


def remember(memo: dict[K, V], key: K, value: V) -> V:
    """``memo[key] = value``; a full memo first forgets its older half (bounded memory)."""
    if len(memo) >= _LIMIT:
        for old in list(islice(memo, _LIMIT // 2)):
            memo.pop(old, None)
    memo[key] = value
    return value


def _small_subsets(vals: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Index 0 … 10: the non-empty subsets (bit masks over ``vals``) with that sum, ascending.
    A subset worth ``s`` only holds values ≤ ``s``: with ``vals`` sorted, it lies in the prefix
    of those, so the table of ``vals`` serves every head of it.

    Built from the table of ``vals`` without its last value (memoised, so a new table costs the
    subsets that hold its last card): those come after the others, as their masks are larger."""
    key = packed(vals)
    hit = _SMALL.get(key)
    if hit is not None:
        return hit
    if not vals:
        return remember(_SMALL, key, ((),) * 11)
    before = _small_subsets(vals[:-1])
    last = vals[-1]
    top = 1 << (len(vals) - 1)
    table = tuple(before[s] + ((top,) if s == last else ()) + tuple(m | top for m in before[s - last])
                  if s >= last else before[s] for s in range(11))
    return remember(_SMALL, key, table)


def _table_info(vals: tuple[int, ...]) -> tuple[Masks, tuple[int, ...], bool]:
    """``(small, cuts, ordered)`` of the loose values: :func:`_small_subsets`, and per value
    ``v`` 0 … 10 how many values a move touching only values ≤ ``v`` can use (its *head* is
    ``vals[:cuts[v]]``) — a prefix when ``vals`` is sorted (``ordered``), else all of them
    (memoised; lengths rather than the heads, so that the value is flat)."""
    key = packed(vals)
    hit = _INFO.get(key)
    if hit is None:
        ordered = vals == tuple(sorted(vals))
        if ordered:  # counted by plain loops, which compiled code runs in C (bisect is a call)
            counts = [0] * 11
            for v in vals:
                counts[v] += 1
            for v in range(1, 11):
                counts[v] += counts[v - 1]
            cuts = tuple(counts)
        else:
            cuts = (len(vals),) * 11
        hit = remember(_INFO, key, (_small_subsets(vals), cuts, ordered))
    return hit


def _budget_subsets(vals: tuple[int, ...], budget: int) -> tuple[tuple[int, int], ...]:
    """``(mask, sum)`` of the non-empty subsets of ``vals`` with sum ≤ ``budget``, by mask (not
    memoised: its keys did not repeat)."""
    if budget <= 0:
        return ()
    small = _small_subsets(vals)
    return tuple(sorted((m, s) for s in range(1, min(budget, 10) + 1) for m in small[s]))


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


def _packs(head: tuple[int, ...], target: int) -> dict[int, int]:
    """Every union of disjoint parts worth ``target`` among ``head`` (bit masks), the empty one
    included: mask → parts (as :func:`_unions`; memoised on both). Built from the unions of
    ``head`` without its last card: a union holding that card holds exactly one part with it,
    and the rest is an earlier union disjoint from that part."""
    key = packed(head) << 4 | target
    packs = _PACKS.get(key)
    if packs is not None:
        return packs
    if not head:
        return remember(_PACKS, key, {0: 0})
    before = _packs(head[:-1], target)
    last = head[-1]
    if last > target:
        return remember(_PACKS, key, before)
    top = 1 << (len(head) - 1)
    parts = (top,) if last == target else tuple(m | top for m in _small_subsets(head[:-1])[target - last])
    packs = dict(before)
    for part in parts:
        for union, k in before.items():
            if not union & part:
                packs[union | part] = k + 1
    return remember(_PACKS, key, packs)


def _loose_sets(x: int, head: tuple[int, ...], target: int,
                small: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """A group of ``target`` made by the played value ``x`` and loose numerals only:
    ``(mask of the loose cards, number of parts)``, ascending by mask. ``head``: the values
    ≤ ``target``; ``small``: :func:`_small_subsets` of values that ``head`` begins)."""
    firsts = (0,) if x == target else small[target - x]
    chosen: dict[int, int] = {}
    for first in firsts:
        for union, k in _packs(head, target).items():
            if not first & union:
                chosen[first | union] = k + 1
    return tuple(sorted(chosen.items()))


def _pool_sets(x: int, target: int, pool: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int], ...]:
    """As :func:`_loose_sets` for a pool with plain declarations (items as in :func:`partition`):
    ``(mask over the pool, number of parts)`` for every subset that, with the played card, splits
    into parts worth ``target`` that :func:`_part_ok` accepts; ascending by mask (not memoised:
    its keys did not repeat)."""
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
                if _part_ok(items, list(BITS[m])):
                    (firsts if m & 1 else parts).append(m)
    packs = _unions(parts)
    chosen: dict[int, int] = {}
    for first in firsts:
        for union, k in packs.items():
            if not first & union:
                chosen[(first | union) >> 1] = k + 1
    return tuple(sorted(chosen.items()))


def _captures(x: int, vals: tuple[int, ...], sig: Sig, rule: str, full: bool) -> tuple[RawMove, ...]:
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
        chosen = [equal[j] for j in BITS[mask]]
        for union in unions:
            items = chosen + [addends[j] for j in union]
            if items:
                sets.append(tuple(items))
    if rule == "forced_maximal":
        frozen = [frozenset(s) for s in sets]
        sets = [s for s, f in zip(sets, frozen, strict=True) if not any(f < g for g in frozen)]
    keyed = []
    for taken in sets:
        loose_mask = decl_mask = 0
        for i in taken:
            if i >= 0:
                loose_mask |= 1 << i
            else:
                decl_mask |= 1 << (-1 - i)
        loose, decls = BITS[loose_mask], BITS[decl_mask]  # shared: the memoised moves stay flat
        keyed.append((-len(loose) - sum(sig[d][2] for d in decls), loose, decls))
    keyed.sort()
    return tuple(("capture", loose, decls, 0) for _size, loose, decls in keyed)


def _capture_piece(x: int, head: tuple[int, ...], ordered: bool, rule: str) -> tuple[RawMove, ...]:
    """The captures of ``x`` from loose numerals only (no declaration involved); ``head``: the
    values ≤ ``x`` (all of them when not ``ordered``)."""
    key = packed(head) << 6 | x << 2 | _RULE_BITS[rule]
    hit = _CAPTURES.get(key)
    if hit is None:
        found = _loose_captures(x, head, rule) if ordered else _captures(x, head, (), rule, False)
        hit = remember(_CAPTURES, key, found)
    return hit


def _loose_captures(x: int, head: tuple[int, ...], rule: str) -> tuple[RawMove, ...]:
    """:func:`_captures` without declarations, for sorted values ≤ ``x``: the addends (values
    below ``x``) come first, then the equal cards, so every capture's positions are a union of
    addends followed by equal cards, already in order."""
    n_add = bisect_left(head, x)
    equal = tuple(range(n_add, len(head)))
    masks = list(_packs(head[:n_add], x)) if n_add > 1 else [0]
    if not equal and len(masks) == 1:
        return ()
    if rule == "forced_maximal":  # a union no other union contains
        masks = [m for m in masks if not any(o != m and o & m == m for o in masks)]
    unions = [BITS[m] for m in masks]
    # the equal cards taken: all of them (forced_maximal, take_all_equal) or any subset
    every = (1 << len(equal)) - 1
    subsets = range(every + 1) if rule == "free_choice" else (every,)
    found = []
    for subset in subsets:
        e = tuple(equal[j] for j in BITS[subset])
        for m, u in zip(masks, unions, strict=True):
            if u or e:
                found.append((-len(u) - len(e), u + e, m | subset << n_add))
    found.sort()  # the positions differ between sets: the masks are never compared
    return tuple(("capture", BITS[mask], (), 0) for _size, _loose, mask in found)


def _declare_piece(x: int, head: tuple[int, ...]) -> tuple[RawMove, ...]:
    """C3.4: the new plain declarations of ``x`` with loose numerals (``head``: the values
    ≤ ``10 − x``; every value listed); each needs its declared value (:func:`_value_needs`)."""
    key = packed(head) << 4 | x
    hit = _DECLARES.get(key)
    if hit is None:
        hit = remember(_DECLARES, key, tuple(("declare", BITS[mask], (), x + total)
                                             for mask, total in _budget_subsets(head, 10 - x)))
    return hit


def _value_needs(moves: tuple[RawMove, ...]) -> list[int]:
    """The needs of declaring moves: each its declared value (C3.4–C3.6)."""
    return [1 << m[3] for m in moves]


def _group_move(mask: int, target: int) -> Any:
    """The new group of value ``target`` with the loose positions of ``mask`` (a :data:`RawMove`),
    shared."""
    key = mask << 4 | target
    move = _GROUP_MOVES.get(key)
    if move is None:
        move = remember(_GROUP_MOVES, key, ("group", BITS[mask], (), target))
    return move


def _group_piece(x: int, target: int, head: tuple[int, ...], small: tuple[tuple[int, ...], ...]) -> tuple[RawMove, ...]:
    """C3.6: the new groups of ``target`` from ``x`` and loose numerals only (``head``: the
    values ≤ ``target``; ``small``: :func:`_small_subsets` of values that ``head`` begins; not
    memoised: :func:`loose_table_entry` is)."""
    # the played card's part, and at least one more part worth ``target``
    firsts = (0,) if x == target else small[target - x]
    packs = _packs(head, target)
    if len(firsts) == 1:  # one way to make the played card's part: each union a different group
        first = firsts[0]
        masks = sorted([first | union for union in packs if union and not first & union])
    else:
        masks = sorted({first | union for union in packs if union for first in firsts if not first & union})
    return tuple(_group_move(mask, target) for mask in masks)


def loose_table_entry(x: int, vals: tuple[int, ...], rule: str) -> Base:
    """The moves of ``x`` with loose numerals alone: ``(moves, needs, captures, declarations,
    starts)``, ``moves`` and ``needs`` the whole list when the table holds no declaration, the new
    groups of value ``V`` at ``moves[starts[V]:starts[V + 1]]`` (memoised on ``x``, ``vals`` and
    the capture rule)."""
    key = packed(vals) << 6 | x << 2 | _RULE_BITS[rule]
    hit = _BASES.get(key)
    if hit is not None:
        return hit
    small, cuts, ordered = _table_info(vals)
    captures = _capture_piece(x, vals[:cuts[x]], ordered, rule)
    declares = _declare_piece(x, vals[:cuts[10 - x]])
    moves = list(captures)
    needs = [FREE] * len(captures)
    if captures and rule == "forced_maximal":
        starts = [len(moves)] * 12
    else:
        moves += declares
        needs += _value_needs(declares)
        starts = [len(moves)] * 12
        for target in range(x, 11):
            starts[target] = len(moves)
            # a new group needs the played card's part and another part worth ``target``
            if small[target] and (x == target or small[target - x]):
                found = _group_piece(x, target, vals[:cuts[target]], small)
                moves += found
                needs += [1 << target] * len(found)
        starts[11] = len(moves)
        moves.append(LAID)
        needs.append(FREE)
    return remember(_BASES, key, (tuple(moves), tuple(needs), captures, declares, tuple(starts)))


def numeral_moves(x: int, vals: tuple[int, ...], sig: Sig, rules: MoveRules) -> list[Move]:
    """Every move of a numeral of value ``x`` listed publicly (C3.2–C3.9): captures, plain
    declarations, raises, groups of each value ``x … 10``, lay — without the rule "still holds a
    card of the declared value", which the needs of :func:`table_entry` apply.

    ``vals``: the loose numerals' values (positions are indices into it); ``sig``: per
    declaration ``(kind, value, cards, components, soy, relation)`` with relation 0 the mover's
    own, 1 a partner's, 2 an opponent's; ``rules``: ``(capture_rule, plain_declaration_as_card,
    self_raise, soy_locked)``."""
    packed_sig = 0
    for s in sig:
        packed_sig = add_declaration(packed_sig, *s)
    return [Move._make(m) for m in table_entry(x, vals, packed_sig, rules)[0]]


def _plan_key(x: int, sig: int, rules: MoveRules) -> int:
    """The memo key of :func:`_plan`: the packed signature, ``x`` and the rules, in one int."""
    capture_rule, plain_as_card, self_raise, soy_locked = rules
    rule_bits = _RULE_BITS[capture_rule] << 4 | _PLAIN_BITS[plain_as_card] << 2 | int(self_raise) << 1 | int(soy_locked)
    return (sig << 4 | x) << 6 | rule_bits


def _raisable(s: tuple[str, int, int, int, bool, int], self_raise: bool) -> bool:
    """C3.5: an opponent's plain declaration (one's own with ``self_raise``; never a partner's)."""
    return s[0] == "P" and (self_raise if not s[5] else s[5] == 2)


def _plan(key: int, x: int, sig: int, rules: MoveRules) -> Plan:
    """What the declarations let a numeral of value ``x`` do, whatever the loose cards:
    ``(own, leave, involved, raises, steps)`` — the mover's declaration (C3.7) and the need of a
    capture leaving it (a card of its value), the declarations a capture may take (C3.2, C3.9) as
    a memo key (0: none), the raisable declarations as ``index << 4 | value`` (C3.5), and per
    group value ``V`` in order ``V << 1`` for the loose-only groups or ``V << 1 | 1`` where
    declarations enter (C3.6, C3.9; :func:`_group_spec`). Memoised on ``key``
    (:func:`_plan_key`); ints only, so the garbage collector soon stops tracking it."""
    hit = _PLANS.get(key)
    if hit is not None:
        return hit
    decls = unpack_sig(sig)
    capture_rule, plain_as_card, self_raise, _soy_locked = rules
    own = next((d for d, s in enumerate(decls) if not s[5]), None)
    full = plain_as_card == "full"
    involved = 0
    for d, s in enumerate(decls):
        if s[1] == x or (full and s[0] == "P" and s[1] < x):
            involved = involved << 14 | ((s[1] << 6 | s[2]) << 1 | int(s[0] == "G")) << 3 | d
    if involved:
        involved = (involved << 2 | _RULE_BITS[capture_rule]) << 1 | int(full)
    raises = tuple(d << 4 | s[1] for d, s in enumerate(decls)
                   if _raisable(s, self_raise) and (own is None or own == d) and s[1] + x <= 10)
    steps: list[int] = []
    for target in range(x, 11):
        spec = _group_spec(x, target, decls, rules)
        if spec is None:
            if own is None:
                steps.append(target << 1)
        elif own is None or any(p[0] == own for p in spec[0]) or any(g == own for g, _c in spec[1]):
            steps.append(target << 1 | 1)  # the owner may only add to their own declaration (C3.7)
    leave = 0 if own is None else 1 << decls[own][1]
    return remember(_PLANS, key, (own, leave, involved, raises, tuple(steps)))


def _group_spec(x: int, target: int, decls: Sig, rules: MoveRules) -> GroupSpec | None:
    """The declarations that can enter a group of ``target`` with a numeral of value ``x`` (C3.6,
    C3.9): ``(plains, groups, whole)`` — the plain ones ``(index, value, kind, raisable)`` (kind 1
    strict, 2 usable as a card), the group ones ``(index, components)`` after ``(None, 0)`` (no
    group extended), ``whole`` when every plain one is a whole component; ``None`` for none."""
    _capture_rule, plain_as_card, self_raise, soy_locked = rules
    liberal = plain_as_card != "strict"
    plains: list[tuple[int, int, int, int]] = []
    groups: list[tuple[int | None, int]] = [(None, 0)]
    for d, s in enumerate(decls):
        if s[0] == "P":
            raisable = _raisable(s, self_raise)
            if liberal and s[1] <= target:
                plains.append((d, s[1], 2, int(raisable)))
            elif s[1] == target or (raisable and s[1] == target - x):
                plains.append((d, s[1], 1, int(raisable)))
        elif s[1] == target and not (s[4] and soy_locked):
            groups.append((d, s[3]))
    if not plains and len(groups) == 1:
        return None
    whole = all(k == 1 and value == target for _d, value, k, _r in plains)
    return tuple(plains), tuple(groups), whole


def table_entry(x: int, vals: tuple[int, ...], sig: int, rules: MoveRules) -> Entry:
    """:func:`numeral_moves` (as plain tuples, ``sig`` packed) and the need of each move
    (shared: do not change)."""
    capture_rule, plain_as_card = rules[0], rules[1]
    if not sig:  # the common table: loose cards only
        base = loose_table_entry(x, vals, capture_rule)
        return base[0], base[1]
    key = _plan_key(x, sig, rules)
    own, leave, involved, raises, steps = _plan(key, x, sig, rules)
    full = plain_as_card == "full"
    small, cuts, ordered = _table_info(vals)
    head = vals[:cuts[x]]
    if own is None:
        loose_moves, _needs, captures, declares, starts = loose_table_entry(x, vals, capture_rule)
    else:  # the owner only captures or adds to their declaration (C3.7): no loose-only moves
        loose_moves, captures, declares, starts = (), _capture_piece(x, head, ordered, capture_rule), (), ()
    if involved:
        piece = (packed(head) << 4 | x, involved)
        captured = _DECL_CAPTURES.get(piece)
        if captured is None:
            captured = remember(_DECL_CAPTURES, piece, _captures(x, head, unpack_sig(sig), capture_rule, full))
        out = list(captured)
    else:
        out = list(captures)
    # a capture leaving the own declaration keeps a card of its value (C3.7)
    needs = [FREE] * len(out) if own is None else [FREE if own in m[2] else leave for m in out]
    if out and capture_rule == "forced_maximal":
        return tuple(out), tuple(needs)
    if declares:
        out += declares
        needs += _value_needs(declares)
    for raised in raises:
        d, value = raised >> 4, raised & 15
        out.append(("raise", (), (d,), value + x))  # the played card alone (C3.5)
        needs.append(1 << (value + x))
        if full:  # with loose numerals too (C3.9)
            budget = 10 - x - value
            for mask, total in _budget_subsets(vals[:cuts[budget]], budget):
                out.append(("raise", BITS[mask], (d,), value + x + total))
                needs.append(1 << (value + x + total))
    for step in steps:
        target = step >> 1
        if step & 1:  # memoised on the plan, the value and the loose values it sees
            group_head = vals[:cuts[target]]
            piece = (key << 4 | target, packed(group_head))
            found = _DECLARED_GROUPS.get(piece)
            if found is None:
                spec = _group_spec(x, target, unpack_sig(sig), rules)
                assert spec is not None  # the plan marks the values declarations enter
                found = remember(_DECLARED_GROUPS, piece, _declared_groups(x, target, group_head, spec, own, small))
        else:
            found = loose_moves[starts[target]:starts[target + 1]]
        out += found
        needs += [1 << target] * len(found)
    if own is None:
        out.append(LAID)
        needs.append(FREE)
    return tuple(out), tuple(needs)


def _declared_groups(x: int, target: int, head: tuple[int, ...], spec: GroupSpec, own: int | None,
                     small: tuple[tuple[int, ...], ...]) -> tuple[RawMove, ...]:
    """C3.6, C3.9: the groups of ``target`` that declarations enter (``spec``: :func:`_group_spec`),
    from ``x`` and the loose numerals ``head`` (the values ≤ ``target``, or every value when the
    floor is not sorted; ``small``: :func:`_small_subsets` of values that ``head`` begins);
    with ``own``, only those holding the mover's declaration (C3.7). The loose positions and the
    declaration indices of each move come from :data:`BITS`, so that the memoised list is flat."""
    plains, groups, whole = spec
    # per set: a mask of loose positions, a mask of declaration indices, its number of parts
    sets: list[tuple[int, int, int]]
    if not plains:
        sets = [(mask, 0, nparts) for mask, nparts in _loose_sets(x, head, target, small)]
    elif whole:
        # whole plain declarations of the value: each only ever a component on its own, so
        # the sets are the loose ones with any of them added (ordered as over the pool)
        found = _loose_sets(x, head, target, small)
        sets = []
        for dm in range(1 << len(plains)):
            ids = 0
            for j in BITS[dm]:
                ids |= 1 << plains[j][0]
            sets += [(mask, ids, nparts + dm.bit_count()) for mask, nparts in found]
    else:
        loose = [i for i, v in enumerate(head) if v <= target]
        n_loose = len(loose)
        pool = tuple([(head[i], 0, 0) for i in loose] + [(value, k, r) for _d, value, k, r in plains])
        sets = []
        for mask, nparts in _pool_sets(x, target, pool):
            loose_mask = ids = 0
            for j in BITS[mask]:
                if j < n_loose:
                    loose_mask |= 1 << loose[j]
                else:
                    ids |= 1 << plains[j - n_loose][0]
            sets.append((loose_mask, ids, nparts))
    out = []
    for loose_mask, decl_ids, nparts in sets:
        for group, comps in groups:
            ids = decl_ids if group is None else decl_ids | 1 << group
            if own is not None and not ids >> own & 1:
                continue
            if nparts + comps < 2:
                continue
            out.append(("group", BITS[loose_mask], BITS[ids], target))
    return tuple(out)
