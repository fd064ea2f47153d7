"""Hints: the move the computer would play for a seat, with a one-line reason.

The move comes from a search from the seat's information only:

* in the fishing games (Basra, Pişti, Xeri, Diloti), the expert's sampled worlds
  (:data:`kafenio.agents.levels.EXPERT_FISHING`, at most a few tenths of a second): in Pişti and
  Xeri the ISMCTS below plays worse than the heuristic player itself (playing its moves, Xeri:
  about −3 points a deal against ``medium``; ``docs/strength.md``, "Hints in the pile games");
* in the rummy games, ISMCTS with a small budget (:data:`HINT_BUDGET`) and the game's search
  settings (:func:`kafenio.agents.ismcts.search_settings`: rollout depth, leaf evaluation), its
  rollout moves half played by the game's heuristic player (:data:`HINT_HEURISTIC_ROLLOUT`):
  slower per iteration than the levels' rollouts, but a hint is asked for once, not at every
  move of an arena run.

The reason says what the move does, from the first source that has something to say:

1. the game's heuristic module (``kafenio.agents.heuristic_<game>``) may define
   ``explain(seat, action) -> str | None`` for the game's own words ("completes a clean biriba",
   "takes the pile: 3 cards you can meld");
2. otherwise it is derived from the move's effect on a determinization: cards captured, a basra
   made, points scored now, and whether the next player (an opponent) can score in reply
   ("leaves no basra" when no reply scores);
3. always, the search's verdict: the expected margin a deal against the next best move (or,
   where the expert keeps the heuristic's move, that no other move is clearly better).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, replace

from kafenio.agents.ismcts import Budget, ISMCTSPlayer, SearchResult, advance, search_settings
from kafenio.agents.levels import EXPERT_FISHING
from kafenio.agents.pimc import PIMCPlayer, PIMCResult
from kafenio.engine.game import Seat, State
from kafenio.i18n import _, n_, number

HINT_BUDGET = Budget(iterations=200, seconds=1.0)
"""The search budget of a hint."""

HINT_HEURISTIC_ROLLOUT = 0.5
"""Probability of a heuristic move in the hint search's rollouts."""

REPLY_SAMPLES = 8
"""Determinizations on which the next player's best immediate reply is looked for."""


@dataclass(frozen=True)
class Hint:
    """A suggested move.

    Attributes:
        action: the action id (legal for the seat).
        text: the action in the compact notation (``play 7D``).
        reason: one line: what the move does and why the search prefers it.
    """

    action: int
    text: str
    reason: str


def suggest(seat_or_state: Seat | State, seat: int | None = None, *, budget: Budget = HINT_BUDGET,
            seed: int = 0) -> Hint:
    """The suggested move for a seat that is on turn.

    Args:
        seat_or_state: the seat's :class:`Seat`, or a state (then ``seat`` names the seat; by
            default the player to act). The state is only used through the seat's door.
        seat: the seat, when a state is given.
        budget: the ISMCTS budget (the rummy games; the fishing games search the expert's
            worlds).
        seed: fixes the search (the same seat information and seed give the same hint).

    Raises:
        KafenioError: the seat is not on turn.
    """
    if isinstance(seat_or_state, Seat):
        door = seat_or_state
    else:
        door = Seat(seat_or_state, seat_or_state.current_player() if seat is None else seat)
    fishing = EXPERT_FISHING.get(door.game.name)
    if fishing is not None:
        searcher = PIMCPlayer(door.game, seed, fishing)
        searcher.catch_up(door)
        found = searcher.decide(door)
        action, verdict = found.action, _worlds_verdict(found)
    else:
        settings = replace(search_settings(door.game), heuristic_rollout=HINT_HEURISTIC_ROLLOUT)
        result = ISMCTSPlayer(door.game, seed, budget, settings=settings).search(door)
        action, verdict = result.action, _verdict(result)
    reason = _game_explanation(door, action) or _effect(door, action, random.Random(seed))
    why = _("{reason}; {verdict}").format(reason=reason, verdict=verdict) if reason and verdict else reason or verdict
    return Hint(action, door.action_to_string(action), why)


