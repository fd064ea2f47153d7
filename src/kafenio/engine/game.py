"""The engine contract every game implements (``shared/DESIGN.md``, "The engine contract").

Shaped after OpenSpiel: a :class:`Game` holds the validated rules and makes states; a
:class:`State` is one **deal**, advanced by integer actions from a fixed-size action space. The
deal itself is not a chance node: ``new_initial_state(seed=…)`` fixes the whole deck order (an
explicit ``deck=`` list does the same), so a deal replays exactly from its seed and its actions.

Only two doors lead out of a state: :meth:`State.view` (what one seat may know) and the record
(:mod:`kafenio.engine.records`). Players receive a :class:`Seat`, which offers nothing else.

Player ids follow ``pyspiel.PlayerId``: :data:`TERMINAL` (−4) when the deal is over.
"""

from __future__ import annotations

import json
import random
from _abc import _abc_init
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.engine.rules import RuleBook, Rules
from kafenio.i18n import _, n_, number
from kafenio.words import cards_count

CHANCE = -1
TERMINAL = -4
#: :meth:`Game.match_winner`'s answer for a match the rules end drawn
DRAWN_MATCH = -1


def own_abc_caches(*classes: type) -> None:
    """Give each compiled class its own :class:`abc.ABCMeta` caches. mypyc builds a class without
    ``ABCMeta.__new__``, so a subclass of :class:`Game` or :class:`State` would share its abstract
    base's caches, and ``isinstance(game, SomeGame)`` could answer for another class it saw
    first; every module of compiled classes calls this on them (for a plain class: the same caches
    made anew)."""
    for cls in classes:
        _abc_init(cls)


class PlayerCount(int):
    """The number of seats, called as a method (``game.num_players()``); read as a number it is
    the deprecated property of earlier releases."""

    def __call__(self) -> int:
        return int(self)


