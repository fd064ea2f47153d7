"""Every worked example of fishing-relatives.md B11 (XER-01 … XER-27), one test each."""

from __future__ import annotations

import pytest

from kafenio import load_game
from kafenio.engine.errors import KafenioError
from kafenio.referee.fishing import capture, score
from relatives_helpers import cards, deck, fill_captured, hand, names, position, srt

XER01 = "3C 8H QD AS 10C 6S 5H KC 2D 9D JH 7C"
NEXT = "2S 8C KH 3H"


def rules(preset="pagat_2p", **options):
    return load_game("xeri", preset=preset, options=options).rules


def deal(pile_cards, preset="pagat_2p", suffix="", positions=(), **options):
    game = load_game("xeri", preset=preset, options=options)
    return game.new_initial_state(deck=deck(f"{XER01} {pile_cards} {NEXT}", suffix), dealer=0,
                                  reinsert_positions=positions)


XER02_POSITIONS = [10, 20, 30, 35]


def test_XER_01_canonical_deal():
    state = deal("4S 9C AD 6H")
    assert hand(state, 1) == srt("3C 8H QD AS 10C 6S") and hand(state, 0) == srt("5H KC 2D 9D JH 7C")
    assert names(state.floor) == "4S 9C AD 6H" and state.view(0)["floor"] == ["4S", "9C", "AD", "6H"]
    assert len(state.stock) == 36 and names(state.stock[:1]) == "2S" and state.game.deals_per_round() == 4
    assert state.current_player() == 1


def test_XER_02_top_pair_rejected():
    state = deal("4S 9C 6D 6H", positions=XER02_POSITIONS)
    assert names(state.floor) == NEXT and len(state.stock) == 36
    assert names(state.stock[i] for i in (6, 16, 26, 31)) == "4S 9C 6D 6H"
    for seat in (0, 1):
        assert state.view(seat)["stock_bottom_known"] == []
    assert state.deal_inputs() == {"reinsert_positions": XER02_POSITIONS}


def test_XER_03_pair_lower_down():
    assert names(deal("6D 9C 4S 6H").floor) == "6D 9C 4S 6H"
    assert names(deal("6D 9C 4S 6H", "gamerules_2p", positions=XER02_POSITIONS).floor) == NEXT


def test_XER_04_jack_on_top():
    for preset in ("pagat_2p", "gamerules_2p"):
        state = deal("4S 9C 6H JD", preset, positions=XER02_POSITIONS)
        assert names(state.floor) == NEXT and state.view(0)["stock_bottom_known"] == []
        assert state.stock[-1] != cards("JD")[0]
    assert names(deal("4S 9C 6H JD", ["pagat_2p", "open_pile"]).floor) == "4S 9C 6H JD"
    assert len(capture(rules("pagat_2p", opening_pile_check="none"), "4S 9C 6H JD", "JS")["captured"]) == 4
    r = capture(rules(), "4S 9C 6H JD", "QC")
    assert r["captured"] == [] and r["floor_after"] == ["4S", "9C", "6H", "JD", "QC"]


def test_XER_05_capture_no_xeri():
    r = capture(rules(), "4S 9C AD 6H", "6S")
    assert len(r["captured"]) == 4 and not r["basra"] and r["floor_after"] == []


def test_XER_06_only_top_counts():
    assert capture(rules(), "4S 9C AD 6H", "9D")["floor_after"] == ["4S", "9C", "AD", "6H", "9D"]


def test_XER_07_jack_takes_pile():
    r = capture(rules(), "4S 9C AD 6H", "JH")
    assert len(r["captured"]) == 4 and r["points"] == 0


def test_XER_08_xeri():
    _game, state = position("xeri", "", {0: "8H 2S", 1: "8S 3S"}, to_play=0)
    state.apply_string("play 8H")
    state.apply_string("play 8S")
    assert state.specials == [[], [10]] and len(state.captured[1]) == 2


def test_XER_09_jack_xeri():
    assert capture(rules(), "JS", "JD")["points"] == 20
    assert capture(load_game("xeri", preset=["pagat_2p", "jack_xeri_25"]).rules, "JS", "JD")["points"] == 25


def test_XER_10_jack_on_lone_card():
    r = capture(rules(), "5C", "JS")
    assert r["captured"] == ["5C"] and r["points"] == 0 and not r["basra"]


def test_XER_11_last_card():
    assert capture(rules(), "3S", "3D", last_card=True)["points"] == 10
    assert capture(load_game("xeri", preset=["pagat_2p", "no_last_xeri"]).rules, "3S", "3D",
                   last_card=True)["points"] == 0


