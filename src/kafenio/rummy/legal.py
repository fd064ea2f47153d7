"""Legal actions of a rummy deal and the reasons an action is illegal (both specs §2–§7).

Errors name the game's own section through :meth:`TurnRules.rule` (``"buraco.md §6"``).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress

from kafenio.cards import JOKER, NUM_TYPES, RANK, SUIT
from kafenio.engine.errors import IllegalAction
from kafenio.i18n import _
from kafenio.rummy import actions as A
from kafenio.rummy.melds import (
    NUM_LANES,
    OWN_TWO,
    PRESENT,
    WILD_LANES,
    complete_sizes,
    is_wild_type,
    lanes_of,
    layoff_candidates,
    layoff_options,
    memo_of,
    run_memo_key,
    run_spans,
    second_wild,
    set_sizes,
    startable,
)
from kafenio.rummy.state import P_DRAW, P_END, P_SETUP, RummyState


def legal_actions(st: RummyState) -> list[int]:
    """Sorted legal action ids of the player on turn."""
    if st.phase == P_END:
        return []
    if st.phase == P_SETUP:
        return st.setup_actions()
    if st.phase == P_DRAW:
        return _draw_actions(st)
    if st.building:
        return _building_actions(st, st.current)
    return _play_actions(st, st.current)


def _draw_actions(st: RummyState) -> list[int]:
    out = []
    if st.stock:
        out.append(A.DRAW)
    if st.pile and take_problem(st) is None:
        out.append(A.TAKE)
    if not st.stock:
        out.append(A.PASS)
    return out


def take_problem(st: RummyState) -> str | None:
    """Why ``take`` is illegal now (None when legal). A pick-up after which the turn could not
    be finished legally is never legal (buraco.md §3): the pile requirement is tried on a copy
    of the state — ``use_top_card_with_pile`` melds the top card with the hand and the pile,
    ``use_top_card`` first needs the top card usable with the hand held before the pick-up."""
    tr = st.tr
    seat = st.current
    if not st.pile:
        return _("the discard pile is empty")
    if tr.stalemate == "force_draw" and st.swap_turns >= st.n:
        return _("after a round of one-card pile swaps you must draw from the stock")
    if tr.single_pickup == "forbidden" and len(st.pile) == 1 and st.hand_size[seat] == 1:
        return _("holding one card, you may not take a one-card pile")
    if tr.one_card_hand_no_pickup and st.hand_size[seat] == 1:
        return _("holding one card, you may not take the discard pile")
    banned = tr.rediscard_ban != "none" and len(st.pile) == 1
    if tr.pickup == "none" and not banned:
        return None
    if tr.pickup == "use_top_card" and not _top_card_usable(st, seat):
        return _("the pile's top card cannot be used in a meld with your hand or on your side's melds")
    trial = st.clone()
    trial._do_take(seat)
    if not [a for a in legal_actions(trial) if a != A.RETRACT]:
        if tr.pickup == "must_meld_this_turn":
            return _("you could not make a meld or lay-off this turn after taking the pile")
        if trial.new_meld_only:
            return _("a wild on top of the pile may be taken only to start a new meld with it, "
                     "and you could not")
        if tr.pickup != "none":
            return _("you could not use a card of the pile in a meld this turn")
        return _("you could not finish the turn: the card taken from a one-card pile may not be "
                 "discarded and your hand may not be emptied")
    return None


def _top_card_usable(st: RummyState, seat: int) -> bool:
    """buraco.md §3 ``use_top_card``: the top card joins the hand *before* the pick-up in a new
    meld, or fits one of the side's melds."""
    top = st.pile[-1]
    new_only = st.tr.wild_top_new_meld_only and is_wild_type(top)
    if not new_only and any(layoff_options(m, top, st.mr) for m in st.melds[st.side_of[seat]]):
        return True
    hand = st.hands[seat][:]
    hand[top] += 1
    return bool(startable(hand, st.mr, lambda n: True, st.set_ranks_allowed(st.side_of[seat]), [top]))


_MELD_ADD_IDS = range(A.MELD_ADD, A.DISCARD)
_DISCARD_IDS = range(A.DISCARD, A.LAYOFF)


