"""Differential tests of the rummy engine's fast paths against slow from-scratch references.

The engine answers legal actions from memoized per-suit / per-rank counts (``melds.memo_of``),
type sets held as byte lanes of an int (3-card meld starts, lay-off fits, discards), cached
lay-off options on the melds, per-side facts recomputed only when the side's melds change
(``RummyState.side_facts``: lay-off lanes, biriba/canastra owned, set ranks still allowed),
running deal totals without the itemised sheet (kept per hand and per side with what they
were computed from, also in a resampled copy) and a bytes-converted observation. The
references below are the straightforward versions the engine used before (every check
recomputed from the whole hand and the melds, ``size_ok`` asked size by size); at every step
of many random deals of several presets of both games the engine must agree with them
exactly: the legal action list, the side facts, ``side_scores()`` against the score sheet's
totals, and the observation.
"""

from __future__ import annotations

import copy as copy_module
import pickle
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import kafenio
from kafenio.cards import JOKER, NUM_TYPES, RANK, SUIT, card
from kafenio.rummy import actions as A
from kafenio.rummy.legal import _draw_actions, _find_additions
from kafenio.rummy.melds import (
    LANE_BITS,
    TWO,
    Meld,
    MeldRules,
    _run_layoff,
    _set_layoff,
    can_complete,
    complete_sizes,
    is_wild_type,
    layoff_candidates,
    layoff_options,
    position_card,
    run_counts,
    run_layouts,
    run_spans,
    startable,
    validate,
)
from kafenio.rummy.state import P_DRAW, P_END, P_SETUP, RummyState

_TWOS = tuple(card(2, s) for s in range(4))


def ref_layoff_options(meld: Meld, c: int, mr: MeldRules) -> list[Meld]:
    """Uncached lay-off options."""
    return _set_layoff(meld, c, mr) if not meld.is_run else _run_layoff(meld, c, mr)


# -- the slow references (the engine's former code, unmemoized) --------------------------------

def ref_has_big(st: RummyState, side: int, clean: bool = False) -> bool:
    """The side owns a biriba / canastra (a clean one when ``clean``)."""
    return any(len(m.cards) >= st.tr.big and (m.clean or not clean) for m in st.melds[side])


def ref_set_ranks_allowed(st: RummyState, side: int) -> frozenset | None:
    """Ranks a new set of ``side`` may have (None: any)."""
    if st.rules.allow_duplicate_set_ranks:
        return None
    ranks = st.mr.set_ranks | ({TWO} if st.mr.twos_set_allowed else set())
    return ranks - {m.rank for m in st.melds[side] if not m.is_run}


def ref_can_complete(chosen: Sequence[int], hand: Sequence[int], mr: MeldRules,
                 size_ok: Callable[[int], bool], set_ranks: frozenset | None = None) -> bool:
    """Whether the partial meld ``chosen`` can become a legal meld using cards of ``hand``.

    ``hand`` is a per-type count list of the cards still in hand (``chosen`` not included);
    ``size_ok(n)`` says whether a final meld of ``n`` cards is acceptable (the caller's
    "emptying the hand" rule); ``set_ranks`` narrows the ranks a new set may have (a side
    that may not own two sets of one rank).
    """
    naturals = [c for c in chosen if not is_wild_type(c)]
    suits = {SUIT[c] for c in naturals}
    if len(suits) <= 1:
        for suit in (suits or range(4)):
            if _ref_run_completes(chosen, hand, suit, mr, size_ok):
                return True
    return _ref_set_completes(chosen, naturals, hand, mr, size_ok,
                          mr.set_ranks if set_ranks is None else set_ranks)


