"""Every worked example of biriba.md §13 (BIR-01 … BIR-36)."""

from __future__ import annotations

import pytest
from tests.biriba_helpers import position, strings

import kafenio
from kafenio.cards import JOKER, parse_card, parse_cards
from kafenio.games.biriba.rulebook import RULEBOOK
from kafenio.referee import rummy as ref
from kafenio.rummy import actions as A
from kafenio.rummy.melds import MeldRules
from kafenio.rummy.search import find_opening


def rules(*presets, **options):
    return RULEBOOK.build(list(presets) or None, options)


STD = rules()


def meld(text, r=STD, kozi="S"):
    return ref.meld(r, text, kozi=kozi)


def test_BIR_01_offsuit_two_in_run():
    out = meld("4H 5H 2C=6H 7H")
    assert out == {"valid": True, "kind": "run", "clean": False, "cards": ["4H", "5H", "2C=6H", "7H"],
                   "bonus": 0}
    assert meld("4H 5H 2C 7H")["cards"] == ["4H", "5H", "2C=6H", "7H"]


def test_BIR_02_natural_two_at_bottom():
    out = meld("AH 2H 3H")
    assert out["valid"] and out["clean"] and out["cards"] == ["AH", "2H", "3H"]


def test_BIR_03_offsuit_two_in_two_position():
    out = meld("AS 2H=2S 3S")
    assert out["valid"] and not out["clean"] and out["cards"] == ["AS", "2H=2S", "3S"]


def test_BIR_04_ace_high():
    out = meld("QD KD AD")
    assert out["valid"] and out["clean"] and out["cards"] == ["QD", "KD", "AD"]


def test_BIR_05_wraparound_invalid():
    out = meld("KD AD 2D 3D")
    assert not out["valid"] and out["rule"].startswith("biriba.md §4")
    trap = meld("KD AD 2D")
    assert trap["valid"] and not trap["clean"] and trap["cards"] == ["2D=QD", "KD", "AD"]


def test_BIR_06_natural_two_plus_wild_dirty_biriba():
    out = meld("AC 2C 3C 4C 2D=5C 6C 7C")
    assert out["valid"] and not out["clean"] and out["bonus"] == 100
    assert out["cards"][1] == "2C"


def test_BIR_07_two_wilds_invalid():
    out = meld("5S JK=6S 2S=7S 8S")
    assert not out["valid"] and "§4.1" in out["rule"]


def test_BIR_08_set_with_one_wild():
    out = meld("9C 9D 9H JK")
    assert out["valid"] and out["kind"] == "set" and not out["clean"]


def test_BIR_09_set_with_two_wilds_invalid():
    out = meld("9C 9D JK 2S")
    assert not out["valid"] and "§4.1" in out["rule"]


def test_BIR_10_set_of_twos():
    assert meld("2C 2D 2H 2S") == {"valid": True, "kind": "set", "clean": True,
                                   "cards": ["2C", "2D", "2H", "2S"], "bonus": 0}
    assert not meld("2C 2D 2H 2S", rules(twos_set_allowed=False))["valid"]
    out = meld("2C 2D 2H 2S JK")
    assert not out["valid"] and "§4.3" in out["rule"]


def test_BIR_11_ace_at_both_ends_invalid():
    out = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    assert not out["valid"] and "§4.2" in out["rule"]


def test_BIR_12_runs_only():
    out = meld("9C 9D 9H", rules("standard_4p", "runs_only"))
    assert not out["valid"] and "§4.3" in out["rule"]


def test_BIR_13_clean_run_biriba_not_kozi():
    out = meld("5H 6H 7H 8H 9H 10H JH")
    assert out["clean"] and out["bonus"] == 200
    assert ref.score(STD, {"sides": [{"melds": ["5H 6H 7H 8H 9H 10H JH"], "pot": "taken"}]}
                     )["sides"][0]["melds"] == 55


def test_BIR_14_dirty_kozi_run():
    text = "7S 8S 9S JK=10S JS QS KS"
    assert meld(text)["bonus"] == 300
    assert meld(text, rules(kozi_mode="double"))["bonus"] == 200
    assert meld(text, rules(kozi_mode="none"))["bonus"] == 100


def test_BIR_15_clean_kozi_run():
    text = "3S 4S 5S 6S 7S 8S 9S 10S"
    assert meld(text)["bonus"] == 600
    assert meld(text, rules(kozi_mode="double"))["bonus"] == 400


