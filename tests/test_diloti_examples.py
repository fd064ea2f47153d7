"""Every worked example of fishing-relatives.md C11 (DIL-01 … DIL-44), one test each."""

from __future__ import annotations

import pytest

from kafenio import load_game
from kafenio.engine.errors import KafenioError
from kafenio.fishing.diloti_moves import parse_table
from kafenio.fishing.state import CHOOSE
from kafenio.referee.fishing import capture, declare, score
from relatives_helpers import cards, deck, hand, names, srt


def rules(*presets, **options):
    return load_game("diloti", preset=list(presets) or None, options=options).rules


def table_position(table, hands, *presets, to_play=0, first_card=False, stock="2S 3S 4S 5S", **options):
    game = load_game("diloti", preset=list(presets) or None, options=options)
    loose, decls = parse_table(table)
    seat_hands = [cards(hands.get(s, "")) for s in range(game.num_players())]
    state = game.position(loose, seat_hands, to_play=to_play, stock=cards(stock), declarations=decls,
                          first_card=first_card)
    return state


def norm(text):
    words = text.split()
    return " ".join(words[:1] + sorted(words[1:]))


def moves(state, card):
    """The card's moves, each written with its cards sorted (the floor order is the engine's)."""
    return [norm(state.move_text(m)) for m in state.moves(cards(card)[0])]


def same(seq, text):
    return sorted(seq) == sorted(cards(text))


def play(state, card, move_text=None):
    state.apply_string("play " + card)
    if state.pending is not None:
        state.apply_string(move_text)


def table(state):
    return [names([c]) for c in state.floor] + [d.text() for d in state.decls]


def test_DIL_01_deal():
    state = load_game("diloti").new_initial_state(deck=deck("4H KC 7S AD 9C 2S 10D QH 5C 3S 8D AH 6C JD 2H 9S"))
    assert hand(state, 1) == srt("4H KC 7S AD 9C 2S") and hand(state, 0) == srt("10D QH 5C 3S 8D AH")
    assert same(state.floor, "6C JD 2H 9S") and len(state.stock) == 36


def test_DIL_02_four_player_deal():
    state = load_game("diloti", preset="pagat_4p").new_initial_state(deck=deck(
        "AS 2S 3S 4S 5S 6S AH 2H 3H 4H 5H 6H AD 2D 3D 4D 5D 6D AC 2C 3C 4C 5C 6C 7S 8H KD QC"))
    assert hand(state, 3) == srt("AS 2S 3S 4S 5S 6S") and hand(state, 0) == srt("AC 2C 3C 4C 5C 6C")
    assert same(state.floor, "7S 8H KD QC") and len(state.stock) == 24 and state.current_player() == 3


def test_DIL_03_table_check():
    order = deck("4H KC 7S AD 9C 2S 10D JH 5C 3S 8D AH QS QD 5H QC 6C JD 2H 9S")
    positions = [8, 16, 24, 32]
    state = load_game("diloti").new_initial_state(deck=order, reinsert_positions=positions)
    assert same(state.floor, "6C JD 2H 9S") and len(state.stock) == 36
    assert names(state.stock[i] for i in (4, 12, 20, 28)) == "QS QD 5H QC"
    assert state.view(0)["stock_bottom_known"] == [] == state.view(1)["stock_bottom_known"]
    kept = load_game("diloti", preset="three_faces_kept").new_initial_state(deck=order)
    assert same(kept.floor, "QS QD 5H QC")
    sevens = deck("4H KC 7S AD 9C 2S 10D JH 5C 3S 8D AH 7C 7D 2C 7H 6C JD 2H 9S")
    assert same(load_game("diloti").new_initial_state(deck=sevens).floor, "7C 7D 2C 7H")
    denexa = load_game("diloti", preset="denexa").new_initial_state(deck=sevens, reinsert_positions=positions)
    assert same(denexa.floor, "6C JD 2H 9S")


def test_DIL_04_face_card_must_take():
    state = table_position("{QH 5C}", {0: "QS 3D"})
    assert moves(state, "QS") == ["capture QH"]


def test_DIL_05_one_of_two_kings():
    state = table_position("{KD KS 3C 8H}", {0: "KH 3D"})
    assert sorted(moves(state, "KH")) == ["capture KD", "capture KS"]


