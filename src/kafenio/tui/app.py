"""The terminal table: a person at seat 0 plays whole matches against computer players.

:class:`TableApp` owns the match (:class:`kafenio.engine.match.Match`), the record and the bots;
the table screen of the game's family (:mod:`kafenio.tui.rummy`, :mod:`kafenio.tui.fishing`,
both built on :class:`TableScreen`) shows the human's view and turns key presses into actions.
Bots think in a worker thread on a copy of the deal and play at a readable pace (``delay``
seconds between seats, a quarter of it between the steps of one seat's turn), so the interface
never blocks. After every deal the itemised score sheet is shown with the match totals; at the
end of the match a new one is offered.
"""

from __future__ import annotations

import importlib
import numbers
import random
import sys
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import IO, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Log, Static

from kafenio.agents import Player
from kafenio.agents.hints import Hint, suggest
from kafenio.agents.levels import make_named_player
from kafenio.agents.names import computer_label, computer_names
from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.engine.game import Game, Seat, State
from kafenio.engine.match import DealResult, Match
from kafenio.engine.records import Recorder
from kafenio.i18n import _, n_, number
from kafenio.tui.widgets import ActionList, CardWidget, HandWidget
from kafenio.words import game_name, points_count

HUMAN = 0

#: one step of a human intent: a notation, or alternatives of which the first legal one is played
Step = str | tuple[str, ...]

#: game name → module of its family's table screen (the module defines ``TABLE_SCREEN``)
FAMILIES = {
    "biriba": "kafenio.tui.rummy",
    "buraco": "kafenio.tui.rummy",
    "basra": "kafenio.tui.fishing",
    "pisti": "kafenio.tui.fishing",
    "xeri": "kafenio.tui.fishing",
    "diloti": "kafenio.tui.fishing",
}


def bot_kinds(game: Game, kinds: list[str]) -> list[str]:
    """The kinds of the seats other than the human's: one kind for all, or one per seat.

    Raises:
        KafenioError: a list of the wrong length.
    """
    others = game.num_players() - 1
    if len(kinds) == 1:
        return kinds * others
    if len(kinds) != others:
        raise KafenioError(n_("{game} has {n} computer seat; give one player kind or {n}, not {m}",
                              "{game} has {n} computer seats; give one player kind or {n}, not {m}", others)
                           .format(game=game_name(game.name), n=number(others), m=number(len(kinds))))
    return list(kinds)


def side_label(game: Game, side: int) -> str:
    """The name of a side as the human sees it: "you", "your side", "opponents", "side 3"."""
    if side == game.side_of(HUMAN):
        return _("you") if len(game.seats_of(side)) == 1 else _("your side")
    if game.num_sides == 2:
        return _("opponent") if len(game.seats_of(side)) == 1 else _("opponents")
    return _("side {n}").format(n=side + 1)




SHEET_LABELS: dict[str, Callable[[], str]] = {
    "melds": lambda: _("Melds"), "bonuses": lambda: _("Bonuses"), "closing": lambda: _("Closing"),
    "hands": lambda: _("Cards left in hand"), "pot": lambda: _("Pot"), "cut": lambda: _("Exact cut"),
    "cards": lambda: _("Cards captured"), "majority": lambda: _("Majority"),
    "card_points": lambda: _("Card points"), "point_cards": lambda: _("Point cards"),
    "basras": lambda: _("Basras"), "pistis": lambda: _("Piştis"), "xeris": lambda: _("Xeres"),
    "total": lambda: _("Total"), "majority_carried_in": lambda: _("Majority carried in"),
    "majority_carried_out": lambda: _("Majority carried to the next deal"),
    "left_on_floor": lambda: _("Left on the floor"),
    "last_capturer_takes": lambda: _("The last to capture takes the floor"),
}
"""The score sheet's keys (:meth:`~kafenio.engine.game.State.score_sheet`) in words: the
browser table's labels (``web/src/table.ts``) and the fishing games' notes."""

SHEET_HIDDEN = frozenset({"game", "final", "sides", "side", "seats", "pot_points"})
"""Sheet keys not shown: the game and whether the sheet is final are known, sides are columns,
and ``pot_points`` repeats the pot's row."""