def test_BIR_16_hiliara_kozi():
    out = meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    assert out["clean"] and out["bonus"] == 1000


def test_BIR_17_pentakosara_and_cyprus():
    text = "AD 2D 3D 4D 5D JK=6D 7D 8D 9D 10D JD QD KD"
    assert meld(text)["bonus"] == 500
    assert meld(text, rules("standard_4p", "cyprus_scoring"))["bonus"] == 100
    assert meld(text, rules("standard_4p", "no_full_run_bonus"))["bonus"] == 100


def test_BIR_18_full_run_two_to_ace():
    out = meld("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC")
    assert out["clean"] and out["bonus"] == 1000 and out["cards"][-1] == "AC"


def test_BIR_19_set_biribas():
    assert meld("7C 7C 7D 7D 7H 7S 7S")["bonus"] == 300
    assert meld("7C 7C 7D 7D 7H 7S 7S JK")["bonus"] == 150
    zoo = rules("standard_4p", "zoo_gr_scoring")
    assert meld("7C 7C 7D 7D 7H 7S 7S", zoo)["bonus"] == 200
    assert meld("7C 7C 7D 7D 7H 7S 7S JK", zoo)["bonus"] == 100


def test_BIR_20_natural_pushes_offsuit_two():
    low = ref.layoff(STD, "4H 5H 2C=6H 7H", "6H")
    high = ref.layoff(STD, "4H 5H 2C=6H 7H", "6H", wild_end="high")
    assert low["cards"] == ["2C=3H", "4H", "5H", "6H", "7H"] and not low["clean"]
    assert high["cards"] == ["4H", "5H", "6H", "7H", "2C=8H"] and not high["clean"]


def test_BIR_21_suited_two_becomes_natural():
    out = ref.layoff(STD, "3H 4H 2H=5H 6H", "5H")
    assert out["cards"] == ["2H", "3H", "4H", "5H", "6H"] and out["clean"]


def test_BIR_22_no_room_for_displaced_wild():
    out = ref.layoff(STD, "AS 2S 3S 4S 5S JK=6S 7S 8S 9S 10S JS QS KS", "6S")
    assert not out["valid"] and "§4.5" in out["rule"]


def test_BIR_23_dirtying_a_biriba():
    out = ref.layoff(STD, "5H 6H 7H 8H 9H 10H JH", "2D", wild_end="high")
    assert out["cards"][-1] == "2D=QH" and not out["clean"] and out["bonus"] == 100


def test_BIR_24_initial_meld_catsatcards():
    st = position("standard_4p", 0, "QH KH AH 8C 8D 8S 9C 10C JC 4D 5S",
                  options={"initial_meld_table": "catsatcards"}, match_scores=[1620, 0])
    assert st.opening_minimum(0) == 75
    for text in ("meld+ QH", "meld+ KH", "meld+ AH", "meld end", "meld+ 8C", "meld+ 8D", "meld+ 8S",
                 "meld end"):
        st.apply_string(text)
    assert st.provisional_points(0) == 65 and st.provisional is not None
    assert "discard 4D" not in strings(st) and "retract" in strings(st)
    for text in ("meld+ 9C", "meld+ 10C", "meld+ JC", "meld end"):
        st.apply_string(text)
    assert st.provisional is None and st.opened[0] and "discard 4D" in strings(st)
    back = position("standard_4p", 0, "QH KH AH 8C 8D 8S 9C 10C JC 4D 5S",
                    options={"initial_meld_table": "catsatcards"}, match_scores=[1620, 0])
    for text in ("meld+ QH", "meld+ KH", "meld+ AH", "meld end", "retract"):
        back.apply_string(text)
    assert back.hand_size[0] == 11 and back.melds[0] == []


@pytest.mark.parametrize(("table", "score", "minimum"), [
    ("wikipedia", 995, 0), ("wikipedia", 1000, 75), ("wikipedia", 1500, 90), ("wikipedia", 3200, 90),
    ("catsatcards", 995, 0), ("catsatcards", 1500, 75), ("catsatcards", 2995, 75),
    ("catsatcards", 3000, 100), ("catsatcards", 4000, 120)])
def test_BIR_25_minimum_tables(table, score, minimum):
    st = position(options={"initial_meld_table": table}, match_scores=[score, 0], hand="4D 5D")
    assert st.opening_minimum(0) == minimum