def test_DIL_06_three_queens():
    state = table_position("{QC QD QH 4S}", {0: "QS 3D"}, "three_faces_kept")
    assert moves(state, "QS") == ["capture QC QD QH"]


def test_DIL_07_face_card_laid():
    state = table_position("{QH 4S}", {0: "KS 3D"})
    assert moves(state, "KS") == ["lay"]
    play(state, "KS")
    assert same(state.floor, "QH 4S KS")


def test_DIL_08_equal_numerals():
    assert sorted(moves(table_position("{4C 4D 9S}", {0: "4H 3D"}), "4H")) == sorted(
        ["capture 4C 4D", "capture 4C", "capture 4D", "lay"])


def test_DIL_09_two_sums_xeri():
    r = capture(rules(), "AH 4C 5D 8S", "9H")
    assert sorted(map(sorted, r["choices"])) == [["4C", "5D"], ["4C", "5D", "8S", "AH"], ["8S", "AH"]]
    assert r["points"] == 10 and r["captured"] == ["AH", "4C", "5D", "8S"]


def test_DIL_10_sums_and_forced():
    r = capture(rules(), "2S 3D 5H 7C 8C", "10H")
    assert sorted(map(sorted, r["choices"])) == sorted(map(sorted, [
        ["2S", "3D", "5H"], ["2S", "8C"], ["3D", "7C"], ["2S", "8C", "3D", "7C"]]))
    r = capture(rules("forced_capture"), "2S 3D 5H 7C 8C", "10H")
    assert sorted(map(sorted, r["choices"])) == sorted(map(sorted, [["2S", "3D", "5H"], ["2S", "8C", "3D", "7C"]]))


def test_DIL_11_plain_declaration():
    assert declare(rules(), "{5C 9S}", "3D 8H KC 2D", "declare P8 (3D 5C)")["table_after"] == ["9S", "P8@0(3D 5C)"]
    assert not declare(rules(), "{5C 9S}", "3D 9D KC 2D", "declare P8 (3D 5C)")["valid"]
    assert declare(rules(), "{5C AS 9S}", "3D 9D KC", "declare P9 (3D 5C AS)")["valid"]


def test_DIL_12_over_ten():
    r = declare(rules(), "{7C}", "5D KC", "declare P12 (5D 7C)")
    assert not r["valid"] and "§C3.4" in r["rule"]


def test_DIL_13_raise():
    assert declare(rules(), "{P4@1(AS 3C)}", "5H 9C KS", "raise P4@1 to 9")["table_after"] == ["P9@0(AS 3C 5H)"]
    assert not declare(rules(), "{P4@1(AS 3C)}", "5H 8C KS", "raise P4@1 to 9")["valid"]
    own = declare(rules(), "{P4@1(AS 3C)}", "5H 9C 4D", "seat 1: raise P4@1 to 9")
    assert not own["valid"] and "§C3.5" in own["rule"]
    assert declare(rules("diloti_online"), "{P4@1(AS 3C)}", "5H 9C 4D", "seat 1: raise P4@1 to 9")["valid"]


def test_DIL_13_raise_with_liberal_declarations():
    """C3.9 ``full``: a raise *may* also take loose numerals, "in addition" to C3.5 — the raise
    by the played card alone stays open."""
    r = declare(rules("liberal_declarations"), "{P4@1(AS 3C)}", "5H 9C KS", "raise P4@1 to 9")
    assert r["table_after"] == ["P9@0(AS 3C 5H)"]
    state = table_position("{AD P4@1(AS 3C)}", {0: "5H 9C 10C KS"}, "liberal_declarations")
    raises = [m for m in moves(state, "5H") if m.startswith("raise")]
    assert raises == [norm("raise P4@1 to 9"), norm("raise P4@1 to 10 with AD")]


def test_DIL_14_raise_back():
    assert declare(rules(), "{P9@0(AS 3C 5H)}", "AD 10H 6S", "seat 1: raise P9@0 to 10")["table_after"] == [
        "P10@1(AS 3C 5H AD)"]
    assert not declare(rules(), "{P9@0(AS 3C 5H)}", "2D 10H 6S", "seat 1: raise P9@0 to 11")["valid"]


