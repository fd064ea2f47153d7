"""Biriba (Μπιρίμπα): the game, its rules and its deal state (``shared/rules/biriba.md``).

``GAME = BiribaGame``; ``kafenio.load_game("biriba", preset=…)`` builds it. The action space
and its notation are in :mod:`kafenio.games.biriba.actions`, the turn state machine in
:mod:`.state`, legality in :mod:`.legal`, scoring in :mod:`.scoring`, the options and
presets in :mod:`.rulebook`. The view's keys are documented in ``docs/views-rummy.md``.

>>> import kafenio
>>> state = kafenio.load_game("biriba").new_initial_state(seed=1)
>>> state.current_player(), state.action_to_string(state.legal_actions()[0])
(3, 'draw')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from kafenio.cards import JOKER, NUM_TYPES, SUITS, format_card, format_cards, make_deck
from kafenio.engine.errors import IllegalAction
from kafenio.engine.game import TERMINAL, Game, State
from kafenio.games.biriba import actions as A
from kafenio.games.biriba.legal import explain_illegal, legal_actions
from kafenio.games.biriba.rulebook import RULEBOOK
from kafenio.games.biriba.scoring import BIRIBA_LEN, meld_bonus, value_table
from kafenio.games.biriba.state import P_END, PHASES, DealCore, shuffle_unknown
from kafenio.rummy.melds import MeldRules

__all__ = ["GAME", "BiribaGame", "BiribaState"]


class BiribaState(DealCore, State):
    """One Biriba deal (see :mod:`kafenio.games.biriba.state` for the turn structure)."""

    def __init__(self, game: BiribaGame, deck: list[int], dealer: int, match_scores: list[float]):
        State.__init__(self, game, deck, dealer, match_scores)
        self._setup(deck)

    # -- contract ------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == P_END else self.current

    def legal_actions(self) -> list[int]:
        cache = self._legal_cache
        if cache is not None and cache[0] == self.version:
            return cache[1]
        legal = legal_actions(self)
        self._legal_cache = (self.version, legal)
        return legal

    def explain_illegal(self, action: int) -> IllegalAction:
        return explain_illegal(self, action)

    def is_terminal(self) -> bool:
        return self.phase == P_END

    def side_scores(self) -> list[float]:
        """Per match side (biriba.md §8; §10.3: the pair's players get half each)."""
        sheet = self.deal_score_sheet()["sides"]
        if not self.solo_mode:
            return [s["total"] for s in sheet]
        if self.solo is None:
            return [sheet[s]["total"] for s in range(self.n)]
        return [sheet[0]["total"] if s == self.solo else sheet[1]["total"] / 2 for s in range(self.n)]

    def score_sheet(self) -> dict[str, Any]:
        """Itemised per deal side: ``{"sides": [{"side", "seats", "melds", "bonuses", "closing",
        "hands", "pot", "pot_points", "total"}, …]}`` (biriba.md §8)."""
        return self.deal_score_sheet()

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return A.to_string(action)

    def string_to_action(self, text: str) -> int:
        return A.from_string(text)

    def clone(self) -> BiribaState:
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        d["hands"] = [h[:] for h in self.hands]
        d["known"] = [h[:] for h in self.known]
        for key in ("hand_size", "stock", "pile", "pots", "pot_taken", "opened", "unplayed",
                    "unplayed_cards", "side_of", "building", "history"):
            d[key] = d[key][:]
        d["melds"] = [m[:] for m in self.melds]
        d["sides"] = [s[:] for s in self.sides]
        if self.pile_types is not None:
            d["pile_types"] = set(self.pile_types)
        new.__dict__ = d
        return new

    def resample_from_infostate(self, seat: int, rng: random.Random) -> BiribaState:
        """A determinization: only the cards ``seat`` cannot know move (other hands minus the
        cards known from pile pick-ups, the stock, the pots). Its ``serialize()`` is not a
        replayable record (the deck it would need is not reconstructed)."""
        new = self.clone()
        shuffle_unknown(new, seat, rng)
        new.version += 1
        return new

    # -- views -----------------------------------------------------------------------------
    def _meld_view(self, meld) -> dict[str, Any]:
        bonus, _why = meld_bonus(meld, self.rules, self.kozi_suit,
                                 self.kozi_rank if self.kozi_suit is not None else None)
        return {"cards": meld.notation(), "kind": meld.kind, "clean": meld.clean,
                "biriba": len(meld.cards) >= BIRIBA_LEN, "bonus": bonus}

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator); keys in ``docs/views-rummy.md``."""
        hand = [] if seat is None else format_cards(
            [c for c in range(NUM_TYPES) for _i in range(self.hands[seat][c])]).split()
        out = {
            "game": "biriba", "seat": seat, "num_players": self.n, "dealer": self.dealer,
            "current_player": self.current_player(), "phase": PHASES[self.phase],
            "match_scores": list(self.match_scores), "sides": [list(s) for s in self.sides],
            "hand": hand, "hand_sizes": list(self.hand_size), "stock": len(self.stock),
            "discard_pile": [format_card(c) for c in self.pile],
            "melds": [[self._meld_view(m) for m in ms] for ms in self.melds],
            "pots": {"left": [len(p) for p in self.pots], "taken": list(self.pot_taken)},
            "pot_taken": list(self.pot_taken),
            "kozi": SUITS[self.kozi_suit] if self.kozi_suit is not None else None,
            "up_card": format_card(self.up_card),
            "known_cards": [format_cards(c for c in range(NUM_TYPES) for _i in range(k[c])).split()
                            for k in self.known],
            "turn": {"drawn": self.phase == 2, "building": [format_card(c) for c in self.building],
                     "provisional_points": self.provisional_points(self.current),
                     "opening_minimum": self.opening_minimum(self.current),
                     "opening_pending": self.opening_pending(self.current),
                     "pile_card_to_use": self.pile_types is not None},
            "solo": self.solo, "turns": self.turns,
            "last_action": None if self.last_action is None else A.to_string(self.last_action),
            "terminal": self.is_terminal(),
        }
        if self.is_terminal():
            out["deal_scores"] = self.side_scores()
            out["score_sheet"] = self.score_sheet()
        return out

    def observation_tensor(self, seat: int) -> np.ndarray:
        """float32: own hand (53) · building (53) · pile counts (53) · pile top (53) · melds per
        deal side from ``seat``'s side on (53 each, up to ``num_players``) · known cards per
        other seat in play order (53 each) · hand sizes · stock · pots left · pots taken ·
        phase (4) · kozi (5) · match scores / 1000 (per match side)."""
        n = self.n
        parts = [self.hands[seat], _counts(self.building), _counts(self.pile),
                 _one_hot(self.pile[-1] if self.pile else None, NUM_TYPES)]
        my_side = self.side_of[seat]
        ns = len(self.sides)
        for i in range(n):
            side = (my_side + i) % ns
            parts.append(_counts(c for m in self.melds[side] for c in m.cards) if i < ns
                         else [0] * NUM_TYPES)
        for i in range(1, n):
            parts.append(self.known[(seat + self.dir * i) % n])
        sizes = [self.hand_size[(seat + self.dir * i) % n] for i in range(n)]
        taken = [float(self.pot_taken[(my_side + i) % ns]) if i < ns else 0.0 for i in range(n)]
        kozi = _one_hot(self.kozi_suit, 5) if self.kozi_suit is not None else _one_hot(4, 5)
        tail = [*sizes, len(self.stock), len(self.pots), *taken, *_one_hot(self.phase, 4), *kozi,
                *(s / 1000 for s in self.match_scores)]
        return np.asarray([x for p in parts for x in p] + tail, dtype=np.float32)

    def information_state_string(self, seat: int) -> str:
        """Perfect recall: ``seat``'s dealt hand, the up-card, then every action in order with
        the card ``seat`` drew, the pile contents taken and pots picked up by ``seat``."""
        replay = self.game.new_initial_state(deck=self._deck, dealer=self.dealer,
                                             match_scores=self.match_scores)
        hand = replay.hands[seat]
        lines = [f"seat {seat} hand {format_cards(c for c in range(NUM_TYPES) for _i in range(hand[c]))}",
                 f"up {format_card(replay.up_card)}"]
        for action in self.history:
            who = replay.current
            text = f"{who}: {A.to_string(action)}"
            if action == A.TAKE:
                text += " [" + format_cards(replay.pile) + "]"
            pot = replay.pots[0] if replay.pots else []
            taken = sum(replay.pot_taken)
            if action == A.DRAW and who == seat:
                text += " " + format_card(replay.stock[-1])
            replay._apply(action)
            if sum(replay.pot_taken) > taken and who == seat:
                text += " pot [" + format_cards(pot) + "]"
            lines.append(text)
        lines.append(f"hand {format_cards(c for c in range(NUM_TYPES) for _i in range(self.hands[seat][c]))}")
        return "\n".join(lines)


def _counts(cards) -> list[int]:
    out = [0] * NUM_TYPES
    for c in cards:
        out[c] += 1
    return out


def _one_hot(i: int | None, n: int) -> list[float]:
    out = [0.0] * n
    if i is not None:
        out[i] = 1.0
    return out


class BiribaGame(Game):
    """Biriba with a validated rule set (biriba.md §11; ``kafenio.load_game("biriba", …)``)."""

    name = "biriba"
    rulebook = RULEBOOK
    state_class = BiribaState

    def __init__(self, rules):
        super().__init__(rules)
        self.meld_rules = MeldRules.from_rules(rules)
        self.card_values = value_table(rules.card_values)

    @property
    def num_sides(self) -> int:
        """Match sides: the pairs, or every player (individual and the 3-player solo form)."""
        if self.rules.partnership_mode == "teams_of_two":
            return self.num_players // 2
        return self.num_players

    def side_of(self, seat: int) -> int:
        return seat % self.num_sides

    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    def full_deck(self) -> list[int]:
        r = self.rules
        deck = make_deck(r.deck_count, 0)
        return deck + [JOKER] * (r.deck_count * r.jokers_per_deck)

    def next_dealer(self, dealer: int) -> int:
        """§2.1: with the play (default) or clockwise."""
        if self.rules.dealer_rotation == "clockwise":
            return (dealer + 1) % self.num_players
        return super().next_dealer(dealer)

    def match_winner(self, totals: Sequence[float], deals_won: Sequence[int]) -> int | None:
        """§9: once a total passes the target, the strictly highest total wins; a tie plays on."""
        target = self.rules.target_score
        over = [t > target if self.rules.target_comparison == "greater" else t >= target
                for t in totals]
        if not any(over):
            return None
        best = max(totals)
        return totals.index(best) if list(totals).count(best) == 1 else None


GAME = BiribaGame
