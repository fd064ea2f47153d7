"""Every worked example of basra.md §11 (BAS-01 … BAS-38), one test each, ID in the name."""

from __future__ import annotations

import random

import pytest

from kafenio import load_game
from kafenio.cards import format_cards, parse_cards
from kafenio.engine.game import DRAWN_MATCH as DRAW
from kafenio.engine.match import Match
from kafenio.referee.fishing import capture, score


def rules(preset="egyptian", **options):
    return load_game("basra", preset=preset, options=options).rules


def cap(floor, play, preset="egyptian", **options):
    return capture(rules(preset, **options), floor, play)


def test_BAS_01_two_sum_groups_clear_the_floor():
    for preset in ("egyptian", "greek_bastra", "yemeni"):
        assert cap("5C 4D 2H 7S", "9S", preset) == {
            "captured": ["5C", "4D", "2H", "7S"], "basra": True, "points": 10, "floor_after": []}


def test_BAS_02_sum_leaves_the_rest():
    r = cap("2H AC 5D 4S", "3C")
    assert r["captured"] == ["2H", "AC"] and r["floor_after"] == ["5D", "4S"] and not r["basra"]


def test_BAS_03_other_sum():
    r = cap("2H AC 5D 4S", "9D")
    assert r["captured"] == ["5D", "4S"] and r["floor_after"] == ["2H", "AC"]


def test_BAS_04_maximal_or_player_choice():
    r = cap("2H AC 5D 4S", "7H")
    assert sorted(r["captured"]) == sorted(["AC", "2H", "4S"]) and r["floor_after"] == ["5D"]
    assert "choices" not in r
    r = cap("2H AC 5D 4S", "7H", capture_mode="player_choice")
    assert sorted(map(sorted, r["choices"])) == [["2H", "4S", "AC"], ["2H", "5D"]]


def test_BAS_05_pair_and_two_sums():
    r = cap("3C 6D 5H 4S 9C", "9H")
    assert r["floor_after"] == [] and r["basra"] and r["points"] == 10


def test_BAS_06_pairs_and_sum():
    r = cap("6S 6D 3C 3H", "6H")
    assert r["floor_after"] == [] and r["points"] == 10


def test_BAS_07_player_picks_which_two_threes():
    r = cap("3C 3D 3H", "6S")
    assert sorted(map(sorted, r["choices"])) == [["3C", "3D"], ["3C", "3H"], ["3D", "3H"]]
    assert len(r["floor_after"]) == 1 and not r["basra"]


def test_BAS_08_pair_and_two_sums_clear():
    r = cap("AH 2C 3D 4S 5H", "5C")
    assert r["floor_after"] == [] and r["points"] == 10


def test_BAS_09_king_takes_king_only():
    r = cap("KH 3S 5D", "KS")
    assert r["captured"] == ["KH"] and r["floor_after"] == ["3S", "5D"]


def test_BAS_10_numerals_never_take_pictures():
    r = cap("QH 5S 5D", "10C")
    assert r["captured"] == ["5S", "5D"] and r["floor_after"] == ["QH"] and not r["basra"]


def test_BAS_11_jack_sweep_is_no_basra():
    for preset in ("egyptian", "greek_bastra", "lebanese_a", "jordanian_haddad", "syrian"):
        r = cap("KH 3S 5D", "JC", preset)
        assert r["captured"] == ["KH", "3S", "5D"] and r["points"] == 0 and not r["basra"]


def test_BAS_12_jack_on_empty_floor_stays_then_trail():
    game = load_game("basra")
    state = game.position([], [parse_cards("JD 2S"), parse_cards("5H 3S")], to_play=0)
    state.apply_string("play JD")
    assert format_cards(state.floor) == "JD" and state.current_player() == 1
    state.apply_string("play 5H")
    assert sorted(state.floor) == sorted(parse_cards("JD 5H"))


