"""Scoring building blocks shared by Biriba and Buraco (biriba.md §8–§9, buraco.md §8–§9).

A side's sheet is ``{"side", "seats", "melds", "bonuses": [{"meld", "bonus", "why"}],
"closing", "hands", "pot", "pot_points", "total"}`` (Buraco adds ``"cut"``) where ``total`` is
the sum of ``melds``, every ``bonus``, ``closing``, ``hands``, ``pot_points`` (and ``cut``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kafenio.cards import RANK
from kafenio.engine.errors import RulesError
from kafenio.i18n import _, number
from kafenio.rummy.melds import Meld

VALUE_KEYS = ("joker", "ace", "two", "low", "eight", "nine", "high")
"""The keys of a card value table: the joker, ace, two, 3–7, eight, nine and 10–K."""


def value_table(table: str | Mapping[str, int], named: Mapping[str, Mapping[str, int]],
                option: str = "card_values") -> tuple[int, ...]:
    """Points of each card type (length 53) from a card value table (biriba.md §1, buraco.md §1).

    Args:
        table: the name of one of ``named``, or a table given inline with exactly the keys of
            :data:`VALUE_KEYS`, each a whole number of points ≥ 0.
        named: the game's named tables.
        option: the rule option that holds ``table``, for the error.

    Raises:
        RulesError: naming ``option``: an unknown name, a missing or unknown key, or a value
            that is not a whole number ≥ 0.
    """
    if isinstance(table, str):
        if table not in named:
            raise RulesError(option, _("{v!r} is not one of {c}").format(v=table, c=", ".join(named)))
        table = named[table]
    missing = [k for k in VALUE_KEYS if k not in table]
    unknown = [k for k in table if k not in VALUE_KEYS]
    if missing or unknown:
        raise RulesError(option, _("a card value table has exactly the keys {keys}; missing: {m}; "
                                   "unknown: {u}").format(keys=", ".join(VALUE_KEYS),
                                                          m=", ".join(missing) or "-",
                                                          u=", ".join(map(str, unknown)) or "-"))
    given: Mapping[str, object] = table    # any values: compiled code would trust ``int``
    for key, points in given.items():
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise RulesError(option, _("{key}: expected a whole number of points ≥ 0, got {v!r}").format(
                key=key, v=points))
    out = []
    for c in range(52):
        r = RANK[c]
        key = {1: "ace", 2: "two", 8: "eight", 9: "nine"}.get(r, "low" if r <= 7 else "high")
        out.append(table[key])
    out.append(table["joker"])
    return tuple(out)


def unplayed_points(values: Sequence[int], unplayed: Sequence[int], flat: bool) -> int:
    """What an unplayed pot costs its side (≤ 0): a flat 100, or its cards' values
    (biriba.md §8.3 ``unplayed_biribaki_penalty``, buraco.md §8 ``unplayed_pot_penalty``)."""
    return -100 if flat else -sum(values[c] for c in unplayed)


def side_sheet(side: int, seats: Sequence[int], melds: Sequence[Meld],
               hands: Sequence[Sequence[int]], pot: str, closed: bool, *,
               values: Sequence[int], bonus: Callable[[Meld], tuple[int, str]],
               closing_bonus: int, untaken_penalty: int, unplayed_flat: bool,
               unplayed: Sequence[int] = (), melds_negative: bool = False) -> dict[str, Any]:
    """One side's itemised deal score.

    Args:
        hands: the cards (card types) left in each of the side's hands, an unplayed pot's
            cards **not** included.
        pot: ``"taken"``, ``"untaken"`` or ``"unplayed"``.
        closed: a player of this side went out (closed).
        bonus: a meld's bonus and why.
        unplayed_flat: an unplayed pot costs a flat 100 (else its card values).
        unplayed: the cards of an unplayed pot.
        melds_negative: melded cards and bonuses count against the side
            (buraco.md ``no_clean_canastra_melds_negative``).

    Returns:
        The sheet (module docstring); its ``"pot"`` is the pot's fate in words, in the current
        language, with its points unless taken (``"untaken -100"``), and ``"pot_points"`` the
        number.
    """
    sign = -1 if melds_negative else 1
    meld_points = sign * sum(values[c] for m in melds for c in m.cards)
    bonuses: list[dict[str, Any]] = []
    for m in melds:
        points, why = bonus(m)
        if points:
            bonuses.append({"meld": " ".join(m.notation()), "bonus": sign * points, "why": why})
    hand_points = -sum(values[c] for h in hands for c in h)
    if pot == "untaken":
        pot_points = -untaken_penalty
        pot_text = _("untaken {points}").format(points=number(pot_points))
    elif pot == "unplayed":
        pot_points = unplayed_points(values, unplayed, unplayed_flat)
        pot_text = _("unplayed {points}").format(points=number(pot_points))
    else:
        pot_points, pot_text = 0, _("taken")
    closing = closing_bonus if closed else 0
    total = meld_points + sum(b["bonus"] for b in bonuses) + closing + hand_points + pot_points
    return {"side": side, "seats": list(seats), "melds": meld_points, "bonuses": bonuses,
            "closing": closing, "hands": hand_points, "pot": pot_text, "pot_points": pot_points,
            "total": total}


def side_total(meld_points: int, bonus_points: int, hand_points: int, pot: str, closed: bool, *,
               values: Sequence[int], closing_bonus: int, untaken_penalty: int,
               unplayed_flat: bool, unplayed: Sequence[int] = (),
               melds_negative: bool = False) -> int:
    """The ``total`` of :func:`side_sheet` from the side's summed meld card points and bonuses
    and its (negative) hand points, without the itemised sheet."""
    sign = -1 if melds_negative else 1
    if pot == "untaken":
        pot_points = -untaken_penalty
    elif pot == "unplayed":
        pot_points = unplayed_points(values, unplayed, unplayed_flat)
    else:
        pot_points = 0
    closing = closing_bonus if closed else 0
    return sign * meld_points + sign * bonus_points + closing + hand_points + pot_points


def target_winner(rules: Any, totals: Sequence[float]) -> int | None:
    """The match winner once a total reaches the target (``target_score`` with
    ``target_comparison`` ``greater`` or ``greater_or_equal``): the strictly highest total;
    ``None`` (play on) before that or while the highest total is shared."""
    target = rules.target_score
    over = [t > target if rules.target_comparison == "greater" else t >= target for t in totals]
    if not any(over):
        return None
    best = max(totals)
    return list(totals).index(best) if list(totals).count(best) == 1 else None
