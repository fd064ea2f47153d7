"""PIMC, the reference opponent: legal moves only, decided from the seat's information only,
reproducible from a seed, and its name parsed or refused in words."""

from __future__ import annotations

import math
import random
from copy import deepcopy

import pytest

import kafenio
from kafenio.agents import heuristic_basra, heuristic_pisti, rummy_search
from kafenio.agents.heuristic_pisti import ShareWeightedPlayer
from kafenio.agents.ismcts import seat_margins
from kafenio.agents.levels import EXPERT_FISHING, HARD_FISHING, make_named_player, player_names, split_player_names
from kafenio.agents.pimc import (
    AlphaBeta,
    PIMCPlayer,
    PIMCSettings,
    _clearly_better,
    _greedy_world,
    _play_likelihood,
    parse_spec,
)
from kafenio.arena import run_arena
from kafenio.cards import CARD_OF
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Seat
from test_ismcts import mid_deal

FISHING = ["basra", "pisti", "xeri", "diloti"]


@pytest.mark.parametrize("name", [*FISHING, "biriba", "buraco"])
def test_plays_legal_moves_to_the_end_of_a_deal(name):
    game = kafenio.load_game(name)
    state = game.new_initial_state(seed=3)
    players = [PIMCPlayer(game, seed=seat, settings=PIMCSettings(worlds=2, depth=2))
               for seat in range(game.rules.num_players)]
    moves = 0
    while not state.is_terminal() and moves < 400:
        seat = state.current_player()
        action = players[seat].step(Seat(state, seat))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert state.is_terminal() or name in ("biriba", "buraco")


@pytest.mark.parametrize(("name", "options"), [
    ("basra", {"num_players": 2}), ("basra", {"num_players": 4}), ("pisti", {}), ("xeri", {}), ("diloti", {}),
    ("biriba", {}), ("buraco", {})])
def test_decision_ignores_hidden_cards(name, options):
    game, state = mid_deal(11, name=name, **options)
    seat = state.current_player()
    # the same information for the seat, every hidden card (other hands, stock) dealt afresh
    scrambled = state.resample_from_infostate(seat, random.Random(987))
    assert scrambled.information_state_string(seat) == state.information_state_string(seat)
    assert any(scrambled.view(s) != state.view(s) for s in range(game.rules.num_players) if s != seat)
    decisions = []
    for copy in (state, scrambled):
        player = PIMCPlayer(game, seed=5, settings=PIMCSettings(worlds=6, depth=3))
        player.step(Seat(copy, seat))
        decisions.append((player.last_search.action, player.last_search.values))
    assert decisions[0] == decisions[1], "the decision depends on the hidden cards"


def test_reproducible_from_a_seed_and_varies_with_it():
    game, state = mid_deal(4)
    seat = state.current_player()
    runs = [PIMCPlayer(game, seed=s, settings=PIMCSettings(worlds=4, depth=2)).decide(Seat(state, seat))
            for s in (1, 1, 2)]
    assert runs[0].values == runs[1].values
    assert runs[0].worlds == 4


def minimax(state, depth, seat):
    """Plain minimax without pruning: what alpha-beta must return."""
    if depth == 0 or state.is_terminal():
        return seat_margins(state, state.side_scores())[seat]
    values = [minimax(state.child(a), depth - 1, seat) for a in state.legal_actions()]
    return max(values) if state.game.side_of(state.current_player()) == state.game.side_of(seat) else min(values)


@pytest.mark.parametrize("name", FISHING)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_alphabeta_returns_the_minimax_value(name, seed):
    _game, state = mid_deal(seed, moves=seed * 7, name=name)
    seat = state.current_player()
    search = AlphaBeta()
    assert search.value(state.clone(), 4, seat, -math.inf, math.inf) == minimax(state, 4, seat)


