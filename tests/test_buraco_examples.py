"""Every worked example of buraco.md §12 (BUR-01 … BUR-51, v1.2 of 2026-11-26)."""

from __future__ import annotations

import random

import pytest
from tests.biriba_helpers import position, strings

import kafenio
from kafenio.cards import parse_card, parse_cards
from kafenio.engine.errors import KafenioError
from kafenio.games.buraco.rulebook import RULEBOOK
from kafenio.referee import rummy as ref


def rules(*presets, **options):
    return RULEBOOK.build(list(presets) or None, options)


BR = rules()
IT = rules("italian_4p")
LUDO = rules("ludopoli_4p")
FECHADO = rules("brazilian_4p", "fechado")
STBL = rules("brazilian_4p", "stbl")


def meld(text, r=BR):
    return ref.meld(r, text)


def card_points(text, r=BR):
    return ref.score(r, {"sides": [{"melds": [text], "pot": "taken"}]})["sides"][0]["melds"]


def buraco(preset="brazilian_4p", seat=0, hand="", first_turn=False, **kwargs):
    """A position (:func:`position`); not the deal's first turn unless ``first_turn`` (§3: only
    the first turn offers ``reject``)."""
    st = position(preset, seat, hand, game="buraco", **kwargs)
    if not first_turn:
        st.turns = 1
    return st


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
    assert out["valid"] and out["clean"] and out["bonus"] == 1000 and len(out["cards"]) == 14
    assert meld(text, LUDO)["bonus"] == 200
    assert meld(text, rules("ludopoli_4p", "royal_canastras"))["bonus"] == 1000
    assert card_points(text) == 125
    assert not meld(text, IT)["valid"]
    italian = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK=AH", IT)
    assert italian["valid"] and not italian["clean"] and italian["bonus"] == 100
    assert card_points("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK=AH", IT) == 150