def _ref_set_completes(chosen, naturals, hand, mr: MeldRules, size_ok, set_ranks) -> bool:
    if not mr.allow_sets:
        return False
    n = len(chosen)
    jokers = sum(1 for c in chosen if c == JOKER)
    twos_open = mr.twos_set_allowed and (set_ranks is mr.set_ranks or TWO in set_ranks)
    if twos_open and all(c == JOKER or RANK[c] == TWO for c in chosen):
        twos = n - jokers
        room = (mr.max_wilds - jokers) if mr.twos_set_may_contain_joker else 0
        if room >= 0 and (jokers == 0 or mr.twos_set_may_contain_joker):
            avail = sum(hand[card(2, s)] for s in range(4))
            extra_j = min(room, hand[JOKER])
            for size in range(max(3, n), n + avail + extra_j + 1):
                if twos + min(avail, size - n) >= 3 and size_ok(size) and (size - n) - min(
                        avail, size - n) <= extra_j:
                    return True
    ranks = {RANK[c] for c in naturals}
    if len(ranks) > 1:
        return False
    wild_n = n - len(naturals)
    if wild_n > mr.max_wilds:
        return False
    wild_hand = hand[JOKER] + sum(hand[card(2, s)] for s in range(4))
    for rank in (ranks or set_ranks):
        if rank not in set_ranks or rank == TWO:
            continue
        nat_hand = sum(hand[card(rank, s)] for s in range(4))
        if not naturals and nat_hand == 0:
            continue
        max_size = n + nat_hand + min(mr.max_wilds - wild_n, wild_hand)
        for size in range(max(3, n), max_size + 1):
            if size_ok(size) and len(naturals) + min(nat_hand, size - n) >= 1:
                return True
    return False


def _ref_run_completes(chosen, hand, suit: int, mr: MeldRules, size_ok) -> bool:
    """Scan the position intervals of a ``suit`` run containing the chosen cards."""
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
            return False
        elif RANK[c] == 1:
            aces += 1
        else:
            pos_of.append(RANK[c])
    if len(set(pos_of)) != len(pos_of) or aces > mr.max_natural_aces:
        return False
    ace_sets = {0: [()], 1: [(1,), (14,)], 2: [(1, 14)]}[aces]
    other_wilds = hand[JOKER] + sum(hand[card(2, s)] for s in range(4) if s != suit)
    for ace_pos in ace_sets:
        fixed = set(pos_of) | set(ace_pos)
        if len(fixed) != len(pos_of) + len(ace_pos):
            continue
        if _ref_scan_intervals(fixed, s2_chosen, wild_chosen, hand, suit, other_wilds, mr, size_ok,
                           len(chosen)):
            return True
    return False


def _ref_scan_intervals(fixed: set[int], s2_chosen: int, wild_chosen: int, hand, suit: int,
                    other_wilds: int, mr: MeldRules, size_ok, n_chosen: int) -> bool:
    nat = [0] * 15
    for p in range(1, 15):
        nat[p] = hand[position_card(suit, p)]
    ace_hand = nat[1]
    s2_hand = nat[2]
    if fixed:
        lo_max, hi_min = min(fixed), max(fixed)
    else:
        lo_max, hi_min = 14, 1
    for lo in range(lo_max, 0, -1):
        if hi_min - lo + 1 > mr.max_run_len:
            break
        for hi in range(max(lo + 2, hi_min), min(14, lo + mr.max_run_len - 1) + 1):
            verdict = _ref_interval(lo, hi, fixed, s2_chosen, wild_chosen, nat, ace_hand, s2_hand,
                                other_wilds, mr)
            if verdict is None:
                break
            if verdict and size_ok(hi - lo + 1):
                return True
    return False


