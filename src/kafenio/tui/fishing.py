"""The fishing family's table (Basra, Pişti, Xeri and Diloti).

The board shows the floor (or the pile's top cards), Diloti's declarations, the stock, each
side's captured cards and its specials (basras, piştis, xeres), the last capture and the deal's
running points. Enter on a card of the
hand plays it; when the played card can capture in several ways, the choices are listed with
the keys ``1`` … ``9`` (view keys: ``docs/views-fishing.md``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from kafenio.cards import format_card
from kafenio.i18n import _, n_, number
from kafenio.tui.app import TableScreen, cell_text, side_label
from kafenio.tui.widgets import CardRow, cards_spoken, to_cards, token_symbol
from kafenio.words import cards_count, points_count

#: capture choices get the keys 1 … 9 (more stay reachable in the actions list)
MAX_CHOICE_KEYS = 9

#: the top cards of a pile that are drawn (the caption counts the whole pile)
PILE_SHOWN = 12


#: a count of special captures in words, by the game's ``special_name``
SPECIAL_COUNTS = {
    "basras": lambda n: n_("{n} basra", "{n} basras", n),
    "pistis": lambda n: n_("{n} pişti", "{n} piştis", n),
    "xeris": lambda n: n_("{n} xeri", "{n} xeres", n),
}


def special_count(special: str, n: int) -> str:
    """``n`` special captures (basras, piştis, xeres: ``special`` is the game's ``special_name``)
    in words, in the current language's plural form and digits."""
    return SPECIAL_COUNTS[special](n).format(n=number(n))


class FishingTable(TableScreen):
    """Floor, captures and specials; Enter plays the card under the cursor."""

    BINDINGS: ClassVar = [
        Binding("p", "play", _("play card")),
        *[Binding(str(k), f"choose({k - 1})", _("capture choice {k}").format(k=k), show=False)
          for k in range(1, MAX_CHOICE_KEYS + 1)],
    ]

    def compose_board(self) -> ComposeResult:
        """Floor caption and cards, then the sides' captures."""
        yield Static(id="floor-caption", classes="caption")
        yield CardRow(id="floor")
        yield Static(id="captures", classes="board-line")

    def hand_of(self, view: dict[str, Any]) -> list[int]:
        """The ``hand`` of the view."""
        return to_cards(view["hand"])

    def show_board(self, view: dict[str, Any]) -> None:
        """Floor, stock, captures per side, last capture, running points, pending choice."""
        game = self.host.game
        floor = to_cards(view["floor"])
        if "pile_face_down" in view:                     # Pişti, Xeri: only the top card counts
            caption = _("Pile: {cards} (face down: {down}), top {top} · stock: {stock}").format(
                cards=cards_count(len(floor) + view["pile_face_down"]), down=number(view["pile_face_down"]),
                top=cards_spoken(floor[-1:]), stock=cards_count(view["stock"]))
            floor = floor[-PILE_SHOWN:]
        else:
            caption = _("Floor: {cards} ({names}) · stock: {stock}").format(
                cards=cards_count(len(floor)), names=cards_spoken(floor), stock=cards_count(view["stock"]))
        if view["stock_bottom_known"]:  # seen at the bottom of the stock (views-fishing.md)
            caption += " · " + _("bottom of the stock: {cards}").format(
                cards=cards_spoken(to_cards(view["stock_bottom_known"])))
        self.query_one("#floor-caption", Static).update(Text(caption))
        self.query_one("#floor", CardRow).show(floor)
        special = game.special_name
        lines = []
        for side, specials in enumerate(view[special]):
            if view["captured"] is None:  # README §8: the piles lie face down, uncounted
                lines.append(f"{side_label(game, side)}: {special_count(special, specials['count'])} "
                             f"({points_count(specials['points'])})")
                continue
            lines.append(_("{side}: captured {cards}, {specials} ({points}), card points {card_points}").format(
                side=side_label(game, side), cards=cards_count(view["captured"][side]),
                specials=special_count(special, specials["count"]), points=points_count(specials["points"]),
                card_points=number(view["deal_points"][side]["card_points"])))
        for declaration in view.get("declarations") or []:   # Diloti
            lines.append(_("Declaration {text}, {owner}'s").format(
                text=declaration.get("text") or cell_text(declaration),
                owner=self.host.seat_label(declaration["owner"])))
        last = view.get("last_capture")
        if last:
            lines.append(_("Last capture: {seat} took {cards}").format(
                seat=self.host.seat_label(last["seat"]), cards=" ".join(map(token_symbol, last["cards"]))))
        pending = view.get("pending")
        if pending and view["current_player"] == view["seat"]:
            lines.append(_("You played {card}: choose what it captures (keys 1–{n}).").format(
                card=pending["card"], n=min(len(pending["choices"]), MAX_CHOICE_KEYS)))
        self.query_one("#captures", Static).update(Text("\n".join(lines)))

    def key_for(self, text: str) -> str | None:
        """Enter for a card to play, the number key of a capture choice."""
        if text.startswith("play "):
            return _("Enter")
        pending = self.view.get("pending") or {}
        for k, choice in enumerate(pending.get("choices", [])[:MAX_CHOICE_KEYS]):
            if choice["text"] == text:
                return str(k + 1)
        return None

    def card_chosen(self, card: int) -> None:
        """Enter on a card plays it."""
        self.play_card(card)

    def play_card(self, card: int) -> None:
        """Play ``card``; if a capture choice follows, move to the list of choices."""
        if self.try_steps([f"play {format_card(card)}"]) and self.view.get("pending"):
            self.actions.focus()
            self.say(_("Choose what {card} captures: press 1–{n} or pick from the list.").format(
                card=format_card(card), n=min(len(self.view["pending"]["choices"]), MAX_CHOICE_KEYS)))

    def action_play(self) -> None:
        """Play the selected card, or the card under the cursor."""
        cards = self.selected_or_focused()
        if len(cards) != 1:
            self.say(_("Select one card to play (arrows to move, Enter plays the card under the cursor)."))
            return
        self.play_card(cards[0])

    def action_choose(self, k: int) -> None:
        """Take capture choice ``k`` (0-based) of the pending play."""
        choices = (self.view.get("pending") or {}).get("choices", [])
        if k >= len(choices):
            self.say(_("There is no capture choice {k} now.").format(k=k + 1))
            return
        self.try_steps([choices[k]["text"]])



TABLE_SCREEN = FishingTable
