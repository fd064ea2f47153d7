"""The table's building blocks: cards a person can focus and select, the hand, the legal actions.

Every card shows its short symbol (``7♥``) and carries its spoken name (``"seven of hearts"``)
as its tooltip and in :attr:`CardWidget.label`; the focused card's name is announced on the
table's status line, so a screen reader following the terminal hears what is under the cursor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual.binding import Binding
from textual.containers import Container, Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from kafenio.cards import JOKER, RANK, SUIT, card_name, card_symbol, parse_card
from kafenio.i18n import _

W = TypeVar("W", bound=Widget)

#: columns a card takes (``table.tcss``: ``.card`` width)
CARD_WIDTH = 6

#: a card the view does not show (Pişti's face-down cards)
HIDDEN = "??"

#: hand orders: by suit then rank, or by rank then suit (aces high in both; jokers last)
SORT_ORDERS = ("suit", "rank")


def to_card(value: Any) -> int:
    """A card type from a view entry: a card type already, or a card in the spec's notation."""
    return value if isinstance(value, int) else parse_card(str(value))


def to_cards(values: Iterable[Any]) -> list[int]:
    """Card types from a view's card list (ints or notation strings)."""
    return [to_card(v) for v in values]


def token_symbol(token: str) -> str:
    """A card as a view writes it, with suit symbols: ``2C=6H`` → ``2♣=6♥``; ``??`` (hidden) stays."""
    return "=".join(part if part == HIDDEN else card_symbol(to_card(part)) for part in token.split("="))


def cards_spoken(cards: Iterable[int]) -> str:
    """Cards as spoken names separated by commas (``"five of hearts, six of hearts"``)."""
    return ", ".join(card_name(c) for c in cards) or _("no cards")


def _rank_high(c: int) -> int:
    return 14 if RANK[c] == 1 else RANK[c]


def sort_key(order: str):
    """The sort key of a hand order (:data:`SORT_ORDERS`)."""
    if order == "rank":
        return lambda c: (c == JOKER, _rank_high(c), SUIT[c])
    return lambda c: (c == JOKER, SUIT[c], _rank_high(c))


