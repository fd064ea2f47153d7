"""Card notation (README §2) and decks."""

import hatch_build
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kafenio.cards import (
    JOKER,
    RANK,
    SUIT,
    card,
    card_name,
    counts,
    expand,
    format_card,
    format_cards,
    make_deck,
    parse_card,
    parse_cards,
    parse_meld_cards,
    shuffled,
)
from kafenio.engine.errors import CardError
from kafenio.i18n import language


def test_notation_examples():
    assert parse_cards("AS 10H QD 2C JK") == [card(1, 0), card(10, 1), card(12, 2), card(2, 3), JOKER]
    assert format_cards(parse_cards("ah 10h jk")) == "AH 10H JK"


def test_every_card_round_trips():
    for c in range(53):
        assert parse_card(format_card(c)) == c


def test_rank_and_suit_tables():
    assert (RANK[parse_card("KC")], SUIT[parse_card("KC")]) == (13, 3)
    assert (RANK[JOKER], SUIT[JOKER]) == (0, -1)


@pytest.mark.parametrize("bad", ["1H", "11S", "ZZ", "10", "H", "", "JKK", "2X"])
def test_bad_card_names_the_token(bad):
    with pytest.raises(CardError) as err:
        parse_cards(f"5H {bad} 7H") if bad else parse_card(bad)
    assert err.value.token == bad
    assert repr(bad) in str(err.value)


def test_meld_notation_with_stand_ins():
    assert parse_meld_cards("4H 2C=6H") == [(parse_card("4H"), None), (parse_card("2C"), parse_card("6H"))]
    with pytest.raises(CardError, match="2C=JK"):
        parse_meld_cards("2C=JK")
    with pytest.raises(CardError, match="6Q"):
        parse_meld_cards("2C=6Q")


def test_decks():
    assert len(make_deck(2, 4)) == 108
    assert len(make_deck(3, 6)) == 162
    assert counts(make_deck(2, 4))[JOKER] == 4
    assert sorted(make_deck(1)) == list(range(52))


@given(st.integers(min_value=0, max_value=2**63))
def test_seeded_shuffle_is_reproducible_and_a_permutation(seed):
    deck = make_deck(2, 4)
    a, b = shuffled(deck, seed), shuffled(deck, seed)
    assert a == b
    assert sorted(a) == sorted(deck)
    assert expand(counts(a)) == sorted(deck)


def test_card_names_for_screen_readers():
    assert card_name(parse_card("7H")) == "seven of hearts"
    assert card_name(JOKER) == "joker"


@pytest.mark.parametrize(("lang", "names"), [
    # the suit, then the rank with its possessive ending (GLOSSARY.md §5; GNOME's Turkish card names)
    ("tr", ["kupa ası", "maça ikilisi", "sinek üçlüsü", "karo dörtlüsü", "karo beşlisi", "sinek altılısı",
            "kupa yedilisi", "maça sekizlisi", "karo dokuzlusu", "karo onlusu", "sinek valesi", "maça kızı",
            "kupa papazı", "joker"]),
    ("el", ["άσσος κούπα", "δύο μπαστούνι", "τρία σπαθί", "τέσσερα καρό", "πέντε καρό", "έξι σπαθί",
            "επτά κούπα", "οκτώ μπαστούνι", "εννιά καρό", "δέκα καρό", "βαλές σπαθί", "ντάμα μπαστούνι",
            "ρήγας κούπα", "τζόκερ"]),
    ("pt_BR", ["ás de copas", "dois de espadas", "três de paus", "quatro de ouros", "cinco de ouros", "seis de paus",
               "sete de copas", "oito de espadas", "nove de ouros", "dez de ouros", "valete de paus",
               "dama de espadas", "rei de copas", "curingão"]),
    ("it", ["asso di cuori", "due di picche", "tre di fiori", "quattro di quadri", "cinque di quadri",
            "sei di fiori", "sette di cuori", "otto di picche", "nove di quadri", "dieci di quadri", "fante di fiori",
            "donna di picche", "re di cuori", "jolly"]),
    # the rank, then the suit with its article (the players' «سبعة الديناري»; ولد، بنت، شايب)
    ("ar", ["آس الكبة", "اثنان البستوني", "ثلاثة السباتي", "أربعة الديناري", "خمسة الديناري", "ستة السباتي",
            "سبعة الكبة", "ثمانية البستوني", "تسعة الديناري", "عشرة الديناري", "ولد السباتي", "بنت البستوني",
            "شايب الكبة", "جوكر"]),
])
def test_card_names_read_as_each_language_says_them(lang, names):
    if hatch_build.catalogs_need_compiling():
        hatch_build.compile_catalogs()
    cards = parse_cards("AH 2S 3C 4D 5D 6C 7H 8S 9D 10D JC QS KH JK")
    with language(lang):
        assert [card_name(c) for c in cards] == names
        assert len({card_name(c) for c in range(53)}) == 53
