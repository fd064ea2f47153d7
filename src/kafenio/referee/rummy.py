"""Rules referee for the rummy family (Biriba and Buraco): the engine's own code.

``meld``/``layoff`` return ``{"valid": true, "kind", "clean", "cards", "bonus"}`` (cards in run
order, a wild written ``card=stand-in``; bonus = the biriba bonus under the rules and kozi, or
the canastra bonus) or ``{"valid": false, "rule": "buraco.md §4.x: reason"}``. ``score``
returns the itemised sheet per side of :func:`kafenio.games.biriba.scoring.side_sheet` or
:func:`kafenio.games.buraco.scoring.side_sheet`. Bad card text raises
:class:`~kafenio.engine.errors.CardError`.
"""

from __future__ import annotations

from typing import Any

from kafenio.cards import RANKS, SUITS, format_card, parse_card, parse_meld_cards
from kafenio.engine.errors import KafenioError
from kafenio.engine.rules import Rules
from kafenio.games.biriba import scoring as biriba_scoring
from kafenio.games.buraco import scoring as buraco_scoring
from kafenio.i18n import _, n_, number
from kafenio.rummy.melds import (
    Meld,
    MeldRules,
    layoff_options,
    placement_problem,
    second_wild,
    validate,
)


def _kozi(rules: Rules, kozi: str | None) -> int | None:
    if kozi is None or rules.get("kozi_mode") == "none":
        return None
    if not isinstance(kozi, str) or kozi.upper() not in SUITS:
        raise KafenioError(_("kozi must be one of S, H, D, C, got {k!r}").format(k=kozi))
    return SUITS.index(kozi.upper())


def _bonus(meld: Meld, rules: Rules, kozi: int | None, kozi_rank: int | None) -> int:
    if rules.game == "buraco":
        return buraco_scoring.canastra_bonus(meld, rules)[0]
    return biriba_scoring.meld_bonus(meld, rules, kozi, kozi_rank)[0]


def _result(meld: Meld, rules: Rules, kozi: str | None) -> dict[str, Any]:
    bonus = _bonus(meld, rules, _kozi(rules, kozi), None)
    return {"valid": True, "kind": meld.kind, "clean": meld.clean, "cards": meld.notation(),
            "bonus": bonus}


def _parse_meld(rules: Rules, cards: str) -> tuple[Meld | None, str]:
    return validate(parse_meld_cards(cards), MeldRules.from_rules(rules, rules.game))


def meld(rules: Rules, cards: str, kozi: str | None = None) -> dict[str, Any]:
    """Validate and classify a new meld (biriba.md / buraco.md §4), e.g. ``"4H 5H 2C=6H 7H"``;
    a written wild position must respect ``end_wild_placement`` (buraco.md §4.4)."""
    result, why = _parse_meld(rules, cards)
    if result is not None:
        why = placement_problem(result, MeldRules.from_rules(rules, rules.game))
    if result is None or why:
        return {"valid": False, "rule": why}
    return _result(result, rules, kozi)


def layoff(rules: Rules, meld: str, cards: str, wild_end: str | None = None,
           kozi: str | None = None) -> dict[str, Any]:
    """Lay ``cards`` off on the table meld ``meld`` (biriba.md / buraco.md §4.5).

    Cards are laid off one by one, each as soon as it fits; when a moved or added wild (or an
    ace) may go to either end, ``wild_end`` (``"low"``, the default, or ``"high"``) decides.
    """
    if wild_end not in (None, "low", "high"):
        raise KafenioError(_("wild_end: low or high, got {w!r}").format(w=wild_end))
    mr = MeldRules.from_rules(rules, rules.game)
    table, why = validate(parse_meld_cards(meld), mr)
    if table is None:
        return {"valid": False, "rule": why}
    pending = [parse_card(t) for t in cards.split()]
    while pending:
        for i, c in enumerate(pending):
            options = layoff_options(table, c, mr)
            if options:
                table = options[-1] if wild_end == "high" else options[0]
                del pending[i]
                break
        else:
            if any(second_wild(table, c, mr) for c in pending):
                return {"valid": False, "rule": f"{mr.section}.1: " + _(
                    "a meld holds at most one wild: this one already has its wild")}
            return {"valid": False, "rule": f"{mr.section}.5: " + _(
                "{cards} cannot be laid off on this meld").format(cards=" ".join(
                    t for t in cards.split()))}
    return _result(table, rules, kozi)


SIDE_KEYS = ("melds", "hands", "pot", "unplayed_cards", "closed", "seats", "cut")
"""What a side of a rummy score sheet may hold (:func:`score`)."""


def _texts(value: object, field: str) -> list[str]:
    """A list of card texts given for ``field``."""
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise KafenioError(_("{field}: expected a list of texts, like [\"5H 6H 7H\"]").format(field=field))
    return value