def sheet_label(key: str, labels: Mapping[str, str] | None = None) -> str:
    """A score-sheet key in words: ``labels``' (a game's own words, :meth:`TableScreen.sheet_labels`),
    else :data:`SHEET_LABELS`'; an unknown key as written."""
    if labels and key in labels:
        return labels[key]
    label = SHEET_LABELS.get(key)
    return label() if label else key.replace("_", " ")


def cell_text(value: Any) -> str:
    """One score-sheet value as short text: lists joined (one line per dict), a bonus as its
    reason, meld and points, a special capture as its count and points, the last capture as its
    seat and cards, another dict as ``key value`` pairs."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, numbers.Real):
        return number(value)
    if isinstance(value, list):
        return ("\n" if any(isinstance(v, dict) for v in value) else " ").join(cell_text(v) for v in value)
    if isinstance(value, dict):
        if value.keys() == {"meld", "bonus", "why"}:
            return _("{why} {meld}: {bonus}").format(why=value["why"], meld=value["meld"], bonus=number(value["bonus"]))
        if "count" in value and "points" in value:
            return f"{number(value['count'])} ({points_count(value['points'])})"
        if value.keys() == {"seat", "cards"}:
            return _("{cards} (seat {n})").format(n=value["seat"], cards=cell_text(value["cards"]))
        return ", ".join(f"{sheet_label(k)} {cell_text(v)}" for k, v in value.items())
    return str(value)


def sheet_renderables(sheet: dict[str, Any], game: Game, labels: Mapping[str, str] | None = None) -> list[Any]:
    """An itemised score sheet: its notes, then one column per side and one row per item.

    The sheet is the game's :meth:`~kafenio.engine.game.State.score_sheet`; its ``sides`` list
    (one dict per side, ``side`` and ``seats`` naming it) becomes the table. ``labels``: the
    rows the game names in its own words (:func:`sheet_label`).
    """
    notes = [f"{sheet_label(k)}: {cell_text(v)}" for k, v in sheet.items()
             if k not in SHEET_HIDDEN and cell_text(v) != "—"]
    out: list[Any] = [Text("\n".join(notes))] if notes else []
    sides = sheet.get("sides")
    if isinstance(sides, list) and sides and all(isinstance(s, dict) for s in sides):
        table = Table(title=_("Score sheet"), title_justify="left")
        table.add_column(_("item"))
        for i, side in enumerate(sides):
            table.add_column(side_label(game, side.get("side", i)), justify="right")
        keys = list(dict.fromkeys(k for side in sides for k in side if k not in SHEET_HIDDEN))
        keys.sort(key=lambda k: k == "total")  # the total last (Buraco adds its exact cut after it)
        for key in keys:
            table.add_row(sheet_label(key, labels), *[cell_text(side.get(key)) for side in sides],
                          style="bold" if key == "total" else None)
        out.append(table)
    return out


def totals_table(match: Match) -> Table:
    """Every finished deal's score per side, and the match totals."""
    game = match.game
    table = Table(title=_("Match"), title_justify="left")
    table.add_column(_("deal"))
    for side in range(game.num_sides):
        table.add_column(side_label(game, side), justify="right")
    for deal in match.deals:
        table.add_row(number(deal.index + 1), *map(number, deal.scores))
    table.add_row(_("total"), *map(number, match.totals), style="bold")
    return table


