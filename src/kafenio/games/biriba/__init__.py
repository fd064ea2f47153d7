"""Biriba (Μπιρίμπα): the game, its rules and its deal state (``shared/rules/biriba.md``).

``GAME = BiribaGame``; ``kafenio.load_game("biriba", preset=…)`` builds it. The turn machine,
legality and the action space are the rummy core's (:mod:`kafenio.rummy.state`,
:mod:`kafenio.rummy.legal`, :mod:`kafenio.rummy.actions`, ids ``0 … BIRIBA_ACTIONS−1``); this
module adds what is Biriba's own: the deal with the kozi up-card, the solo forms' trigger, the
biriba bonuses (:mod:`.scoring`) and the options and presets (:mod:`.rulebook`). The view's
keys are documented in ``docs/views-rummy.md``.

>>> import kafenio
>>> state = kafenio.load_game("biriba").new_initial_state(seed=1)
>>> state.current_player(), state.action_to_string(state.legal_actions()[0])
(3, 'draw')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kafenio.cards import JOKER, RANK, SUIT, SUITS, format_card, make_deck
from kafenio.engine.game import Game
from kafenio.games.biriba.rulebook import CARD_VALUE_TABLES, INITIAL_MELD_TABLES, RULEBOOK
from kafenio.games.biriba.scoring import BIRIBA_LEN, meld_bonus, side_sheet
from kafenio.i18n import _
from kafenio.rummy import actions as A
from kafenio.rummy.melds import Meld, MeldRules
from kafenio.rummy.scoring import side_total, target_winner, value_table
from kafenio.rummy.state import P_SETUP, RummyState, TurnRules, one_hot

__all__ = ["GAME", "BiribaGame", "BiribaState"]

SECTIONS = {"setup": "§2.2", "turn": "§3", "melds": "§4", "wilds": "§4.1", "layoff": "§4.5",
            "opening": "§4.7",
            "pot": "§5", "close": "§6", "stock": "§7"}
KOZI_ACTIONS = [A.KOZI + s for s in range(4)]


class BiribaState(RummyState):
    """One Biriba deal (see :mod:`kafenio.rummy.state` for the turn structure)."""

    big_name = "biriba"

    def _deal(self, deck: list[int], order: list[int]) -> None:
        """biriba.md §2.2: hands, then the biribakia, then the up-card (the kozi)."""
        r = self.rules
        pos = 0
        for _round in range(r.hand_size):
            for seat in order:
                self.hands[seat][deck[pos]] += 1
                pos += 1
        for size in r.biribaki_sizes:
            self.pots.append(deck[pos:pos + size])
            pos += size
        up = deck[pos]
        self.stock = deck[pos + 1:][::-1]          # pop() takes the top card
        self.up_card = up
        self.kozi_suit: int | None = None
        self.kozi_rank: int | None = None
        if up == JOKER:
            self.hands[order[0]][JOKER] += 1
            if r.kozi_mode != "none":
                self.phase = P_SETUP
        else:
            self.pile.append(up)
            if r.kozi_mode != "none":
                self.kozi_suit = SUIT[up]
                self.kozi_rank = RANK[up]

    def setup_actions(self) -> list[int]:
        return KOZI_ACTIONS + ([A.KOZI_NONE] if self.rules.kozi_joker_allows_none else [])

    def setup_problem(self, action: int) -> str:
        if action == A.KOZI_NONE:
            return _("these rules do not allow naming no kozi")
        return _("the first player must first name the kozi suit")

    def _apply_setup(self, action: int) -> None:
        if action != A.KOZI_NONE:
            self.kozi_suit = action - A.KOZI
        self._start_turn()

    def phase_name(self) -> str:
        return ("kozi", "draw", "play", "end")[self.phase]

    def meld_bonus(self, meld: Meld) -> tuple[int, str]:
        return meld_bonus(meld, self.rules, self.kozi_suit,
                          self.kozi_rank if self.kozi_suit is not None else None)

    def _side_sheet(self, side, seats, hands, pot, unplayed) -> dict[str, Any]:
        return side_sheet(self.rules, side, seats, self.melds[side], hands, pot,
                          self.closed_by == side, unplayed, self.kozi_suit,
                          self.kozi_rank if self.kozi_suit is not None else None)

    def _bonus_key(self) -> Any:
        return (self.game, self.kozi_suit, self.kozi_rank)

    def _side_total(self, side, hand_points, pot, unplayed) -> int:
        melds = bonuses = 0
        for m in self.melds[side]:
            points, bonus = self._meld_points(m)
            melds += points
            bonuses += bonus
        r = self.rules
        return side_total(melds, bonuses, hand_points, pot, self.closed_by == side, values=self.values,
                          closing_bonus=r.closing_bonus, untaken_penalty=r.untaken_biribaki_penalty,
                          unplayed_flat=not self.unplayed_at_values(), unplayed=unplayed)

    def unplayed_at_values(self) -> bool:
        """§8.3 ``unplayed_biribaki_penalty``."""
        return self.rules.unplayed_biribaki_penalty == "card_values"

    def _view_extra(self, seat: int | None, out: dict[str, Any]) -> None:
        out["kozi"] = SUITS[self.kozi_suit] if self.kozi_suit is not None else None
        out["up_card"] = format_card(self.up_card)

    def _obs_tail(self) -> list[float]:
        kozi = one_hot(self.kozi_suit if self.kozi_suit is not None else 4, 5)
        return [*one_hot(self.phase, 4), *kozi]


class BiribaGame(Game):
    """Biriba with a validated rule set (biriba.md §11; ``kafenio.load_game("biriba", …)``)."""

    name = "biriba"
    rulebook = RULEBOOK
    state_class = BiribaState

    def __init__(self, rules):
        super().__init__(rules)
        self.meld_rules = MeldRules.from_rules(rules)
        self.card_values = value_table(rules.card_values, CARD_VALUE_TABLES)
        r = rules
        stock_rule = r.stock_exhausted_rule
        self.turn_rules = TurnRules(
            spec="biriba.md", sections=SECTIONS, big=BIRIBA_LEN,
            pot_needs_big=r.biriba_required_for_biribaki,
            close_needs_clean=r.closing_requirement == "clean_biriba",
            close_requires_discard=r.closing_requires_discard,
            pickup=r.discard_pickup_requirement, single_pickup=r.single_card_pickup_restriction,
            rediscard_ban=r.single_card_pile_rediscard_ban,
            solo_sides=r.partnership_mode in ("solo_vs_pair", "solo_vs_two_pairs"),
            stock_rule=stock_rule, pot_to_stock=r.untaken_biribaki_to_stock,
            stock_empty_turn_limit=r.stock_empty_turn_limit, deal_turn_limit=r.deal_turn_limit,
            opening_bands=INITIAL_MELD_TABLES[r.initial_meld_table],
            whole_hand_first_meld=r.whole_hand_first_meld)

    @property
    def num_sides(self) -> int:
        """Match sides: the pairs, or every player (individual and the solo forms, §10.3, §10.4)."""
        if self.rules.partnership_mode == "teams_of_two":
            return self.num_players() // 2
        return self.num_players()

    def side_of(self, seat: int) -> int:
        return seat % self.num_sides

    def deal_sides(self) -> list[list[int]]:
        """The deal's sides as seat lists (the solo form starts with one side per player)."""
        n = self.num_players()
        if self.rules.partnership_mode == "teams_of_two":
            k = n // 2
            return [[s for s in range(n) if s % k == i] for i in range(k)]
        return [[s] for s in range(n)]

    def num_distinct_actions(self) -> int:
        return A.BIRIBA_ACTIONS

    def full_deck(self) -> list[int]:
        r = self.rules
        deck = make_deck(r.deck_count, 0)
        return deck + [JOKER] * (r.deck_count * r.jokers_per_deck)

    def next_dealer(self, dealer: int) -> int:
        """§2.1: with the play (default) or clockwise."""
        if self.rules.dealer_rotation == "clockwise":
            return (dealer + 1) % self.num_players()
        return super().next_dealer(dealer)

    def match_winner(self, totals: Sequence[float], deals_won: Sequence[int],
                     deals_played: int) -> int | None:
        """§9: once a total passes the target, the strictly highest total wins; a tie plays on."""
        return target_winner(self.rules, totals)


GAME = BiribaGame