@pytest.mark.parametrize("preset, points", [
    ("egyptian", 20), ("yemeni", 20), ("egyptian_triple_jack", 30), ("greek_bastra", 0),
    ("palestinian", 0), ("ethiopian", 0), ("lebanese_a", 10), ("lebanese_ashush", 10),
    ("syrian", 25), ("syrian_homsi", 25)])
def test_BAS_13_jack_takes_lone_jack(preset, points):
    r = cap("JD", "JC", preset)
    assert r["captured"] == ["JD"] and r["points"] == points


def test_BAS_14_seven_diamonds_small_numerals():
    r = cap("3C 4H 2S", "7D")
    assert r["floor_after"] == [] and r["points"] == 10


def test_BAS_15_seven_diamonds_picture_no_basra():
    r = cap("QS 3C", "7D")
    assert r["captured"] == ["QS", "3C"] and not r["basra"]


@pytest.mark.parametrize("preset, basra", [("egyptian", False), ("yemeni", True), ("ethiopian", True)])
def test_BAS_16_seven_diamonds_equal_groups(preset, basra):
    r = cap("AH 2C 7S 8D", "7D", preset)
    assert r["floor_after"] == [] and r["basra"] is basra


@pytest.mark.parametrize("preset, basra", [("egyptian", False), ("yemeni", False), ("ethiopian", True)])
def test_BAS_17_seven_diamonds_ten_and_sum(preset, basra):
    assert cap("10C 4D 6H", "7D", preset)["basra"] is basra


@pytest.mark.parametrize("preset, basra", [("egyptian", True), ("yemeni", False), ("ethiopian", True)])
def test_BAS_18_seven_diamonds_total_ten(preset, basra):
    assert cap("6S 4C", "7D", preset)["basra"] is basra


@pytest.mark.parametrize("preset", ["egyptian", "yemeni", "ethiopian"])
def test_BAS_19_seven_diamonds_lone_ten(preset):
    assert cap("10S", "7D", preset)["basra"] is True


@pytest.mark.parametrize("preset, basra", [("egyptian", False), ("yemeni", True), ("ethiopian", False)])
def test_BAS_20_seven_diamonds_tens_and_pictures(preset, basra):
    assert cap("QH KS 10D", "7D", preset)["basra"] is basra


def test_BAS_21_seven_diamonds_plain_seven_option():
    assert cap("3C 4D 5H 2S", "7D")["basra"] is False
    assert cap("3C 4D 5H 2S", "7D", seven_diamonds_plain_seven_basra=True)["basra"] is True
    assert cap("3C 4D 5H 2S", "7D", "yemeni")["basra"] is True
    assert cap("3C 4D 5H 2S", "7D", "ethiopian")["basra"] is True


def test_BAS_22_lone_seven_diamonds():
    r = cap("7D", "3C", "ethiopian")
    assert r["captured"] == ["7D"] and r["points"] == 10
    r = cap("7D", "3C")
    assert r["captured"] == [] and r["floor_after"] == ["7D", "3C"]
    r = cap("7D", "7C")
    assert r["captured"] == ["7D"] and r["points"] == 10


@pytest.mark.parametrize("preset", ["egyptian", "yemeni", "ethiopian", "egyptian_121"])
def test_BAS_23_seven_diamonds_on_empty_floor(preset):
    assert cap("", "7D", preset)["floor_after"] == ["7D"]


def test_BAS_24_palestinian_double_face_value():
    assert cap("7S", "7H", "palestinian")["points"] == 14
    assert cap("5D 4C", "9S", "palestinian")["points"] == 18
    assert cap("AH", "AS", "palestinian")["points"] == 2
    assert cap("6C 4H", "10D", "palestinian")["points"] == 20
    r = cap("JD", "JC", "palestinian")
    assert r["captured"] == ["JD"] and r["points"] == 0


def test_BAS_25_picture_basra_values():
    assert cap("QH", "QS", "jordanian_haddad")["points"] == 20
    assert cap("QH", "QS", "syrian")["points"] == 6
    assert cap("KD", "KC", "syrian")["points"] == 8
    assert cap("QH", "QS", "greek_bastra")["points"] == 10


