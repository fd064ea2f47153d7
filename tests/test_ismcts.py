"""ISMCTS: it decides from the seat's information only, honours its budget, and is seeded."""

from __future__ import annotations

import random

import pytest

import kafenio
from kafenio.agents.ismcts import (
    GAME_SEARCH,
    RUMMY_PILE_SEARCH,
    Budget,
    ISMCTSPlayer,
    RolloutPolicy,
    SearchSettings,
    search_settings,
    seat_margins,
)
from kafenio.agents.levels import LEVEL_SEARCH
from kafenio.agents.rummy_search import HAND_WEIGHT, pile_preferred_moves, position_scores, preferred_moves
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Seat
from kafenio.rummy import actions as A

pytestmark = pytest.mark.skipif("basra" not in kafenio.available_games(), reason="basra not available yet")


def mid_deal(seed: int, moves: int = 5, name: str = "basra", **options):
    """A state ``moves`` random moves in, with a seat on turn that has a real choice."""
    game = kafenio.load_game(name, options=options)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while moves > 0 or len(state.legal_actions()) < 2:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        moves -= 1
    return game, state


@pytest.mark.parametrize(("name", "options", "iterations", "settings"), [
    ("basra", {"num_players": 2}, 60, None), ("basra", {"num_players": 4}, 60, None), ("biriba", {}, 8, None),
    ("biriba", {}, 30, RUMMY_PILE_SEARCH), ("buraco", {}, 30, RUMMY_PILE_SEARCH),
    ("buraco", {}, 30, LEVEL_SEARCH["expert"]["buraco"])])
def test_decision_ignores_hidden_cards(name, options, iterations, settings):
    if name not in kafenio.available_games():
        pytest.skip(f"{name} not available yet")
    game, state = mid_deal(11, name=name, **options)
    seat = state.current_player()
    # the same information for the seat, every hidden card (other hands, stock) dealt afresh
    poisoned = state.resample_from_infostate(seat, random.Random(987))
    assert poisoned.view(seat) == state.view(seat)
    assert poisoned.information_state_string(seat) == state.information_state_string(seat)
    assert any(poisoned.view(s) != state.view(s) for s in range(game.num_players()) if s != seat)
    searches = []
    for copy in (state, poisoned):
        player = ISMCTSPlayer(game, seed=5, budget=Budget(iterations=iterations), settings=settings)
        action = player.step(Seat(copy, seat))
        searches.append((action, player.last_search.stats))
    # fails if the game's resample_from_infostate draws from the hidden cards in their actual
    # order (e.g. shuffling them as found): the determinizations then depend on hidden cards
    assert searches[0] == searches[1], "the search depends on the hidden cards"


def test_iteration_budget_is_exact_and_deterministic():
    game, state = mid_deal(3)
    seat = Seat(state, state.current_player())
    results = [ISMCTSPlayer(game, seed=9, budget=Budget(iterations=37)).search(seat) for _ in range(2)]
    assert results[0].iterations == 37
    assert sum(s.visits for s in results[0].stats.values()) == 37
    assert results[0].action == results[1].action and results[0].stats == results[1].stats
    assert results[0].action in seat.legal_actions()


def test_time_budget_honoured():
    game, state = mid_deal(4)
    seat = Seat(state, state.current_player())
    result = ISMCTSPlayer(game, seed=1, budget=Budget(iterations=10**9, seconds=0.3)).search(seat)
    assert 0.3 <= result.seconds < 0.6
    assert result.iterations > 1
    capped = ISMCTSPlayer(game, seed=1, budget=Budget(iterations=5, seconds=30)).search(seat)
    assert capped.iterations == 5


def test_not_on_turn_and_budget_errors():
    game, state = mid_deal(4)
    other = (state.current_player() + 1) % game.num_players()
    with pytest.raises(KafenioError, match="not on turn"):
        ISMCTSPlayer(game, seed=1, budget=Budget(iterations=5)).step(Seat(state, other))
    assert Budget.parse("500/2s") == Budget(500, 2.0)
    assert Budget.parse("1.5s") == Budget(None, 1.5)
    for bad in ("", "fast", "0", "5/"):
        with pytest.raises(KafenioError):
            Budget.parse(bad)


def test_rollout_stops_after_its_depth_and_prefers_melding():
    if "biriba" not in kafenio.available_games():
        pytest.skip("biriba not available yet")
    game, state = mid_deal(21, moves=30, name="biriba")
    assert search_settings(game) is GAME_SEARCH["biriba"]
    before = len(state.history)
    RolloutPolicy(game, random.Random(1), SearchSettings(rollout_depth=5)).play_out(state)
    assert len(state.history) - before == 5 or state.is_terminal()
    unlimited = state.clone()
    RolloutPolicy(game, random.Random(1), SearchSettings()).play_out(unlimited)
    assert unlimited.is_terminal()
    # a natural lay-off first, then finishing the meld, then natural meld cards, never retract
    layoff, wild_layoff = A.LAYOFF + 3 * 53 + 7, A.LAYOFF + 53 + 52
    discard = A.DISCARD + 9
    assert list(preferred_moves([A.MELD_END, discard, layoff, wild_layoff])) == [layoff]
    assert list(preferred_moves([A.RETRACT, A.MELD_END, A.MELD_ADD + 4])) == [A.MELD_END]
    assert list(preferred_moves([A.RETRACT, A.MELD_ADD + 52, A.MELD_ADD + 4, discard])) == [A.MELD_ADD + 4]
    assert list(preferred_moves([A.RETRACT, discard])) == [discard]
    assert list(preferred_moves([A.RETRACT])) == [A.RETRACT]
    assert list(preferred_moves([A.DRAW, A.TAKE])) == [A.DRAW, A.TAKE]
    # the expert's rollouts take the pile and keep their wilds, melding as before
    wild_discard = A.DISCARD + 52
    assert list(pile_preferred_moves([A.DRAW, A.TAKE])) == [A.TAKE]
    assert list(pile_preferred_moves([A.DRAW])) == [A.DRAW]
    assert list(pile_preferred_moves([discard, wild_discard, A.DISCARD + 1])) == [discard]
    assert list(pile_preferred_moves([A.RETRACT, wild_discard])) == [A.RETRACT, wild_discard]
    assert list(pile_preferred_moves([A.MELD_END, discard, layoff, wild_layoff])) == [layoff]


