"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012,
algorithm 1 (``shared/AI-NOTES.md`` §3.1). Every iteration:

1. **determinizes** from the seat only: ``seat.resample(rng)`` gives a full deal consistent with
   what the seat knows (the player never sees the real hidden cards);
2. **selects** down one tree shared by all determinizations. Children are keyed by action id, and
   a child counts as *available* in an iteration when its action is legal in that iteration's
   determinization, so legal-action sets that differ between determinizations (another hand,
   another drawn card) are never merged: UCB uses the availability count
   ``Q + c·sqrt(ln(availability) / visits)`` instead of the parent's visits;
3. **expands** one untried legal action;
4. **rolls out** to the end of the deal with the game's heuristic player (probability
   ``heuristic_rollout``) or a uniformly random legal action;
5. **backs up** partner-aware rewards: each node's reward is the deal-score margin of the side
   that chose it (its side's score minus the best opposing side's), so partners cooperate and
   opponents oppose. Margins are min–max normalised to [0, 1] over the margins this search has
   seen (game-agnostic: Basra margins are tens of points, Biriba margins thousands).

The budget is a number of iterations, a number of seconds, or both (whichever ends first). With
an iteration budget alone the choice is a deterministic function of the seed and the seat's
information.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from kafenio.agents import Player, make_player
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, Seat, State
from kafenio.i18n import _

DEFAULT_EXPLORATION = 0.7
"""UCB constant on rewards normalised to [0, 1] (0.7, as in Cowling et al.'s experiments)."""