def _members(ids: range, lanes: int) -> compress:
    """The ids ``ids[i]`` of the lanes ``i`` set in ``lanes``, in order."""
    return compress(ids, lanes.to_bytes((lanes.bit_length() + 7) // 8, "little"))


def _play_actions(st: RummyState, seat: int) -> list[int]:
    """Built in id order: retract, meld starts, discards, lay-offs, high lay-offs, reject."""
    hand = st.hands[seat]
    hb = bytes(hand)
    held = int.from_bytes(hb.translate(PRESENT), "little")
    must = st.must_use
    types = held if must is None else held & lanes_of(must)
    out = [A.RETRACT] if st.provisional is not None else []
    pending = st.opening_pending(seat) and st.provisional is None
    if not pending or (not st.attempt_failed and st.opening_witness(seat)):
        out += _members(_MELD_ADD_IDS, st.startable_lanes(seat, hb, held) & types)
    if not st.must_play and st.provisional is None:
        if st.hand_size[seat] >= 2:
            out += compress(_DISCARD_IDS, hb)
            no = st.no_discard
            if no is not None and hand[no] and not st.discard_ok(seat, no):
                out.remove(A.DISCARD + no)
        else:   # the last card: may the hand be emptied by it (§5, §6)?
            last = next(c for c in range(NUM_TYPES) if hand[c])
            if st.hand_ok(seat, 1, last=last):
                out.append(A.DISCARD + last)
    if st.melds[st.side_of[seat]] and not (st.must_play and st.new_meld_only):
        out += _layoffs(st, seat, types)
    if st.reject_open:
        out.append(A.REJECT)
    return out


def _layoffs(st: RummyState, seat: int, types: int) -> list[int]:
    """Lay-off ids (sorted) of the card types in the lane set ``types`` (held ones)."""
    side = st.side_of[seat]
    melds = st.melds[side]
    left = st.hand_size[seat] - 1
    banned = st.banned_held(seat)
    if left >= 2 and left > banned:     # hand_ok accepts every such lay-off
        facts = st.side_facts(side)
        mask = int.from_bytes(types.to_bytes(NUM_LANES, "little") * len(melds), "little")   # per meld
        out = []
        for first, lanes in ((A.LAYOFF, facts.lows & mask), (A.LAYOFF_HIGH, facts.highs & mask)):
            while lanes:        # few lay-offs fit: take the lowest lane each time
                low = lanes & -lanes
                out.append(first + (low.bit_length() >> 3))
                lanes ^= low
        return out
    hand = st.hands[seat]
    allowed = types.to_bytes(NUM_LANES, "little")
    mr = st.mr
    has = st.has_big(side)
    big = st.tr.big
    clean_rule = st.tr.close_needs_clean
    last = -1
    out = []
    for k, meld in enumerate(melds):
        for c in layoff_candidates(meld, mr):
            if not allowed[c]:
                continue
            kept = banned - (c == st.no_discard) if banned else 0
            if left == 1:
                hand[c] -= 1
                last = next(x for x in range(NUM_TYPES) if hand[x])
                hand[c] += 1
            for i, new in enumerate(layoff_options(meld, c, mr)):
                clean = _clean_after(melds, k, new, big) if clean_rule else None
                if st.hand_ok(seat, left, has or len(new.cards) >= big, clean, last, kept):
                    out.append((A.LAYOFF_HIGH if i else A.LAYOFF) + k * NUM_TYPES + c)
    out.sort()
    return out


def _clean_after(melds, k: int, new, big: int) -> bool:
    return any(len(m.cards) >= big and m.clean
               for m in (new if i == k else m for i, m in enumerate(melds)))


def _building_actions(st: RummyState, seat: int) -> list[int]:
    hand = st.hands[seat]
    chosen = st.building
    total = st.hand_size[seat] + len(chosen)
    # a meld of at most this size leaves two cards, one of which may be discarded: always fine
    limit = total - max(2, st.banned_held(seat) + 1)
    size_ok: Callable[[int], bool] | None = None
    out = []
    for c, sizes in _find_additions(hand, chosen, st.mr, st.set_ranks_allowed(st.side_of[seat])):
        if sizes and sizes[0] <= limit:
            out.append(A.MELD_ADD + c)
            continue
        hand[c] -= 1          # the checks below read the hand without ``c``
        if sizes and size_ok is None:
            size_ok = st._size_ok(seat, total)
        fits = sizes and size_ok is not None and any(size_ok(n) for n in sizes)
        if fits or st._last_card_melds(seat, [*chosen, c]):
            out.append(A.MELD_ADD + c)
        hand[c] += 1
    out.extend(_meld_end_actions(st, seat))
    out.sort()
    return out


_SUIT_TYPES = [lanes_of(range(13 * s, 13 * s + 13)) for s in range(4)]
_RANK_TYPES = [lanes_of(range(a, 52, 13)) for a in range(13)]
_MIDDLE_TYPES = [lanes_of(range(13 * s + 2, 13 * s + 13)) for s in range(4)]     # 3…K of a suit
_ALL_TYPES = range(NUM_TYPES)


def _find_additions(hand: list[int], chosen: list[int], mr,
                    allowed: frozenset | None) -> list[tuple[int, tuple[int, ...]]]:
    """``(card type, sizes of the legal melds it completes)`` for every type in ``hand`` that
    may join the meld under construction ``chosen``: each type that may join asked with
    :func:`~kafenio.rummy.melds.complete_sizes`, except that

    * the runs of a natural 3…K of a suit the chosen naturals allow (all of them with none
      chosen) come from one scan per suit (:func:`run_spans`, ``extra=1``, memoized on the
      suit's counts and the chosen cards as :func:`run_memo_key` gives them, alike for every
      suit);
      with a natural chosen such a card cannot join a set as well (the chosen cards hold
      another of its suit);
    * with a natural ``nat`` chosen, the wilds other than its suit's 2 (the joker, the other 2s)
      all complete the same melds, so they are asked once; so are the naturals of its rank
      (not an ace) while all chosen naturals have it: they complete the same sets and no run;
      a natural that makes the chosen naturals span two suits and two ranks completes nothing.
    """
    held = int.from_bytes(bytes(hand).translate(PRESENT), "little")
    naturals = [c for c in chosen if not is_wild_type(c)]
    suits = {SUIT[c] for c in naturals}
    ranks = {RANK[c] for c in naturals}
    found: list[tuple[int, tuple[int, ...]]] = []
    asked = held
    if naturals:
        nat = naturals[0]
        suit = SUIT[nat]
        rank = _RANK_TYPES[RANK[nat] - 1]
        wilds = held & WILD_LANES & ~OWN_TWO[suit]
        asked = held & (_SUIT_TYPES[suit] | rank | OWN_TWO[suit])
        if len(suits) > 1:      # a set under way
            none = asked & ~(rank | OWN_TWO[suit])
        elif len(ranks) > 1:    # a run under way
            none = asked & rank & ~_SUIT_TYPES[suit]
        else:
            none = 0
        found.extend((c, ()) for c in _members(_ALL_TYPES, none))
        asked ^= none
        alike = [wilds]
        if RANK[nat] != 1 and len(ranks) == 1:
            alike.append(asked & rank)      # the same sets, no run (two suits, or a card twice)
            asked &= ~rank
        for group in alike:
            if group:
                first = (group & -group).bit_length() // 8
                hand[first] -= 1
                same = complete_sizes([*chosen, first], hand, mr, allowed)
                hand[first] += 1
                found.extend((c, same) for c in _members(_ALL_TYPES, group))
    if len(suits) <= 1:
        set_ranks = mr.set_ranks if allowed is None else allowed
        other = hand[JOKER] + hand[1] + hand[14] + hand[27] + hand[40]
        memo = memo_of(mr)
        fresh = ~lanes_of(chosen)
        for suit in suits or range(4):
            key = ("spans", *run_memo_key(chosen, hand, suit, mr, other))
            spans = memo.get(key)
            if spans is None:
                spans = memo[key] = tuple(run_spans(chosen, hand, suit, mr, key[3], 1))
            middle = asked & _MIDDLE_TYPES[suit] & fresh
            asked ^= middle
            for c in _members(_ALL_TYPES, middle):
                p = RANK[c]
                sizes = {n for lo, first, last in spans if lo <= p <= last
                         for n in range(max(first, p) - lo + 1, last - lo + 2)}
                if not naturals:
                    hand[c] -= 1
                    set_sizes([*chosen, c], [c], hand, mr, set_ranks, sizes)
                    hand[c] += 1
                found.append((c, tuple(sorted(sizes))))
    for c in _members(_ALL_TYPES, asked):
        hand[c] -= 1
        found.append((c, complete_sizes([*chosen, c], hand, mr, allowed)))
        hand[c] += 1
    found.sort()
    return found


def _meld_end_actions(st: RummyState, seat: int) -> list[int]:
    facts = st.side_facts(st.side_of[seat])
    allowed_sets = facts.set_ranks
    left = st.hand_size[seat]
    last = next(c for c in range(NUM_TYPES) if st.hands[seat][c]) if left == 1 else -1
    no = st.no_discard
    banned = st.hands[seat][no] if no is not None and st.banned_held(seat) else 0
    out = []
    for i, meld in enumerate(st.meld_choices()):
        if not meld.is_run and allowed_sets is not None and meld.rank not in allowed_sets:
            continue
        big = len(meld.cards) >= st.tr.big
        if (left >= 2 and left > banned) or st.hand_ok(seat, left, facts.big or big,
                                                       facts.clean_big or (big and meld.clean), last, banned):
            out.append(A.MELD_END_HIGH if i else A.MELD_END)
    return out


def explain_illegal(st: RummyState, action: int) -> IllegalAction:
    """The error for an illegal ``action``, naming the section of the game's spec that forbids it."""
    topic, reason = _why(st, action)
    return IllegalAction(st.tr.rule(topic), reason, action)


def _why(st: RummyState, a: int) -> tuple[str, str]:
    if not isinstance(a, int) or not 0 <= a < st.game.num_distinct_actions():
        return "turn", _("no such action")
    if st.phase == P_END:
        return "close", _("the deal is over")
    if st.phase == P_SETUP:
        return "setup", st.setup_problem(a)
    if A.KOZI <= a <= A.KOZI_NONE or a >= A.CUT:
        return "setup", _("this is done only before the first draw of the deal")
    if st.phase == P_DRAW:
        return _why_draw(st, a)
    if a in (A.DRAW, A.TAKE, A.PASS):
        return "turn", _("you have already drawn this turn")
    if a == A.REJECT:
        return "turn", _("only the first card drawn in the deal may be rejected, at once")
    if st.building and a >= A.DISCARD:
        return "melds", _("finish the meld under construction first")
    return _why_play(st, a)


def _why_draw(st: RummyState, a: int) -> tuple[str, str]:
    if a == A.DRAW:
        return "stock", _("the stock is empty")
    if a == A.TAKE:
        return "turn", take_problem(st) or _("not allowed now")
    if a == A.PASS:
        return "stock", _("you may pass only when the stock is empty")
    return "turn", _("draw from the stock or take the discard pile first")


def _why_play(st: RummyState, a: int) -> tuple[str, str]:
    seat = st.current
    hand = st.hands[seat]
    if a == A.RETRACT:
        return "opening", _("there is no provisional opening to take back")
    if a in (A.MELD_END, A.MELD_END_HIGH):
        if not st.building:
            return "melds", _("no meld is under construction")
        return "melds", _("these cards are not a legal meld (or that reading does not exist)")
    card = A.action_card(a)
    assert card is not None     # the actions without a card were answered above
    if not hand[card]:
        return "turn", _("that card is not in your hand")
    if st.must_play:
        if st.new_meld_only and a >= A.LAYOFF:
            return "turn", _("the wild taken from the top of the pile must start a new meld")
        if st.must_use is None:
            return "turn", _("after taking the pile you must first make a meld or a lay-off")
        return "turn", _("you must first use a card taken from the discard pile")
    if a >= A.LAYOFF:
        return _why_layoff(st, a)
    if a >= A.DISCARD:
        return _why_discard(st, card)
    if st.opening_pending(seat) and st.provisional is None and st.attempt_failed:
        return "opening", _("one opening attempt per turn: this turn's attempt failed")
    if st.opening_pending(seat) and st.provisional is None and not st.opening_witness(seat):
        return "opening", _("your hand cannot meet the opening requirement this turn")
    return "turn", _("that card cannot complete a legal meld without emptying your hand illegally")


def _why_discard(st: RummyState, card: int) -> tuple[str, str]:
    seat = st.current
    if st.provisional is not None:
        return "opening", _("your opening melds do not meet the requirement yet: meld more or retract")
    if not st.discard_ok(seat, card):
        if st.tr.rediscard_ban == "same_or_identical":
            return "turn", _("the card taken from a one-card pile, or one identical to it, may not be "
                             "discarded this turn")
        return "turn", _("the single card taken from the pile may not be discarded this turn")
    if st.single_restricted:
        return "turn", _("after taking a one-card pile with one card in hand you may not close")
    side = st.side_of[seat]
    if st.pot_taken[side] and st._may_close(side) and is_wild_type(card):
        return "close", _("the closing discard may not be a wild card")
    return "pot", _("you may not discard your last card: your side cannot take its pot or go out")


def _why_layoff(st: RummyState, a: int) -> tuple[str, str]:
    k, c, high = A.layoff_parts(a)
    melds = st.melds[st.side_of[st.current]]
    if k >= len(melds):
        return "turn", _("your side has no meld {k}").format(k=k)
    options = layoff_options(melds[k], c, st.mr)
    if not options:
        if second_wild(melds[k], c, st.mr):
            return "wilds", _("a meld holds at most one wild: this one already has its wild")
        return "layoff", _("that card does not fit this meld")
    if high and len(options) < 2:
        return "layoff", _("there is no choice of end for this lay-off")
    return "turn", _("that lay-off would leave your hand empty or with a single card illegally")
