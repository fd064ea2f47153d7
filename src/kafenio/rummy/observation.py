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


def observation_size(self: RummyState) -> int:
    """Length of the observation tensor: ``53·(2N + 3) + 2N + 2`` + the game's tail + one slot
    per match side (``docs/observations.md``)."""
    n = self.n
    return NUM_TYPES * (2 * n + 3) + 2 * n + 2 + len(self._obs_tail()) + len(self.match_scores)


def observation_tensor(self: RummyState, seat: int) -> np.ndarray:
    """The observation of ``seat`` as a new float32 vector (:func:`write_observation`)."""
    out = np.empty(observation_size(self), dtype=np.float32)
    self.write_observation(seat, out)
    return out


def write_observation(self: RummyState, seat: int, out: np.ndarray) -> None:
    """Write ``seat``'s observation into ``out`` (float32, :func:`observation_size`): own hand
    (53) · building (53) · pile counts (53) · pile top (53) · melds per deal side from
    ``seat``'s side on (53 each, ``N`` blocks; those past the number of sides 0) · known cards
    per other seat in play order (53 each) · hand sizes (relative, in play order) · stock ·
    pots left · pots taken per deal side from ``seat``'s side on (``N``) · the game's tail
    (``_obs_tail``: Biriba phase (4), kozi (5); Buraco phase (4), cut bonus per side) · match
    scores ÷ 1000 per match side. Every 53 block counts card types (joker 52)."""
    n = self.n
    seats = [(seat + self.dir * i) % n for i in range(n)]
    known = self.known
    # the count lists (own hand, known cards) are small non-negative integers: through bytes
    counts = self.hands[seat][:]
    for other in seats[1:]:
        counts += known[other]
    try:
        values = np.frombuffer(bytes(counts), dtype=np.uint8)
    except ValueError:      # a count above 255: not in any preset's deck
        values = np.asarray(counts)
    known_at = (4 + n) * NUM_TYPES
    end = known_at + (n - 1) * NUM_TYPES
    out[:NUM_TYPES] = values[:NUM_TYPES]
    out[known_at:end] = values[NUM_TYPES:]
    # building, pile and its top card: one index per card, counted at once
    slots = [NUM_TYPES + c for c in self.building]
    pile = self.pile
    if pile:
        slots += [2 * NUM_TYPES + c for c in pile]
        slots.append(3 * NUM_TYPES + pile[-1])
    melds_at = 4 * NUM_TYPES
    if slots:
        out[NUM_TYPES:melds_at] = np.bincount(slots, minlength=melds_at)[NUM_TYPES:]
    else:
        out[NUM_TYPES:melds_at] = 0.0
    my_side = self.side_of[seat]
    ns = len(self.sides)
    for i in range(n):
        start = melds_at + i * NUM_TYPES
        if i < ns:
            out[start:start + NUM_TYPES] = _meld_counts(self, (my_side + i) % ns)
        else:
            out[start:start + NUM_TYPES] = 0.0
    sizes = self.hand_size
    taken = self.pot_taken
    tail = [sizes[s] for s in seats]
    tail += (len(self.stock), len(self.pots))
    tail += [float(taken[(my_side + i) % ns]) if i < ns else 0.0 for i in range(n)]
    tail += self._obs_tail()
    tail += [s / 1000 for s in self.match_scores]
    out[end:] = tail


def _meld_counts(self: RummyState, side: int) -> np.ndarray:
    """The card-type counts (53) of ``side``'s melds on the table, kept while its meld list
    holds the same melds (a meld never changes: a lay-off replaces it)."""
    memo = self.__dict__.get("_meld_memo")
    if memo is None or len(memo) != len(self.melds):
        memo = self._meld_memo = [([], np.zeros(NUM_TYPES, dtype=np.float32)) for _side in self.melds]
    melds = self.melds[side]
    kept, counts = memo[side]
    if kept != melds:
        counts = np.bincount([c for m in melds for c in m.cards], minlength=NUM_TYPES).astype(np.float32)
        memo[side] = (melds[:], counts)
    return counts


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

