"""The card-counting Basra player beats random play (seeded, quick)."""

from __future__ import annotations

import time

from kafenio import load_game
from kafenio.agents import RandomPlayer, make_player, play_deal


def test_heuristic_beats_random_in_75_percent_of_deals():
    start = time.perf_counter()
    game = load_game("basra")
    wins = 0
    for deal in range(40):
        heuristic_seat = deal % 2
        players = [None, None]
        players[heuristic_seat] = make_player("heuristic", game, seed=deal)
        players[1 - heuristic_seat] = RandomPlayer(game, seed=1000 + deal)
        state = game.new_initial_state(seed=deal, dealer=deal % 2)
        play_deal(state, players)
        scores = state.side_scores()
        wins += scores[heuristic_seat] > scores[1 - heuristic_seat]
    assert wins >= 30, wins
    assert time.perf_counter() - start < 20


def test_heuristic_handles_choices_and_four_players():
    for preset, options in (("greek_bastra", {"capture_mode": "player_choice", "num_players": 4}),
                            ("lebanese_a", {"capture_mode": "player_choice", "capture_compulsory": False})):
        game = load_game("basra", preset=preset, options=options)
        players = [make_player("heuristic", game, seed=s) for s in range(game.num_players())]
        for seed in range(3):
            state = game.new_initial_state(seed=seed)
            play_deal(state, players)
            assert state.is_terminal()
