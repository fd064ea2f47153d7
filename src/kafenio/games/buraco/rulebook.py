"""Buraco's rule options (buraco.md §10), presets (§11) and their constraints.

Every option of the §10 table is here with its default; ``check`` refuses the §10
"Constraints" with a :class:`~kafenio.engine.errors.RulesError` naming the option.
"""

from __future__ import annotations

from typing import Any

from kafenio.engine.errors import RulesError
from kafenio.engine.rules import Option, Preset, RuleBook
from kafenio.i18n import _
from kafenio.rummy.scoring import value_table

#: card point values per table (buraco.md §1); ``ludopoli`` has no joker (it needs ``jokers = 0``)
CARD_VALUE_TABLES: dict[str, dict[str, int]] = {
    "brazilian": {"joker": 20, "two": 10, "ace": 15, "high": 10, "nine": 10, "eight": 10, "low": 5},
    "italian": {"joker": 30, "two": 20, "ace": 15, "high": 10, "nine": 10, "eight": 10, "low": 5},
    "ludopoli": {"joker": 0, "two": 20, "ace": 15, "high": 10, "nine": 10, "eight": 10, "low": 5},
}

#: initial meld minimum tables (buraco.md §4.6): ascending (from score, minimum) bands
INITIAL_MELD_TABLES: dict[str, tuple[tuple[float, int], ...]] = {
    "none": (),
    "ludopoli": ((float("-inf"), 50), (1500, 75)),
}

Opt = Option
OPTIONS = [
    Opt("num_players", "int", 4, low=2, high=4, doc="players: 4 in two partnerships, or 2 alone (§1)"),
    Opt("jokers", "int", 4, low=0, high=4, doc="jokers added to the two packs: 4 or 0 (§1)"),
    Opt("card_values", "table", "brazilian", tuple(CARD_VALUE_TABLES), doc="card point values (§1)"),
    Opt("play_direction", "enum", "clockwise", ("clockwise", "counterclockwise"),
        doc="direction of play and of the deal (§2)"),
    Opt("pot_size", "int", 11, low=11, high=11, doc="cards in each pot (morto / pozzetto)"),
    Opt("initial_upcard", "bool", False, doc="a card is turned face up to start the discard pile (§2)"),
    Opt("first_draw_may_reject", "bool", False,
        doc="the first player may turn the first card drawn face up and draw the next (§3)"),
    Opt("exact_cut_bonus", "int?", None, low=0,
        doc="bonus when the cutter cuts exactly the pots' cards (22); null = off (§2)"),
    Opt("discard_pickup_requirement", "enum", "none", ("none", "use_top_card", "must_meld_this_turn"),
        doc="taking the pile: free, the top card must be used (fechado), or a meld must follow (§3)"),
    Opt("single_card_pile_not_rediscardable", "bool", True,
        doc="a one-card pile taken may not be discarded in the same turn (§3)"),
    Opt("one_card_hand_no_pickup", "bool", False, doc="a player holding one card may not take the pile (§3)"),
    Opt("discard_pile_visibility", "enum", "open", ("open", "top_only"),
        doc="every pile card is shown, or only the top card (§3)"),
    Opt("allow_sets", "bool", True, doc="sets of one rank are allowed (false: runs only, STBL) (§4.3)"),
    Opt("set_allowed_ranks", "enum", "all", ("all", "a_k_3"), doc="ranks that may form sets (§4.3)"),
    Opt("allow_duplicate_set_ranks", "bool", True, doc="a side may own two sets of the same rank (§4.3)"),
    Opt("twos_set_allowed", "bool", False, doc="a set made only of 2s is allowed (§4.1)"),
    Opt("max_wilds_per_meld", "int", 1, low=1, high=1, doc="cards used as wilds per meld (§4.1)"),
    Opt("run_ace_span", "enum", "both_ends", ("both_ends", "both_ends_one_natural", "one_end"),
        doc="ace to ace runs of 14 cards; with one natural ace only; or the ace at one end (§4.2)"),
    Opt("displaced_suited_two_goes_natural", "bool", True,
        doc="a displaced 2 of the run's suit moves to position 2 and becomes natural (§4.5)"),
    Opt("free_wild_may_move", "bool", False,
        doc="a wild at the end of a run may move inside it so that a laid-off card joins (§4.5)"),
    Opt("initial_meld_table", "enum", "none", tuple(INITIAL_MELD_TABLES),
        doc="minimum card points of a side's opening melds by match score (§4.6)"),
    Opt("initial_meld_failure_increment", "int", 0, low=0,
        doc="rise of a side's opening minimum after each failed attempt (§4.6)"),
    Opt("going_out_requirement", "enum", "clean_canastra", ("clean_canastra", "any_canastra"),
        doc="the canastra a side needs to go out (§6)"),
    Opt("going_out_requires_discard", "bool", False, doc="going out needs a final discard (§6)"),
    Opt("final_discard_may_be_wild", "bool", True, doc="the going-out discard may be a wild (§6)"),
    Opt("stock_exhausted_rule", "enum", "pot_to_stock", ("pot_to_stock", "end_at_threshold"),
        doc="an untaken pot becomes the stock, or the deal ends at a stock threshold (§7)"),
    Opt("stock_end_threshold", "int", 2, low=0,
        doc="with end_at_threshold: a turn starting with this many stock cards or fewer ends the deal"),
    Opt("deal_turn_limit", "int", 1000, low=100, doc="turns after which a deal ends (engine safeguard, §3)"),
    Opt("canastra_clean_bonus", "int", 200, low=0, doc="clean canastra bonus (§8)"),
    Opt("canastra_dirty_bonus", "int", 100, low=0, doc="dirty canastra bonus (§8)"),
    Opt("semi_clean_bonus", "int?", None, low=0,
        doc="8+ card canastra with one wild at an end of 7+ naturals; null = scores as dirty (§8)"),
    Opt("a_to_k_bonus", "int?", None, low=0, doc="clean run A…K; null = scores as clean (§8)"),
    Opt("a_to_a_bonus", "int?", None, low=0, doc="clean run A…A of 14 cards; null = scores as clean (§8)"),
    Opt("going_out_bonus", "int", 100, low=0, doc="bonus of the side that goes out (§6)"),
    Opt("untaken_pot_penalty", "int", 100, low=0, doc="penalty of a side that never took its pot (§8)"),
    Opt("unplayed_pot_penalty", "enum", "flat_100", ("flat_100", "card_values"),
        doc="charge for a pot taken by discarding and never played (§8)"),
    Opt("no_clean_canastra_melds_negative", "bool", False,
        doc="a side without a clean canastra subtracts its melds and bonuses (§8)"),
    Opt("target_score", "int", 3000, low=1, doc="match target score (§9)"),
    Opt("target_comparison", "enum", "greater_or_equal", ("greater_or_equal", "greater"),
        doc="a side must reach the target, or exceed it (§9)"),
]

