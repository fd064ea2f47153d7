"""Scoring a Buraco deal (buraco.md §1 card values, §8 deal score and canastra bonuses).

Shared by the engine (:meth:`BuracoState.score_sheet`) and the referee
(:func:`kafenio.referee.rummy.score`), on the rummy core's
:func:`kafenio.rummy.scoring.side_sheet`; the sheet adds ``"cut"`` (the exact-cut bonus, §2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kafenio.games.buraco.rulebook import CARD_VALUE_TABLES
from kafenio.i18n import _
from kafenio.rummy import scoring
from kafenio.rummy.melds import TWO, Meld

CANASTRA_LEN = 7


def is_semi_clean(meld: Meld) -> bool:
    """§8 semi-clean: 8+ cards with exactly one wild; in a run the naturals below the wild or
    those above it number 7 or more (the wild may be inside), a set needs only the 8 cards."""
    if len(meld.cards) < 8 or len(meld.wilds) != 1:
        return False
    w = meld.wilds[0]
    return not meld.is_run or max(w, len(meld.cards) - 1 - w) >= CANASTRA_LEN


def canastra_bonus(meld: Meld, rules: Any) -> tuple[int, str]:
    """The §8 bonus of one meld and why (``(0, "")`` below 7 cards): the most specific enabled
    line of canastra of 2s, canastra real (clean A…A), canastra meia real (any clean 13-card
    run, A…K or 2…A), clean, semi-clean, dirty."""
    if len(meld.cards) < CANASTRA_LEN:
        return 0, ""
    if not meld.is_run and meld.rank == TWO and rules.twos_canastra_bonus is not None:
        return rules.twos_canastra_bonus, _("canastra of 2s")
    if meld.clean:
        if meld.is_run and len(meld.cards) == 14 and rules.canastra_real_bonus is not None:
            return rules.canastra_real_bonus, _("canastra real (clean ace to ace)")
        if meld.is_run and len(meld.cards) == 13 and rules.canastra_meia_real_bonus is not None:
            return rules.canastra_meia_real_bonus, _("canastra meia real (clean 13-card run)")
        return rules.canastra_clean_bonus, _("clean canastra")
    if rules.semi_clean_bonus is not None and is_semi_clean(meld):
        return rules.semi_clean_bonus, _("semi-clean canastra")
    return rules.canastra_dirty_bonus, _("dirty canastra")


def untaken_penalty(rules: Any, none_taken: bool) -> int:
    """The §8 penalty of a side that never took its pot: nobody pays it when no side took its
    pot, unless ``untaken_pot_penalty_if_none_taken``."""
    if none_taken and not rules.untaken_pot_penalty_if_none_taken:
        return 0
    return rules.untaken_pot_penalty


def side_sheet(rules: Any, side: int, seats: Sequence[int], melds: Sequence[Meld],
               hands: Sequence[Sequence[int]], pot: str, went_out: bool,
               unplayed: Sequence[int] = (), cut: int = 0, none_taken: bool = False) -> dict[str, Any]:
    """One side's itemised deal score (§8): ``closing`` is the going-out bonus, ``cut`` the
    exact-cut bonus scored in this deal (§2). With ``no_clean_canastra_melds_negative`` a side
    without a clean canastra subtracts its melds and bonuses. ``none_taken``: no side of the
    deal took its pot (:func:`untaken_penalty`)."""
    negative = rules.no_clean_canastra_melds_negative and not any(
        len(m.cards) >= CANASTRA_LEN and m.clean for m in melds)
    sheet = scoring.side_sheet(
        side, seats, melds, hands, pot, went_out, values=scoring.value_table(rules.card_values, CARD_VALUE_TABLES),
        bonus=lambda m: canastra_bonus(m, rules), closing_bonus=rules.going_out_bonus,
        untaken_penalty=untaken_penalty(rules, none_taken),
        unplayed_flat=rules.unplayed_pot_penalty == "flat_100", unplayed=unplayed,
        melds_negative=negative)
    sheet["cut"] = cut
    sheet["total"] += cut
    return sheet
