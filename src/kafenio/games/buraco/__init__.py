"""Buraco (Brazil) and Burraco (Italy): the game, its rules and its deal state
(``shared/rules/buraco.md``).

``GAME = BuracoGame``; ``kafenio.load_game("buraco", preset=…)`` builds it (base presets
``brazilian_4p`` (default), ``brazilian_2p``, ``italian_4p``, ``italian_3p``, ``italian_2p``,
``ludopoli_4p``;
modifiers ``fechado``, ``stbl`` (alias ``fechado_stbl``), ``no_vulnerability``,
``international_pickup``, ``royal_canastras``, ``semi_clean_150``, ``melds_negative_without_clean``,
``stalemate_draw``, ``canastra_online_2p``). The turn machine, legality and the
action space are the rummy core's, shared with Biriba (:mod:`kafenio.rummy.state`,
:mod:`kafenio.rummy.legal`, :mod:`kafenio.rummy.actions`); this module adds the Buraco deal
(pots first, optional up-card), the exact cut, the canastra bonuses (:mod:`.scoring`) and the
options and presets (:mod:`.rulebook`). Three players (``italian_3p``, §5) use the core's solo
form: every player melds alone until the first to take a pot (the 18-card one) becomes the solo
and the other two a pair (:meth:`~kafenio.rummy.state.RummyState.make_solo`).

**Exact cut** (§2, README §4): with ``exact_cut_bonus`` set, each deal starts with a set-up step
in which the player to the dealer's right (the cutter) states the cut size as the action
``cut n`` (``n`` = 1 … 107; the deck order is not changed, the canonical deal stands). A cut of
exactly ``pot_size × 2`` = 22 cards scores the bonus for the cutter's side at once: it counts
towards that side's opening minimum (§4.6) and appears as ``cut`` in the deal's score sheet
(added to the match total with the deal). A user interface may ask for a number and add noise.

>>> import kafenio
>>> state = kafenio.load_game("buraco").new_initial_state(seed=1)
>>> state.current_player(), len(state.stock), [len(p) for p in state.pots]
(1, 42, [11, 11])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kafenio.cards import JOKER, format_card, make_deck
from kafenio.engine.game import Game
from kafenio.games.buraco.rulebook import CARD_VALUE_TABLES, RULEBOOK, opening_bands
from kafenio.games.buraco.scoring import CANASTRA_LEN, canastra_bonus, side_sheet, untaken_penalty
from kafenio.i18n import _
from kafenio.rummy import actions as A
from kafenio.rummy.melds import Meld, MeldRules
from kafenio.rummy.scoring import side_total, target_winner, value_table
from kafenio.rummy.state import P_SETUP, RummyState, TurnRules, one_hot

__all__ = ["GAME", "BuracoGame", "BuracoState"]

def pot_sizes(rules: Any) -> tuple[int, ...]:
    """The pots' sizes, #1 first (buraco.md §2): two of ``pot_size``; 18 and 11 with 3 players."""
    return (18, 11) if rules.num_players == 3 else (rules.pot_size, rules.pot_size)


SECTIONS = {"setup": "§2", "turn": "§3", "melds": "§4", "wilds": "§4.1", "layoff": "§4.5", "opening": "§4.6",
            "pot": "§5", "close": "§6", "stock": "§7"}
CUT_ACTIONS = list(range(A.CUT, A.NUM_ACTIONS))