def test_BIR_26_no_biriba_yet():
    st = position(hand="9D 8C", melds={0: ["5C 6C 7C"]})
    assert sorted(strings(st)) == ["discard 8C", "discard 9D"]
    free = position(hand="9D 8C", melds={0: ["5C 6C 7C"]},
                    options={"biriba_required_for_biribaki": False})
    assert "layoff 0 8C" in strings(free)
    free.apply_string("layoff 0 8C")
    free.apply_string("discard 9D")
    assert free.pot_taken[0] and free.unplayed[0] and free.hand_size[0] == 11


def test_BIR_27_pot_in_flight():
    st = position(hand="5D 6D 7D 8D", melds={0: ["5H 6H 7H 8H 9H 10H JH"]})
    for text in ("meld+ 5D", "meld+ 6D", "meld+ 7D", "meld+ 8D", "meld end"):
        st.apply_string(text)
    assert st.pot_taken[0] and st.hand_size[0] == 11 and st.current_player() == 0
    assert any(s.startswith("discard") for s in strings(st))


def test_BIR_28_closing():
    st = position(seat=2, hand="QC", melds={0: ["5H 6H 7H 8H 9H 10H JH"]}, pot_taken=[0],
                  phase="draw")
    st.stock.append(parse_card("QH"))
    st.apply_string("draw")
    st.apply_string("layoff 0 QH")
    st.apply_string("discard QC")
    assert st.is_terminal() and st.closed_by == 0
    assert st.score_sheet()["sides"][0]["closing"] == 100
    no = position(seat=2, hand="QC 3D", melds={0: ["5H 6H 7H 8H 9H 10H JH"]}, pot_taken=[0])
    assert sorted(strings(no)) == ["discard 3D", "discard QC"]


def _bir29(**options):
    st = position(seat=1, hand="8S", melds={1: ["5S 6S 7S", "AD 2D 3D 4D 5D 6D 7D"]}, pot_taken=[1],
                  pile="9S", phase="draw", options=options)
    return st


def test_BIR_29_single_card_pickup():
    st = _bir29()
    st.apply_string("take")
    assert sorted(strings(st)) == ["discard 8S", "discard 9S"]
    free = _bir29(single_card_pickup_restriction="none")
    free.apply_string("take")
    free.apply_string("layoff 0 8S")
    free.apply_string("discard 9S")
    assert free.is_terminal() and free.closed_by == 1
    assert "take" not in strings(_bir29(single_card_pickup_restriction="forbidden"))
    scope = position(seat=1, hand="8S", melds={1: ["5S 6S 7S", "AD 2D 3D 4D 5D 6D 7D"]}, pile="9S",
                     phase="draw")
    scope.apply_string("take")
    scope.apply_string("layoff 0 8S")
    scope.apply_string("discard 9S")
    assert scope.pot_taken[1] and not scope.is_terminal()


def _deck_with_up(up: int):
    game = kafenio.load_game("biriba")
    deck = game.shuffle(5)
    i = deck.index(up, 0)
    deck[i], deck[66] = deck[66], deck[i]
    return game, deck


def test_BIR_30_joker_up_card():
    game, deck = _deck_with_up(JOKER)
    st = game.new_initial_state(deck=deck, dealer=0)
    assert st.current_player() == 3 and st.hand_size[3] == 12 and st.pile == []
    assert sorted(strings(st)) == ["kozi C", "kozi D", "kozi H", "kozi S", "kozi none"]
    st.apply_string("kozi H")
    assert st.view(None)["kozi"] == "H" and strings(st) == ["draw"]
    game, deck = _deck_with_up(parse_card("2D"))
    st = game.new_initial_state(deck=deck, dealer=0)
    assert st.view(None)["kozi"] == "D" and st.view(None)["discard_pile"] == ["2D"]


def test_BIR_31_full_deal_team_a_closes():
    sheet = ref.score(STD, {"kozi": "S", "sides": [
        {"melds": ["5H 6H 7H 8H 9H 10H JH", "QC QD QS JK", "AS 2S 3S 4S"], "hands": ["", "8D 3C"],
         "pot": "taken", "closed": True},
        {"melds": ["7C 7D 7S 7H", "KD KH 2C"], "hands": ["AH JK 9C", "4D 4D 6S"], "pot": "untaken"}]})
    a, b = sheet["sides"]
    assert (a["melds"], a["closing"], a["hands"], a["total"]) == (140, 100, -15, 425)
    assert [x["bonus"] for x in a["bonuses"]] == [200]
    assert (b["melds"], b["hands"], b["pot_points"], b["total"]) == (50, -60, -100, -110)


