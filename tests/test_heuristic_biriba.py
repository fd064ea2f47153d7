"""The Biriba heuristic player beats random players clearly."""

from __future__ import annotations

import kafenio
from kafenio.agents import RandomPlayer, make_player, play_deal


def test_heuristic_beats_random_in_most_deals():
    game = kafenio.load_game("biriba")
    wins = 0
    for deal in range(20):
        players = [make_player("heuristic", game, deal) if s % 2 == 0 else RandomPlayer(game, deal + s)
                   for s in range(4)]
        state = game.new_initial_state(seed=1000 + deal, dealer=deal % 4)
        play_deal(state, players)
        scores = state.side_scores()
        wins += scores[0] - scores[1] > 0
    assert wins >= 14
