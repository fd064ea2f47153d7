"""The rummy family's table (Biriba; Buraco shares it).

The board shows the stock, the discard pile, the pots, the kozi suit, every side's melds
(numbered for your side, marked clean or dirty and biriba/canastra), the meld being built and
the initial-meld minimum. Intents become the game's atomic actions (``docs/views-rummy.md``,
the notation of :mod:`kafenio.rummy.actions`):

===========  ================================================================================
key          intent
===========  ================================================================================
``s``        draw from the stock (``draw``)
``t``        take the discard pile (``take``)
``p``        pass when the stock is exhausted (``pass``)
``m`` / ``M``  meld the selected cards: ``meld+ c`` for each, then ``meld end`` (``M``: a wild
             at an end goes high)
``l``        lay the selected cards off onto one of your melds: asks for its number
``d``        discard the selected card (or the card under the cursor)
``x``        take back this turn's provisional opening melds (``retract``)
===========  ================================================================================

Each intent is checked step by step against the legal actions before anything is played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from kafenio.cards import SUITS, card_name, card_symbol, format_card
from kafenio.i18n import _, number
from kafenio.tui.app import HUMAN, Step, TableScreen
from kafenio.tui.widgets import to_card, to_cards, token_symbol
from kafenio.words import cards_count, points_count, pot_word

SUIT_NAMES = (_("spades"), _("hearts"), _("diamonds"), _("clubs"))

POT_ROW: dict[str | None, Callable[[], str]] = {
    None: lambda: _("Biribaki"), "morto": lambda: _("Morto"), "pozzetto": lambda: _("Pozzetto")}
"""The score sheet's pot row by the view's ``pot_name`` (the browser's ``potRow`` gives the same)."""

#: the first word of an action's notation → the key that does it
KEYS = {"draw": "s", "take": "t", "pass": "p", "meld+": "m", "discard": "d", "layoff": "l", "retract": "x"}


def meld_line(meld: dict[str, Any]) -> str:
    """One meld: its cards and marks (run or set, clean or dirty, biriba, bonus)."""
    marks = [_(meld["kind"]), _("clean") if meld["clean"] else _("dirty")]
    if meld.get("biriba"):
        marks.append(_("BIRIBA"))
    if meld.get("canastra"):
        marks.append(_("CANASTRA"))
    if meld.get("bonus"):
        marks.append(_("bonus {n}").format(n=number(meld["bonus"])))
    return "{cards}  ({marks})".format(cards=" ".join(token_symbol(t) for t in meld["cards"]),
                                       marks=", ".join(marks))


def my_side(view: dict[str, Any]) -> int:
    """The index of the human's side in the view's ``sides`` (and ``melds``)."""
    return next(i for i, seats in enumerate(view["sides"]) if HUMAN in seats)


class MeldNumberPrompt(ModalScreen[str | None]):
    """Asks which of your melds to lay off onto: a number, ``h`` after it for the high end."""

    BINDINGS: ClassVar = [Binding("escape", "cancel", _("cancel"))]

    def __init__(self, cards: list[int], melds: int):
        super().__init__()
        self.cards = cards
        self.melds = melds

    def compose(self) -> ComposeResult:
        """The question and the input."""
        with Vertical(id="prompt-box"):
            yield Static(Text(_("Lay off {cards} onto which of your melds (1–{n})? Add h for the high end; "
                                "Escape cancels.").format(cards=", ".join(map(card_name, self.cards)),
                                                          n=self.melds)))
            yield Input(placeholder=_("meld number"), id="meld-number")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: the answer."""
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        """Escape: no lay-off."""
        self.dismiss(None)


class RummyTable(TableScreen):
    """Stock, pile, pots, kozi and melds; keys for draw, take, meld, lay off, discard."""

    BINDINGS: ClassVar = [
        Binding("s", "steps('draw')", _("draw")),
        Binding("t", "steps('take')", _("take pile")),
        Binding("p", "steps('pass')", _("pass"), show=False),
        Binding("m", "meld('meld end', 'meld end high')", _("meld")),
        Binding("M", "meld('meld end high', 'meld end')", _("meld, wild high"), show=False),
        Binding("l", "layoff", _("lay off")),
        Binding("d", "discard", _("discard")),
        Binding("x", "steps('retract')", _("retract"), show=False),
    ]

    def compose_board(self) -> ComposeResult:
        """The table line and the melds."""
        yield Static(id="table-line", classes="board-line")
        yield Static(id="melds", classes="board-line")

    def hand_of(self, view: dict[str, Any]) -> list[int]:
        """The ``hand`` of the view."""
        return to_cards(view["hand"])

    def show_board(self, view: dict[str, Any]) -> None:
        """Stock, pile, pots, kozi, the others' hands; the melds and the turn's building."""
        pile = view["discard_pile"]
        top = to_card(pile[-1]) if pile else None
        size = view.get("discard_pile_size", len(pile))
        parts = [_("Stock: {n}").format(n=number(view["stock"])),
                 _("Discard pile: {cards}, top {card} ({name})").format(
                     cards=cards_count(size), card=card_symbol(top), name=card_name(top)) if top is not None
                 else _("Discard pile: empty")]
        if view.get("kozi"):
            suit = SUITS.index(view["kozi"])
            parts.append(_("Kozi: {symbol} ({suit})").format(symbol="♠♥♦♣"[suit], suit=SUIT_NAMES[suit]))
        mine = my_side(view)
        pots = view["pots"]
        parts.append(_("{pot} left: {n}; yours {mine}").format(
            pot=pot_word(view.get("pot_name"), many=True).capitalize(), n=number(len(pots["left"])),
            mine=_("taken") if pots["taken"][mine] else _("not taken")))
        hands = ", ".join(_("{seat} {n}").format(seat=self.host.seat_label(s), n=number(n))
                          for s, n in enumerate(view["hand_sizes"]) if s != HUMAN)
        lines = [" · ".join(parts), _("Cards in hand: {hands}").format(hands=hands)]
        face_down = pots.get("face_down") or []
        if len(face_down) > HUMAN and face_down[HUMAN]:     # buraco.md §5
            lines.append(_("Your {pot} is taken, {cards}, face down until your partner has played").format(
                pot=pot_word(view.get("pot_name")), cards=cards_count(face_down[HUMAN])))
        turn = view.get("turn") or {}
        if turn.get("opening_minimum") and view["current_player"] == HUMAN:
            lines.append(_("Initial meld: {done} of {needed} points melded this turn").format(
                done=number(turn.get("provisional_points", 0)), needed=number(turn["opening_minimum"])))
        if turn.get("building") and view["current_player"] == HUMAN:
            lines.append(_("Building a meld: {cards} (m ends it)").format(
                cards=" ".join(token_symbol(t) for t in turn["building"])))
        self.query_one("#table-line", Static).update(Text("\n".join(lines)))
        meld_lines = []
        for side, melds in enumerate(view["melds"]):
            owner = _("Your melds") if side == mine else _("Melds of {seats}").format(
                seats=", ".join(self.host.seat_label(s) for s in view["sides"][side]))
            meld_lines.append(f"{owner}:" if melds else f"{owner}: —")
            meld_lines.extend(f"  {k + 1}. {meld_line(m)}" if side == mine else f"  · {meld_line(m)}"
                              for k, m in enumerate(melds))
        self.query_one("#melds", Static).update(Text("\n".join(meld_lines)))

    def deal_end(self, view: dict[str, Any]) -> list[Any]:
        """Every hand laid face up (``leftover``, ``docs/views-rummy.md``): each seat's cards and
        their points as counted against its side, and a pot taken but never played."""
        pot = pot_word(view.get("pot_name"))
        lines = [_("Cards left in the hands, counted against their side:")]
        for seat, left in enumerate(view["leftover"]):
            cards = " ".join(map(token_symbol, left["cards"])) or "—"
            line = _("{seat}: {cards} ({points})").format(
                seat=self.host.seat_label(seat), cards=cards, points=points_count(left["points"]))
            unplayed = left["unplayed_pot"]
            if unplayed:
                line += "; " + _("{pot} not played, {n}: {cards} ({points})").format(
                    pot=pot, n=cards_count(unplayed["size"]), points=points_count(unplayed["points"]),
                    cards=" ".join(map(token_symbol, unplayed["cards"] or [])) or _("face down"))
            lines.append(line)
        return [Text("\n".join(lines))]

    def sheet_labels(self, view: dict[str, Any]) -> dict[str, str]:
        """The pot's row named as the game names its pot: biribaki, morto or pozzetto."""
        return {"pot": POT_ROW[view.get("pot_name")]()}

    def key_for(self, text: str) -> str | None:
        """The intent key of an action (``M`` for a meld ended high)."""
        if text == "meld end high":
            return "M"
        return KEYS.get(text.split()[0]) if text != "meld end" else "m"

    # -- intents ---------------------------------------------------------------------------
    def action_steps(self, *steps: str) -> None:
        """Play fixed steps (draw, take, pass, retract)."""
        self.try_steps(list(steps))

    def action_meld(self, end: str, other_end: str) -> None:
        """Meld the selected cards (adding to the meld being built, if one is)."""
        cards = self.hand.selected_cards()
        building = (self.view.get("turn") or {}).get("building")
        if not cards and not building:
            self.say(_("Select the cards to meld first (space or a click), then press m."))
            return
        steps: list[Step] = [f"meld+ {format_card(c)}" for c in cards]
        self.try_steps([*steps, (end, other_end)])

    def action_layoff(self) -> None:
        """Ask for the meld, then lay the selected cards off onto it."""
        cards = self.selected_or_focused()
        melds = self.view["melds"][my_side(self.view)]
        if not cards or not melds:
            self.say(_("Select cards to lay off; your side needs a meld on the table.") if not melds
                     else _("Select the cards to lay off first."))
            return

        def answer(text: str | None) -> None:
            """Lay off onto the meld numbered ``text`` (``3`` or ``3h``), if there is one."""
            if not text:
                self.say(_("No lay-off."))
                return
            high = text.lower().endswith("h")
            number = text[:-1] if high else text
            if not number.isdigit() or not 1 <= int(number) <= len(melds):
                self.say(_("There is no meld {text}; your melds are numbered 1–{n}.").format(
                    text=text, n=len(melds)))
                return
            k = int(number) - 1
            ends = ("high", "") if high else ("", "high")
            self.try_steps([tuple(f"layoff {k} {format_card(c)} {end}".strip() for end in ends)
                            for c in cards])

        self.app.push_screen(MeldNumberPrompt(cards, len(melds)), answer)

    def action_discard(self) -> None:
        """Discard the selected card, or the card under the cursor."""
        cards = self.selected_or_focused()
        if len(cards) != 1:
            self.say(_("Select exactly one card to discard."))
            return
        self.try_steps([f"discard {format_card(cards[0])}"])


TABLE_SCREEN = RummyTable
