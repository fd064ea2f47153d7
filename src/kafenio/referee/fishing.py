"""Referee for the fishing family: settle a capture or score a deal from the spec's notation.

The CLI (``kafenio rules capture basra --floor "5C 4D 2H 7S" --play 9S``) calls these. They run
the engine's own code — :meth:`FishingState.outcomes` and :func:`score_deal` — on a constructed
position, so the referee and the engine cannot disagree.

>>> from kafenio import load_game
>>> rules = load_game("basra").rules
>>> capture(rules, "5C 4D 2H 7S", "9S")                                         # BAS-01
{'captured': ['5C', '4D', '2H', '7S'], 'basra': True, 'points': 10, 'floor_after': []}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafenio.cards import RANK, format_card, parse_card, parse_cards
from kafenio.engine.errors import KafenioError
from kafenio.engine.rules import Rules
from kafenio.fishing.captures import JACK
from kafenio.fishing.scoring import score_deal
from kafenio.fishing.state import FishingGame
from kafenio.i18n import _


def _game(rules: Rules) -> FishingGame:
    import kafenio

    game = kafenio.game_class(rules.game)(rules)
    if not isinstance(game, FishingGame):
        raise KafenioError(_("{game} is not a fishing game").format(game=rules.game))
    return game


def capture(rules: Rules, floor: str, play: str, *, last_card: bool = False,
            lone_trail: bool = False) -> dict[str, Any]:
    """What ``play`` does on ``floor`` (``basra.md`` §3–§4).

    Args:
        rules: the rule set (its ``game`` names a fishing game).
        floor: the floor cards, e.g. ``"5C 4D 2H 7S"`` (braces allowed).
        play: the card played, e.g. ``"9S"``.
        last_card: the play is the deal's very last card (``basra_on_final_play_counts``).
        lone_trail: the floor's second card was trailed onto it when it lay alone
            (``basra_definition = lone_card_or_pair_sum``).

    Returns:
        ``{"captured": [floor cards taken], "basra": bool, "points": int, "floor_after": [...]}``;
        when the player chooses, also ``"choices": [[cards], …]`` (every option, most cards
        first; the other keys describe the first); a card that takes nothing gives
        ``"captured": []``, the card added to ``floor_after`` and a ``"note"``.

    Raises:
        CardError: a bad card; KafenioError: a card given twice or not in this game's deck.
    """
    game = _game(rules)
    cards = parse_cards(floor.replace("{", " ").replace("}", " "))
    card = parse_card(play)
    deck = set(game.full_deck())
    if len(set(cards) | {card}) != len(cards) + 1 or not set(cards) | {card} <= deck:
        raise KafenioError(_("every card must be in the {game} deck and appear once").format(game=game.name))
    trail = cards[0] if lone_trail and len(cards) == 2 else None
    state = game.position(cards, [[card]] + [[] for _s in range(game.num_players - 1)], to_play=0,
                          lone_trail=trail)
    state.cards_left = 1 if last_card else 2
    outcomes = state.outcomes(card)
    if not outcomes:
        return {"captured": [], "basra": False, "points": 0,
                "floor_after": [format_card(c) for c in [*cards, card]],
                "note": _("{card} captures nothing and stays on the floor").format(card=play.upper())}
    def written(option: tuple[int, ...]) -> list[str]:
        taken = {state.floor[i] for i in option}
        return [format_card(c) for c in cards if c in taken]

    option, points = outcomes[0]
    taken = {state.floor[i] for i in option}
    out: dict[str, Any] = {"captured": written(option), "basra": points > 0, "points": points,
                           "floor_after": [format_card(c) for c in cards if c not in taken]}
    if len(outcomes) > 1:
        out["choices"] = [written(o) for o, _p in outcomes]
        out["choice_points"] = [p for _o, p in outcomes]
        out["note"] = _("the player chooses one of the captures; the first is shown")
    elif RANK[card] == JACK or (len(taken) == len(cards) and card in game.capture_spec.sweepers):
        out["note"] = _("{card} sweeps the whole floor").format(card=format_card(card))
    return out


def score(rules: Rules, data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a deal from the capture piles (``basra.md`` §6).

    Args:
        data: ``{"sides": [side, …], "majority_carry": int (optional)}``, one ``side`` per
            scoring side, each either ``{"captured": "AH 5C …"}`` (every card, the last
            capturer's final floor included) or ``{"cards": 29, "point_cards": "AH 10D"}``
            (a count plus the cards that carry points), and ``"basras"``: a list of the points
            of each special capture (``[10, 20]``) or a count (each worth ``basra_points``).

    Returns:
        ``{"sides": [itemised sheet per side], "majority_carried_out": int}``; each sheet has
        ``cards``, ``majority``, ``card_points``, ``point_cards``, ``basras`` and ``total``.

    Raises:
        KafenioError: a malformed side, a card captured twice or too many cards; CardError.
    """
    game = _game(rules)
    sides = data.get("sides")
    if not isinstance(sides, list) or len(sides) != game.num_sides:
        raise KafenioError(_("give {n} sides").format(n=game.num_sides))
    piles, counts, specials, seen = [], [], [], set()
    for side in sides:
        if "captured" in side:
            pile = parse_cards(side["captured"])
            count = len(pile)
        elif "cards" in side:
            pile = parse_cards(side.get("point_cards", ""))
            count = side["cards"]
            if not isinstance(count, int) or count < len(pile):
                raise KafenioError(_("cards must be a count at least as large as the point cards"))
        else:
            raise KafenioError(_("each side needs captured, or cards and point_cards"))
        if seen & set(pile) or len(set(pile)) != len(pile):
            raise KafenioError(_("a card is captured twice"))
        seen |= set(pile)
        basras = side.get("basras", [])
        if isinstance(basras, int) and not isinstance(basras, bool):
            basras = [rules.get("basra_points", 10)] * basras
        if not isinstance(basras, list) or not all(isinstance(b, int) for b in basras):
            raise KafenioError(_("basras is a list of points or a count"))
        piles.append(pile)
        counts.append(count)
        specials.append(basras)
    if sum(counts) > len(game.full_deck()):
        raise KafenioError(_("more cards captured than the deck holds"))
    sheet, carry = score_deal(piles, specials, game.card_points, majority_points=game.majority_points,
                              tie_rule=game.tie_rule, carry=int(data.get("majority_carry", 0)),
                              special_name=game.special_name, counts=counts)
    return {"sides": sheet, "majority_carried_out": carry}


