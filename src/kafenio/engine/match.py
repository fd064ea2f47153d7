"""A match: deals to the target score, with the dealer rotating (each game's "End of the match").

The match seed fixes every deal: deal ``i`` is shuffled with :func:`deal_seed` ``(seed, i)`` and
the first dealer is drawn from the seed too, so a record holding the seed and the actions
replays the whole match.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, State
from kafenio.i18n import _


def deal_seed(match_seed: int, index: int) -> int:
    """The shuffle seed of deal ``index`` (0-based) of the match with ``match_seed``."""
    digest = hashlib.sha256(f"kafenio:{match_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class DealResult:
    """A finished deal: its dealer, each side's score and the itemised sheet."""

    index: int
    dealer: int
    scores: list[float]
    sheet: dict[str, Any]
    actions: list[int]


@dataclass
class Match:
    """A running match.

    Args:
        game: the game and its rules.
        seed: the match seed; ``None`` draws a secret one (it never leaves the engine's owner).
        first_dealer: the first dealer; ``None`` draws it from the seed (rules: "chosen at random").
    """

    game: Game
    seed: int | None = None
    first_dealer: int | None = None
    totals: list[float] = field(init=False)
    deals: list[DealResult] = field(init=False, default_factory=list)
    deals_won: list[int] = field(init=False)
    dealer: int = field(init=False)
    winner: int | None = field(init=False, default=None)
    state: State | None = field(init=False, default=None)
    carry: dict[str, Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.seed is None:
            self.seed = secrets.randbits(63)
        if self.first_dealer is None:
            self.first_dealer = deal_seed(self.seed, -1) % self.game.num_players()
        self.dealer = self.first_dealer
        self.totals = [0] * self.game.num_sides
        self.deals_won = [0] * self.game.num_sides

    @property
    def is_over(self) -> bool:
        """True once a side has won."""
        return self.winner is not None

    def start_deal(self) -> State:
        """Deal the next deal and return its state.

        Raises:
            KafenioError: the match is over, or the current deal is not finished.
        """
        if self.is_over:
            raise KafenioError(_("the match is over"))
        if self.state is not None and not self.state.is_terminal():
            raise KafenioError(_("the current deal is not finished"))
        index = len(self.deals)
        self.state = self.game.new_initial_state(seed=deal_seed(self.seed, index), dealer=self.dealer,
                                                 match_scores=list(self.totals), carry=self.carry)
        return self.state

    def finish_deal(self) -> DealResult:
        """Add the finished deal's scores to the totals, rotate the dealer, decide the winner.

        Raises:
            KafenioError: the deal is not over.
        """
        state = self.state
        if state is None or not state.is_terminal():
            raise KafenioError(_("the deal is not finished"))
        scores = state.side_scores()
        result = DealResult(len(self.deals), self.dealer, scores, state.score_sheet(),
                            list(state.history))
        self.deals.append(result)
        self.carry = state.carry_out()
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        best = max(scores)
        if scores.count(best) == 1:
            self.deals_won[scores.index(best)] += 1
        self.winner = self.game.match_outcome(self.totals, self.deals_won, len(self.deals), self.carry)
        self.dealer = self.game.next_dealer(self.dealer)
        self.state = None
        return result
