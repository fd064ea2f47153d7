"""The capture enumerator of the fishing family: the one place that knows what a card takes.

Implements ``basra.md`` §3 (pairing, combining into several disjoint groups, pictures, sweeping
jacks, the special ``7D``, ``capture_mode``/``capture_compulsory``) in a form the relatives of
``fishing-relatives.md`` §0 reuse (Diloti's free choice; Pişti/Xeri use only the sweep and the
rank match on a pile, which their hooks restrict to the top card).

A **capture option** is a sorted tuple of floor *positions* (indices into the floor list); the
played card itself is always taken as well. ``()`` is "take nothing" (trail), offered only when
capturing is not compulsory. The engine, the referee, the players and the interface all call
:func:`capture_options`.

>>> from kafenio.cards import parse_cards
>>> spec = CaptureSpec()
>>> floor = parse_cards("2H AC 5D 4S")
>>> capture_options(floor, parse_cards("7H")[0], spec)          # BAS-04: maximal
[(0, 1, 3)]
>>> len(capture_options(floor, parse_cards("7H")[0], CaptureSpec(mode="player_choice")))
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from kafenio.cards import RANK

JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
SEVEN_DIAMONDS: Final = 2 * 13 + 6

#: numeric value of each card type for sums: A=1 … 10=10; pictures, jacks and the joker 0
VALUE: Final = tuple(r if 1 <= r <= 10 else 0 for r in RANK)

_SUM_CACHE: Final[dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]]] = {}
_SUM_CACHE_LIMIT: Final = 200_000


@dataclass(frozen=True)
class CaptureSpec:
    """The capture rules of one rule set (built once per game from its options).

    Args:
        mode: ``maximal`` — all same-rank cards plus a family of sum groups with the most cards
            (several such families → the player chooses); ``player_choice`` — any family.
        compulsory: with ``player_choice``, a card that can capture must capture.
        sums: numerals also capture groups of two or more floor numerals adding up to their value.
        sweepers: card types that take the whole floor when it is not empty (jacks; the ``7D``
            when ``seven_diamonds_special``).
        lone_prey: a card type that any non-sweeper takes when it is the only floor card
            (the Ethiopian lone ``7D``), or ``None``.
        cache: results by (floor ranks, played rank) — the hot path's memo (suits never matter
            once sweepers and the lone prey are handled).
    """

    mode: str = "maximal"
    compulsory: bool = True
    sums: bool = True
    sweepers: frozenset[int] = frozenset(c for c in range(52) if RANK[c] == JACK) | {SEVEN_DIAMONDS}
    lone_prey: int | None = None
    cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __reduce__(self) -> tuple[type[CaptureSpec], tuple[str, bool, bool, frozenset[int], int | None]]:
        """Copies and pickles rebuild the spec from its rules, with an empty memo (compiled, a
        frozen class cannot be filled in field by field)."""
        return CaptureSpec, (self.mode, self.compulsory, self.sums, self.sweepers, self.lone_prey)


def sum_unions(values: tuple[int, ...], target: int) -> tuple[tuple[int, ...], ...]:
    """Every union of a family of disjoint groups (two or more cards each) summing to ``target``.

    Args:
        values: the numeric values of the candidate floor cards (each in ``1 … target−1``).
        target: the played numeral's value.

    Returns:
        Tuples of positions into ``values``, most cards first; always ends with ``()`` (the empty
        family). Results are cached: the same values recur all the time in play.

    >>> sum_unions((5, 4, 2, 7), 9)                                   # BAS-01
    ((0, 1, 2, 3), (0, 1), (2, 3), ())
    """
    key = (values, target)
    hit = _SUM_CACHE.get(key)
    if hit is not None:
        return hit
    n = len(values)
    sums = [0] * (1 << n)
    groups = []
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        if sums[mask] == target and mask != low:
            groups.append(mask)
    unions = {0}
    frontier = [(0, 0)]
    while frontier:
        used, start = frontier.pop()
        for i in range(start, len(groups)):
            group = groups[i]
            if not group & used:
                both = used | group
                if both not in unions:
                    unions.add(both)
                    frontier.append((both, i + 1))
    ordered = sorted(unions, key=lambda m: (-m.bit_count(), m))
    result = tuple(tuple(i for i in range(n) if m >> i & 1) for m in ordered)
    if len(_SUM_CACHE) >= _SUM_CACHE_LIMIT:
        _SUM_CACHE.clear()
    _SUM_CACHE[key] = result
    return result


def capture_options(floor: Sequence[int], card: int, spec: CaptureSpec) -> list[tuple[int, ...]]:
    """What ``card`` played onto ``floor`` may take (``basra.md`` §3).

    Returns:
        ``[]`` — the card takes nothing and stays on the floor (trails);
        one option — the capture is forced;
        several — the player chooses (``()`` among them means "trail" is allowed).
        Options are sorted tuples of floor positions, most cards first. The list is the
        memo's own: do not change it.
    """
    if not floor:
        return []
    if card in spec.sweepers:
        return [tuple(range(len(floor)))]
    if spec.lone_prey is not None and len(floor) == 1 and floor[0] == spec.lone_prey:
        return [(0,)]
    key = (tuple(map(RANK.__getitem__, floor)), RANK[card])
    hit = spec.cache.get(key)
    if hit is None:
        hit = _rank_options(key[0], key[1], spec)
        if len(spec.cache) >= _SUM_CACHE_LIMIT:
            spec.cache.clear()
        spec.cache[key] = hit
    return hit


def _rank_options(ranks: tuple[int, ...], rank: int, spec: CaptureSpec) -> list[tuple[int, ...]]:
    value = rank if rank <= 10 else 0
    pairs = []
    sub = []
    sub_values = []
    for i, r in enumerate(ranks):
        if r == rank:
            pairs.append(i)
        elif spec.sums and value and r < value:
            sub.append(i)
            sub_values.append(r)
    unions: Sequence[tuple[int, ...]] = sum_unions(tuple(sub_values), value) if len(sub) > 1 else ((),)
    if spec.mode == "maximal":
        best = len(unions[0])
        unions = [u for u in unions if len(u) == best]
    options = [tuple(sorted(pairs + [sub[j] for j in u])) for u in unions]
    options = [o for o in options if o]
    if options and not spec.compulsory and spec.mode != "maximal":
        options.append(())
    return options


def equal_sum_split(values: Sequence[int], parts: int) -> bool:
    """True when ``values`` can be split into ``parts`` groups with the same sum (all cards used).

    Used by the ``7D`` basra tests of ``basra.md`` §4.2 (``yemeni``, ``ethiopian``).

    >>> equal_sum_split([1, 2, 7, 8], 2), equal_sum_split([6, 4], 2)   # BAS-16, BAS-18
    (True, False)
    """
    total = sum(values)
    if parts < 1 or total % parts:
        return False
    size = total // parts
    ordered = sorted(values, reverse=True)
    if ordered and ordered[0] > size:
        return False
    bins = [0] * parts

    def place(i: int) -> bool:
        if i == len(ordered):
            return True
        seen = set()
        for b in range(parts):
            if bins[b] + ordered[i] <= size and bins[b] not in seen:
                seen.add(bins[b])
                bins[b] += ordered[i]
                if place(i + 1):
                    return True
                bins[b] -= ordered[i]
        return False

    return place(0)