def _ref_interval(lo, hi, fixed, s2_chosen, wild_chosen, nat, ace_hand, s2_hand, other_wilds,
              mr: MeldRules) -> bool | None:
    """True/False whether [lo, hi] works; None when it and every wider interval fail."""
    missing = 0
    free = 0
    aces_used = sum(1 for p in (1, 14) if p in fixed)
    aces_left = ace_hand
    s2_left_chosen = s2_chosen
    s2_left_hand = s2_hand
    for p in range(lo, hi + 1):
        if p in fixed:
            continue
        if p == 2 and s2_left_chosen:
            s2_left_chosen -= 1
            continue
        free += 1
        if p == 2 and s2_left_hand:
            s2_left_hand -= 1
        elif p in (1, 14) and aces_left and aces_used < mr.max_natural_aces:
            aces_used += 1
            aces_left -= 1
        elif 2 < p < 14 and nat[p]:
            pass
        else:
            missing += 1
    chosen_wild = wild_chosen + s2_left_chosen
    if chosen_wild > free:
        return False
    wilds = max(chosen_wild, missing)
    if wilds > mr.max_wilds:
        return None if missing > mr.max_wilds else False
    extra = max(0, missing - chosen_wild)
    return extra <= other_wilds + s2_left_hand


def ref_startable(hand: list[int], mr: MeldRules, size_ok: Callable[[int], bool],
              set_ranks: frozenset | None = None, types: Sequence[int] = range(53)) -> list[int]:
    """Card types among ``types`` of ``hand`` that can begin a legal meld (see ``can_complete``).

    When 3-card melds are acceptable the answer comes from the 3-card melds alone (every
    legal meld holding a card contains a legal 3-card meld holding it); otherwise each type
    is checked with :func:`can_complete`.
    """
    if size_ok(3) and mr.max_wilds <= 1:
        found = ref_three_card_types(hand, mr, mr.set_ranks if set_ranks is None else set_ranks)
        return [c for c in types if c in found]
    out = []
    for c in types:
        if hand[c]:
            hand[c] -= 1
            if ref_can_complete((c,), hand, mr, size_ok, set_ranks):
                out.append(c)
            hand[c] += 1
    return out


def ref_three_card_types(hand: Sequence[int], mr: MeldRules, set_ranks) -> set[int]:
    """Card types of ``hand`` that belong to some legal 3-card meld."""
    found: set[int] = set()
    jokers = hand[JOKER]
    twos = [hand[t] for t in _TWOS]
    wild_room = mr.max_wilds > 0
    all_twos = sum(twos)
    for suit in range(4):
        base = suit * 13
        nat = [0, *hand[base:base + 13], hand[base]]
        pool = jokers + all_twos - twos[suit]
        for lo in range(1, 13):
            present = [p for p in (lo, lo + 1, lo + 2) if nat[p]]
            if len(present) < 2:
                continue
            spare_s2 = twos[suit] - (1 if 2 in present else 0)
            wilds = pool + spare_s2 if wild_room else 0
            if len(present) == 3 or wilds:
                found.update(base + (p - 1) % 13 for p in present)
            if wilds:
                _ref_add_wilds(found, jokers, twos, suit, spare_s2)
    if mr.allow_sets:
        any_wild = wild_room and (jokers or any(twos))
        for rank in set_ranks - {TWO}:
            kinds = [c for c in (rank - 1, rank + 12, rank + 25, rank + 38) if hand[c]]
            cnt = sum(hand[c] for c in kinds)
            if cnt >= 3 or (cnt == 2 and any_wild):
                found.update(kinds)
                if any_wild:
                    _ref_add_wilds(found, jokers, twos, -1, 0)
        if mr.twos_set_allowed and (set_ranks is mr.set_ranks or TWO in set_ranks) and sum(twos) >= 3:
            found.update(t for t, n in zip(_TWOS, twos, strict=True) if n)
    return found


def _ref_add_wilds(found: set[int], jokers: int, twos: list[int], suit: int, spare_s2: int) -> None:
    if jokers:
        found.add(JOKER)
    for s, n in enumerate(twos):
        if (n if s != suit else spare_s2) > 0:
            found.add(_TWOS[s])


def ref_legal_actions(st: RummyState) -> list[int]:
    """Sorted legal action ids of the player on turn."""
    if st.phase == P_END:
        return []
    if st.phase == P_SETUP:
        return st.setup_actions()
    if st.phase == P_DRAW:
        return _draw_actions(st)
    if st.building:
        return _ref_building_actions(st, st.current)
    return _ref_play_actions(st, st.current)


