"""Referee for the fishing family: settle a capture, a Diloti declaration or a deal's score.

The CLI (``kafenio rules capture basra --floor "5C 4D 2H 7S" --play 9S``) calls these. They run
the engine's own code — :meth:`FishingState.outcomes` and :func:`score_deal` — on a constructed
position, so the referee and the engine cannot disagree.

>>> from kafenio import load_game
>>> rules = load_game("basra").rules
>>> capture(rules, "5C 4D 2H 7S", "9S")                                         # BAS-01
{'captured': ['5C', '4D', '2H', '7S'], 'basra': True, 'points': 10, 'floor_after': []}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kafenio.cards import RANK, format_card, parse_card, parse_cards
from kafenio.engine.errors import CardError, KafenioError
from kafenio.engine.rules import Rules
from kafenio.fishing.captures import JACK, VALUE
from kafenio.fishing.declarations import DeclarationGame, DeclarationState
from kafenio.fishing.diloti_moves import parse_table
from kafenio.fishing.scoring import score_deal
from kafenio.fishing.state import CHOOSE, FishingGame
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
    if isinstance(game, DeclarationGame):
        return _diloti_capture(game, floor, play, last_card)
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


def _table(game: DeclarationGame, floor: str, hands: list[list[int]], seat: int, *, last_card: bool = False,
           first_card: bool = False) -> DeclarationState:
    loose, decls = parse_table(floor)
    every = loose + [c for d in decls for c in d.cards] + [c for h in hands for c in h]
    if len(set(every)) != len(every):
        raise KafenioError(_("every card must appear once"))
    state = game.position(loose, hands, to_play=seat, declarations=decls, first_card=first_card)
    state.cards_left = 1 if last_card else 2
    return state


def _diloti_capture(game: DeclarationGame, floor: str, play: str, last_card: bool) -> dict[str, Any]:
    """C3.2–C3.3 and C4 for :func:`capture`: the captures ``play`` may make on a Diloti table
    (declarations written ``P8@1(5C 3D)``); ``basra`` is the xeri."""
    card = parse_card(play)
    state = _table(game, floor, [[card]] + [[] for _s in range(game.num_players - 1)], 0, last_card=last_card)
    captures = [m for m in state.moves(card) if m.kind == "capture"]
    items = [[format_card(state.floor[i]) for i in m.loose] + [state.decls[d].text() for d in m.decls]
             for m in captures]
    table = [format_card(c) for c in state.floor] + [d.text() for d in state.decls]
    if not captures:
        return {"captured": [], "basra": False, "points": 0, "floor_after": [*table, format_card(card)],
                "note": _("{card} captures nothing: it may be laid or declared").format(card=format_card(card))}
    points = []
    for move in captures:
        after = state.clone()
        after.apply_action(card)
        if after.pending is not None:
            after.apply_action(CHOOSE + after.pending[1].index(move))
        points.append(sum(after.specials[0]))
    out: dict[str, Any] = {"captured": items[0], "basra": points[0] > 0, "points": points[0],
                           "floor_after": [t for t in table if t not in items[0]]}
    if len(captures) > 1 or any(m.kind != "capture" for m in state.moves(card)):
        out["choices"] = items
        out["choice_points"] = points
        out["note"] = _("the player chooses; capturing is optional unless capture_rule = forced_maximal")
    return out


def declare(rules: Rules, floor: str, hand: str, declaration: str) -> dict[str, Any]:
    """Is a Diloti declaration allowed (``fishing-relatives.md`` C3.4–C3.9)?

    Args:
        floor: the table, e.g. ``"{9S P8@1(5C 3D)}"``.
        hand: the mover's hand, the played card included.
        declaration: ``[seat K:] [X:] declare P8 (3D 5C)`` / ``raise P4@1 to 9`` /
            ``group G9 (9S | 5C 3D AH)``; ``X`` is the played card (else: the hand card named in
            the declaration, or for a raise a hand card of the raising value); the seat
            defaults to 0 (it matters for owners and partners).

    Returns:
        ``{"valid": true, "move": "...", "owner": seat, "table_after": [...]}`` or
        ``{"valid": false, "rule": "fishing-relatives.md §C…: why"}``.

    Raises:
        CardError: a bad card; KafenioError: a malformed table or declaration.
    """
    game = _game(rules)
    if not isinstance(game, DeclarationGame):
        raise KafenioError(_("{game} has no declarations").format(game=game.name))
    text = declaration.strip()
    seat = 0
    match = re.match(r"(?i)\s*seat\s+(\d+)\s*(?:plays)?\s*:?\s*", text)
    if match:
        seat, text = int(match.group(1)), text[match.end():]
    played = None
    match = re.match(r"\s*(\w{2,3})\s*:\s*", text)
    if match:
        played, text = parse_card(match.group(1)), text[match.end():]
    words = text.replace("(", " ").replace(")", " ").replace("|", " ").split()
    if not words or words[0].lower() not in ("declare", "raise", "group"):
        raise KafenioError(_("write declare P8 (3D 5C), raise P4@1 to 9 or group G5 (5C | 5D)"))
    verb = words[0].lower()
    held = parse_cards(hand)
    hands = [[] for _s in range(game.num_players)]
    hands[seat] = held
    state = _table(game, floor, hands, seat)
    named = [c for w in words[1:] if _is_card(w) for c in parse_cards(w)]
    candidates = [played] if played is not None else [c for c in held if c in named] or held
    wanted = None
    for card in candidates:
        if card not in held:
            return _refusal(game, "play", _("{card} is not in the hand").format(card=format_card(card)))
        for move in state.moves(card, seat):
            if move.kind == ("declare" if verb == "declare" else verb) and _same(state, move, card, words):
                wanted = (card, move)
                break
        if wanted:
            break
    if wanted is None:
        return _why_not(game, state, seat, candidates, verb, words)
    card, move = wanted
    after = state.clone()
    after.apply_action(card)
    if after.pending is not None:
        after.apply_action(CHOOSE + after.pending[1].index(move))
    return {"valid": True, "move": f"{format_card(card)}: {state.move_text(move)}", "owner": seat,
            "table_after": [format_card(c) for c in after.floor] + [d.text() for d in after.decls]}


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except CardError:
        return False
    return True


def _same(state: DeclarationState, move: Any, card: int, words: list[str]) -> bool:
    """Does ``move`` of ``card`` match the written declaration (its value, cards and labels)?"""
    head = words[1].upper() if len(words) > 1 else ""
    value = int(words[-1]) if words[0].lower() == "raise" and words[-1].isdigit() else (
        int(head[1:]) if head[1:].isdigit() else None)
    if value != move.value:
        return False
    written = {w.upper() for w in words[1:] if _is_card(w)} - {format_card(card)}
    table = {format_card(state.floor[i]) for i in move.loose}
    for d in move.decls:
        table |= {format_card(c) for c in state.decls[d].cards}
    labels = {w.upper() for w in words[1:] if "@" in w}
    if words[0].lower() == "raise":
        return labels == {state.decls[d].label() for d in move.decls} and written <= table
    mine = {state.decls[d].label() for d in move.decls}
    return written | {c for lab in labels for d in state.decls if d.label() == lab
                      for c in map(format_card, d.cards)} == table and labels <= mine


def _refusal(game: FishingGame, key: str, why: str) -> dict[str, Any]:
    return {"valid": False, "rule": f"{game.rule(key)}: {why}"}


def _why_not(game: DeclarationGame, state: DeclarationState, seat: int, candidates: list[int], verb: str,
             words: list[str]) -> dict[str, Any]:
    """The first rule a refused declaration breaks (C3.2–C3.9)."""
    card = candidates[0]
    if not VALUE[card]:
        return _refusal(game, "plain", _("face cards are never part of a declaration"))
    own = state.owned(seat)
    labels = [w.upper() for w in words[1:] if "@" in w]
    named = {c for w in words[1:] if _is_card(w) for c in parse_cards(w)}
    targets = [d for d in state.decls if d.label() in labels or set(d.cards) <= named]
    rest = list(state.hands[seat])
    rest.remove(card)
    head = words[1].upper() if len(words) > 1 else ""
    value = int(words[-1]) if verb == "raise" and words[-1].isdigit() else (
        int(head[1:]) if head[1:].isdigit() else 0)
    if value > 10:
        return _refusal(game, "plain", _("a declaration is worth at most 10"))
    if game.capture_rule == "forced_maximal" and any(m.kind == "capture" for m in state.moves(card, seat)):
        return _refusal(game, "capture", _("with capture_rule = forced_maximal a card that can capture must"))
    if verb == "raise" and targets:
        decl = targets[0]
        if decl.kind == "G":
            return _refusal(game, "raise", _("a group can never be raised"))
        if decl.owner == seat and not game.self_raise:
            return _refusal(game, "raise", _("a player may not raise their own declaration (self_raise = false)"))
        if decl.owner != seat and game.side_of(decl.owner) == game.side_of(seat):
            return _refusal(game, "raise", _("the declarer's partner may not raise it"))
    if own is not None and not (verb == "group" and state.decls[own].label() in labels):
        return _refusal(game, "owner", _("the owner of {d} may make no further declaration").format(
            d=state.decls[own].label()))
    if verb == "group" and any(d.soy for d in targets) and game.soy_locked:
        return _refusal(game, "variant", _("nothing may be added to a soy (soy_locked)"))
    if value and value not in {VALUE[c] for c in rest}:
        return _refusal(game, "plain", _("the declarer must still hold a card of value {v}").format(v=value))
    if verb == "group":
        return _refusal(game, "group", _("the cards do not form components worth {v} each (or fewer than two)")
                        .format(v=value))
    return _refusal(game, "plain" if verb == "declare" else "raise", _(
        "the cards do not add up to the declared value, or a declaration is used as an addend"))


def _special_points(rules: Rules) -> int:
    """The value of one special capture given as a count (basra, pişti, xeri)."""
    for name in ("basra_points", "pisti_points", "xeri_points"):
        if name in rules:
            return rules[name]
    return 10


def score(rules: Rules, data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a deal from the capture piles (``basra.md`` §6).

    Args:
        data: ``{"sides": [side, …], "majority_carry": int (optional)}``, one ``side`` per
            scoring side, each either ``{"captured": "AH 5C …"}`` (every card, the last
            capturer's final floor included) or ``{"cards": 29, "point_cards": "AH 10D"}``
            (a count plus the cards that carry points), and ``"basras"`` (or the game's own
            word, ``"pistis"``, ``"xeris"``): a list of the points of each special capture
            (``[10, 20]``) or a count (each worth ``basra_points``, ``pisti_points``,
            ``xeri_points``); Pişti with ``last_pile_bonus``: ``"took_last_pile": true``.

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
        basras = side.get(game.special_name, side.get("basras", []))
        if isinstance(basras, int) and not isinstance(basras, bool):
            basras = [_special_points(rules)] * basras
        if not isinstance(basras, list) or not all(isinstance(b, int) for b in basras):
            raise KafenioError(_("basras is a list of points or a count"))
        piles.append(pile)
        counts.append(count)
        specials.append(basras)
    if sum(counts) > len(game.full_deck()):
        raise KafenioError(_("more cards captured than the deck holds"))
    bonus = rules.get("last_pile_bonus", 0)
    extras = {"last_pile_bonus": [bonus if side.get("took_last_pile") else 0 for side in sides]} if bonus else None
    sheet, carry = score_deal(piles, specials, game.card_points, majority_points=game.majority_points,
                              tie_rule=game.tie_rule, carry=int(data.get("majority_carry", 0)),
                              special_name=game.special_name, counts=counts, extras=extras)
    return {"sides": sheet, "majority_carried_out": carry}


def describe(verb: str, result: Mapping[str, Any]) -> str:
    """Human-readable lines for a :func:`capture`, :func:`declare` or :func:`score` result."""
    if verb == "declare":
        if not result["valid"]:
            return _("not allowed: {rule}").format(rule=result["rule"])
        return _("allowed: {move}; owner seat {owner}; table after: {{{table}}}").format(
            move=result["move"], owner=result["owner"], table=" ".join(result["table_after"]))
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
