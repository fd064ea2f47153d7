"""The terminal table's score sheet in words: every key of every game's sheet has a label (the
browser table's where it has one), and its cells read as sentences, in English and in Greek."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

import kafenio
from kafenio import i18n
from kafenio.tui.app import SHEET_HIDDEN, SHEET_LABELS, cell_text, sheet_renderables

GAMES = ["biriba", "buraco", "basra", "pisti", "xeri", "diloti"]


def finished_deal(game: str, seed: int):
    """A deal of ``game`` played to its end by uniformly random moves."""
    state = kafenio.load_game(game).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def rendered(game: str, seed: int) -> str:
    console = Console(width=200, record=True)
    for part in sheet_renderables(finished_deal(game, seed).score_sheet(), kafenio.load_game(game)):
        console.print(part)
    return console.export_text()


@pytest.mark.parametrize("game", GAMES)
def test_every_score_sheet_key_has_a_label(game):
    sheet = finished_deal(game, 3).score_sheet()
    keys = {k for k in sheet if k != "sides"} | {k for side in sheet["sides"] for k in side}
    assert keys - SHEET_HIDDEN <= SHEET_LABELS.keys(), keys - SHEET_HIDDEN - SHEET_LABELS.keys()


def test_score_sheet_cells_in_words():
    assert cell_text({"meld": "5H 6H 7H 8H 9H 10H 2H=JH", "bonus": 100, "why": "dirty canastra"}) \
        == "dirty canastra 5H 6H 7H 8H 9H 10H 2H=JH: 100"
    assert cell_text({"count": 2, "points": 20, "each": [10, 10]}) == "2 (20 points)"
    assert cell_text({"seat": 3, "cards": ["7S", "QC"]}) == "7S QC (seat 3)"
    assert cell_text([]) == "—" and cell_text(True) == "yes"


def test_the_score_sheets_speak_greek():
    pytest.importorskip("babel", reason="babel==2.18.0 (the catalogs' build requirement) is not installed")
    import hatch_build

    if hatch_build.catalogs_need_compiling():
        hatch_build.compile_catalogs()
    i18n.set_language("el")
    try:
        biriba, buraco, pisti = rendered("biriba", 3), rendered("buraco", 3), rendered("pisti", 3)
    finally:
        i18n.set_language(None)
    assert "Φύλλα που έμειναν στο χέρι" in biriba and "δεν πάρθηκε -100" in biriba
    assert "Σωστό κόψιμο" in buraco and "Μπόνους" in buraco
    assert "Πίστι" in pisti and "(10 πόντοι)" in pisti
    assert "Ο τελευταίος που μάζεψε παίρνει το τραπέζι: " in pisti
    for text in (biriba, buraco, pisti):
        assert not {"untaken", "melds", "bonuses", "pot points", "why", "count", "majority"} & set(text.split())