def test_BUR_08_italian_replaced_wild_stays_as_the_14th_card():
    """§4.5: with ``both_ends_one_natural`` a wild replaced inside an A…K run moves to position 14."""
    out = ref.layoff(IT, "AH 2H JK=3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "3H")
    assert out["valid"] and out["cards"][-1] == "JK=AH" and len(out["cards"]) == 14 and out["bonus"] == 100


def test_BUR_09_ace_to_king():
    text = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    assert meld(text)["bonus"] == 500
    assert meld(text, IT)["bonus"] == 200
    assert card_points(text) == 110


def test_BUR_10_dirty_set_and_runs_only():
    for r in (FECHADO, IT):
        out = meld("8C 8D 8S 2H", r)
        assert out["valid"] and out["kind"] == "set" and not out["clean"]
    assert card_points("8C 8D 8S 2H", FECHADO) == 40
    for r in (BR, STBL, rules("brazilian_4p", "fechado_stbl"), LUDO):
        out = meld("8C 8D 8S 2H", r)
        assert not out["valid"] and "§4.3" in out["rule"]


@pytest.mark.parametrize("preset", ["brazilian_4p", "brazilian_2p", "italian_4p", "italian_2p",
                                    "ludopoli_4p", "stbl", "fechado_stbl", "canastra_online_2p"])
def test_BUR_11_no_all_wild_melds(preset):
    assert not meld("2C 2D 2H", rules(preset))["valid"]


def test_BUR_11_fechado_set_of_twos():
    out = meld("2C 2D 2H", FECHADO)
    assert out["valid"] and out["kind"] == "set" and out["clean"]
    assert card_points("2C 2D 2H", FECHADO) == 30


def test_BUR_12_duplicate_sets():
    st = buraco("italian_4p", 0, "JH JS JD 4C 9D", melds={0: ["JC JD JS"]})
    legal = strings(st)
    assert "meld+ JH" not in legal and "layoff 0 JH" in legal
    st.apply_string("layoff 0 JH")
    assert st.melds[0][0].cards.count(parse_card("JH")) == 1
    br = buraco(["brazilian_4p", "fechado"], 0, "JH JS JD 4C 9D", melds={0: ["JC JD JS"]})
    for text in ("meld+ JH", "meld+ JS", "meld+ JD", "meld end"):
        br.apply_string(text)
    assert len(br.melds[0]) == 2
    aberto = buraco("brazilian_4p", 0, "JH JS JD 4C 9D")
    assert not any(s.startswith("meld+ J") for s in strings(aberto))


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


@pytest.mark.parametrize("stbl", ["stbl", "fechado_stbl"])
def test_BUR_21_stbl_pickup(stbl):
    st = buraco(["brazilian_4p", stbl], 0, "10S JS 4D KC", pile="3D 9S", phase="draw")
    assert "take" in strings(st)
    st.apply_string("take")
    legal = strings(st)
    assert not any(s.startswith("discard") for s in legal) and legal == ["meld+ 9S"]
    for text in ("meld+ 9S", "meld+ 10S", "meld+ JS", "meld end"):
        st.apply_string(text)
    assert any(s.startswith("discard") for s in strings(st))
    no = buraco(["brazilian_4p", stbl], 0, "4D KC QH 3C", pile="JS 10S 9S", phase="draw")
    assert "take" not in strings(no)
    assert st.view(1)["discard_pile"] == [] and no.view(1)["discard_pile"] == ["9S"]
    assert no.view(1)["discard_pile_size"] == 3
    fechado = buraco(["brazilian_4p", "fechado"], 0, "4D KC QH 3C", pile="JS 10S 9S", phase="draw")
    assert "take" in strings(fechado)
    fechado.apply_string("take")
    assert strings(fechado) == ["meld+ 9S"]


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
    a, b = ref.score(FECHADO, BUR26)["sides"]
    assert (a["melds"], sum(x["bonus"] for x in a["bonuses"]), a["closing"], a["hands"]) == (190, 300, 100, -20)
    assert a["total"] == 570 and b["total"] == 115
    with pytest.raises(KafenioError, match=r"§4\.3"):       # the set cannot exist in aberto
        ref.score(BR, BUR26)
    negative = ref.score(rules("brazilian_4p", "fechado", "melds_negative_without_clean"), BUR26)["sides"]
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
    side = {"melds": ["3D 4D 5D 6D 7D 2C=8D 9D", "QH KH AH", "8S 9S 10S JS", "3C 4C 5C 6C"],
            "hands": ["KC 7C 8S", ""], "pot": "unplayed",
            "unplayed_cards": "JK AS AH AC KS QS JS 10S 3D 4D 5D"}
    flat = ref.score(BR, {"sides": [side]})["sides"][0]
    assert flat["melds"] == 140 and flat["total"] == 115
    by_cards = ref.score(rules(unplayed_pot_penalty="card_values"), {"sides": [side]})["sides"][0]
    assert by_cards["total"] == 95


def table_bonus(text, r=BR):
    """The bonus of a meld lying on the table (it may hold a wild laid off at its high end)."""
    return ref.score(r, {"sides": [{"melds": [text], "pot": "taken"}]})["sides"][0]["bonuses"][0]["bonus"]


def test_BUR_29_semi_clean():
    semi = rules("italian_4p", "semi_clean_150")
    assert table_bonus("4D 5D 6D 7D 8D 9D 10D JK=JD", semi) == 150
    assert table_bonus("4D 5D 6D 7D 8D 9D 10D JK=JD", IT) == 100
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
    assert it.rules.target_score == 2005 and it.rules.target_comparison == "greater_or_equal"
    assert it.match_winner([2005, 1000], [1, 0], 1) == 0
    assert it.match_winner([2000, 1500], [1, 0], 1) is None


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


# -- added 2026-11-26 (v1.2, audit corrections) ------------------------------------------------

def test_BUR_34_aberto_has_no_sets():
    for r in (BR, rules("brazilian_2p"), STBL):
        for text in ("QC QD QH", "QC QD QH JK"):
            out = meld(text, r)
            assert not out["valid"] and out["rule"].startswith("buraco.md §4.3")
    assert meld("9C 10C JC")["valid"]
    clean, dirty = meld("QC QD QH", FECHADO), meld("QC QD QH JK", FECHADO)
    assert clean["valid"] and clean["clean"] and card_points("QC QD QH", FECHADO) == 30
    assert dirty["valid"] and not dirty["clean"] and card_points("QC QD QH JK", FECHADO) == 50
    assert card_points("QC QD QH", IT) == 30 and card_points("QC QD QH JK", IT) == 60
    st = buraco(hand="QC QD QH JK 4S 9D")
    assert not any(s.startswith("meld+") for s in strings(st))


def test_BUR_35_vulnerable_from_half_the_target():
    assert buraco(match_scores=[1495, 1500]).opening_minimum(0) == 0
    hand = "4S 5S 6S JC QC KC 9D 10D JD QD KD AD 8H"
    st = buraco(seat=1, hand=hand, match_scores=[1495, 1500])
    assert st.opening_minimum(1) == 75
    for text in ("meld+ 4S", "meld+ 5S", "meld+ 6S", "meld end", "meld+ JC", "meld+ QC", "meld+ KC",
                 "meld end"):
        st.apply_string(text)
    assert st.provisional_points(1) == 45 and not st.opened[1]
    assert not any(s.startswith("discard") for s in strings(st))
    st.apply_string("retract")
    assert st.hand_size[1] == 13 and st.opening_minimum(1) == 75
    ok = buraco(seat=1, hand=hand, match_scores=[1495, 1500])
    for text in ("meld+ 9D", "meld+ 10D", "meld+ JD", "meld+ QD", "meld+ KD", "meld+ AD", "meld end",
                 "meld+ 4S", "meld+ 5S", "meld+ 6S", "meld end"):
        ok.apply_string(text)
    assert ok.opened[1] and ok.provisional is None
    free = buraco(["brazilian_4p", "no_vulnerability"], 1, hand, match_scores=[1495, 1500])
    assert free.opening_minimum(1) == 0
    assert buraco(seat=1, options={"target_score": 2000}, match_scores=[0, 1000]).opening_minimum(1) == 75
    assert buraco(seat=1, options={"target_score": 2000}, match_scores=[0, 995]).opening_minimum(1) == 0


def _deck_with_stock(preset: str, top: str, nxt: str, at: int = 66):
    """A deck of ``preset`` whose stock starts ``top``, ``nxt`` (positions ``at``, ``at + 1``)."""
    game = kafenio.load_game("buraco", preset=preset)
    deck = game.shuffle(5)
    for pos, text in ((at, top), (at + 1, nxt)):
        i = next(j for j, c in enumerate(deck) if c == parse_card(text) and j != at)
        deck[i], deck[pos] = deck[pos], deck[i]
    return game, deck


def test_BUR_36_first_card_may_be_refused():
    game, deck = _deck_with_stock("brazilian_4p", "9H", "KS")
    keep = game.new_initial_state(deck=deck, dealer=0)
    assert keep.current_player() == 1 and keep.pile == []
    keep.apply_string("draw")
    assert "reject" in strings(keep) and keep.view(1)["turn"]["drawn_card"] == "9H"
    assert keep.view(2)["turn"]["drawn_card"] is None
    keep.apply_string("discard 3C" if keep.hands[1][parse_card("3C")] else
                      next(s for s in strings(keep) if s.startswith("discard") and s != "discard 9H"))
    assert len(keep.pile) == 1 and "9H" not in keep.view(2)["discard_pile"]
    refuse = game.new_initial_state(deck=deck, dealer=0)
    refuse.apply_string("draw")
    refuse.apply_string("reject")
    assert refuse.pile == [parse_card("9H")] and refuse.hands[1][parse_card("KS")] >= 1
    assert "reject" not in strings(refuse)
    refuse.apply_string(next(s for s in strings(refuse) if s.startswith("discard") and s != "discard KS"))
    assert len(refuse.pile) == 2 and refuse.pile[0] == parse_card("9H")
    assert refuse.current_player() == 2 and "take" in strings(refuse)
    it = kafenio.load_game("buraco", preset="italian_4p").new_initial_state(seed=5)
    it.apply_string("draw")
    assert "reject" not in strings(it)


def test_BUR_37_canastra_real_and_meia_real():
    real = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
    assert meld(real)["bonus"] == 1000 and card_points(real) == 125
    two_to_ace = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    assert meld(two_to_ace)["bonus"] == 500 and card_points(two_to_ace) == 110
    ace_to_king = "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    assert meld(ace_to_king)["bonus"] == 500 and card_points(ace_to_king) == 110
    dirty = "AC 2C 3C 4C 5C 6C JK=7C 8C 9C 10C JC QC KC"
    assert meld(dirty)["bonus"] == 100 and card_points(dirty) == 125
    assert meld("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")["bonus"] == 200
    assert meld(real, LUDO)["bonus"] == 200 and meld(ace_to_king, IT)["bonus"] == 200
    old = rules("ludopoli_4p", a_to_k_bonus=500, a_to_a_bonus=1000)    # v1 names, aliases
    assert old.canastra_meia_real_bonus == 500 and old.canastra_real_bonus == 1000
    assert meld(real, old)["bonus"] == 1000


BUR38 = {"sides": [
    {"melds": ["3D 4D 5D 6D 7D 8D 9D", "10S JS QS KS AS", "8C 9C 10C JC QC KC", "3H 4H 5H 6H 7H"],
     "hands": ["KH 10H 5C", "10D 5S"], "pot": "untaken"},
    {"melds": ["9S 10S JS QS", "3C 4C 5C 6C 7C", "JD QD KD"], "hands": ["JK 10C 5H 5D", "KC QC 10D"],
     "pot": "untaken"}]}


def test_BUR_38_no_morto_penalty_when_none_taken():
    a, b = ref.score(BR, BUR38)["sides"]
    assert a["melds"] == 185 and a["total"] == 345 and b["melds"] == 95 and b["total"] == 25
    a, b = ref.score(rules(untaken_pot_penalty_if_none_taken=True), BUR38)["sides"]
    assert (a["total"], b["total"]) == (245, -75)
    assert IT.untaken_pot_penalty_if_none_taken and LUDO.untaken_pot_penalty_if_none_taken
    one_took = {"sides": [{**BUR38["sides"][0], "pot": "taken"}, BUR38["sides"][1]]}
    assert ref.score(BR, one_took)["sides"][1]["total"] == -75
    st = buraco(seat=2, hand="4C 9D KS", phase="draw")
    for _both_pots in range(2):
        st.stock = []
        st._start_turn()
        assert not st.is_terminal() and len(st.stock) == 11
    st.stock = []
    st._start_turn()
    assert st.is_terminal() and st.closed_by is None
    assert [s["pot_points"] for s in st.score_sheet()["sides"]] == [0, 0]
    assert st.deal_totals() == [s["total"] for s in st.score_sheet()["sides"]]
    charged = buraco(seat=2, hand="4C 9D KS", phase="draw",
                     options={"untaken_pot_penalty_if_none_taken": True})
    charged.stock, charged.pots = [], []
    charged._start_turn()
    assert [s["pot_points"] for s in charged.score_sheet()["sides"]] == [-100, -100]


def test_BUR_39_fechado_sets_and_sets_of_twos():
    assert meld("7H 7S 7D", FECHADO)["clean"]
    assert not meld("7H 7S 7D 2C", FECHADO)["clean"]
    two_wilds = meld("7H 7S 7D 2C JK", FECHADO)
    assert not two_wilds["valid"] and two_wilds["rule"].startswith("buraco.md §4.1")
    assert meld("2C 2D 2S", FECHADO)["clean"] and card_points("2C 2D 2S", FECHADO) == 30
    assert not meld("2C 2D 2S JK", FECHADO)["valid"]
    more = ref.layoff(FECHADO, "2C 2D 2S", "2H")
    assert more["valid"] and more["clean"] and len(more["cards"]) == 4
    seven = "2C 2C 2D 2H 2H 2S 2S"
    out = meld(seven, FECHADO)
    assert out["bonus"] == 1000 and card_points(seven, FECHADO) == 70
    for r in (BR, STBL, IT):
        assert not meld("2C 2D 2S", r)["valid"]


B40 = ["5D 6D 7D 8D 9D JK=10D JD", "8H 9H 10H"]


def test_BUR_40_fechado_any_canastra_goes_out():
    st = buraco(["brazilian_4p", "fechado"], 3, "JH 4C", melds={1: B40}, pot_taken=[1])
    assert "layoff 1 JH" in strings(st)
    st.apply_string("layoff 1 JH")
    st.apply_string("discard 4C")
    assert st.is_terminal() and st.closed_by == 1
    assert st.score_sheet()["sides"][1]["closing"] == 100
    for preset in ("brazilian_4p", ["brazilian_4p", "stbl"]):
        plain = buraco(preset, 3, "JH 4C", melds={1: B40}, pot_taken=[1])
        assert sorted(strings(plain)) == ["discard 4C", "discard JH"]


def test_BUR_41_fechado_top_card_with_pile_cards():
    st = buraco(["brazilian_4p", "fechado"], 0, "8H KC 3D QS 9C", pile="7H QC 3S 6H", phase="draw")
    assert st.view(1)["discard_pile"] == ["6H"] and "take" in strings(st)
    st.apply_string("take")
    assert strings(st) == ["meld+ 6H"]
    for text in ("meld+ 6H", "meld+ 7H", "meld+ 8H", "meld end"):
        st.apply_string(text)
    assert any(s.startswith("discard") for s in strings(st))
    stbl = buraco(["brazilian_4p", "stbl"], 0, "8H KC 3D QS 9C", pile="7H QC 3S 6H", phase="draw")
    assert "take" not in strings(stbl)
    why = stbl.explain_illegal(stbl.string_to_action("take"))
    assert "§3" in str(why)
    vul = buraco(["brazilian_4p", "fechado"], 0, "9D 10D JD 4C 4H 4S KS 8C", pile="AD 5H KD QD",
                 phase="draw", match_scores=[1600, 0])
    assert vul.opening_minimum(0) == 75 and "take" in strings(vul)
    vul.apply_string("take")
    for text in ("meld+ QD", "meld+ 9D", "meld+ 10D", "meld+ JD", "meld+ KD", "meld+ AD", "meld end"):
        vul.apply_string(text)
    assert vul.provisional_points(0) == 65 and not vul.opened[0]
    for text in ("meld+ 4C", "meld+ 4H", "meld+ 4S", "meld end"):
        vul.apply_string(text)
    assert vul.opened[0] and sorted(strings(vul)) == ["discard 5H", "discard 8C", "discard KS"]


def test_BUR_42_fechado_wild_top_card_new_meld_only():
    fe = ["brazilian_4p", "fechado"]
    a = buraco(fe, 2, "5D 6D KS QC 8S", melds={0: ["9H 10H JH"]}, pile="10C JK", phase="draw")
    assert "take" in strings(a)
    a.apply_string("take")
    legal = strings(a)
    assert "meld+ JK" in legal and not any(s.startswith("layoff") for s in legal)
    with pytest.raises(KafenioError, match="new meld"):
        a.apply_string("layoff 0 JK")
    for text in ("meld+ JK", "meld+ 5D", "meld+ 6D", "meld end"):
        a.apply_string(text)
    assert a.melds[0][-1].notation() == ["JK=4D", "5D", "6D"]
    b = buraco(fe, 2, "KS 8S 3D 5C 7H", melds={0: ["9H 10H JH"]}, pile="10C JK", phase="draw")
    assert "take" not in strings(b)
    assert "new meld" in str(b.explain_illegal(b.string_to_action("take")))
    c = buraco(fe, 2, "AS 3S 9D KC", pile="2S", phase="draw")
    assert "take" in strings(c)
    c.apply_string("take")
    for text in ("meld+ 2S", "meld+ AS", "meld+ 3S", "meld end"):
        c.apply_string(text)
    assert c.melds[0][-1].notation() == ["AS", "2S", "3S"] and c.melds[0][-1].clean


def test_BUR_43_stbl_preset():
    assert rules("brazilian_4p", "fechado_stbl") == STBL
    assert rules("brazilian_4p", "fechado_stbl").presets == ("brazilian_4p", "stbl")
    assert not meld("7C 7D 7S", STBL)["valid"]
    st = buraco(["brazilian_4p", "stbl"], 0, "4C", pile="3D 9S", phase="draw")
    assert st.view(1)["discard_pile"] == ["9S"] and st.view(1)["discard_pile_size"] == 2
    assert STBL.going_out_requirement == "clean_canastra"


def test_BUR_44_italian_low_end_wild():
    assert meld("10C JC QC JK", IT)["cards"] == ["JK=9C", "10C", "JC", "QC"]
    high = meld("10C JC QC JK=KC", IT)
    assert not high["valid"] and high["rule"].startswith("buraco.md §4.4")
    assert meld("10C JC QC 2D", IT)["cards"] == ["2D=9C", "10C", "JC", "QC"]
    assert meld("AH 2H 3H JK", IT)["cards"] == ["AH", "2H", "3H", "JK=4H"]
    for end in ("low", "high"):
        assert ref.layoff(IT, "7S JK=8S 9S", "8S", wild_end=end)["cards"] == ["JK=6S", "7S", "8S", "9S"]
    assert meld("10C JC QC JK=KC")["valid"]
    assert ref.layoff(BR, "7S JK=8S 9S", "8S")["cards"][0] == "JK=6S"
    assert ref.layoff(BR, "7S JK=8S 9S", "8S", wild_end="high")["cards"][-1] == "JK=10S"
    st = buraco("italian_4p", 2, "10C JC QC JK 5D 8H")
    for text in ("meld+ 10C", "meld+ JC", "meld+ QC", "meld+ JK"):
        st.apply_string(text)
    assert "meld end" in strings(st) and "meld end high" not in strings(st)
    br = buraco("brazilian_4p", 2, "10C JC QC JK 5D 8H")
    for text in ("meld+ 10C", "meld+ JC", "meld+ QC", "meld+ JK"):
        br.apply_string(text)
    assert "meld end high" in strings(br)


def test_BUR_44_free_end_wild_with_no_hole():
    """§4.4, §4.5 move 2: a free end wild that the naturals leave no hole for sits below or above
    them — the player's choice with ``end_wild_placement = free`` (``ludopoli_4p``, both legal
    actions), below whenever that place exists with ``low`` (``italian_4p``: ``2H=8S 9S 10S``
    + ``JS`` keeps the wild low, ``5C 6C 7C JK=8C`` + ``4C`` sends it down); without
    ``free_wild_may_move`` (``brazilian_4p``) it stays."""
    assert ref.layoff(LUDO, "JK=4C 5C 6C", "7C")["cards"] == ["JK=4C", "5C", "6C", "7C"]
    assert ref.layoff(LUDO, "JK=4C 5C 6C", "7C", wild_end="high")["cards"] == ["5C", "6C", "7C", "JK=8C"]
    for end in ("low", "high"):
        assert ref.layoff(IT, "2H=8S 9S 10S", "JS", wild_end=end)["cards"] == ["2H=8S", "9S", "10S", "JS"]
        assert ref.layoff(IT, "5C 6C 7C JK=8C", "4C", wild_end=end)["cards"] == ["JK=3C", "4C", "5C", "6C", "7C"]
        assert ref.layoff(BR, "JK=4C 5C 6C", "7C", wild_end=end)["cards"] == ["JK=4C", "5C", "6C", "7C"]
    assert ref.layoff(IT, "AH 2H JK=3H", "4H")["cards"] == ["AH", "2H", "JK=3H", "4H"]
    st = buraco("ludopoli_4p", hand="7C 9D 3S", melds={0: ["JK=4C 5C 6C"]})
    assert {"layoff 0 7C", "layoff 0 7C high"} <= set(strings(st))
    it = buraco("italian_4p", hand="7C 9D 3S", melds={0: ["JK=4C 5C 6C"]})
    assert "layoff 0 7C" in strings(it) and "layoff 0 7C high" not in strings(it)


def test_BUR_45_brazilian_natural_two_never_turns_wild():
    """The Brazilian half of BUR-45 (the Italian move is ``natural_two_may_become_wild``, §4.5)."""
    assert not ref.layoff(BR, "2S 3S 4S 5S 6S 7S 8S", "10S")["valid"]
    st = buraco(hand="10S 4C 9D", melds={0: ["2S 3S 4S 5S 6S 7S 8S"]})
    assert "layoff 0 10S" not in strings(st)


def test_BUR_45_italian_natural_two_turns_wild_and_back():
    out = ref.layoff(IT, "2S 3S 4S 5S 6S 7S 8S", "10S")
    assert out["cards"] == ["3S", "4S", "5S", "6S", "7S", "8S", "2S=9S", "10S"]
    assert not out["clean"] and out["bonus"] == 100
    assert card_points("3S 4S 5S 6S 7S 8S 2S=9S 10S", IT) == 65
    back = ref.layoff(IT, "3S 4S 5S 6S 7S 8S 2S=9S 10S", "9S")
    assert back["cards"] == ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]
    assert back["clean"] and back["bonus"] == 200
    st = buraco("italian_4p", hand="10S 4C 9D", melds={0: ["2S 3S 4S 5S 6S 7S 8S"]})
    st.apply_string("layoff 0 10S")
    table = st.melds[0][0]
    assert not table.clean and table.notation() == out["cards"]