def test_BIR_32_unplayed_pot():
    side = {"melds": ["4C 5C 6C 7C JK=8C 9C 10C", "AS AD AC AH", "KS KD KC KH", "5S 5D 5H 5C"],
            "hands": ["10S 5D"], "pot": "unplayed",
            "unplayed_cards": "JK AS AD AH AC KS KD QS QD JS 5D"}
    sheet = ref.score(STD, {"sides": [side]})["sides"][0]
    assert sheet["melds"] == 180 and sheet["total"] == 165
    by_cards = ref.score(rules(unplayed_biribaki_penalty="card_values"), {"sides": [side]})["sides"][0]
    assert by_cards["total"] == 130


def test_BIR_33_stock_exhausted_pass_round():
    st = position(seat=3, hand="4C", pile="KH", phase="draw")
    st.stock = []
    st._start_turn()
    for seat in (3, 2, 1, 0):
        assert st.current_player() == seat and "pass" in strings(st)
        st.apply_string("pass")
    assert st.is_terminal() and st.closed_by is None
    sheet = ref.score(STD, {"sides": [
        {"melds": ["5H 6H 7H 8H 9H 10H JH", "AS AD AC AH", "KS KD KC KH", "QS QD QC QH", "JS JD JC",
                   "10S 10D 10C", "9S 9D 9C", "3S 3D 3C 3H 3D"], "hands": ["4C", "JD QD"],
         "pot": "taken"},
        {"melds": ["AS AD AC", "KS KD KC KH KS"], "hands": ["AH AH JK 10C", "KD KH QD 5C"],
         "pot": "untaken"}]})
    a, b = sheet["sides"]
    assert (a["melds"], a["closing"], a["total"]) == (310, 0, 485)
    assert (b["melds"], b["total"]) == (95, -100)


def test_BIR_34_match_end_and_tie():
    game = kafenio.load_game("biriba")
    assert game.match_winner([3375, 2990], [1, 0], 1) == 0
    assert game.match_winner([3205, 3205], [1, 1], 2) is None
    assert game.match_winner([3000, 2000], [1, 0], 1) is None
    ge = kafenio.load_game("biriba", options={"target_comparison": "greater_or_equal"})
    assert ge.match_winner([3000, 2000], [1, 0], 1) == 0


def test_BIR_35_three_player_solo_half_credit():
    game = kafenio.load_game("biriba", preset="three_players_solo_18")
    st = game.new_initial_state(seed=3)
    assert [len(p) for p in st.pots] == [18, 11] and len(st.stock) == 45
    st._make_solo(1)
    st.deal_score_sheet = lambda: {"sides": [{"total": 640}, {"total": 235}]}
    assert st.side_scores() == [117.5, 640, 117.5]


def test_BIR_36_whole_hand_first_meld():
    hand = "5H 6H 7H 8H 9H 10H JH QC QD QS 2C 4S"
    st = position("two_players", 0, hand, kozi="H", options={"whole_hand_first_meld": True,
                                                            "kozi_mode": "double",
                                                            "kozi_rank_sets": True})
    st.kozi_rank = 12
    assert find_opening(st.hands[0], MeldRules(), whole=True)
    for text in ["meld+ 5H", "meld+ 6H", "meld+ 7H", "meld+ 8H", "meld+ 9H", "meld+ 10H", "meld+ JH",
                 "meld end", "meld+ QC", "meld+ QD", "meld+ QS", "meld+ 2C", "meld end", "discard 4S"]:
        st.apply_string(text)
    assert st.pot_taken[0] and st.unplayed[0] and not st.whole_hand_pending
    bonuses = [b["bonus"] for b in st.score_sheet()["sides"][0]["bonuses"]]
    assert bonuses == [400]
    other = position("two_players", 1, "QC QD QS 4H 9D", kozi="H",
                     options={"whole_hand_first_meld": True})
    assert not any(s.startswith("meld") for s in strings(other))
    assert parse_cards("QC")[0] + A.MELD_ADD not in other.legal_actions()