class Game(ABC):
    """A game with its rules: makes deals, knows the seats, sides and the match rules.

    Subclasses set :attr:`name`, :attr:`rulebook` and :attr:`state_class`, and may override the
    match hooks :meth:`next_dealer` and :meth:`match_winner`.
    """

    name: ClassVar[str]
    rulebook: ClassVar[RuleBook]
    state_class: ClassVar[type[State]]

    def __init__(self, rules: Rules):
        self.rules = rules

    # -- seats and sides ---------------------------------------------------------------
    @property
    def num_players(self) -> PlayerCount:
        """``game.num_players()``: seats at the table (a method, as OpenSpiel's ``num_players()``
        and :meth:`num_distinct_actions`). Deprecated: read without the call it still gives the
        number, for one release."""
        return PlayerCount(self.rules.num_players)

    @property
    @abstractmethod
    def num_sides(self) -> int:
        """Scoring units of the match: partnerships, or single players in individual play."""

    @abstractmethod
    def side_of(self, seat: int) -> int:
        """The side (``0 … num_sides−1``) that ``seat`` scores for over the match."""

    def seats_of(self, side: int) -> list[int]:
        """The seats of ``side``."""
        return [s for s in range(self.num_players()) if self.side_of(s) == side]

    # -- actions ---------------------------------------------------------------------------
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the fixed action space: every action id is in ``0 … n−1``."""

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """Shape of :meth:`State.observation_tensor` (fixed by the rules; computed once)."""
        shape = self.__dict__.get("_observation_shape")
        if shape is None:
            shape = self._observation_shape = self.new_initial_state(seed=0).observation_tensor(0).shape
        return shape

    # -- deals -----------------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = None, deck: Sequence[int] | None = None, *,
                          dealer: int = 0, match_scores: Sequence[float] | None = None,
                          carry: Mapping[str, Any] | None = None, **deal: Any) -> State:
        """A new deal, cards dealt (``README.md`` §4: index 0 of the deck is the top card).

        Args:
            seed: fixes the shuffle; ``None`` draws one from the OS (``secrets``).
            deck: an explicit deck order (card types); fixes the deal exactly. The deck must
                hold exactly this game's cards.
            dealer: the dealer's seat.
            match_scores: each side's total before this deal (some rules depend on it).
            carry: what the previous deal handed on (:meth:`State.carry_out`), e.g. Basra's
                majority points carried over from a tied deal.
            deal: further inputs of the deal procedure that the game's state takes (the fishing
                games: ``reinsert_positions``, README §4), kept by :meth:`State.deal_inputs`.

        Raises:
            KafenioError: a deck that is not this game's deck, a dealer out of range.
        """
        if not 0 <= dealer < self.num_players():
            raise KafenioError(_("dealer must be a seat from 0 to {n}").format(n=self.num_players() - 1))
        if deck is None:
            if seed is None:
                import secrets
                seed = secrets.randbits(63)
            deck = self.shuffle(seed)
        else:
            deck = list(deck)
            expected = sorted(self.full_deck())
            if sorted(deck) != expected:
                raise KafenioError(n_("deck: expected the {n} card of {game}, got {cards} that differ",
                                      "deck: expected the {n} cards of {game}, got {cards} that differ",
                                      len(expected))
                                   .format(n=number(len(expected)), game=self.name, cards=cards_count(len(deck))))
        scores = list(match_scores) if match_scores is not None else [0] * self.num_sides
        state = self.state_class(self, deck, dealer, scores, **deal)
        state.carry_in = dict(carry or {})
        return state

    @abstractmethod
    def full_deck(self) -> list[int]:
        """Every card of this game's deck as card types (order irrelevant)."""

    def shuffle(self, seed: int) -> list[int]:
        """The deck order that ``seed`` gives."""
        deck = self.full_deck()
        random.Random(seed).shuffle(deck)
        return deck

    def deserialize_state(self, text: str) -> State:
        """Rebuild a state from :meth:`State.serialize` output by replaying its actions.

        Raises:
            KafenioError: malformed text, or an action that is not legal where it stands.
        """
        try:
            data = json.loads(text)
            deck, dealer, scores, carry, actions = (data["deck"], data["dealer"], data["match_scores"],
                                                    data["carry"], data["actions"])
            deal = dict(data.get("deal", {}))
        except (json.JSONDecodeError, KeyError, TypeError) as err:
            raise KafenioError(_("not a serialized {game} state: {err}").format(
                game=self.name, err=err)) from None
        if data.get("game") != self.name or data.get("rules") != self.rules.to_dict():
            raise KafenioError(_("serialized state is for other rules or another game"))
        state = self.new_initial_state(deck=deck, dealer=dealer, match_scores=scores, carry=carry, **deal)
        for action in actions:
            state.apply_action(action)
        return state

    # -- match -----------------------------------------------------------------------------
    def next_dealer(self, dealer: int) -> int:
        """The dealer of the next deal; by default the next seat in the direction of play."""
        return (dealer + self.direction) % self.num_players()

    @property
    def direction(self) -> int:
        """+1 for clockwise play (README §3), −1 for counterclockwise."""
        return -1 if self.rules.get("play_direction") == "counterclockwise" else 1

    @abstractmethod
    def match_winner(self, totals: Sequence[float], deals_won: Sequence[int],
                     deals_played: int) -> int | None:
        """The winning side once the match is over after a deal, :data:`DRAWN_MATCH` when the rules
        end it drawn, else ``None`` (play on).

        Args:
            totals: each side's match total.
            deals_won: deals each side won outright (a deal with a shared top score has no winner).
            deals_played: deals played so far, won or not.
        """

    def match_outcome(self, totals: Sequence[float], deals_won: Sequence[int], deals_played: int,
                      carry: Mapping[str, Any]) -> int | None:
        """:meth:`match_winner` after a deal that handed on ``carry`` (:meth:`State.carry_out`);
        a game whose match end depends on earlier deals (Basra's extended target) overrides it."""
        return self.match_winner(totals, deals_won, deals_played)


