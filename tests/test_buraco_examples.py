"""Every worked example of buraco.md §12 (BUR-01 … BUR-33)."""

from __future__ import annotations

import pytest
from tests.biriba_helpers import position, strings

import kafenio
from kafenio.cards import parse_card, parse_cards
from kafenio.games.buraco.rulebook import RULEBOOK
from kafenio.referee import rummy as ref


def rules(*presets, **options):
    return RULEBOOK.build(list(presets) or None, options)


BR = rules()
IT = rules("italian_4p")
LUDO = rules("ludopoli_4p")


def meld(text, r=BR):
    return ref.meld(r, text)


def card_points(text, r=BR):
    return ref.score(r, {"sides": [{"melds": [text], "pot": "taken"}]})["sides"][0]["melds"]


def buraco(preset="brazilian_4p", seat=0, hand="", **kwargs):
    return position(preset, seat, hand, game="buraco", **kwargs)


# -- meld validity --------------------------------------------------------------------------

def test_BUR_01_natural_two_clean_canastra():
    out = meld("AH 2H 3H 4H 5H 6H 7H")
    assert out == {"valid": True, "kind": "run", "clean": True,
                   "cards": ["AH", "2H", "3H", "4H", "5H", "6H", "7H"], "bonus": 200}
    assert card_points("AH 2H 3H 4H 5H 6H 7H") == 50
    assert card_points("AH 2H 3H 4H 5H 6H 7H", IT) == 60


def test_BUR_02_two_at_position_two():
    out = meld("2H 3H 4H 5H 6H 7H 8H")
    assert out["clean"] and out["bonus"] == 200 and card_points("2H 3H 4H 5H 6H 7H 8H") == 45


def test_BUR_03_natural_two_and_wild_two():
    out = meld("AH 2H 3H 4H 5H 6H 2S=7H")
    assert out["valid"] and not out["clean"] and out["bonus"] == 100
    assert out["cards"][1] == "2H" and out["cards"][-1] == "2S=7H"
    assert card_points("AH 2H 3H 4H 5H 6H 2S=7H") == 55


def test_BUR_04_wild_two_as_ace():
    out = meld("2D=AH 2H 3H 4H 5H 6H 7H")
    assert out["valid"] and not out["clean"] and out["bonus"] == 100 and out["cards"][0] == "2D=AH"
    assert card_points("2D=AH 2H 3H 4H 5H 6H 7H") == 45


def test_BUR_05_second_two_as_three():
    out = meld("AH 2H 2C=3H 4H 5H 6H 7H")
    assert out["valid"] and not out["clean"] and out["bonus"] == 100
    assert card_points("AH 2H 2C=3H 4H 5H 6H 7H") == 55
    same_suit = meld("AH 2H 2H=3H 4H 5H 6H 7H")
    assert same_suit["valid"] and not same_suit["clean"]


def test_BUR_06_two_wilds_invalid():
    out = meld("4H JK=5H 6H 2C=7H")
    assert not out["valid"] and out["rule"].startswith("buraco.md §4.1")


def test_BUR_07_wraparound_invalid():
    out = meld("QH KH AH 2H 3H")
    assert not out["valid"] and out["rule"].startswith("buraco.md §4")
    trap = meld("QH KH AH 2H")
    assert trap["valid"] and not trap["clean"] and trap["cards"] == ["2H=JH", "QH", "KH", "AH"]


def test_BUR_08_ace_to_ace():
    text = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    out = meld(text)
    assert out["valid"] and out["clean"] and out["bonus"] == 200 and len(out["cards"]) == 14
    assert meld(text, rules("brazilian_4p", "royal_canastras"))["bonus"] == 1000
    assert card_points(text) == 125
    assert not meld(text, IT)["valid"]
    italian = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK=AH", IT)
    assert italian["valid"] and not italian["clean"] and italian["bonus"] == 100
    assert card_points("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK=AH", IT) == 150


def test_BUR_09_ace_to_king():
    text = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    assert meld(text)["bonus"] == 200
    assert meld(text, rules("brazilian_4p", "royal_canastras"))["bonus"] == 500
    assert card_points(text) == 110


def test_BUR_10_dirty_set_and_runs_only():
    for r in (BR, IT):
        out = meld("8C 8D 8S 2H", r)
        assert out["valid"] and out["kind"] == "set" and not out["clean"]
    assert card_points("8C 8D 8S 2H") == 40
    for r in (rules("brazilian_4p", "fechado_stbl"), LUDO):
        out = meld("8C 8D 8S 2H", r)
        assert not out["valid"] and "§4.3" in out["rule"]


