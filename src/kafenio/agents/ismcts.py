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
4. **rolls out** with the game's heuristic player (probability ``heuristic_rollout``) or a
   uniformly random legal action, to the end of the deal or for at most ``rollout_depth`` moves;
5. **evaluates** the position reached with ``state.side_scores()``: the game's own score rules
   applied to the deal as it stands (the final deal score at the end of a deal; in the middle of
   a Biriba or Buraco deal the melds' card points and biriba/canastra bonuses, minus the cards
   still in hand and the untaken-pot penalty, biriba.md §8, buraco.md §8);
6. **backs up** partner-aware rewards: each node's reward is the deal-score margin of the player
   who chose it (its side's score minus the best score of the players on another side in this
   deal, :func:`seat_margins`), so partners cooperate and opponents oppose — also where the
   sides form during the deal (Biriba's and Burraco's solo forms: the partner of this deal is
   not an opponent, the partner of another deal is). Margins are min–max normalised to [0, 1]
   over the margins this search has seen (game-agnostic: Basra margins are tens of points,
   Biriba margins thousands).

Steps 4–5 are the *early playout termination* of the MCTS literature: Winands, Björnsson &
Saito, "Monte Carlo Tree Search in Lines of Action", IEEE TCIAIG 2(4), 2010 (playouts stopped
after a few moves and scored by an evaluation function); Lorentz, "Using evaluation functions
in Monte-Carlo Tree Search", Theoretical Computer Science 644, 2016; and the survey of Browne
et al., "A Survey of Monte Carlo Tree Search Methods", IEEE TCIAIG 4(1), 2012, which also
covers rollouts biased by a cheap rule of thumb (``preferred_moves``). A random Biriba deal is
about 265 actions, so a full random playout costs about 8 ms and a search of a few hundred
iterations would not fit a move's time; a playout of a few moves, biased towards melding and
scored by the running deal score, keeps a leaf below a millisecond. Per game the settings are
data, :data:`GAME_SEARCH` (:class:`SearchSettings`); the fishing games' deals are short and
roll out at random to their end.

The budget is a number of iterations, a number of seconds, or both (whichever ends first). With
an iteration budget alone the choice is a deterministic function of the seed and the seat's
information.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kafenio.agents import Player, make_player, rummy_search
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, Seat, State
from kafenio.i18n import _

ROLLOUT_DEPTH_RUMMY = 8
"""Biriba's and Buraco's rollout depth (moves; about two turns)."""

ROLLOUT_PREFERENCE_RUMMY = 0.8
"""How often a Biriba or Buraco rollout move follows :func:`kafenio.agents.rummy_search.preferred_moves`."""

DEFAULT_EXPLORATION = 0.7
"""UCB constant on rewards normalised to [0, 1] (0.7, as in Cowling et al.'s experiments)."""


def running_score(state: State) -> list[float]:
    """The deal score of each match side as it stands (``state.side_scores()``: final once the
    deal is over, the game's running score before)."""
    return state.side_scores()


@dataclass(frozen=True)
class SearchSettings:
    """How a search treats a leaf, per game (:data:`GAME_SEARCH`).

    Attributes:
        rollout_depth: moves played past the tree before the position is scored;
            ``None`` plays to the end of the deal.
        evaluation: ``state -> score per match side`` of the position the rollout reached
            (default :func:`running_score`; the margins between sides are what counts).
        preferred_moves: ``legal actions -> the non-empty subset a rollout move prefers`` (a
            cheap rule of thumb), or ``None``.
        rollout_preference: probability in [0, 1] that a rollout move is drawn from
            ``preferred_moves`` (else from every legal action, so a rollout always ends).
        heuristic_rollout: probability in [0, 1] of a move of the game's heuristic player in the
            rollout (tried before the preference; about 1 ms a move on Biriba).
        exploration: the UCB constant on normalised rewards.

    Raises:
        KafenioError: a depth below 0 or a probability outside [0, 1].
    """

    rollout_depth: int | None = None
    evaluation: Callable[[State], Sequence[float]] = running_score
    preferred_moves: Callable[[Sequence[int]], Sequence[int]] | None = None
    rollout_preference: float = 0.0
    heuristic_rollout: float = 0.0
    exploration: float = DEFAULT_EXPLORATION

    def __post_init__(self) -> None:
        if self.rollout_depth is not None and self.rollout_depth < 0:
            raise KafenioError(_("the rollout depth must be 0 or more moves"))
        if not (0.0 <= self.heuristic_rollout <= 1.0 and 0.0 <= self.rollout_preference <= 1.0):
            raise KafenioError(_("the rollout probabilities must lie in [0, 1]"))


RUMMY_SEARCH = SearchSettings(rollout_depth=ROLLOUT_DEPTH_RUMMY, evaluation=rummy_search.position_scores,
                              preferred_moves=rummy_search.preferred_moves,
                              rollout_preference=ROLLOUT_PREFERENCE_RUMMY)
"""Biriba's and Buraco's settings (:mod:`kafenio.agents.rummy_search`)."""

RUMMY_PILE_SEARCH = SearchSettings(rollout_depth=ROLLOUT_DEPTH_RUMMY, evaluation=rummy_search.position_scores,
                                   preferred_moves=rummy_search.pile_preferred_moves,
                                   rollout_preference=ROLLOUT_PREFERENCE_RUMMY)
