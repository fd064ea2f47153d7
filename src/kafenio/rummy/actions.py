"""The rummy family's fixed action space and its compact notation (Biriba and Buraco).

Ids (a game uses a prefix: Biriba ``0 … BIRIBA_ACTIONS−1``, Buraco all ``NUM_ACTIONS``):

=====================  ===========================  ==========================================
id                     notation                     meaning
=====================  ===========================  ==========================================
0                      ``draw``                     take the top card of the stock
1                      ``take``                     take the whole discard pile
2                      ``pass``                     pass with an empty stock (biriba.md §7)
3–6                    ``kozi S`` … ``kozi C``      name the kozi after a joker up-card
                                                    (biriba.md §2.2)
7                      ``kozi none``                name no kozi (``kozi_joker_allows_none``)
8                      ``meld end``                 finish the meld under construction (the
                                                    canonical reading: an end wild goes low)
9                      ``meld end high``            finish it with the wild at the high end
10                     ``retract``                  take back this turn's provisional opening
                                                    melds (they go back to the hand)
11 + t                 ``meld+ 5H``                 add card type ``t`` to the meld under
                                                    construction (the first one starts it)
64 + t                 ``discard KS``               discard card type ``t`` (ends the turn)
117 + 53·k + t         ``layoff k 9H``              lay ``t`` off on own side's meld ``k``
                                                    (0-based, as in ``view()["melds"]``)
117 + 53·(54 + k) + t  ``layoff k 9H high``         the same with the moved/added/free wild,
                                                    or the ace, going to the high end
5841                   ``reject``                   turn the first card drawn in the deal face
                                                    up and draw the next (buraco.md §3)
5842 + n − 1           ``cut 22``                   cut ``n`` cards (1 … 107) to make the pots
                                                    (buraco.md §2, exact-cut bonus)
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
BIRIBA_ACTIONS = LAYOFF_HIGH + MAX_MELDS * NUM_TYPES
REJECT = BIRIBA_ACTIONS
CUT = REJECT + 1  # + cut size − 1
MAX_CUT = 107
NUM_ACTIONS = CUT + MAX_CUT

_FIXED = {DRAW: "draw", TAKE: "take", PASS: "pass", KOZI_NONE: "kozi none", MELD_END: "meld end",
          MELD_END_HIGH: "meld end high", RETRACT: "retract", REJECT: "reject"}
_BY_TEXT = {v: k for k, v in _FIXED.items()}


def layoff_parts(action: int) -> tuple[int, int, bool]:
    """``(meld index k, card type, high)`` of a lay-off id."""
    high, rest = divmod(action - LAYOFF, MAX_MELDS * NUM_TYPES)
    k, c = divmod(rest, NUM_TYPES)
    return k, c, bool(high)


def action_card(action: int) -> int | None:
    """The card type a ``meld+``/``discard``/``layoff`` action moves (None for the others)."""
    if MELD_ADD <= action < DISCARD:
        return action - MELD_ADD
    if DISCARD <= action < LAYOFF:
        return action - DISCARD
    if LAYOFF <= action < BIRIBA_ACTIONS:
        return (action - LAYOFF) % NUM_TYPES
    return None


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
    if LAYOFF <= action < BIRIBA_ACTIONS:
        k, t, high = layoff_parts(action)
        return f"layoff {k} {format_card(t)}" + (" high" if high else "")
    if CUT <= action < NUM_ACTIONS:
        return f"cut {action - CUT + 1}"
    raise KafenioError(_("no action has id {a}").format(a=action))


def from_string(text: str, limit: int = NUM_ACTIONS, game: str = "rummy") -> int:
    """Parse the notation; ``limit`` is the game's action count (ids at or above it are refused).

    Raises:
        KafenioError: text that names no action of the game; CardError for a bad card.
    """
    action = _parse(text)
    if action is None or action >= limit:
        raise KafenioError(_("not a {game} action: {t!r} (try draw, take, meld+ 5H, meld end, "
                             "meld end high, retract, layoff 0 9H, discard KS)").format(game=game, t=text))
    return action


def _parse(text: str) -> int | None:
    words = text.strip().split()
    norm = " ".join(w.lower() for w in words)
    if norm in _BY_TEXT:
        return _BY_TEXT[norm]
    head = words[0].lower() if words else ""
    if len(words) == 2 and head == "kozi" and words[1].upper() in SUITS:
        return KOZI + SUITS.index(words[1].upper())
    if len(words) == 2 and head == "meld+":
        return MELD_ADD + parse_card(words[1])
    if len(words) == 2 and head == "discard":
        return DISCARD + parse_card(words[1])
    if len(words) == 2 and head == "cut" and words[1].isdigit() and 1 <= int(words[1]) <= MAX_CUT:
        return CUT + int(words[1]) - 1
    if len(words) in (3, 4) and head == "layoff" and words[1].isdigit():
        k = int(words[1])
        high = len(words) == 4
        if k < MAX_MELDS and (not high or words[3].lower() == "high"):
            return (LAYOFF_HIGH if high else LAYOFF) + k * NUM_TYPES + parse_card(words[2])
    return None