def _swap_turn(st):
    """Take the one-card pile and discard another card."""
    taken = st.pile[-1]
    st.apply_string("take")
    st.apply_string(next(s for s in strings(st) if s.startswith("discard")
                         and parse_card(s.split()[1]) != taken))


def test_BUR_46_italian_stalemate():
    st = buraco("italian_4p", 1, "KC 4D 9S 6H 7C 10D QH JS 3S 5D", pile="8D", phase="draw")
    for _turn in range(3):
        _swap_turn(st)
        assert not st.is_terminal()
    _swap_turn(st)
    assert st.is_terminal() and st.closed_by is None
    assert all(s["closing"] == 0 for s in st.score_sheet()["sides"])
    drawn = buraco("italian_4p", 1, "KC 4D 9S 6H 7C 10D QH JS 3S 5D", pile="8D", phase="draw")
    _swap_turn(drawn)
    _swap_turn(drawn)
    assert drawn.swap_turns == 2
    drawn.apply_string("draw")              # seat 3 draws: not a swap turn, the count restarts
    drawn.apply_string(next(s for s in strings(drawn) if s.startswith("discard")))
    assert drawn.swap_turns == 0 and not drawn.is_terminal()
    laid = buraco("italian_4p", 3, "KC 4D 9S", melds={1: ["9D 10D JD"]}, pile="8D", phase="draw")
    laid.swap_turns = 3
    laid.apply_string("take")
    laid.apply_string("layoff 0 8D")        # seat 3 lays off: the count restarts with seat 0
    laid.apply_string("discard KC")
    assert laid.swap_turns == 0 and not laid.is_terminal() and laid.current_player() == 0
    force = buraco(["italian_4p", "stalemate_draw"], 1, "KC 4D 9S 6H 7C 10D QH JS 3S 5D", pile="8D",
                   phase="draw")
    for _turn in range(4):
        _swap_turn(force)
    assert not force.is_terminal() and force.current_player() == 1
    assert strings(force) == ["draw"]
    assert "stock" in str(force.explain_illegal(force.string_to_action("take")))
    br = buraco("brazilian_4p", 1, "KC 4D 9S 6H 7C 10D QH JS 3S 5D", pile="8D", phase="draw")
    for _turn in range(4):
        _swap_turn(br)
    assert not br.is_terminal() and "take" in strings(br)


