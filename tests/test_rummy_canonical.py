"""The canonical reading of a run's wild (biriba.md §4.4): an end wild goes to the low end when
that position exists, otherwise to the high end; the order the cards are written or added in
decides only where an ace sits (BIR-18), never where a wild goes."""

from __future__ import annotations

import pytest

from biriba_helpers import position
from kafenio import referee


@pytest.mark.parametrize(("cards", "expected"), [
    ("JS QS 2H", ["2H=10S", "JS", "QS"]),
    ("2H JS QS", ["2H=10S", "JS", "QS"]),
    ("QH KH JK", ["JK=JH", "QH", "KH"]),
    ("AH 2H 3H JK", ["AH", "2H", "3H", "JK=4H"]),       # no position below the ace: high end
    ("KD AD 2D", ["2D=QD", "KD", "AD"]),                # BIR-05's trap: the only reading
    ("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",         # BIR-18: ace written high stays high
     ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]),
])
def test_referee_places_an_end_wild_low(cards, expected):
    result = referee.meld("biriba", cards)
    assert result["valid"] and result["cards"] == expected


@pytest.mark.parametrize(("end", "expected"), [
    ("meld end", ["2H=10S", "JS", "QS"]),
    ("meld end high", ["JS", "QS", "2H=KS"]),
])
def test_meld_end_is_canonical_whatever_the_building_order(end, expected):
    st = position(hand="JS QS 2H 5D 9C")
    for text in ("meld+ JS", "meld+ QS", "meld+ 2H", end):
        st.apply_string(text)
    (meld,) = st.view(0)["melds"][0]
    assert meld["cards"] == expected
