"""Legal actions of a Biriba deal and the reasons an action is illegal (biriba.md §2–§7)."""

from __future__ import annotations

from kafenio.cards import NUM_TYPES, RANK, SUIT
from kafenio.engine.errors import IllegalAction
from kafenio.games.biriba import actions as A
from kafenio.games.biriba.scoring import BIRIBA_LEN
from kafenio.games.biriba.state import P_DRAW, P_END, P_KOZI, DealCore
from kafenio.i18n import _
from kafenio.rummy.melds import is_wild_type, layoff_candidates, layoff_options

KOZI_ACTIONS = [A.KOZI + s for s in range(4)]


def legal_actions(st: DealCore) -> list[int]:
    """Sorted legal action ids of the player on turn."""
    if st.phase == P_END:
        return []
    if st.phase == P_KOZI:
        return KOZI_ACTIONS + ([A.KOZI_NONE] if st.rules.kozi_joker_allows_none else [])
    if st.phase == P_DRAW:
        return _draw_actions(st)
    if st.building:
        return _building_actions(st, st.current)
    return _play_actions(st, st.current)


def _draw_actions(st: DealCore) -> list[int]:
    out = []
    if st.stock:
        out.append(A.DRAW)
    if st.pile and take_problem(st) is None:
        out.append(A.TAKE)
    if not st.stock:
        out.append(A.PASS)
    return out


def take_problem(st: DealCore) -> str | None:
    """Why ``take`` is illegal now (None when legal)."""
    r = st.rules
    if not st.pile:
        return _("the discard pile is empty")
    if (r.single_card_pickup_restriction == "forbidden" and len(st.pile) == 1
            and st.hand_size[st.current] == 1):
        return _("holding one card, you may not take a one-card pile")
    if r.discard_pickup_requirement == "use_any_pile_card":
        trial = st.clone()
        trial._do_take(st.current)
        if not [a for a in legal_actions(trial) if a != A.RETRACT]:
            return _("you could not use a card of the pile in a meld this turn")
    return None


def _play_actions(st: DealCore, seat: int) -> list[int]:
    hand = st.hands[seat]
    must = st.pile_types
    types = sorted(must) if must is not None else [c for c in range(NUM_TYPES) if hand[c]]
    out = []
    pending = st.opening_pending(seat) and st.provisional is None
    if not pending or st.opening_witness(seat):
        out.extend(A.MELD_ADD + c for c in st.startable_types(seat, types))
    out.extend(_layoffs(st, seat, types))
    if must is None and st.provisional is None and (st.hand_size[seat] >= 2 or st.hand_ok(seat, 1)):
        out.extend(A.DISCARD + c for c in range(NUM_TYPES) if hand[c])
    if st.provisional is not None:
        out.append(A.RETRACT)
    out.sort()
    return out


def _layoffs(st: DealCore, seat: int, types: list[int]) -> list[int]:
    side = st.side_of[seat]
    melds = st.melds[side]
    if not melds:
        return []
    hand = st.hands[seat]
    allowed = set(types)
    left = st.hand_size[seat] - 1
    has = st.has_biriba(side)
    clean_rule = st.rules.closing_requirement == "clean_biriba"
    out = []
    for k, meld in enumerate(melds):
        for c in layoff_candidates(meld, st.mr):
            if not hand[c] or c not in allowed:
                continue
            options = layoff_options(meld, c, st.mr)
            for i, new in enumerate(options):
                clean = _clean_after(melds, k, new) if clean_rule else None
                if st.hand_ok(seat, left, has or len(new.cards) >= BIRIBA_LEN, clean):
                    out.append((A.LAYOFF_HIGH if i else A.LAYOFF) + k * NUM_TYPES + c)
    return out


def _clean_after(melds, k: int, new) -> bool:
    return any(len(m.cards) >= BIRIBA_LEN and m.clean
               for m in (new if i == k else m for i, m in enumerate(melds)))


def _building_actions(st: DealCore, seat: int) -> list[int]:
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
        if st.can_complete_building([*chosen, c], seat):
            out.append(A.MELD_ADD + c)
        hand[c] += 1
    out.extend(_meld_end_actions(st, seat))
    out.sort()
    return out


