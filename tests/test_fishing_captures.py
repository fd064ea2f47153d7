"""The capture enumerator of kafenio.fishing (basra.md §3) and the referee built on it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafenio import load_game
from kafenio.cards import format_card, parse_card, parse_cards
from kafenio.engine.errors import CardError, KafenioError
from kafenio.fishing.captures import CaptureSpec, capture_options, equal_sum_split, sum_unions
from kafenio.referee.fishing import capture, describe, score


def opts(floor, card, **spec):
    cards = parse_cards(floor)
    return [sorted(cards[i] for i in o) for o in capture_options(cards, parse_card(card), CaptureSpec(**spec))]


def test_sum_unions_lists_every_family_most_cards_first():
    unions = sum_unions((1, 2, 3, 4, 5), 5)
    assert unions[0] == (0, 1, 2, 3) and unions[-1] == ()
    assert (4,) not in unions  # a lone card of the value is a pairing, not a sum group
    assert sum_unions((1, 2, 3, 4, 5), 5) is unions  # cached


def test_trail_when_nothing_matches():
    assert opts("KH 9S", "3C") == [] and opts("", "JC") == []


def test_pairing_takes_every_card_of_the_rank():
    assert opts("QH QS 5D", "QC") == [sorted(parse_cards("QH QS"))]


def test_player_choice_lists_every_family_and_optional_trail():
    both = opts("2H AC 5D 4S", "7H", mode="player_choice")
    assert sorted(parse_cards("2H 5D")) in both and sorted(parse_cards("2H AC 4S")) in both
    assert [] not in both
    optional = opts("2H AC 5D 4S", "7H", mode="player_choice", compulsory=False)
    assert optional[-1] == [] and len(optional) == len(both) + 1


def test_sweepers_and_lone_prey():
    seven = parse_card("7D")
    assert opts("KH 3S", "7D") == [sorted(parse_cards("KH 3S"))]
    assert opts("KH 3S", "7D", sweepers=frozenset()) == []
    assert opts("7D", "3C", lone_prey=seven) == [[seven]]
    assert opts("7D 2S", "3C", lone_prey=seven) == []


def test_equal_sum_split():
    assert equal_sum_split([10, 4, 6], 2) and not equal_sum_split([10, 4, 6], 3)
    assert equal_sum_split([3, 4, 5, 2], 2) and equal_sum_split([5], 1)


def test_referee_errors_and_description():
    rules = load_game("basra").rules
    with pytest.raises(CardError):
        capture(rules, "5C 4X", "9S")
    with pytest.raises(KafenioError):
        capture(rules, "5C 5C", "9S")
    with pytest.raises(KafenioError):
        capture(load_game("basra", preset="palestinian").rules, "KH", "KS")
    text = describe("capture", capture(rules, "5C 4D 2H 7S", "9S"))
    assert "basra: 10" in text and "floor after: {}" in text
    rest = " ".join(format_card(c) for c in range(52) if format_card(c) != "JS")
    result = score(rules, {"sides": [{"captured": rest}, {"captured": "JS"}]})
    assert [s["total"] for s in result["sides"]] == [30 + 12, 1]
    with pytest.raises(KafenioError, match="5 cards"):   # basra.md §6: every card ends in a pile
        score(rules, {"sides": [{"captured": "AH 2C 10D 5S"}, {"captured": "JS"}]})
    assert "side 0" in describe("score", result)
    with pytest.raises(KafenioError):
        score(rules, {"sides": [{"captured": "AH"}, {"captured": "AH"}]})
    with pytest.raises(KafenioError):
        score(rules, {"sides": [{"captured": "AH"}]})


def _brute_unions(values, target):
    """Every union of disjoint groups (2+ cards each, summing to target), by exhaustive search."""
    n = len(values)
    groups = [m for m in range(1, 1 << n) if m & (m - 1)
              and sum(values[i] for i in range(n) if m >> i & 1) == target]
    found = {0}
    changed = True
    while changed:
        changed = False
        for u in list(found):
            for g in groups:
                if not g & u and (u | g) not in found:
                    found.add(u | g)
                    changed = True
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=9), min_size=0, max_size=9),
       st.integers(min_value=2, max_value=10))
def test_sum_unions_finds_every_union_of_disjoint_groups(values, target):
    values = tuple(v for v in values if v < target)
    got = {sum(1 << i for i in union) for union in sum_unions(values, target)}
    assert got == _brute_unions(values, target)


def test_the_sweep_bonus_has_each_games_name():
    """fishing-relatives.md §0, A3: in messages the bonus is a pişti or a xeri, never a basra."""
    from kafenio import referee

    for game, floor, play, word in (("pisti", "8H", "8C", "pişti: 10"), ("xeri", "8H", "8C", "xeri: 10"),
                                    ("diloti", "8H", "8C", "xeri: 10"), ("basra", "8H", "8C", "basra: 10")):
        text = referee.describe(game, "capture", referee.capture(game, floor, play))
        assert word in text and (game == "basra" or "basra" not in text)