def _ref_play_actions(st: RummyState, seat: int) -> list[int]:
    hand = st.hands[seat]
    must = st.must_use
    types = sorted(must) if must is not None else [c for c in range(NUM_TYPES) if hand[c]]
    out = []
    if st.reject_open:
        out.append(A.REJECT)
    pending = st.opening_pending(seat) and st.provisional is None
    if not pending or (not st.attempt_failed and st.opening_witness(seat)):
        out.extend(A.MELD_ADD + c for c in ref_startable_types(st, seat, types))
    if not (st.must_play and st.new_meld_only):    # buraco.md §3 wild_top_card_new_meld_only
        out.extend(_ref_layoffs(st, seat, types))
    if not st.must_play and st.provisional is None:
        out.extend(A.DISCARD + c for c in _ref_discards(st, seat))
    if st.provisional is not None:
        out.append(A.RETRACT)
    out.sort()
    return out


def _ref_discards(st: RummyState, seat: int) -> list[int]:
    hand = st.hands[seat]
    if st.hand_size[seat] >= 2:
        return [c for c in range(NUM_TYPES) if hand[c] and st.discard_ok(seat, c)]
    last = next(c for c in range(NUM_TYPES) if hand[c])
    return [last] if st.hand_ok(seat, 1, last=last) else []


def _ref_layoffs(st: RummyState, seat: int, types: list[int]) -> list[int]:
    side = st.side_of[seat]
    melds = st.melds[side]
    if not melds:
        return []
    hand = st.hands[seat]
    allowed = set(types)
    left = st.hand_size[seat] - 1
    has = ref_has_big(st, side)
    big = st.tr.big
    clean_rule = st.tr.close_needs_clean
    last = -1
    out = []
    for k, meld in enumerate(melds):
        for c in layoff_candidates(meld, st.mr):
            if not hand[c] or c not in allowed:
                continue
            if left == 1:
                hand[c] -= 1
                last = next(x for x in range(NUM_TYPES) if hand[x])
                hand[c] += 1
            for i, new in enumerate(ref_layoff_options(meld, c, st.mr)):
                clean = _ref_clean_after(melds, k, new, big) if clean_rule else None
                if st.hand_ok(seat, left, has or len(new.cards) >= big, clean, last):
                    out.append((A.LAYOFF_HIGH if i else A.LAYOFF) + k * NUM_TYPES + c)
    return out


def _ref_clean_after(melds, k: int, new, big: int) -> bool:
    return any(len(m.cards) >= big and m.clean
               for m in (new if i == k else m for i, m in enumerate(melds)))


def _ref_building_actions(st: RummyState, seat: int) -> list[int]:
    hand = st.hands[seat]
    chosen = st.building
    nat = next((c for c in chosen if not is_wild_type(c)), None)
    out = []
    for c in range(NUM_TYPES):
        if not hand[c]:
            continue
        if nat is not None and not (SUIT[c] == SUIT[nat] or RANK[c] == RANK[nat] or is_wild_type(c)):
            continue
        hand[c] -= 1
        if ref_can_complete_building(st, [*chosen, c], seat):
            out.append(A.MELD_ADD + c)
        hand[c] += 1
    out.extend(_ref_meld_end_actions(st, seat))
    out.sort()
    return out


def _ref_meld_end_actions(st: RummyState, seat: int) -> list[int]:
    side = st.side_of[seat]
    allowed_sets = ref_set_ranks_allowed(st, side)
    has = ref_has_big(st, side)
    has_clean = ref_has_big(st, side, True)
    left = st.hand_size[seat]
    last = next(c for c in range(NUM_TYPES) if st.hands[seat][c]) if left == 1 else -1
    out = []
    for i, meld in enumerate(ref_meld_choices(st, )):
        if not meld.is_run and allowed_sets is not None and meld.rank not in allowed_sets:
            continue
        big = len(meld.cards) >= st.tr.big
        if st.hand_ok(seat, left, has or big, has_clean or (big and meld.clean), last):
            out.append(A.MELD_END_HIGH if i else A.MELD_END)
    return out


