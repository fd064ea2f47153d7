"""The terminal table through Textual's Pilot: whole deals played by key presses.

Each test starts a table with a fixed seed and computer players at delay 0, plays the human's
turns with the keys a person would use, and checks the score sheet, the record and that an
illegal try names its rule and changes nothing.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static
from textual.worker import WorkerCancelled

import kafenio
from kafenio.cards import format_card, parse_card
from kafenio.engine.errors import KafenioError
from kafenio.engine.records import replay
from kafenio.i18n import set_language
from kafenio.tui.app import HUMAN, ScoreSheetScreen, TableApp, TableScreen
from kafenio.tui.rummy import my_side
from kafenio.tui.widgets import cards_spoken

pytestmark = pytest.mark.asyncio

SIZE = (100, 30)


def needs(game: str) -> None:
    """Skip when ``game`` is not installed yet."""
    if game not in kafenio.available_games():
        pytest.skip(f"{game} is not available yet")


async def settle(app: TableApp, pilot) -> None:
    """Wait until the bots have played up to the human's turn or the score sheet."""
    for _i in range(2000):
        assert app.is_running, "the table stopped"
        await pilot.pause()
        with contextlib.suppress(WorkerCancelled):     # a bot step superseded by the next one
            await app.workers.wait_for_complete()
        await pilot.pause()
        if isinstance(app.screen, ScoreSheetScreen) or app.state.current_player() == HUMAN:
            return
    raise AssertionError("the bots never handed the turn back")


def screen_text(app: TableApp) -> str:
    """The text of every Static on the current screen (rich tables rendered)."""
    console = Console(width=SIZE[0], file=io.StringIO(), record=True)
    for widget in app.screen.query(Static):
        console.print(widget.content)
    return console.export_text()


def status(app: TableApp) -> str:
    """The table's status line."""
    return app.table.status


async def test_basra_deal_by_keys(tmp_path: Path) -> None:
    needs("basra")
    record = tmp_path / "basra.jsonl"
    app = TableApp(kafenio.load_game("basra"), seed=3, players=["random"], delay=0, record_path=record)
    async with app.run_test(size=SIZE) as pilot:
        turns = 0
        await settle(app, pilot)
        while not isinstance(app.screen, ScoreSheetScreen):
            assert isinstance(app.screen, TableScreen)
            if app.table.view.get("pending"):
                await pilot.press("1")
            else:
                before = len(app.state.history)
                await pilot.press("enter")               # the card under the cursor, played
                assert len(app.state.history) > before, status(app)
            turns += 1
            await settle(app, pilot)
        assert turns >= 10
        text = screen_text(app)
        assert "Deal 1 is over" in text and "Score sheet" in text and "total" in text
        assert len(app.match.deals) == 1
        await pilot.press("enter")                       # the next deal
        await settle(app, pilot)
        assert isinstance(app.screen, TableScreen) and len(app.match.deals) == 1
        assert app.state.history == [] or app.state.current_player() == HUMAN
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["game"] == "basra" and lines[0]["seed"] == 3
    assert any("deal_end" in line for line in lines)
    assert replay(record).match.deals[0].scores == app.match.deals[0].scores


def card_with_choice(app: TableApp) -> int | None:
    """A card of the human's hand whose play offers several capture choices (and keeps a card)."""
    cards = app.table.hand.cards
    for card in cards if len(cards) > 1 else []:
        trial = app.state.child(card)                    # Basra: action id = card type
        if trial.current_player() == HUMAN and len(trial.view(HUMAN)["pending"]["choices"]) > 1:
            return card
    return None


async def test_basra_capture_choice_and_illegal_try(tmp_path: Path) -> None:
    needs("basra")
    game = kafenio.load_game("basra", options={"capture_mode": "player_choice"})
    app = TableApp(game, seed=2, players=["random"], delay=0, record_path=tmp_path / "r.jsonl")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for _turn in range(300):
            if not isinstance(app.screen, ScoreSheetScreen) and (card := card_with_choice(app)) is not None:
                break
            await pilot.press("1" if app.table.view.get("pending") else "enter")   # Enter also deals on
            await settle(app, pilot)
        else:
            pytest.fail("no capture choice came up")
        await pilot.press("home", *["right"] * app.table.hand.cards.index(card), "enter")
        assert app.table.view["pending"]["card"] == format_card(card)
        assert app.focused is app.table.actions and "Choose what" in status(app)
        # playing another card while the choice is pending is refused, naming the rule
        history = list(app.state.history)
        await pilot.press("c", "enter")
        assert app.state.history == history
        assert "Not allowed" in status(app) and "basra.md" in status(app)
        await pilot.press("2")
        assert app.state.history[:len(history)] == history and len(app.state.history) > len(history)
        assert not app.table.view["pending"]


