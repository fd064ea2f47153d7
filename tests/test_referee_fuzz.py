"""The fishing referee answers every input with a result or a message naming the field or the
rule (``fishing-relatives.md`` C3.1, ``basra.md`` §6): never a traceback. Hypothesis feeds it
tables, moves and score sheets built from the notation's own pieces, mangled."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafenio import referee
from kafenio.engine.errors import KafenioError

RANKS = ["A", "2", "3", "5", "7", "9", "10", "J", "Q", "K", "X", "1", "11"]
SUITS = ["S", "H", "D", "C", "", "Z"]
card = st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS))
cards = st.lists(card, max_size=6).map(" ".join)
decl = st.builds(lambda k, v, o, a, b: f"{k}{v}@{o}({a}{' | ' + b if b else ''})",
                 st.sampled_from(["P", "G", "Q"]), st.integers(0, 12), st.integers(-1, 4), cards, cards)
table = st.lists(st.one_of(card, decl, st.sampled_from(["{", "}", "(", "|", ")", "@"])), max_size=6).map(" ".join)
words = st.sampled_from(["declare", "raise", "group", "to", "now", "seat", "1", ":", "(", ")", "|", "P9", "G8",
                         "P4@1", "G5@0"])
declaration = st.lists(st.one_of(words, card), max_size=8).map(" ".join)
json_value = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 60), st.floats(allow_nan=True),
                                    cards, card),
                          lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                  st.dictionaries(st.sampled_from(
                                                      ["captured", "cards", "point_cards", "card_points", "majority",
                                                       "basras", "xeris", "pistis", "took_last_pile"]), inner,
                                                      max_size=4)),
                          max_leaves=10)
sheet = st.fixed_dictionaries({"sides": st.one_of(json_value, st.lists(json_value, min_size=2, max_size=2))},
                              optional={"majority_carry": json_value})
GAMES = st.sampled_from([("basra", "egyptian"), ("basra", "palestinian"), ("basra", "syrian"),
                         ("pisti", None), ("xeri", None), ("diloti", None)])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def answers(call, *args, **kwargs):
    try:
        result = call(*args, **kwargs)
    except KafenioError as err:
        assert str(err) and "Traceback" not in str(err)
        return None
    assert isinstance(result, dict)
    return result


@FUZZ
@given(game=GAMES, floor=st.one_of(table, cards), play=st.one_of(card, cards))
def test_capture_never_crashes(game, floor, play):
    answers(referee.capture, game[0], floor, play, game[1])


@FUZZ
@given(floor=table, hand=cards, text=declaration)
def test_declare_never_crashes(floor, hand, text):
    answers(referee.declare, "diloti", floor, hand, text)


@FUZZ
@given(game=GAMES, data=sheet)
def test_score_never_crashes(game, data):
    answers(referee.score, game[0], data, game[1])


RUMMY = st.sampled_from([("biriba", None), ("biriba", "five_players"), ("buraco", None), ("buraco", "italian_4p")])
meld_text = st.lists(st.one_of(card, st.just("JK"), st.just("2C=6H")), max_size=5).map(" ".join)
rummy_value = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.sampled_from(["taken", "untaken", "x"]),
                        meld_text, st.lists(meld_text, max_size=3), st.lists(st.integers(-1, 6), max_size=3))
rummy_side = st.dictionaries(st.sampled_from(["melds", "hands", "pot", "unplayed_cards", "closed", "seats", "cut",
                                              "score"]), rummy_value, max_size=5)
rummy_sheet = st.fixed_dictionaries({"sides": st.one_of(rummy_value, st.lists(rummy_side, max_size=3))},
                                    optional={"kozi": rummy_value, "kozi_rank": rummy_value})


@FUZZ
@given(game=RUMMY, data=rummy_sheet)
def test_rummy_score_never_crashes(game, data):
    """biriba.md §8, buraco.md §8 as a referee reads a sheet: a result or a message naming the
    field or the rule, never a traceback."""
    answers(referee.score, game[0], data, game[1])


@FUZZ
@given(game=RUMMY, meld=meld_text, cards=meld_text, end=st.sampled_from([None, "low", "high", "top"]))
def test_rummy_meld_and_layoff_never_crash(game, meld, cards, end):
    answers(referee.meld, game[0], meld, game[1])
    answers(referee.layoff, game[0], meld, cards, game[1], wild_end=end)


def test_rummy_sheets_no_deal_gives_are_refused():
    """A card more often than the packs hold it, or an entry that is not part of a sheet: refused,
    naming the card or the field."""
    five = {"sides": [{"melds": ["5H 6H 7H", "5H 6H 7H", "5H 6H 7H"]}]}
    for game, data, message in (("biriba", five, "5H appears 3 times"),
                                ("buraco", {"sides": [{"melds": ["5H 6H 7H"], "total": 30}]}, "'total'"),
                                ("biriba", {"sides": [{"cut": 10}]}, "'cut'"),
                                ("buraco", {"sides": [{"closed": "yes"}]}, r"closed"),
                                ("biriba", {"kozi_rank": "X", "sides": []}, "kozi_rank")):
        with pytest.raises(KafenioError, match=message):
            referee.score(game, data)