def ref_meld_choices(st) -> list[Meld]:
    """Readings of the meld under construction: ``[canonical]`` or ``[canonical, high]``."""
    cards = [(c, None) for c in st.building]
    meld, _why = validate(cards, st.mr)
    if meld is None:
        return []
    if not meld.is_run:
        return [meld]
    def naturals(m):
        return {m.lo + i: c for i, c in enumerate(m.cards) if i not in m.wilds}

    others = [m for m in run_layouts(cards, st.mr) if m.key() != meld.key()
              and not (st.mr.end_wild_low and m.wilds and naturals(m) == naturals(meld))]   # §4.4
    if not others:
        return [meld]
    return [meld, max(others, key=lambda m: (m.hi, -len(m.wilds)))]


def ref_can_complete_building(st, chosen: list[int], seat: int) -> bool:
    """The meld under construction ``chosen`` can still become legal for ``seat``."""
    total = st.hand_size[seat] + len(st.building)
    side = st.side_of[seat]
    if ref_can_complete(chosen, st.hands[seat], st.mr, ref_size_ok(st, seat, total),
                    ref_set_ranks_allowed(st, side)):
        return True
    return bool(ref_last_card_melds(st, seat, chosen))


def ref_startable_types(st, seat: int, types: Any = range(NUM_TYPES)) -> list[int]:
    """Card types that may start a new meld now."""
    side = st.side_of[seat]
    found = ref_startable(st.hands[seat], st.mr, ref_size_ok(st, seat, st.hand_size[seat]),
                      ref_set_ranks_allowed(st, side), types)
    extra = ref_last_card_melds(st, seat, [])
    if extra:
        more = {c for meld in extra for c in meld} - set(found)
        found = sorted(set(found) | {c for c in more if c in set(types)})
    return found


def ref_last_card_melds(st, seat: int, chosen: list[int]) -> list[list[int]]:
    """Melds (card lists, ``chosen`` first) that leave exactly one card which may then be
    discarded — the cases :meth:`hand_ok` cannot judge without the card (buraco.md §3, §6)."""
    if not st.last_card_restricted(seat) or not st._one_left_possible(seat):
        return []
    hand = st.hands[seat]
    rest = st.hand_size[seat] - 1
    if rest + len(chosen) > st.mr.max_run_len or rest + len(chosen) < 3:
        return []
    side = st.side_of[seat]
    has, has_clean = ref_has_big(st, side), ref_has_big(st, side, True)
    allowed = ref_set_ranks_allowed(st, side)
    held = [c for c in range(NUM_TYPES) for _i in range(hand[c])]
    out = []
    for r in {c for c in held}:
        cards = list(chosen) + held
        cards.remove(r)
        meld, _why = validate([(c, None) for c in cards], st.mr)
        if meld is None or (not meld.is_run and allowed is not None and meld.rank not in allowed):
            continue
        big = len(cards) >= st.tr.big
        if st.hand_ok(seat, 1, has or big, has_clean or (big and meld.clean), last=r):
            out.append(cards)
    return out


def ref_size_ok(st, seat: int, total: int):
    side = st.side_of[seat]
    has = ref_has_big(st, side)
    big = st.tr.big

    def size_ok(size: int) -> bool:
        return st.hand_ok(seat, total - size, has or size >= big, None)

    return size_ok


# -- the checks ---------------------------------------------------------------------------------

