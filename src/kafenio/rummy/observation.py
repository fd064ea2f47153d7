"""What one seat of a rummy deal knows, as a tensor and as a perfect-recall string.

The functions here are :class:`~kafenio.rummy.state.RummyState` methods (bound there), kept apart
from the rules: ``observation_tensor`` (layout in ``docs/observations.md``) and
``information_state_string``. What a seat may know: its hand, the face-up discard pile and melds,
and the cards it saw go into another hand (``biriba.md`` §3–§5, ``buraco.md`` §3–§5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kafenio.cards import NUM_TYPES, format_card, format_cards
from kafenio.rummy import actions as A

if TYPE_CHECKING:
    from kafenio.rummy.state import RummyState


def observation_tensor(self: RummyState, seat: int) -> np.ndarray:
    """float32: own hand (53) · building (53) · pile counts (53) · pile top (53) · melds per
    deal side from ``seat``'s side on (53 each, up to ``num_players``) · known cards per
    other seat in play order (53 each) · hand sizes · stock · pots left · pots taken ·
    the game's tail (Biriba: phase (4), kozi (5); Buraco: phase (4), cut bonus per side)
    · match scores / 1000 (per match side)."""
    n = self.n
    # the count blocks are small non-negative integers: one list, converted through bytes
    counts = self.hands[seat] + _counts(self.building) + _counts(self.pile) + [0] * NUM_TYPES
    if self.pile:
        counts[3 * NUM_TYPES + self.pile[-1]] = 1
    my_side = self.side_of[seat]
    ns = len(self.sides)
    for i in range(n):
        block = [0] * NUM_TYPES
        if i < ns:
            for m in self.melds[(my_side + i) % ns]:
                for c in m.cards:
                    block[c] += 1
        counts += block
    for i in range(1, n):
        counts += self.known[(seat + self.dir * i) % n]
    sizes = [self.hand_size[(seat + self.dir * i) % n] for i in range(n)]
    taken = [float(self.pot_taken[(my_side + i) % ns]) if i < ns else 0.0 for i in range(n)]
    tail = [*sizes, len(self.stock), len(self.pots), *taken, *self._obs_tail(),
            *(s / 1000 for s in self.match_scores)]
    k = len(counts)
    out = np.empty(k + len(tail), dtype=np.float32)
    try:
        out[:k] = np.frombuffer(bytes(counts), dtype=np.uint8)
    except ValueError:      # a count above 255: not in any preset's deck
        out[:k] = counts
    out[k:] = tail
    return out

def information_state_string(self: RummyState, seat: int) -> str:
    """Perfect recall: ``seat``'s dealt hand, the up-card, then every action in order with
    the card ``seat`` drew, the pile contents taken and pots picked up by ``seat``."""
    replay = self.game.new_initial_state(deck=self._deck, dealer=self.dealer,
                                         match_scores=self.match_scores, carry=self.carry_in)
    hand = replay.hands[seat]
    lines = [f"seat {seat} hand {format_cards(c for c in range(NUM_TYPES) for _i in range(hand[c]))}"]
    if replay.up_card is not None:
        lines.append(f"up {format_card(replay.up_card)}")
    for action in self.history:
        who = replay.current
        text = f"{who}: {A.to_string(action)}"
        if action == A.TAKE:
            text += " [" + format_cards(replay.pile) + "]"
        pot = replay.pots[0] if replay.pots else []
        taken = sum(replay.pot_taken)
        if action == A.DRAW and who == seat:
            text += " " + format_card(replay.stock[-1])
        replay._apply(action)
        if action == A.REJECT:
            text += " " + format_card(replay.pile[-1])
            if who == seat:
                text += " " + format_card(replay.drawn)
        if sum(replay.pot_taken) > taken and who == seat:
            text += " pot [" + format_cards(pot) + "]"
        lines.append(text)
    lines.append(f"hand {format_cards(c for c in range(NUM_TYPES) for _i in range(self.hands[seat][c]))}")
    return "\n".join(lines)


def _counts(cards) -> list[int]:
    out = [0] * NUM_TYPES
    for c in cards:
        out[c] += 1
    return out
