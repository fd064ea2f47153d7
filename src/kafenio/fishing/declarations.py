"""Diloti's table: the Basra floor plus declarations (``fishing-relatives.md`` Part C).

The table holds loose cards (``state.floor``, sorted) and **declarations** (``state.decls``): a
:class:`Decl` has a kind (``P`` plain, ``G`` group), a value 1–10, an owner and its components
(tuples of cards; a plain declaration has one). A played numeral makes exactly one **move**
(C3): a capture, a plain declaration, a raise, a group declaration, or laying the card.

A :class:`Move` names table items by loose-card position and declaration index. The engine
offers the moves of a played card as its capture choices (action ``52 + k``), so this module is
the one place that knows what a Diloti card may do — the engine, the referee and the players
call :meth:`DeclarationState.moves`.

Speed (the hot path of every playout): a numeral's public move list is a pure function of its
value, the loose numerals' values and the declarations as the mover sees them; the list of a
table without declarations is memoised on the values, one with declarations is assembled from
memoised pieces (the move enumerator in :mod:`kafenio.fishing.diloti_moves`). Each listed move
carries its *need* — the value the hand must still hold — so the legal choices are a bit test
per move, not a second enumeration.

Notation: ``P8@1(5C 3D)``, ``G9@0(9S | 5C 3D AH)`` (README of the spec); moves are written
``capture 7C 5S 2C P7@1``, ``declare P8 5C``, ``raise P4@1 to 9``, ``group G8 8C P8@0``, ``lay``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from itertools import compress
from typing import Any, Self

from mypy_extensions import mypyc_attr

from kafenio.cards import RANK, format_card, format_cards
from kafenio.engine.errors import IllegalAction
from kafenio.engine.game import TERMINAL, own_abc_caches
from kafenio.engine.rules import Rules
from kafenio.fishing.captures import VALUE
from kafenio.fishing.diloti_moves import (
    FACE_RANKS,
    FREE,
    LAID,
    VALUE_BIT,
    Decl,
    Move,
    RawMove,
    add_declaration,
    loose_table_entry,
    partition,
    table_entry,
)
from kafenio.fishing.state import CHOOSE, NUM_PLAY, FishingGame, FishingState, lay_card
from kafenio.i18n import _


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class DeclarationGame(FishingGame):
    """Diloti's rules as plain attributes (the game module fills them from its options)."""

    packets = True
    max_choices = 256
    extra_actions = 1
    #: the face-card redeal (C2 variation), the one action after the move choices
    redeal_action = NUM_PLAY + 256
    spec_file = "fishing-relatives.md"

    def __init__(self, rules: Rules):
        super().__init__(rules)
        self.capture_rule = rules.capture_rule
        self.plain_as_card = rules.plain_declaration_as_card
        self.self_raise = rules.self_raise
        self.absorbs = rules.declaration_absorbs_loose
        self.soy_locked = rules.soy_locked
        self.xeri_points = rules.xeri_points
        self.xeri_first = rules.xeri_on_first_card
        self.xeri_last = rules.xeri_on_last_card
        self.redeal_rule: str = rules.face_card_hand_redeal  # typed: compared at every turn
        self.dealer_peeks: bool = rules.dealer_sees_bottom
        #: what the move enumerator reads (``numeral_moves``)
        self.move_rules = (self.capture_rule, self.plain_as_card, self.self_raise, self.soy_locked)

    def full_deck(self) -> list[int]:
        return list(range(52))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class DeclarationState(FishingState[DeclarationGame]):
    """A Diloti round: the fishing deal with declarations (see the module docstring).

    Attributes beyond :class:`FishingState`: ``decls`` (the declarations on the table),
    ``first_play`` (no card played yet this round), ``deal_deck`` (the deck of the deal now
    running: differs from the recorded deck after a face-card redeal), ``redeal_from`` (history
    index where the running deal began), ``peeked`` (``dealer_sees_bottom``: the bottom card the
    dealer looked at before dealing, or ``()``).
    """

    def _layout(self) -> None:
        """C2: packets of 6 from the first player to the dealer, 4 to the table, the table check:
        a rejected layout goes back into the stock at hidden places, in table order
        (:meth:`FishingState._return_to_stock`, README §4), and the next 4 cards are laid out.
        With ``dealer_sees_bottom`` (C2 variation) the dealer has seen the pack's bottom card
        before dealing; it stays the bottom card (a returned card goes in above it, as under
        Xeri's exposed bottom card, B2) and so comes to the dealer in the round's last deal."""
        game = self.game
        deck = list(self._deck)
        self.peeked: tuple[int, ...] = tuple(deck[-1:]) if game.dealer_peeks else ()
        self.decls: list[Decl] = []
        #: what each move proved its player held after it (C3.4–C3.7): ``(seat, values as a bit
        #: mask, the move's index in the log)``, for determinizations (:meth:`_hand_needs`)
        self.held: list[tuple[int, int, int]] = []
        self.first_play = True
        self.deal_deck = tuple(deck)
        self.redeal_from = getattr(self, "redeal_from", 0)
        #: the reinsertion places of the deal now running (differ from the recorded ones after a redeal)
        self.deal_positions: list[int] = []
        size = game.rules.hand_size
        pos = 0
        for seat in self._order():
            self.hands[seat] = sorted(deck[pos:pos + size])
            pos += size
        table = deck[pos:pos + 4]
        stock = deck[pos + 4:]
        self.hands_end, self.stock_start = pos, pos + 4
        shown = list(table)
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
            self._return_to_stock(stock, table, keep_bottom=game.dealer_peeks)
            table = self._take_from_stock(stock, 4)
            shown.extend(table)
        self.floor = self._arrange(table)
        self.stock = tuple(stock)
        self.stock_known = ()
        self.log.append(("floor", tuple(shown), (), tuple(table)))

    def _set_table(self, table: dict[str, Any]) -> None:
        """A constructed position: ``declarations`` on the table (default none); ``first_card``:
        no card has been played this round yet (C4; default false)."""
        self.decls = list(table.pop("declarations", ()))
        self.first_play = table.pop("first_card", False)
        self.peeked = self.stock[-1:] if self.game.dealer_peeks else ()
        super()._set_table(table)

    # -- moves ---------------------------------------------------------------------------
    def owned(self, seat: int) -> int | None:
        """The index of the declaration ``seat`` owns, or ``None`` (C3.7)."""
        for i, d in enumerate(self.decls):
            if d.owner == seat:
                return i
        return None

    def moves(self, card: int, seat: int | None = None, public: bool = False) -> list[Move]:
        """Every legal move of ``card`` (in ``seat``'s hand) now, in a fixed order: captures
        (most cards first), declarations, raises, groups, lay. ``[]``: the card cannot be played.

        ``public``: the moves as the other players can list them, without the rule "still holds
        a card of the declared value" (it depends on the hidden hand). The engine offers this
        list as the choices of a played card, with the legal ones enabled, so that choice ids
        mean the same move in every determinization; its choices (``pending``) are these moves
        as plain ``(kind, loose, decls, value)`` tuples, equal to the :class:`Move` s listed here."""
        seat = self.cur if seat is None else seat
        listed, needs = self._listed(card, seat)
        if public:
            return list(map(Move._make, listed))
        rest = list(self.hands[seat])
        if card in rest:
            rest.remove(card)
        return [Move._make(m) for m in compress(listed, map(_held(rest).__and__, needs))]

    def _listed(self, card: int, seat: int) -> tuple[Sequence[RawMove], tuple[int, ...]]:
        """The public moves of ``card`` for ``seat`` (plain tuples) and what each needs in the
        hand after the play: a bit mask of values, one of which must be held (the declared value,
        C3.4–C3.6; for a capture leaving the owner's declaration, its value, C3.7), ``FREE`` for
        nothing. Shared with the move enumerator's memos: do not change the lists."""
        x = VALUE[card]
        if not x:
            out = self._face_moves(card)
            own = self.owned(seat)
            if own is None:
                return out, (FREE,) * len(out)
            if out[-1] == LAID:  # C3.7: the owner may not lay (== : a compiled tuple constant is boxed anew)
                out.pop()
            return out, (1 << self.decls[own].value,) * len(out)
        floor = self.floor
        numerals: list[int] = []
        last = -1  # the last numeral's position
        for i, c in enumerate(floor):  # a plain loop: compiled, it runs in C
            v = VALUE[c]
            if v:
                numerals.append(v)
                last = i
        vals = tuple(numerals)
        # faces come last; a constructed floor out of order: the numerals are not a prefix
        npos = [i for i, c in enumerate(floor) if VALUE[c]] if last >= len(vals) else None
        decls = self.decls
        game = self.game
        if decls:
            sides = game._sides
            side = sides[seat]
            sig = 0  # the signature, packed (``numeral_moves``)
            for d in decls:
                cards = 0
                for comp in d.components:
                    cards += len(comp)
                relation = 0 if d.owner == seat else 1 if sides[d.owner] == side else 2
                sig = add_declaration(sig, d.kind, d.value, cards, len(d.components), d.soy, relation)
            listed, needs = table_entry(x, vals, sig, game.move_rules)
        else:  # loose cards only: memoised whole
            base = loose_table_entry(x, vals, game.capture_rule)
            listed, needs = base[0], base[1]
        if npos is not None:
            return [(m[0], tuple(npos[i] for i in m[1]), m[2], m[3]) for m in listed], needs
        return listed, needs

    def _apply(self, action: int) -> None:
        if action >= NUM_PLAY:
            if action >= self.game.redeal_action:
                self._extra_action(action)
                return
            assert self.pending is not None
            card, options = self.pending
            self.pending = None
            self._note_held(self._choice_needs(card, len(options))[action - CHOOSE])
            self._resolve(card, options[action - CHOOSE])
            return
        hand = self.hands[self.cur]
        hand.remove(action)
        options, needs = self._listed(action, self.cur)
        if len(options) == 1:
            self._note_held(needs[0])
            self._resolve(action, options[0])
            return
        limit = self.game.max_choices
        if len(options) > limit:  # rare: keep the first ones and the last (lay, or a group)
            options = [*options[:limit - 1], options[-1]]
        self.pending = (action, list(options))
        self._legal = _enabled(self._choice_needs(action, len(options)), hand)

    def _choice_needs(self, card: int, choices: int) -> tuple[int, ...]:
        """The needs of the ``choices`` moves offered for ``card`` (:meth:`_listed`; past
        ``max_choices`` the first ones and the last)."""
        needs = self._listed(card, self.cur)[1]
        if len(needs) > choices:
            needs = (*needs[:choices - 1], needs[-1])
        return needs

    def _note_held(self, need: int) -> None:
        """The mover held a card of ``need`` after the move about to be logged (:attr:`held`)."""
        if need != FREE:
            self.held.append((self.cur, need, len(self.log)))

    def _decision_legal(self) -> list[int]:
        if self.pending is not None and self.cur != TERMINAL:
            card, options = self.pending
            return _enabled(self._choice_needs(card, len(options)), self.hands[self.cur])
        return super()._decision_legal()

    def _pinned_for(self, seat: int) -> tuple[int, ...]:
        """While a choice is open, the mover's hand for every other seat (its enabled choices
        depend on it)."""
        if self.pending is not None and self.cur != seat:
            return (*self.pinned, *self.hands[self.cur])
        return self.pinned

    def _stock_known_to(self, seat: int | None) -> tuple[int, ...]:
        """C2 variation ``dealer_sees_bottom``: the dealer also knows the bottom card."""
        return self.stock_known + self.peeked if seat == self.dealer else self.stock_known

    def _no_return_slots(self) -> tuple[int, ...]:
        return self.peeked

    def _hand_needs(self, seat: int) -> list[tuple[int, frozenset[int]]]:
        """C3.4–C3.7: a move that needs a card of value V in hand afterwards (a declaration, the
        owner's capture that leaves its declaration) shows the others that its player held one,
        not which. Unless that player has played a card of such a value since, or been dealt new
        cards (its hand then was all played, face up), it still holds one."""
        log = self.log
        out = []
        for other, need, at in self.held:
            if other == seat:
                continue
            later = log[at + 1:]
            if any(e[0] == "deal" for e in later) or any(
                    VALUE_BIT[e[2] if e[0] == "declare" else e[1]] & need for e in later
                    if e[0] == other or (e[0] == "declare" and e[1] == other)):
                continue
            out.append((other, frozenset(c for c in range(52) if VALUE_BIT[c] & need and VALUE[c])))
        return out

    def _face_moves(self, card: int) -> list[RawMove]:
        """C3.3: a face card takes one equal loose face card (all three of three); else it is laid."""
        rank = RANK[card]
        same = [i for i, c in enumerate(self.floor) if RANK[c] == rank]  # compiled: a loop in C
        if not same:
            return [LAID]
        if len(same) >= 3:
            return [("capture", tuple(same), (), 0)]
        return [("capture", (i,), (), 0) for i in same]

    # -- the engine's hooks --------------------------------------------------------------
    def _turn_legal(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        # without a declaration every card can be laid or take its face card (C3.3, C3.8)
        own = self.owned(seat) if self.decls else None
        legal = hand[:] if own is None else self._owner_legal(seat, own)
        if self.game.redeal_rule != "none" and self._may_redeal(seat):
            legal.append(self.game.redeal_action)
        return legal

    def _owner_legal(self, seat: int, own: int) -> list[int]:
        """The cards of ``seat``, owner of declaration ``own``, that have a legal move (C3.7).

        A card of the declaration's value always has one (taking it: every capture list of that
        value includes it); a card with a capture while another card of that value stays in hand
        has one. With strict plain declarations and no self-raise, a numeral x without a capture
        can only add to the own declaration, at its value V (C3.6, C3.7): it needs a V card left
        and a part worth V with the played card — loose numerals worth V − x, or an opponent's
        plain declaration of V − x that the card raises (C3.5). Other cards are decided by their
        full move list."""
        hand = self.hands[seat]
        game = self.game
        decl = self.decls[own]
        value = decl.value
        holders = sum(1 for c in hand if VALUE[c] == value)
        capturing = self._capturing_values() if holders else 0
        strict = game.plain_as_card == "strict" and not game.self_raise
        if strict:
            addable = holders and (decl.kind == "P" or not (decl.soy and game.soy_locked))
            reach = 1  # bit s: loose numerals worth s
            for c in self.floor:
                if VALUE[c]:
                    reach |= reach << VALUE[c]
            sides = game._sides
            for d in self.decls:
                if d.kind == "P" and sides[d.owner] != sides[seat]:
                    reach |= 1 << d.value
        legal = []
        for card in hand:
            x = VALUE[card]
            if x == value or capturing >> x & 1:
                legal.append(card)
                continue
            if strict and x:
                if addable and x < value and reach >> (value - x) & 1:
                    legal.append(card)
                continue
            held = _held([c for c in hand if c != card])
            for need in self._listed(card, seat)[1]:  # a plain loop: compiled, it runs in C
                if need & held:
                    legal.append(card)
                    break
        return legal

    def _capturing_values(self) -> int:
        """Bit ``x`` set (1 … 10): a numeral of value ``x`` has some capture (C3.2) — an equal
        loose numeral or declaration, or loose numerals below ``x`` (plain declarations too with
        ``full``) that add up to ``x`` (two or more of them, as each is below ``x``)."""
        addends = [VALUE[c] for c in self.floor if VALUE[c]]
        equal = 0
        for v in addends:
            equal |= 1 << v
        full = self.game.plain_as_card == "full"
        for d in self.decls:
            equal |= 1 << d.value
            if full and d.kind == "P":
                addends.append(d.value)
        addends.sort()
        out = equal
        reach = 1  # bit s: some addends taken so far (all below ``low``) add up to s
        low = 1
        for v in addends:
            if v >= low:  # the values low … v have exactly the addends taken so far below them
                out |= reach & ((1 << (v + 1)) - (1 << low))
                low = v + 1
            reach |= reach << v
        out |= reach & (0x7FF - ((1 << low) - 1))
        return out & 0x7FE

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
        keep = (self._deck, self.history, self.carry_in, len(self.history) + 1, self.reinsert_positions)
        FishingState.__init__(self, self.game, deck, self.dealer, self.match_scores)
        self.deal_positions = self.reinsert_positions
        self._deck, self.history, self.carry_in, self.redeal_from, self.reinsert_positions = keep
        self.log.append(("redeal", self.dealer))

    def _resolve(self, card: int, move: RawMove) -> None:
        """Apply ``move`` of ``card`` (C3), then end the turn."""
        seat = self.cur
        self.cards_left -= 1
        game = self.game
        floor = self.floor
        kind = move[0]
        if kind == "lay":
            lay_card(floor, card)
            self.log.append((seat, card, (), 0))
        elif kind == "capture":
            taken = tuple([floor[i] for i in move[1]])
            if move[2]:
                taken += tuple(c for d in move[2] for c in self.decls[d].cards)
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

    def _remove(self, move: RawMove) -> None:
        loose, gone = move[1], move[2]
        if loose:
            taken = 0  # the positions as a bit mask: a bit test per card, not a tuple search
            for i in loose:
                taken |= 1 << i
            self.floor = [c for i, c in enumerate(self.floor) if not taken >> i & 1]
        if gone:
            self.decls = [d for i, d in enumerate(self.decls) if i not in gone]

    def _declare(self, seat: int, card: int, move: RawMove) -> None:
        """A new plain declaration, a raise or a group (C3.4–C3.6, C3.9)."""
        game = self.game
        floor = self.floor
        kind, positions, indices, value = move
        loose = [floor[i] for i in positions]
        old = [self.decls[d] for d in indices]
        if kind == "declare":
            comps: list[tuple[int, ...]] = [(card, *loose)]
        elif kind == "raise":
            comps = [(*old[0].cards, card, *loose)]
        else:
            comps = self._components(card, loose, old, value)
        self._remove(move)
        kind = "P" if kind in ("declare", "raise") else "G"
        if game.absorbs and not old:
            same = [c for c in self.floor if VALUE[c] == value]
            if same:
                comps += [(c,) for c in same]
                self.floor = [c for c in self.floor if VALUE[c] != value]
                kind = "G"
        soy = kind == "G" and len(comps) == 2 and all(len(c) == 1 for c in comps)
        # tuple.__new__ runs in C; the named tuple's own constructor is Python code
        self.decls.append(tuple.__new__(Decl, (kind, value, seat, tuple(comps), soy)))
        self.log.append(("declare", seat, card, self.decls[-1], value))  # written as its text

    def _components(self, card: int, loose: list[int], old: list[Decl], value: int) -> list[tuple[int, ...]]:
        """The components of a group move: the existing group's, then a partition of the rest."""
        group = [d for d in old if d.kind == "G"]
        plains = [d for d in old if d.kind == "P"]
        items = [(VALUE[card], 0, 0)] + [(VALUE[c], 0, 0) for c in loose] + [(d.value, 2, 1) for d in plains]
        parts = partition(tuple(items), value)
        assert parts is not None  # a group move is listed only where its partition exists
        cards_of = [(card,)] + [(c,) for c in loose] + [d.cards for d in plains]
        comps = list(group[0].components) if group else []
        for part in parts:  # plain loops: compiled, they run in C (a generator is an object)
            comp: list[int] = []
            for i in part:
                comp += cards_of[i]
            comps.append(tuple(comp))
        return comps

    # -- notation and views -----------------------------------------------------------------
    def move_text(self, move: RawMove, card: int | None = None) -> str:
        """``capture 7C 5S P7@1``, ``declare P8 5C``, ``raise P4@1 to 9``, ``group G8 8C P8@0``, ``lay``
        (``move``: a :class:`Move` or its plain tuple)."""
        kind, positions, indices, value = move
        loose = [format_card(self.floor[i]) for i in positions]
        labels = [self.decls[d].label() for d in indices]
        if kind == "lay":
            return "lay"
        if kind == "capture":
            return " ".join(["capture", *loose, *labels])
        if kind == "raise":
            return " ".join([f"raise {labels[0]} to {value}", *(["with", *loose] if loose else [])])
        head = f"declare P{value}" if kind == "declare" else f"group G{value}"
        return " ".join([head, *loose, *labels])

    def option_cards(self, k: int) -> tuple[int, ...]:
        assert self.pending is not None
        move = self.pending[1][k]
        return tuple(self.floor[i] for i in move[1]) + tuple(c for d in move[2] for c in self.decls[d].cards)

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
        peek = f"|peek {format_cards(self.peeked)}" if seat == self.dealer and self.peeked else ""
        return f"{super().information_state_string(seat)}|decls {table}{peek}"

    def clone(self) -> Self:
        new = super().clone()
        new.decls = self.decls[:]
        new.held = self.held[:]
        return new

    def _running_deck(self) -> Sequence[int]:
        return self.deal_deck

    def _map_cards(self, rename: dict[int, int]) -> None:
        """After a redeal the running deal is what a seat knows: the copy starts from it (its
        deck is already the running deal's, renamed: :meth:`FishingState.resample_from_infostate`)."""
        self.peeked = tuple(rename.get(c, c) for c in self.peeked)
        if self.redeal_from:
            self.history = self.history[self.redeal_from:]
            self.redeal_from = 0
            self.reinsert_positions = self.deal_positions
        self.deal_deck = tuple(self._deck)

    def _rebuild_deck(self, head: list[int]) -> None:
        super()._rebuild_deck(head)
        self.deal_deck = tuple(self._deck)
        self.deal_positions = self.reinsert_positions

    def _finish(self) -> None:
        """C5 (a declaration cannot be left, C3.7; a constructed position might: its cards count
        as table cards)."""
        self.floor += [c for d in self.decls for c in d.cards]
        self.decls = []
        super()._finish()


def _held(cards: list[int]) -> int:
    """The values of ``cards`` as a bit mask, with :data:`FREE` (the needs' "nothing")."""
    held = FREE
    for c in cards:  # plain loops: compiled, they run in C (map and reduce would call back)
        held |= VALUE_BIT[c]
    return held


def _enabled(needs: tuple[int, ...], hand: list[int]) -> list[int]:
    """The choice ids of the listed moves whose need ``hand`` (held after the play) meets."""
    held = _held(hand)
    return [CHOOSE + k for k, need in enumerate(needs) if need & held]


def _normal(text: str) -> tuple[str, ...]:
    words = text.replace("(", " ").replace(")", " ").replace("|", " ").split()
    return (words[0].lower(), *sorted(w.upper() for w in words[1:]))


own_abc_caches(DeclarationGame, DeclarationState)