def test_beats_random_on_fixed_deals():
    # duplicate deals: each deal played twice with the seats swapped, so the cards cancel out
    game = kafenio.load_game("pisti", options={"num_players": 2})
    margin = 0.0
    for seed in range(6):
        for pimc_side in (0, 1):
            state = game.new_initial_state(seed=seed)
            pimc = PIMCPlayer(game, seed=seed, settings=PIMCSettings(worlds=4, depth=2))
            other = make_named_player("random", game, seed=seed)
            while not state.is_terminal():
                seat = state.current_player()
                player = pimc if game.side_of(seat) == pimc_side else other
                state.apply_action(player.step(Seat(state, seat)))
            margin += seat_margins(state, state.side_scores())[game.seats_of(pimc_side)[0]]
    assert margin > 0


@pytest.mark.parametrize(("spec", "settings"), [
    ("", PIMCSettings()), ("30", PIMCSettings(30)), ("30,2", PIMCSettings(30, 2)), ("5, 0", PIMCSettings(5, 0))])
def test_settings_parsed(spec, settings):
    assert parse_spec(spec) == settings


@pytest.mark.parametrize(("spec", "settings"), [
    ("40,playout,keep=1.5", EXPERT_FISHING["pisti"]), ("40,4,majority,endgame=10", EXPERT_FISHING["basra"]),
    ("16, playout, keep=1.5", HARD_FISHING["pisti"]),
    ("40,playout,keep=1.5,endgame=8,infer=0.3", PIMCSettings(40, playout=True, keep=1.5, endgame=8, infer=0.3)),
    ("40,playout,keep=1.5,imagined=share", EXPERT_FISHING["xeri"])])
def test_every_setting_is_named_in_a_player_name_and_written_back(spec, settings):
    """A level's search is a pimc player name, so its variants are run from the arena's command
    line; the name written back (the arena's log) reads as the same settings."""
    assert parse_spec(spec) == settings
    assert parse_spec(str(settings)) == settings
    assert split_player_names(f"medium,pimc:{spec},expert") == ["medium", f"pimc:{spec.replace(' ', '')}", "expert"]


@pytest.mark.parametrize("name", ["pimc:abc", "pimc:0,0", "pimc:0", "pimc:3,x", "pimc:1,2,3", "pimc:-1,2", "pimc:",
                                  "pimc:40,keep=-1", "pimc:40,infer=2", "pimc:40,wizard", "pimc:40,keep=nan",
                                  "pimc:40,keep=inf", "pimc:40,playout,playout", "pimc:40,playout=1", "pimc:40,endgame",
                                  "pimc:playout", "pimc:40,playout,4", "pimc:40,imagined=wizard", "pimc:40,imagined"])
def test_malformed_settings_refused_naming_the_forms(name):
    game = kafenio.load_game("basra")
    if name == "pimc:":
        assert make_named_player(name, game).settings == PIMCSettings()
        return
    with pytest.raises(KafenioError, match=r"pimc:N,D"):
        make_named_player(name, game)


def test_named_and_listed_with_the_players():
    game = kafenio.load_game("pisti")
    player = make_named_player("pimc:12,3", game, seed=1)
    assert isinstance(player, PIMCPlayer) and player.name == "pimc:12,3"
    assert player.settings == PIMCSettings(12, 3)
    assert "pimc" in player_names() and "pimc:N,D" in player_names()
    with pytest.raises(KafenioError, match="pimc:N,D"):
        make_named_player("wizard", game)


@pytest.mark.parametrize(("text", "names"), [
    ("expert,pimc:20,4", ["expert", "pimc:20,4"]),
    ("pimc:20,4,hard", ["pimc:20,4", "hard"]),
    ("ismcts:500/2s, pimc:8 ,medium", ["ismcts:500/2s", "pimc:8", "medium"]),
    ("medium,,hard", ["medium", "hard"]),
])
def test_player_lists_keep_pimc_settings_whole(text, names):
    assert split_player_names(text) == names