def _meld_end_actions(st: DealCore, seat: int) -> list[int]:
    side = st.side_of[seat]
    allowed_sets = st.set_ranks_allowed(side)
    has = st.has_biriba(side)
    has_clean = st.has_biriba(side, True)
    out = []
    for i, meld in enumerate(st.meld_choices()):
        if not meld.is_run and allowed_sets is not None and meld.rank not in allowed_sets:
            continue
        big = len(meld.cards) >= BIRIBA_LEN
        if st.hand_ok(seat, st.hand_size[seat], has or big, has_clean or (big and meld.clean)):
            out.append(A.MELD_END_HIGH if i else A.MELD_END)
    return out


def explain_illegal(st: DealCore, action: int) -> IllegalAction:
    """The error for an illegal ``action``, naming the biriba.md section that forbids it."""
    rule, reason = _why(st, action)
    return IllegalAction(f"biriba.md {rule}", reason, action)


def _why(st: DealCore, a: int) -> tuple[str, str]:
    if not isinstance(a, int) or not 0 <= a < A.NUM_ACTIONS:
        return "§3", _("no such action")
    if st.phase == P_END:
        return "§6", _("the deal is over")
    if st.phase == P_KOZI:
        if a == A.KOZI_NONE:
            return "§2.2", _("these rules do not allow naming no kozi")
        return "§2.2", _("the first player must first name the kozi suit")
    if A.KOZI <= a <= A.KOZI_NONE:
        return "§2.2", _("the kozi is named only after a joker up-card, before the first draw")
    if st.phase == P_DRAW:
        return _why_draw(st, a)
    if a in (A.DRAW, A.TAKE, A.PASS):
        return "§3", _("you have already drawn this turn")
    if st.building and a >= A.DISCARD:
        return "§4", _("finish the meld under construction first")
    return _why_play(st, a)


def _why_draw(st: DealCore, a: int) -> tuple[str, str]:
    if a == A.DRAW:
        return "§7", _("the stock is empty")
    if a == A.TAKE:
        return "§3", take_problem(st) or _("not allowed now")
    if a == A.PASS:
        return "§7", _("you may pass only when the stock is empty")
    return "§3", _("draw from the stock or take the discard pile first")


def _why_play(st: DealCore, a: int) -> tuple[str, str]:
    seat = st.current
    hand = st.hands[seat]
    if a == A.RETRACT:
        return "§4.7", _("there is no provisional opening to take back")
    if a in (A.MELD_END, A.MELD_END_HIGH):
        if not st.building:
            return "§4", _("no meld is under construction")
        return "§4", _("these cards are not a legal meld (or that reading does not exist)")
    card = (a - A.MELD_ADD) if a < A.DISCARD else (a - A.DISCARD) if a < A.LAYOFF else (
        (a - A.LAYOFF) % NUM_TYPES)
    if not hand[card]:
        return "§3", _("that card is not in your hand")
    if st.pile_types is not None:
        return "§3", _("you must first use a card taken from the discard pile")
    if a >= A.LAYOFF:
        return _why_layoff(st, a)
    if a >= A.DISCARD:
        if st.provisional is not None:
            return "§4.7", _("your opening melds do not meet the requirement yet: meld more or retract")
        if st.single_restricted:
            return "§3", _("after taking a one-card pile with one card in hand you may not close")
        return "§5", _("you may not discard your last card: your side cannot take its pot or close")
    if st.opening_pending(seat) and st.provisional is None and not st.opening_witness(seat):
        return "§4.7", _("your hand cannot meet the opening requirement this turn")
    return "§3", _("that card cannot complete a legal meld without emptying your hand illegally")


def _why_layoff(st: DealCore, a: int) -> tuple[str, str]:
    high, rest = divmod(a - A.LAYOFF, A.MAX_MELDS * NUM_TYPES)
    k, c = divmod(rest, NUM_TYPES)
    melds = st.melds[st.side_of[st.current]]
    if k >= len(melds):
        return "§3", _("your side has no meld {k}").format(k=k)
    options = layoff_options(melds[k], c, st.mr)
    if not options:
        return "§4.5", _("that card does not fit this meld")
    if high and len(options) < 2:
        return "§4.5", _("there is no choice of end for this lay-off")
    return "§3", _("that lay-off would leave your hand empty or with a single card illegally")
