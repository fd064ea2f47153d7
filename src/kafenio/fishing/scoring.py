"""Scoring a fishing deal: card points, the majority bonus and the special captures.

Implements ``basra.md`` §6 (and the same shape for Pişti A6, Xeri B6, Diloti C6): per side,
``majority + card points + Σ special-capture points``. The engine and the referee both call
:func:`score_deal`, so a sheet from a played deal and one from the referee are the same thing.

>>> from kafenio.cards import parse_cards
>>> table = card_points_table({"A": 1, "J": 1, "2C": 2, "10D": 3})
>>> sheet, carry = score_deal([parse_cards("AH 10D 5S"), parse_cards("2C")], [[10], []], table,
...                           majority_points=30, tie_rule="carry_over")
>>> [s["total"] for s in sheet], carry
([44, 2], 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kafenio.cards import RANK, RANKS, format_card, parse_card
from kafenio.engine.errors import CardError, RulesError
from kafenio.i18n import _

TIE_RULES = ("carry_over", "both_score", "nobody")


def card_points_table(table: Mapping[str, int], option: str = "card_points") -> tuple[int, ...]:
    """Points per card type from a ``card_points`` table.

    Keys are a rank (``"A"``, ``"10"``: every card of that rank) or a card (``"10D"``); the
    entries add up, so ``{"10": 1, "10D": 1}`` makes the ``10D`` worth 2 (Xeri's "good 10").

    Raises:
        RulesError: naming ``option``, for a key that is neither a rank nor a card, or a value
            that is not a non-negative integer.
    """
    points = [0] * 52
    for key, value in table.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RulesError(option, _("points of {key} must be a whole number ≥ 0").format(key=key))
        name = str(key).strip().upper()
        if name in RANKS:
            rank = RANKS.index(name) + 1
            for c in range(52):
                if RANK[c] == rank:
                    points[c] += value
            continue
        try:
            c = parse_card(name)
        except CardError:
            raise RulesError(option, _("{key!r} is neither a rank nor a card").format(key=key)) from None
        if c >= 52:
            raise RulesError(option, _("{key!r} is neither a rank nor a card").format(key=key))
        points[c] += value
    return tuple(points)


def score_deal(captured: Sequence[Sequence[int]], specials: Sequence[Sequence[int]],
               card_points: Sequence[int], *, majority_points: int, tie_rule: str,
               carry: int = 0, special_name: str = "basras",
               counts: Sequence[int] | None = None,
               extras: Mapping[str, Sequence[int]] | None = None) -> tuple[list[dict[str, Any]], int]:
    """The itemised deal score of every side (``basra.md`` §6).

    Args:
        captured: per side, every card it ended the deal with.
        specials: per side, the points of each special capture (basra, pişti, xeri, the jack
            on a lone jack …) in the order made.
        card_points: points per card type (:func:`card_points_table`).
        majority_points: the bonus for strictly most cards.
        tie_rule: ``carry_over``, ``both_score`` or ``nobody`` (§6 "Tie for most cards").
        carry: majority points carried over from earlier tied deals (added to this majority).
        special_name: the sheet key of the special captures.
        counts: cards per side when ``captured`` lists only the cards that score (referee).
        extras: further score lines by name, the points of each side (Pişti's
            ``last_pile_bonus`` and ``bluff_penalties``); each adds to ``total``.

    Returns:
        ``(sheet, carry_out)``: one dict per side ``{"side", "cards", "majority",
        "card_points", "point_cards", special_name: {"count", "points"}, "total"}`` whose items
        add up to ``total``; ``carry_out`` is the majority award carried into the next deal.
    """
    counts = list(counts) if counts is not None else [len(cards) for cards in captured]
    most = max(counts) if counts else 0
    leaders = [i for i, n in enumerate(counts) if n == most]
    award = [0] * len(captured)
    carry_out = 0
    if len(leaders) == 1:
        award[leaders[0]] = majority_points + carry
    elif tie_rule == "carry_over":
        carry_out = carry + majority_points
    elif tie_rule == "both_score":
        for i in leaders:
            award[i] = majority_points
    sheet = []
    for side, cards in enumerate(captured):
        point_cards = sorted((c for c in cards if card_points[c]), key=lambda c: (RANK[c], c))
        cpoints = sum(card_points[c] for c in point_cards)
        special = list(specials[side])
        more = {name: points[side] for name, points in (extras or {}).items()}
        sheet.append({
            "side": side,
            "cards": counts[side],
            "majority": award[side],
            "card_points": cpoints,
            "point_cards": [format_card(c) for c in point_cards],
            special_name: {"count": len(special), "points": sum(special), "each": special},
            **more,
            "total": award[side] + cpoints + sum(special) + sum(more.values()),
        })
    return sheet, carry_out
