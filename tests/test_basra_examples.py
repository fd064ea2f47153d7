"""Every worked example of basra.md §11 (BAS-01 … BAS-47), one test each, ID in the name."""

from __future__ import annotations

import random

import pytest

from kafenio import load_game
from kafenio.cards import format_cards, parse_cards
from kafenio.engine.errors import KafenioError
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


def test_BAS_34_ethiopian_tie_carried_over():
    result = score(rules("ethiopian"), {"sides": [{"cards": 26}, {"cards": 26}]})
    assert [s["majority"] for s in result["sides"]] == [0, 0] and result["majority_carried_out"] == 3
    game = load_game("basra", preset="ethiopian")
    assert game.rules.target_score == 52
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
    state = game.new_initial_state(deck=deck, reinsert_positions=[0, 5] if preset == "egyptian" else ())
    assert sorted(state.floor) == sorted(parse_cards(floor)) and sum(map(len, state.hands)) == 8
    if preset == "egyptian":  # buried at hidden places (README §4): here the given ones
        assert format_cards(state.stock[:1]) == "JD" and state.stock[5] == parse_cards("7D")[0]
        assert state.view(0)["stock_bottom_known"] == [] and state.stock[-1] not in parse_cards("JD 7D")
    else:
        assert state.stock[-1] == parse_cards("JD")[0] and state.view(1)["stock_bottom_known"] == ["JD"]


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
    assert extend.match_winner([115, 110], [0, 0], 1) == 0   # a lead is never extended (BAS-39)
    assert Match(egyptian, seed=1).game.match_winner([101, 0], [0, 0], 1) == 0


# -- added 2026-11-26 (basra.md v1.2) -------------------------------------------------------

def test_BAS_39_extend_target_only_on_a_real_tie():
    game = load_game("basra", preset="greek_bastra", options={"final_tie_rule": "extend_target",
                                                             "tie_extension": 30})
    assert game.match_outcome([96 + 21, 88 + 14], [1, 0], 1, {}) == 0
    assert game.target_after([117, 102], 100) == 100
    target = game.target_after([92 + 15, 95 + 12], 100)
    assert target == 137 and game.match_outcome([107, 107], [0, 0], 1, {"target": target}) is None
    assert game.target_after([120, 116], target) == 137
    assert game.match_outcome([107 + 13, 107 + 9], [0, 0], 2, {"target": 137}) is None
    assert game.match_outcome([120 + 22, 116 + 24], [0, 0], 3, {"target": 137}) == 0


def test_BAS_39_the_deal_hands_on_the_raised_target():
    game = load_game("basra", preset="greek_bastra", options={"final_tie_rule": "extend_target",
                                                             "tie_extension": 30})
    state = game.position([], [parse_cards("5H"), []], to_play=0)
    state.match_scores = [107, 107]
    state.captured = [parse_cards("2H"), parse_cards("3H")]   # 1 card each: a tie, no points
    state.last_capturer = 1
    state.apply_string("play 5H")   # the floor goes to seat 1: 3 cards to 1; 3 majority points
    assert state.side_scores() == [0, 3]
    assert state.carry_out() == {}     # 107 / 110: a lead, not extended
    state = game.position([], [parse_cards("5H"), []], to_play=0)
    state.match_scores = [110, 107]
    state.captured = [parse_cards("2H"), parse_cards("3H")]
    state.last_capturer = 1
    state.apply_string("play 5H")
    assert state.carry_out() == {"target": 140}   # 110 / 110 past 100


def egyptian_40_deck(game):
    top = parse_cards("2H 9C 5S QD 3D KH 8C 6S 4C JS 10H 7D AS 6D 9H")
    return top + [c for c in game.full_deck() if c not in top]


def test_BAS_40_removed_floor_cards_are_buried():
    game = load_game("basra")
    state = game.new_initial_state(deck=egyptian_40_deck(game), reinsert_positions=[17, 30])
    assert format_cards(state.hands[1]) == format_cards(sorted(parse_cards("2H 5S 3D 8C")))
    assert sorted(state.floor) == sorted(parse_cards("4C AS 10H 6D"))
    assert len(state.stock) == 40 and format_cards(state.stock[:1]) == "9H"
    assert format_cards([state.stock[17], state.stock[30]]) == "JS 7D"
    for seat in (0, 1):
        view = state.view(seat)
        assert view["stock_bottom_known"] == [] and view["stock"] == 40
    assert state.deal_inputs() == {"reinsert_positions": [17, 30]}
    again = game.deserialize_state(state.serialize())
    assert again.stock == state.stock