def test_the_arena_measures_pimc_and_reports_its_think_time():
    report = run_arena("xeri", ["medium", "pimc:3,2"], deals=2, seed=5, workers=1)
    (think,) = report["think"]
    assert think["player"] == "pimc:3,2" and think["searches"] > 0
    assert 0 < think["mean_seconds"] <= think["max_seconds"]
    again = run_arena("xeri", ["medium", "pimc:3,2"], deals=2, seed=5, workers=1)
    assert [r["mean_margin"] for r in again["pairings"][0]["rows"]] == [
        r["mean_margin"] for r in report["pairings"][0]["rows"]]


def test_pimc_cooperates_with_the_partner_of_this_deal_only(monkeypatch):
    """The rummy world search values a move by the root player's margin over the players on
    another side of the deal as it stands (biriba.md §10.4): with its partner leading, seat 4's
    moves are worth its pair's lead (50), not 0."""
    game = kafenio.load_game("biriba", preset="five_players")
    state = game.new_initial_state(seed=3)
    state.make_solo(2)
    monkeypatch.setattr(rummy_search, "position_scores", lambda _state: [10.0, 100.0, 50.0, 10.0, 100.0])
    result = PIMCPlayer(game, seed=1, settings=PIMCSettings(worlds=2, depth=1)).decide(Seat(state, 4))
    assert len(result.values) > 1 and set(result.values.values()) == {50.0}


PLAYOUT = PIMCSettings(worlds=3, playout=True, keep=1.0)


@pytest.mark.parametrize("name", FISHING)
def test_playout_plays_legal_moves_to_the_end_of_a_deal(name):
    game = kafenio.load_game(name)
    state = game.new_initial_state(seed=4)
    players = [PIMCPlayer(game, seed=seat, settings=PLAYOUT) for seat in range(game.rules.num_players)]
    while not state.is_terminal():
        seat = state.current_player()
        action = players[seat].step(Seat(state, seat))
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize(("name", "options"), [
    ("basra", {"num_players": 2}), ("pisti", {}), ("xeri", {}), ("diloti", {})])
def test_playout_decision_ignores_hidden_cards(name, options):
    game, state = mid_deal(12, name=name, **options)
    seat = state.current_player()
    scrambled = state.resample_from_infostate(seat, random.Random(654))
    assert scrambled.information_state_string(seat) == state.information_state_string(seat)
    decisions = []
    for copy in (state, scrambled):
        player = PIMCPlayer(game, seed=8, settings=PIMCSettings(worlds=5, playout=True, keep=0.5))
        player.step(Seat(copy, seat))
        decisions.append((player.last_search.action, player.last_search.values))
    assert decisions[0] == decisions[1], "the decision depends on the hidden cards"


@pytest.mark.parametrize("name", FISHING)
def test_playout_with_one_world_keeps_the_heuristics_move(name):
    """One world gives no spread to judge a gain by: the heuristic's own move stands."""
    game, state = mid_deal(5, name=name)
    seat = state.current_player()
    player = PIMCPlayer(game, seed=2, settings=PIMCSettings(worlds=1, playout=True, keep=1.0))
    heuristic = deepcopy(player.tracker)
    assert player.step(Seat(state, seat)) == heuristic.step(Seat(state, seat))


def test_playout_reproducible_from_a_seed():
    game, state = mid_deal(9, name="xeri")
    seat = state.current_player()
    runs = [PIMCPlayer(game, seed=s, settings=PLAYOUT).decide(Seat(state, seat)) for s in (3, 3)]
    assert runs[0].values == runs[1].values and runs[0].action == runs[1].action


def test_a_move_is_taken_over_the_heuristics_only_when_clearly_better():
    legal, own = [10, 20, 30], 10
    steady = [[0.0, 1.0, 5.0], [0.0, 1.2, -5.0], [0.0, 0.8, 6.0], [0.0, 1.1, -4.0]]
    assert _clearly_better(steady, legal, own, keep=2.0) == 20  # +1 every world; 30: +0.5 by luck
    assert _clearly_better(steady, legal, own, keep=50.0) == own
    assert _clearly_better([[0.0, -1.0, -2.0]] * 4, legal, own, keep=0.5) == own