def test_DIL_15_partner_may_not_raise():
    r = declare(rules("pagat_4p"), "{P6@2(4S 2D)}", "3H 9C", "seat 0: raise P6@2 to 9")
    assert not r["valid"] and "partner" in r["rule"]
    for seat in (1, 3):
        assert declare(rules("pagat_4p"), "{P6@2(4S 2D)}", "3H 9C", f"seat {seat}: raise P6@2 to 9")["valid"]


def test_DIL_16_group():
    assert declare(rules(), "{5C}", "5D 5S KH", "group G5 (5C | 5D)")["table_after"] == ["G5@0(5D | 5C)"]
    assert not declare(rules(), "{5C}", "5D KH", "group G5 (5C | 5D)")["valid"]


def test_DIL_17_group_of_four_cards():
    assert declare(rules(), "{6S 4H 2D}", "6C 6D", "group G6 (6S | 6C | 4H 2D)")["valid"]


def test_DIL_18_group_with_sum():
    assert declare(rules(), "{8H 2C}", "6D 8S", "group G8 (8H | 6D 2C)")["valid"]


def test_DIL_19_raise_into_group():
    r = declare(rules(), "{9S P8@1(5C 3D)}", "AH 9D", "AH: group G9 (9S | 5C 3D AH)")
    assert r["valid"] and r["table_after"] == ["G9@0(AH 5C 3D | 9S)"]


def test_DIL_20_own_plain_to_group():
    assert declare(rules(), "{P6@0(4S 2H)}", "6C 6D", "6C: group G6 (4S 2H | 6C)")["table_after"] == [
        "G6@0(6C | 4S 2H)"]


def test_DIL_21_declarer_choices():
    state = table_position("{7S 6C QC P8@0(5C 3D)}", {0: "8H 2S QD"})
    assert "capture P8@0" in moves(state, "8H") and "lay" not in moves(state, "8H")
    assert moves(state, "QD") == ["capture QC"]
    assert moves(state, "2S") == [norm("group G8 6C P8@0")]


def test_DIL_22_reserved_card():
    state = table_position("{7C P7@0(4D 3C)}", {0: "7H 5S"})
    assert sorted(moves(state, "7H")) == ["capture 7C P7@0", "capture P7@0"]
    assert moves(state, "5S") == [] and state.legal_actions() == cards("7H")
    play(state, "7H", "capture 7C P7@0")
    assert state.specials[0] == [10]
    state = table_position("{7C P7@0(4D 3C)}", {0: "7H 7S 5S"})
    assert "capture 7C" in moves(state, "7H")


def test_DIL_23_declaration_with_other_items():
    state = table_position("{7H 5S 2C P7@1(4C 3D)}", {0: "7S 9C"})
    play(state, "7S", "capture 7H 5S 2C P7@1")
    assert len(state.captured[0]) == 6 and state.specials[0] == [10] and state.decls == []


def test_DIL_24_declarations_are_not_addends():
    assert capture(rules(), "{AH P5@1(2C 3D)}", "6D")["captured"] == []
    assert norm("declare P7 AH") in moves(table_position("{AH P5@1(2C 3D)}", {0: "6D 7C"}), "6D")
    r = capture(rules("liberal_declarations"), "{AH P5@1(2C 3D)}", "6D")
    assert r["points"] == 10 and len(r["captured"]) == 2


def test_DIL_25_groups_only_by_value():
    for preset in ((), ("liberal_declarations",)):
        assert capture(rules(*preset), "{AS G9@1(9C | 4D 5H)}", "10D")["captured"] == []
    r = capture(rules(), "{AS G9@1(9C | 4D 5H)}", "9S")
    assert r["captured"] == ["G9@1(9C | 4D 5H)"] and r["floor_after"] == ["AS"]


def test_DIL_26_forced_capture():
    free = moves(table_position("{2S 3D 4C 5H 9S}", {0: "9D 3C"}), "9D")
    assert len([m for m in free if m.startswith("capture")]) == 5 and "lay" in free
    forced = moves(table_position("{2S 3D 4C 5H 9S}", {0: "9D 3C"}, "forced_capture"), "9D")
    assert sorted(forced) == ["capture 2S 3D 4C 9S", "capture 4C 5H 9S"]


def test_DIL_27_first_card():
    for presets, points in (((), []), (("first_card_xeri",), [10])):
        state = table_position("{AC 2D 3H 4S}", {1: "10H 3C"}, *presets, to_play=1, first_card=True)
        play(state, "10H", "capture AC 2D 3H 4S")
        assert state.specials[1] == points