def ref_observation(st: RummyState, seat: int) -> np.ndarray:
    """The observation built as Python lists (the former layout code)."""
    def counts(cards):
        out = [0] * NUM_TYPES
        for c in cards:
            out[c] += 1
        return out

    n = st.n
    top = [0.0] * NUM_TYPES
    if st.pile:
        top[st.pile[-1]] = 1.0
    parts = [counts(st.visible_hand(seat)), counts(st.building), counts(st.pile), top]
    my_side = st.side_of[seat]
    ns = len(st.sides)
    for i in range(n):
        side = (my_side + i) % ns
        parts.append(counts(c for m in st.melds[side] for c in m.cards) if i < ns else [0] * NUM_TYPES)
    for i in range(1, n):
        parts.append(st.known[(seat + st.dir * i) % n])
    sizes = [st.hand_size[(seat + st.dir * i) % n] for i in range(n)]
    taken = [float(st.pot_taken[(my_side + i) % ns]) if i < ns else 0.0 for i in range(n)]
    tail = [*sizes, len(st.stock), len(st.pots), *taken, *st._obs_tail(),
            *(s / 1000 for s in st.match_scores)]
    return np.asarray([x for p in parts for x in p] + tail, dtype=np.float32)


def sheet_side_scores(st: RummyState) -> list[float]:
    """``side_scores()`` from the itemised sheet."""
    totals = [s["total"] for s in st.deal_score_sheet()["sides"]]
    if st.tr.solo_sides:
        return [totals[st.side_of[s]] / len(st.sides[st.side_of[s]]) for s in range(st.n)]
    return totals


PRESETS = [
    ("biriba", ["standard_4p"]),
    ("biriba", ["two_players"]),
    ("biriba", ["three_players_individual"]),
    ("biriba", ["three_players_solo_18"]),
    ("biriba", ["five_players"]),
    ("biriba", ["six_players", "runs_only"]),
    ("biriba", ["standard_4p", "catsatcards_house"]),
    ("biriba", ["two_players", "whole_hand_opening"]),
    ("buraco", ["brazilian_4p"]),
    ("buraco", ["brazilian_2p", "semi_clean_150", "royal_canastras"]),
    ("buraco", ["italian_4p"]),
    ("buraco", ["italian_2p", "melds_negative_without_clean"]),
    ("buraco", ["ludopoli_4p"]),
    ("buraco", ["brazilian_4p", "stbl"]),
    ("buraco", ["brazilian_4p", "fechado"]),
    ("buraco", ["italian_4p", "fechado"]),
    ("buraco", ["brazilian_4p", "international_pickup"]),
    ("buraco", ["brazilian_2p", "canastra_online_2p"]),
]


@pytest.mark.parametrize(("game", "preset"), PRESETS, ids=lambda p: "+".join(p) if isinstance(p, list) else p)
def test_fast_paths_match_references(game, preset):
    loaded = kafenio.load_game(game, preset=preset)
    buffer = np.full(loaded.observation_tensor_shape(), np.nan, dtype=np.float32)
    for deal in range(3):
        rng = random.Random(deal * 7919 + len(preset))
        st = loaded.new_initial_state(seed=rng.getrandbits(64))
        steps = 0
        while True:
            assert st.legal_actions() == ref_legal_actions(st), (deal, steps, st.history[-6:])
            for side in range(len(st.melds)):
                assert_side_facts(st, side)
            assert st.side_scores() == sheet_side_scores(st), (deal, steps)
            if steps % 5 == 0 or any(st.unplayed):     # other hands (an unplayed pot too)
                twin = st.resample_from_infostate(st.current_player() % st.n, rng)
                assert twin.side_scores() == sheet_side_scores(twin), (deal, steps)
            if steps % 5 == 0:
                for observer in range(st.n):
                    expected = ref_observation(st, observer)
                    assert np.array_equal(st.observation_tensor(observer), expected)
                    st.write_observation(observer, buffer)
                    assert np.array_equal(buffer, expected)
            if st.building:
                assert st.meld_choices() == ref_meld_choices(st)
            if st.is_terminal():
                break
            legal = st.legal_actions()
            st.apply_action(legal[rng.randrange(len(legal))])
            steps += 1