def test_the_players_imagined_in_a_playout_start_from_what_the_player_has_seen():
    game, state = mid_deal(6, name="pisti")
    seat = state.current_player()
    player = PIMCPlayer(game, seed=1, settings=PIMCSettings(worlds=1, playout=True))
    player.step(Seat(state, seat))
    assert player.tracker._seen
    player.follower.recall(player.tracker)
    assert player.follower._seen == player.tracker._seen and player.follower._seen is not player.tracker._seen


@pytest.mark.parametrize("name", ["pisti", "xeri"])
def test_a_playout_world_near_the_end_of_the_deal_is_solved_exactly(name):
    """With ``endgame``, a world with that many cards or fewer left to play is searched to the
    end of the deal instead of played out: each move's value is the minimax value of the deal's
    end; with more cards left it is still played out."""
    game = kafenio.load_game(name, options={"num_players": 2})
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    player = PIMCPlayer(game, seed=1, settings=PIMCSettings(worlds=1, playout=True, endgame=6))
    early = None
    while state.cards_left > 6:
        if early is None and state.cards_left <= 20:
            early = state.clone()
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    world = state.resample_from_infostate(seat, rng)
    legal = world.legal_actions()
    assert _greedy_world(player, world, legal, seat) == [minimax(world.child(a), 99, seat) for a in legal]
    seat = early.current_player()
    world = early.resample_from_infostate(seat, rng)
    plain = PIMCPlayer(game, seed=1, settings=PIMCSettings(worlds=1, playout=True))
    player = PIMCPlayer(game, seed=1, settings=PIMCSettings(worlds=1, playout=True, endgame=6))
    legal = world.legal_actions()
    assert _greedy_world(player, world, legal, seat) == _greedy_world(plain, world, legal, seat)


def test_weighted_worlds_judge_a_gain_by_their_effective_number():
    legal, own = [10, 20], 10
    rows = [[0.0, 1.0], [0.0, 1.2], [0.0, 0.8], [0.0, -9.0]]
    assert _clearly_better(rows, legal, own, 2.0, [1.0] * 4) == _clearly_better(rows, legal, own, 2.0) == own
    assert _clearly_better(rows, legal, own, 2.0, [1.0, 1.0, 1.0, 1e-9]) == 20  # the outlier world all but ruled out
    assert _clearly_better(rows, legal, own, 2.0, [1.0, 1e-9, 1e-9, 1e-9]) == own  # one world left: no spread


def test_worlds_are_weighted_by_the_opponents_plays_since_the_last_deal(monkeypatch):
    """:attr:`PIMCSettings.infer`: each play of the other side since the last deal that the
    imagined opponent would not have made holding the world's hand multiplies the world's
    weight by ``infer``. Here the imagined opponent always plays its lowest card."""
    game = kafenio.load_game("pisti", options={"num_players": 2})
    state = game.new_initial_state(seed=11)
    rng = random.Random(4)
    for _ in range(3):  # the first player, the dealer, the first player again: the dealer is next
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    player = PIMCPlayer(game, seed=1, settings=PIMCSettings(worlds=4, playout=True, infer=0.25))
    player.tracker.step(Seat(state, seat))
    monkeypatch.setattr(player.model, "step", lambda s: min(s.legal_actions()))
    other = 1 - seat
    played = [a for k, a in enumerate(state.history) if k % 2 == 0]  # the first player's cards, in order
    assert state.current_player() == seat == state.dealer and len(played) == 2
    seen = set()
    for _ in range(12):
        world = state.resample_from_infostate(seat, rng)
        expected = 1.0
        for k, card in enumerate(played):  # the world's hand at the k-th play: now + the cards played since
            expected *= 1.0 if min(world.hands[other] + played[k:]) == card else 0.25
        assert _play_likelihood(player, world, seat) == expected
        seen.add(expected)
    assert len(seen) > 1


