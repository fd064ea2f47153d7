"""The kafenio games as OpenSpiel Python games (``AI-NOTES.md`` §5; needs ``open-spiel``).

>>> import pyspiel                                                 # doctest: +SKIP
>>> from kafenio import openspiel
>>> openspiel.register()                                           # doctest: +SKIP
['kafenio_basra', 'kafenio_biriba']
>>> game = pyspiel.load_game("kafenio_basra", {"preset": "egyptian", "rules": "num_players=4"})  # doctest: +SKIP

Shaped after ``open_spiel/python/games/team_dominoes.py``: a ``pyspiel.Game`` and
``pyspiel.State`` wrapping a kafenio game and deal, plus an observer for the tensors and strings.

**Chance: one explicit chance node at the root.** kafenio deals from a seed (the whole deck order
is fixed by ``new_initial_state(seed=…)``, and the deal is not a chance node), so the root here is
a chance node with ``deals`` equally likely outcomes; outcome ``i`` is kafenio's deal
``seed=i``. Everything after it is decisions. This keeps the game ``EXPLICIT_STOCHASTIC`` and
finite, so every OpenSpiel algorithm (MCTS/ISMCTS, ``evaluate_bots``, ``rl_environment``, exact
evaluators in principle) runs unchanged, and OpenSpiel's deal ``i`` replays as kafenio's seed
``i``. The price: only ``deals`` different deals exist (parameter, default
:data:`DEFAULT_DEALS`), and the root lists them all (``chance_outcomes`` costs O(deals)).
``SAMPLED_STOCHASTIC`` (a hidden random deal in ``new_initial_state``) would allow every deal
but makes ``new_initial_state()`` non-reproducible and hides the chance event from algorithms.
After the root, a deal's own randomness (the stock order) is hidden in the deal state, as for
PettingZoo; ``resample_from_infostate`` redistributes exactly the cards the player cannot know.

* Game parameters: ``preset`` (preset names, comma-separated), ``rules`` (``option=value``
  pairs separated by ``;``), ``deals`` (the number of root chance outcomes).
* Players are seats; ``PlayerId`` values are kafenio's (``TERMINAL`` = −4).
* Returns are **zero-sum margins** in game points: a seat gets its side's deal score minus the
  mean deal score of the other sides (partners equal), 0 before the end (terminal rewards).
  ``min_utility``/``max_utility`` are ``∓(hi − lo)`` for the bounds ``[lo, hi]`` of one side's
  deal score that :func:`side_score_bounds` derives from the rule set's scoring (a margin is at
  most one side at ``hi`` against the rest at ``lo``).
* ``information_state_string`` is the game's perfect-recall key (it determines the legal
  actions, so ISMCTS keyed by it is consistent); ``observation_tensor`` is the game's
  observation tensor; ``observation_string`` is the seat's view as JSON. No information-state
  tensor.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from kafenio import available_games, load_game
from kafenio.engine.game import Game, State
from kafenio.fishing.state import FishingGame

DEFAULT_DEALS = 10_000
"""Root chance outcomes (distinct deals) unless the ``deals`` parameter says otherwise."""
MAX_GAME_LENGTH = 10_000
"""The declared ``max_game_length`` (decisions of one deal, a loose bound)."""


def short_name(game: str) -> str:
    """The OpenSpiel name of kafenio game ``game``: ``kafenio_<game>``."""
    return f"kafenio_{game}"


def load_kafenio_game(name: str, params: dict[str, Any]) -> Game:
    """The kafenio game for OpenSpiel parameters ``preset`` and ``rules`` (strings, may be empty).

    Raises:
        RulesError: an unknown preset (listing the presets) or option, a bad value.
    """
    presets = [p.strip() for p in params.get("preset", "").split(",") if p.strip()]
    rules = [r.strip() for r in params.get("rules", "").split(";") if r.strip()]
    return load_game(name, preset=presets or None, options=rules)


SPECIAL_CAPTURES = ("basra_value", "jack_on_lone_jack", "lone_points", "jack_lone_jack", "jack_lone_card",
                    "xeri_points")
"""The fishing games' attributes holding the points of one special capture (a card table or a
number): Basra's basra and jack on a lone jack (``basra.md`` §4), Pişti's and Xeri's lone-card
captures (``fishing-relatives.md`` A4, B4), Diloti's xeri (C4)."""