""":data:`RUMMY_SEARCH` whose rollouts take the discard pile and keep their wilds
(:func:`kafenio.agents.rummy_search.pile_preferred_moves`)."""

GAME_SEARCH: dict[str, SearchSettings] = {"biriba": RUMMY_SEARCH, "buraco": RUMMY_SEARCH}
"""Per game, its search settings; a game not listed rolls out at random to the end of the deal
(the fishing games: a Basra deal is about 50 moves)."""


def search_settings(game: Game) -> SearchSettings:
    """The search settings of ``game`` (:data:`GAME_SEARCH`, else the defaults)."""
    return GAME_SEARCH.get(game.name, SearchSettings())


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

    def iteration_bound(self) -> Budget:
        """This budget without its time cap when it has an iteration limit (else unchanged)."""
        return self if self.iterations is None else Budget(iterations=self.iterations)

    def __str__(self) -> str:
        parts = [str(self.iterations)] if self.iterations is not None else []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return "/".join(parts)


DEFAULT_BUDGET = Budget(iterations=500)
"""The budget of ``ismcts`` without one."""


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
        self.reward = 0.0  # sum of raw margins of the player who chose this node's action


def seat_margins(state: State, scores: Sequence[float]) -> list[float]:
    """Per seat, its match side's score minus the best score of the seats that are not on its
    side in this deal as ``state`` stands (:meth:`State.deal_side`); ``scores``: per match side.
    With fixed sides this is each side's score minus the best other side's (the top side's
    margin is over the second best). In the solo forms (biriba.md §10.3, §10.4, buraco.md §5)
    every player is a match side, and once the solo is known its partner of this deal, credited
    the same share, is not counted against it."""
    game = state.game
    n = game.num_players()
    own = [scores[game.side_of(s)] for s in range(n)]
    deal = [state.deal_side(s) for s in range(n)]
    return [own[p] - max(own[q] for q in range(n) if deal[q] != deal[p]) for p in range(n)]


def advance(state: State, action: int) -> None:
    """Apply a legal ``action`` without the legality check (as :meth:`State.playout` does)."""
    state._apply(action)
    state.history.append(action)


class RolloutPolicy:
    """Plays a determinized deal on: the game's heuristic player with probability ``heuristic``
    per move, else a uniformly random legal action, to the end of the deal or for at most
    ``depth`` moves.

    The heuristic acts through a :class:`Seat` on the determinized state, so it sees exactly what
    the acting seat would see there. A game without a heuristic player rolls out at random.

    Args:
        game: the game.
        rng: the randomness of move choice (shared with the search, for determinism).
        settings: ``heuristic_rollout`` and ``rollout_depth`` (:class:`SearchSettings`).
    """

    def __init__(self, game: Game, rng: random.Random, settings: SearchSettings):
        self.rng = rng
        self.heuristic = heuristic = settings.heuristic_rollout
        self.depth = settings.rollout_depth
        self.prefer = settings.rollout_preference if settings.preferred_moves is not None else 0.0
        self.preferred = settings.preferred_moves
        self.player: Player | None = None
        if heuristic > 0:
            try:
                self.player = make_player("heuristic", game, rng.getrandbits(63))
            except KafenioError:
                self.player = None  # no heuristic for this game yet: random rollouts

    def play_out(self, state: State) -> None:
        """Play ``state`` on (in place): to the end of the deal, or ``depth`` moves."""
        player, p, rng, depth = self.player, self.heuristic, self.rng, self.depth
        prefer, preferred = self.prefer, self.preferred
        if depth is None and (player is None or p == 0) and prefer == 0:
            state.playout(rng)
            return
        moves = 0
        while not state.is_terminal() and (depth is None or moves < depth):
            moves += 1
            if player is not None and (p >= 1 or rng.random() < p):
                action = player.step(Seat(state, state.current_player()))
            else:
                legal = state.legal_actions()
                if prefer and rng.random() < prefer:
                    legal = preferred(legal)
                action = legal[rng.randrange(len(legal))]
            state._apply(action)  # advance(), inlined: the rollout's hot loop
            state.history.append(action)


class ISMCTSPlayer(Player):
    """A computer player that searches with SO-ISMCTS from its seat's information only.

    Args:
        game: the game.
        seed: fixes every random choice (determinizations, expansion order, rollouts).
        budget: the per-move budget; default 500 iterations.
        settings: rollout depth, heuristic rollouts and exploration; default the game's
            (:func:`search_settings`). Random rollouts are the default everywhere: on Basra a
            heuristic move costs about 20 random ones, so a fixed time buys more iterations.

    Attributes:
        last_search: the :class:`SearchResult` of the latest :meth:`step` (``None`` before).
    """

    name = "ismcts"

    def __init__(self, game: Game, seed: int | None = None, budget: Budget | None = None, *,
                 settings: SearchSettings | None = None):
        super().__init__(game, seed)
        self.budget = budget or DEFAULT_BUDGET
        self.settings = settings or search_settings(game)
        self.exploration = self.settings.exploration
        self.evaluate = self.settings.evaluation
        self.rollout = RolloutPolicy(game, self.rng, self.settings)
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
        rng = self.rng
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
            path.append((node, player))
            advance(state, action)
            if untried:
                break
        self.rollout.play_out(state)
        margins = seat_margins(state, self.evaluate(state))
        bounds[0] = min(bounds[0], *margins)
        bounds[1] = max(bounds[1], *margins)
        for visited, player in path:
            visited.visits += 1
            visited.reward += margins[player]

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
