"""What one seat of a rummy deal knows, as a tensor and as a perfect-recall string.

The functions here are :class:`~kafenio.rummy.state.RummyState` methods (bound there), kept apart
from the rules: ``observation_tensor`` (layout in ``docs/observations.md``) and
``information_state_string``. What a seat may know: its hand, the face-up discard pile and melds,
and the cards it saw go into another hand (``biriba.md`` §3–§5, ``buraco.md`` §3–§5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from mypy_extensions import mypyc_attr

from kafenio.cards import NUM_TYPES, format_card, format_cards
from kafenio.rummy import actions as A

if TYPE_CHECKING:
    from kafenio.rummy.melds import Meld
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
    scores ÷ 1000 per match side. Every 53 block counts card types (joker 52).

    The state keeps the seat's last observation (:class:`SeatImage`) and rewrites only the
    blocks whose inputs changed since, then copies it into ``out`` whole."""
    images = self._obs_images
    if images is None:
        images = self._obs_images = ObservationImages(self.n)
    image = images[seat]
    if image is None:
        image = images[seat] = SeatImage(self, seat)
    image.update(self)
    out[:] = image.values


@mypyc_attr(native_class=False)
class ObservationImages(list):
    """Per seat: its :class:`SeatImage` or ``None``. A pickled or deep-copied state starts
    without them (they are rebuilt at its first observation)."""

    def __init__(self, n: int):
        super().__init__([None] * n)

    def __reduce__(self):
        return ObservationImages, (len(self),)


class SeatImage:
    """One seat's last written observation and what each part was written from; :meth:`update`
    rewrites a part only where its inputs differ from those (a state and its clones share the
    images: every part always shows the inputs it was last compared with).

    The 53 blocks are kept as one byte per slot (``counts``: every count is at most the deck's
    copies of a card type, six jokers with three packs) and converted into ``values`` at once
    when one of them changed; the tail is written into ``values`` slot by slot.

    Attributes:
        values: the float32 observation; ``slots`` writes into it.
        counts: the 53 blocks, one byte per slot; ``head`` is ``(the first len(counts) values,
            counts as uint8)``: the conversion's target and source.
        seats: the seats in play order from this one (fixed for a deal).
        hand, building, pile, melds, known, sizes, stock, taken, extra, match: the inputs of
            the parts as last written (``melds`` and ``known`` per block; ``()`` for a meld
            block past the number of sides).
    """

    def __init__(self, st: RummyState, seat: int):
        n = st.n
        self.values = np.zeros(observation_size(st), dtype=np.float32)
        self.slots: Any = memoryview(cast(Any, self.values))    # float32 slots
        self.counts = bytearray((3 + 2 * n) * NUM_TYPES)
        self.head = (self.values[:len(self.counts)], np.frombuffer(self.counts, dtype=np.uint8))
        self.seats = [(seat + st.dir * i) % n for i in range(n)]
        self.hand: list[int] | None = None
        self.building: list[int] | None = None
        self.pile: list[int] | None = None
        self.sizes: list[int] | None = None
        self.stock: tuple[int, int] | None = None
        self.taken: tuple[int, ...] | None = None
        self.extra: list[float] | None = None
        self.match: list[float] | None = None
        self.known: list[list[int] | None] = [None] * (n - 1)
        self.melds: list[list[Meld] | tuple[()] | None] = [None] * n

    def update(self, st: RummyState) -> None:
        """Bring :attr:`values` up to date with ``st`` (for the seat the image belongs to)."""
        counts = self.counts
        seats = self.seats
        seat = seats[0]
        changed = False
        hand = st.hands[seat]
        if st.pot_face_down[seat]:      # a pot still face down is not looked at (buraco.md §5)
            hand = hand[:]
            for c in st.unplayed_cards[seat]:
                hand[c] -= 1
        if hand != self.hand:
            counts[:NUM_TYPES] = bytes(hand)
            self.hand = hand[:]
            changed = True
        building = st.building
        if building != self.building:
            _count_cards(counts, NUM_TYPES, building, self.building)
            self.building = building[:]
            changed = True
        pile = st.pile
        if pile != self.pile:
            _count_cards(counts, 2 * NUM_TYPES, pile, self.pile)
            top = 3 * NUM_TYPES
            if self.pile:
                counts[top + self.pile[-1]] = 0
            if pile:
                counts[top + pile[-1]] = 1
            self.pile = pile[:]
            changed = True
        n = st.n
        my_side = st.side_of[seat]
        ns = len(st.sides)
        kept = self.melds
        for i in range(n):
            start = (4 + i) * NUM_TYPES
            if i < ns:
                side = (my_side + i) % ns
                melds = st.melds[side]
                if melds != kept[i]:
                    counts[start:start + NUM_TYPES] = _meld_counts(st, side)
                    kept[i] = melds[:]
                    changed = True
            elif kept[i] != ():
                counts[start:start + NUM_TYPES] = bytes(NUM_TYPES)
                kept[i] = ()
                changed = True
        known = st.known
        seen = self.known
        for i in range(1, n):
            cards = known[seats[i]]
            if cards != seen[i - 1]:
                start = (3 + n + i) * NUM_TYPES
                counts[start:start + NUM_TYPES] = bytes(cards)
                seen[i - 1] = cards[:]
                changed = True
        if changed:
            head, source = self.head
            head[:] = source
        at = len(counts)
        slots = self.slots
        sizes = st.hand_size
        if sizes != self.sizes:
            for i, s in enumerate(seats):
                slots[at + i] = sizes[s]
            self.sizes = sizes[:]
        at += n
        stock = (len(st.stock), len(st.pots))
        if stock != self.stock:
            slots[at], slots[at + 1] = stock
            self.stock = stock
        at += 2
        taken = (my_side, ns, *st.pot_taken)
        if taken != self.taken:
            for i in range(n):
                slots[at + i] = taken[2 + (my_side + i) % ns] if i < ns else 0
            self.taken = taken
        at += n
        extra = st._obs_tail()
        if extra != self.extra:
            for i, x in enumerate(extra):
                slots[at + i] = x
            self.extra = extra
        at += len(extra)
        match = st.match_scores
        if match != self.match:
            for i, x in enumerate(match):
                slots[at + i] = x / 1000
            self.match = list(match)