class CardFace(Static):
    """A face-up card that is only shown (a floor card, a pile top)."""

    def __init__(self, card: int | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.card = JOKER if card is None else card
        self.shown: int | None = None
        self.show_card(self.card)

    def show_card(self, card: int) -> None:
        """Show ``card`` (a no-op when it already shows it)."""
        self.card = card
        if self.shown != card:
            self.shown = card
            self.update(card_symbol(card))
            self.set_class(SUIT[card] in (1, 2), "red")


class CardWidget(CardFace, can_focus=True):
    """One face-up card: focus it with the arrows or a click; space or a click selects it."""

    BINDINGS: ClassVar = [
        Binding("space", "toggle", _("select"), show=False),
        Binding("enter", "choose", _("play this card"), show=False),
    ]

    class Chosen(Message):
        """Enter was pressed on a card (the fishing games play it)."""

        def __init__(self, card: CardWidget):
            super().__init__()
            self.card = card

    class Focused(Message):
        """A card got the focus (the table announces its name)."""

        def __init__(self, card: CardWidget):
            super().__init__()
            self.card = card

    def __init__(self, card: int, **kwargs: Any):
        self.selected = False
        super().__init__(card, **kwargs)
        self.tooltip = self.label

    @property
    def label(self) -> str:
        """What a screen reader says: the card's name, and "selected" when it is."""
        name = card_name(self.card)
        return _("{card}, selected").format(card=name) if self.selected else name

    def set_card(self, card: int, selected: bool) -> None:
        """Show ``card``, selected or not."""
        if (card, selected) == (self.shown, self.selected):
            return
        self.selected = selected
        self.set_class(selected, "selected")
        self.show_card(card)
        self.tooltip = self.label

    def toggle(self) -> None:
        """Select or deselect the card."""
        self.set_card(self.card, not self.selected)
        self.post_message(self.Focused(self))

    def action_toggle(self) -> None:
        """Space: select or deselect."""
        self.toggle()

    def action_choose(self) -> None:
        """Enter: choose the card."""
        self.post_message(self.Chosen(self))

    def on_click(self) -> None:
        """A click selects or deselects the card."""
        self.toggle()

    def on_focus(self) -> None:
        """Announce the focused card."""
        self.post_message(self.Focused(self))


def sync_children(container: Widget, kind: type[W], count: int, make: Callable[[], W]) -> list[W]:
    """Make ``container`` hold exactly ``count`` children of ``kind`` (reusing the ones it has)."""
    widgets = list(container.query_children(kind))
    for extra in widgets[count:]:
        extra.remove()
    new = [make() for _i in range(count - len(widgets))]
    if new:
        container.mount_all(new)
    return widgets[:count] + new


class CardRow(Horizontal):
    """A row of face-up cards that is not a hand: a floor, a meld, a discard pile top."""

    def show(self, cards: Sequence[int]) -> None:
        """Show ``cards`` (not focusable: the board's text names them)."""
        for w, c in zip(sync_children(self, CardFace, len(cards), lambda: CardFace(classes="card")),
                        cards, strict=True):
            w.show_card(c)


class HandWidget(Container):
    """The human's hand: focusable cards, left/right to move, space or click to select.

    The cards wrap onto more rows when the hand is wider than the terminal. The selection
    survives a re-sort and a refresh that does not change the hand.
    """

    BINDINGS: ClassVar = [
        Binding("left", "move(-1)", _("previous card"), show=False),
        Binding("right", "move(1)", _("next card"), show=False),
        Binding("home", "move_to(0)", _("first card"), show=False),
        Binding("end", "move_to(-1)", _("last card"), show=False),
    ]

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.cards: list[int] = []
        self.order = SORT_ORDERS[0]

    def on_resize(self) -> None:
        """As many cards per row as fit."""
        self.styles.grid_size_columns = max(1, self.size.width // CARD_WIDTH)

    @property
    def card_widgets(self) -> list[CardWidget]:
        """The card widgets, in display order."""
        return list(self.query_children(CardWidget))

    def selected_cards(self) -> list[int]:
        """The selected cards, in display order."""
        return [w.card for w in self.card_widgets if w.selected]

    def focused_card(self) -> int | None:
        """The card under the cursor, if a card has the focus."""
        focused = self.screen.focused
        return focused.card if isinstance(focused, CardWidget) and focused.parent is self else None

    def show(self, cards: Iterable[int]) -> None:
        """Show the hand ``cards`` (sorted by the current order)."""
        cards = sorted(cards, key=sort_key(self.order))
        keep = self.selected_cards() if sorted(cards) == sorted(self.cards) else []
        self.cards = cards
        widgets = sync_children(self, CardWidget, len(cards), lambda: CardWidget(JOKER, classes="card"))
        for w, c in zip(widgets, cards, strict=True):
            selected = c in keep
            if selected:
                keep.remove(c)
            w.set_card(c, selected)

    def clear_selection(self) -> None:
        """Deselect every card."""
        for w in self.card_widgets:
            w.set_card(w.card, False)

    def sort(self, order: str) -> None:
        """Re-sort the hand by ``order`` (``"suit"`` or ``"rank"``), keeping the selection."""
        self.order = order
        self.show(self.cards)

    def action_move(self, step: int) -> None:
        """Move the focus to the neighbouring card."""
        widgets = self.card_widgets
        if not widgets:
            return
        focused = self.screen.focused
        index = widgets.index(focused) if focused in widgets else 0
        widgets[(index + step) % len(widgets)].focus()

    def action_move_to(self, index: int) -> None:
        """Move the focus to the first or last card."""
        widgets = self.card_widgets
        if widgets:
            widgets[index].focus()


class ActionList(OptionList):
    """The legal actions of the human's turn, each with the key that does it; Enter plays one."""

    class Play(Message):
        """An action was chosen from the list."""

        def __init__(self, action: int):
            super().__init__()
            self.action = action

    def show(self, entries: Sequence[tuple[int, str, str | None]]) -> None:
        """Show ``(action id, notation, key or None)`` entries (none when not the human's turn)."""
        self.clear_options()
        self.add_options([Option(Text(f"{text}  [{key}]" if key else text), id=str(action))
                          for action, text, key in entries])
        self.highlighted = 0 if entries else None

    def highlight_action(self, action: int) -> None:
        """Move the highlight to ``action``."""
        self.highlighted = self.get_option_index(str(action))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on an entry plays it."""
        event.stop()
        self.post_message(self.Play(int(event.option.id)))
