"""Diloti's table: the Basra floor plus declarations (``fishing-relatives.md`` Part C).

The table holds loose cards (``state.floor``, sorted) and **declarations** (``state.decls``): a
:class:`Decl` has a kind (``P`` plain, ``G`` group), a value 1–10, an owner and its components
(tuples of cards; a plain declaration has one). A played numeral makes exactly one **move**
(C3): a capture, a plain declaration, a raise, a group declaration, or laying the card.

A :class:`Move` names table items by loose-card position and declaration index. The engine
offers the moves of a played card as its capture choices (action ``52 + k``), so this module is
the one place that knows what a Diloti card may do — the engine, the referee and the players
call :meth:`DeclarationState.moves`.

Notation: ``P8@1(5C 3D)``, ``G9@0(9S | 5C 3D AH)`` (README of the spec); moves are written
``capture 7C 5S 2C P7@1``, ``declare P8 5C``, ``raise P4@1 to 9``, ``group G8 8C P8@0``, ``lay``.
"""

from __future__ import annotations

import hashlib
import re
from bisect import insort
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from kafenio.cards import RANK, format_card, format_cards, parse_cards
from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.engine.game import TERMINAL
from kafenio.fishing.captures import VALUE, sum_unions
from kafenio.fishing.state import CHOOSE, FLOOR_ORDER, NUM_PLAY, FishingGame, FishingState
from kafenio.i18n import _

FACE_RANKS = (11, 12, 13)
_DECL_TEXT = re.compile(r"([PG])(\d+)@(\d+)\(([^)]*)\)")


class Decl(NamedTuple):
    """A declaration on the table (C3.1)."""

    kind: str
    value: int
    owner: int
    components: tuple[tuple[int, ...], ...]
    soy: bool = False

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(c for comp in self.components for c in comp)

    def label(self) -> str:
        """``P8@1``: kind, value and owner (unique: a player owns at most one declaration)."""
        return f"{self.kind}{self.value}@{self.owner}"

    def text(self) -> str:
        """``P8@1(5C 3D)`` / ``G9@0(9S | 5C 3D AH)``."""
        return f"{self.label()}({' | '.join(format_cards(list(c)) for c in self.components)})"


class Move(NamedTuple):
    """One move of a played card: ``kind`` (capture, declare, raise, group, lay), the loose-card
    positions and declaration indices it involves, the declared value (0 for captures/lays)."""

    kind: str
    loose: tuple[int, ...] = ()
    decls: tuple[int, ...] = ()
    value: int = 0


LAY = Move("lay")


def parse_table(text: str) -> tuple[list[int], list[Decl]]:
    """``{7S QC P8@1(5C 3D) G9@0(9S | 4D 5H)}`` → loose cards and declarations.

    Raises:
        CardError: a bad card; KafenioError: a malformed declaration.
    """
    text = text.replace("{", " ").replace("}", " ")
    decls = []
    for kind, value, owner, body in _DECL_TEXT.findall(text):
        comps = tuple(tuple(parse_cards(part)) for part in body.split("|"))
        if not all(comps) or (kind == "P" and len(comps) != 1) or (kind == "G" and len(comps) < 2):
            raise KafenioError(_("malformed declaration {d}").format(d=f"{kind}{value}@{owner}({body})"))
        decls.append(Decl(kind, int(value), int(owner), comps, kind == "G" and len(comps) == 2
                          and all(len(c) == 1 for c in comps)))
    loose = parse_cards(_DECL_TEXT.sub(" ", text))
    return loose, decls


@lru_cache(maxsize=100_000)
def _partition(items: tuple[tuple[int, int, int], ...], target: int) -> tuple[tuple[int, ...], ...] | None:
    """Split ``items`` — ``(value, kind, flags)`` with item 0 the played card — into parts worth
    ``target``: kind 0 loose card, 1 plain declaration usable only whole or raised by the
    played card (strict), 2 plain declaration usable as a card; flags 1 = the played card may
    raise it. The played card's part holds at most one declaration, which it may raise.
    Returns the parts (item indices) or ``None``."""
    n = len(items)

    def solve(left: int) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        sub = rest
        while True:
            part = sub | (1 << first)
            members = [i for i in range(n) if part >> i & 1]
            if sum(items[i][0] for i in members) == target and _part_ok(items, members):
                tail = solve(left & ~part)
                if tail is not None:
                    return [tuple(members), *tail]
            if not sub:
                return None
            sub = (sub - 1) & rest

    found = solve((1 << n) - 1)
    return tuple(found) if found is not None else None


