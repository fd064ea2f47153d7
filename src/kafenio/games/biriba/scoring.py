"""Scoring a Biriba deal (biriba.md §1 card values, §8 deal score, §8.2 bonuses, §8.3 pots).

Shared by the engine (:meth:`BiribaState.score_sheet`) and the referee
(:func:`kafenio.referee.rummy.score`): one implementation.

A side's sheet is ``{"side", "seats", "melds", "bonuses": [{"meld", "bonus", "why"}],
"closing", "hands", "pot", "pot_points", "total"}`` where
``total == melds + Σ bonus + closing + hands + pot_points``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kafenio.cards import RANK
from kafenio.games.biriba.rulebook import CARD_VALUE_TABLES
from kafenio.i18n import _
from kafenio.rummy.melds import Meld

BIRIBA_LEN = 7


def value_table(name: str) -> tuple[int, ...]:
    """Points of each card type (length 53) under card value table ``name`` (§1)."""
    t = CARD_VALUE_TABLES[name]
    out = []
    for c in range(52):
        r = RANK[c]
        key = {1: "ace", 2: "two", 8: "eight", 9: "nine"}.get(r, "low" if r <= 7 else "high")
        out.append(t[key])
    out.append(t["joker"])
    return tuple(out)


def meld_bonus(meld: Meld, rules: Any, kozi_suit: int | None, kozi_rank: int | None) -> tuple[int, str]:
    """The §8.2 bonus of one meld and why (``(0, "")`` below 7 cards).

    ``kozi_suit``/``kozi_rank`` are the deal's kozi (None when there is none).
    """
    if len(meld.cards) < BIRIBA_LEN:
        return 0, ""
    clean = meld.clean
    state = _("clean") if clean else _("dirty")
    if not meld.is_run:
        base = rules.set_clean_bonus if clean else rules.set_dirty_bonus
        if rules.kozi_rank_sets and kozi_rank is not None and meld.rank == kozi_rank:
            return _kozi(rules, clean, base, state, _("kozi set"))
        return base, _("{state} set").format(state=state)
    kozi = kozi_suit is not None and meld.suit == kozi_suit
    if meld.is_full_run():
        base = rules.full_run_clean_bonus if clean else rules.full_run_dirty_bonus
        if kozi and rules.kozi_affects_full_runs and rules.kozi_mode == "double":
            return 2 * base, _("{state} kozi full run").format(state=state)
        return base, _("{state} full run").format(state=state)
    base = rules.run_clean_bonus if clean else rules.run_dirty_bonus
    if kozi:
        return _kozi(rules, clean, base, state, _("kozi run"))
    return base, _("{state} run").format(state=state)


def _kozi(rules: Any, clean: bool, base: int, state: str, what: str) -> tuple[int, str]:
    why = f"{state} {what}"
    if rules.kozi_mode == "fixed":
        return (rules.kozi_clean_bonus if clean else rules.kozi_dirty_bonus), why
    if rules.kozi_mode == "double":
        return 2 * base, why
    return base, why


def side_sheet(rules: Any, side: int, seats: Sequence[int], melds: Sequence[Meld],
               hands: Sequence[Sequence[int]], pot: str, closed: bool,
               unplayed: Sequence[int] = (), kozi_suit: int | None = None,
               kozi_rank: int | None = None) -> dict[str, Any]:
    """One side's itemised deal score (§8.1).

    Args:
        hands: the cards (card types) left in each of the side's hands, the unplayed pot's
            cards **not** included.
        pot: ``"taken"``, ``"untaken"`` or ``"unplayed"``.
        closed: a player of this side closed.
        unplayed: the cards of an unplayed pot (§8.3), charged per ``unplayed_biribaki_penalty``.
    """
    values = value_table(rules.card_values)
    meld_points = sum(values[c] for m in melds for c in m.cards)
    bonuses = []
    for m in melds:
        bonus, why = meld_bonus(m, rules, kozi_suit, kozi_rank)
        if bonus:
            bonuses.append({"meld": " ".join(m.notation()), "bonus": bonus, "why": why})
    hand_points = -sum(values[c] for h in hands for c in h)
    if pot == "untaken":
        pot_points = -rules.untaken_biribaki_penalty
        pot_text = f"untaken {pot_points}"
    elif pot == "unplayed" and rules.unplayed_biribaki_penalty == "flat_100":
        pot_points = -100
        pot_text = "unplayed -100"
    elif pot == "unplayed":
        pot_points = -sum(values[c] for c in unplayed)
        pot_text = f"unplayed {pot_points}"
    else:
        pot_points, pot_text = 0, "taken"
    closing = rules.closing_bonus if closed else 0
    total = meld_points + sum(b["bonus"] for b in bonuses) + closing + hand_points + pot_points
    return {"side": side, "seats": list(seats), "melds": meld_points, "bonuses": bonuses,
            "closing": closing, "hands": hand_points, "pot": pot_text, "pot_points": pot_points,
            "total": total}