class ScoreSheetScreen(ModalScreen[bool]):
    """The score sheet after a deal; at the end of the match, the winner and a new-match prompt.

    Dismissed with ``True`` to go on (next deal, or a new match) and ``False`` to quit.
    """

    BINDINGS: ClassVar = [
        Binding("enter,space", "go_on", _("continue")),
        Binding("y", "go_on", _("new match"), show=False),
        Binding("n,q,escape", "stop", _("quit")),
    ]

    def __init__(self, result: DealResult, match: Match, shown: list[Any] | None = None,
                 labels: Mapping[str, str] | None = None):
        """``shown``: what the deal's end lays face up, shown above the sheet
        (:meth:`TableScreen.deal_end`); ``labels``: the sheet's rows in the game's words
        (:meth:`TableScreen.sheet_labels`)."""
        super().__init__()
        self.result = result
        self.match = match
        self.shown = shown or []
        self.labels = labels

    def compose(self) -> ComposeResult:
        """The deal's sheet, the totals and what to press."""
        game = self.match.game
        with Vertical(id="sheet-box"):
            yield Static(_("Deal {n} is over").format(n=number(self.result.index + 1)), id="sheet-title")
            with VerticalScroll(id="sheet-body"):
                for part in self.shown:
                    yield Static(part, classes="sheet-part")
                for side, score in enumerate(self.result.scores):
                    yield Static(_("{side}: {points} this deal").format(
                        side=side_label(game, side), points=points_count(score)), classes="sheet-side")
                for part in sheet_renderables(self.result.sheet, game, self.labels):
                    yield Static(part, classes="sheet-part")
                yield Static(totals_table(self.match), id="sheet-totals")
            yield Static(self.prompt(), id="sheet-prompt")
        yield Footer()

    def prompt(self) -> str:
        """What happens next and which key does it."""
        if self.match.winner is None:
            return _("Press Enter for the next deal, or q to quit.")
        won = _("You win the match!") if self.match.winner == self.match.game.side_of(HUMAN) else \
            _("{side} wins the match.").format(side=side_label(self.match.game, self.match.winner))
        return won + " " + _("A new match? Press y (or Enter) for a new one, n to quit.")

    def action_go_on(self) -> None:
        """Next deal, or a new match once this one is over."""
        self.dismiss(True)

    def action_stop(self) -> None:
        """Leave the table."""
        self.dismiss(False)


