"""Biriba's fixed action space and its compact notation.

Ids (``NUM_ACTIONS`` in all):

=====================  ===========================  ==========================================
id                     notation                     meaning
=====================  ===========================  ==========================================
0                      ``draw``                     take the top card of the stock (§3)
1                      ``take``                     take the whole discard pile (§3)
2                      ``pass``                     pass with an empty stock (§7)
3–6                    ``kozi S`` … ``kozi C``      name the kozi after a joker up-card (§2.2)
7                      ``kozi none``                name no kozi (``kozi_joker_allows_none``)
8                      ``meld end``                 finish the meld under construction (§4.4
                                                    canonical reading: an end wild goes low)
9                      ``meld end high``            finish it with the wild at the high end
10                     ``retract``                  take back this turn's provisional opening
                                                    melds (§4.6, §4.7: they stay in hand)
11 + t                 ``meld+ 5H``                 add card type ``t`` to the meld under
                                                    construction (the first one starts it)
64 + t                 ``discard KS``               discard card type ``t`` (ends the turn)
117 + 53·k + t         ``layoff k 9H``              lay ``t`` off on own side's meld ``k``
                                                    (0-based, as in ``view()["melds"]``)
117 + 53·(54 + k) + t  ``layoff k 9H high``         the same with the moved/added wild, or the
                                                    ace, going to the high end (§4.5)
=====================  ===========================  ==========================================

Card types ``t`` are those of :mod:`kafenio.cards` (0–52, joker 52).
"""

from __future__ import annotations

from kafenio.cards import NUM_TYPES, SUITS, format_card, parse_card
from kafenio.engine.errors import KafenioError
from kafenio.i18n import _

DRAW, TAKE, PASS = 0, 1, 2
KOZI = 3          # + suit 0..3
KOZI_NONE = 7
MELD_END, MELD_END_HIGH, RETRACT = 8, 9, 10
MELD_ADD = 11     # + card type
DISCARD = MELD_ADD + NUM_TYPES
LAYOFF = DISCARD + NUM_TYPES
MAX_MELDS = 54    # per side: 162 cards / 3
LAYOFF_HIGH = LAYOFF + MAX_MELDS * NUM_TYPES
NUM_ACTIONS = LAYOFF_HIGH + MAX_MELDS * NUM_TYPES

_FIXED = {DRAW: "draw", TAKE: "take", PASS: "pass", KOZI_NONE: "kozi none", MELD_END: "meld end",
          MELD_END_HIGH: "meld end high", RETRACT: "retract"}
_BY_TEXT = {v: k for k, v in _FIXED.items()}


def to_string(action: int) -> str:
    """The notation of ``action`` (see the module table).

    Raises:
        KafenioError: an id outside ``0 … NUM_ACTIONS−1``.
    """
    if action in _FIXED:
        return _FIXED[action]
    if KOZI <= action < KOZI_NONE:
        return "kozi " + SUITS[action - KOZI]
    if MELD_ADD <= action < DISCARD:
        return "meld+ " + format_card(action - MELD_ADD)
    if DISCARD <= action < LAYOFF:
        return "discard " + format_card(action - DISCARD)
    if LAYOFF <= action < NUM_ACTIONS:
        high, rest = divmod(action - LAYOFF, MAX_MELDS * NUM_TYPES)
        k, t = divmod(rest, NUM_TYPES)
        return f"layoff {k} {format_card(t)}" + (" high" if high else "")
    raise KafenioError(_("no action has id {a}").format(a=action))


def from_string(text: str) -> int:
    """Parse the notation.

    Raises:
        KafenioError: text that names no action; CardError for a bad card.
    """
    words = text.strip().split()
    norm = " ".join(w.lower() for w in words)
    if norm in _BY_TEXT:
        return _BY_TEXT[norm]
    if len(words) == 2 and words[0].lower() == "kozi" and words[1].upper() in SUITS:
        return KOZI + SUITS.index(words[1].upper())
    if len(words) == 2 and words[0].lower() == "meld+":
        return MELD_ADD + parse_card(words[1])
    if len(words) == 2 and words[0].lower() == "discard":
        return DISCARD + parse_card(words[1])
    if len(words) in (3, 4) and words[0].lower() == "layoff" and words[1].isdigit():
        k = int(words[1])
        high = len(words) == 4
        if k < MAX_MELDS and (not high or words[3].lower() == "high"):
            return (LAYOFF_HIGH if high else LAYOFF) + k * NUM_TYPES + parse_card(words[2])
    raise KafenioError(_("not a Biriba action: {t!r} (try draw, take, pass, kozi H, meld+ 5H, "
                         "meld end, meld end high, retract, layoff 0 9H, discard KS)").format(t=text))