@pytest.mark.parametrize("preset", ["brazilian_4p", "brazilian_2p", "italian_4p", "italian_2p",
                                    "ludopoli_4p", "fechado_stbl", "canastra_online_2p"])
def test_BUR_11_no_all_wild_melds(preset):
    assert not meld("2C 2D 2H", rules(preset))["valid"]


def test_BUR_12_duplicate_sets():
    st = buraco("italian_4p", 0, "JH JS JD 4C 9D", melds={0: ["JC JD JS"]})
    legal = strings(st)
    assert "meld+ JH" not in legal and "layoff 0 JH" in legal
    st.apply_string("layoff 0 JH")
    assert st.melds[0][0].cards.count(parse_card("JH")) == 1
    br = buraco("brazilian_4p", 0, "JH JS JD 4C 9D", melds={0: ["JC JD JS"]})
    for text in ("meld+ JH", "meld+ JS", "meld+ JD", "meld end"):
        br.apply_string(text)
    assert len(br.melds[0]) == 2


def test_BUR_13_suited_two_goes_natural():
    out = ref.layoff(BR, "2H=3H 4H 5H", "3H")
    assert out["cards"] == ["2H", "3H", "4H", "5H"] and out["clean"]
    low = ref.layoff(BR, "4H 5H 2C=6H", "6H")
    high = ref.layoff(BR, "4H 5H 2C=6H", "6H", wild_end="high")
    assert low["cards"] == ["2C=3H", "4H", "5H", "6H"] and not low["clean"]
    assert high["cards"] == ["4H", "5H", "6H", "2C=7H"] and not high["clean"]


def test_BUR_14_sets_restricted():
    r = rules("brazilian_2p", "canastra_online_2p")
    assert not meld("9C 9D 9S", r)["valid"]
    assert meld("KC KD KS", r)["valid"]


# -- card values by preset ------------------------------------------------------------------

def _hand_points(r, hand):
    return -ref.score(r, {"sides": [{"hands": [hand], "pot": "taken"}]})["sides"][0]["hands"]


def test_BUR_15_card_values():
    assert _hand_points(BR, "JK 2S AH KD 7C") == 60
    assert _hand_points(IT, "JK 2S AH KD 7C") == 80
    assert _hand_points(LUDO, "2S AH KD 7C") == 50


# -- turn, pot and going out ----------------------------------------------------------------

DIRTY = "AH 2H 3H 4H 5H 6H 2S=7H"


def test_BUR_16_going_out_needs_clean_canastra():
    st = buraco(hand="9C", melds={0: [DIRTY, "6C 7C 8C"]}, pot_taken=[0], phase="draw")
    st.stock.append(parse_card("10C"))
    st.apply_string("draw")
    assert sorted(strings(st)) == ["discard 10C", "discard 9C"]
    it = buraco("italian_4p", hand="9C 10C", melds={0: [DIRTY, "6C 7C 8C"]}, pot_taken=[0])
    assert "layoff 1 9C" in strings(it)
    it.apply_string("layoff 1 9C")
    it.apply_string("discard 10C")
    assert it.is_terminal() and it.closed_by == 0
    assert it.score_sheet()["sides"][0]["closing"] == 100


def test_BUR_17_italian_closing_discard_not_wild():
    st = buraco("italian_4p", 2, "JK 9C", melds={0: [DIRTY, "6C 7C 8C"]}, pot_taken=[0])
    legal = strings(st)
    assert "layoff 1 9C" not in legal        # (a) would leave the joker as the closing discard
    assert "layoff 1 JK" in legal
    st.apply_string("layoff 1 JK")
    assert st.view(2)["melds"][0][1]["cards"] == ["JK=5C", "6C", "7C", "8C"]
    st.apply_string("discard 9C")
    assert st.is_terminal() and st.closed_by == 0


def test_BUR_18_morto_in_flight_or_by_discard():
    st = buraco(seat=1, hand="4S 5S", phase="draw")
    st.stock.append(parse_card("6S"))
    for text in ("draw", "meld+ 4S", "meld+ 5S", "meld+ 6S", "meld end"):
        st.apply_string(text)
    assert st.pot_taken[1] and st.hand_size[1] == 11 and st.current_player() == 1
    assert any(s.startswith("discard") for s in strings(st))
    later = buraco(seat=1, hand="4S")
    later.apply_string("discard 4S")
    assert later.pot_taken[1] and later.unplayed[1] and later.hand_size[1] == 11
    assert later.current_player() == 2


