"""Every worked example of fishing-relatives.md A11 (PIS-01 … PIS-29), one test each."""

from __future__ import annotations

import pytest

from kafenio import load_game
from kafenio.engine.errors import KafenioError
from kafenio.fishing.pile import BELIEVE, CHALLENGE, CLAIM
from kafenio.referee.fishing import capture, score
from relatives_helpers import cards, deck, fill_captured, hand, names, position, srt

PIS01 = "5C 9H 3D 7S 2H KD 7C AS 4C 9S QH 10D 8D JC 6S 2C AH 5D KS 3C"


def rules(preset="pagat_4p", **options):
    return load_game("pisti", preset=preset, options=options).rules


def pile(state, seat=None):
    """The pile bottom to top as the spec writes it (``*`` = face down)."""
    return " ".join(f"{c}*" if i < state.face_down else c
                    for i, c in enumerate(names(state.floor).split()))


def test_PIS_01_canonical_deal():
    game = load_game("pisti")
    state = game.new_initial_state(deck=deck(PIS01, "6D"), dealer=0)
    assert pile(state) == "5C* 9H* 3D* 7S"
    assert [hand(state, s) for s in (3, 2, 1, 0)] == [
        srt("2H KD 7C AS"), srt("4C 9S QH 10D"), srt("8D JC 6S 2C"),
        srt("AH 5D KS 3C")]
    view = state.view(2)
    assert view["stock"] == 32 and view["stock_bottom_known"] == ["6D"] and state.current_player() == 3
    assert view["floor"] == ["7S"] and view["pile_face_down"] == 3 and view["face_down_known"] == []
    assert game.deals_per_round() == 3


def test_PIS_02_first_capture_takes_face_down_cards():
    game = load_game("pisti")
    state = game.new_initial_state(deck=deck(PIS01, "6D"), dealer=0)
    state.apply_string("play 7C")
    assert sorted(state.captured[1]) == sorted(cards("5C 9H 3D 7S 7C")) and state.specials[1] == []
    assert "5C" in state.view(1)["opening_pile"] and "5C" in state.view(3)["opening_pile"]
    assert "5C" not in state.view(0)["opening_pile"] and "??" in state.view(2)["opening_pile"]
    assert "5C" not in state.information_state_string(0) and "5C" in state.information_state_string(1)


def test_PIS_03_opening_jack_turn_next():
    game = load_game("pisti")
    assert pile(game.new_initial_state(deck=deck("5C 9H 3D JS", "6D"))) == "5C* 9H* JS 3D"
    assert pile(game.new_initial_state(deck=deck("5C 9H JD JS", "6D"))) == "5C* JS JD 9H"
    with pytest.raises(KafenioError, match="redeal_required"):
        game.new_initial_state(deck=deck("JC JD JH JS", "6D"))


def test_PIS_04_jack_under_pile():
    game = load_game("pisti", options={"opening_jack_rule": "jack_under_pile"})
    state = game.new_initial_state(deck=deck("5C 9H 3D JS", "6D"))
    assert pile(state) == "JS* 5C* 9H* 3D"
    assert state.view(0)["face_down_known"] == ["JS"]


def test_PIS_05_german_diaspora_jack_to_stock_bottom():
    game = load_game("pisti", preset="german_diaspora")
    hands16 = " ".join(PIS01.split()[4:])
    state = game.new_initial_state(deck=deck(f"5C 9H 3D JS {hands16} 8C", "6D"))
    assert pile(state) == "5C* 9H* 3D* 8C"
    assert hand(state, 3) == srt("2H KD 7C AS") and hand(state, 0) == srt("AH 5D KS 3C")
    assert len(state.stock) == 32 and state.stock[-1] == cards("JS")[0]
    assert state.view(0)["stock_bottom_known"] == ["JS"]
    while state.stock_pos < len(state.stock):  # play to the third batch
        state.apply_action(state.legal_actions()[0])
    assert cards("JS")[0] in state.hands[0]


def test_PIS_06_cut_rules():
    order = deck(PIS01, "6H JD JH")
    state = load_game("pisti").new_initial_state(deck=order)
    assert names(state.stock[-3:]) == "JD JH 6H" and state.view(0)["stock_bottom_known"] == ["6H"]
    assert pile(state) == "5C* 9H* 3D* 7S" and hand(state, 1) == srt("8D JC 6S 2C")
    state = load_game("pisti", options={"cut_jack_rule": "cutter_takes_jack"}).new_initial_state(deck=order)
    assert [hand(state, s) for s in (3, 2, 1, 0)] == [
        srt("2H KD 7C AS"), srt("4C 9S QH 10D"), srt("JH 8D JC 6S"),
        srt("2C AH 5D KS")]
    assert len(state.stock) == 32 and names(state.stock[:1]) == "3C" and names(state.stock[-1:]) == "JD"