def _game_explanation(seat: Seat, action: int) -> str | None:
    try:
        module = importlib.import_module(f"kafenio.agents.heuristic_{seat.game.name}")
    except ModuleNotFoundError:
        return None
    explain = getattr(module, "explain", None)
    return explain(seat, action) if explain is not None else None


def _effect(seat: Seat, action: int, rng: random.Random) -> str:
    """What ``action`` does on a determinization, in words (public effects only)."""
    game, me = seat.game, seat.seat
    side = game.side_of(me)
    state = seat.resample(rng)
    before_view, before_score = state.view(me), state.side_scores()[side]
    advance(state, action)
    after_view, gained = state.view(me), state.side_scores()[side] - before_score
    parts = []
    last = after_view.get("last_capture")  # the play's own capture: public (README §8)
    if last and last != before_view.get("last_capture") and last["seat"] == me:
        parts.append(n_("captures {n} card", "captures {n} cards", len(last["cards"])).format(
            n=number(len(last["cards"]))))
    basras = before_view.get("basras"), after_view.get("basras")
    if all(isinstance(b, list) for b in basras) and basras[1][side]["count"] > basras[0][side]["count"]:
        parts.append(_("makes a basra"))
    elif "floor" in after_view and not after_view["floor"] and before_view.get("floor"):
        parts.append(_("clears the floor"))
    if gained > 0:
        parts.append(n_("scores {n} point now", "scores {n} points now", gained).format(n=number(gained)))
    reply = _best_reply(seat, action, rng)
    if reply is not None:
        gain, basra = reply
        if "basras" in after_view:
            parts.append(_("risks a basra in reply") if basra else _("leaves no basra"))
        elif gain > 0:
            parts.append(_("the next player may score up to {n}").format(n=number(gain)))
        else:
            parts.append(_("leaves the next player nothing to score"))
    return ", ".join(parts)


def _best_reply(seat: Seat, action: int, rng: random.Random) -> tuple[float, bool] | None:
    """If an opponent moves next: the most it scores at once in reply over a few deals, and
    whether some reply makes a basra (games whose view counts basras); else ``None``."""
    game = seat.game
    best, basra = 0.0, False
    for _i in range(REPLY_SAMPLES):
        state = seat.resample(rng)
        advance(state, action)
        replier = state.current_player()
        if state.is_terminal() or game.side_of(replier) == game.side_of(seat.seat):
            return None
        side = game.side_of(replier)
        base = state.side_scores()[side]
        for reply in state.legal_actions():
            after = state.clone()
            advance(after, reply)
            best = max(best, after.side_scores()[side] - base)
            basras = state.view(replier).get("basras"), after.view(replier).get("basras")
            basra = basra or (all(isinstance(b, list) for b in basras)
                              and basras[1][side]["count"] > basras[0][side]["count"])
    return best, basra


def _verdict(result: SearchResult) -> str:
    if not result.stats:
        return _("the only legal move")
    chosen = result.stats[result.action]
    others = sorted((s for a, s in result.stats.items() if a != result.action), key=lambda s: -s.visits)
    if not others:
        return _("expected margin {m} a deal").format(m=number(chosen.mean_margin, digits=1, sign=True))
    return _("expected margin {m} a deal, next best move {o} ({n} simulations)").format(
        m=number(chosen.mean_margin, digits=1, sign=True), o=number(others[0].mean_margin, digits=1, sign=True),
        n=number(result.iterations))


def _worlds_verdict(result: PIMCResult) -> str:
    """The verdict of the expert's sampled worlds: the chosen move's mean margin and the best
    other move's; a simulation is one world played after one move."""
    if not result.worlds:
        return _("the only legal move")
    chosen = result.values[result.action]
    other = max(value for action, value in result.values.items() if action != result.action)
    simulations = number(result.worlds * len(result.values))
    if other > chosen:
        return _("expected margin {m} a deal, no other move clearly better ({n} simulations)").format(
            m=number(chosen, digits=1, sign=True), n=simulations)
    return _("expected margin {m} a deal, next best move {o} ({n} simulations)").format(
        m=number(chosen, digits=1, sign=True), o=number(other, digits=1, sign=True), n=simulations)
