"""What a play is worth to the card-counting fishing player (:mod:`kafenio.agents.heuristic_basra`):
its arithmetic, compiled (``pyproject.toml``'s ``compiled``), since the pile games' expert plays
thousands of the player's moves a decision in its worlds (:mod:`kafenio.agents.pimc`).

A play is worth what it takes now (:func:`capture_gain`) minus what it leaves the next player
(:func:`threat`). The capture rules come from the engine (:meth:`FishingState.outcomes` on a
probe position holding the floor): ``basra.md`` §3, ``fishing-relatives.md`` A3, B3.
"""

from __future__ import annotations

from kafenio.cards import CARD_OF, RANK
from kafenio.fishing.state import FishingState


def capture_gain(points: tuple[int, ...], weight: float, floor: list[int], card: int,
                 option: tuple[int, ...], bonus: int) -> float:
    """Points that playing ``card`` and taking the floor positions ``option`` brings: the special
    ``bonus`` (basra, pişti, xeri), the card points of the cards taken and of ``card``, and
    ``weight`` for each card captured (the played card included).

    Args:
        points: card points per card type (``game.card_points``).
        weight: points one captured card is worth beyond its card points.
        floor: the floor (card types) before the play.
        card: the card played.
        option: positions of ``floor`` taken (sorted).
        bonus: special points of the capture (:meth:`FishingState.outcomes`).
    """
    taken = 0
    for i in option:
        taken += points[floor[i]]
    return bonus + taken + points[card] + weight * (len(option) + 1)


def unseen_cards(deck: list[int], seen: set[int], hand: list[str]) -> list[int]:
    """The cards of ``deck`` (in its order) neither in ``seen`` nor in ``hand`` (a view's hand,
    in card notation).

    >>> from kafenio.cards import format_cards, parse_cards
    >>> format_cards(unseen_cards(parse_cards("AS 2S 3S 4S"), set(parse_cards("2S")), ["4S"]))
    'AS 3S'
    """
    mine = {CARD_OF[c] for c in hand}
    return [c for c in deck if c not in seen and c not in mine]


def rank_groups(cards: list[int]) -> list[list[int]]:
    """``cards`` grouped by rank, groups in order of their rank's first card, cards in order.

    >>> from kafenio.cards import format_cards, parse_cards
    >>> [format_cards(group) for group in rank_groups(parse_cards("5H 7C 5S KD 7D"))]
    ['5H 5S', '7C 7D', 'KD']
    """
    index: dict[int, int] = {}
    groups: list[list[int]] = []
    for c in cards:
        rank = RANK[c]
        at = index.get(rank)
        if at is None:
            index[rank] = len(groups)
            groups.append([c])
        else:
            groups[at].append(c)
    return groups


def outcomes_on(probe: FishingState, floor: list[int], card: int) -> list[tuple[tuple[int, ...], int]]:
    """What ``card`` may take from ``floor`` (:meth:`FishingState.outcomes`) in the middle of a
    deal: ``probe`` is a position of the game whose floor is replaced."""
    probe.floor = floor
    probe.cards_left = 2
    probe.lone_trail = None
    return probe.outcomes(card)


def threat(probe: FishingState, points: tuple[int, ...], weight: float, floor: list[int],
           groups: list[list[int]], unseen: int, next_hand: int, divisor: float) -> float:
    """Expected points the next player takes from ``floor`` with one of the unseen cards.

    For each rank of the unseen cards (``groups``, :func:`rank_groups`; ``unseen`` cards in all)
    the chance that the next player's ``next_hand`` cards hold one, times the best capture of
    that rank's first two cards (:func:`capture_gain`), divided by ``divisor``.
    """
    if not floor or not unseen:
        return 0.0
    risk = 0.0
    for cards in groups:
        holds = min(1.0, len(cards) * next_hand / unseen)
        best = 0.0
        for c in cards[:2]:
            for option, bonus in outcomes_on(probe, floor, c):
                best = max(best, capture_gain(points, weight, floor, c, option, bonus))
        risk += holds * best / divisor
    return risk


def play_value(probe: FishingState, points: tuple[int, ...], weight: float, floor: list[int], card: int,
               groups: list[list[int]], unseen: int, next_hand: int, divisor: float) -> float:
    """What playing ``card`` on ``floor`` is worth: its best capture's gain less the threat left
    (:func:`threat`), or, when it trails, minus the threat of the floor with it and half its card
    points."""
    outcomes = outcomes_on(probe, floor, card)
    if not outcomes:
        return -threat(probe, points, weight, [*floor, card], groups, unseen, next_hand, divisor) - 0.5 * points[card]
    return max(capture_gain(points, weight, floor, card, option, bonus)
               - threat(probe, points, weight, [c for i, c in enumerate(floor) if i not in option],
                        groups, unseen, next_hand, divisor)
               for option, bonus in outcomes)