def _play_a_turn(st):
    st.apply_string("draw")
    st.apply_string(next(s for s in strings(st) if s.startswith("discard")))


def test_BUR_47_three_player_burraco_deal():
    game = kafenio.load_game("buraco", preset="italian_3p")
    assert game.num_players == 3 and game.num_sides == 3
    deck = game.shuffle(5)
    st = game.new_initial_state(deck=deck, dealer=0)
    order = [1, 2, 0]
    assert st.pots == [deck[0:18], deck[18:29]] and st.sides == [[0], [1], [2]]
    for seat in range(3):
        held = sorted(c for c in range(53) for _n in range(st.hands[seat][c]))
        assert held == sorted(deck[i] for i in range(29, 62) if order[(i - 29) % 3] == seat)
    assert st.pile == [deck[62]] and len(st.stock) == 45 and st.current_player() == 1
    with pytest.raises(KafenioError, match="Italian"):
        rules("brazilian_4p", num_players=3)


def test_BUR_47_three_player_solo_and_pair():
    st = buraco("italian_3p", 2, "4S", melds={0: ["5H 6H 7H"], 1: ["9D 10D JD"], 2: ["3C 4C 5C"]})
    st.apply_string("discard 4S")               # seat 2 empties its hand by discarding
    assert st.solo == 2 and st.sides == [[2], [0, 1]]
    assert [m.notation() for m in st.melds[0]] == [["3C", "4C", "5C"]]
    assert [m.notation() for m in st.melds[1]] == [["5H", "6H", "7H"], ["9D", "10D", "JD"]]
    assert st.pot_taken == [True, False] and [len(p) for p in st.pots] == [11]
    assert st.hand_size[2] == 18 and st.view(2)["hand"] == []        # face down (§5)
    assert st.view(0)["pots"]["face_down"] == [0, 0, 18] and st.view(1)["solo"] == 2
    assert st.current_player() == 0
    _play_a_turn(st)
    st.apply_string("draw")                     # seat 1 melds its last cards: pot #2 in flight
    st.hands[1] = [0] * len(st.hands[1])
    for c in parse_cards("8C 9C 10C"):
        st.hands[1][c] += 1
    st.hand_size[1] = 3
    for text in ("meld+ 8C", "meld+ 9C", "meld+ 10C", "meld end"):
        st.apply_string(text)
    assert st.pot_taken == [True, True] and st.hand_size[1] == 11 and not st.unplayed[1]
    assert len(st.melds[1]) == 3 and st.current_player() == 1
    st.apply_string(next(s for s in strings(st) if s.startswith("discard")))
    assert st.current_player() == 2 and len(st.view(2)["hand"]) == 18
    solo, pair = 355 + 200 + 100, 210 + 100 - 55 - 40
    assert pair == 215 and st.solo_scores([solo, pair]) == [107.5, 107.5, 655]


