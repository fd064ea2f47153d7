"""Speed anchors: other libraries' gin rummy, played the way ``shared/AI-NOTES.md`` §2 measured it.

Each function plays for ``seconds`` of wall time in the calling process and returns one result
dict (see :func:`result`). A library that cannot be imported gives
``{"name": ..., "error": "not installed: ..."}`` instead of raising, so a run without it goes on.
:mod:`benchmarks.run` calls each anchor in a fresh process, one after another.

Seeding follows AI-NOTES §2.1: game ``i`` of a run uses ``seed + i`` (Python ``random``,
``env.reset``, action-space seeds); RLCard takes the run's seed once, in its config and in numpy's
global RNG, which its ``RandomAgent`` draws from.
"""

from __future__ import annotations

import random
import time

ISMCTS_SIMULATIONS = 100  # per move, as in AI-NOTES row E3
ISMCTS_PREFIX_DECISIONS = 20  # searched states are this many random decisions into a game


def result(name: str, seconds: float, *, games: int, transitions: int | None = None,
           decisions: int | None = None, iterations: int | None = None, **extra) -> dict:
    """Build an anchor's result dict, with the rates per second of every count given.

    Returns:
        ``{name, games, transitions, decisions, seconds, transitions_per_s, decisions_per_s}``,
        plus ``iterations`` and ``iterations_per_s`` when ``iterations`` is given, plus ``extra``.
    """
    def rate(count: int | None) -> float | None:
        return None if count is None else count / seconds

    out = {"name": name, "games": games, "transitions": transitions, "decisions": decisions,
           "seconds": seconds, "transitions_per_s": rate(transitions),
           "decisions_per_s": rate(decisions)}
    if iterations is not None:
        out.update(iterations=iterations, iterations_per_s=rate(iterations))
    out.update(extra)
    return out


def not_installed(name: str, exc: ImportError) -> dict:
    """The result of an anchor whose library (or one of its imports) is missing."""
    return {"name": name, "error": f"not installed: {exc.name or exc}"}


def openspiel_gin_rummy(seconds: float = 10.0, seed: int = 0) -> dict:
    """Row A1: a Python loop over ``pyspiel.State`` for OpenSpiel's ``gin_rummy``.

    Chance outcomes are sampled with their ``chance_outcomes()`` probabilities, decisions are
    uniform over ``legal_actions()``. Transitions are all ``apply_action`` calls, decisions the
    non-chance ones.
    """
    name = "openspiel_gin_rummy"
    try:
        import pyspiel
    except ImportError as exc:
        return not_installed(name, exc)
    game = pyspiel.load_game("gin_rummy")
    games = transitions = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        rng = random.Random(seed + games)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
            transitions += 1
        state.returns()
        games += 1
    return result(name, elapsed, games=games, transitions=transitions, decisions=decisions)


def rlcard_gin_rummy(seconds: float = 10.0, seed: int = 0) -> dict:
    """Row B1: RLCard's ``gin-rummy``, ``env.run()`` with two ``RandomAgent``s.

    ``env.step`` is wrapped with a counter; every step is a decision (RLCard hides chance), and
    the trajectory building inside ``run()`` is part of the cost, as documented play.
    """
    name = "rlcard_gin_rummy"
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as exc:
        return not_installed(name, exc)
    np.random.seed(seed)
    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions)] * env.num_players)
    steps = 0
    env_step = env.step

    def counting_step(*args, **kwargs):
        nonlocal steps
        steps += 1
        return env_step(*args, **kwargs)

    env.step = counting_step
    games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        env.run(is_training=False)
        games += 1
    return result(name, elapsed, games=games, transitions=steps, decisions=steps)


def aec_random_steps(name: str, env, seconds: float, seed: int) -> dict:
    """The C1 loop on any PettingZoo AEC ``env`` for ``seconds``: game ``i`` resets with
    ``seed + i`` and seeds every action space with it; the agent on turn acts with
    ``action_space(agent).sample(action_mask)``; a finished agent steps ``None``, uncounted.

    Returns:
        a :func:`result` dict named ``name``; every counted step is a decision.
    """
    games = steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        env.reset(seed=seed + games)
        for agent in env.possible_agents:
            env.action_space(agent).seed(seed + games)
        for agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
            else:
                env.step(env.action_space(agent).sample(obs["action_mask"]))
                steps += 1
        games += 1
    return result(name, elapsed, games=games, transitions=steps, decisions=steps)


def pettingzoo_gin_rummy(seconds: float = 10.0, seed: int = 0) -> dict:
    """Row C1: PettingZoo's ``gin_rummy_v4.env()`` in the AEC loop (:func:`aec_random_steps`)."""
    name = "pettingzoo_gin_rummy"
    try:
        from pettingzoo.classic import gin_rummy_v4
    except ImportError as exc:
        return not_installed(name, exc)
    return aec_random_steps(name, gin_rummy_v4.env(), seconds, seed)


def openspiel_ismcts_gin_rummy(seconds: float = 10.0, seed: int = 0) -> dict:
    """Row E3: OpenSpiel's pure-Python ``ISMCTSBot`` on ``gin_rummy``, in iterations per second.

    Each searched state is a fresh game played ``ISMCTS_PREFIX_DECISIONS`` random decisions in
    (built outside the timer); the bot (UCT c=2, ``ISMCTS_SIMULATIONS`` iterations, random
    rollouts, ``use_observation_string=True``) picks one move there. gin_rummy has no
    information-state string, so the tree is keyed by observation strings, which merge states
    with different legal actions and make the search crash now and then (AI-NOTES §2.3). Such a
    crash is counted in ``crashes`` and the move is searched again by a bot with
    ``allow_inconsistent_action_sets=True``. ``seconds`` is the time spent in searches, crashed
    ones included; ``iterations`` counts those of completed searches only.
    """
    name = "openspiel_ismcts_gin_rummy"
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError as exc:
        return not_installed(name, exc)
    game = pyspiel.load_game("gin_rummy")
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    bot, tolerant_bot = (
        ismcts.ISMCTSBot(game, evaluator, 2.0, ISMCTS_SIMULATIONS, random_state=random_state,
                         use_observation_string=True, allow_inconsistent_action_sets=tolerant)
        for tolerant in (False, True))
    searches = crashes = 0
    searching = 0.0
    while searching < seconds:
        state = _mid_game_state(game, random.Random(seed + searches))
        start = time.perf_counter()
        try:
            bot.step(state)
        except (KeyError, AssertionError, pyspiel.SpielError):
            crashes += 1
            tolerant_bot.step(state)
        searching += time.perf_counter() - start
        searches += 1
    return result(name, searching, games=searches, iterations=searches * ISMCTS_SIMULATIONS,
                  crashes=crashes)


def _mid_game_state(game, rng: random.Random):
    """A gin_rummy state at a decision with at least two legal actions, after the prefix."""
    while True:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            legal = state.legal_actions()
            if decisions >= ISMCTS_PREFIX_DECISIONS and len(legal) > 1:
                return state
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1


ANCHORS = {fn.__name__: fn for fn in (openspiel_gin_rummy, rlcard_gin_rummy,
                                      pettingzoo_gin_rummy, openspiel_ismcts_gin_rummy)}
"""Every anchor by name, in the order a run measures them."""

NOTES_ROWS = {"openspiel_gin_rummy": "A1", "rlcard_gin_rummy": "B1", "pettingzoo_gin_rummy": "C1",
              "openspiel_ismcts_gin_rummy": "E3"}
"""Each anchor's row in ``shared/AI-NOTES.md`` §0 and §2."""