def test_DIL_28_last_card():
    for presets, points in (((), [10]), (("no_last_xeri",), [])):
        state = table_position("{6H}", {0: "6D"}, *presets, stock="")
        play(state, "6D", "capture 6H")
        assert state.is_terminal() and state.specials[0] == points


def test_DIL_29_leftovers():
    state = table_position("{4C}", {0: "QH"}, stock="")
    state.last_capturer = 1
    play(state, "QH")
    assert state.final_take[0] == 1 and same(state.final_take[1], "4C QH") and state.specials == [[], []]


def test_DIL_30_scoring():
    r = score(rules(), {"sides": [{"cards": 30, "point_cards": "AS AH AD 2C", "xeris": 1},
                                  {"cards": 22, "point_cards": "AC 10D", "xeris": 2}]})
    assert [s["total"] for s in r["sides"]] == [18, 23]


def test_DIL_30_referee_refuses_sheets_no_round_gives():
    """C4 and C6 as a referee checks a sheet given in numbers: DIL-30's round is accepted; card
    points that are not the deck's 7, a xeri worth anything but 10, more xeris than a round has
    room for (24: the first card scores none, the last may; 23 with ``no_last_xeri``) and a
    majority given to the side with fewer cards are refused, naming the rule."""
    def sheet(a=4, b=3, a_xeris=1, b_xeris=2, **extra):
        return {"sides": [{"cards": 30, "card_points": a, "xeris": a_xeris, **extra},
                          {"cards": 22, "card_points": b, "xeris": b_xeris}]}

    assert [s["total"] for s in score(rules(), sheet())["sides"]] == [18, 23]
    assert score(rules(), sheet(a_xeris=20, b_xeris=4))["sides"][1]["xeris"]["count"] == 4
    assert score(rules("first_card_xeri", "no_last_xeri"), sheet(a_xeris=20, b_xeris=4))
    for r, data, message in ((rules(), sheet(a=5), r"8.*7.*§C6"), (rules(), sheet(b_xeris=[20]), r"worth 20.*10 .*§C4"),
                             (rules(), sheet(a_xeris=21, b_xeris=4), r"25 in one deal.*at most 24.*§C4"),
                             (rules("no_last_xeri"), sheet(a_xeris=20, b_xeris=4), r"at most 23"),
                             (rules(), sheet(majority=0), r"majority.*30 of the 52.*§C6")):
        with pytest.raises(KafenioError, match=message):
            score(r, data)


def test_DIL_31_split():
    r = score(rules(), {"sides": [{"cards": 26, "point_cards": "AS AH AD 2C"},
                                  {"cards": 26, "point_cards": "AC 10D"}]})
    assert [s["total"] for s in r["sides"]] == [4, 3]


def test_DIL_32_match():
    game = load_game("diloti")
    assert game.match_winner([64, 60], [0, 0], 1) == 0 and game.match_winner([65, 65], [0, 0], 1) is None
    assert load_game("diloti", preset="long_121").rules.target_score == 121


def test_DIL_33_liberal_groups():
    assert declare(rules("liberal_groups"), "{AH P7@1(4C 3D)}", "8S 8D", "8S: group G8 (8S | 4C 3D AH)")["valid"]
    assert not declare(rules(), "{AH P7@1(4C 3D)}", "8S 8D", "8S: group G8 (8S | 4C 3D AH)")["valid"]


def test_DIL_34_soy():
    state = table_position("{5C}", {0: "5D 5S", 1: "5H 5C"}, "soy", stock="2S 3S 4S 5S")
    play(state, "5D", "group G5 5C")
    assert state.decls[0].soy
    r = declare(rules("soy"), "{G5@0(5C | 5D)}", "5H 5S", "seat 1: 5H: group G5 (5C | 5D | 5H)")
    assert not r["valid"] and "soy" in r["rule"]
    assert declare(rules(), "{G5@0(5C | 5D)}", "5H 5S", "seat 1: 5H: group G5 (5C | 5D | 5H)")["valid"]