class State(ABC):
    """One deal. Subclasses implement the abstract methods; the checked entry points are here.

    Attributes:
        game: the :class:`Game`.
        dealer: the dealer's seat.
        match_scores: each side's total before this deal.
        carry_in: what the previous deal of the match handed on (empty for most games).
        history: the action ids applied so far.
    """

    def __init__(self, game: Game, deck: list[int], dealer: int, match_scores: list[float]):
        self.game = game
        self.dealer = dealer
        self.match_scores = match_scores
        self.carry_in: dict[str, Any] = {}
        self.history: list[int] = []
        self._deck = deck

    # -- to implement ------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted legal action ids of the current player (empty when terminal)."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action (unchecked: the hot path)."""

    @abstractmethod
    def explain_illegal(self, action: int) -> IllegalAction:
        """The error for an action that is not legal now, naming the rule that forbids it."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the deal is over."""

    @abstractmethod
    def side_scores(self) -> list[float]:
        """Each match side's score for this deal (final once terminal; running before)."""

    def deal_side(self, seat: int) -> int:
        """The side ``seat`` plays for in this deal as it stands (its partners share it, nobody
        else): its match side (:meth:`Game.side_of`), unless the game forms the deal's sides
        during the deal (Biriba's and Burraco's solo forms: everyone alone, then a solo against
        pairs; biriba.md §10.3, §10.4, buraco.md §5). Only equality of these numbers means
        anything."""
        return self.game.side_of(seat)

    @abstractmethod
    def score_sheet(self) -> dict[str, Any]:
        """The itemised scoring of the deal per side: JSON-ready, every line with its points."""

    @abstractmethod
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """An action in the compact notation (``draw``, ``discard KS``, ``play 7D`` …)."""

    def action_seen_by(self, action: int, seat: int | None) -> str:
        """The notation of ``action``, about to be made by the seat on turn, as ``seat`` sees it
        made (``None``: a spectator); README §8: a card the action puts face down is named to
        its player only. By default every seat sees the whole notation."""
        return self.action_to_string(action, self.current_player())

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse the compact notation.

        Raises:
            KafenioError: text that names no action (CardError for a bad card).
        """

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as a JSON-ready dict; ``None`` is a spectator."""

    @abstractmethod
    def observation_tensor(self, seat: int) -> np.ndarray:
        """The seat's observation as a new float32 vector of shape
        ``game.observation_tensor_shape()`` (layout in ``docs/observations.md``)."""

    def write_observation(self, seat: int, out: np.ndarray) -> None:
        """Write :meth:`observation_tensor` ``(seat)`` into ``out`` (float32, shape
        ``game.observation_tensor_shape()``), every slot overwritten; the learning environments
        call this with a reused buffer. By default a copy; a game with a direct writer overrides
        it (and makes :meth:`observation_tensor` allocate and call it)."""
        np.copyto(out, self.observation_tensor(seat))

    @abstractmethod
    def information_state_string(self, seat: int) -> str:
        """A perfect-recall key of the seat's information; it determines the legal actions."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @abstractmethod
    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with everything ``seat`` knows; only unknown cards move."""

    # -- provided --------------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply ``action`` for the current player after checking it is legal.

        Raises:
            IllegalAction: naming the rule (:meth:`refusal`); the state is unchanged.
        """
        if type(action) is not int or action not in self.legal_actions():
            raise self.refusal(action)
        self._apply(action)
        self.history.append(action)

    def refusal(self, action: object) -> IllegalAction:
        """The error :meth:`apply_action` raises for ``action``, the same check for every game:
        anything that is not an action id of this game (a string, ``None``, a float, a bool, an
        integer outside ``0 … num_distinct_actions−1``) is named with the type expected; an id
        that is not legal now gets :meth:`explain_illegal`'s rule."""
        n = self.game.num_distinct_actions()
        if type(action) is not int or not 0 <= action < n:
            return IllegalAction(_("DESIGN.md, the engine contract"), _(
                "{game} expects an action id, an integer from 0 to {last}; got {kind}").format(
                game=self.game.name, last=n - 1, kind=type(action).__name__), action)
        return self.explain_illegal(action)

    def apply_string(self, text: str) -> int:
        """Parse and apply an action in the compact notation; returns its id.

        Raises:
            KafenioError: unparsable text, or IllegalAction; the state is unchanged.
        """
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    def child(self, action: int) -> State:
        """A copy with ``action`` applied."""
        copy = self.clone()
        copy.apply_action(action)
        return copy

    def legal_actions_mask(self, player: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """int8 mask of shape ``(num_distinct_actions,)``, 1 for a legal action of ``player``
        (default: the player on turn); all zeros for a seat not on turn.

        Args:
            player: the seat asking (``None``: whoever is on turn).
            out: a contiguous int8 array of that shape to overwrite and return (a reused
                buffer) instead of a new one.
        """
        if out is None:
            out = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        else:
            out.fill(0)
        if player is None or player == self.current_player():
            bits = memoryview(out).cast("B")    # a few ids: set one by one, no index array built
            for action in self.legal_actions():
                bits[action] = 1
        return out

    def carry_out(self) -> dict[str, Any]:
        """What this finished deal hands to the next deal of the match (JSON-ready; default none)."""
        return {}

    def deal_inputs(self) -> dict[str, Any]:
        """The ``deal`` keywords of :meth:`Game.new_initial_state` that replay this deal from its
        deck (JSON-ready; default none)."""
        return {}

    def returns(self) -> list[float]:
        """Per seat: its side's deal score (partners get equal values)."""
        scores = self.side_scores()
        return [scores[self.game.side_of(s)] for s in range(self.game.num_players())]

    def serialize(self) -> str:
        """The whole state as text (deck order included: engine-internal, never sent out)."""
        return json.dumps({"game": self.game.name, "rules": self.game.rules.to_dict(),
                           "deck": self._deck, "dealer": self.dealer,
                           "match_scores": self.match_scores, "carry": self.carry_in,
                           "deal": self.deal_inputs(), "actions": self.history})

    def playout(self, rng: random.Random) -> int:
        """Play uniformly random legal actions to the end of the deal; returns how many."""
        n = 0
        while not self.is_terminal():
            legal = self.legal_actions()
            action = legal[rng.randrange(len(legal))]
            self._apply(action)
            self.history.append(action)
            n += 1
        return n


class Seat:
    """The door a player (bot, human interface) gets to a deal: its own seat's knowledge only.

    It offers the seat's view, the legal actions when it is on turn, the notation, and
    determinizations (:meth:`resample`) — never another hand, the stock or the deck.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int):
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        """The game (rules, seats, sides, action space)."""
        return self._state.game

    def view(self) -> dict[str, Any]:
        """The seat's view (:meth:`State.view`)."""
        return self._state.view(self.seat)

    def is_my_turn(self) -> bool:
        """True when this seat is to act."""
        return self._state.current_player() == self.seat

    def legal_actions(self) -> list[int]:
        """The legal action ids when on turn, else ``[]``."""
        return self._state.legal_actions() if self.is_my_turn() else []

    def action_to_string(self, action: int) -> str:
        """The notation of ``action``."""
        return self._state.action_to_string(action, self.seat)

    def string_to_action(self, text: str) -> int:
        """Parse the notation (raises KafenioError)."""
        return self._state.string_to_action(text)

    def observation_tensor(self) -> np.ndarray:
        """The seat's observation tensor."""
        return self._state.observation_tensor(self.seat)

    def information_state_string(self) -> str:
        """The seat's perfect-recall information key."""
        return self._state.information_state_string(self.seat)

    def resample(self, rng: random.Random) -> State:
        """A full state consistent with this seat's knowledge (a determinization)."""
        return self._state.resample_from_infostate(self.seat, rng)
