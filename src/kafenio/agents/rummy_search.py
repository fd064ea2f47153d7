"""Biriba's and Buraco's leaf evaluation and rollout preference for ISMCTS
(:data:`kafenio.agents.ismcts.GAME_SEARCH`).

Both act on a determinization (a full state the searcher sampled from its own seat's
information), never on the real deal.

* :func:`position_scores`: the running deal score of each side (biriba.md §8, buraco.md §8:
  melds' card points, biriba/canastra bonuses, pot penalty, closing bonus, minus the cards in
  hand) with the cards still in hand counted at :data:`HAND_WEIGHT` of their value. In the
  middle of a deal most cards in hand are still to be melded, so the full end-of-deal penalty
  would make the search throw away wilds and refuse the discard pile.
* :func:`preferred_moves`: the rule of thumb a rollout follows (with the probability
  :data:`kafenio.agents.ismcts.SearchSettings.rollout_preference`): lay off a natural card, else
  finish the meld being built, else add a natural card to it or start one, else any move but
  ``retract`` and ``reject`` — the greedy melding of
  :class:`kafenio.agents.heuristic_rummy.RummyHeuristic` at the cost of a random move.
* :func:`pile_preferred_moves`: the same, but the rollout takes the discard pile whenever it may
  and keeps its wilds (no wild discard while another move is left): the expert level's Biriba
  rollouts (:data:`kafenio.agents.levels.LEVEL_SEARCH`), chosen by duplicate runs
  (``docs/strength.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul

from kafenio.cards import NUM_TYPES
from kafenio.engine.game import State
from kafenio.rummy import actions as A
from kafenio.rummy.melds import is_wild_type

HAND_WEIGHT = 0.0
"""Weight of the end-of-deal penalty of the cards in hand in a mid-deal evaluation."""


def position_scores(state: State) -> list[float]:
    """Each match side's score, the cards in hand weighted by :data:`HAND_WEIGHT` before the
    deal ends (a finished deal: the deal score itself, ``state.side_scores()``).

    Args:
        state: a Biriba or Buraco state (a :class:`kafenio.rummy.state.RummyState`). In the
            solo forms (biriba.md §10.3, §10.4; buraco.md §5 ``italian_3p``) the deal sides
            change when the solo is known; each player is credited its deal side's score
            divided among its players, as ``side_scores`` does.
    """
    if state.is_terminal():
        return state.side_scores()
    values, hands = state.values, state.hands
    lift = 1.0 - HAND_WEIGHT
    scores = [total + lift * sum(sum(map(mul, values, hands[s])) for s in seats)
              for total, seats in zip(state.deal_totals(), state.sides, strict=True)]
    return state.solo_scores(scores) if state.tr.solo_sides else scores


_LAYOFF, _END, _ADD, _OTHER, _NEVER = range(5)


def _move_kinds(pile_first: bool = False) -> bytes:
    """Per action id below :data:`kafenio.rummy.actions.NUM_ACTIONS`, its bucket in a rollout
    preference: natural lay-off, meld end, natural meld card, other, never. ``pile_first``:
    drawing from the stock and discarding a wild are never preferred
    (:func:`pile_preferred_moves`)."""
    kinds = bytearray([_OTHER]) * A.NUM_ACTIONS
    for a in range(A.LAYOFF, A.BIRIBA_ACTIONS):
        kinds[a] = _NEVER if is_wild_type(A.action_card(a)) else _LAYOFF
    for a in range(A.MELD_ADD, A.DISCARD):
        kinds[a] = _NEVER if is_wild_type(a - A.MELD_ADD) else _ADD
    kinds[A.MELD_END] = kinds[A.MELD_END_HIGH] = _END
    kinds[A.RETRACT] = kinds[A.REJECT] = _NEVER
    if pile_first:
        kinds[A.DRAW] = _NEVER
        for t in range(NUM_TYPES):
            if is_wild_type(t):
                kinds[A.DISCARD + t] = _NEVER
    return bytes(kinds)


_KINDS = _move_kinds()
_PILE_KINDS = _move_kinds(pile_first=True)


def _preferred(kinds: bytes, legal: Sequence[int]) -> Sequence[int]:
    """The first non-empty bucket of ``legal`` by ``kinds`` (:func:`_move_kinds`), else ``legal``."""
    buckets: tuple[list[int], ...] = ([], [], [], [], [])
    for a in legal:
        buckets[kinds[a]].append(a)
    for bucket in buckets[:_NEVER]:
        if bucket:
            return bucket
    return legal


def preferred_moves(legal: Sequence[int]) -> Sequence[int]:
    """The legal actions a greedy melder picks from (see the module docstring); never empty:
    the first non-empty bucket of natural lay-offs, meld ends, natural meld cards and other
    moves (one table look-up an action), in the order of ``legal``. A module-level function, so
    that a search player holding it can be pickled (to think in another process)."""
    return _preferred(_KINDS, legal)


def pile_preferred_moves(legal: Sequence[int]) -> Sequence[int]:
    """:func:`preferred_moves` that takes the discard pile whenever it may (never draws from the
    stock then) and never discards a wild when another move is left; never empty."""
    return _preferred(_PILE_KINDS, legal)