def describe(verb: str, result: Mapping[str, Any]) -> str:
    """Human-readable lines for a :func:`capture` or :func:`score` result."""
    if verb == "capture":
        lines = []
        if result["captured"]:
            lines.append(_("captures {cards}").format(cards=" ".join(result["captured"])))
        if result.get("note"):
            lines.append(result["note"])
        if result["basra"]:
            lines.append(_("basra: {points} points").format(points=result["points"]))
        for k, choice in enumerate(result.get("choices", [])):
            lines.append(_("choice {k}: {cards} ({points} points)").format(
                k=k, cards=" ".join(choice), points=result["choice_points"][k]))
        lines.append(_("floor after: {{{cards}}}").format(cards=" ".join(result["floor_after"])))
        return "\n".join(lines)
    lines = []
    for side in result["sides"]:
        special = next(v for v in side.values() if isinstance(v, dict))
        lines.append(_("side {side}: {cards} cards; majority {m} + card points {c} ({pc}) + "
                       "basras {b} ({n}) = {total}").format(
            side=side["side"], cards=side["cards"], m=side["majority"], c=side["card_points"],
            pc=" ".join(side["point_cards"]) or "-", b=special["points"], n=special["count"],
            total=side["total"]))
    if result.get("majority_carried_out"):
        lines.append(_("majority carried to the next deal: {n}").format(n=result["majority_carried_out"]))
    return "\n".join(lines)
