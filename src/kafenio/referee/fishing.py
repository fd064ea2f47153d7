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

from kafenio.cards import RANK, format_card, format_cards, parse_card, parse_cards
from kafenio.engine.errors import CardError, KafenioError
from kafenio.engine.rules import Rules
from kafenio.fishing.captures import JACK, VALUE
from kafenio.fishing.declarations import DeclarationGame, DeclarationState
from kafenio.fishing.diloti_moves import Decl, parse_table
from kafenio.fishing.pile import PileGame
from kafenio.fishing.scoring import score_deal
from kafenio.fishing.state import CHOOSE, FishingGame
from kafenio.i18n import _, n_, number
from kafenio.words import cards_count


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
        return _diloti_capture(game, _text(floor, "floor"), play, last_card)
    cards = _cards(floor.replace("{", " ").replace("}", " ") if isinstance(floor, str) else floor, "floor")
    card = _card(play, "play")
    _once(game, [*cards, card])
    trail = cards[0] if lone_trail and len(cards) == 2 else None
    state = game.position(cards, [[card]] + [[] for _s in range(game.num_players() - 1)], to_play=0,
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


def _text(value: object, field: str) -> str:
    """``value`` given for ``field`` must be text."""
    if not isinstance(value, str):
        raise KafenioError(_("{field}: expected text, like \"5C 4D\"").format(field=field))
    return value


def _cards(value: object, field: str) -> list[int]:
    """The cards written in ``value`` for ``field`` (CardError names a bad token)."""
    return parse_cards(_text(value, field))


def _card(value: object, field: str) -> int:
    """The one card written in ``value`` for ``field``."""
    cards = _cards(value, field)
    if len(cards) != 1:
        raise KafenioError(_("{field}: expected one card, got {n}").format(field=field, n=number(len(cards))))
    return cards[0]


def _once(game: FishingGame, cards: list[int]) -> None:
    """Every card is in ``game``'s deck and appears once (one pack).

    Raises:
        KafenioError: naming the card.
    """
    deck = set(game.full_deck())
    seen: set[int] = set()
    for c in cards:
        if c not in deck:
            raise KafenioError(_("{card} is not in the {game} deck").format(card=format_card(c), game=game.name))
        if c in seen:
            raise KafenioError(_("{card} appears twice; there is one pack").format(card=format_card(c)))
        seen.add(c)


def check_table(game: DeclarationGame, loose: list[int], decls: list[Decl],
                hands: list[list[int]] | None = None, full_hand: int | None = None) -> None:
    """``fishing-relatives.md`` C3.1: refuse a typed Diloti table that no play could reach.

    Args:
        loose: the loose table cards; decls: the declarations as written.
        hands: per seat the cards given with the table (the played card, a hand).
        full_hand: the seat whose whole hand is given (its declaration is checked against it).

    Raises:
        KafenioError: naming the declaration, card or seat and the rule: a card twice, a face
            card or a value outside 1–10 in a declaration, a sum that is not the value, a group
            of fewer than two components, an owner that is no seat or owns two declarations,
            an owner whose given hand holds no card of the value.
    """
    _once(game, loose + [c for d in decls for c in d.cards] + [c for h in hands or [] for c in h])
    n = game.num_players()
    owners: set[int] = set()
    for d in decls:
        label = d.text()
        if not 1 <= d.value <= 10:
            raise KafenioError(_("{d}: a declaration is worth 1 to 10 ({rule})").format(
                d=label, rule=game.rule("plain")))
        for c in d.cards:
            if not VALUE[c]:
                raise KafenioError(_("{d}: {card} is a face card; face cards are never part of a declaration ({rule})")
                                   .format(d=label, card=format_card(c), rule=game.rule("plain")))
        if d.kind == "G" and len(d.components) < 2:
            raise KafenioError(_("{d}: a group needs at least two components ({rule})").format(
                d=label, rule=game.rule("group")))
        for comp in d.components:
            total = sum(VALUE[c] for c in comp)
            if total != d.value:
                raise KafenioError(_("{d}: {cards} add up to {total}, not {v} ({rule})").format(
                    d=label, cards=format_cards(list(comp)), total=total, v=d.value,
                    rule=game.rule("plain" if d.kind == "P" else "group")))
        if not 0 <= d.owner < n:
            raise KafenioError(n_("{d}: there is no seat {seat} with {n} player",
                                  "{d}: there is no seat {seat} with {n} players", n).format(
                d=label, seat=d.owner, n=number(n)))
        if d.owner in owners:
            raise KafenioError(_("{d}: seat {seat} already owns a declaration; a player owns at most one ({rule})")
                               .format(d=label, seat=d.owner, rule=game.rule("owner")))
        owners.add(d.owner)
        if d.owner == full_hand and hands and d.value not in {VALUE[c] for c in hands[d.owner]}:
            raise KafenioError(_("{d}: seat {seat} owns it but holds no card of value {v} ({rule})").format(
                d=label, seat=d.owner, v=d.value, rule=game.rule("owner")))


def _table(game: DeclarationGame, floor: str, hands: list[list[int]], seat: int, *, last_card: bool = False,
           first_card: bool = False, full_hand: bool = False) -> DeclarationState:
    loose, decls = parse_table(floor)
    check_table(game, loose, decls, hands, seat if full_hand else None)
    state = game.position(loose, hands, to_play=seat, declarations=decls, first_card=first_card)
    state.cards_left = 1 if last_card else 2
    return state


def _diloti_capture(game: DeclarationGame, floor: str, play: str, last_card: bool) -> dict[str, Any]:
    """C3.2–C3.3 and C4 for :func:`capture`: the captures ``play`` may make on a Diloti table
    (declarations written ``P8@1(5C 3D)``); ``basra`` is the xeri."""
    card = _card(play, "play")
    state = _table(game, floor, [[card]] + [[] for _s in range(game.num_players() - 1)], 0, last_card=last_card)
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
    text = _text(declaration, "declaration").strip()
    seat = 0
    match = re.match(r"(?i)\s*seat\s+(\d+)\s*(?:plays)?\s*:?\s*", text)
    if match:
        seat, text = int(match.group(1)), text[match.end():]
        if not 0 <= seat < game.num_players():
            raise KafenioError(n_("declaration: there is no seat {seat} with {n} player",
                                  "declaration: there is no seat {seat} with {n} players", game.num_players()).format(
                seat=seat, n=number(game.num_players())))
    played = None
    match = re.match(r"\s*(\S{2,3})\s*:\s*", text)
    if match:
        played, text = _card(match.group(1), "declaration"), text[match.end():]
    words = _declaration_words(text)
    verb = words[0]
    held = _cards(hand, "hand")
    hands: list[list[int]] = [[] for _s in range(game.num_players())]
    hands[seat] = held
    state = _table(game, _text(floor, "floor"), hands, seat, full_hand=True)
    on_table = set(state.floor) | {c for d in state.decls for c in d.cards}
    listed: set[int] = set()
    for w in words[1:]:
        if _is_card(w):
            c = parse_card(w)
            if c in listed:
                raise KafenioError(_("declaration: {card} is listed twice").format(card=format_card(c)))
            if c not in on_table and c not in held:
                raise KafenioError(_("declaration: {card} is neither on the table nor in the hand").format(
                    card=format_card(c)))
            listed.add(c)
        elif "@" in w and w not in {d.label() for d in state.decls}:
            raise KafenioError(_("declaration: {label} is not on the table").format(label=w))
    candidates = [played] if played is not None else [c for c in held if c in listed] or held
    if not candidates:
        raise KafenioError(_("hand: give the declarer's hand, the played card included"))
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


_HEAD = re.compile(r"[PG]\d+")
_LABEL = re.compile(r"[PG]\d+@\d+")
_NUMBER = re.compile(r"\d+")


def _declaration_words(text: str) -> list[str]:
    """``declare P8 (3D 5C)``, ``group G9 (9S | 5C 3D AH)``, ``raise P4@1 to 9`` → the verb
    (lower case), the head (``P8``, ``G9``, the raised label) and the rest (cards, labels, ``to``
    and the value of a raise), upper case. C3.1: nothing may be left over.

    Raises:
        KafenioError: naming the word that does not belong (CardError for a bad card).
    """
    usage = _("write declare P8 (3D 5C), raise P4@1 to 9 or group G5 (5C | 5D)")
    verb, _sep, rest = text.strip().partition(" ")
    verb = verb.lower()
    if verb not in ("declare", "raise", "group"):
        raise KafenioError(usage)
    if verb == "raise":
        words = rest.split()
        if len(words) < 3 or not _LABEL.fullmatch(words[0].upper()) or words[1].lower() != "to" or (
                not _NUMBER.fullmatch(words[2])):
            raise KafenioError(usage)
        if len(words) > 3:
            raise KafenioError(_("declaration: {words!r} is left over").format(words=" ".join(words[3:])))
        return [verb, words[0].upper(), "to", words[2]]
    head, _sep, body = rest.strip().partition(" ")
    if not _HEAD.fullmatch(head.upper()) or head.upper()[0] != ("P" if verb == "declare" else "G"):
        raise KafenioError(usage)
    body = body.strip()
    if body.startswith("("):
        inside, closed, after = body[1:].partition(")")
        if not closed:
            raise KafenioError(_("declaration: the parenthesis after {head} is not closed").format(head=head))
        if after.strip():
            raise KafenioError(_("declaration: {words!r} is left over").format(words=after.strip()))
        body = inside
    words = [verb, head.upper()]
    for w in body.replace("|", " ").split():
        if verb == "group" and _LABEL.fullmatch(w.upper()):
            words.append(w.upper())
        else:
            words.append(format_card(parse_card(w)))
    return words


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
    if verb == "declare" and not labels:
        total = VALUE[card] + sum(VALUE[c] for c in named if c != card)
        if total != value:
            return _refusal(game, "plain", _("{cards} add up to {total}, not {v}").format(
                cards=format_cards([card, *sorted(named - {card})]), total=total, v=value))
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


def _basra_values(game: FishingGame) -> dict[str, int] | None:
    """``basra.md`` §6: what each basra may be worth in this Basra rule set — by card for
    ``double_face_value`` (``{"7H": 14, …}``; the jack on a lone jack as ``"J"``), ``None``
    for the flat values and for the relatives."""
    rules = game.rules
    if game.name != "basra" or rules.basra_value_mode != "double_face_value":
        return None
    values = {format_card(c): game.basra_value[c] for c in game.full_deck() if RANK[c] != JACK}
    if rules.jack_on_lone_jack_points:
        values["J"] = rules.jack_on_lone_jack_points
    return values


def _special_values(game: FishingGame) -> tuple[set[int], set[int]]:
    """``(every value one special capture can score, the values only a jack taking a lone jack
    scores)`` under ``game``'s rules: ``basra.md`` §4.3 (flat, or by card); Pişti A4.1, A4.2 (a
    pişti, a jack on a lone jack, a jack on a lone card, the bluff's doubled values); Xeri B4 (a
    xeri, a jack xeri); Diloti C4 (a xeri only)."""
    rules = game.rules
    if isinstance(game, PileGame):
        plain = {game.lone_points, game.jack_lone_card} | ({2 * game.lone_points} if game.bluffing else set())
        jack = {game.jack_lone_jack} | ({2 * game.jack_lone_jack} if game.bluffing else set())
    elif isinstance(game, DeclarationGame):
        plain, jack = {game.xeri_points}, set()
    else:
        by_card = _basra_values(game)
        plain = {game.basra_value[c] for c in game.full_deck() if RANK[c] != JACK} if by_card else {rules.basra_points}
        jack = {rules.jack_on_lone_jack_points}
    plain.discard(0)
    jack.discard(0)
    return plain | jack, jack - plain


def _most_specials(game: FishingGame) -> int:
    """The most special captures one deal can hold (``basra.md`` §4.1; ``fishing-relatives.md``
    A4.1, B4, C4): each leaves the table empty, so the next card is laid on it and cannot be one.
    Of the plays (the deck less the 4 opening cards) the first that can score one is the first
    (Basra's cleared floor, Diloti's ``xeri_on_first_card``), the second (a lone card left by the
    first, or Diloti's default) or the third (Pişti, Xeri: the whole pile goes first, then a lone
    card is laid); the last counts unless the rules say otherwise."""
    rules = game.rules
    plays = len(game.full_deck()) - rules.get("floor_size", 4)
    if isinstance(game, PileGame):
        first, last = 3, game.last_card_counts
    elif isinstance(game, DeclarationGame):
        first, last = 1 if game.xeri_first else 2, game.xeri_last
    else:
        first, last = 1 if rules.basra_definition == "clear_floor" else 2, rules.basra_on_final_play_counts
    return (plays - (0 if last else 1) - first) // 2 + 1


def _specials(game: FishingGame, given: object, field: str) -> list[int]:
    """The points of each special capture of one side, checked against what the rules can
    produce (``basra.md`` §6: a value no basra of the preset is worth is refused; with
    ``double_face_value`` each basra is named by its card or its value, never a bare count;
    the relatives' values, :func:`_special_values`).

    Raises:
        KafenioError: naming the field, the value and the rule.
    """
    rules = game.rules
    name = game.special_name
    by_card = _basra_values(game)
    if isinstance(given, int) and not isinstance(given, bool):
        if by_card is not None:
            raise KafenioError(_("{field}: give each basra by its card or value, not a count: with "
                                 "basra_value_mode = double_face_value its value depends on the card (basra.md §6)")
                               .format(field=field))
        if given < 0:
            raise KafenioError(_("{field}: a count of {name} is 0 or more").format(field=field, name=name))
        given = [_special_points(rules)] * given
    if not isinstance(given, list):
        raise KafenioError(_("{field}: a list of the points of each of the {name}, or their count").format(
            field=field, name=name))
    out = []
    allowed = _special_values(game)[0]
    for item in given:
        if isinstance(item, str) and by_card is not None:
            card = _card(item, field)
            if RANK[card] == JACK:
                raise KafenioError(_("{field}: {card}: a jack never makes an ordinary basra; give a jack on a "
                                     "lone jack as its points (basra.md §4.3)").format(
                    field=field, card=format_card(card)))
            if card not in game.full_deck():
                raise KafenioError(_("{field}: {card} is not in the {game} deck").format(
                    field=field, card=format_card(card), game=game.name))
            out.append(by_card[format_card(card)])
            continue
        if not isinstance(item, int) or isinstance(item, bool) or item < 0:
            raise KafenioError(_("{field}: {item!r} is not a number of points").format(field=field, item=item))
        if item not in allowed:
            raise KafenioError(_("{field}: no {special} is worth {v} with these rules; the values are {values} "
                                 "({rule})").format(field=field, special=SWEEP_WORDS[game.name][0](), v=item,
                                                    values=", ".join(map(str, sorted(allowed))),
                                                    rule=game.rule("special")))
        out.append(item)
    return out


def _count(value: object, field: str) -> int:
    """A whole number, 0 or more, given for ``field``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise KafenioError(_("{field}: a whole number, 0 or more").format(field=field))
    return value


def _check_specials(game: FishingGame, specials: list[list[int]]) -> None:
    """The special captures of all sides together fit in one deal (:func:`_most_specials`) and
    the jacks: a jack taking a lone jack uses two of the four (one when a bluff on a lone jack
    is believed, A4.2).

    Raises:
        KafenioError: naming the game's word for them and the rule.
    """
    name = game.special_name
    made = sum(map(len, specials))
    most = _most_specials(game)
    if made > most:
        raise KafenioError(_("{name}: {n} in one deal, but a deal has room for at most {most}: each leaves the table "
                             "empty, so the next card is laid on it ({rule})").format(
            name=name, n=made, most=most, rule=game.rule("special")))
    jack_only = _special_values(game)[1]
    by_jacks = sum(1 for side in specials for v in side if v in jack_only)
    limit = 4 if isinstance(game, PileGame) and game.bluffing else 2
    if by_jacks > limit:
        raise KafenioError(_("{name}: {n} worth {values}, which only a jack taking a lone jack scores; the four "
                             "jacks make at most {limit} ({rule})").format(
            name=name, n=by_jacks, values=", ".join(map(str, sorted(jack_only))), limit=limit,
            rule=game.rule("special")))


def _majority_rule(game: FishingGame) -> str:
    """How this rule set awards the majority, in words (for a refusal)."""
    m = game.majority_points
    if game.tie_rule == "carry_over":
        return _("{m} to the side with strictly the most cards; a tie carries it to the next deal").format(m=m)
    if game.tie_rule == "both_score":
        return _("{m} to the side with strictly the most cards; on a tie, {m} to each tied side").format(m=m)
    return _("{m} to the side with strictly the most cards; a tie gives it to nobody").format(m=m)


SIDE_KEYS = ("captured", "cards", "point_cards", "card_points", "majority", "took_last_pile")
"""What a side of a score sheet may hold besides its special captures (:func:`score`)."""


def score(rules: Rules, data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a deal from the capture piles (``basra.md`` §6; ``fishing-relatives.md`` A6, B6, C6).

    Args:
        data: ``{"sides": [side, …], "majority_carry": int (optional)}``, one ``side`` per
            scoring side, each either ``{"captured": "AH 5C …"}`` (every card, the last
            capturer's final floor included) or ``{"cards": 29, "point_cards": "AH 10D"}``
            (a count plus the cards that carry points) or ``{"cards": 29, "card_points": 6}``
            (a count and the card points as a number), and ``"basras"`` (or the game's own
            word, ``"pistis"``, ``"xeris"``): a list of the points of each special capture
            (``[10, 20]``) or a count (each worth ``basra_points``, ``pisti_points``,
            ``xeri_points``); in Basra with ``double_face_value`` each basra is given by its
            card (``"7H"``) or its value, never as a count; Pişti with ``last_pile_bonus``:
            ``"took_last_pile": true``. A side may also say what its sheet gives it for the
            majority (``"majority": 3``): the referee checks it.

    Returns:
        ``{"sides": [itemised sheet per side], "majority_carried_out": int}``; each sheet has
        ``cards``, ``majority``, ``card_points``, ``point_cards``, ``basras`` and ``total``.

    Raises:
        KafenioError: naming the field or the rule, for a sheet no finished deal could give
            (§6): cards that do not add up to the deck, a card not in the deck or given twice,
            more point cards than cards, card points the cards cannot carry or that do not add
            up to the deck's, a special value the rules cannot produce, more specials than a
            deal has room for or than the jacks allow, a majority the rules do not give, a
            carried majority the tie rule never carries; CardError for a bad card.
    """
    game = _game(rules)
    sides = data.get("sides")
    if not isinstance(sides, list) or len(sides) != game.num_sides:
        raise KafenioError(n_("sides: give {n} side", "sides: give {n} sides", game.num_sides).format(
            n=number(game.num_sides)))
    deck = len(game.full_deck())
    points = game.card_points
    total_points = sum(points[c] for c in game.full_deck())
    piles, counts, specials, every, stated = [], [], [], [], []
    for k, side in enumerate(sides):
        field = f"sides[{k}]"
        if not isinstance(side, Mapping):
            raise KafenioError(_("{field}: each side is an object with captured, or cards and point_cards")
                               .format(field=field))
        known = (*SIDE_KEYS, game.special_name, "basras")
        for key in side:
            if key not in known:
                raise KafenioError(_("{field}: {key!r} is not part of a score sheet; a side has {keys}").format(
                    field=field, key=key, keys=", ".join((*SIDE_KEYS, game.special_name))))
        stated_points = None
        if "captured" in side:
            pile = _cards(side["captured"], f"{field}.captured")
            count = len(pile)
        elif "cards" in side:
            pile = _cards(side.get("point_cards", ""), f"{field}.point_cards")
            count = side["cards"]
            if not isinstance(count, int) or isinstance(count, bool) or count < len(pile):
                raise KafenioError(_("{field}.cards: a count at least as large as the point cards ({n})")
                                   .format(field=field, n=number(len(pile))))
            if "card_points" in side:
                if "point_cards" in side:
                    raise KafenioError(_("{field}: give point_cards or card_points, not both").format(field=field))
                stated_points = _count(side["card_points"], f"{field}.card_points")
                best = sum(sorted((points[c] for c in game.full_deck()), reverse=True)[:count])
                if stated_points > best:
                    raise KafenioError(_("{field}.card_points: {n} card points in {cards} cards, but the richest "
                                         "{cards} cards of the deck carry {best} ({rule})").format(
                        field=field, n=number(stated_points), cards=number(count), best=number(best),
                        rule=game.rule("score")))
        else:
            raise KafenioError(_("{field}: each side needs captured, or cards and point_cards").format(field=field))
        every += pile
        name = game.special_name if game.special_name in side else "basras"
        specials.append(_specials(game, side.get(name, []), f"{field}.{name}"))
        piles.append(pile)
        counts.append(count)
        stated.append(stated_points)
    _once(game, every)
    if sum(counts) != deck:
        raise KafenioError(n_("cards: the sides hold {total} card, but every one of the {n} cards of the deck "
                              "ends in a capture pile (basra.md §5, §6)",
                              "cards: the sides hold {total} cards, but every one of the {n} cards of the deck "
                              "ends in a capture pile (basra.md §5, §6)", sum(counts)).format(
            total=number(sum(counts)), n=number(deck)))
    given = sum(n if n is not None else sum(points[c] for c in pile) for n, pile in zip(stated, piles, strict=True))
    if given > total_points or (None not in stated and given != total_points):
        raise KafenioError(_("card_points: the sides' card points add up to {given}, but the deck's point cards are "
                             "worth {total} and every card ends in a capture pile ({rule})").format(
            given=number(given), total=number(total_points), rule=game.rule("score")))
    _check_specials(game, specials)
    carry = data.get("majority_carry", 0)
    if not isinstance(carry, int) or isinstance(carry, bool) or carry < 0:
        raise KafenioError(_("majority_carry: a number of points, 0 or more"))
    if carry and (game.tie_rule != "carry_over" or carry % game.majority_points):
        raise KafenioError(_("majority_carry: {carry} cannot have been carried over: the majority is {how} "
                             "({rule})").format(carry=carry, how=_majority_rule(game), rule=game.rule("score")))
    bonus = rules.get("last_pile_bonus", 0)
    extras = {"last_pile_bonus": [bonus if side.get("took_last_pile") else 0 for side in sides]} if bonus else None
    sheet, carry_out = score_deal(piles, specials, points, majority_points=game.majority_points,
                                  tie_rule=game.tie_rule, carry=carry, special_name=game.special_name,
                                  counts=counts, extras=extras)
    for k, (line, stated_points, side) in enumerate(zip(sheet, stated, sides, strict=True)):
        if stated_points is not None:
            line["total"] += stated_points - line["card_points"]
            line["card_points"] = stated_points
        if "majority" in side and side["majority"] != line["majority"]:
            raise KafenioError(_("sides[{k}].majority: the sheet gives {given}, but this side has {n} of the {deck} "
                                 "cards and the majority is {how} ({rule})").format(
                k=k, given=side["majority"], n=line["cards"], deck=deck, how=_majority_rule(game),
                rule=game.rule("score")))
    return {"sides": sheet, "majority_carried_out": carry_out}


#: the sweep bonus in words, per game (``fishing-relatives.md`` §0, A3: never "basra" outside Basra)
SWEEP_WORDS = {"basra": (lambda: _("basra"), lambda: _("basras")), "pisti": (lambda: _("pişti"), lambda: _("piştis")),
               "xeri": (lambda: _("xeri"), lambda: _("xeres")), "diloti": (lambda: _("xeri"), lambda: _("xeres"))}


def describe(verb: str, result: Mapping[str, Any], game: str = "basra") -> str:
    """Human-readable lines for a :func:`capture`, :func:`declare` or :func:`score` result of
    ``game`` (its sweep bonus named as that game names it)."""
    one, many = SWEEP_WORDS.get(game, SWEEP_WORDS["basra"])
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
            lines.append(n_("{special}: {n} point", "{special}: {n} points", result["points"]).format(
                special=one(), n=number(result["points"])))
        for k, choice in enumerate(result.get("choices", [])):
            points = result["choice_points"][k]
            lines.append(n_("choice {k}: {cards} ({n} point)", "choice {k}: {cards} ({n} points)", points).format(
                k=k, cards=" ".join(choice), n=number(points)))
        lines.append(_("floor after: {{{cards}}}").format(cards=" ".join(result["floor_after"])))
        return "\n".join(lines)
    lines = []
    for side in result["sides"]:
        special = next(v for v in side.values() if isinstance(v, dict))
        lines.append(_("side {side}: {cards}; majority {m} + card points {c} ({pc}) + "
                       "{specials} {b} ({n}) = {total}").format(
            side=side["side"], cards=cards_count(side["cards"]), m=number(side["majority"]),
            c=number(side["card_points"]), pc=" ".join(side["point_cards"]) or "-", specials=many(),
            b=number(special["points"]), n=number(special["count"]), total=number(side["total"])))
    if result.get("majority_carried_out"):
        lines.append(_("majority carried to the next deal: {n}").format(n=number(result["majority_carried_out"])))
    return "\n".join(lines)