class BuracoState(RummyState):
    """One Buraco deal (see :mod:`kafenio.rummy.state` for the turn structure)."""

    big_name = "canastra"

    def _deal(self, deck: list[int], order: list[int]) -> None:
        """§2 canonical deal: the pots (#1 first; 18 and 11 cards with 3 players), 11 cards each
        from the first player, the up-card (``initial_upcard``), the stock."""
        r = self.rules
        pos = 0
        for size in pot_sizes(r):
            self.pots.append(deck[pos:pos + size])
            pos += size
        for _round in range(11):
            for seat in order:
                self.hands[seat][deck[pos]] += 1
                pos += 1
        if r.initial_upcard:
            self.up_card = deck[pos]
            self.pile.append(deck[pos])
            pos += 1
        self.stock = deck[pos:][::-1]              # pop() takes the top card
        self.cut: int | None = None
        if r.exact_cut_bonus is not None:
            self.phase = P_SETUP
            self.current = self.cutter

    @property
    def cutter(self) -> int:
        """The player to the dealer's right (README §3), who makes the pots (§2)."""
        return (self.dealer - 1) % self.n

    def setup_actions(self) -> list[int]:
        return CUT_ACTIONS

    def setup_problem(self, action: int) -> str:
        return _("the cutter must first state the cut: cut 1 … cut {n}").format(n=A.MAX_CUT)

    def _apply_setup(self, action: int) -> None:
        self.cut = action - A.CUT + 1
        if self.cut == sum(pot_sizes(self.rules)):
            self.cut_points[self.side_of[self.current]] += self.rules.exact_cut_bonus
        self.current = (self.dealer + self.dir) % self.n
        self._start_turn()

    def phase_name(self) -> str:
        return ("cut", "draw", "play", "end")[self.phase]

    def meld_bonus(self, meld: Meld) -> tuple[int, str]:
        return canastra_bonus(meld, self.rules)

    def _side_sheet(self, side, seats, hands, pot, unplayed) -> dict[str, Any]:
        return side_sheet(self.rules, side, seats, self.melds[side], hands, pot,
                          self.closed_by == side, unplayed, self.cut_points[side],
                          not any(self.pot_taken))

    def _bonus_key(self) -> Any:
        """The totals also depend on whether any side took its pot (§8
        ``untaken_pot_penalty_if_none_taken``)."""
        return (self.game, any(self.pot_taken))

    def _side_total(self, side, hand_points, pot, unplayed) -> int:
        melds = bonuses = 0
        clean = False
        for m in self.melds[side]:
            points, bonus = self._meld_points(m)
            melds += points
            bonuses += bonus
            clean = clean or (len(m.cards) >= CANASTRA_LEN and m.clean)
        r = self.rules
        return side_total(melds, bonuses, hand_points, pot, self.closed_by == side, values=self.values,
                          closing_bonus=r.going_out_bonus,
                          untaken_penalty=untaken_penalty(r, not any(self.pot_taken)),
                          unplayed_flat=not self.unplayed_at_values(), unplayed=unplayed,
                          melds_negative=r.no_clean_canastra_melds_negative and not clean
                          ) + self.cut_points[side]

    def unplayed_at_values(self) -> bool:
        """§8 ``unplayed_pot_penalty``."""
        return self.rules.unplayed_pot_penalty == "card_values"

    def _view_extra(self, seat: int | None, out: dict[str, Any]) -> None:
        r = self.rules
        out["pot_name"] = "pozzetto" if r.card_values == "italian" else "morto"
        out["up_card"] = None if self.up_card is None else format_card(self.up_card)
        out["discard_pile_size"] = len(self.pile)
        if r.discard_pile_visibility == "top_only":
            out["discard_pile"] = out["discard_pile"][-1:]
        out["cut"] = None if r.exact_cut_bonus is None else {
            "cutter": self.cutter, "size": self.cut, "points": list(self.cut_points)}

    def _obs_tail(self) -> list[float]:
        """The phase and each deal side's exact-cut points ÷ 100, one slot per match side (the
        three players' deal sides become two when the solo is known, §5)."""
        cuts = [p / 100 for p in self.cut_points]
        return [*one_hot(self.phase, 4), *cuts, *[0.0] * (self.game.num_sides - len(cuts))]


class BuracoGame(Game):
    """Buraco with a validated rule set (buraco.md §10–§11; ``kafenio.load_game("buraco", …)``)."""

    name = "buraco"
    rulebook = RULEBOOK
    state_class = BuracoState

    def __init__(self, rules):
        super().__init__(rules)
        self.meld_rules = MeldRules.from_rules(rules, "buraco")
        self.card_values = value_table(rules.card_values, CARD_VALUE_TABLES)
        r = rules
        threshold = r.stock_exhausted_rule == "end_at_threshold"
        self.turn_rules = TurnRules(
            spec="buraco.md", sections=SECTIONS, big=CANASTRA_LEN, pot_needs_big=False,
            close_needs_clean=r.going_out_requirement == "clean_canastra",
            close_requires_discard=r.going_out_requires_discard,
            final_discard_may_be_wild=r.final_discard_may_be_wild,
            pickup=r.discard_pickup_requirement,
            wild_top_new_meld_only=r.wild_top_card_new_meld_only,
            one_card_hand_no_pickup=r.one_card_hand_no_pickup,
            rediscard_ban="same_card" if r.single_card_pile_not_rediscardable else "none",
            stock_rule="end_at_threshold" if threshold else "end_when_empty",
            pot_to_stock=not threshold, stock_end_threshold=r.stock_end_threshold,
            deal_turn_limit=r.deal_turn_limit,
            opening_bands=opening_bands(r),
            opening_increment=r.initial_meld_failure_increment,
            first_draw_may_reject=r.first_draw_may_reject, stalemate=r.stalemate_rule,
            pot_face_down=True, solo_sides=r.num_players == 3)

    @property
    def num_sides(self) -> int:
        """Match sides: the partnerships {0, 2} and {1, 3}, the two players, or each of three
        players (``italian_3p``: the pair of a deal is temporary, §5)."""
        return 3 if self.num_players() == 3 else 2

    def side_of(self, seat: int) -> int:
        return seat % self.num_sides

    def deal_sides(self) -> list[list[int]]:
        """The deal's sides as seat lists (three players start alone, §5)."""
        k = self.num_sides
        return [[s for s in range(self.num_players()) if s % k == i] for i in range(k)]

    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    def full_deck(self) -> list[int]:
        return make_deck(2, 0) + [JOKER] * self.rules.jokers

    def match_winner(self, totals: Sequence[float], deals_won: Sequence[int],
                     deals_played: int) -> int | None:
        """§9: once a total reaches the target (``target_comparison``), the strictly highest
        total wins; a shared highest total plays another deal."""
        return target_winner(self.rules, totals)


GAME = BuracoGame