class TableScreen(Screen):
    """The table during a deal: the family's board, the hand, the legal actions, the log.

    A family subclass implements :meth:`compose_board`, :meth:`show_board`, :meth:`hand_of`
    and :meth:`key_for`, and adds its key bindings that turn intents into actions.
    """

    BINDINGS: ClassVar = [
        Binding("h", "hint", _("suggest")),
        Binding("u", "sort('suit')", _("sort by suit")),
        Binding("r", "sort('rank')", _("sort by rank")),
        Binding("escape", "clear", _("clear selection")),
        Binding("a", "focus_actions", _("actions list")),
        Binding("c", "focus_hand", _("cards")),
        Binding("q", "app.quit", _("quit")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view: dict[str, Any] = {}

    @property
    def host(self) -> TableApp:
        """The app that owns the match."""
        return self.app  # type: ignore[return-value]

    # -- family hooks ------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        """The family's board widgets (what lies on the table)."""
        raise NotImplementedError

    def show_board(self, view: dict[str, Any]) -> None:
        """Update the board from the human's ``view``."""
        raise NotImplementedError

    def hand_of(self, view: dict[str, Any]) -> list[int]:
        """The human's hand (card types) in ``view``."""
        raise NotImplementedError

    def key_for(self, text: str) -> str | None:
        """The key that plays the legal action written ``text``, if one does."""
        raise NotImplementedError

    def card_chosen(self, card: int) -> None:
        """Enter on a card in the hand; by default it selects or deselects it."""

    def deal_end(self, view: dict[str, Any]) -> list[Any]:
        """What the end of the deal lays face up, from the human's final ``view``, as renderables
        for the score sheet screen (none by default)."""
        return []

    def sheet_labels(self, view: dict[str, Any]) -> dict[str, str]:
        """Score-sheet rows the game names in its own words, from the human's final ``view``
        (none by default: :data:`SHEET_LABELS`)."""
        return {}

    # -- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Info line, board, hand, actions and log, status line, key footer."""
        yield Static(id="info")
        with Vertical(id="board"):
            yield from self.compose_board()
        yield Static(_("Your hand"), classes="caption")
        yield HandWidget(id="hand")
        with Horizontal(id="lower"):
            with Vertical(id="actions-box"):
                yield Static(_("Legal actions (Enter plays)"), classes="caption")
                yield ActionList(id="actions")
            with Vertical(id="log-box"):
                yield Static(_("Moves"), classes="caption")
                yield Log(id="log", max_lines=500)
        yield Static(id="status")
        yield Footer()

    @property
    def hand(self) -> HandWidget:
        """The hand widget."""
        return self.query_one(HandWidget)

    @property
    def actions(self) -> ActionList:
        """The legal actions list."""
        return self.query_one(ActionList)

    # -- updates from the app --------------------------------------------------------------
    def show_state(self, state: State, match: Match) -> None:
        """Redraw everything from the human's view of ``state``."""
        self.view = state.view(HUMAN)
        game = state.game
        if state.is_terminal():
            turn = _("the deal is over")
        elif state.current_player() == HUMAN:
            turn = _("your turn")
        else:
            turn = _("{seat} to play").format(seat=self.host.seat_label(state.current_player(), level=False))
        totals = ", ".join(f"{side_label(game, s)} {number(t)}" for s, t in enumerate(match.totals))
        self.query_one("#info", Static).update(Text(_(
            "{game} · deal {n} · dealer: {dealer} · match: {totals} · {turn}").format(
            game=game_name(game.name), n=number(len(match.deals) + 1),
            dealer=self.host.seat_label(state.dealer, level=False),
            totals=totals, turn=turn)))
        self.show_board(self.view)
        self.hand.show(self.hand_of(self.view))
        if state.current_player() == HUMAN:
            self.actions.show([(a, text, self.key_for(text)) for a, text in
                               ((a, state.action_to_string(a)) for a in state.legal_actions())])
        else:
            self.actions.show([])

    def your_turn(self) -> None:
        """The human's turn begins: the cursor goes to the hand."""
        self.action_focus_hand()
        self.say(_("Your turn."))

    def log_line(self, text: str) -> None:
        """Add a line to the move log."""
        self.query_one(Log).write_line(text)

    def say(self, text: str) -> None:
        """Show ``text`` on the status line (errors, hints, the focused card's name)."""
        self.query_one("#status", Static).update(Text(text))

    @property
    def status(self) -> str:
        """The status line's text."""
        return str(self.query_one("#status", Static).render())

    def try_steps(self, steps: list[Step]) -> bool:
        """Play the human's intent ``steps`` (see :meth:`TableApp.play_human`)."""
        return self.host.play_human(steps)

    # -- key actions -------------------------------------------------------------------
    def action_hint(self) -> None:
        """Ask the computer what it would play here."""
        self.host.ask_hint()

    def show_hint(self, hint: Hint) -> None:
        """Highlight the suggested action in the list, with its reason."""
        self.actions.highlight_action(hint.action)
        self.actions.focus()
        self.say(_("Suggested: {action} — {reason}. Press Enter to play it.").format(
            action=hint.text, reason=hint.reason))

    def action_sort(self, order: str) -> None:
        """Sort the hand by suit or by rank."""
        self.hand.sort(order)
        self.say(_("Hand sorted by {order}.").format(order=_("suit") if order == "suit" else _("rank")))

    def action_clear(self) -> None:
        """Deselect every card."""
        self.hand.clear_selection()
        self.say(_("Selection cleared."))

    def action_focus_actions(self) -> None:
        """Move the focus to the legal actions list."""
        self.actions.focus()

    def action_focus_hand(self) -> None:
        """Move the focus to the first card of the hand."""
        self.hand.action_move_to(0)

    def selected_or_focused(self) -> list[int]:
        """The selected cards, or else the card under the cursor."""
        cards = self.hand.selected_cards()
        if not cards and (card := self.hand.focused_card()) is not None:
            cards = [card]
        return cards

    # -- messages ----------------------------------------------------------------------
    def on_action_list_play(self, message: ActionList.Play) -> None:
        """An action chosen from the list."""
        self.host.play_human_action(message.action)

    def on_card_widget_focused(self, message: CardWidget.Focused) -> None:
        """Announce the focused card's name."""
        self.say(message.card.label)

    def on_card_widget_chosen(self, message: CardWidget.Chosen) -> None:
        """Enter on a card."""
        self.card_chosen(message.card.card)


class TableApp(App):
    """A person against computer players, deal after deal, match after match.

    Args:
        game: the game with its rules.
        seed: fixes the first match's shuffles (later matches use ``seed + 1``, …).
        players: the kinds of the other seats.
        delay: seconds between computer moves.
        record_path: where the first match's record goes (later ones get ``-2``, ``-3`` … ).
    """

    CSS_PATH = "table.tcss"
    TITLE = "kafenio"

    def __init__(self, game: Game, seed: int | None, players: list[str], delay: float,
                 record_path: Path):
        super().__init__()
        self.game = game
        self.seed = seed
        self.delay = max(0.0, delay)
        self.record_path = record_path
        kinds = bot_kinds(game, players)
        self.bots: dict[int, Player] = {
            seat: make_named_player(kind, game, None if seed is None else seed + seat)
            for seat, kind in zip(range(1, game.num_players()), kinds, strict=True)}
        names = computer_names(len(kinds), random.randrange(2**32) if seed is None else seed)
        #: per seat, for the record: the person (who gives no name here), then the computers
        self.players: list[dict[str, str | None]] = [{"name": None, "level": None}] + [
            {"name": name, "level": kind} for name, kind in zip(names, kinds, strict=True)]
        #: per seat, a computer's name and level ("Eleni · medium"); the person's is "you"
        self.labels = [_("you")] + [computer_label(name, kind) for name, kind in zip(names, kinds, strict=True)]
        self.matches = 0
        self.match: Match
        self.state: State
        self.record: IO[str] | None = None
        self.recorder: Recorder
        self.last_seat: int | None = None
        module = importlib.import_module(FAMILIES[game.name])
        self.screen_class: type[TableScreen] = module.TABLE_SCREEN

    def seat_label(self, seat: int, level: bool = True) -> str:
        """A seat as the person at seat 0 reads it: "you", a computer's name and level ("Eleni ·
        medium", :func:`~kafenio.agents.names.computer_label`; its name alone with ``level``
        False, for the one-line info), "(partner)" after the partner's."""
        label = self.labels[seat] if level or seat == HUMAN else str(self.players[seat]["name"])
        if seat != HUMAN and self.game.side_of(seat) == self.game.side_of(HUMAN):
            return _("{name} (partner)").format(name=label)
        return label

    @property
    def table(self) -> TableScreen:
        """The table screen (under a score sheet when one is shown)."""
        return next(s for s in reversed(self.screen_stack) if isinstance(s, TableScreen))

    async def on_mount(self) -> None:
        """Start the first match."""
        await self.push_screen(self.screen_class())
        self.new_match()

    def on_unmount(self) -> None:
        """Close the record."""
        self._close_record()

    # -- the match -------------------------------------------------------------------------
    def current_record_path(self) -> Path:
        """The record file of the current match."""
        if self.matches <= 1:
            return self.record_path
        return self.record_path.with_name(f"{self.record_path.stem}-{self.matches}{self.record_path.suffix}")

    def new_match(self) -> None:
        """Start a match and its record, and deal."""
        self._close_record()
        self.matches += 1
        seed = None if self.seed is None else self.seed + self.matches - 1
        self.match = Match(self.game, seed=seed)
        path = self.current_record_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        self.record = path.open("w", encoding="utf-8")
        self.recorder = Recorder(self.record)
        self.recorder.start(self.match, self.players)
        self.table.log_line(_("A new match of {game}; the record is written to {path}").format(
            game=game_name(self.game.name), path=path))
        self.start_deal()

    def _close_record(self) -> None:
        if self.record is not None:
            self.record.close()
            self.record = None

    def start_deal(self) -> None:
        """Deal the next deal."""
        self.state = self.match.start_deal()
        self.recorder.deal_started(len(self.match.deals), self.state)
        self.last_seat = None
        self.table.log_line(_("Deal {n}; {dealer} dealt.").format(
            n=number(len(self.match.deals) + 1), dealer=self.seat_label(self.state.dealer)))
        self.advance()

    def advance(self) -> None:
        """Show the deal and hand the turn on: to the human, a bot, or the score sheet."""
        table = self.table
        table.show_state(self.state, self.match)
        if self.state.is_terminal():
            self.end_deal()
        elif self.state.current_player() == HUMAN:
            if self.last_seat != HUMAN:
                table.your_turn()
        else:
            self._schedule_bot()

    def end_deal(self) -> None:
        """Score the deal, record it and show the score sheet."""
        result = self.match.finish_deal()
        self.recorder.deal_finished(result, list(self.match.totals))
        if self.match.is_over:
            self.recorder.finish(self.match)
            self._close_record()
        self.table.log_line(_("Deal {n} scored: {scores}").format(
            n=number(result.index + 1), scores=", ".join(
                f"{side_label(self.game, s)} {number(p)}" for s, p in enumerate(result.scores))))
        view = self.state.view(HUMAN)
        self.push_screen(ScoreSheetScreen(result, self.match, self.table.deal_end(view),
                                          self.table.sheet_labels(view)), self._after_sheet)

    def _after_sheet(self, go_on: bool | None) -> None:
        if not go_on:
            self.exit()
        elif self.match.is_over:
            self.new_match()
        else:
            self.start_deal()

    def play(self, action: int) -> None:
        """Record, log and apply a legal ``action`` of the seat on turn."""
        seat = self.state.current_player()
        text = self.state.action_to_string(action)
        self.recorder.action(self.state, action)
        self.state.apply_action(action)
        self.last_seat = seat
        self.table.log_line(f"{self.seat_label(seat)}: {text}")

    # -- the human ---------------------------------------------------------------------
    def play_human(self, steps: list[Step]) -> bool:
        """Play the human's steps (notation) if each is legal after the ones before it.

        A step is one notation, or a tuple of alternatives of which the first legal one is
        played. The steps are first tried on a copy of the deal; the first step that does not
        parse or is not legal is explained on the status line, with the rule, and nothing
        changes.
        """
        table = self.table
        if self.state.is_terminal() or self.state.current_player() != HUMAN:
            table.say(_("It is not your turn."))
            return False
        trial = self.state.clone()
        actions = []
        for step in steps:
            error: KafenioError | None = None
            for text in (step,) if isinstance(step, str) else step:
                try:
                    action = trial.string_to_action(text)
                    trial.apply_action(action)
                except KafenioError as err:
                    error = error or err
                    continue
                actions.append(action)
                break
            else:
                assert error is not None
                text = step if isinstance(step, str) else step[0]
                if isinstance(error, IllegalAction):
                    table.say(_("Not allowed: {step} — {reason}").format(step=text, reason=error.detail))
                else:
                    table.say(_("Cannot do {step}: {reason}").format(step=text, reason=error))
                return False
        for action in actions:
            self.play(action)
        self.advance()
        return True

    def play_human_action(self, action: int) -> bool:
        """Play one action id chosen from the legal actions list."""
        return self.play_human([self.state.action_to_string(action)])

    def ask_hint(self) -> None:
        """Search for a suggested move in a worker thread; the table shows it when it is ready."""
        if self.state.is_terminal() or self.state.current_player() != HUMAN:
            self.table.say(_("It is not your turn."))
            return
        self.table.say(_("Thinking about a hint…"))
        self.run_worker(partial(self._hint, self.state, len(self.state.history)), thread=True,
                        group="hint", exclusive=True)

    def _hint(self, state: State, moves: int) -> None:
        hint = suggest(Seat(state.clone(), HUMAN), seed=moves)
        self.call_from_thread(self._hint_ready, state, moves, hint)

    def _hint_ready(self, state: State, moves: int, hint: Hint) -> None:
        if state is self.state and len(state.history) == moves:
            self.table.show_hint(hint)

    # -- the bots ----------------------------------------------------------------------
    def _schedule_bot(self) -> None:
        seat = self.state.current_player()
        pause = self.delay if seat != self.last_seat else self.delay / 4
        think = partial(self._think, self.state, seat)
        if pause:
            self.set_timer(pause, think)
        else:
            self.call_later(think)

    def _think(self, state: State, seat: int) -> None:
        self.run_worker(partial(self._bot_step, state, seat), thread=True, group="bots", exclusive=True)

    def _bot_step(self, state: State, seat: int) -> None:
        action = self.bots[seat].step(Seat(state.clone(), seat))
        self.call_from_thread(self._bot_played, state, seat, action)

    def _bot_played(self, state: State, seat: int, action: int) -> None:
        if state is not self.state or state.current_player() != seat:
            return  # a new match or deal began meanwhile
        self.play(action)
        self.advance()


def run_table(game: Game, seed: int | None = None, players: list[str] | None = None,
              delay: float = 0.6, record_path: Path | None = None) -> None:
    """Run the terminal table: the person at seat 0, computer players at the other seats.

    Args:
        game: the game with its rules.
        seed: fixes the match's shuffles (and the bots' randomness).
        players: the other seats' kinds: one for all, or one per seat.
        delay: seconds between computer moves.
        record_path: where the match's record is written.
    """
    if record_path is None:
        from kafenio.cli import new_record_path
        record_path = new_record_path(game.name)
    try:
        app = TableApp(game, seed, players or ["heuristic"], delay, record_path)
    except KafenioError as err:
        sys.stderr.write(_("error: {err}").format(err=err) + "\n")
        raise SystemExit(2) from None
    app.run()