def test_XER_12_good_ten_as_xeri():
    _game, state = position("xeri", "10H", {1: "10D 2S"}, to_play=1, stock="3S 4S 5S 6S")
    state.apply_string("play 10D")
    sheet = state.score_sheet()["sides"][1]
    assert sheet["xeris"]["points"] == 10 and sheet["card_points"] == 3 and sheet["cards"] == 2


def test_XER_13_two_card_pile():
    r = capture(rules(), "KD 5C", "5S")
    assert len(r["captured"]) == 2 and not r["basra"]


def test_XER_14_jack_on_empty_then_jack():
    _game, state = position("xeri", "", {0: "JC 2S", 1: "JH 3S"}, to_play=0)
    state.apply_string("play JC")
    state.apply_string("play JH")
    assert state.specials[1] == [20]


def xside(n, point_cards, xeris=()):
    return {"cards": n, "point_cards": point_cards, "xeris": list(xeris)}


def test_XER_15_scoring():
    r = score(rules(), {"sides": [xside(29, "AS AH KC KD QH JC JD 10S 10H 2C", [10, 10]),
                                  xside(23, "AD AC KH KS QC QD QS JH JS 10C 10D", [20])]})
    assert [s["total"] for s in r["sides"]] == [33, 32]
    assert [s["card_points"] for s in r["sides"]] == [10, 12]


def test_XER_15_referee_refuses_sheets_no_round_gives():
    """B4 and B6 as a referee checks a sheet given in numbers: XER-15's round is accepted; card
    points that are not the deck's 22, a jack xeri worth 25 without ``jack_xeri_25``, three jack
    xeris and more xeris than a round has room for are refused, naming the rule."""
    def sheet(a=10, b=12, a_xeris=(10, 10), b_xeris=(20,)):
        return {"sides": [{"cards": 29, "card_points": a, "xeris": list(a_xeris)},
                          {"cards": 23, "card_points": b, "xeris": list(b_xeris)}]}

    assert [s["total"] for s in score(rules(), sheet())["sides"]] == [33, 32]
    assert score(rules("pagat_2p", jack_xeri_points=25), sheet(b_xeris=(25,)))["sides"][1]["total"] == 37
    for data, message in ((sheet(b=13), r"23.*22.*§B6"), (sheet(b_xeris=(25,)), r"no xeri is worth 25.*10, 20.*§B4"),
                          (sheet(a_xeris=(20, 20, 20)), r"4 worth 20.*at most 2.*§B4"),
                          (sheet(a_xeris=[10] * 23, b_xeris=(10,)), r"24 in one deal.*at most 23.*§B4")):
        with pytest.raises(KafenioError, match=message):
            score(rules(), data)


def test_XER_16_split():
    r = score(rules(), {"sides": [xside(26, "AS AH KC KD QH JC JD 10S 10H 2C", [10, 10]),
                                  xside(26, "AD AC KH KS QC QD QS JH JS 10C 10D", [20])]})
    assert [s["total"] for s in r["sides"]] == [30, 32]


def test_XER_17_even_round_has_no_winner():
    r = score(rules(), {"sides": [xside(26, "AS AH KC KD QH QC JC JD 10S 10H 2C"),
                                  xside(26, "AD AC KH KS QD QS JH JS 10C 10D")]})
    assert [s["total"] for s in r["sides"]] == [11, 11]


def test_XER_18_rounds_won():
    game = load_game("xeri")
    assert game.rules.match_rounds == 5
    assert game.match_winner([0, 0], [2, 1], 4) is None      # s0, s1, s0, nobody
    assert game.match_winner([0, 0], [2, 2], 5) is None      # … s1: 2–2 after 5 → a sixth round
    assert game.match_winner([0, 0], [2, 3], 6) == 1         # s1 wins the sixth: 3–2
    # a round with equal points is played: 3–1 after five rounds ends the match
    assert game.match_winner([0, 0], [3, 1], 5) == 0 and game.match_winner([0, 0], [3, 1], 4) is None


def test_XER_19_point_race():
    game = load_game("xeri", preset=["pagat_2p", "point_race"])
    assert game.match_winner([154, 131], [0, 0], 1) == 0
    assert game.match_winner([157, 162], [0, 0], 1) is None
    assert game.match_winner([251, 240], [0, 0], 1) == 0
    higher = load_game("xeri", preset=["pagat_2p", "point_race"], options={"both_reach_rule": "higher_wins"})
    assert higher.match_winner([157, 162], [0, 0], 1) == 1


