"""Helpers shared by the Pişti, Xeri and Diloti tests."""

from __future__ import annotations

from kafenio import load_game
from kafenio.cards import format_card, format_cards, parse_cards


def deck(prefix: str, suffix: str = "") -> list[int]:
    """A full 52-card deck: ``prefix`` on top, ``suffix`` at the bottom, the rest sorted between."""
    top, bottom = parse_cards(prefix), parse_cards(suffix)
    middle = [c for c in range(52) if c not in top and c not in bottom]
    return top + middle + bottom


def cards(text: str) -> list[int]:
    return parse_cards(text)


def names(seq) -> str:
    return format_cards(list(seq))


def srt(text: str) -> str:
    """Cards in the engine's sorted order."""
    return format_cards(sorted(parse_cards(text)))


def hand(state, seat) -> str:
    return format_cards(state.hands[seat])


def position(game_name, floor, hands, preset=None, to_play=0, stock="", **options):
    """A constructed position of ``game_name`` with its game."""
    game = load_game(game_name, preset=preset, options=options)
    n = game.num_players()
    seat_hands = [parse_cards(hands.get(s, "")) for s in range(n)]
    state = game.position(parse_cards(floor), seat_hands, to_play=to_play, stock=parse_cards(stock))
    return game, state


def fill_captured(state, named: dict[int, tuple[str, int]]):
    """Give each side its capture pile: the named cards plus fillers up to the count, from the
    cards nowhere else (hands, floor, stock)."""
    used = {c for h in state.hands for c in h} | set(state.floor) | set(state.stock[state.stock_pos:])
    for text, _count in named.values():
        used |= set(parse_cards(text))
    spare = [c for c in range(52) if c not in used and format_card(c)[:-1] not in ("A", "J", "10", "K", "Q")
             and c != parse_cards("2C")[0]]
    spare += [c for c in range(52) if c not in used and c not in spare]
    for side, (text, count) in named.items():
        own = parse_cards(text)
        state.captured[side] = own + [spare.pop(0) for _i in range(count - len(own))]