def test_DIL_35_four_players():
    assert declare(rules("pagat_4p"), "{P8@0(5C 3D)}", "AH 9C", "seat 1: raise P8@0 to 9")["valid"]
    assert not declare(rules("pagat_4p"), "{P8@0(5C 3D)}", "AH 9C", "seat 2: raise P8@0 to 9")["valid"]
    r = declare(rules("pagat_4p"), "{P8@0(5C 3D)}", "8D 8S", "seat 2: 8D: group G8 (5C 3D | 8D)")
    assert r["valid"] and r["table_after"] == ["G8@2(8D | 5C 3D)"]
    state = table_position("{P8@0(5C 3D)}", {2: "4H 7S"}, "pagat_4p", to_play=2)
    assert "lay" in moves(state, "4H")


def test_DIL_36_a_long_build():
    state = table_position("{2S 3H 4D 8C}", {0: "AC 2D 3C 8H 8S 6S", 1: "4S 6D 5H KD 9C 10C"}, stock="")
    play(state, "AC", "group G8 3H 4D 8C")
    play(state, "4S", "declare P6 2S")
    play(state, "2D", "group G8 G8@0 P6@1")
    assert len(state.decls) == 1 and state.decls[0].owner == 0 and len(state.decls[0].components) == 3
    play(state, "5H", "lay")
    play(state, "3C", "group G8 5H G8@0")
    play(state, "KD")
    play(state, "8H", "group G8 G8@0")
    assert len(state.decls[0].components) == 5 and len(state.decls[0].cards) == 10
    play(state, "9C", "lay")
    play(state, "8S", "capture G8@0")
    assert len(state.captured[0]) == 11 and same(state.floor, "9C KD") and state.specials[0] == []
    assert sum(state.game.card_points[c] for c in state.captured[0]) == 1


def test_DIL_37_face_redeal():
    order = deck("KC QD JH KS QS 4D 2S 3S 5S 6S 7S 8S 9C 10C 2H 3H")
    game = load_game("diloti", preset="face_redeal")
    state = game.new_initial_state(deck=order)
    assert state.legal_actions()[-1] == game.redeal_action
    state.apply_string("redeal")
    assert state.current_player() == 1 and state.dealer == 0 and len(state.history) == 1
    assert game.deserialize_state(state.serialize()).serialize() == state.serialize()
    assert game.redeal_action not in load_game("diloti").new_initial_state(deck=order).legal_actions()


def test_DIL_38_four_player_scoring():
    r = score(rules("pagat_4p"), {"sides": [{"cards": 31, "point_cards": "AS AC 10D", "xeris": 1},
                                            {"cards": 21, "point_cards": "AH AD 2C", "xeris": 3}]})
    assert [s["total"] for s in r["sides"]] == [18, 33]


def test_DIL_39_dragging_declaration():
    state = table_position("{3S 8H 10C}", {0: "5C 8D 8S"}, "dragging")
    play(state, "5C", "declare P8 3S")
    assert table(state) == ["10C", "G8@0(5C 3S | 8H)"]
    state = table_position("{3S 8H 10C}", {0: "5C 8D 8S"})
    play(state, "5C", "declare P8 3S")
    assert table(state) == ["8H", "10C", "P8@0(5C 3S)"]


def test_DIL_40_dragging_capture():
    state = table_position("{6C 2H 4C P6@1(4D 2S)}", {0: "6H 9S"}, "dragging")
    assert moves(state, "6H")[0] == norm("capture 2H 4C 6C P6@1")
    play(state, "6H", "capture 2H 4C 6C P6@1")
    assert len(state.captured[0]) == 6 and state.specials[0] == [10]
    state = table_position("{6C 2H 4C P6@1(4D 2S)}", {0: "6H 9S"})
    play(state, "6H", "capture 2H 4C")
    assert len(state.captured[0]) == 3 and table(state) == ["6C", "P6@1(4D 2S)"]


def test_choice_ids_are_moves():
    state = table_position("{4C 4D 9S}", {0: "4H 3D"})
    state.apply_string("play 4H")
    legal = state.legal_actions()
    assert len(legal) == 4 and legal[0] == CHOOSE
    texts = [norm(c["text"]) for c in state.view(0)["pending"]["choices"]]
    assert texts[0] == "capture 4C 4D" and norm("declare P8 4C") in texts    # listed, not legal: no 8
    assert CHOOSE + texts.index(norm("declare P8 4C")) not in legal


# -- added 2026-11-26 (fishing-relatives.md v1.2) ------------------------------------------