def _whole(value: object, field: str) -> int:
    """A whole number, 0 or more, given for ``field``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise KafenioError(_("{field}: a whole number, 0 or more").format(field=field))
    return value


def _cards_once_per_copy(rules: Rules, cards: list[int]) -> None:
    """No card appears more often than the game's packs hold it (biriba.md §1, buraco.md §1).

    Raises:
        KafenioError: naming the card.
    """
    import kafenio

    deck = kafenio.game_class(rules.game)(rules).full_deck()
    for c in set(cards):
        if cards.count(c) > deck.count(c):
            raise KafenioError(_("{card} appears {n} times, but the {game} deck holds {m}").format(
                card=format_card(c), n=cards.count(c), game=rules.game, m=deck.count(c)))


def score(rules: Rules, data: dict[str, Any]) -> dict[str, Any]:
    """Score a finished deal given as ``{"kozi": "S", "kozi_rank": "Q" (optional, Biriba),
    "sides": [{"melds": ["5H 6H …", …], "hands": ["8D 3C", …], "pot": "taken"|"untaken"|"unplayed",
    "unplayed_cards": "…" (optional), "closed": bool (closed / went out), "cut": points (Buraco's
    exact-cut bonus, optional), "seats": [0, 2] (optional, shown)}]}`` (biriba.md §8, buraco.md
    §8). Buraco: when two sides or more are given and none took its pot, the untaken-pot penalty
    follows ``untaken_pot_penalty_if_none_taken`` (buraco.md §8).

    Raises:
        KafenioError: a bad meld (naming it and the rule), a card given more often than the
            packs hold it, or a malformed input (naming the field).
    """
    mr = MeldRules.from_rules(rules, rules.game)
    kozi = _kozi(rules, data.get("kozi"))
    rank_text = data.get("kozi_rank")
    if rank_text is not None and (not isinstance(rank_text, str) or rank_text.upper() not in RANKS):
        raise KafenioError(_("kozi_rank: a rank, A, 2 … 10, J, Q or K, got {r!r}").format(r=rank_text))
    kozi_rank = parse_card(rank_text + "S") % 13 + 1 if rank_text else None
    sides = data.get("sides", [])
    if not isinstance(sides, list) or not all(isinstance(side, dict) for side in sides):
        raise KafenioError(_("sides: a list with one object per side"))
    out = []
    none_taken = len(sides) >= 2 and all(side.get("pot") == "untaken" for side in sides)
    every: list[int] = []
    for i, side in enumerate(sides):
        field = f"sides[{i}]"
        keys = SIDE_KEYS if rules.game == "buraco" else SIDE_KEYS[:-1]    # the exact cut: Buraco's (§2)
        for key in side:
            if key not in keys:
                raise KafenioError(_("{field}: {key!r} is not part of a score sheet; a side has {keys}").format(
                    field=field, key=key, keys=", ".join(keys)))
        melds = []
        for text in _texts(side.get("melds", []), f"{field}.melds"):
            m, why = validate(parse_meld_cards(text), mr)
            if m is None:
                raise KafenioError(_("side {i}: meld {m!r} is not legal: {why}").format(
                    i=i, m=text, why=why))
            melds.append(m)
        hands = [[parse_card(t) for t in h.split()] for h in _texts(side.get("hands", []), f"{field}.hands")]
        unplayed = [parse_card(t) for t in _texts([side.get("unplayed_cards", "")], f"{field}.unplayed_cards")[0]
                    .split()]
        pot = side.get("pot", "taken")
        if pot not in ("taken", "untaken", "unplayed"):
            raise KafenioError(_("pot must be taken, untaken or unplayed"))
        seats = side.get("seats", [])
        if not isinstance(seats, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in seats):
            raise KafenioError(_("{field}.seats: a list of seat numbers").format(field=field))
        closed = side.get("closed", False)
        if not isinstance(closed, bool):
            raise KafenioError(_("{field}.closed: true or false").format(field=field))
        every += [c for m in melds for c in m.cards] + [c for h in hands for c in h] + unplayed
        if rules.game == "buraco":
            out.append(buraco_scoring.side_sheet(rules, i, seats, melds, hands, pot, closed, unplayed,
                                                 _whole(side.get("cut", 0), f"{field}.cut"), none_taken))
        else:
            out.append(biriba_scoring.side_sheet(rules, i, seats, melds, hands, pot, closed, unplayed,
                                                 kozi, kozi_rank))
    _cards_once_per_copy(rules, every)
    return {"sides": out}


def describe(verb: str, result: dict[str, Any]) -> str:
    """One or a few human lines for a ``meld``/``layoff``/``score`` result."""
    if verb in ("meld", "layoff"):
        if not result["valid"]:
            return _("invalid — {rule}").format(rule=result["rule"])
        state = _("clean") if result["clean"] else _("dirty")
        size = len(result["cards"])
        line = n_("valid {state} {kind} of {n} card: {cards}", "valid {state} {kind} of {n} cards: {cards}",
                  size).format(state=state, kind=_(result["kind"]), n=number(size), cards=" ".join(result["cards"]))
        return line + (_(" — bonus {b}").format(b=number(result["bonus"])) if result["bonus"] else "")
    lines = []
    for side in result["sides"]:
        bonus = sum(b["bonus"] for b in side["bonuses"])
        lines.append(_("side {s}: melds {m} + bonuses {b} + closing {c} {h} hands, pot {p} = {t}")
                     .format(s=side["side"], m=number(side["melds"]), b=number(bonus), c=number(side["closing"]),
                             h=number(side["hands"], sign=True), p=side["pot"], t=number(side["total"])))
    return "\n".join(lines)