def _ludopoli_deck(top: str, nxt: str):
    game = kafenio.load_game("buraco", preset="ludopoli_4p")
    deck = game.shuffle(5)
    for pos, text in ((66, top), (67, nxt)):
        i = next(j for j, c in enumerate(deck) if c == parse_card(text) and j != 66)
        deck[i], deck[pos] = deck[pos], deck[i]
    return game, deck


def test_BUR_19_first_draw_reject():
    game, deck = _ludopoli_deck("7D", "QS")
    st = game.new_initial_state(deck=deck, dealer=0)
    st.apply_string("cut 10")
    assert st.current_player() == 1 and st.view(None)["discard_pile"] == []
    st.apply_string("draw")
    assert "reject" in strings(st) and st.view(1)["turn"]["drawn_card"] == "7D"
    assert st.view(2)["turn"]["drawn_card"] is None
    st.apply_string("reject")
    assert st.pile == [parse_card("7D")] and st.hands[1][parse_card("QS")] >= 1
    assert st.hand_size[1] == 12 and "reject" not in strings(st)
    keep = game.new_initial_state(deck=deck, dealer=0)
    keep.apply_string("cut 10")
    keep.apply_string("draw")
    discard = next(s for s in strings(keep) if s.startswith("discard"))
    keep.apply_string(discard)
    assert keep.view(None)["discard_pile"] == [discard.split()[1]]
    assert "reject" not in strings(keep)


def test_BUR_20_single_card_pile():
    st = buraco(seat=3, hand="4C 9H KS", pile="7D", phase="draw")
    st.apply_string("take")
    legal = strings(st)
    assert "discard 7D" not in legal and {"discard 4C", "discard 9H", "discard KS"} <= set(legal)


def test_BUR_21_fechado_pickup():
    st = buraco(["brazilian_4p", "fechado_stbl"], 0, "10S JS 4D KC", pile="3D 9S", phase="draw")
    assert "take" in strings(st)
    st.apply_string("take")
    legal = strings(st)
    assert not any(s.startswith("discard") for s in legal) and legal == ["meld+ 9S"]
    for text in ("meld+ 9S", "meld+ 10S", "meld+ JS", "meld end"):
        st.apply_string(text)
    assert any(s.startswith("discard") for s in strings(st))
    no = buraco(["brazilian_4p", "fechado_stbl"], 0, "4D KC QH 3C", pile="JS 10S 9S", phase="draw")
    assert "take" not in strings(no)
    assert st.view(1)["discard_pile"] == [] and no.view(1)["discard_pile"] == ["9S"]
    assert no.view(1)["discard_pile_size"] == 3


@pytest.mark.parametrize(("cut", "bonus"), [(22, 100), (21, 0), (23, 0)])
def test_BUR_22_exact_cut(cut, bonus):
    game = kafenio.load_game("buraco", preset="ludopoli_4p")
    st = game.new_initial_state(seed=3, dealer=0, match_scores=[0, 1450])
    assert st.view(None)["phase"] == "cut" and st.current_player() == 3
    st.apply_string(f"cut {cut}")
    assert st.cut_points == [0, bonus] and st.current_player() == 1
    assert st.opening_minimum(1) == (75 if bonus else 50)
    sheet = st.score_sheet()["sides"][1]
    assert sheet["cut"] == bonus


def _next_own_turn(st, discard):
    """End seat 0's turn with ``discard``, let the others discard what they drew, draw again."""
    st.apply_string(discard)
    while st.current_player() != 0:
        st.apply_string("draw")
        st.apply_string(next(s for s in strings(st) if s.startswith("discard")))
    st.stock.append(parse_card("4D"))
    st.apply_string("draw")


