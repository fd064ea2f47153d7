"""kafenio's ISMCTS throughput, comparable with the ``openspiel_ismcts_gin_rummy`` anchor (row E3).

Each searched state is a fresh deal of ``game`` (deal ``i`` seeded ``seed + i``) played
``PREFIX_DECISIONS`` random decisions in, until a seat with at least two legal actions is on turn
(built outside the timer). :class:`kafenio.agents.ismcts.ISMCTSPlayer` then runs
``ITERATIONS_PER_SEARCH`` iterations from that seat **with the game's search settings**
(:func:`kafenio.agents.ismcts.search_settings`), exactly as the ``hard`` and ``expert`` levels
search; only the budget differs (100 iterations, as the anchor's).

What one iteration is: a determinization from the seat's information, a descent of the shared
tree, one expansion, then the leaf. On Biriba (``GAME_SEARCH["biriba"]``) the leaf is a rollout of
at most ``ROLLOUT_DEPTH_RUMMY`` (8) moves, 80% of them drawn from the greedy-melder preference and
the rest uniformly at random, scored by ``rummy_search.position_scores`` (the running deal score,
cards in hand not yet counted). The anchor's iteration is a determinization, a descent and a
uniformly random rollout to the end of the gin rummy game (about 116 transitions, in C++).
"""

from __future__ import annotations

import random
import time

PREFIX_DECISIONS = 20
ITERATIONS_PER_SEARCH = 100


def kafenio_ismcts(seconds: float = 10.0, seed: int = 0, game: str = "biriba") -> dict:
    """Search for about ``seconds`` of search time and count ISMCTS iterations.

    Returns:
        ``{"name", "game", "iterations", "searches", "seconds", "iterations_per_s"}`` (seconds =
        time spent searching), or ``{"name", "error"}`` when the game cannot be loaded.
    """
    name = f"kafenio_ismcts_{game}"
    from kafenio import KafenioError, load_game
    from kafenio.agents.ismcts import Budget, ISMCTSPlayer
    from kafenio.engine.game import Seat

    try:
        loaded = load_game(game)
    except (KafenioError, ImportError, AttributeError) as err:  # a game still being written
        return {"name": name, "error": f"not available yet: {err}"}
    player = ISMCTSPlayer(loaded, seed, Budget(iterations=ITERATIONS_PER_SEARCH))
    iterations = searches = 0
    searching = 0.0
    while searching < seconds:
        rng = random.Random(seed + searches)
        state = loaded.new_initial_state(seed=seed + searches)
        decisions = 0
        while not state.is_terminal() and (decisions < PREFIX_DECISIONS or len(state.legal_actions()) < 2):
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        if state.is_terminal():
            searches += 1
            continue
        start = time.perf_counter()
        result = player.search(Seat(state, state.current_player()))
        searching += time.perf_counter() - start
        iterations += result.iterations
        searches += 1
    return {"name": name, "game": game, "iterations": iterations, "searches": searches,
            "seconds": searching, "iterations_per_s": iterations / searching}


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(kafenio_ismcts(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0,
                                    game=sys.argv[2] if len(sys.argv) > 2 else "biriba")))
