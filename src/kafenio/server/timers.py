"""Turn clocks: ``off``, ``relaxed``, ``blitz`` (``docs/protocol.md`` §6).

A clock runs while a human seat (not away) is to act, restarting at each of its actions, and
between deals. When it runs out a computer plays that one turn for the seat and the player sees
it played for them; only ``MISSES_AWAY`` missed turns in a row mark the seat away, after which a
computer plays it until its owner comes back (any action of the owner starts the count over).
Between deals a clock that runs out starts the next deal. The deadline is stored with the table,
so clocks survive a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kafenio.i18n import _
from kafenio.words import seconds_count

if TYPE_CHECKING:
    from kafenio.server.live import LiveTable


@dataclass(frozen=True)
class TimerSpec:
    """Seconds for each decision of a human seat, and between deals."""

    turn: float
    between_deals: float

    def text(self) -> str:
        """The mode in words."""
        return _("{turn} for each decision, {between} between deals.").format(
            turn=seconds_count(self.turn), between=seconds_count(self.between_deals))


#: missed turns in a row that make a seat away (the earlier ones are played for it, once each)
MISSES_AWAY = 2

#: timer mode → its clocks (``None``: no clocks)
TIMERS: dict[str, TimerSpec | None] = {
    "off": None,
    "relaxed": TimerSpec(60.0, 30.0),
    "blitz": TimerSpec(15.0, 10.0),
}


def deadline_for(live: LiveTable, now: float) -> float | None:
    """The deadline after a change of ``live`` at Unix time ``now`` (``None``: no clock runs)."""
    spec = TIMERS.get(live.row.timer)
    if spec is None:
        return None
    phase = live.phase
    if phase == "deal_over":
        return now + spec.between_deals
    if phase == "playing" and not live.computer_acts():
        return now + spec.turn
    return None
