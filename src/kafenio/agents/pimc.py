"""Perfect-information Monte Carlo sampling (PIMC): the reference opponent of the literature.

Long, Sturtevant, Buro & Furtak, "Understanding the Success of Perfect Information Monte Carlo
Sampling in Game Tree Search", AAAI 2010 (``shared/AI-NOTES.md`` §3): to choose a move,

1. deal ``worlds`` full states consistent with what the seat knows (``seat.resample``: the
   unseen cards dealt at random among the other hands and the stock, as a real player imagines
   them);
2. in each world, where every card is known, search every legal move to ``depth`` plies;
3. play the move with the best value averaged over the worlds.

How a world is searched is the one place where the games differ (:data:`WORLD_SEARCH`):

* the fishing games (Basra, Pişti, Xeri, Diloti) without ``playout``: **alpha-beta** over the perfect-information
  game, ``depth`` plies, scored at the leaves by the deal score as it stands
  (``state.side_scores()``, the final score once the deal is over). The root player's side
  maximises its margin (its score minus the best other side's,
  :func:`kafenio.agents.ismcts.seat_margins`) and every other side minimises it (the *paranoid*
  reduction, exact with two sides);
* the rummy games (Biriba, Buraco): a rummy turn has hundreds of legal actions, so each move is
  followed for ``depth`` plies by the game's heuristic player (greedy melding) in the world and
  the position reached is scored by :func:`kafenio.agents.rummy_search.position_scores`, as
  the root player's margin over the players on another side in this deal (the solo forms form
  their sides during the deal: :func:`kafenio.agents.ismcts.seat_margins`);
* a fishing game with ``playout`` (:class:`PIMCSettings`): after each move the world is
  **played out to the end of the deal by the heuristic player** at every seat, each seeing only
  its own seat (Tesauro & Galperin, "On-line Policy Improvement using Monte-Carlo Search",
  NIPS 1996: the rollouts of a base policy improve on it), with the same ties met after every
  move of a world; with ``keep`` the heuristic's own move stands unless another beats it over
  the worlds by more than that many standard errors.

The player sees only its seat: everything it knows comes through :class:`Seat` (the view, the
legal actions and the determinizations). With a fixed seed its moves are a function of the
seat's information only.

Player names (:func:`parse_spec`): ``pimc`` (:data:`DEFAULT_WORLDS` worlds, depth
:data:`DEFAULT_DEPTH`), ``pimc:N`` and ``pimc:N,D``, each followed by any of the other settings
of :class:`PIMCSettings` (``pimc:40,playout,keep=1.5``, ``pimc:40,4,majority,endgame=10``), so
that a variant of a level is named on the arena's command line.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from kafenio.agents import Player, make_player, rummy_search
from kafenio.agents.ismcts import seat_margins
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, Seat, State
from kafenio.i18n import _

DEFAULT_WORLDS = 20
"""Worlds sampled a decision by ``pimc`` without a setting."""

DEFAULT_DEPTH = 4
"""Plies searched in each world by ``pimc`` without a setting."""

RUMMY_GAMES = frozenset({"biriba", "buraco"})
"""The games whose worlds are followed by greedy melding, not searched by alpha-beta."""


@dataclass(frozen=True)
class PIMCSettings:
    """How many worlds a decision samples and how deep each world is searched.

    Attributes:
        worlds: determinizations per decision (1 or more).
        depth: plies searched after the move in each world (0: the move alone is scored).
        majority: fishing leaves also count the captured cards towards the majority bonus
            (:func:`fishing_position_scores`); else they are scored by the deal score alone.
        endgame: with this many cards or fewer left to play (hands and stock), a fishing world
            is searched to the end of the deal (solved exactly), also with ``playout``; 0: never.
        playout: each world is played out to the end of the deal after each move by the game's
            heuristic player at every seat (each seeing only its own seat, starting from the
            cards this player has seen): in a fishing game instead of alpha-beta, in a rummy
            game instead of stopping after ``depth`` plies; ``depth`` is then unused.
        keep: with more than 0, the heuristic's own move is played unless another move beats
            it, over the same worlds, by more than ``keep`` standard errors of the difference
            (a move that only looks better by chance is not taken); 0: the best mean.
        imagined: the player imagined at every seat of the playouts, whose own move ``keep``
            keeps (:data:`IMAGINED`): ``"heuristic"``, the game's heuristic player, or
            ``"share"`` (Pişti, Xeri), the pile player that values a captured card as its share of
            the majority (:class:`kafenio.agents.heuristic_pisti.ShareWeightedPlayer`).
        infer: with more than 0 (fishing games), each world is weighted by how well it explains
            the cards the other sides played since the last deal: a play the heuristic would
            have made holding that world's hand counts 1, any other play ``infer`` (so a world
            where the opponent passed up a capture it held weighs less); 0: worlds weigh alike.

    Raises:
        KafenioError: fewer than one world, a negative depth, ``endgame`` or ``keep``, or
            ``infer`` outside 0 to 1.
    """

    worlds: int = DEFAULT_WORLDS
    depth: int = DEFAULT_DEPTH
    majority: bool = False
    endgame: int = 0
    playout: bool = False
    keep: float = 0.0
    infer: float = 0.0
    imagined: str = "heuristic"

    def __post_init__(self) -> None:
        if self.worlds < 1 or self.depth < 0 or self.endgame < 0 or self.keep < 0 or not 0 <= self.infer <= 1:
            raise KafenioError(_("bad pimc setting: it needs at least 1 world and a depth of 0 or more"))
        if self.imagined not in IMAGINED:
            raise KafenioError(_("bad pimc setting: the imagined player is one of {names}").format(
                names=", ".join(IMAGINED)))

    def __str__(self) -> str:
        """The settings as a ``pimc`` player name writes them after the colon (:func:`parse_spec`):
        ``"N,D"`` and each setting that is not its default (``"40,4,playout,keep=1.5"``)."""
        parts = [str(self.worlds), str(self.depth)]
        parts += [flag for flag in FLAGS if getattr(self, flag)]
        parts += [f"{name}={getattr(self, name)}" for name in VALUES if getattr(self, name)]
        if self.imagined != "heuristic":
            parts.append(f"imagined={self.imagined}")
        return ",".join(parts)


FLAGS = ("majority", "playout")
"""The :class:`PIMCSettings` switched on by their name in a player name (``pimc:40,4,majority``)."""

VALUES = ("endgame", "keep", "infer")
"""The :class:`PIMCSettings` given as ``NAME=VALUE`` in a player name (``pimc:40,keep=1.5``)."""

SPEC_WORDS = (*FLAGS, *VALUES, "imagined")
"""The names that may follow the numbers of a ``pimc`` player name."""


def _share_weighted(game: Game, seed: int | None) -> Player:
    from kafenio.agents.heuristic_pisti import ShareWeightedPlayer

    if game.name not in ("pisti", "xeri"):
        raise KafenioError(_("the imagined player {name!r} plays only Pişti and Xeri").format(name="share"))
    return ShareWeightedPlayer(game, seed)


IMAGINED: dict[str, Callable[[Game, int | None], Player]] = {
    "heuristic": lambda game, seed: make_player("heuristic", game, seed), "share": _share_weighted}
"""The players a playout may imagine at every seat (:attr:`PIMCSettings.imagined`), by name."""


def parse_spec(text: str) -> PIMCSettings:
    """The settings of a ``pimc`` player name's part after the colon: ``""``, ``"N"`` or ``"N,D"``
    (worlds, depth), then any of :data:`FLAGS` and ``NAME=VALUE`` for :data:`VALUES`, each once
    (``"40,playout,keep=1.5"`` is the Pişti expert's search, :data:`kafenio.agents.levels.EXPERT_FISHING`).

    Raises:
        KafenioError: any other form, or values out of range, naming the accepted forms.
    """
    if not text:
        return PIMCSettings()
    parts = text.replace(" ", "").split(",")
    numbers: list[int] = []
    while parts and parts[0].isdigit() and len(numbers) < 2:
        numbers.append(int(parts.pop(0)))
    named: dict[str, bool | int | float | str] = {}
    for part in parts:
        name, sep, value = part.partition("=")
        setting = None if name in named else _setting(name, value if sep else None)
        if setting is None:
            break
        named[name] = setting
    else:
        if numbers and numbers[0] >= 1:
            return PIMCSettings(numbers[0], numbers[1] if len(numbers) == 2 else DEFAULT_DEPTH, **named)
    raise KafenioError(_("bad pimc player {text!r}; use pimc, pimc:N (worlds) or pimc:N,D "
                         "(worlds, depth in plies), e.g. pimc:20,4, then any of {words} "
                         "(e.g. pimc:40,playout,keep=1.5)").format(
        text=f"pimc:{text}", words="majority, playout, endgame=N, keep=X, infer=X, imagined=share"))


def _setting(name: str, value: str | None) -> bool | int | float | str | None:
    """The value of the setting ``name`` written ``value`` (``None``: the name alone) in a player
    name, or ``None`` when it is not one of :data:`SPEC_WORDS` or out of its range."""
    if name in FLAGS:
        return True if value is None else None
    if name == "endgame":
        return int(value) if value is not None and value.isdigit() else None
    if name == "imagined":
        return value if value in IMAGINED else None
    if name not in VALUES or value is None:
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if 0 <= number <= (1 if name == "infer" else math.inf) and math.isfinite(number) else None


def deal_scores(state: State) -> list[float]:
    """Each side's deal score so far (``state.side_scores()``): :class:`AlphaBeta`'s default
    evaluation (a module-level function, so that a player holding it can be pickled)."""
    return state.side_scores()


def fishing_position_scores(state: State) -> list[float]:
    """Each side's deal score as it stands plus its share of the majority bonus so far.

    Before the end of a deal a side holding ``k`` of the ``n`` cards of the deal is credited
    ``majority_points · k / n`` (a captured card is worth its part of the bonus the majority
    pays, basra.md §6, fishing-relatives.md A7, B7, C7); once the deal is over, the final score.
    """
    scores = state.side_scores()
    if state.is_terminal():
        return scores
    captured = state.captured
    total = sum(len(pile) for pile in captured) + len(state.floor) + state.cards_left
    weight = state.game.majority_points / total
    return [score + weight * len(pile) for score, pile in zip(scores, captured, strict=True)]


class AlphaBeta:
    """Depth-limited alpha-beta over a perfect-information world (fishing games).

    The side of the seat ``seat`` maximises the seat's margin under ``evaluation``
    (:func:`~kafenio.agents.ismcts.seat_margins`), every other side minimises it. Children are
    searched in legal-action order; the search copies the state once per node (``State.clone``
    and the unchecked apply).

    Args:
        evaluation: ``state -> score per side`` at the leaves (default the deal score).
    """

    def __init__(self, evaluation: Callable[[State], list[float]] | None = None):
        self.evaluation = evaluation or deal_scores
        self.nodes = 0

    def value(self, state: State, depth: int, seat: int, alpha: float, beta: float) -> float:
        """The margin of ``seat`` that ``depth`` more plies of best play lead to."""
        self.nodes += 1
        if depth == 0 or state.is_terminal():
            return seat_margins(state, self.evaluation(state))[seat]
        maximising = state.deal_side(state.current_player()) == state.deal_side(seat)
        best = -math.inf if maximising else math.inf
        for action in state.legal_actions():
            child = state.clone()
            child._apply(action)
            child.history.append(action)
            value = self.value(child, depth - 1, seat, alpha, beta)
            if maximising:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


def _alphabeta_world(player: PIMCPlayer, world: State, legal: list[int], seat: int) -> list[float]:
    search, settings = player.alphabeta, player.settings
    depth = settings.depth if world.cards_left > settings.endgame else 4 * world.cards_left
    values = []
    for action in legal:
        child = world.clone()
        child._apply(action)
        child.history.append(action)
        values.append(search.value(child, depth, seat, -math.inf, math.inf))
    return values


def _greedy_world(player: PIMCPlayer, world: State, legal: list[int], seat: int) -> list[float]:
    follower, tracker, settings = player.follower, player.tracker, player.settings
    if settings.endgame and world.cards_left <= settings.endgame:  # a fishing endgame: solved
        return _alphabeta_world(player, world, legal, seat)
    plies = math.inf if settings.playout else settings.depth
    randomness = follower.rng.getstate() if settings.playout else None
    values = []
    for action in legal:
        state = world.clone()
        state._apply(action)
        state.history.append(action)
        if randomness is not None:  # every move's playout meets the same ties
            follower.rng.setstate(randomness)
        if tracker is not None:
            follower.recall(tracker)
        ply = 0
        while ply < plies and not state.is_terminal():
            move = follower.step(Seat(state, state.current_player()))
            state._apply(move)
            state.history.append(move)
            ply += 1
        values.append(seat_margins(state, player.evaluation(state))[seat])
    return values


WORLD_SEARCH: dict[str, Callable[[PIMCPlayer, State, list[int], int], list[float]]] = {
    "alphabeta": _alphabeta_world, "heuristic": _greedy_world}
"""Per way of searching a world (alpha-beta: the fishing games; the heuristic followed: the
rummy games, and every game with :attr:`PIMCSettings.playout`), ``(player, world, legal
actions, root seat) -> value of each action in the world``."""


@dataclass
class PIMCResult:
    """The outcome of one decision.

    Attributes:
        action: the chosen action.
        worlds: worlds sampled.
        seconds: wall time spent.
        values: per legal action, its mean value (the root seat's margin, points) over the worlds.
    """

    action: int
    worlds: int
    seconds: float
    values: dict[int, float]

    @property
    def iterations(self) -> int:
        """The worlds sampled: the search's units of work, as ISMCTS's iterations (the arena
        times the decisions that searched, :func:`kafenio.arena.duplicate.play_deal_set`)."""
        return self.worlds


class PIMCPlayer(Player):
    """A computer player that samples worlds from its seat's information and searches each.

    Args:
        game: the game.
        seed: fixes the worlds sampled (and the rummy follower's randomness).
        settings: worlds and depth; default :class:`PIMCSettings` ().

    Attributes:
        last_search: the :class:`PIMCResult` of the latest :meth:`step` (``None`` before; the
            arena reads it as it reads ISMCTS's).
    """

    name = "pimc"

    def __init__(self, game: Game, seed: int | None = None, settings: PIMCSettings | None = None):
        super().__init__(game, seed)
        self.settings = settings or PIMCSettings()
        rummy = game.name in RUMMY_GAMES
        followed = rummy or self.settings.playout
        self.search_world = WORLD_SEARCH["heuristic" if followed else "alphabeta"]
        evaluation = fishing_position_scores if self.settings.majority else deal_scores
        self.evaluation = rummy_search.position_scores if rummy else evaluation
        self.alphabeta = AlphaBeta(evaluation)
        imagine = IMAGINED[self.settings.imagined]
        self.follower: Player | None = imagine(game, self.rng.getrandbits(63)) if followed else None
        self.tracker: Player | None = imagine(game, self.rng.getrandbits(63)) if self.settings.playout else None
        #: the other sides as the worlds' weights imagine them (:attr:`PIMCSettings.infer`)
        self.model: Player | None = (imagine(game, self.rng.getrandbits(63))
                                     if self.settings.infer and not rummy and self.tracker is not None else None)
        self.last_search: PIMCResult | None = None

    def step(self, seat: Seat) -> int:
        """The legal action with the best mean value over the sampled worlds (with
        :attr:`PIMCSettings.keep`, the heuristic's move unless another is clearly better).

        Ties go to the lower action id. A single legal action is played without sampling.

        Raises:
            KafenioError: the seat is not on turn.
        """
        self.last_search = self.decide(seat)
        return self.last_search.action

    def catch_up(self, seat: Seat) -> None:
        """Let the players imagined in the playouts remember the deal so far as ``seat`` saw it,
        for a player that was not at the table from the deal's start (a hint, asked for once): a
        world sampled from the seat (whose plays are the real ones) is replayed from its deck,
        and the heuristic that remembers for this player watches the seat's view before every
        play and now. Without playouts nothing; for a constructed position only the view now."""
        if self.tracker is None:
            return
        watcher = IMAGINED[self.settings.imagined](self.game, 0)  # it only watches: its seed is never used
        if _replay(seat.resample(self.rng), lambda state, _action: watcher.observe(Seat(state, seat.seat))) is not None:
            self.tracker.recall(watcher)
        self.tracker.observe(seat)

    def decide(self, seat: Seat) -> PIMCResult:
        """Sample the worlds and value every legal action (see :meth:`step`)."""
        legal = seat.legal_actions()
        if not legal:
            raise KafenioError(_("seat {seat} is not on turn").format(seat=seat.seat))
        start = time.perf_counter()
        own = self.tracker.step(seat) if self.tracker is not None else None  # it remembers every turn
        if len(legal) == 1:
            return PIMCResult(legal[0], 0, time.perf_counter() - start, {legal[0]: 0.0})
        worlds = [seat.resample(self.rng) for _world in range(self.settings.worlds)]
        weights = ([_play_likelihood(self, world, seat.seat) for world in worlds] if self.model is not None
                   else [1.0] * len(worlds))
        rows = [self.search_world(self, world, legal, seat.seat) for world in worlds]
        total = sum(weights)
        values = {a: sum(w * row[i] for w, row in zip(weights, rows, strict=True)) / total
                  for i, a in enumerate(legal)}
        best = max(legal, key=lambda a: (values[a], -a))
        if self.settings.keep and own is not None:
            best = _clearly_better(rows, legal, own, self.settings.keep, weights)
        return PIMCResult(best, len(worlds), time.perf_counter() - start, values)


def _clearly_better(rows: list[list[float]], legal: list[int], own: int, keep: float,
                    weights: list[float] | None = None) -> int:
    """The move whose mean gain over ``own`` across the worlds (``rows``: per world, the value
    of each legal action; ``weights``: per world, default alike) is the largest of those above
    ``keep`` standard errors (of a weighted mean: over the effective number of worlds); else
    ``own``."""
    base = legal.index(own)
    weights = weights or [1.0] * len(rows)
    total = sum(weights)
    n = total * total / sum(w * w for w in weights)  # the effective number of worlds
    choice, best = own, 0.0
    for i, action in enumerate(legal):
        gains = [row[i] - row[base] for row in rows]
        mean = sum(w * g for w, g in zip(weights, gains, strict=True)) / total
        spread = (math.sqrt(sum(w * (g - mean) ** 2 for w, g in zip(weights, gains, strict=True)) / total
                            / (n - 1)) if n > 1 + 1e-9 else math.inf)
        if mean > keep * spread and mean > best:
            choice, best = action, mean
    return choice


def _replay(world: State, visit: Callable[[State, int], None]) -> State | None:
    """Replay ``world``'s deal from its deck, calling ``visit(state, action)`` before each action
    of its history (``state`` changes after the call: clone it to keep it). Returns the state
    reached, or ``None`` for a world that does not replay from its deck (a constructed position:
    its history starts at the position)."""
    state = world.game.new_initial_state(deck=world._deck, dealer=world.dealer, match_scores=list(world.match_scores),
                                         carry=world.carry_in, **world.deal_inputs())
    for action in world.history:
        if action not in state.legal_actions():
            return None
        visit(state, action)
        state._apply(action)
        state.history.append(action)
    return state if state.hands == world.hands else None


def _play_likelihood(player: PIMCPlayer, world: State, seat: int) -> float:
    """How well ``world`` explains the cards the other sides of the deal played since the last
    deal (:attr:`PIMCSettings.infer`): the world's deal is replayed from its deck, and at each
    such play the heuristic, holding that world's hand and remembering what ``player`` has
    seen, is asked what it would play. 1 for a world that does not replay from its deck (a
    constructed position)."""
    miss, model, side = player.settings.infer, player.model, world.deal_side(seat)
    plays: list[tuple[State, int, int]] = []
    dealt = -1

    def note(state: State, action: int) -> None:
        nonlocal dealt
        if state.stock_pos != dealt:  # a new batch: the plays before it told of cards now public
            plays.clear()
            dealt = state.stock_pos
        mover = state.current_player()
        if state.deal_side(mover) != side and state.pending is None and len(state.legal_actions()) > 1:
            plays.append((state.clone(), mover, action))

    if _replay(world, note) is None:
        return 1.0
    weight = 1.0
    for before, mover, action in plays:
        model.recall(player.tracker)
        weight *= 1.0 if model.step(Seat(before, mover)) == action else miss
    return weight


def make_pimc_player(spec: str, game: Game, seed: int | None = None) -> PIMCPlayer:
    """The player named ``pimc`` or ``pimc:SETTINGS`` (:func:`parse_spec`); its name is ``spec``.

    Raises:
        KafenioError: a malformed setting, naming the accepted forms.
    """
    _kind, _sep, text = spec.partition(":")
    player = PIMCPlayer(game, seed, parse_spec(text))
    player.name = spec
    return player

