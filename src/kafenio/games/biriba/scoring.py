"""Scoring a Biriba deal (biriba.md §1 card values, §8 deal score, §8.2 bonuses, §8.3 pots).

Shared by the engine (:meth:`BiribaState.score_sheet`) and the referee
(:func:`kafenio.referee.rummy.score`): one implementation, on the rummy core's
:func:`kafenio.rummy.scoring.side_sheet`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kafenio.games.biriba.rulebook import CARD_VALUE_TABLES
from kafenio.i18n import _
from kafenio.rummy import scoring
from kafenio.rummy.melds import Meld

BIRIBA_LEN = 7


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
    """One side's itemised deal score (§8.1; see :func:`kafenio.rummy.scoring.side_sheet`)."""
    return scoring.side_sheet(
        side, seats, melds, hands, pot, closed, values=scoring.value_table(rules.card_values, CARD_VALUE_TABLES),
        bonus=lambda m: meld_bonus(m, rules, kozi_suit, kozi_rank),
        closing_bonus=rules.closing_bonus, untaken_penalty=rules.untaken_biribaki_penalty,
        unplayed_flat=rules.unplayed_biribaki_penalty == "flat_100", unplayed=unplayed)
