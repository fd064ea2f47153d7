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
from kafenio.rummy.melds import Meld

CANASTRA_LEN = 7


def is_semi_clean(meld: Meld) -> bool:
    """§8 semi-clean: 8+ cards with one wild; in a run the wild is at an end (the naturals
    alone form a clean run of 7+), a set needs only the 8 cards."""
    if len(meld.cards) < 8 or len(meld.wilds) != 1:
        return False
    return not meld.is_run or meld.wilds[0] in (0, len(meld.cards) - 1)


def canastra_bonus(meld: Meld, rules: Any) -> tuple[int, str]:
    """The §8 bonus of one meld and why (``(0, "")`` below 7 cards): the most specific enabled
    line of clean A…A, clean A…K, clean, semi-clean, dirty."""
    if len(meld.cards) < CANASTRA_LEN:
        return 0, ""
    if meld.clean:
        if meld.is_run and meld.lo == 1 and rules.a_to_a_bonus is not None and meld.hi == 14:
            return rules.a_to_a_bonus, _("clean ace-to-ace canastra")
        if meld.is_run and meld.lo == 1 and rules.a_to_k_bonus is not None and meld.hi == 13:
            return rules.a_to_k_bonus, _("clean ace-to-king canastra")
        return rules.canastra_clean_bonus, _("clean canastra")
    if rules.semi_clean_bonus is not None and is_semi_clean(meld):
        return rules.semi_clean_bonus, _("semi-clean canastra")
    return rules.canastra_dirty_bonus, _("dirty canastra")


def side_sheet(rules: Any, side: int, seats: Sequence[int], melds: Sequence[Meld],
               hands: Sequence[Sequence[int]], pot: str, went_out: bool,
               unplayed: Sequence[int] = (), cut: int = 0) -> dict[str, Any]:
    """One side's itemised deal score (§8): ``closing`` is the going-out bonus, ``cut`` the
    exact-cut bonus scored in this deal (§2). With ``no_clean_canastra_melds_negative`` a side
    without a clean canastra subtracts its melds and bonuses."""
    negative = rules.no_clean_canastra_melds_negative and not any(
        len(m.cards) >= CANASTRA_LEN and m.clean for m in melds)
    sheet = scoring.side_sheet(
        side, seats, melds, hands, pot, went_out, values=scoring.value_table(rules.card_values, CARD_VALUE_TABLES),
        bonus=lambda m: canastra_bonus(m, rules), closing_bonus=rules.going_out_bonus,
        untaken_penalty=rules.untaken_pot_penalty,
        unplayed_flat=rules.unplayed_pot_penalty == "flat_100", unplayed=unplayed,
        melds_negative=negative)
    sheet["cut"] = cut
    sheet["total"] += cut
    return sheet