@pytest.mark.parametrize("preset, points", [("lebanese_a", 10), ("lebanese_ashush", 0), ("greek_bastra", 10)])
def test_BAS_26_lone_card_plus_trailed_card(preset, points):
    game = load_game("basra", preset=preset)
    state = game.position(parse_cards("3H"), [parse_cards("7D 2S"), parse_cards("4C 9S")], to_play=1)
    state.apply_string("play 4C")
    assert format_cards(state.floor) == "3H 4C" and state.current_player() == 0
    state.apply_string("play 7D")
    assert state.floor == [] and state.specials[0] == ([points] if points else [])
    assert capture(game.rules, "3H 4C", "7D", lone_trail=True)["points"] == points


@pytest.mark.parametrize("preset, basra", [("lebanese_a", False), ("lebanese_ashush", False),
                                           ("greek_bastra", True), ("egyptian", True)])
def test_BAS_27_clear_of_three_cards(preset, basra):
    r = cap("5C 4H 9S", "9D", preset)
    assert r["floor_after"] == [] and r["basra"] is basra


def test_BAS_28_ashush_lone_card():
    assert cap("8S", "8D", "lebanese_ashush")["points"] == 10
    r = cap("8S", "JH", "lebanese_ashush")
    assert r["captured"] == ["8S"] and r["points"] == 0
    assert cap("JS", "JH", "lebanese_ashush")["points"] == 10


def test_BAS_29_last_capturer_takes_the_floor():
    game = load_game("basra")
    state = game.position(parse_cards("2D"), [parse_cards("9C"), []], to_play=0)
    state.last_capturer = 1
    state.apply_string("play 9C")
    assert state.is_terminal()
    assert sorted(state.captured[1]) == sorted(parse_cards("2D 9C"))
    assert state.specials == [[], []]


@pytest.mark.parametrize("counts, points", [(True, 10), (False, 0)])
def test_BAS_30_basra_with_the_last_card(counts, points):
    game = load_game("basra", options={"basra_on_final_play_counts": counts})
    state = game.position(parse_cards("6C"), [parse_cards("6D"), []], to_play=0)
    state.apply_string("play 6D")
    assert state.is_terminal() and sum(state.specials[0]) == points
    assert capture(game.rules, "6C", "6D", last_card=True)["points"] == points


def test_BAS_31_egyptian_scoring():
    result = score(rules(), {"sides": [
        {"cards": 29, "point_cards": "AH AS AD JC JD 10D", "basras": 2},
        {"cards": 23, "point_cards": "AC JH JS 2C", "basras": [10, 20]}]})
    a, b = result["sides"]
    assert (a["majority"], a["card_points"], a["basras"]["points"], a["total"]) == (30, 8, 20, 58)
    assert (b["majority"], b["card_points"], b["basras"]["points"], b["total"]) == (0, 5, 30, 35)


def test_BAS_32_carried_majority():
    tie = {"sides": [{"cards": 26}, {"cards": 26}]}
    first = score(rules(), tie)
    assert [s["majority"] for s in first["sides"]] == [0, 0] and first["majority_carried_out"] == 30
    second = score(rules(), {"sides": [{"cards": 24}, {"cards": 28}], "majority_carry": 30})
    assert [s["majority"] for s in second["sides"]] == [0, 60]
    again = score(rules(), {**tie, "majority_carry": 30})
    assert again["majority_carried_out"] == 60
    third = score(rules(), {"sides": [{"cards": 28}, {"cards": 24}], "majority_carry": 60})
    assert third["sides"][0]["majority"] == 90


def test_BAS_32_carry_through_the_engine():
    game = load_game("basra")
    state = game.position([], [parse_cards("5H"), []], to_play=0)
    state.captured = [parse_cards("AH"), parse_cards("AS")]
    state.last_capturer = 1
    state.carry_in = {"majority": 30}
    state.apply_string("play 5H")
    assert state.side_scores() == [1, 1 + 60]