def test_BUR_48_unplayed_pot_stays_face_down():
    st = buraco("italian_4p", 1, "4S")
    st.apply_string("discard 4S")
    assert st.pot_taken[1] and st.hand_size[1] == 11
    for _partner_not_yet in range(2):           # seat 2 (the opponent), then seat 3 (the partner)
        for seat in (0, 1, 2, 3, None):
            view = st.view(seat)
            assert view["pots"]["face_down"] == [0, 11, 0, 0] and view["hand_sizes"][1] == 11
        assert st.view(1)["hand"] == [] and not st.observation_tensor(1)[:53].any()
        _play_a_turn(st)
    assert st.current_player() == 0
    assert len(st.view(1)["hand"]) == 11 and st.view(1)["pots"]["face_down"] == [0, 0, 0, 0]
    assert st.observation_tensor(1)[:53].sum() == 11
    two = buraco("italian_2p", 1, "4S")
    two.apply_string("discard 4S")
    assert two.view(1)["hand"] == []
    _play_a_turn(two)
    assert two.current_player() == 1 and len(two.view(1)["hand"]) == 11


def test_BUR_49_semi_clean_seven_naturals_on_one_side():
    semi = rules("italian_4p", "semi_clean_150")
    for text, bonus in (("5C 6C 7C 8C 9C 10C JC JK=QC KC", 150),
                        ("6H JK=7H 8H 9H 10H JH QH KH AH", 150),
                        ("4C 5C 6C JK=7C 8C 9C 10C JC", 100)):
        assert meld(text, semi)["bonus"] == bonus
        assert meld(text, IT)["bonus"] == 100