async def test_hand_selection_sort_and_hint(tmp_path: Path) -> None:
    needs("basra")
    app = TableApp(kafenio.load_game("basra"), seed=3, players=["random"], delay=0,
                   record_path=tmp_path / "r.jsonl")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        hand = app.table.hand
        await pilot.press("space")
        assert len(hand.selected_cards()) == 1 and "selected" in status(app)
        chosen = hand.selected_cards()
        await pilot.press("r")
        assert hand.selected_cards() == chosen and hand.order == "rank"
        await pilot.click(hand.card_widgets[-1])
        assert len(hand.selected_cards()) == 2
        await pilot.press("escape")
        assert hand.selected_cards() == []
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Suggested" in status(app) and app.focused is app.table.actions
        before = len(app.state.history)
        await pilot.press("enter")
        assert len(app.state.history) > before


def bot_kind(game: str) -> str:
    """The heuristic player when the game has one, else the random one."""
    return "heuristic" if importlib.util.find_spec(f"kafenio.agents.heuristic_{game}") else "random"


def legal_texts(app: TableApp) -> list[str]:
    """The notation of the human's legal actions."""
    return [app.state.action_to_string(a) for a in app.state.legal_actions()]


def greedy_meld(app: TableApp) -> list[int]:
    """Cards of a meld the human could lay now (the engine only offers completable steps)."""
    trial, cards = app.state.clone(), []
    while trial.current_player() == HUMAN:
        texts = [trial.action_to_string(a) for a in trial.legal_actions()]
        if cards and ("meld end" in texts or "meld end high" in texts):
            return cards
        add = next((t for t in texts if t.startswith("meld+ ")), None)
        if add is None:
            return []
        trial.apply_string(add)
        cards.append(parse_card(add.split()[1]))
    return []


async def select_cards(app: TableApp, pilot, cards: list[int]) -> None:
    """Select ``cards`` in the hand with the arrow keys and space."""
    taken: list[int] = []
    for card in cards:
        hand = app.table.hand.card_widgets
        index = next(i for i, w in enumerate(hand) if w.card == card and i not in taken)
        taken.append(index)
        await pilot.press("home", *["right"] * index, "space")


async def test_biriba_deal_by_keys(tmp_path: Path) -> None:
    needs("biriba")
    record = tmp_path / "biriba.jsonl"
    game = kafenio.load_game("biriba")
    kind = bot_kind("biriba")
    with pytest.raises(KafenioError, match="3 computer seats"):
        TableApp(game, seed=3, players=[kind, "random"], delay=0, record_path=record)
    app = TableApp(game, seed=3, players=[kind, "random", kind], delay=0, record_path=record)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        # an illegal try: discarding before drawing names the rule and changes nothing
        history = list(app.state.history)
        await pilot.press("c", "d")
        assert app.state.history == history
        assert "Not allowed: discard" in status(app) and "biriba.md" in status(app)
        melded = laid_off = turns = 0
        side = my_side(app.table.view)
        while not isinstance(app.screen, ScoreSheetScreen):
            texts = legal_texts(app)
            if "draw" in texts:
                await pilot.press("s")
            elif "pass" in texts:
                await pilot.press("p")
            elif "take" not in texts:                    # a kozi to name: the first listed
                await pilot.press("a", "enter")
            if not melded and app.state.current_player() == HUMAN and (cards := greedy_meld(app)):
                before = len(app.table.view["melds"][side])
                await select_cards(app, pilot, cards)
                await pilot.press("m")
                assert len(app.table.view["melds"][side]) == before + 1, status(app)
                melded += 1
            layoff = next((t for t in legal_texts(app) if t.startswith("layoff ") and not t.endswith("high")), None)
            if layoff and not laid_off and app.state.current_player() == HUMAN:
                _verb, k, card = layoff.split()
                size = len(app.table.view["melds"][side][int(k)]["cards"])
                await select_cards(app, pilot, [parse_card(card)])
                await pilot.press("l", *str(int(k) + 1), "enter")    # the meld's number, as shown
                assert len(app.table.view["melds"][side][int(k)]["cards"]) == size + 1, status(app)
                laid_off += 1
            if app.last_seat == HUMAN and app.state.current_player() == HUMAN:
                await pilot.press("c", "d")              # discard the first card of the hand
            while app.last_seat == HUMAN and app.state.current_player() == HUMAN:
                await pilot.press("a", "enter")          # the first legal action, if that discard was refused
            turns += 1
            await settle(app, pilot)
        assert turns >= 5 and melded == 1 and laid_off == 1
        text = screen_text(app)
        assert "Score sheet" in text and "total" in text
        # every hand laid face up, each computer by its name and level; the pot's row in Biriba's word
        assert "Cards left in the hands, counted against their side:" in text
        assert all(f"\n{app.seat_label(seat)}: " in text for seat in range(4))
        assert app.labels[1] == f"{app.players[1]['name']} · {kind}" and len({p["name"] for p in app.players}) == 4
        assert "Biribaki" in text and "Pot " not in text
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["game"] == "biriba" and lines[-1].get("deal_end") == 0
    assert lines[0]["players"] == app.players and lines[0]["players"][0] == {"name": None, "level": None}
    assert replay(record).match.totals == app.match.totals