def test_BUR_23_initial_meld_minimum_with_failures():
    """The side's minimum rises after each failed (retracted) attempt; one attempt per turn."""
    hand = "3H 4H 5H 8D 9D 10D 6S 7S 8S JC QC KC 5C"
    ok = buraco("ludopoli_4p", 0, hand, match_scores=[1200, 0])
    assert ok.opening_minimum(0) == 50
    for text in ("meld+ 8D", "meld+ 9D", "meld+ 10D", "meld end", "meld+ 6S", "meld+ 7S", "meld+ 8S",
                 "meld end"):
        ok.apply_string(text)
    assert ok.opened[0] and ok.provisional is None
    st = buraco("ludopoli_4p", 0, hand, match_scores=[1200, 0])
    for text in ("meld+ 3H", "meld+ 4H", "meld+ 5H", "meld end", "meld+ 8D", "meld+ 9D", "meld+ 10D",
                 "meld end"):
        st.apply_string(text)
    assert st.provisional_points(0) == 45 and "retract" in strings(st)
    assert not any(s.startswith("discard") for s in strings(st))
    st.apply_string("retract")
    assert st.hand_size[0] == 13 and st.melds[0] == [] and st.opening_minimum(0) == 65
    assert not any(s.startswith("meld") for s in strings(st))     # one attempt per turn
    _next_own_turn(st, "discard 5C")
    for text in ("meld+ 8D", "meld+ 9D", "meld+ 10D", "meld end", "meld+ JC", "meld+ QC", "meld+ KC",
                 "meld end"):
        st.apply_string(text)
    assert st.provisional_points(0) == 60 and not st.opened[0]
    st.apply_string("retract")
    assert st.opening_minimum(0) == 80
    high = buraco("ludopoli_4p", 0, hand, match_scores=[1500, 0])
    assert high.opening_minimum(0) == 75


# -- stock exhaustion -------------------------------------------------------------------------

def test_BUR_24_morto_becomes_stock():
    st = buraco(seat=1, hand="4C 9D KS", phase="draw", pot_taken=[0])
    st.stock = []
    st._start_turn()
    assert len(st.stock) == 11 and st.pots == [] and strings(st)[0] == "draw"
    st.apply_string("draw")
    st.stock = []
    st.current = 0
    st._start_turn()
    assert st.is_terminal() and st.closed_by is None
    a, b = st.score_sheet()["sides"]
    assert a["closing"] == 0 and b["closing"] == 0 and b["pot_points"] == -100 and a["pot_points"] == 0


@pytest.mark.parametrize(("left", "ends"), [(2, True), (3, False), (0, True)])
def test_BUR_25_italian_stock_threshold(left, ends):
    st = buraco("italian_4p", seat=1, hand="4C 9D KS", phase="draw")
    st.stock = st.stock[:left]
    st._start_turn()
    assert st.is_terminal() == ends
    if ends:
        assert all(s["closing"] == 0 for s in st.score_sheet()["sides"])


# -- whole-deal scoring ---------------------------------------------------------------------

BUR26 = {"sides": [
    {"melds": ["3D 4D 5D 6D 7D 8D 9D", "10S JS QS KS AS", "6C 6H 6S JK", "AH 2H 3H 4H 5H 6H 2C=7H"],
     "hands": ["", "9H KC"], "pot": "taken", "closed": True},
    {"melds": ["8C 9C 10C JC QC KC 2D=AC", "4S 5S 6S"], "hands": ["JK AD 3C", "7S 7C 10H QD"],
     "pot": "taken"}]}


def test_BUR_26_brazilian_deal():
    a, b = ref.score(BR, BUR26)["sides"]
    assert (a["melds"], sum(x["bonus"] for x in a["bonuses"]), a["closing"], a["hands"]) == (190, 300, 100, -20)
    assert a["total"] == 570 and b["total"] == 115
    negative = ref.score(rules("brazilian_4p", "melds_negative_without_clean"), BUR26)["sides"]
    assert negative[0]["total"] == 570 and negative[1]["total"] == -255


def test_BUR_27_italian_deal_unplayed_pozzetto():
    data = {"sides": [
        {"melds": ["5S 6S 7S 8S 9S 10S JS QS", "KC KD KH 2S", "3H 4H JK=5H 6H 7H 8H 9H"],
         "hands": ["", "AD 4C"], "pot": "taken", "closed": True},
        {"melds": ["QH QD QS", "9D 10D JD"], "hands": ["2C 8H", ""], "pot": "unplayed",
         "unplayed_cards": "AS 3C 5D 7D 8C 10C JH KS JK 2D 6C"}]}
    a, b = ref.score(IT, data)["sides"]
    assert a["total"] == 565 and b["total"] == -95 and b["pot_points"] == -125
    flat = ref.score(rules("italian_4p", unplayed_pot_penalty="flat_100"), data)["sides"][1]
    assert flat["total"] == -70


