"""Players under the rules of biriba.md v1.2: the heuristic and the search levels only ever
choose legal actions — never the card just taken from a one-card pile (§3), only the wild moves
of §4.5 the rules allow — in every new preset, and a deal between them ends (an opening taken
back is not retried for ever in the same turn)."""

from __future__ import annotations

import pytest

import kafenio
from kafenio.agents import make_player
from kafenio.engine.game import Seat
from kafenio.rummy import actions as A

NEW_RULES = [["five_players"], ["standard_4p"], ["standard_4p", "fixed_wilds"],
             ["standard_4p", "pagat_scoring"], ["two_players", "no_rediscard_ban"],
             ["three_players_solo_18"], ["two_players", "whole_hand_opening"]]


def _play(game, players, seed: int) -> tuple[int, int]:
    """Play one deal checking each choice; returns (turns, one-card-pile pick-ups seen)."""
    state = game.new_initial_state(seed=seed)
    pickups = 0
    while not state.is_terminal():
        seat = state.current_player()
        action = players[seat].step(Seat(state, seat))
        assert action in state.legal_actions()
        if A.DISCARD <= action < A.LAYOFF and state.no_discard is not None:
            assert state.discard_ok(seat, action - A.DISCARD)
        if action == A.TAKE and len(state.pile) == 1:
            pickups += 1
        state.apply_action(action)
    return state.turns, pickups


@pytest.mark.parametrize("presets", NEW_RULES, ids="+".join)
def test_heuristic_plays_only_legal_moves(presets):
    game = kafenio.load_game("biriba", preset=presets, options={"deal_turn_limit": 150})
    for deal in range(2):
        players = [make_player("heuristic", game, deal * 10 + s) for s in range(game.num_players)]
        turns, _pickups = _play(game, players, 500 + deal)
        assert turns <= game.rules.deal_turn_limit


def test_heuristic_never_throws_back_a_one_card_pile():
    game = kafenio.load_game("biriba")
    seen = 0
    for deal in range(4):
        players = [make_player("heuristic", game, deal * 10 + s) for s in range(4)]
        seen += _play(game, players, 900 + deal)[1]
    assert seen      # the deals did test the ban


def test_easy_level_plays_only_legal_moves_with_five_players():
    game = kafenio.load_game("biriba", preset="five_players", options={"deal_turn_limit": 150})
    players = [make_player("easy", game, s) for s in range(5)]
    _play(game, players, 7)