def assert_side_facts(st: RummyState, side: int) -> None:
    """The cached facts of ``side`` agree with the melds on the table."""
    assert st.has_big(side) == ref_has_big(st, side)
    assert st.has_big(side, True) == ref_has_big(st, side, True)
    assert st.set_ranks_allowed(side) == ref_set_ranks_allowed(st, side)
    facts = st.side_facts(side)
    beyond = LANE_BITS * len(st.melds[side])      # kept across changes: no lanes of melds gone
    assert facts.lows >> beyond == 0 and facts.highs >> beyond == 0
    lows = facts.lows.to_bytes(LANE_BITS * A.MAX_MELDS // 8, "little")
    highs = facts.highs.to_bytes(LANE_BITS * A.MAX_MELDS // 8, "little")
    for k, meld in enumerate(st.melds[side]):
        for c in range(NUM_TYPES):
            options = ref_layoff_options(meld, c, st.mr)
            assert (lows[k * NUM_TYPES + c], highs[k * NUM_TYPES + c]) == (
                len(options) >= 1, len(options) >= 2), (k, c)


def _random_hand(rng: random.Random, size: int, decks: int = 2) -> list[int]:
    hand = [0] * NUM_TYPES
    deck = [c for c in range(52) for _d in range(decks)] + [JOKER] * (2 * decks)
    for c in rng.sample(deck, size):
        hand[c] += 1
    return hand


RULES = [kafenio.load_game(g, preset=p).meld_rules for g, p in PRESETS]


@pytest.mark.parametrize("mr", list(dict.fromkeys(RULES)))     # every distinct meld rule set
def test_meld_reachability_matches_references(mr):
    rng = random.Random(5)
    for _i in range(400):
        hand = _random_hand(rng, rng.randint(2, 16))
        limit = rng.choice([0, 3, 4, 5, 9, 99])

        def size_ok(n: int, limit: int = limit) -> bool:
            return n <= limit or n == limit + 2

        ranks = rng.choice([None, mr.set_ranks, frozenset([1, 5, 9])])
        three = size_ok(3)
        assert startable(hand, mr, size_ok, ranks) == ref_startable(hand, mr, size_ok, ranks), three
        held = [c for c in range(NUM_TYPES) for _j in range(hand[c])]
        chosen = rng.sample(held, min(len(held), rng.randint(1, 4)))
        for c in chosen:
            hand[c] -= 1
        assert can_complete(chosen, hand, mr, size_ok, ranks) == ref_can_complete(chosen, hand, mr, size_ok, ranks)
        sizes = complete_sizes(chosen, hand, mr, ranks)
        for n in range(1, 16):
            exact = ref_can_complete(chosen, hand, mr, lambda k, n=n: k == n, ranks)
            assert (n in sizes) == exact, (chosen, n)
        assert _find_additions(hand, chosen, mr, ranks) == ref_additions(hand, chosen, mr, ranks)


@pytest.mark.parametrize("mr", list(dict.fromkeys(RULES)))
def test_run_counts_decide_the_runs(mr):
    """The run memos share an entry between hands whose :func:`run_counts` agree: the runs of
    the chosen cards (both scans, ``extra`` 0 and 1) must be the same when the suit's counts
    are replaced by that key. Hands are dealt from one suit and the wilds so that long runs and
    gaps near the chosen cards are common."""
    rng = random.Random(11)
    for _i in range(3000):
        suit = rng.randrange(4)
        pool = [c for c in range(13 * suit, 13 * suit + 13) for _d in range(2)] + [JOKER, *_TWOS]
        hand = [0] * NUM_TYPES
        for c in rng.sample(pool, rng.randint(1, 14)):
            hand[c] += 1
        held = [c for c in range(NUM_TYPES) for _j in range(hand[c])]
        chosen = rng.sample(held, rng.randint(1, min(3, len(held))))
        for c in chosen:
            hand[c] -= 1
        keyed = hand[:]
        keyed[13 * suit:13 * suit + 13] = run_counts(chosen, hand, suit, mr.max_wilds)
        for others in range(mr.max_wilds + 1):
            for extra in (0, 1):
                assert (run_spans(chosen, keyed, suit, mr, others, extra)
                        == run_spans(chosen, hand, suit, mr, others, extra)), (chosen, hand[13 * suit:13 * suit + 13])


def ref_additions(hand: list[int], chosen: list[int], mr: MeldRules,
                  ranks: frozenset | None) -> list[tuple[int, tuple[int, ...]]]:
    """Every type of the hand that shares a suit or a rank with the chosen cards' first natural
    (any type when there is none, a wild always) and the sizes it completes, one by one."""
    nat = next((c for c in chosen if not is_wild_type(c)), None)
    out = []
    for c in range(NUM_TYPES):
        if hand[c] and (nat is None or SUIT[c] == SUIT[nat] or RANK[c] == RANK[nat] or is_wild_type(c)):
            hand[c] -= 1
            out.append((c, complete_sizes([*chosen, c], hand, mr, ranks)))
            hand[c] += 1
    return out


def test_layoff_options_cache_matches():
    game = kafenio.load_game("buraco", preset="italian_4p")
    mr = game.meld_rules
    rng = random.Random(2)
    for _i in range(300):
        hand = _random_hand(rng, 9)
        held = [c for c in range(NUM_TYPES) for _j in range(hand[c])]
        meld, _why = validate([(c, None) for c in rng.sample(held, 3)], mr)
        if meld is None:
            continue
        for c in range(NUM_TYPES):
            assert layoff_options(meld, c, mr) == ref_layoff_options(meld, c, mr)
            assert layoff_options(meld, c, mr) == ref_layoff_options(meld, c, mr)   # cached


def test_pickled_state_leaves_the_memo_behind():
    """A pickled or deep-copied state does not carry the rule set's shared memo; loaded, it
    uses that memo again and plays on exactly like the original."""
    loaded = kafenio.load_game("buraco", preset="brazilian_4p")
    rng = random.Random(3)
    st = loaded.new_initial_state(seed=rng.getrandbits(64))
    for _i in range(60):
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    size, entries = len(pickle.dumps(st)), len(st.memo)
    other = loaded.new_initial_state(seed=rng.getrandbits(64))     # another deal grows the memo
    while not other.is_terminal():
        legal = other.legal_actions()
        other.apply_action(legal[rng.randrange(len(legal))])
    assert len(st.memo) > entries
    assert len(pickle.dumps(st)) == size
    for copy in (pickle.loads(pickle.dumps(st)), copy_module.deepcopy(st)):
        assert copy.memo is st.memo
        play = random.Random(4)
        a, b = st.clone(), copy
        while not a.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            action = a.legal_actions()[play.randrange(len(a.legal_actions()))]
            a.apply_action(action)
            b.apply_action(action)
        assert b.is_terminal() and a.side_scores() == b.side_scores()


@pytest.mark.parametrize("name", ["biriba", "buraco"])
def test_a_clone_plays_on_without_touching_its_original(name):
    """A clone (and a determinization) has its own history, hands and game attributes: playing it
    to the end leaves the original as it was (compiled, ``copy.copy`` hands a Python subclass's
    copy the original's ``__dict__``, where the history lives)."""
    rng = random.Random(5)
    st = kafenio.load_game(name).new_initial_state(seed=7)
    for _i in range(40):
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    before = (st.serialize(), st.view(st.current_player()), st.information_state_string(0))
    for copy in (st.clone(), st.resample_from_infostate(st.current_player(), random.Random(1))):
        while not copy.is_terminal():
            legal = copy.legal_actions()
            copy.apply_action(legal[rng.randrange(len(legal))])
        assert (st.serialize(), st.view(st.current_player()), st.information_state_string(0)) == before