def test_DIL_41_a_rejected_layout_is_reshuffled():
    order = deck("3H 9D AC 6S 10C 2D 5C JD 8H 4S KH 7C KS 4D KD KC 9C 2S QH 6D 5H")
    state = load_game("diloti").new_initial_state(deck=order, reinsert_positions=[8, 20, 31, 35])
    assert hand(state, 1) == srt("3H 9D AC 6S 10C 2D") and hand(state, 0) == srt("5C JD 8H 4S KH 7C")
    assert same(state.floor, "9C 2S QH 6D") and len(state.stock) == 36
    assert names(state.stock[i] for i in (4, 16, 27, 31)) == "KS 4D KD KC"
    assert state.view(0)["stock_bottom_known"] == []
    kept = load_game("diloti", preset="three_faces_kept").new_initial_state(deck=order)
    assert same(kept.floor, "KS 4D KD KC")
    state = table_position("{KS 4D KD KC}", {0: "KH 5C"}, "three_faces_kept")
    assert moves(state, "KH") == [norm("capture KS KD KC")]


@pytest.mark.parametrize("table, word", [
    ("{P7@0(4C 2D)}", "not 7"), ("{P9@1(QH 9C)}", "face card"), ("{G6@0(6S | 3C 2H)}", "not 6"),
    ("{G5@1(5D)}", "two components"), ("{P11@0(6C 5S)}", "1 to 10"), ("{P8@2(5H 3S)}", "no seat 2"),
    ("{P6@0(4H 2C) P9@0(5D 4S)}", "at most one"), ("{7S P9@1(7S 2H)}", "7S appears twice")])
def test_DIL_42_referee_refuses_impossible_tables(table, word):
    with pytest.raises(KafenioError, match=word):
        capture(rules(), table, "KH")


def test_DIL_42_a_possible_table_is_accepted():
    result = capture(rules(), "{AS G8@0(8D | 5C 3H) P4@1(AH 3D)}", "8S")
    assert "G8@0(8D | 5C 3H)" in result["captured"]


def test_DIL_43_referee_refuses_malformed_moves():
    r = rules()
    table, held = "{6H 2C}", "3S 7D 9D QC"
    ok = declare(r, table, held, "3S: declare P9 (3S 6H)")
    assert ok["valid"] and ok["owner"] == 0
    for bad, word in (("3S: declare P9 (3S 6H) now", "now"), ("3S: declare P9 (3S XH)", "XH"),
                      ("3S: declare P7 (3S 2C 2C)", "2C is listed twice"),
                      ("3S: declare P9 (3S 6D)", "6D is neither")):
        with pytest.raises(KafenioError, match=word):
            declare(r, table, held, bad)
    wrong = declare(r, table, held, "3S: declare P8 (3S 6H)")
    assert not wrong["valid"] and "9, not 8" in wrong["rule"]
    over = declare(r, table, held, "3S: declare P11 (3S 6H 2C)")
    assert not over["valid"] and "at most 10" in over["rule"]
    face = declare(r, table, held, "QC: declare P9 (QC 6H)")
    assert not face["valid"] and "face card" in face["rule"]
    state = table_position(table, {0: held})
    assert moves(state, "QC") == ["lay"]


def test_DIL_43_no_traceback_for_odd_input():
    r = rules()
    for args in (("{6H 2C}", "3S", "seat 5: 3S: declare P9 (3S 6H)"), ("{6H 2C}", "3S", "declare"),
                 ("{6H 2C}", "3S", "raise P4@1 to"), ("{6H 2C}", "3S", "group G9 (3S | 6H"),
                 ("{6H 2C}", "", "declare P9 (6H 3S)"), ("{6H 2C}", "3S", "declare P9 (3S 6H) | 2C")):
        with pytest.raises(KafenioError):
            declare(r, *args)


def test_DIL_44_views_hide_running_tallies():
    state = table_position("{5D 8C}", {0: "3C 4C", 1: "9H 10H"}, to_play=0)
    state.captured = [cards("2H 3H 4H 5H"), cards("6S 6D 7S 7D 8S 8D 9S 9D 10S")]
    state.specials = [[], [10]]
    view = state.view(0)
    assert view["xeris"][1] == {"count": 1, "points": 10}
    assert view["captured"] is None and view["deal_points"] is None and view["hand_sizes"] == [2, 2]