def test_BUR_50_italian_target_reached_at_2005():
    it = kafenio.load_game("buraco", preset="italian_4p")
    assert it.match_winner([1890 + 115, 1700 + 230], [1, 0], 1) == 0
    assert it.match_winner([1985 + 15, 1990 + 10], [1, 1], 2) is None
    assert it.match_winner([1950 + 80, 1995 + 35], [1, 1], 2) is None


@pytest.mark.parametrize("preset", ["italian_4p", "brazilian_4p"])
def test_BUR_51_one_card_pile_twin_may_be_discarded(preset):
    st = buraco(preset, 0, "9C 4D KS 7H", pile="9C", phase="draw")
    st.apply_string("take")
    assert "discard 9C" in strings(st)          # the 9C seat 0 already held
    st.apply_string("discard 9C")
    assert st.pile == [parse_card("9C")] and st.hands[0][parse_card("9C")] == 1
    alone = buraco(preset, 0, "4D KS 7H", pile="9C", phase="draw")
    alone.apply_string("take")
    assert "discard 9C" not in strings(alone)
    two = buraco(preset, 0, "9C 4D KS 7H", pile="3H 9C", phase="draw")
    two.apply_string("take")
    assert "discard 9C" in strings(two)


def test_BUR_48_information_state_names_the_pot_only_once_face_up():
    game = kafenio.load_game("buraco", preset="italian_4p")
    for seed in range(40):
        st = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            owner = next((s for s in range(4) if st.pot_face_down[s]), None)
            if owner is not None:
                text = st.information_state_string(owner)
                assert "pot face down" in text and "pot [" not in text
                last = text.splitlines()[-1].split()[1:]
                assert len(last) == st.hand_size[owner] - 11
                return
            legal = st.legal_actions()
            st.apply_action(legal[rng.randrange(len(legal))])
    pytest.fail("no pot was taken by discarding in 40 random deals")