def test_PIS_07_batches_per_deal():
    assert [load_game("pisti", options={"num_players": n}).deals_per_round() for n in (2, 3, 4)] == [6, 4, 3]


def test_PIS_08_top_card_match_takes_pile():
    r = capture(rules(), "4S 8D KC", "KH")
    assert r["captured"] == ["4S", "8D", "KC"] and r["floor_after"] == [] and not r["basra"]


def test_PIS_09_only_the_top_card_counts():
    r = capture(rules(), "7S 4D", "7C")
    assert r["captured"] == [] and r["floor_after"] == ["7S", "4D", "7C"]


def test_PIS_10_jack_takes_pile():
    r = capture(rules(), "4S 8D KC", "JD")
    assert len(r["captured"]) == 3 and not r["basra"]


def test_PIS_11_pisti():
    _game, state = position("pisti", "", {2: "9C 3S", 1: "9D 4S"}, to_play=2)
    state.apply_string("play 9C")
    state.apply_string("play 9D")
    assert state.specials == [[], [10]] and len(state.captured[1]) == 2


def test_PIS_12_jack_pisti():
    for options, points in (({}, 20), ({"jack_pisti_points": 10}, 10), ({"jack_pisti_points": 0}, 0)):
        r = capture(rules(**options), "JS", "JD")
        assert r["captured"] == ["JS"] and r["points"] == points
    single = load_game("pisti", preset=["pagat_4p", "single_jack_pisti"]).rules
    assert capture(single, "JS", "JD")["points"] == 10


def test_PIS_13_jack_on_lone_card():
    assert capture(rules(), "6H", "JC") == {"captured": ["6H"], "basra": False, "points": 0, "floor_after": [],
                                             "note": "JC sweeps the whole floor"}
    assert capture(rules(jack_on_lone_card_points=20), "6H", "JC")["points"] == 20


def test_PIS_14_jack_on_empty_table_is_ordinary():
    _game, state = position("pisti", "", {3: "JC 2S", 2: "5D 3S", 1: "5S 4S"}, to_play=3)
    for text in ("play JC", "play 5D"):
        state.apply_string(text)
    assert names(state.floor) == "JC 5D"
    state.apply_string("play 5S")
    assert len(state.captured[1]) == 3 and state.specials[1] == []


def test_PIS_15_jack_answered_by_jack():
    _game, state = position("pisti", "", {3: "JC 2S", 2: "JH 3S"}, to_play=3)
    state.apply_string("play JC")
    state.apply_string("play JH")
    assert state.specials[0] == [20] and len(state.captured[0]) == 2


def test_PIS_16_last_card():
    for options, points in (({}, 0), ({"pisti_on_last_card": True}, 10)):
        _game, state = position("pisti", "4C", {0: "4H"}, "pagat_2p", **options)
        state.apply_string("play 4H")
        assert state.is_terminal() and len(state.captured[0]) == 2 and sum(state.specials[0]) == points
    assert capture(rules("pagat_2p"), "JC", "JD", last_card=True)["points"] == 0


def test_PIS_17_last_card_of_an_earlier_batch():
    _game, state = position("pisti", "QC", {0: "QD"}, "pagat_2p", stock="2S 3S 4S 5S 6S 7S 8S 9S")
    state.apply_string("play QD")
    assert state.specials[0] == [10] and not state.is_terminal()


def test_PIS_18_leftovers_to_the_last_capturer():
    _game, state = position("pisti", "6S 9D KC", {3: "4H"}, to_play=3)
    state.last_capturer = 1
    state.apply_string("play 4H")
    assert state.is_terminal() and names(state.final_take[1]) == "6S 9D KC 4H"
    assert state.score_sheet()["sides"][1]["pistis"]["points"] == 0


def side(cards_, point_cards, pistis=()):
    return {"cards": cards_, "point_cards": point_cards, "pistis": list(pistis)}


def test_PIS_19_four_player_scoring():
    r = score(rules(), {"sides": [side(30, "AS AH JC 10D", [10, 10]), side(22, "AC AD JD JH JS 2C", [20])]})
    assert [s["total"] for s in r["sides"]] == [29, 27]
    assert [s["card_points"] for s in r["sides"]] == [6, 7]


