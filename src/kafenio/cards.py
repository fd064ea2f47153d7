"""Cards: integer codes, the spec's notation, decks and seeded shuffles.

Implements ``shared/rules/README.md`` §2 (card notation) and §4 (canonical dealing order:
index 0 of a deck is the top card).

A **card type** is an ``int`` in ``0..52``: ``suit * 13 + (rank - 1)`` for the 52 standard
cards (suits in the order S, H, D, C; ranks A=1 … K=13) and ``JOKER = 52``. Physical copies of
the same card in a two- or three-pack deck share one type: every engine counts cards per type.

>>> parse_cards("10H JK 2C")
[22, 52, 40]
>>> format_cards([22, 52, 40])
'10H JK 2C'
>>> parse_meld_cards("4H 5H 2C=6H 7H")
[(16, None), (17, None), (40, 18), (19, None)]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from kafenio.engine.errors import CardError
from kafenio.i18n import _

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = 52
NUM_TYPES = 53
NUM_STANDARD = 52

#: rank of each card type (A=1 … K=13; the joker has rank 0)
RANK = tuple([c % 13 + 1 for c in range(52)] + [0])
#: suit index of each card type (0=S, 1=H, 2=D, 3=C; the joker has suit -1)
SUIT = tuple([c // 13 for c in range(52)] + [-1])

_SUIT_SYMBOLS = "♠♥♦♣"


def card(rank: int, suit: int) -> int:
    """The card type of ``rank`` (1–13) and ``suit`` (0–3)."""
    return suit * 13 + rank - 1


def _build_tables() -> tuple[dict[str, int], tuple[str, ...]]:
    by_text: dict[str, int] = {"JK": JOKER}
    names = []
    for c in range(52):
        text = RANKS[RANK[c] - 1] + SUITS[SUIT[c]]
        by_text[text] = c
        names.append(text)
    names.append("JK")
    return by_text, tuple(names)


_BY_TEXT, _NAMES = _build_tables()

CARD_OF: Mapping[str, int] = MappingProxyType(_BY_TEXT)
"""The card type of each card's notation as :func:`format_card` writes it (``"10H"`` → ``22``):
for text the engine wrote (a view's cards), read without :func:`parse_card`'s normalising and
checks; ``KeyError`` for anything else."""


def parse_card(token: str) -> int:
    """Parse one card in the spec's notation (``"10H"``, ``"AS"``, ``"JK"``; case-insensitive).

    Raises:
        CardError: naming the bad token.
    """
    code = _BY_TEXT.get(token.strip().upper())
    if code is None:
        raise CardError(token, _("not a card: write rank then suit, like 10H, AS or JK"))
    return code


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse a space-separated card list (or an iterable of tokens) into card types.

    Raises:
        CardError: naming the first bad token.
    """
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def parse_meld_cards(text: str | Iterable[str]) -> list[tuple[int, int | None]]:
    """Parse a meld in the spec's notation where a wild may name its stand-in (``2C=6H``).

    Returns ``[(card, stand_in or None), …]`` in the order written.

    Raises:
        CardError: naming the first bad token (also a stand-in that is a joker).
    """
    tokens = text.split() if isinstance(text, str) else list(text)
    out: list[tuple[int, int | None]] = []
    for tok in tokens:
        if "=" in tok:
            left, _sep, right = tok.partition("=")
            stand_in = parse_card(right)
            if stand_in == JOKER:
                raise CardError(tok, _("a wild cannot stand for a joker"))
            out.append((parse_card(left), stand_in))
        else:
            out.append((parse_card(tok), None))
    return out


def format_card(c: int) -> str:
    """The spec's notation of card type ``c`` (``22`` → ``"10H"``)."""
    return _NAMES[c]


def format_cards(cards: Iterable[int]) -> str:
    """Space-separated notation of a card list."""
    return " ".join(_NAMES[c] for c in cards)


def card_symbol(c: int) -> str:
    """A short label with the suit symbol, for tables: ``"10♥"``, ``"🃏"`` for the joker."""
    if c == JOKER:
        return "JK"
    return RANKS[RANK[c] - 1] + _SUIT_SYMBOLS[SUIT[c]]


def card_name(c: int) -> str:
    """The spoken name of a card for screen readers: ``"seven of hearts"``, ``"joker"``.

    Each of the 52 names is a message of its own, translated whole: word order and endings differ
    from language to language (Turkish «kupa ası», «maça kızı», «karo onlusu»: the suit, then the
    rank with its possessive ending), so no ``{rank} of {suit}`` template fits them all
    (``shared/i18n/GLOSSARY.md`` §5). The browser's ``cardLabel`` (``web/src/cards.ts``) says the
    same messages.
    """
    if c == JOKER:
        return _("joker")
    return _card_names()[c]


def _card_names() -> tuple[str, ...]:
    """The names of the 52 standard cards in the current language, in card-type order."""
    return (
        _("ace of spades"), _("two of spades"), _("three of spades"), _("four of spades"),
        _("five of spades"), _("six of spades"), _("seven of spades"), _("eight of spades"),
        _("nine of spades"), _("ten of spades"), _("jack of spades"), _("queen of spades"),
        _("king of spades"),
        _("ace of hearts"), _("two of hearts"), _("three of hearts"), _("four of hearts"),
        _("five of hearts"), _("six of hearts"), _("seven of hearts"), _("eight of hearts"),
        _("nine of hearts"), _("ten of hearts"), _("jack of hearts"), _("queen of hearts"),
        _("king of hearts"),
        _("ace of diamonds"), _("two of diamonds"), _("three of diamonds"), _("four of diamonds"),
        _("five of diamonds"), _("six of diamonds"), _("seven of diamonds"), _("eight of diamonds"),
        _("nine of diamonds"), _("ten of diamonds"), _("jack of diamonds"), _("queen of diamonds"),
        _("king of diamonds"),
        _("ace of clubs"), _("two of clubs"), _("three of clubs"), _("four of clubs"), _("five of clubs"),
        _("six of clubs"), _("seven of clubs"), _("eight of clubs"), _("nine of clubs"), _("ten of clubs"),
        _("jack of clubs"), _("queen of clubs"), _("king of clubs"),
    )


def make_deck(packs: int = 1, jokers: int = 0) -> list[int]:
    """An unshuffled deck: ``packs`` × 52 standard cards plus ``jokers`` jokers, as card types."""
    return [c for _pack in range(packs) for c in range(52)] + [JOKER] * jokers


def shuffled(deck: Sequence[int], seed: int | None) -> list[int]:
    """A new list with ``deck`` shuffled by a ``random.Random(seed)`` (reproducible per seed)."""
    out = list(deck)
    random.Random(seed).shuffle(out)
    return out


def counts(cards: Iterable[int]) -> list[int]:
    """Counts per card type: a list of length 53."""
    out = [0] * NUM_TYPES
    for c in cards:
        out[c] += 1
    return out


def expand(type_counts: Sequence[int]) -> list[int]:
    """The cards of a per-type count vector, in type order."""
    return [c for c, n in enumerate(type_counts) for _i in range(n)]