def _count_cards(counts: bytearray, start: int, cards: list[int], before: list[int] | None) -> None:
    """Write the card-type counts of ``cards`` at ``start``, where those of ``before`` were:
    cards added at the end since are counted one by one; any other change recounts."""
    k = 0 if before is None else len(before)
    if k and len(cards) > k and cards[:k] == before:
        for c in cards[k:]:
            counts[start + c] = cards.count(c)
    else:
        counts[start:start + NUM_TYPES] = _type_counts(cards)


def _type_counts(cards) -> bytes:
    """The card-type counts (53 bytes) of the card types ``cards`` (an iterable)."""
    block = [0] * NUM_TYPES
    for c in cards:
        block[c] += 1
    return bytes(block)


def _meld_counts(self: RummyState, side: int) -> bytes:
    """The card-type counts (53 bytes) of ``side``'s melds on the table, kept while its meld
    list holds the same melds (a meld never changes: a lay-off replaces it)."""
    memo = self._meld_memo
    if memo is None or len(memo) != len(self.melds):
        memo = self._meld_memo = [([], bytes(NUM_TYPES)) for _side in self.melds]
    melds = self.melds[side]
    kept, counts = memo[side]
    if kept != melds:
        counts = _type_counts(c for m in melds for c in m.cards)
        memo[side] = (melds[:], counts)
    return counts


def information_state_string(self: RummyState, seat: int) -> str:
    """Perfect recall: ``seat``'s dealt hand, the up-card, then every action in order with
    the card ``seat`` drew, the pile contents taken and pots picked up by ``seat`` (a pot
    taken by discarding once it is turned face up, buraco.md §5)."""
    replay = cast("RummyState", self.game.new_initial_state(deck=self._deck, dealer=self.dealer,
                                                            match_scores=self.match_scores, carry=self.carry_in))
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
        face_down = replay.pot_face_down[seat]
        waiting = replay.unplayed_cards[seat][:]
        if action == A.DRAW and who == seat:
            text += " " + format_card(replay.stock[-1])
        replay._apply(action)
        if action == A.REJECT:
            text += " " + format_card(replay.pile[-1])
            if who == seat and replay.drawn is not None:
                text += " " + format_card(replay.drawn)
        if sum(replay.pot_taken) > taken and who == seat:
            text += " pot face down" if replay.pot_face_down[seat] else " pot [" + format_cards(pot) + "]"
        if face_down and not replay.pot_face_down[seat]:
            text += " pot [" + format_cards(waiting) + "]"
        lines.append(text)
    lines.append(f"hand {format_cards(self.visible_hand(seat))}")
    return "\n".join(lines)