MELD_BONUS_MIN_CARDS = 7
"""The fewest cards of a meld that earns a bonus: a biriba (``biriba.md`` §8.2) or a canastra
(``buraco.md`` §8)."""


def side_score_bounds(game: Game) -> tuple[float, float]:
    """``(lo, hi)``: bounds on one side's score of one deal (no carry from earlier deals), from
    the scoring rules of ``game``'s rule set.

    * Fishing games (``basra.md`` §6, ``fishing-relatives.md`` A6, B6, C6): every item is ≥ 0,
      so ``lo = 0``; ``hi`` = the majority bonus + every card point of the deck + one special
      capture of the highest value for every card the side plays (every card of the deal when
      Pişti's bluffing lets the other side's plays score for it, at twice the value, A4.2) + the
      last-pile bonus.
    * Rummy games (``biriba.md`` §8, ``buraco.md`` §8): a side's total is ± (melded card values
      + meld bonuses) + closing + cut bonus − cards left in hand − the pot penalty. With ``V``
      the value of the whole deck and ``B`` the largest bonus of the rule set times the melds
      that can earn one (deck ÷ :data:`MELD_BONUS_MIN_CARDS`) plus closing and cut:
      ``hi = V + B`` and ``lo = −(V + B + untaken-pot penalty + max(100, V))`` (melds count
      negative under ``no_clean_canastra_melds_negative``; an unplayed pot costs 100 or its
      values).
    """
    deck = game.full_deck()
    if isinstance(game, FishingGame):
        specials = [0]
        for name in SPECIAL_CAPTURES:
            value = getattr(game, name, 0)
            specials.extend(value if isinstance(value, tuple) else [value])
        plays = -(-len(deck) * max(len(game.seats_of(s)) for s in range(game.num_sides)) // game.num_players())
        rules = game.rules
        bluffing = rules.get("bluffing", False)
        special = max(specials) * (2 * len(deck) if bluffing else plays)
        hi = rules.get("majority_points", 0) + sum(game.card_points[c] for c in deck) + special
        return 0.0, float(hi + rules.get("last_pile_bonus", 0))
    rules = game.rules.to_dict()
    values = sum(game.card_values[c] for c in deck)
    bonus = max(v for k, v in rules.items() if k.endswith("_bonus") and type(v) is int)
    bonuses = bonus * (len(deck) // MELD_BONUS_MIN_CARDS + 2)
    penalty = max(v for k, v in rules.items() if k.endswith("_penalty") and type(v) is int)
    return float(-(values + bonuses + penalty + max(100, values))), float(values + bonuses)


def game_type(name: str, game: Game) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of kafenio game ``name`` (``game``: its default rules)."""
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"kafenio {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.num_players(),
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"preset": "", "rules": "", "deals": DEFAULT_DEALS},
    )


class KafenioSpielGame(pyspiel.Game):
    """A kafenio game as a ``pyspiel.Game``; :func:`register` makes one subclass per game that
    sets :attr:`kafenio_name`.

    Args:
        params: OpenSpiel parameters (``preset``, ``rules``, ``deals``).
    """

    kafenio_name: str

    def __init__(self, params: dict[str, Any] | None = None):
        name = self.kafenio_name
        params = dict(params or {})
        self.kafenio_game = load_kafenio_game(name, params)
        self.deals = int(params.get("deals", DEFAULT_DEALS))
        game = self.kafenio_game
        self.observation_shape = tuple(game.observation_tensor_shape())
        lo, hi = side_score_bounds(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions(),
            max_chance_outcomes=self.deals,
            num_players=game.num_players(),
            min_utility=lo - hi,
            max_utility=hi - lo,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(name, load_game(name)), info, params)

    def __deepcopy__(self, memo: dict) -> KafenioSpielGame:
        return self  # immutable; OpenSpiel deep-copies a Python state's attributes to clone it

    def new_initial_state(self) -> KafenioSpielState:
        """The root: a chance node choosing the deal."""
        return KafenioSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> KafenioObserver:
        """The observer: information-state string for perfect recall, else tensor and view."""
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return KafenioObserver(self, perfect_recall)


class _Deal:
    """Holds the kafenio deal of a :class:`KafenioSpielState`: OpenSpiel clones a Python state by
    deep-copying its attributes, and this makes that copy one :meth:`State.clone`."""

    __slots__ = ("state",)

    def __init__(self, state: State | None):
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Deal:
        return _Deal(None if self.state is None else self.state.clone())


class KafenioSpielState(pyspiel.State):
    """A kafenio deal as a ``pyspiel.State``; :attr:`deal` is ``None`` at the root chance node."""

    def __init__(self, game: KafenioSpielGame):
        super().__init__(game)
        self._game = game
        self._deal = _Deal(None)

    @property
    def deal(self) -> State | None:
        """The kafenio :class:`State` once dealt, ``None`` at the root."""
        return self._deal.state

    def current_player(self) -> int:
        """``CHANCE`` at the root, else the kafenio seat on turn or ``TERMINAL``."""
        return pyspiel.PlayerId.CHANCE if self.deal is None else self.deal.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.deal.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every deal seed ``0 … deals−1`` with equal probability."""
        p = 1.0 / self._game.deals
        return [(i, p) for i in range(self._game.deals)]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self._deal.state = self._game.kafenio_game.new_initial_state(seed=action)
        else:
            self.deal.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.deal.action_to_string(action, player)

    def is_terminal(self) -> bool:
        """True once the deal is over."""
        return self.deal is not None and self.deal.is_terminal()

    def returns(self) -> list[float]:
        """Per seat: its side's deal score minus the other sides' mean (0 before the end)."""
        game = self._game.kafenio_game
        if not self.is_terminal():
            return [0.0] * game.num_players()
        scores = self.deal.side_scores()
        total, others = sum(scores), game.num_sides - 1
        return [float(scores[game.side_of(s)] - (total - scores[game.side_of(s)]) / others)
                for s in range(game.num_players())]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> KafenioSpielState:
        """A state consistent with ``player_id``'s information (kafenio's determinization).

        ``probability_sampler()`` (e.g. ``pyspiel.UniformProbabilitySampler``) seeds the shuffle.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        new = self.clone()
        new._deal.state = self.deal.resample_from_infostate(player_id, rng)
        return new

    def __str__(self) -> str:
        """The whole state (deck and actions) as kafenio's serialization, or the root."""
        return "deal not yet chosen" if self.deal is None else self.deal.serialize()


class KafenioObserver:
    """OpenSpiel's PyObserver for kafenio: ``tensor`` (and ``dict``) plus ``string_from``.

    With perfect recall it gives the information-state string and an empty tensor; otherwise the
    game's observation tensor and the seat's view as JSON.
    """

    def __init__(self, game: KafenioSpielGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else int(np.prod(game.observation_shape))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor.reshape(game.observation_shape)}

    def set_from(self, state: KafenioSpielState, player: int) -> None:
        """Write ``player``'s observation tensor of ``state`` (zeros at the root)."""
        if self.perfect_recall:
            return
        if state.deal is None:
            self.tensor.fill(0.0)
        else:
            state.deal.write_observation(player, self.tensor)

    def string_from(self, state: KafenioSpielState, player: int) -> str:
        """The information-state string (perfect recall) or the view as JSON."""
        if state.deal is None:
            return "deal not yet chosen"
        if self.perfect_recall:
            return state.deal.information_state_string(player)
        return json.dumps(state.deal.view(player), sort_keys=True)


def register(games: list[str] | None = None) -> list[str]:
    """Register kafenio games with pyspiel (idempotent).

    Args:
        games: kafenio game names; default every available game that loads (a game module
            still being written, without ``GAME``, is skipped).

    Returns:
        the OpenSpiel names (``kafenio_<game>``) now registered.

    Raises:
        RulesError: a named game that is unknown.
    """
    names = []
    registered = set(pyspiel.registered_names())
    for name in games or available_games():
        try:
            default = load_game(name)
        except (AttributeError, ImportError):
            if games:
                raise
            continue
        spiel_name = short_name(name)
        if spiel_name not in registered:
            # a class, not a closure: pyspiel keeps the factory past the interpreter's shutdown,
            # and releasing a closure then aborts the process
            factory = type(f"KafenioSpielGame_{name}", (KafenioSpielGame,), {"kafenio_name": name})
            pyspiel.register_game(game_type(name, default), factory)
        names.append(spiel_name)
    return names