def test_seat_margins_against_the_best_other_side():
    def margins(options, scores):
        return seat_margins(kafenio.load_game("basra", options=options).new_initial_state(seed=1), scores)

    assert margins({"num_players": 2}, [10, 4]) == [6, -6]
    assert margins({"num_players": 3}, [3, 9, 5]) == [-6, 4, -4]
    assert margins({"num_players": 3}, [7, 7, 1]) == [0, 0, -6]
    assert margins({"num_players": 4}, [10, 4]) == [6, -6, 6, -6]     # partners share their side's margin


def five_players_with_a_solo():
    """biriba.md §10.4 (BIR-45): seat 2 plays alone; the pairs are {3, 0} and {4, 1}; seat 4 is
    on turn."""
    game = kafenio.load_game("biriba", preset="five_players")
    state = game.new_initial_state(seed=3)
    state.make_solo(2)
    assert [state.deal_side(s) for s in range(5)] == [1, 2, 0, 1, 2] and state.current_player() == 4
    return game, state


#: per player (the five players' match sides): seat 4's partner of this deal, seat 1, leads
CREDITS = [10.0, 100.0, 50.0, 10.0, 100.0]


def test_seat_margins_follow_the_sides_of_the_deal():
    """biriba.md §10.4: before the solo every player is alone (seat 1 is seat 4's opponent); once
    seat 2 is solo, seat 1 is seat 4's partner for the deal and not counted against it, and seat
    4's partners of other deals are opponents."""
    game = kafenio.load_game("biriba", preset="five_players")
    alone = game.new_initial_state(seed=3)
    assert seat_margins(alone, CREDITS) == [-90, 0, -50, -90, 0]
    _game, state = five_players_with_a_solo()
    assert seat_margins(state, CREDITS) == [-90, 50, -50, -90, 50]


def test_ismcts_cooperates_with_the_partner_of_this_deal_only():
    """The search backs up each player's margin over the players on another side of the deal as
    it stands: seat 4's root actions are worth its pair's lead over the solo (50), not 0 as if its
    partner were an opponent."""
    game, state = five_players_with_a_solo()
    settings = SearchSettings(rollout_depth=2, evaluation=lambda _state: CREDITS)
    player = ISMCTSPlayer(game, seed=1, budget=Budget(iterations=30), settings=settings)
    result = player.search(Seat(state, 4))
    assert result.stats and all(stat.mean_margin == 50 for stat in result.stats.values())


def test_position_scores_lift_the_hand_penalty_until_the_deal_ends():
    if "biriba" not in kafenio.available_games():
        pytest.skip("biriba not available yet")
    game, state = mid_deal(5, moves=40, name="biriba")
    hand_points = [sum(game.card_values[c] * n for s in state.sides[side] for c, n in enumerate(state.hands[s]))
                   for side in range(game.num_sides)]
    lifted = [score + (1 - HAND_WEIGHT) * h for score, h in zip(state.side_scores(), hand_points, strict=True)]
    assert position_scores(state) == pytest.approx(lifted)
    state.playout(random.Random(2))
    assert position_scores(state) == state.side_scores()


@pytest.mark.parametrize(("name", "preset"), [("biriba", "five_players"), ("buraco", "italian_3p")])
def test_position_scores_credit_each_player_in_the_solo_forms(name, preset):
    """Once the solo is known the deal has fewer sides than players; the search scores each
    player with its share (biriba.md §10.4, buraco.md §5)."""
    game = kafenio.load_game(name, preset=preset)
    state = game.new_initial_state(seed=3)
    state.make_solo(1)
    scores = position_scores(state)
    assert len(scores) == game.num_players == game.num_sides
    assert scores[state.sides[1][0]] == scores[state.sides[1][1]]
    player = ISMCTSPlayer(game, seed=1, budget=Budget(iterations=20))
    assert player.step(Seat(state, state.current_player())) in state.legal_actions()


def test_search_settings_errors():
    for bad in ({"rollout_depth": -1}, {"rollout_preference": 1.5}, {"heuristic_rollout": -0.1}):
        with pytest.raises(KafenioError):
            SearchSettings(**bad)
    assert Budget(200, 1.0).iteration_bound() == Budget(200)
    assert Budget(None, 1.0).iteration_bound() == Budget(None, 1.0)
