"""Buraco's rule options (buraco.md §10), presets (§11) and their constraints.

Every option of the §10 table is here with its default and the sources of the table's
last column (presets: the sources §10 and §11 name); ``check`` refuses the §10
"Constraints" with a :class:`~kafenio.engine.errors.RulesError` naming the option. The v1
names renamed in v1.2 stay accepted as aliases (README §5): the preset ``fechado_stbl`` is
``stbl``, the options ``a_to_k_bonus`` and ``a_to_a_bonus`` are ``canastra_meia_real_bonus``
and ``canastra_real_bonus``.
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

#: initial meld minimum tables (buraco.md §4.6): ascending (from score, minimum) bands;
#: ``vulnerable_75`` depends on the target score (:func:`opening_bands`)
INITIAL_MELD_TABLES: dict[str, tuple[tuple[float, int], ...]] = {
    "vulnerable_75": (),
    "none": (),
    "ludopoli": ((float("-inf"), 50), (1500, 75)),
}


def opening_bands(rules: Any) -> tuple[tuple[float, int], ...]:
    """The opening-minimum bands of a rule set (buraco.md §4.6): ``vulnerable_75`` asks 75 card
    points of a side whose match total is at least half of ``target_score``."""
    if rules.initial_meld_table == "vulnerable_75":
        return ((rules.target_score / 2, 75),)
    return INITIAL_MELD_TABLES[rules.initial_meld_table]


Opt = Option
OPTIONS = [
    Opt("num_players", "int", 4, low=2, high=4,
        doc="players: 4 in two partnerships, 2 alone, or 3 (Italian: one alone against a pair) (§1)",
        sources=("PG-BUR", "PLP", "GV", "BPLUS", "PG-BRR")),
    Opt("jokers", "int", 4, low=0, high=4, doc="jokers added to the two packs: 4 or 0 (§1)",
        sources=("PG-BUR", "PG-BRR", "PJ", "S3", "EB")),
    Opt("card_values", "table", "brazilian", tuple(CARD_VALUE_TABLES), doc="card point values (§1)",
        sources=("PG-BUR", "PG-BRR", "EB", "S3")),
    Opt("play_direction", "enum", "clockwise", ("clockwise", "counterclockwise"),
        doc="direction of play and of the deal (§2)", sources=("PG-BUR", "PG-BRR", "S3", "SISAL", "PTWP")),
    Opt("pot_size", "int", 11, low=11, high=11,
        doc="cards in each pot (morto / pozzetto); with 3 players the first pot has 18 (§2)",
        sources=("PG-BUR", "PG-BRR", "S3")),
    Opt("initial_upcard", "bool", False, doc="a card is turned face up to start the discard pile (§2)",
        sources=("PG-BUR", "S3", "PG-BRR", "ILB", "SISAL", "GT")),
    Opt("first_draw_may_reject", "bool", True,
        doc="the first player may turn the first card drawn face up and draw the next (§3)", sources=("PG-BUR", "S3")),
    Opt("exact_cut_bonus", "int?", None, low=0,
        doc="bonus when the cutter cuts exactly the pots' cards (22); null = off (§2)", sources=("S3",)),
    Opt("discard_pickup_requirement", "enum", "none",
        ("none", "use_top_card", "use_top_card_with_pile", "must_meld_this_turn"),
        doc="taking the pile: free; the top card must be melded with the hand held before "
            "(STBL) or with the hand and the pile (fechado); or a meld must follow (§3)",
            sources=("PG-BUR", "PG-BRR", "PJ", "EB")),
    Opt("wild_top_card_new_meld_only", "bool", False,
        doc="a wild on top of the pile may be taken only to start a new meld with it (§3)", sources=("PG-BUR",)),
    Opt("single_card_pile_not_rediscardable", "bool", True,
        doc="a one-card pile taken may not be discarded in the same turn (§3)",
        sources=("CO", "FPDF", "BPLUS", "EB", "PG-BRR")),
    Opt("one_card_hand_no_pickup", "bool", False, doc="a player holding one card may not take the pile (§3)",
        sources=("CO",)),
    Opt("discard_pile_visibility", "enum", "open", ("open", "top_only"),
        doc="every pile card is shown, or only the top card (§3)", sources=("PG-BUR", "S3", "PJ", "JOG")),
    Opt("stalemate_rule", "enum", "none", ("none", "end_deal", "force_draw"),
        doc="after a round of one-card pile swaps: nothing, the deal ends, or the next player "
            "must draw from the stock (§3)", sources=("PG-BRR",)),
    Opt("allow_sets", "bool", False,
        doc="sets of one rank are allowed (fechado, Italian); false: runs only (aberto, STBL) (§4.3)",
        sources=("PG-BUR", "JOG", "JDR", "PJ", "GD-F", "MUNDI", "S3", "PG-BRR", "EB", "CO")),
    Opt("set_allowed_ranks", "enum", "all", ("all", "a_k_3"), doc="ranks that may form sets (§4.3)", sources=("CO",)),
    Opt("allow_duplicate_set_ranks", "bool", True, doc="a side may own two sets of the same rank (§4.3)",
        sources=("EB", "PG-BRR")),
    Opt("twos_set_allowed", "bool", False, doc="a set made only of 2s is allowed (§4.1)",
        sources=("ILB", "BPLUS", "PG-BRR", "PG-BUR")),
    Opt("twos_set_may_contain_joker", "bool", False, doc="a joker may join a set of 2s (§4.1)"),
    Opt("max_wilds_per_meld", "int", 1, low=1, high=1, doc="cards used as wilds per meld (§4.1)",
        sources=("S3", "PJ", "FPDF", "PG-BUR", "PG-BRR")),
    Opt("run_ace_span", "enum", "both_ends", ("both_ends", "both_ends_one_natural", "one_end"),
        doc="ace to ace runs of 14 cards; with one natural ace only; or the ace at one end (§4.2)",
        sources=("S3", "PJ", "TRIB", "PG-BUR", "EB", "PG-BRR", "CO")),
    Opt("end_wild_placement", "enum", "free", ("free", "low"),
        doc="a wild at an end of a run: the player picks the end, or it goes below (§4.4)", sources=("PG-BRR", "FPDF")),
    Opt("displaced_suited_two_goes_natural", "bool", True,
        doc="a displaced 2 of the run's suit moves to position 2 and becomes natural (§4.5)", sources=("PJ", "PG-BRR")),
    Opt("free_wild_may_move", "bool", False,
        doc="a wild at the end of a run may move inside it so that a laid-off card joins (§4.5)",
        sources=("EB", "FPDF", "PG-BRR", "S3")),
    Opt("natural_two_may_become_wild", "bool", False,
        doc="a clean run's natural 2 at its bottom may become its wild so that a laid-off card "
            "joins (§4.5)", sources=("PG-BRR",)),
    Opt("initial_meld_table", "enum", "vulnerable_75", tuple(INITIAL_MELD_TABLES),
        doc="minimum card points of a side's opening melds by match score: 75 from half the "
            "target, none, or the seed's table (§4.6)", sources=("PG-BUR", "PG-BRR", "S3")),
    Opt("initial_meld_failure_increment", "int", 0, low=0,
        doc="rise of a side's opening minimum after each failed attempt (§4.6)", sources=("S3",)),
    Opt("going_out_requirement", "enum", "clean_canastra", ("clean_canastra", "any_canastra"),
        doc="the canastra a side needs to go out (§6)",
        sources=("PG-BUR", "JOG", "S3", "PTWP", "GV", "PJ", "PG-BRR", "FPDF", "CPO", "EB")),
    Opt("going_out_requires_discard", "bool", False, doc="going out needs a final discard (§6)",
        sources=("S3", "PJ", "CO", "PG-BRR", "EB", "FPDF", "PG-BUR")),
    Opt("final_discard_may_be_wild", "bool", True, doc="the going-out discard may be a wild (§6)",
        sources=("FPDF", "CPO", "LRB", "PG-BRR")),
    Opt("stock_exhausted_rule", "enum", "pot_to_stock", ("pot_to_stock", "end_at_threshold"),
        doc="an untaken pot becomes the stock, or the deal ends at a stock threshold (§7)",
        sources=("S3", "GV", "PG-BUR", "ONM", "LRB", "PG-BRR")),
    Opt("stock_end_threshold", "int", 2, low=0,
        doc="with end_at_threshold: a turn starting with this many stock cards or fewer ends the deal",
        sources=("ONM", "PG-BRR")),
    Opt("deal_turn_limit", "int", 1000, low=100, doc="turns after which a deal ends (engine safeguard, §3)"),
    Opt("canastra_clean_bonus", "int", 200, low=0, doc="clean canastra bonus (§8)", sources=("PG-BUR", "PG-BRR", "S3")),
    Opt("canastra_dirty_bonus", "int", 100, low=0, doc="dirty canastra bonus (§8)", sources=("PG-BUR", "PG-BRR", "S3")),
    Opt("semi_clean_bonus", "int?", None, low=0,
        doc="8+ card canastra with one wild and 7 naturals on one side of it; null = scores as "
            "dirty (§8)", sources=("EB", "ONM", "LRB", "PG-BRR")),
    Opt("canastra_meia_real_bonus", "int?", 500, low=0,
        doc="canastra meia real: a clean run of 13 cards (A…K or 2…A); null = scores as clean (§8)",
        sources=("PG-BUR", "TRIB", "GD-F", "S3")),
    Opt("canastra_real_bonus", "int?", 1000, low=0,
        doc="canastra real: a clean run ace to ace of 14 cards; null = scores as clean (§8)",
        sources=("PG-BUR", "TRIB", "GD-F", "S3")),
    Opt("twos_canastra_bonus", "int?", None, low=0,
        doc="a canastra of 2s (a set of seven or eight 2s); null = scores as clean (§8)", sources=("PG-BUR",)),
    Opt("going_out_bonus", "int", 100, low=0, doc="bonus of the side that goes out (§6)",
        sources=("PG-BUR", "PG-BRR", "S3")),
    Opt("untaken_pot_penalty", "int", 100, low=0, doc="penalty of a side that never took its pot (§8)",
        sources=("S3", "PLP", "GV", "EB", "PG-BUR", "PG-BRR")),
    Opt("untaken_pot_penalty_if_none_taken", "bool", False,
        doc="the untaken-pot penalty is paid even when no side took its pot (§8)",
        sources=("PG-BUR", "S3", "PG-BRR", "EB")),
    Opt("unplayed_pot_penalty", "enum", "flat_100", ("flat_100", "card_values"),
        doc="charge for a pot taken by discarding and never played (§8)",
        sources=("GV", "PLP", "PG-BUR", "EB", "PG-BRR", "S3")),
    Opt("no_clean_canastra_melds_negative", "bool", False,
        doc="a side without a clean canastra subtracts its melds and bonuses (§8)", sources=("PTWP", "PG-BUR", "S3")),
    Opt("target_score", "int", 3000, low=1, doc="match target score (§9)",
        sources=("S3", "PTWP", "PG-BUR", "EB", "PG-BRR")),
    Opt("target_comparison", "enum", "greater_or_equal", ("greater_or_equal", "greater"),
        doc="a side must reach the target, or exceed it (§9)", sources=("S3", "PG-BUR", "PG-BRR", "EB")),
]

_ITALIAN = {
    "card_values": "italian", "initial_upcard": True, "first_draw_may_reject": False,
    "allow_sets": True, "allow_duplicate_set_ranks": False, "run_ace_span": "both_ends_one_natural",
    "end_wild_placement": "low", "free_wild_may_move": True, "natural_two_may_become_wild": True,
    "initial_meld_table": "none",
    "going_out_requirement": "any_canastra", "going_out_requires_discard": True,
    "final_discard_may_be_wild": False, "stock_exhausted_rule": "end_at_threshold",
    "stock_end_threshold": 2, "stalemate_rule": "end_deal", "canastra_meia_real_bonus": None,
    "canastra_real_bonus": None, "untaken_pot_penalty_if_none_taken": True,
    "unplayed_pot_penalty": "card_values", "target_score": 2005}

PRESETS = [
    Preset("brazilian_4p", "base", {},
           "Brazilian Buraco aberto, 4 players in two partnerships: runs only, open discard pile", sources=("PG-BUR",)),
    Preset("brazilian_2p", "base", {"num_players": 2}, "Brazilian Buraco aberto, 2 players",
           sources=("PG-BUR", "PLP", "GV")),
    Preset("italian_4p", "base", _ITALIAN, "Italian Burraco (FIBUR style), 4 players", sources=("PG-BRR", "EB")),
    Preset("italian_2p", "base", {**_ITALIAN, "num_players": 2}, "Italian Burraco, 2 players",
           sources=("PG-BRR", "EB", "BPLUS")),
    Preset("italian_3p", "base", {**_ITALIAN, "num_players": 3},
           "Italian Burraco, 3 players: pots of 18 and 11, the first to take a pot plays alone "
           "against the other two", sources=("PG-BRR",)),
    Preset("ludopoli_4p", "base", {
        "jokers": 0, "card_values": "ludopoli", "allow_sets": False, "first_draw_may_reject": True,
        "exact_cut_bonus": 100, "initial_meld_table": "ludopoli",
        "initial_meld_failure_increment": 15, "free_wild_may_move": True,
        "canastra_meia_real_bonus": None, "canastra_real_bonus": None,
        "untaken_pot_penalty_if_none_taken": True},
        "the seed document's Buraco: no jokers, runs only, opening minimum, exact cut", sources=("S3",)),
    Preset("fechado", "modifier", {
        "allow_sets": True, "twos_set_allowed": True, "twos_canastra_bonus": 1000,
        "discard_pickup_requirement": "use_top_card_with_pile", "wild_top_card_new_meld_only": True,
        "discard_pile_visibility": "top_only", "going_out_requirement": "any_canastra"},
        "Buraco fechado: sets, sets of 2s, closed pile, the pile's top card must be melded, any "
        "canastra to go out", sources=("PG-BUR", "JOG")),
    Preset("stbl", "modifier", {
        "allow_sets": False, "discard_pickup_requirement": "use_top_card",
        "discard_pile_visibility": "top_only", "going_out_requirement": "clean_canastra"},
        "Buraco fechado STBL: no sets, closed pile, the top card must be melded with the hand, "
        "a clean canastra to go out", sources=("PJ", "JOG", "JDR", "GD-F")),
    Preset("no_vulnerability", "modifier", {"initial_meld_table": "none"},
           "no minimum for a side's opening melds", sources=("PG-BUR",)),
    Preset("international_pickup", "modifier", {"discard_pickup_requirement": "must_meld_this_turn"},
           "taking the pile obliges a meld in the same turn", sources=("EB",)),
    Preset("royal_canastras", "modifier", {"canastra_meia_real_bonus": 500, "canastra_real_bonus": 1000},
           "clean 13-card run 500, clean ace-to-ace run 1000", sources=("TRIB", "GD-F")),
    Preset("semi_clean_150", "modifier", {"semi_clean_bonus": 150}, "semi-clean canastra 150", sources=("EB", "ONM")),
    Preset("melds_negative_without_clean", "modifier", {"no_clean_canastra_melds_negative": True},
           "a side without a clean canastra subtracts its melds", sources=("PTWP",)),
    Preset("stalemate_draw", "modifier", {"stalemate_rule": "force_draw"},
           "after a round of one-card pile swaps the next player must draw from the stock", sources=("PG-BRR",)),
    Preset("canastra_online_2p", "modifier", {
        "num_players": 2, "allow_sets": True, "set_allowed_ranks": "a_k_3",
        "one_card_hand_no_pickup": True},
        "canastra.online two-player rules", sources=("CO",)),
]

#: old names (buraco.md v1) accepted for the current ones (README §5; buraco.md §8, §11)
ALIASES = {"fechado_stbl": "stbl", "a_to_k_bonus": "canastra_meia_real_bonus",
           "a_to_a_bonus": "canastra_real_bonus"}


def check(values: dict[str, Any]) -> None:
    """The §10 constraints.

    Raises:
        RulesError: naming the option that breaks a constraint.
    """
    if values["num_players"] == 3 and values["card_values"] != "italian":
        raise RulesError("num_players", _(
            "three players are defined only for the Italian rules (preset italian_3p)"))
    if values["jokers"] not in (0, 4):
        raise RulesError("jokers", _("the deck has 4 jokers or none, not {n}").format(n=values["jokers"]))
    if values["card_values"] == "ludopoli" and values["jokers"]:
        raise RulesError("card_values", _("the ludopoli values define no joker: they need jokers = 0"))
    value_table(values["card_values"], CARD_VALUE_TABLES)
    if values["twos_set_allowed"] and not values["allow_sets"]:
        raise RulesError("twos_set_allowed", _("a set of 2s is a set: it needs allow_sets = true"))
    if values["twos_canastra_bonus"] is not None and not values["twos_set_allowed"]:
        raise RulesError("twos_canastra_bonus", _("a canastra of 2s needs twos_set_allowed = true"))


RULEBOOK = RuleBook("buraco", OPTIONS, PRESETS, check, aliases=ALIASES)