def test_PIS_19_referee_refuses_sheets_no_deal_gives():
    """A6 and A4.1 as a referee checks a sheet given in numbers: PIS-19's sheet is accepted; card
    points that do not add up to the deck's 13, more than a side's cards can carry, a majority
    the rules do not give, a pişti value the options do not have, more jack piştis than the four
    jacks make, more piştis than a deal has room for and a carried majority are refused, each
    naming the rule."""
    def sheet(a_points=6, b_points=7, a_pistis=(10, 10), b_pistis=(20,), **extra):
        return {"sides": [{"cards": 30, "card_points": a_points, "pistis": list(a_pistis), **extra},
                          {"cards": 22, "card_points": b_points, "pistis": list(b_pistis)}]}

    ok = score(rules(), sheet(majority=3))
    assert [s["total"] for s in ok["sides"]] == [29, 27] and [s["card_points"] for s in ok["sides"]] == [6, 7]
    refusals = [
        (rules(), sheet(b_points=8), r"card_points.*14.*13.*§A6"),
        (rules(), {"sides": [{"cards": 2, "card_points": 6}, {"cards": 50, "card_points": 7}]}, r"richest 2.*5 .*§A6"),
        (rules(), {"sides": [{"cards": 26, "majority": 3}, {"cards": 26, "majority": 3}]}, r"majority.*nobody.*§A6"),
        (rules(), sheet(majority=0), r"sides\[0\]\.majority.*30 of the 52"),
        (rules(), sheet(b_pistis=(25,)), r"no pişti is worth 25.*10, 20.*§A4"),
        (rules(preset="pagat_4p", jack_pisti_points=10), sheet(), r"worth 20.*10 .*§A4"),
        (rules(), sheet(a_pistis=(20, 20)), r"3 worth 20.*at most 2.*§A4"),
        (rules(), sheet(a_pistis=[10] * 20, b_pistis=[10] * 4), r"24 in one deal.*at most 23.*§A4"),
        (rules(), {**sheet(), "majority_carry": 3}, r"majority_carry.*nobody.*§A6"),
        (rules(), {"sides": [{"cards": 30, "card_points": 6, "score": 29}, {"cards": 22}]}, r"'score'.*card_points"),
        (rules(), {"sides": [{"cards": 30, "card_points": 6, "point_cards": "AS"}, {"cards": 22}]}, r"not both"),
    ]
    for r, data, message in refusals:
        with pytest.raises(KafenioError, match=message):
            score(r, data)
    assert score(rules(jack_on_lone_card_points=20), sheet(a_pistis=(20, 20, 20)))["sides"][0]["total"] == 3 + 6 + 60
    assert score(rules(bluffing=True), sheet(a_pistis=(40, 20)))["sides"][0]["pistis"]["points"] == 60
    split = score(rules(), {"sides": [{"cards": 26, "card_points": 6, "majority": 0}, {"cards": 26, "card_points": 7}]})
    assert [s["total"] for s in split["sides"]] == [6, 7]


def test_PIS_20_split_cards():
    r = score(rules(), {"sides": [side(26, "AS AH JC 2C", [10]), side(26, "AC AD JD JH JS 10D")]})
    assert [s["total"] for s in r["sides"]] == [15, 8]


def test_PIS_21_three_players_majority():
    r = score(rules("three_player"), {"sides": [side(20, ""), side(20, ""), side(12, "")]})
    assert [s["majority"] for s in r["sides"]] == [0, 0, 0]
    r = score(rules("three_player"), {"sides": [side(19, ""), side(18, ""), side(15, "")]})
    assert [s["majority"] for s in r["sides"]] == [3, 0, 0]


def test_PIS_22_card_tables():
    pts = "AS KD QC JH 10D 10S 2C 7H"
    for preset, points, deck_total in (([], 7, 13), (["pishpirik"], 8, 22)):
        game = load_game("pisti", preset=preset)
        assert sum(game.card_points[c] for c in cards(pts)) == points
        assert sum(game.card_points) == deck_total


def test_PIS_23_last_pile_bonus():
    r = score(rules(last_pile_bonus=3), {"sides": [{"cards": 27, "point_cards": "AS"},
                                                    {"cards": 25, "point_cards": "", "took_last_pile": True}]})
    assert [s["total"] for s in r["sides"]] == [4, 3]
    _game, state = position("pisti", "6S 9D", {3: "4H"}, to_play=3, last_pile_bonus=3)
    state.last_capturer = 1
    state.apply_string("play 4H")
    assert state.score_sheet()["sides"][1]["last_pile_bonus"] == 3