@pytest.mark.parametrize("name", ["pisti", "xeri"])
def test_weighted_worlds_depend_on_the_seats_information_only(name):
    game, state = mid_deal(12, name=name)
    seat = state.current_player()
    scrambled = state.resample_from_infostate(seat, random.Random(654))
    decisions = []
    for copy in (state, scrambled):
        player = PIMCPlayer(game, seed=8, settings=PIMCSettings(worlds=6, playout=True, keep=0.5, infer=0.3))
        player.step(Seat(copy, seat))
        decisions.append((player.last_search.action, player.last_search.values))
    assert decisions[0] == decisions[1], "the decision depends on the hidden cards"


def test_weighted_worlds_of_a_constructed_position_weigh_alike():
    """A constructed position (referee, worked examples) does not replay from a deck: its worlds
    keep weight 1 instead of the replay failing."""
    from kafenio.cards import parse_cards

    game = kafenio.load_game("pisti", options={"num_players": 2})
    state = game.position(parse_cards("5C 9D"), [parse_cards("2H 3H 4H KS"), parse_cards("7S 8S JD QC")],
                          to_play=0, stock=parse_cards("AS AH AD AC 6S 6H 6D 6C"))
    state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    player = PIMCPlayer(game, seed=1, settings=PIMCSettings(worlds=4, playout=True, keep=1.0, infer=0.3))
    assert player.step(Seat(state, seat)) in state.legal_actions()
    rng = random.Random(2)
    assert all(_play_likelihood(player, state.resample_from_infostate(seat, rng), seat) == 1.0 for _ in range(4))


@pytest.mark.parametrize("name", ["pisti", "xeri"])
def test_a_player_that_catches_up_remembers_the_deal_as_one_who_sat_through_it(name):
    """PIMCPlayer.catch_up (a hint's player joins mid-deal): its imagined players remember every
    card the seat saw played, as the heuristic that played every turn of the seat does."""
    game = kafenio.load_game(name, options={"num_players": 2})
    expert = kafenio.agents.levels.EXPERT_FISHING[name]
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        sitting = [kafenio.agents.make_player("heuristic", game, s) for s in range(2)]
        for _ in range(21):
            mover = state.current_player()
            state.apply_action(sitting[mover].step(Seat(state, mover)))
        seat = Seat(state, state.current_player())
        sitting[seat.seat].observe(seat)
        late, fresh = PIMCPlayer(game, 3, expert), PIMCPlayer(game, 3, expert)
        late.catch_up(seat)
        fresh.tracker.observe(seat)
        assert late.tracker._seen == sitting[seat.seat]._seen
        assert len(fresh.tracker._seen) < len(late.tracker._seen)


def test_the_xeri_levels_imagine_the_share_weighted_player_at_every_seat():
    """Xeri's hard and expert play their worlds out with the pile player that values a captured
    card as its share of the majority (``docs/strength.md``, "The pile games' expert and the
    player it imagines"), and keep its move; Pişti's with the game's heuristic."""
    xeri = kafenio.load_game("xeri", options={"num_players": 2})
    for level in ("hard", "expert"):
        player = make_named_player(level, xeri, seed=1)
        assert type(player.follower) is type(player.tracker) is ShareWeightedPlayer
    player = make_named_player("expert", kafenio.load_game("pisti", options={"num_players": 2}), seed=1)
    assert type(player.follower) is heuristic_pisti.HeuristicPlayer
    with pytest.raises(KafenioError, match="Pişti and Xeri"):
        make_named_player("pimc:4,playout,imagined=share", kafenio.load_game("basra"))


def test_the_share_weighted_player_weighs_as_basras():
    """A captured card is worth its share of the majority (Xeri's 3 points: 0.06), no jack is
    worth keeping, and the threats are discounted when many ranks are unseen, as Basra's player."""
    game = kafenio.load_game("xeri", options={"num_players": 2})
    player = ShareWeightedPlayer(game, 1)
    assert player._card_weight == pytest.approx(0.06)
    assert player._kept(CARD_OF["JH"], {"stock": 20}) == 0.0
    assert player.crowd_discount == heuristic_basra.HeuristicPlayer.crowd_discount > 0
