"""Every worked example of biriba.md §13 (BIR-01 … BIR-47)."""

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
STD_VALUES = kafenio.load_game("biriba").card_values


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
    # the default rediscard ban (§3): the 9S taken may not be discarded; the pick-up stays legal
    st = _bir29()
    assert "take" in strings(st)
    st.apply_string("take")
    assert strings(st) == ["discard 8S"]
    free = _bir29(single_card_pickup_restriction="none")
    free.apply_string("take")
    assert strings(free) == ["discard 8S"]
    assert "take" not in strings(_bir29(single_card_pickup_restriction="forbidden"))
    scope = position(seat=1, hand="8S", melds={1: ["5S 6S 7S", "AD 2D 3D 4D 5D 6D 7D"]}, pile="9S",
                     phase="draw")
    scope.apply_string("take")
    assert strings(scope) == ["discard 8S"]


def test_BIR_29_v1_expectations_with_no_rediscard_ban():
    v1 = {"single_card_pile_rediscard_ban": "none"}
    st = _bir29(**v1)
    st.apply_string("take")
    assert sorted(strings(st)) == ["discard 8S", "discard 9S"]
    free = _bir29(single_card_pickup_restriction="none", **v1)
    free.apply_string("take")
    free.apply_string("layoff 0 8S")
    free.apply_string("discard 9S")
    assert free.is_terminal() and free.closed_by == 1
    assert "take" not in strings(_bir29(single_card_pickup_restriction="forbidden", **v1))
    scope = position("standard_4p", 1, "8S", melds={1: ["5S 6S 7S", "AD 2D 3D 4D 5D 6D 7D"]},
                     pile="9S", phase="draw", options=v1)
    scope.apply_string("take")
    scope.apply_string("layoff 0 8S")
    scope.apply_string("discard 9S")
    assert scope.pot_taken[1] and not scope.is_terminal()
    modifier = position(["standard_4p", "no_rediscard_ban"], 1, "8S", pile="9S", phase="draw")
    assert modifier.tr.rediscard_ban == "none"


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
            "unplayed_cards": "JK AS AD AH AC KS KD QS QD JS 5H"}
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
        {"melds": ["AS AD AC", "8S 8D 8C 8H 8S"], "hands": ["AH JK JK 5C", "KD KH QS 5C"],
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
    st.make_solo(1)
    assert st.sides == [[1], [0, 2]]
    assert st.solo_scores([640, 235]) == [117.5, 640, 117.5]


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


# -- added 2026-11-26 (biriba.md v1.2) ----------------------------------------------------------

BIR37_HAND = "10C 4S KD 7H 7D QS AC 3H 9S 5C 6D"


def _bir37(pile="10C", **options):
    st = position(seat=3, hand=BIR37_HAND, pile=pile, phase="draw", options=options)
    st.apply_string("take")
    return [s for s in strings(st) if s.startswith("discard")]


def test_BIR_37_one_card_pile_not_thrown_back():
    others = ["discard " + c for c in sorted(set(BIR37_HAND.split()) - {"10C"})]
    assert sorted(_bir37()) == others
    assert sorted(_bir37(single_card_pile_rediscard_ban="same_card")) == sorted([*others, "discard 10C"])
    assert sorted(_bir37(single_card_pile_rediscard_ban="none")) == sorted([*others, "discard 10C"])
    assert "discard 10C" in _bir37(pile="6H 10C")
    st = position(seat=3, hand=BIR37_HAND, pile="10C", phase="draw")
    st.apply_string("take")
    err = st.explain_illegal(st.string_to_action("discard 10C"))
    assert err.rule == "biriba.md §3" and "identical" in str(err)


def test_BIR_37_same_card_tracks_the_copy_taken():
    # the pile's 10C laid off, the 10C held before may go (and vice versa: one is the pile's)
    st = position(seat=3, hand="10C 4S", melds={1: ["7C 8C 9C"]}, pile="10C", phase="draw",
                  options={"single_card_pile_rediscard_ban": "same_card"})
    st.apply_string("take")
    assert "discard 10C" in strings(st)
    st.apply_string("layoff 0 10C")
    assert sorted(strings(st)) == ["discard 10C", "discard 4S"]
    ident = position(seat=3, hand="10C 4S", melds={1: ["7C 8C 9C"]}, pile="10C", phase="draw")
    ident.apply_string("take")
    ident.apply_string("layoff 0 10C")
    assert [s for s in strings(ident) if s.startswith("discard")] == ["discard 4S"]


def _bir38(**options):
    return position(seat=1, hand="QD", melds={1: ["QC QH QS"]}, pile="QD", phase="draw",
                    options=options)


def test_BIR_38_unfinishable_pickup_not_offered():
    st = _bir38()
    assert strings(st) == ["draw"]
    err = st.explain_illegal(A.TAKE)
    assert err.rule == "biriba.md §3"
    for ban in ("same_card", "none"):
        other = _bir38(single_card_pile_rediscard_ban=ban)
        assert "take" in strings(other)
        other.apply_string("take")
        assert strings(other) == ["discard QD"]
        other.apply_string("discard QD")
        assert other.hand_size[1] == 1 and not other.is_terminal()


FIXED = rules("standard_4p", "fixed_wilds")


def test_BIR_39_free_end_wild_extends_at_the_top():
    out = ref.layoff(STD, "JK=7C 8C 9C 10C JC QC", "AC")
    assert out["valid"] and out["cards"] == ["8C", "9C", "10C", "JC", "QC", "JK=KC", "AC"]
    assert not out["clean"] and out["bonus"] == 100
    assert sum(STD_VALUES[parse_card(t.split("=")[0])] for t in out["cards"]) == 85
    assert not ref.layoff(FIXED, "JK=7C 8C 9C 10C JC QC", "AC")["valid"]


def test_BIR_39_free_end_wild_with_no_hole_goes_where_the_player_chooses():
    """§4.4, §4.5 move 2: the stored low place of a free end wild binds nobody; when the naturals
    leave no hole the wild sits directly below or directly above them, the player's choice — both
    are legal actions (``layoff k KC`` and ``layoff k KC high``), and the meld shows the one
    chosen. A wild between two naturals, or ``fixed_wilds``, leaves no choice."""
    low = ["JK=7C", "8C", "9C", "10C", "JC", "QC", "KC"]
    high = ["8C", "9C", "10C", "JC", "QC", "KC", "JK=AC"]
    assert ref.layoff(STD, "JK=7C 8C 9C 10C JC QC", "KC")["cards"] == low
    assert ref.layoff(STD, "JK=7C 8C 9C 10C JC QC", "KC", wild_end="high")["cards"] == high
    assert ref.layoff(STD, "8C 9C 10C JC QC JK=KC", "7C")["cards"] == ["JK=6C", "7C", *low[1:-1]]
    assert ref.layoff(STD, "8C 9C 10C JC QC JK=KC", "7C", wild_end="high")["cards"] == ["7C", *low[1:-1], "JK=KC"]
    for wild_end in ("low", "high"):
        assert ref.layoff(FIXED, "JK=7C 8C 9C 10C JC QC", "KC", wild_end=wild_end)["cards"] == low
        bridging = ref.layoff(STD, "7C 8C JK=9C 10C", "JC", wild_end=wild_end)
        assert bridging["cards"] == ["7C", "8C", "JK=9C", "10C", "JC"]
    st = position(hand="KC 4D 5S", melds={0: ["JK=7C 8C 9C 10C JC QC"]})
    assert {"layoff 0 KC", "layoff 0 KC high"} <= set(strings(st))
    st.apply_string("layoff 0 KC high")
    assert st.view(0)["melds"][0][0]["cards"] == high
    fixed = position(hand="KC 4D 5S", melds={0: ["JK=7C 8C 9C 10C JC QC"]}, options={"free_wild_may_move": False})
    assert "layoff 0 KC" in strings(fixed) and "layoff 0 KC high" not in strings(fixed)


def test_BIR_40_free_end_wild_into_a_hole():
    out = ref.layoff(STD, "6H 7H 8H 9H 2D=10H", "4H")
    assert out["cards"] == ["4H", "2D=5H", "6H", "7H", "8H", "9H"] and not out["clean"]
    both = ref.layoff(STD, "6H 7H 8H 9H 2D=10H", "4H 10H")
    assert both["cards"] == ["4H", "2D=5H", "6H", "7H", "8H", "9H", "10H"] and both["bonus"] == 100
    assert not ref.layoff(STD, "6H 7H 8H 9H 2D=10H", "3H")["valid"]
    assert not ref.layoff(FIXED, "6H 7H 8H 9H 2D=10H", "4H")["valid"]


def test_BIR_41_wild_between_naturals_stays():
    assert not ref.layoff(STD, "5C 6C JK=7C 8C 9C", "JC")["valid"]
    out = ref.layoff(STD, "5C 6C JK=7C 8C 9C", "7C JC")
    assert out["cards"] == ["5C", "6C", "7C", "8C", "9C", "JK=10C", "JC"] and out["bonus"] == 100
    fixed = ref.layoff(FIXED, "5C 6C JK=7C 8C 9C", "7C JC", wild_end="high")
    assert fixed["cards"] == out["cards"]


def test_BIR_42_natural_two_turned_wild_and_back():
    out = ref.layoff(STD, "2C 3C 4C 5C", "7C")
    assert out["cards"] == ["3C", "4C", "5C", "2C=6C", "7C"] and not out["clean"]
    back = ref.layoff(STD, "3C 4C 5C 2C=6C 7C", "6C")
    assert back["cards"] == ["2C", "3C", "4C", "5C", "6C", "7C"] and back["clean"]
    assert not ref.layoff(STD, "AC 2C 3C 4C 5C", "7C")["valid"]
    assert not ref.layoff(STD, "2C 3C 4C JK=5C", "7C")["valid"]
    plain = ref.layoff(STD, "2C 3C 4C 5C", "6C")
    assert plain["cards"] == ["2C", "3C", "4C", "5C", "6C"] and plain["clean"]
    assert not ref.layoff(FIXED, "2C 3C 4C 5C", "7C")["valid"]


def test_BIR_42_in_play():
    st = position(hand="7C 6C 9D QS", melds={0: ["2C 3C 4C 5C"]})
    st.apply_string("layoff 0 7C")
    assert st.melds[0][0].notation() == ["3C", "4C", "5C", "2C=6C", "7C"]
    st.apply_string("layoff 0 6C")
    assert st.melds[0][0].notation() == ["2C", "3C", "4C", "5C", "6C", "7C"] and st.melds[0][0].clean


def test_BIR_43_second_wild_refused_under_4_1():
    out = ref.layoff(STD, "9D 10D JK=JD QD", "2S")
    assert not out["valid"] and out["rule"].startswith("biriba.md §4.1")
    assert not ref.layoff(STD, "9D 10D JK=JD QD", "2D")["valid"]
    ok = ref.layoff(STD, "9D 10D JK=JD QD", "KD")
    assert ok["cards"] == ["9D", "10D", "JK=JD", "QD", "KD"]
    st = position(seat=1, hand="2S 5H 8C", melds={1: ["9D 10D JK=JD QD"]})
    err = st.explain_illegal(st.string_to_action("layoff 0 2S"))
    assert err.rule == "biriba.md §4.1"


def test_BIR_44_full_kozi_runs_under_three_scorings():
    clean = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    dirty = "2H 3H 4H 5H 6H 7H 8H JK=9H 10H JH QH KH AH"
    zoo, pagat = rules("standard_4p", "zoo_gr_scoring"), rules("standard_4p", "pagat_scoring")
    assert not STD.kozi_affects_full_runs and zoo.kozi_affects_full_runs and pagat.kozi_affects_full_runs
    assert pagat.target_score == 5000 and pagat.set_clean_bonus == 300
    assert [meld(clean, r, "H")["bonus"] for r in (STD, zoo, pagat)] == [1000, 2000, 2000]
    assert [meld(dirty, r, "H")["bonus"] for r in (STD, zoo)] == [500, 1000]
    clubs = clean.replace("H", "C")
    assert [meld(clubs, r, "H")["bonus"] for r in (STD, zoo, pagat)] == [1000, 1000, 1000]
    eight = "5H 6H 7H 8H 9H 10H JH QH"
    assert [meld(eight, r, "H")["bonus"] for r in (STD, zoo, pagat)] == [600, 400, 400]
    points = [sum(STD_VALUES[parse_card(t.split("=")[0])] for t in m.split()) for m in (clean, dirty)]
    assert points == [110, 120]


def test_BIR_45_five_players_deal_and_phase_one():
    game = kafenio.load_game("biriba", preset="five_players")
    assert game.num_players == 5 and list(game.rules.biribaki_sizes) == [18, 11, 11]
    deck = next(d for d in map(game.shuffle, range(50)) if d[95] != JOKER)
    st = game.new_initial_state(deck=deck, dealer=0)
    order = [4, 3, 2, 1, 0]
    for seat in range(5):
        held = sorted(c for c in range(53) for _n in range(st.hands[seat][c]))
        assert held == sorted(deck[i] for i in range(55) if order[i % 5] == seat)
    assert [p for p in st.pots] == [deck[55:73], deck[73:84], deck[84:95]]
    assert st.up_card == deck[95] and len(st.stock) == 66 and st.current_player() == 4
    idle = position("five_players", 3, "QS QD QH 4C 9H")
    assert not any(s.startswith("meld") for s in strings(idle))
    st = position("five_players", 2, "4D 5D 6D 7D 8D 9D 10D JD KS KH KC QC")
    for text in [*("meld+ " + c for c in ("4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD")), "meld end"]:
        st.apply_string(text)
    for text in ("meld+ KS", "meld+ KH", "meld+ KC", "meld end", "discard QC"):
        st.apply_string(text)
    assert st.solo == 2 and st.sides == [[2], [0, 3], [1, 4]]
    assert st.pot_taken == [True, False, False] and st.unplayed[2] and st.hand_size[2] == 18
    assert [len(p) for p in st.pots] == [11, 11]
    assert st.current_player() == 1


def test_BIR_46_five_players_scoring():
    st = kafenio.load_game("biriba", preset="five_players").new_initial_state(seed=4)
    st.make_solo(2)
    assert st.sides == [[2], [0, 3], [1, 4]]
    pair = ref.score(STD, {"sides": [{"melds": [], "hands": ["", ""], "pot": "taken"}]})["sides"][0]
    assert pair["total"] == 0
    assert st.solo_scores([710, 280 + 200 - 135 - 100, 120 - 60 - 50 - 100]) == [
        122.5, -45, 710, 122.5, -45]


def test_BIR_47_empty_stock_play_goes_on():
    def empty_stock(**options):
        st = position(seat=2, hand="4C 9D KH 6S QD", pile="KH", phase="draw", options=options)
        st.stock = []
        st._start_turn()
        return st

    def take_and_discard(st):
        st.apply_string("take")
        st.apply_action(next(a for a in st.legal_actions() if A.DISCARD <= a < A.LAYOFF))

    st = empty_stock()
    assert st.rules.stock_empty_turn_limit is None
    for _turn in range(32):
        assert "pass" in strings(st)
        take_and_discard(st)
    assert not st.is_terminal() and st.current_player() == 2
    st.apply_string("pass")
    st.apply_string("pass")
    assert st.current_player() == 0
    take_and_discard(st)
    for seat in (3, 2, 1, 0):
        assert st.current_player() == seat and not st.is_terminal()
        st.apply_string("pass")
    assert st.is_terminal() and st.closed_by is None
    limited = empty_stock(stock_empty_turn_limit=16)
    for _turn in range(16):
        take_and_discard(limited)
    assert limited.is_terminal()