_ITALIAN = {
    "card_values": "italian", "initial_upcard": True, "allow_duplicate_set_ranks": False,
    "run_ace_span": "both_ends_one_natural", "going_out_requirement": "any_canastra",
    "going_out_requires_discard": True, "final_discard_may_be_wild": False,
    "stock_exhausted_rule": "end_at_threshold", "stock_end_threshold": 2,
    "unplayed_pot_penalty": "card_values", "free_wild_may_move": True, "target_score": 2005,
    "target_comparison": "greater"}

PRESETS = [
    Preset("brazilian_4p", "base", {}, "Brazilian Buraco aberto, 4 players in two partnerships"),
    Preset("brazilian_2p", "base", {"num_players": 2}, "Brazilian Buraco, 2 players"),
    Preset("italian_4p", "base", _ITALIAN, "Italian Burraco (FIBUR style), 4 players"),
    Preset("italian_2p", "base", {**_ITALIAN, "num_players": 2}, "Italian Burraco, 2 players"),
    Preset("ludopoli_4p", "base", {
        "jokers": 0, "card_values": "ludopoli", "allow_sets": False, "first_draw_may_reject": True,
        "exact_cut_bonus": 100, "initial_meld_table": "ludopoli",
        "initial_meld_failure_increment": 15, "free_wild_may_move": True},
        "the seed document's Buraco: no jokers, runs only, opening minimum, exact cut"),
    Preset("fechado_stbl", "modifier", {
        "allow_sets": False, "discard_pickup_requirement": "use_top_card",
        "discard_pile_visibility": "top_only"}, "Buraco fechado / STBL: closed pile, no sets"),
    Preset("international_pickup", "modifier", {"discard_pickup_requirement": "must_meld_this_turn"},
           "taking the pile obliges a meld in the same turn"),
    Preset("royal_canastras", "modifier", {"a_to_k_bonus": 500, "a_to_a_bonus": 1000},
           "clean A…K 500, clean A…A 1000"),
    Preset("semi_clean_150", "modifier", {"semi_clean_bonus": 150}, "semi-clean canastra 150"),
    Preset("melds_negative_without_clean", "modifier", {"no_clean_canastra_melds_negative": True},
           "a side without a clean canastra subtracts its melds"),
    Preset("canastra_online_2p", "modifier", {
        "num_players": 2, "set_allowed_ranks": "a_k_3", "one_card_hand_no_pickup": True},
        "canastra.online two-player rules"),
]


def check(values: dict[str, Any]) -> None:
    """The §10 constraints.

    Raises:
        RulesError: naming the option that breaks a constraint.
    """
    if values["num_players"] not in (2, 4):
        raise RulesError("num_players", _("Buraco is played by 2 or 4 players, not {n}").format(
            n=values["num_players"]))
    if values["jokers"] not in (0, 4):
        raise RulesError("jokers", _("the deck has 4 jokers or none, not {n}").format(n=values["jokers"]))
    if values["card_values"] == "ludopoli" and values["jokers"]:
        raise RulesError("card_values", _("the ludopoli values define no joker: they need jokers = 0"))
    value_table(values["card_values"], CARD_VALUE_TABLES)


RULEBOOK = RuleBook("buraco", OPTIONS, PRESETS, check)