async def test_match_end_offers_a_new_match(tmp_path: Path) -> None:
    needs("basra")
    record = tmp_path / "m.jsonl"
    app = TableApp(kafenio.load_game("basra"), seed=4, players=["random"], delay=0, record_path=record)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.match.totals = [150, 0]                      # the human's side is past the target
        while not isinstance(app.screen, ScoreSheetScreen):
            app.play_human_action(app.state.legal_actions()[0])
            await settle(app, pilot)
        assert app.match.is_over and "You win the match" in screen_text(app)
        assert json.loads(record.read_text().splitlines()[-1])["result"]["winner"] == 0
        await pilot.press("y")
        await settle(app, pilot)
        assert app.matches == 2 and app.match.deals == [] and isinstance(app.screen, TableScreen)
        assert (tmp_path / "m-2.jsonl").read_text().startswith('{"kafenio_record"')
        await pilot.press("q")
    assert app.return_code == 0


@pytest.mark.parametrize("name", ["buraco", "pisti", "xeri", "diloti"])
async def test_other_games_play_by_the_actions_list(name: str, tmp_path: Path) -> None:
    needs(name)
    game = kafenio.load_game(name)
    app = TableApp(game, seed=1, players=[bot_kind(name)], delay=0, record_path=tmp_path / "r.jsonl")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for _turn in range(4):
            if isinstance(app.screen, ScoreSheetScreen):
                break
            moves = len(app.state.history)
            await pilot.press("a", "enter")              # the first legal action
            assert len(app.state.history) > moves, status(app)
            await settle(app, pilot)
        assert "you: " in "\n".join(app.table.query_one("#log").lines)


async def test_the_pisti_caption_names_the_bottom_card_of_the_stock(tmp_path: Path) -> None:
    """fishing-relatives.md A2 (``expose_stock_bottom``, the Pişti default): the bottom card of
    the stock, face up to all, is named beside the stock's count."""
    needs("pisti")
    app = TableApp(kafenio.load_game("pisti"), seed=1, players=["random"], delay=0, record_path=tmp_path / "r.jsonl")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        bottom = app.state.view(HUMAN)["stock_bottom_known"]
        assert len(bottom) == 1
        text = " ".join(screen_text(app).split())
        assert f"bottom of the stock: {cards_spoken([parse_card(bottom[0])])}" in text, text


@pytest.mark.parametrize(("lang", "preset", "words"), [
    ("el", "brazilian_4p", ["Μπουράκο · γύρος 1 ·", "Νέα παρτίδα: Μπουράκο·", "Μπιριμπάκια που μένουν: 2",
                            "Πήρες το μπιριμπάκι (11 φύλλα): μένει κλειστό"]),
    ("it", "italian_4p", ["Buraco · smazzata 1 ·", "Una nuova partita di Buraco;", "Pozzetti rimasti: 2",
                          "Hai preso il tuo pozzetto (11 carte): resta coperto"]),
    ("ar", "brazilian_4p", ["بوراكو · الجولة 1 ·", "مباراة جديدة في بوراكو؛", "المور الباقي: 2",
                            "أخذتَ المور: 11 ورقة، يبقى مقلوبًا"]),
    ("tr", "brazilian_4p", ["Burako · 1. el ·", "Yeni bir Burako partisi;", "Fiyler: 2 kaldı",
                            "Aldığın fiy: 11 kart, eşin oynayana kadar kapalı kalır"]),
])
async def test_the_table_names_its_game_and_pot_in_the_players_language(lang: str, preset: str, words: list[str],
                                                                          tmp_path: Path) -> None:
    """The header, the log and the pot lines name the game and its pot in the player's words
    (``kafenio.words``), never by the engine's ids (``buraco``, ``morto``, ``pozzetto``). The
    process speaks the language, as ``kafenio play --lang`` makes it (the computer players think
    in worker threads, which do not inherit a context's language)."""
    needs("buraco")
    set_language(lang)
    try:
        app = TableApp(kafenio.load_game("buraco", preset=preset), seed=1, players=["random"], delay=0,
                       record_path=tmp_path / "r.jsonl")
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            view = app.state.view(HUMAN)
            view["pots"]["face_down"] = [11, 0, 0, 0]        # as when the human's pot is taken (buraco.md §5)
            app.table.show_board(view)
            await pilot.pause()
            text = " ".join((screen_text(app) + "\n".join(app.table.query_one("#log").lines)).split())
            for expected in words:
                assert expected in text, expected
            ids = {"buraco", "morto", "pozzetto"} - set(" ".join(words).lower().split())   # the Italian words
            assert not ids & set(text.lower().split())
    finally:
        set_language(None)