def test_XER_20_four_player_deal():
    game = load_game("xeri", preset="pagat_4p")
    state = game.new_initial_state(deck=deck("AS 2S 3S 4S 5S 6S AH 2H 3H 4H 5H 6H AD 2D 3D 4D 5D 6D "
                                             "AC 2C 3C 4C 5C 6C 7S 8H 9D QC"), dealer=0)
    assert [hand(state, s) for s in (3, 2, 1, 0)] == [srt("AS 2S 3S 4S 5S 6S"), srt("AH 2H 3H 4H 5H 6H"),
                                                      srt("AD 2D 3D 4D 5D 6D"), srt("AC 2C 3C 4C 5C 6C")]
    assert names(state.floor) == "7S 8H 9D QC" and len(state.stock) == 24 and game.deals_per_round() == 2
    assert state.current_player() == 3


def test_XER_21_four_player_scoring():
    r = score(rules("pagat_4p"), {"sides": [xside(30, "AS AH KC QH QD JC 10S 10H 10D 2C", [10]),
                                            xside(22, "AD AC KD KH KS QC QS JD JH JS 10C", [10, 10])]})
    assert [s["total"] for s in r["sides"]] == [24, 31]


def test_XER_22_exposed_bottom():
    state = deal("4S 9C AD 6H", ["pagat_2p", "exposed_bottom"], suffix="5D JC JS")
    assert names(state.stock[-3:]) == "JC JS 5D" and state.view(1)["stock_bottom_known"] == ["5D"]
    assert names(state.floor) == "4S 9C AD 6H" and hand(state, 1) == srt("3C 8H QD AS 10C 6S")


def test_XER_23_no_xeri_on_first_play():
    state = deal("4S 9C AD 6H")
    state.apply_string("play 6S")
    assert len(state.captured[1]) == 5 and state.specials[1] == []


def test_XER_24_jack_xeri_last_card_without_last_xeri():
    r = capture(load_game("xeri", preset=["pagat_2p", "no_last_xeri"]).rules, "JC", "JD", last_card=True)
    assert r["captured"] == ["JC"] and r["points"] == 0


def test_XER_25_a_whole_final_deal():
    _game, state = position("xeri", "7D 2H KS 5C", {1: "5S 9H 9C QH 3D JC", 0: "8S 4C 9S 3C AC QS"}, to_play=1)
    fill_captured(state, {0: ("AS KC QC JS 10S 10H 2C", 16), 1: ("AH AD KD KH QD JH JD 10D 10C", 20)})
    state.specials[1].append(10)
    state.last_capturer = 0
    for text in ("5S", "8S", "9H", "9S", "9C", "4C", "QH", "QS", "3D", "3C", "JC", "AC"):
        state.apply_string("play " + text)
    assert state.is_terminal() and state.specials[0] == [10]
    sides = state.score_sheet()["sides"]
    assert [s["cards"] for s in sides] == [27, 25] and [s["total"] for s in sides] == [24, 21]
    assert names(state.final_take[1]) == "JC AC"
    assert cards("JC")[0] in state.captured[0]


# -- added 2026-11-26 (fishing-relatives.md v1.2) ------------------------------------------

XER26 = "7S 2D KC 9H 4C AD 5S QH 8D 3C 10S 6H 9S 4D QC QS 2C 7H KD 5D 8S"


def test_XER_26_a_rejected_pile_is_reshuffled_not_buried():
    for preset in ("pagat_2p", "gamerules_2p"):
        game = load_game("xeri", preset=preset)
        state = game.new_initial_state(deck=deck(XER26), dealer=0, reinsert_positions=[5, 12, 0, 33])
        assert hand(state, 1) == srt("7S 2D KC 9H 4C AD") and hand(state, 0) == srt("5S QH 8D 3C 10S 6H")
        assert names(state.floor) == "QC 2C 7H KD" and len(state.stock) == 36
        assert names(state.stock[:3]) == "5D 8S 9S" and names([state.stock[9], state.stock[29]]) == "4D QS"
        assert state.view(0)["stock_bottom_known"] == [] and state.view(1)["stock_bottom_known"] == []
        assert "9S" in [c for c in names(state.seen_cards(0)).split()]   # it was seen face up


def test_XER_27_views_hide_running_tallies():
    _game, state = position("xeri", "5D", {0: "3C 4C", 1: "9H 10H"}, "pagat_2p", to_play=1)
    state.captured = [cards("8S 8C"), cards("2H 3H 4H 5H 6H 7H 9C")]
    state.specials = [[10], []]
    view = state.view(1)
    assert view["xeris"] == [{"count": 1, "points": 10}, {"count": 0, "points": 0}]
    assert view["captured"] is None and view["deal_points"] is None and view["hand_sizes"] == [2, 2]