def test_PIS_24_match_end():
    game = load_game("pisti")
    assert game.match_winner([155, 160], [0, 0], 1) == 1
    assert game.match_winner([158, 158], [0, 0], 1) is None
    assert game.match_winner([150, 100], [0, 0], 1) is None
    assert load_game("pisti", preset="turkish_101").rules.target_score == 101


def bluff_position(face_down_card):
    _game, state = position("pisti", "8C", {1: f"{face_down_card} 4S", 2: "5S", 0: "6S", 3: "7S"},
                           ["pagat_4p", "bluff"], to_play=1, stock="2S 3S 4H 5H")
    state.apply_action(CLAIM + cards(face_down_card)[0])
    assert state.current_player() == 2 and state.legal_actions() == [BELIEVE, CHALLENGE]
    assert state.view(2)["phase"] == "answer" and face_down_card not in str(state.view(2))
    return state


def test_PIS_25_bluff_believed():
    state = bluff_position("3D")
    state.apply_string("believe")
    assert len(state.captured[1]) == 2 and state.specials[1] == [10]
    assert "3D" not in str(state.view(2)) and "3D" in str(state.view(1)["last_capture"])
    assert state.current_player() == 0


def test_PIS_26_genuine_claim_challenged():
    state = bluff_position("8D")
    state.apply_string("challenge")
    assert len(state.captured[1]) == 2 and state.specials[1] == [20]


def test_PIS_27_bluff_exposed():
    state = bluff_position("3D")
    state.apply_string("challenge")
    assert state.bonus_lines["bluff_penalties"] == [20, 0] and names(state.floor) == "8C 3D"
    assert state.current_player() == 0 and state.side_scores()[0] == 20


def test_PIS_28_bluff_on_lone_jack():
    for answer, card, expected in (("believe", "3D", ([], [20])), ("challenge", "JD", ([], [40]))):
        _game, state = position("pisti", "JS", {1: f"{card} 4S"}, ["pagat_4p", "bluff"], to_play=1,
                               stock="2S 3S 4H 5H")
        state.apply_action(CLAIM + cards(card)[0])
        state.apply_string(answer)
        assert (state.specials[0], state.specials[1]) == expected
    _game, state = position("pisti", "JS", {1: "3D 4S"}, ["pagat_4p", "bluff"], to_play=1, stock="2S 3S 4H 5H")
    state.apply_string("claim 3D")
    state.apply_string("challenge")
    assert state.bonus_lines["bluff_penalties"] == [40, 0]


def test_PIS_29_a_whole_final_batch():
    _game, state = position("pisti", "5H 9C", {1: "9S KD 4C QS", 0: "JS 7D 4D QD"}, "pagat_2p", to_play=1)
    fill_captured(state, {0: ("AS AH JC 2C", 20), 1: ("AD AC JD JH 10D", 22)})
    state.specials[0].append(10)
    for text in ("9S", "7D", "KD", "4D", "4C", "QD", "QS", "JS"):
        state.apply_string("play " + text)
    assert state.is_terminal() and state.specials[1] == [10]
    sides = state.score_sheet()["sides"]
    assert [s["cards"] for s in sides] == [20, 32] and [s["total"] for s in sides] == [15, 21]
    assert state.final_take[0] == 1 and names(state.final_take[1]) == "JS"


# -- added 2026-11-26 (fishing-relatives.md v1.2) ------------------------------------------

@pytest.mark.parametrize("visibility", ["hidden", "public"])
def test_PIS_30_views_hide_running_tallies(visibility):
    _game, state = position("pisti", "", {3: "8H 2D", 2: "8C 3D", 1: "4S 5H", 0: "5S 6H"}, to_play=3,
                            capture_tally_visibility=visibility)
    state.captured[1] = cards("5C 9H 3D 7S 7C")   # team B's first capture, the opening cards in it
    state.last_capturer = 3
    state.apply_string("play 8H")
    state.apply_string("play 8C")                 # a pişti for team A
    view = state.view(0)
    assert view["pistis"] == [{"count": 1, "points": 10}, {"count": 0, "points": 0}]
    assert view["last_capture"] == {"seat": 2, "cards": ["8H", "8C"]} and view["hand_sizes"] == [2, 2, 1, 1]
    if visibility == "hidden":
        assert view["captured"] is None and view["deal_points"] is None
    else:
        assert view["captured"] == [2, 5] and [p["card_points"] for p in view["deal_points"]] == [0, 0]
