"""The Buraco players under the v1.2 rules (buraco.md): whole deals with the heuristic player in
every form of the game lay down only melds the rules allow (no set in aberto or STBL, §4.3), take
the pile only when the pick-up can be finished (§3), and value cards by the melds the rules allow."""

from __future__ import annotations

import pytest

import kafenio
from kafenio.agents import make_player, play_deal
from kafenio.cards import counts, parse_card, parse_cards
from kafenio.engine.game import Seat

FORMS = [["brazilian_4p"], ["brazilian_4p", "fechado"], ["brazilian_4p", "stbl"], ["italian_4p"],
         ["brazilian_2p"], ["ludopoli_4p"]]


class Watching:
    """Wraps a player: every action it picks is legal, and every pick-up leaves a legal turn."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name

    def step(self, seat: Seat) -> int:
        action = self.inner.step(seat)
        assert action in seat.legal_actions()
        return action


@pytest.mark.parametrize("presets", FORMS, ids="+".join)
def test_heuristic_deals_keep_to_the_rules(presets):
    game = kafenio.load_game("buraco", preset=presets)
    for deal in range(2):
        players = [Watching(make_player("heuristic", game, deal * 10 + s)) for s in range(game.num_players)]
        state = game.new_initial_state(seed=500 + deal)
        play_deal(state, players)
        assert state.is_terminal()
        for melds in state.melds:
            assert all(m.is_run for m in melds) or game.rules.allow_sets


def test_runs_only_usefulness_ignores_other_suits_of_the_rank():
    hand = counts(parse_cards("QC QD 5H 9S"))
    aberto = make_player("heuristic", kafenio.load_game("buraco"), 0)
    fechado = make_player("heuristic", kafenio.load_game("buraco", preset=["brazilian_4p", "fechado"]), 0)
    assert aberto.usefulness(hand, parse_card("QC")) == 0
    assert fechado.usefulness(hand, parse_card("QC")) == 3


@pytest.mark.parametrize("presets", [["brazilian_4p"], ["brazilian_4p", "fechado"], ["brazilian_4p", "stbl"]],
                         ids="+".join)
def test_hints_and_search_keep_to_the_rules(presets):
    """A hint (search over the seat's information) in a position where a set could be melded in
    fechado but not in aberto or STBL, and where STBL forbids taking the pile (BUR-41)."""
    from tests.biriba_helpers import position

    from kafenio.agents.hints import suggest
    from kafenio.agents.ismcts import Budget

    st = position(presets, 0, "8H KC 3D QS 9C QD QH", pile="7H QC 3S 6H", phase="draw", game="buraco")
    st.turns = 1
    hint = suggest(st, 0, budget=Budget(iterations=30), seed=1)
    assert hint.action in st.legal_actions()
    assert ("take" in [st.action_to_string(a) for a in st.legal_actions()]) == ("stbl" not in presets)
    st.apply_action(hint.action)
    while st.current_player() == 0 and not st.is_terminal():
        action = suggest(st, 0, budget=Budget(iterations=20), seed=2).action
        st.apply_action(action)
        for m in st.melds[0]:
            assert m.is_run or "fechado" in presets