def test_BAS_40_greek_bottom_of_the_stock_is_public():
    game = load_game("basra", preset="greek_bastra")
    state = game.new_initial_state(deck=egyptian_40_deck(game))
    assert sorted(state.floor) == sorted(parse_cards("4C AS 10H 7D"))
    assert len(state.stock) == 40 and format_cards(state.stock[:2]) == "6D 9H"
    assert format_cards(state.stock[-1:]) == "JS"
    assert state.view(0)["stock_bottom_known"] == ["JS"] == state.view(1)["stock_bottom_known"]


def test_BAS_40_bad_reinsert_positions_are_refused():
    game = load_game("basra")
    for bad in ([41, 0], [-1, 0], ["17", 30], [17, 30, 2]):
        with pytest.raises(KafenioError, match="reinsert_positions"):
            game.new_initial_state(deck=egyptian_40_deck(game), reinsert_positions=bad)


def test_BAS_40_without_positions_the_deal_picks_them_from_its_deck():
    game = load_game("basra")
    one = game.new_initial_state(deck=egyptian_40_deck(game))
    two = game.new_initial_state(deck=egyptian_40_deck(game))
    assert one.stock == two.stock and len(one.reinsert_positions) == 2
    assert one.stock[-2:] != tuple(parse_cards("JS 7D"))


def test_BAS_41_ethiopian_majority_carried_over():
    r = rules("ethiopian")
    first = score(r, {"sides": [{"cards": 26}, {"cards": 26}]})
    assert first["majority_carried_out"] == 3
    second = score(r, {"sides": [{"cards": 23}, {"cards": 29, "point_cards": "AC AH 10D", "basras": 1}],
                       "majority_carry": 3})
    assert second["sides"][1]["total"] == (3 + 3) + 1 + 1 + 3 + 10 == 21
    again = score(r, {"sides": [{"cards": 26}, {"cards": 26}], "majority_carry": 3})
    assert again["majority_carried_out"] == 6
    third = score(r, {"sides": [{"cards": 30}, {"cards": 22}], "majority_carry": 6})
    assert third["sides"][0]["majority"] == 9


@pytest.mark.parametrize("preset", ["lebanese_a", "lebanese_ashush", "palestinian", "jordanian",
                                    "jordanian_haddad", "syrian", "syrian_homsi", "egyptian"])
def test_BAS_42_levantine_presets_play_anticlockwise(preset):
    game = load_game("basra", preset=preset, options={"num_players": 4})
    state = game.new_initial_state(seed=5)
    assert state.current_player() == 3 and game.next_dealer(0) == 3
    order = [state.current_player()]
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
        if state.pending is not None:
            state.apply_action(state.legal_actions()[0])
        order.append(state.current_player())
    assert order == [3, 2, 1, 0]


def test_BAS_42_greek_clockwise_and_two_players():
    game = load_game("basra", preset="greek_bastra", options={"num_players": 4})
    assert game.new_initial_state(seed=5).current_player() == 1 and game.next_dealer(0) == 1
    for preset in ("greek_bastra", "palestinian", "egyptian"):
        assert load_game("basra", preset=preset).new_initial_state(seed=5).current_player() == 1


def batches(game, seed=11):
    """Play a random deal: (cards dealt to the players, cards dealt to the floor) per distribution."""
    state = game.new_initial_state(seed=seed)
    out = [(sum(map(len, state.hands)), 0)]
    rng = random.Random(seed)
    while not state.is_terminal():
        before = len(state.log)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        out += [(sum(map(len, state.hands)), len(e[1])) for e in state.log[before:] if e[0] == "deal"]
    assert sum(map(len, state.captured)) + len(state.floor) == len(game.full_deck())
    return out


@pytest.mark.parametrize("hand_size, expected", [(4, [(12, 0), (12, 0), (12, 0), (3, 1)]),
                                                 (5, [(15, 0), (15, 0), (9, 1)])])
def test_BAS_43_three_players_with_44_cards(hand_size, expected):
    game = load_game("basra", preset="palestinian", options={"num_players": 3, "hand_size": hand_size})
    state = game.new_initial_state(seed=11)
    assert state.current_player() == 2 and len(state.stock) == 44 - 3 * hand_size - 4
    assert game._orders[0] == (2, 1, 0)
    for seed in range(5):
        assert batches(game, seed) == expected