@lru_cache(maxsize=100_000)
def _group_sets(x: int, target: int, pool: tuple[tuple[int, int, int], ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Subsets of ``pool`` (items as in :func:`_partition`) that form parts worth ``target``
    with the played card's value ``x``: ``(chosen indices, number of parts)``."""
    n = len(pool)
    sums = [0] * (1 << n)
    out = []
    for mask in range(1 << n):
        if mask:
            low = mask & -mask
            sums[mask] = sums[mask ^ low] + pool[low.bit_length() - 1][0]
        if (x + sums[mask]) % target:
            continue
        chosen = tuple(j for j in range(n) if mask >> j & 1)
        parts = _partition(((x, 0, 0), *(pool[j] for j in chosen)), target)
        if parts is not None:
            out.append((chosen, len(parts)))
    return tuple(out)


def _part_ok(items: tuple[tuple[int, int, int], ...], members: list[int]) -> bool:
    decls = [i for i in members if items[i][1]]
    if not decls:
        return True
    if 0 in members:
        return len(decls) == 1 and items[decls[0]][2] == 1 and (
            items[decls[0]][1] == 2 or len(members) == 2)
    return all(items[i][1] == 2 for i in decls) or len(members) == 1


class DeclarationGame(FishingGame):
    """Diloti's rules as plain attributes (the game module fills them from its options)."""

    packets = True
    max_choices = 256
    extra_actions = 1
    #: the face-card redeal (C2 variation), the one action after the move choices
    redeal_action = NUM_PLAY + 256
    spec_file = "fishing-relatives.md"

    def __init__(self, rules):
        super().__init__(rules)
        self.capture_rule = rules.capture_rule
        self.plain_as_card = rules.plain_declaration_as_card
        self.self_raise = rules.self_raise
        self.absorbs = rules.declaration_absorbs_loose
        self.soy_locked = rules.soy_locked
        self.xeri_points = rules.xeri_points
        self.xeri_first = rules.xeri_on_first_card
        self.xeri_last = rules.xeri_on_last_card
        self.redeal_rule = rules.face_card_hand_redeal

    def full_deck(self) -> list[int]:
        return list(range(52))


class DeclarationState(FishingState):
    """A Diloti round: the fishing deal with declarations (see the module docstring).

    Attributes beyond :class:`FishingState`: ``decls`` (the declarations on the table),
    ``first_play`` (no card played yet this round), ``deal_deck`` (the deck of the deal now
    running: differs from the recorded deck after a face-card redeal), ``redeal_from`` (history
    index where the running deal began).
    """

    game: DeclarationGame

    def _layout(self) -> None:
        """C2: packets of 6 from the first player to the dealer, 4 to the table, the table check."""
        game = self.game
        deck = list(self._deck)
        self.decls: list[Decl] = []
        self.first_play = True
        self.deal_deck = tuple(deck)
        self.redeal_from = getattr(self, "redeal_from", 0)
        self._moves: dict[int, list[Move]] = {}
        size = game.rules.hand_size
        pos = 0
        for seat in self._order():
            self.hands[seat] = sorted(deck[pos:pos + size])
            pos += size
        table = deck[pos:pos + 4]
        stock = deck[pos + 4:]
        moved: list[int] = []
        check = game.rules.initial_table_check
        for _turn in range(len(stock) // 4 + 1):
            counts: dict[int, int] = {}
            for c in table:
                counts[RANK[c]] = counts.get(RANK[c], 0) + 1
            worst = max(counts.items(), key=lambda kv: kv[1])
            bad = any(n >= 3 and (check == "any_triples" or r in FACE_RANKS) for r, n in counts.items())
            if check == "face_quads_only":
                bad = worst[1] == 4 and worst[0] in FACE_RANKS
            if not bad:
                break
            stock.extend(table)
            moved.extend(table)
            table = stock[:4]
            del stock[:4]
        self.floor = self._arrange(table)
        self.stock = tuple(stock)
        self.stock_known = tuple(moved)
        self.log.append(("floor", tuple(deck[pos:pos + 4]), tuple(moved), tuple(table)))

    def _set_table(self, declarations: Sequence[Decl] = (), first_card: bool = False, **table: Any) -> None:
        """A constructed position: ``declarations`` on the table; ``first_card``: no card has
        been played this round yet (C4)."""
        super()._set_table(**table)
        self.decls = list(declarations)
        self.first_play = first_card
        self._moves = {}

    # -- moves ---------------------------------------------------------------------------
    def owned(self, seat: int) -> int | None:
        """The index of the declaration ``seat`` owns, or ``None`` (C3.7)."""
        for i, d in enumerate(self.decls):
            if d.owner == seat:
                return i
        return None

    def _raisable(self, decl: Decl, seat: int) -> bool:
        """C3.5: an opponent's plain declaration (one's own with ``self_raise``; never the partner's)."""
        if decl.kind != "P":
            return False
        if decl.owner == seat:
            return self.game.self_raise
        return self.game._sides[decl.owner] != self.game._sides[seat]

    def moves(self, card: int, seat: int | None = None, public: bool = False) -> list[Move]:
        """Every legal move of ``card`` (in ``seat``'s hand) now, in a fixed order: captures
        (most cards first), declarations, raises, groups, lay. ``[]``: the card cannot be played.

        ``public``: the moves as the other players can list them, without the rule "still holds
        a card of the declared value" (it depends on the hidden hand). The engine offers this
        list as the choices of a played card, with the legal ones enabled, so that choice ids
        mean the same move in every determinization."""
        seat = self.cur if seat is None else seat
        key = (card, public)
        if seat == self.cur:
            hit = self._moves.get(key)
            if hit is not None:
                return hit
        rest = list(self.hands[seat])
        if card in rest:
            rest.remove(card)
        values = set(range(1, 11)) if public else {VALUE[c] for c in rest}
        own = self.owned(seat)
        out = self._face_moves(card) if not VALUE[card] else self._numeral_moves(card, seat, own, values)
        if own is not None:  # C3.7: no lay; a capture leaving the own declaration keeps a card for it
            keep = self.decls[own].value in values
            out = [m for m in out if m.kind != "lay" and (keep or m.kind != "capture" or own in m.decls)]
        if seat == self.cur:
            self._moves[key] = out
        return out

    def _apply(self, action: int) -> None:
        if action >= NUM_PLAY:
            super()._apply(action)
            return
        self.hands[self.cur].remove(action)
        options = self.moves(action, public=True)
        if len(options) == 1:
            self._resolve(action, options[0])
            return
        limit = self.game.max_choices
        if len(options) > limit:  # rare: keep the first ones and the last (lay, or a group)
            options = [*options[:limit - 1], options[-1]]
        self.pending = (action, options)
        self._legal = self._decision_legal()

    def _decision_legal(self) -> list[int]:
        if self.pending is not None and self.cur != TERMINAL:
            card, options = self.pending
            legal = set(self.moves(card))
            return [CHOOSE + k for k, m in enumerate(options) if m in legal]
        return super()._decision_legal()

    def _pinned_for(self, seat: int) -> tuple[int, ...]:
        """A player who declared a value this round held a card of it then (C3.4): for every
        other seat, one held card of each value it declared stays in place."""
        declared: dict[int, set[int]] = {}
        for event in self.log:
            if event[0] == "declare":
                declared.setdefault(event[1], set()).add(event[4])
        pins = list(self.pinned)
        for other, values in declared.items():
            if other != seat:
                for value in values:
                    pins += [c for c in self.hands[other] if VALUE[c] == value][:1]
        if self.pending is not None and self.cur != seat:  # the mover's enabled choices
            pins += self.hands[self.cur]
        return tuple(pins)

    def _face_moves(self, card: int) -> list[Move]:
        """C3.3: a face card takes one equal loose face card (all three of three); else it is laid."""
        same = tuple(i for i, c in enumerate(self.floor) if RANK[c] == RANK[card])
        if len(same) >= 3:
            return [Move("capture", same)]
        if same:
            return [Move("capture", (i,)) for i in same]
        return [LAY]

    def _numeral_moves(self, card: int, seat: int, own: int | None, values: set[int]) -> list[Move]:
        game = self.game
        x = VALUE[card]
        captures = self._captures(x)
        if captures and game.capture_rule == "forced_maximal":
            return captures
        out = list(captures)
        floor = self.floor
        numerals = [i for i, c in enumerate(floor) if VALUE[c]]
        if own is None:
            for sub in _subsets(tuple(VALUE[floor[i]] for i in numerals), 10 - x):
                total = x + sum(VALUE[floor[numerals[j]]] for j in sub)
                if total in values:
                    out.append(Move("declare", tuple(numerals[j] for j in sub), (), total))
        full = game.plain_as_card == "full"
        for d, decl in enumerate(self.decls):
            if not self._raisable(decl, seat) or (own is not None and own != d):
                continue
            for sub in (_subsets(tuple(VALUE[floor[i]] for i in numerals), 10 - x - decl.value)
                        if full else [()]):
                total = decl.value + x + sum(VALUE[floor[numerals[j]]] for j in sub)
                if total <= 10 and total in values:
                    out.append(Move("raise", tuple(numerals[j] for j in sub), (d,), total))
        for target in sorted(values):
            if target and target >= x:
                out.extend(self._groups(card, seat, own, target))
        if own is None:
            out.append(LAY)
        return out

    def _captures(self, x: int) -> list[Move]:
        """C3.2: equal loose numerals, sum groups of loose numerals (plain declarations too with
        ``full``), declarations of value ``x``; ``capture_rule`` filters or completes them."""
        game = self.game
        floor = self.floor
        equal = [("L", i) for i, c in enumerate(floor) if VALUE[c] == x]
        equal += [("D", d) for d, decl in enumerate(self.decls) if decl.value == x]
        addends = [("L", i) for i, c in enumerate(floor) if 0 < VALUE[c] < x]
        if game.plain_as_card == "full":
            addends += [("D", d) for d, decl in enumerate(self.decls) if decl.kind == "P" and decl.value < x]
        add_values = tuple(VALUE[floor[i]] if k == "L" else self.decls[i].value for k, i in addends)
        unions = sum_unions(add_values, x) if len(addends) > 1 else ((),)
        everything = game.capture_rule == "take_all_equal"
        found: dict[frozenset, None] = {}
        for mask in range(1 << len(equal)):
            if everything and mask != (1 << len(equal)) - 1:
                continue
            chosen = [equal[j] for j in range(len(equal)) if mask >> j & 1]
            for union in unions:
                items = chosen + [addends[j] for j in union]
                if items:
                    found[frozenset(items)] = None
        sets = list(found)
        if game.capture_rule == "forced_maximal":
            sets = [s for s in sets if not any(s < t for t in sets)]
        moves = [Move("capture", tuple(sorted(i for k, i in s if k == "L")),
                      tuple(sorted(i for k, i in s if k == "D"))) for s in sets]
        moves.sort(key=lambda m: (-self._size(m), m.loose, m.decls))
        return moves

    def _size(self, move: Move) -> int:
        return len(move.loose) + sum(len(self.decls[d].cards) for d in move.decls)

    def _groups(self, card: int, seat: int, own: int | None, target: int) -> list[Move]:
        """C3.6 (and C3.9 ``groups``/``full``): group moves of value ``target``."""
        game = self.game
        x = VALUE[card]
        floor = self.floor
        loose = [i for i, c in enumerate(floor) if 0 < VALUE[c] <= target]
        liberal = game.plain_as_card != "strict"
        plains = []
        for d, decl in enumerate(self.decls):
            if decl.kind != "P":
                continue
            raisable = self._raisable(decl, seat)
            if liberal and decl.value <= target:
                plains.append((d, 2, raisable))
            elif decl.value == target or (raisable and decl.value == target - x):
                plains.append((d, 1, raisable))
        groups = [None] + [d for d, decl in enumerate(self.decls) if decl.kind == "G" and decl.value == target
                           and not (decl.soy and game.soy_locked)]
        pool = [(VALUE[floor[i]], 0, 0) for i in loose] + [(self.decls[d].value, k, int(r)) for d, k, r in plains]
        out = []
        for chosen, nparts in _group_sets(x, target, tuple(pool)):
            decl_ids = tuple(plains[j - len(loose)][0] for j in chosen if j >= len(loose))
            for group in groups:
                ids = decl_ids + ((group,) if group is not None else ())
                if own is not None and own not in ids:
                    continue
                if nparts + (len(self.decls[group].components) if group is not None else 0) < 2:
                    continue
                out.append(Move("group", tuple(loose[j] for j in chosen if j < len(loose)), tuple(sorted(ids)),
                                target))
        return out

    # -- the engine's hooks --------------------------------------------------------------
    def _turn_legal(self, seat: int) -> list[int]:
        self._moves = {}
        hand = self.hands[seat]
        # without a declaration every card can be laid or take its face card (C3.3, C3.8)
        legal = hand[:] if self.owned(seat) is None else [c for c in hand if self.moves(c, seat)]
        if self._may_redeal(seat):
            legal.append(self.game.redeal_action)
        return legal

    def _options(self, card: int) -> list[Move]:
        return self.moves(card)

    def _may_redeal(self, seat: int) -> bool:
        """C2 variation: 5 or 6 face cards in a full hand, in the first deal (or any deal)."""
        rule = self.game.redeal_rule
        hand = self.hands[seat]
        return (rule != "none" and len(hand) == self.game.rules.hand_size
                and sum(1 for c in hand if not VALUE[c]) >= 5
                and (rule == "any_deal" or not any(e[0] == "deal" for e in self.log)))

    def _extra_action(self, action: int) -> None:
        """C2 variation: the round is cancelled; the same dealer deals a new one (D5). The new
        order is a reshuffle fixed by the running deal's deck, so the record still replays."""
        digest = hashlib.blake2b(bytes(self.deal_deck), digest_size=8).digest()
        deck = self.game.shuffle(int.from_bytes(digest, "little") >> 1)
        keep = (self._deck, self.history, self.carry_in, len(self.history) + 1)
        FishingState.__init__(self, self.game, deck, self.dealer, self.match_scores)
        self._deck, self.history, self.carry_in, self.redeal_from = keep
        self.log.append(("redeal", self.dealer))

    def _resolve(self, card: int, move: Move) -> None:
        """Apply ``move`` of ``card`` (C3), then end the turn."""
        seat = self.cur
        self.cards_left -= 1
        self._moves = {}
        game = self.game
        floor = self.floor
        kind = move.kind
        if kind == "lay":
            insort(floor, card, key=FLOOR_ORDER.__getitem__)
            self.log.append((seat, card, (), 0))
        elif kind == "capture":
            taken = tuple(floor[i] for i in move.loose) + tuple(c for d in move.decls for c in self.decls[d].cards)
            self._remove(move)
            bonus = 0
            if not self.floor and not self.decls and (game.xeri_first or not self.first_play) and (
                    game.xeri_last or self.cards_left):
                bonus = game.xeri_points
            self._take(seat, card, taken, bonus)
        else:
            self._declare(seat, card, move)
        self.first_play = False
        self._end_turn(seat)

    def _remove(self, move: Move) -> None:
        keep = set(move.loose)
        self.floor = [c for i, c in enumerate(self.floor) if i not in keep]
        gone = set(move.decls)
        self.decls = [d for i, d in enumerate(self.decls) if i not in gone]

    def _declare(self, seat: int, card: int, move: Move) -> None:
        """A new plain declaration, a raise or a group (C3.4–C3.6, C3.9)."""
        game = self.game
        floor = self.floor
        loose = [floor[i] for i in move.loose]
        old = [self.decls[d] for d in move.decls]
        value = move.value
        if move.kind == "declare":
            comps: list[tuple[int, ...]] = [(card, *loose)]
        elif move.kind == "raise":
            comps = [(*old[0].cards, card, *loose)]
        else:
            comps = self._components(card, loose, old, value)
        self._remove(move)
        kind = "P" if move.kind in ("declare", "raise") else "G"
        if game.absorbs and not old:
            same = [c for c in self.floor if VALUE[c] == value]
            if same:
                comps += [(c,) for c in same]
                self.floor = [c for c in self.floor if VALUE[c] != value]
                kind = "G"
        soy = kind == "G" and len(comps) == 2 and all(len(c) == 1 for c in comps)
        self.decls.append(Decl(kind, value, seat, tuple(comps), soy))
        self.log.append(("declare", seat, card, self.decls[-1].text(), value))

    def _components(self, card: int, loose: list[int], old: list[Decl], value: int) -> list[tuple[int, ...]]:
        """The components of a group move: the existing group's, then a partition of the rest."""
        group = [d for d in old if d.kind == "G"]
        plains = [d for d in old if d.kind == "P"]
        items = [(VALUE[card], 0, 0)] + [(VALUE[c], 0, 0) for c in loose] + [(d.value, 2, 1) for d in plains]
        parts = _partition(tuple(items), value)
        cards_of = [(card,)] + [(c,) for c in loose] + [d.cards for d in plains]
        comps = list(group[0].components) if group else []
        comps += [tuple(c for i in part for c in cards_of[i]) for part in parts]
        return comps

    # -- notation and views -----------------------------------------------------------------
    def move_text(self, move: Move, card: int | None = None) -> str:
        """``capture 7C 5S P7@1``, ``declare P8 5C``, ``raise P4@1 to 9``, ``group G8 8C P8@0``, ``lay``."""
        loose = [format_card(self.floor[i]) for i in move.loose]
        labels = [self.decls[d].label() for d in move.decls]
        if move.kind == "lay":
            return "lay"
        if move.kind == "capture":
            return " ".join(["capture", *loose, *labels])
        if move.kind == "raise":
            return " ".join([f"raise {labels[0]} to {move.value}", *(["with", *loose] if loose else [])])
        head = f"declare P{move.value}" if move.kind == "declare" else f"group G{move.value}"
        return " ".join([head, *loose, *labels])

    def option_cards(self, k: int) -> tuple[int, ...]:
        move = self.pending[1][k]
        return tuple(self.floor[i] for i in move.loose) + tuple(c for d in move.decls for c in self.decls[d].cards)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        if action == self.game.redeal_action:
            return "redeal"
        if action < NUM_PLAY or self.pending is None or not 0 <= action - CHOOSE < len(self.pending[1]):
            return super().action_to_string(action, player)
        return self.move_text(self.pending[1][action - CHOOSE])

    def string_to_action(self, text: str) -> int:
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb == "redeal" and len(words) == 1:
            return self.game.redeal_action
        if verb in ("capture", "declare", "raise", "group", "lay"):
            wanted = _normal(text)
            if self.pending is not None:
                for k, move in enumerate(self.pending[1]):
                    if _normal(self.move_text(move)) == wanted:
                        return CHOOSE + k
            raise IllegalAction(self.game.rule("choice"), _("no pending move is {text!r}").format(text=text), text)
        return super().string_to_action(text)

    def explain_illegal(self, action: int) -> IllegalAction:
        game = self.game
        if (self.cur != TERMINAL and self.pending is None and isinstance(action, int)
                and 0 <= action < NUM_PLAY and action in self.hands[self.cur]):
            if self.owned(self.cur) is not None:
                return IllegalAction(game.rule("owner"), _(
                    "{card} has no legal move: the owner of a declaration may not lay a card and must keep "
                    "a card that takes it").format(card=format_card(action)), action)
            return IllegalAction(game.rule("face"), _("{card} has no legal move").format(
                card=format_card(action)), action)
        if action == game.redeal_action and self.cur != TERMINAL:
            return IllegalAction(game.rule("deal"), _("a redeal needs 5 or 6 face cards in a full hand "
                                                      "(face_card_hand_redeal)"), action)
        return super().explain_illegal(action)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Base view plus ``declarations`` (each ``{kind, value, owner, components, text, soy}``)
        and ``owns`` (the text of the seat's own declaration or ``null``)."""
        out = super().view(seat)
        out["declarations"] = [{"kind": d.kind, "value": d.value, "owner": d.owner, "soy": d.soy,
                                "components": [[format_card(c) for c in comp] for comp in d.components],
                                "text": d.text()} for d in self.decls]
        own = self.owned(seat) if seat is not None else None
        out["owns"] = self.decls[own].text() if own is not None else None
        return out

    def information_state_string(self, seat: int) -> str:
        table = " ".join(d.text() for d in self.decls)
        return f"{super().information_state_string(seat)}|decls {table}"

    def clone(self) -> DeclarationState:
        new = super().clone()
        new.decls = self.decls[:]
        new._moves = dict(self._moves)
        return new

    def _map_cards(self, rename: dict[int, int]) -> None:
        """After a redeal the running deal is what a seat knows: the copy starts from it."""
        if self.redeal_from:
            self._deck = [rename.get(c, c) for c in self.deal_deck]
            self.history = self.history[self.redeal_from:]
            self.redeal_from = 0
        self.deal_deck = tuple(self._deck)
        self._moves = {}

    def _finish(self) -> None:
        """C5 (a declaration cannot be left, C3.7; a constructed position might: its cards count
        as table cards)."""
        self.floor += [c for d in self.decls for c in d.cards]
        self.decls = []
        super()._finish()


def _normal(text: str) -> tuple[str, ...]:
    words = text.replace("(", " ").replace(")", " ").replace("|", " ").split()
    return (words[0].lower(), *sorted(w.upper() for w in words[1:]))


@lru_cache(maxsize=50_000)
def _subsets(values: tuple[int, ...], budget: int) -> tuple[tuple[int, ...], ...]:
    """Non-empty index sets of ``values`` whose sum is at most ``budget``."""
    out = []
    for mask in range(1, 1 << len(values)):
        chosen = tuple(j for j in range(len(values)) if mask >> j & 1)
        if sum(values[j] for j in chosen) <= budget:
            out.append(chosen)
    return tuple(out)