@dataclass(frozen=True)
class Budget:
    """How long one search runs: ``iterations``, ``seconds`` or both (the first limit reached).

    Raises:
        KafenioError: neither limit given, or a limit that is not positive.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise KafenioError(_("a search budget needs iterations, seconds or both"))
        if (self.iterations is not None and self.iterations < 1) or (
                self.seconds is not None and not self.seconds > 0):
            raise KafenioError(_("a search budget must be positive"))

    @classmethod
    def parse(cls, text: str) -> Budget:
        """A budget from text: ``500`` (iterations), ``2s`` or ``0.5s`` (seconds), ``500/2s`` (both).

        Raises:
            KafenioError: text in another form, naming the accepted forms.
        """
        iterations: int | None = None
        seconds: float | None = None
        parts = text.replace(" ", "").split("/")
        try:
            if len(parts) > 2 or not all(parts):
                raise ValueError(text)
            for part in parts:
                if part.endswith("s") and seconds is None:
                    seconds = float(part[:-1])
                elif part.isdigit() and iterations is None:
                    iterations = int(part)
                else:
                    raise ValueError(text)
        except ValueError:
            raise KafenioError(_("bad search budget {text!r}; use N (iterations), Ns (seconds) "
                                 "or N/Ns (both), e.g. 500, 1.5s, 500/2s").format(text=text)) from None
        return cls(iterations, seconds)

    def __str__(self) -> str:
        parts = [str(self.iterations)] if self.iterations is not None else []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return "/".join(parts)


@dataclass
class ActionStats:
    """One root action after a search: how often it was tried and its mean raw margin (points)."""

    visits: int
    availability: int
    mean_margin: float


@dataclass
class SearchResult:
    """The outcome of one search.

    Attributes:
        action: the chosen action (the most visited root action).
        iterations: iterations run.
        seconds: wall time spent searching.
        stats: per root action that was tried, its :class:`ActionStats`.
    """

    action: int
    iterations: int
    seconds: float
    stats: dict[int, ActionStats] = field(default_factory=dict)


class _Node:
    """A tree node: the information set reached by an action (the edge from its parent)."""

    __slots__ = ("availability", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.availability = 0
        self.reward = 0.0  # sum of raw margins of the side that chose this node's action


def advance(state: State, action: int) -> None:
    """Apply a legal ``action`` without the legality check (as :meth:`State.playout` does)."""
    state._apply(action)
    state.history.append(action)


class RolloutPolicy:
    """Plays a determinized deal to its end: the game's heuristic player with probability
    ``heuristic`` per move, else a uniformly random legal action.

    The heuristic acts through a :class:`Seat` on the determinized state, so it sees exactly what
    the acting seat would see there. A game without a heuristic player rolls out at random.

    Args:
        game: the game.
        rng: the randomness of move choice (shared with the search, for determinism).
        heuristic: probability in [0, 1] of a heuristic move.
    """

    def __init__(self, game: Game, rng: random.Random, heuristic: float):
        if not 0.0 <= heuristic <= 1.0:
            raise KafenioError(_("the heuristic rollout probability must lie in [0, 1]"))
        self.rng = rng
        self.heuristic = heuristic
        self.player: Player | None = None
        if heuristic > 0:
            try:
                self.player = make_player("heuristic", game, rng.getrandbits(63))
            except KafenioError:
                self.player = None  # no heuristic for this game yet: random rollouts

    def play_out(self, state: State) -> None:
        """Play ``state`` to the end of the deal (in place)."""
        player, p, rng = self.player, self.heuristic, self.rng
        if player is None or p == 0:
            state.playout(rng)
            return
        while not state.is_terminal():
            if p >= 1 or rng.random() < p:
                action = player.step(Seat(state, state.current_player()))
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            advance(state, action)


class ISMCTSPlayer(Player):
    """A computer player that searches with SO-ISMCTS from its seat's information only.

    Args:
        game: the game.
        seed: fixes every random choice (determinizations, expansion order, rollouts).
        budget: the per-move budget; default 500 iterations.
        exploration: the UCB constant on normalised rewards.
        heuristic_rollout: probability of a heuristic move in rollouts (0, the default, gives
            random rollouts: on Basra a heuristic move costs about 20 random ones, so a fixed
            time buys more iterations with random rollouts).

    Attributes:
        last_search: the :class:`SearchResult` of the latest :meth:`step` (``None`` before).
    """

    name = "ismcts"

    def __init__(self, game: Game, seed: int | None = None, budget: Budget | None = None, *,
                 exploration: float = DEFAULT_EXPLORATION, heuristic_rollout: float = 0.0):
        super().__init__(game, seed)
        self.budget = budget or Budget(iterations=500)
        self.exploration = exploration
        self.rollout = RolloutPolicy(game, self.rng, heuristic_rollout)
        self._sides = [game.side_of(s) for s in range(game.num_players)]
        self.last_search: SearchResult | None = None

    def step(self, seat: Seat) -> int:
        """The most visited root action after a search within the budget.

        Raises:
            KafenioError: the seat is not on turn.
        """
        self.last_search = self.search(seat)
        return self.last_search.action

    def search(self, seat: Seat) -> SearchResult:
        """Search from ``seat``'s information set; at least one iteration, then until the budget ends.

        A single legal action is returned without searching (0 iterations).

        Raises:
            KafenioError: the seat is not on turn.
        """
        legal = seat.legal_actions()
        if not legal:
            raise KafenioError(_("seat {seat} is not on turn").format(seat=seat.seat))
        start = time.perf_counter()
        if len(legal) == 1:
            return SearchResult(legal[0], 0, time.perf_counter() - start)
        root = _Node()
        bounds = [math.inf, -math.inf]  # lowest and highest margin seen
        max_iterations, max_seconds = self.budget.iterations, self.budget.seconds
        iterations = 0
        while True:
            self._iterate(seat, root, bounds)
            iterations += 1
            if max_iterations is not None and iterations >= max_iterations:
                break
            if max_seconds is not None and time.perf_counter() - start >= max_seconds:
                break
        stats = {a: ActionStats(n.visits, n.availability, n.reward / n.visits)
                 for a, n in root.children.items() if a in legal and n.visits}
        best = max(stats, key=lambda a: (stats[a].visits, stats[a].mean_margin, -a))
        return SearchResult(best, iterations, time.perf_counter() - start, stats)

    def _iterate(self, seat: Seat, root: _Node, bounds: list[float]) -> None:
        rng, sides = self.rng, self._sides
        state = seat.resample(rng)
        node = root
        path: list[tuple[_Node, int]] = []
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                children[action] = _Node()
            else:
                action = self._select(children, legal, bounds)
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.availability += 1
            node = children[action]
            path.append((node, sides[player]))
            advance(state, action)
            if untried:
                break
        self.rollout.play_out(state)
        scores = state.side_scores()
        margins = []
        for side, score in enumerate(scores):
            best_other = max(s for o, s in enumerate(scores) if o != side)
            margins.append(score - best_other)
        bounds[0] = min(bounds[0], *margins)
        bounds[1] = max(bounds[1], *margins)
        for visited, side in path:
            visited.visits += 1
            visited.reward += margins[side]

    def _select(self, children: dict[int, _Node], legal: list[int], bounds: list[float]) -> int:
        low, high = bounds
        span = high - low
        c = self.exploration
        best_action, best_value = legal[0], -math.inf
        for a in legal:
            child = children[a]
            mean = child.reward / child.visits
            q = (mean - low) / span if span > 0 else 0.5
            value = q + c * math.sqrt(math.log(child.availability) / child.visits)
            if value > best_value:
                best_action, best_value = a, value
        return best_action
