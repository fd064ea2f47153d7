"""Searches over the melds a hand can make (openings, heuristics).

:func:`candidate_melds` lists melds a per-type count hand can lay down (runs over every
position interval with at most ``max_wilds`` gaps, sets over every sub-multiset of a rank).
:func:`find_opening` looks for a combination of disjoint melds meeting an opening
requirement: the whole hand but at most one card (biriba.md §4.6) or a minimum of card
points (§4.7). The search is bounded; when it gives up it answers ``False`` (the engine then
does not offer the opening, never a dead end).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from kafenio.cards import JOKER, RANK, card
from kafenio.rummy.melds import MeldRules, position_card

NODE_LIMIT = 3000


def _wild_types(hand: Sequence[int]) -> list[int]:
    return [c for c in [JOKER] + [card(2, s) for s in range(4)] if hand[c]]


def candidate_melds(hand: Sequence[int], mr: MeldRules) -> list[tuple[int, ...]]:
    """Melds (as sorted tuples of card types) that ``hand`` can lay down."""
    out: set[tuple[int, ...]] = set()
    wilds = _wild_types(hand)
    for suit in range(4):
        _runs(hand, suit, wilds, mr, out)
    if mr.allow_sets:
        for rank in sorted(mr.set_ranks):
            _sets([card(rank, s) for s in range(4)], hand, wilds, mr, out)
        if mr.twos_set_allowed:
            _sets([card(2, s) for s in range(4)], hand, [], mr, out, need=3)
    return sorted(out)


def _runs(hand, suit: int, wilds: list[int], mr: MeldRules, out: set) -> None:
    for lo in range(1, 13):
        for hi in range(lo + 2, min(14, lo + mr.max_run_len - 1) + 1):
            used = [0] * 53
            missing = []
            for p in range(lo, hi + 1):
                c = position_card(suit, p)
                if used[c] < hand[c]:
                    used[c] += 1
                else:
                    missing.append(p)
            if len(missing) > mr.max_wilds:
                break
            naturals = [c for c in range(53) for _i in range(used[c])]
            if not missing:
                out.add(tuple(sorted(naturals)))
                continue
            for w in wilds:
                if hand[w] > used[w]:
                    out.add(tuple(sorted([*naturals, w])))


def _sets(types: list[int], hand, wilds: list[int], mr: MeldRules, out: set, need: int = 1) -> None:
    ranges = [range(hand[c] + 1) for c in types]
    for ks in product(*ranges):
        naturals = [c for c, k in zip(types, ks, strict=True) for _i in range(k)]
        if len(naturals) < need:
            continue
        if len(naturals) >= 3:
            out.add(tuple(sorted(naturals)))
        if mr.max_wilds and len(naturals) >= 2:
            for w in wilds:
                if RANK[w] != RANK[types[0]]:
                    out.add(tuple(sorted([*naturals, w])))


def find_opening(hand: Sequence[int], mr: MeldRules, *, whole: bool = False, minimum: int = 0,
                 must: Iterable[int] | None = None, values: Sequence[int] | None = None) -> bool:
    """Whether disjoint melds from ``hand`` meet an opening requirement.

    Args:
        whole: lay down all cards but at most one (§4.6).
        minimum: else, reach this many card points keeping at least two cards (§4.7).
        must: card types of which at least one must be used (pile pick-up requirement, §3).
        values: card points per type (for ``minimum``).
    """
    must_set = set(must) if must is not None else None
    cands = candidate_melds(hand, mr)
    left = list(hand)
    budget = [NODE_LIMIT]
    if whole:
        coverable = {c for m in cands for c in m}
        if sum(n for c, n in enumerate(hand) if c not in coverable) > 1:
            return False
        by_card: dict[int, list[tuple[int, ...]]] = {}
        for m in cands:
            for c in set(m):
                by_card.setdefault(c, []).append(m)
        return _cover(left, sum(hand), by_card, must_set, False, budget)
    assert values is not None, "a minimum needs the card values"
    scored = sorted(((sum(values[c] for c in m), m) for m in cands), reverse=True)
    return _reach(left, sum(hand), scored, 0, minimum, must_set, False, budget)


def _fits(left: list[int], meld: tuple[int, ...]) -> bool:
    need: dict[int, int] = {}
    for c in meld:
        need[c] = need.get(c, 0) + 1
    return all(left[c] >= n for c, n in need.items())


def _take(left: list[int], meld: tuple[int, ...], sign: int) -> None:
    for c in meld:
        left[c] -= sign


def _cover(left, size, by_card, must, used_must, budget, spare: int = 1) -> bool:
    """Cover every card of ``left`` by melds (``by_card``: candidates per card), ``spare``
    cards may stay over."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if size <= spare and (must is None or used_must):
        return True
    if size == 0:
        return False
    first = next(c for c in range(53) if left[c])
    for meld in by_card.get(first, ()):
        if _fits(left, meld):
            _take(left, meld, 1)
            ok = _cover(left, size - len(meld), by_card, must,
                        used_must or bool(must and must.intersection(meld)), budget, spare)
            _take(left, meld, -1)
            if ok:
                return True
    if spare:
        left[first] -= 1
        ok = _cover(left, size - 1, by_card, must, used_must, budget, spare - 1)
        left[first] += 1
        return ok
    return False


def _reach(left, size, scored, start, minimum, must, used_must, budget) -> bool:
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if minimum <= 0 and (must is None or used_must):
        return True
    for i in range(start, len(scored)):
        points, meld = scored[i]
        if size - len(meld) >= 2 and _fits(left, meld):
            _take(left, meld, 1)
            ok = _reach(left, size - len(meld), scored, i + 1, minimum - points, must,
                        used_must or bool(must and must.intersection(meld)), budget)
            _take(left, meld, -1)
            if ok:
                return True
    return False