def test_BUR_28_unplayed_morto_brazilian():
    side = {"melds": ["3D 4D 5D 6D 7D 2C=8D 9D", "AS AD AH", "KS KD KH", "3C 4C 5C 6C"],
            "hands": ["KC 7C 8S", ""], "pot": "unplayed",
            "unplayed_cards": "JK AS AH AC KS QS JS 10S 3D 4D 5D"}
    flat = ref.score(BR, {"sides": [side]})["sides"][0]
    assert flat["melds"] == 140 and flat["total"] == 115
    by_cards = ref.score(rules(unplayed_pot_penalty="card_values"), {"sides": [side]})["sides"][0]
    assert by_cards["total"] == 95


def test_BUR_29_semi_clean():
    semi = rules("italian_4p", "semi_clean_150")
    assert meld("4D 5D 6D 7D 8D 9D 10D JK=JD", semi)["bonus"] == 150
    assert meld("4D 5D 6D 7D 8D 9D 10D JK=JD", IT)["bonus"] == 100
    for r in (semi, IT):
        assert meld("4D 5D JK=6D 7D 8D 9D 10D JD", r)["bonus"] == 100
    assert meld("9C 9C 9D 9D 9H 9S 9S 2H", semi)["bonus"] == 150
    assert meld("9C 9C 9D 9D 9H 9S 9S 2H", IT)["bonus"] == 100
    assert meld("9C 9C 9D 9D 9H 9S 2H", semi)["bonus"] == 100


def test_BUR_30_match_end():
    br = kafenio.load_game("buraco")
    assert br.match_winner([2430 + 570, 2800 + 115], [1, 0], 1) == 0
    assert br.match_winner([3050, 3050], [1, 1], 2) is None
    it = kafenio.load_game("buraco", preset="italian_4p")
    assert it.match_winner([2005, 1000], [1, 0], 1) is None
    assert it.match_winner([2010, 1500], [1, 0], 1) == 0


@pytest.mark.parametrize(("preset", "stock"), [("brazilian_4p", 42), ("italian_4p", 41),
                                               ("ludopoli_4p", 38), ("brazilian_2p", 64),
                                               ("italian_2p", 63)])
def test_BUR_31_stock_sizes(preset, stock):
    game = kafenio.load_game("buraco", preset=preset)
    st = game.new_initial_state(seed=1)
    assert len(st.stock) == stock and [len(p) for p in st.pots] == [11, 11]
    ludo2 = kafenio.load_game("buraco", preset="ludopoli_4p", options={"num_players": 2})
    assert len(ludo2.new_initial_state(seed=1).stock) == 60


def test_BUR_32_free_end_wild():
    out = ref.layoff(IT, "2S=4S 5S 6S", "8S")
    assert out["valid"] and out["cards"] == ["5S", "6S", "2S=7S", "8S"] and not out["clean"]
    assert not ref.layoff(BR, "2S=4S 5S 6S", "8S")["valid"]
    st = buraco("italian_4p", 0, "8S 4C 9D", melds={0: ["2S=4S 5S 6S"]})
    assert "layoff 0 8S" in strings(st)
    assert "layoff 0 8S" not in strings(buraco(hand="8S 4C 9D", melds={0: ["2S=4S 5S 6S"]}))
    for r in (BR, IT):
        assert not ref.layoff(r, "6H JK=7H 8H", "10H")["valid"]
        both = ref.layoff(r, "6H JK=7H 8H", "7H 10H", wild_end="high")
        assert both["cards"] == ["6H", "7H", "8H", "JK=9H", "10H"]


def test_BUR_33_no_pot_left():
    st = buraco(seat=2, hand="4C 9D KS", phase="draw")
    st.stock = []
    st._start_turn()
    assert len(st.pots) == 1 and len(st.stock) == 11
    st.apply_string("draw")
    st.apply_string(next(s for s in strings(st) if s.startswith("discard")))
    assert st.current_player() == 3
    st.hands[3] = [0] * 53
    for c in parse_cards("4S 5S 6S"):
        st.hands[3][c] += 1
    st.hand_size[3] = 3
    st.phase = 2
    st.version += 1
    for text in ("meld+ 4S", "meld+ 5S", "meld+ 6S", "meld end"):
        st.apply_string(text)
    assert st.pot_taken[1] and st.pots == []
    a = buraco(hand="9C 10C", melds={0: ["6C 7C 8C"]})
    a.pots = []
    assert sorted(strings(a)) == ["discard 10C", "discard 9C"]
    st.stock = []
    st.current = 0
    st._start_turn()
    assert st.is_terminal()
    assert st.score_sheet()["sides"][0]["pot_points"] == -100