def test_BAS_44_views_hide_running_tallies():
    game = load_game("basra")
    state = game.position(parse_cards("5C 4D"), [parse_cards("9S 3H"), parse_cards("KD")], to_play=0,
                          stock=parse_cards("2D 3D"))
    state.captured = [parse_cards("AH 2C 3C"), parse_cards("AS 2S 3S 4S 5S")]
    state.specials = [[], [10]]
    view = state.view(0)
    assert view["captured"] is None and view["deal_points"] is None
    assert view["basras"] == [{"count": 0, "points": 0}, {"count": 1, "points": 10}]
    assert view["capture_tally_visibility"] == "hidden" and view["hand_sizes"] == [2, 1]
    assert state.observation_tensor(0)[208 + 4] == 0.0
    public = load_game("basra", options={"capture_tally_visibility": "public"}).position(
        parse_cards("5C 4D"), [parse_cards("9S 3H"), parse_cards("KD")], to_play=0)
    public.captured = [parse_cards("AH 2C 3C"), parse_cards("AS 2S 3S 4S 5S")]
    view = public.view(0)
    assert view["captured"] == [3, 5] and [p["card_points"] for p in view["deal_points"]] == [3, 1]


def test_BAS_44_everything_is_shown_at_the_end():
    game = load_game("basra")
    state = game.new_initial_state(seed=2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    view = state.view(0)
    assert sum(view["captured"]) + len(view["floor"]) == 52 and view["deal_points"] is not None


def test_BAS_45_referee_refuses_impossible_sheets():
    r = rules()
    with pytest.raises(KafenioError, match="50 cards"):
        score(r, {"sides": [{"cards": 31}, {"cards": 19}]})
    with pytest.raises(KafenioError, match="25"):
        score(r, {"sides": [{"cards": 28, "basras": [10, 10, 25]}, {"cards": 24}]})
    for given in (["5C", "5D", 25], [10, 10, 25]):   # two basras made with a 5, a jack on a lone jack
        assert score(rules("syrian"), {"sides": [{"cards": 28, "basras": given}, {"cards": 24}]}
                     )["sides"][0]["basras"]["points"] == 45
    with pytest.raises(KafenioError, match="AS"):
        score(r, {"sides": [{"cards": 28, "point_cards": "AS AH AD"}, {"cards": 24, "point_cards": "AC AS"}]})
    with pytest.raises(KafenioError, match="point cards"):
        score(r, {"sides": [{"cards": 2, "point_cards": "AS AH 10D"}, {"cards": 50}]})
    ok = score(r, {"sides": [{"cards": 28, "basras": [10, 20]}, {"cards": 24, "basras": 2}]})
    assert [s["basras"]["points"] for s in ok["sides"]] == [30, 20]
    # and the same rules as for the relatives: room in a deal, the jacks, the carried majority
    for data, message in (({"sides": [{"cards": 28, "basras": 25}, {"cards": 24}]}, r"25 in one deal.*24.*§4"),
                          ({"sides": [{"cards": 28, "basras": [20, 20, 20]}, {"cards": 24}]}, r"at most 2"),
                          ({"sides": [{"cards": 28}, {"cards": 24}], "majority_carry": 45}, r"majority_carry.*45")):
        with pytest.raises(KafenioError, match=message):
            score(r, data)


def test_BAS_46_palestinian_basras_named_by_card():
    r = rules("palestinian")
    sides = [{"cards": 24}, {"cards": 20}]
    for given in (["7H", "AS", "10C"], [14, 2, 20]):
        result = score(r, {"sides": [{**sides[0], "basras": given}, sides[1]]})
        assert result["sides"][0]["basras"]["points"] == 36
    for bad, word in ((3, "count"), ([13], "13"), (["JD"], "jack"), (["QH"], "QH")):
        with pytest.raises(KafenioError, match=word):
            score(r, {"sides": [{**sides[0], "basras": bad}, sides[1]]})
    full = [{"cards": 26}, {"cards": 26}]
    assert score(rules("jordanian_haddad"), {"sides": [{**full[0], "basras": ["QH"]}, full[1]]}
                 )["sides"][0]["basras"]["points"] == 20
    syrian = score(rules("syrian"), {"sides": [{**full[0], "basras": ["QH", "KD"]}, full[1]]})
    assert syrian["sides"][0]["basras"]["each"] == [6, 8]


def test_BAS_47_lebanese_three_players_four_card_hands():
    game = load_game("basra", preset="lebanese_ashush", options={"num_players": 3})
    assert game.rules.hand_size == 4 and load_game("basra", preset="lebanese_ashush").rules.hand_size == 6
    assert game.new_initial_state(seed=8).current_player() == 2
    assert batches(game) == [(12, 0)] * 4
    six = load_game("basra", preset="lebanese_ashush", options={"num_players": 3, "hand_size": 6})
    assert batches(six) == [(18, 0), (18, 0), (12, 0)]