def test_BAS_33_greek_tie_both_score():
    result = score(rules("greek_bastra"), {"sides": [
        {"cards": 26, "point_cards": "AH AS JC JD JH 2C", "basras": 1},
        {"cards": 26, "point_cards": "AD AC JS 10D"}]})
    assert [s["total"] for s in result["sides"]] == [20, 9]


def test_BAS_34_ethiopian_tie_nobody():
    result = score(rules("ethiopian"), {"sides": [{"cards": 26}, {"cards": 26}]})
    assert [s["majority"] for s in result["sides"]] == [0, 0] and result["majority_carried_out"] == 0
    game = load_game("basra", preset="ethiopian")
    assert game.match_winner([52, 40], [1, 0], 1) == 0 and game.match_winner([51, 40], [1, 0], 1) is None


def test_BAS_35_three_players_tie_for_most():
    three = {"sides": [{"cards": 20}, {"cards": 20}, {"cards": 12}]}
    result = score(rules("greek_bastra", num_players=3), three)
    assert [s["majority"] for s in result["sides"]] == [3, 3, 0]
    result = score(rules("greek_bastra", num_players=3, majority_tie_rule="nobody"), three)
    assert [s["majority"] for s in result["sides"]] == [0, 0, 0]


def distributions(preset, players):
    game = load_game("basra", preset=preset, options={"num_players": players})
    state = game.new_initial_state(seed=3)
    sizes = [sum(map(len, state.hands))]
    rng = random.Random(0)
    while not state.is_terminal():
        before = len(state.log)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        if any(e[0] == "deal" for e in state.log[before:]):
            sizes.append(sum(map(len, state.hands)))
    return sizes


@pytest.mark.parametrize("preset, players, sizes", [
    ("greek_bastra", 2, [8] * 6), ("greek_bastra", 3, [12] * 4), ("greek_bastra", 4, [16] * 3),
    ("lebanese_a", 2, [12] * 4), ("palestinian", 4, [16, 16, 8])])
def test_BAS_36_distributions(preset, players, sizes):
    assert distributions(preset, players) == sizes


@pytest.mark.parametrize("preset, floor", [("egyptian", "5H 3C KC 9S"), ("greek_bastra", "5H 3C 7D 9S")])
def test_BAS_37_floor_clean_up(preset, floor):
    game = load_game("basra", preset=preset)
    top = parse_cards("2S 3S 4S 5S 6S 8S 9H 10H JD 3C 7D 9S 5H KC")
    deck = top + [c for c in game.full_deck() if c not in top]
    state = game.new_initial_state(deck=deck)
    assert sorted(state.floor) == sorted(parse_cards(floor))
    moved = parse_cards("JD 7D") if preset == "egyptian" else parse_cards("JD")
    assert list(state.stock[-len(moved):]) == moved and sum(map(len, state.hands)) == 8


def test_BAS_38_match_end():
    egyptian = load_game("basra")
    assert egyptian.match_winner([88 + 15, 95 + 12], [0, 0], 1) == 1
    assert egyptian.match_winner([96 + 14, 98 + 12], [0, 0], 1) is None
    greek = load_game("basra", preset="greek_bastra")
    assert greek.match_winner([100, 80], [0, 0], 1) == 0 and egyptian.match_winner([100, 80], [0, 0], 1) is None
    assert load_game("basra", preset="greek_bastra", options={"final_tie_rule": "draw"}).match_winner(
        [110, 110], [0, 0], 1) == DRAW
    extend = load_game("basra", preset="greek_bastra", options={"final_tie_rule": "extend_target"})
    assert extend.match_winner([110, 110], [0, 0], 1) is None
    assert extend.match_winner([115, 110], [0, 0], 1) is None
    assert extend.match_winner([121, 110], [0, 0], 1) == 0
    assert Match(egyptian, seed=1).game.match_winner([101, 0], [0, 0], 1) == 0
