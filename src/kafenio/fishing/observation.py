"""What one seat of a fishing deal knows, as a tensor and as a perfect-recall string.

The functions here serve :class:`~kafenio.fishing.state.FishingState` methods of the same names
(which call them), kept apart from the rules: ``seen_cards`` (the public card count), ``observation_tensor``,
``information_state_string`` and its helper ``_dealt_to``. The tensor layout is in
``docs/observations.md`` and ``docs/views-fishing.md``; what a seat may know is ``basra.md`` §2–§5
(every played, captured and floor card is face up) and, for the hidden cards of Pişti and Xeri,
``fishing-relatives.md`` (``FishingState._secret_from``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kafenio.cards import format_card, format_cards
from kafenio.engine.game import TERMINAL

if TYPE_CHECKING:
    from kafenio.fishing.state import FishingState

FLOOR, SEEN, PENDING, TAIL = 52, 104, 156, 208
"""Where the floor, seen, pending-card blocks and the per-seat/per-side tail start."""


def _public_seen(self: FishingState) -> tuple[set[int], np.ndarray]:
    """The cards face up to all so far, as a set and as a float32 0/1 block of 52; both belong
    to the memo (callers only read them).

    The log only grows during a deal, so the cards of the events already read are kept with
    the log they came from and only new events are read (a replaced log — a copy, a renaming
    determinization, a constructed position — is read again from the start)."""
    log = self.log
    memo = self._seen_memo
    if memo is None or memo[0] is not log:
        memo = (log, 0, set(), np.zeros(52, dtype=np.float32))
    _log, done, known, block = memo
    if done < len(log):
        seen: list[int] = []
        for event in log[done:]:
            if event[0] == "floor":
                seen.extend(event[1])
                seen.extend(event[3])
            elif event[0] == "deal":
                seen.extend(event[1])
            elif event[0] == "declare":  # Diloti: the played card lies face up in the declaration
                seen.append(event[2])
            elif isinstance(event[0], int):
                seen.append(event[1])
                seen.extend(event[2])
        if seen:
            known.update(seen)
            block[seen] = 1.0
        self._seen_memo = (log, len(log), known, block)
    return known, block


def seen_cards(self: FishingState, seat: int | None = None) -> list[int]:
    """Every card that has been face up to all (opening floor, clean-up, plays, deals to the
    floor), and the hidden ones ``seat`` knows: the public part of the card count (sorted)."""
    known = _public_seen(self)[0]
    if self.pending is not None:
        known = known | {self.pending[0]}
    return sorted(known.difference(self._secret_from(seat)))


def observation_size(self: FishingState) -> int:
    """Length of the observation tensor: ``4·52 + 2N + 3S + 1`` (``docs/observations.md``)."""
    game = self.game
    return 4 * 52 + 2 * game.num_players() + 3 * game.num_sides + 1


def observation_tensor(self: FishingState, seat: int) -> np.ndarray:
    """The observation of ``seat`` as a new float32 vector (:func:`write_observation`)."""
    out = np.empty(observation_size(self), dtype=np.float32)
    self.write_observation(seat, out)
    return out


def write_observation(self: FishingState, seat: int, out: np.ndarray) -> None:
    """Write ``seat``'s observation into ``out`` (float32, ``4·52 + 2N + 3S + 1``; layout in
    ``docs/views-fishing.md``): own hand 52 · floor 52 · seen 52 (:func:`seen_cards`) ·
    pending card 52 · seat on turn (relative) N · hand sizes ÷ 6 N (relative) · captured ÷ 52
    per side S (0 during the deal unless ``capture_tally_visibility = public``, README §8) ·
    special points ÷ 100 per side S · stock ÷ 52 · match scores ÷ 100 per side S.
    Relative slot ``i`` is the seat ``i`` turns after ``seat`` in the direction of play
    (``basra.md`` §2). Cards hidden from ``seat`` (Pişti's face-down opening cards) show
    neither on the floor nor as seen."""
    hands = self.hands
    n = len(hands)
    direction = 1 if self.game._next[0] == 1 else -1
    hidden = self._secret_from(seat)
    ones = hands[seat][:]
    if hidden:
        ones += [FLOOR + c for c in self.floor if c not in hidden]
    else:
        ones += [FLOOR + c for c in self.floor]
    if self.pending is not None:
        card = self.pending[0]
        ones += (SEEN + card, PENDING + card)
    if self.cur != TERMINAL:
        ones.append(TAIL + (self.cur - seat) * direction % n)
    out.fill(0.0)
    out[SEEN:PENDING] = _public_seen(self)[1]
    out[ones] = 1.0
    if hidden:
        out[[SEEN + c for c in hidden]] = 0.0
    base = TAIL + n
    for s, hand in enumerate(hands):
        out[base + (s - seat) * direction % n] = len(hand) / 6.0
    base += n
    sides = len(self.captured)
    tallies = self.game.tallies_public or self.cur == TERMINAL  # README §8: counts hidden in play
    for s, (pile, special, score) in enumerate(zip(self.captured, self.specials, self.match_scores, strict=True)):
        if tallies:
            out[base + s] = len(pile) / 52.0
        out[base + sides + s] = sum(special) / 100.0
        out[base + 2 * sides + 1 + s] = score / 100.0
    out[base + 2 * sides] = (len(self.stock) - self.stock_pos) / 52.0


def information_state_string(self: FishingState, seat: int) -> str:
    """Perfect recall: the rules and match state, ``seat``'s batches as dealt, the opening floor
    and the cards moved under the stock, then every event of the log, hidden cards masked
    (``FishingState._card_text``), and the card whose capture is pending."""
    parts = [f"{self.game.name} seat={seat} dealer={self.dealer} scores={list(self.match_scores)} "
             f"carry={self.majority_in}"]
    batches = iter(self._dealt_to(seat))
    parts.append("hand " + format_cards(next(batches)))
    for event in self.log:
        if event[0] == "floor":
            parts.append(f"floor {format_cards(event[1])} / bottom {format_cards(event[2])}")
        elif event[0] == "deal":
            parts.append(f"deal {format_cards(next(batches))} floor+ {format_cards(event[1])}")
        elif isinstance(event[0], str):
            parts.append(event[0] if event[0] == "end" else " ".join(map(str, event)))
        else:
            s, card, taken, bonus = event
            shown = " ".join(self._card_text(c, seat) for c in taken)
            parts.append(f"{s}:{self._card_text(card, seat)}x{shown}+{bonus}")
    if self.pending is not None:
        parts.append(f"pending {format_card(self.pending[0])}")
    return "|".join(parts)


def dealt_to(self: FishingState, seat: int) -> list[list[int]]:
    """The batches dealt to ``seat`` (perfect recall): its plays grouped by batch + its hand."""
    batches: list[list[int]] = [[]]
    for event in self.log:
        if event[0] == "deal":
            batches.append([])
        elif isinstance(event[0], int) and event[0] == seat:
            batches[-1].append(event[1])
    if self.pending is not None and self.cur == seat:
        batches[-1].append(self.pending[0])
    batches[-1].extend(self.hands[seat])
    return [sorted(b) for b in batches]
