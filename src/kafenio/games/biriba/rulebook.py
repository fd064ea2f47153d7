"""Biriba's rule options (biriba.md §11), presets (§12) and their constraints.

Every option of the §11 table is here with its default and the sources of the table's
last column (presets: the sources §10 and §12 name); ``check`` refuses the §11
"Constraints" with a :class:`~kafenio.engine.errors.RulesError` naming the option.
"""

from __future__ import annotations

from typing import Any

from kafenio.engine.errors import RulesError
from kafenio.engine.rules import Option, Preset, RuleBook
from kafenio.i18n import _, n_, number
from kafenio.rummy.scoring import value_table

#: card point values per table (biriba.md §1): (joker, ace, two, 3–7, 8, 9, 10–K)
CARD_VALUE_TABLES: dict[str, dict[str, int]] = {
    "standard": {"joker": 20, "ace": 15, "two": 10, "low": 5, "eight": 10, "nine": 10, "high": 10},
    "old_greek": {"joker": 30, "ace": 15, "two": 10, "low": 5, "eight": 5, "nine": 5, "high": 10},
}

#: initial meld minimum tables (biriba.md §4.7): ascending (from score, minimum) bands
INITIAL_MELD_TABLES: dict[str, tuple[tuple[int, int], ...]] = {
    "none": (),
    "catsatcards": ((1500, 75), (3000, 100), (4000, 120)),
    "wikipedia": ((1000, 75), (1500, 90)),
}


#: partnership modes with a solo against pairs (§10.3, §10.4): players → the pots they need
SOLO_MODES: dict[str, tuple[int, list[int]]] = {"solo_vs_pair": (3, [18, 11]),
                                                "solo_vs_two_pairs": (5, [18, 11, 11])}


def _sides(values: dict[str, Any]) -> int:
    n = values["num_players"]
    mode = values["partnership_mode"]
    if mode == "teams_of_two":
        return n // 2
    if mode in SOLO_MODES:
        return 1 + (n - 1) // 2     # the solo and the pairs (§10.3, §10.4)
    return n


def _default_pots(values: dict[str, Any]) -> list[int]:
    solo = SOLO_MODES.get(values["partnership_mode"])
    if solo is not None:
        return solo[1]
    return [11] * _sides(values)


Opt = Option
OPTIONS = [
    Opt("num_players", "int", 4, low=2, high=6, doc="players at the table", sources=("S0", "S1", "PG-BIR")),
    Opt("partnership_mode", "enum", "teams_of_two",
      ("teams_of_two", "individual", "solo_vs_pair", "solo_vs_two_pairs"),
      doc="fixed pairs, everyone alone, 3 players with a solo against a pair (§10.3), or 5 "
          "players with a solo against two pairs (§10.4)", sources=("S0", "S1", "PG-BIR")),
    Opt("deck_count", "int", 2, low=2, high=3, doc="standard packs in the deck", sources=("S0", "S1", "UN", "PG-BIR")),
    Opt("jokers_per_deck", "int", 2, low=2, high=2, doc="jokers added per pack", sources=("S0", "S1", "PG-BIR")),
    Opt("play_direction", "enum", "counterclockwise", ("counterclockwise", "clockwise"),
      doc="direction of play (§2.1)", sources=("S0", "S1", "PG-BIR", "WP-BIR-OLD", "CRP")),
    Opt("dealer_rotation", "enum", "with_play", ("with_play", "clockwise"),
      doc="how the deal passes after each deal (§2.1)", sources=("S1", "S0")),
    Opt("hand_size", "int", 11, low=11, high=11, doc="cards dealt to each player", sources=("S0", "S1", "PG-BIR")),
    Opt("biribaki_sizes", "list", _default_pots, low=1, high=30,
      doc="sizes of the pots (biribakia), one per side (§2.2)", sources=("S0", "S1", "PG-BIR")),
    Opt("kozi_mode", "enum", "fixed", ("fixed", "double", "none"),
      doc="kozi run bonus: fixed 600/300, double the run bonus, or no kozi (§8.2)", sources=("S0", "PG-BIR", "ZOO")),
    Opt("kozi_clean_bonus", "int", 600, low=0, doc="clean kozi run biriba bonus (fixed mode)", sources=("S0",)),
    Opt("kozi_dirty_bonus", "int", 300, low=0, doc="dirty kozi run biriba bonus (fixed mode)", sources=("S0",)),
    Opt("kozi_affects_full_runs", "bool", False, doc="the kozi rule also applies to 13-card runs",
        sources=("S0", "ZOO", "PG-BIR")),
    Opt("kozi_joker_allows_none", "bool", True, doc="a joker up-card lets the first player name no kozi",
        sources=("S0", "UN")),
    Opt("kozi_rank_sets", "bool", False, doc="a set biriba of the up-card's rank scores as kozi", sources=("SCR",)),
    Opt("whole_hand_first_meld", "bool", False,
      doc="nobody melds until one player lays down the whole hand at once (§4.6)", sources=("S1", "PG-BIR", "SCR")),
    Opt("allow_sets", "bool", True, doc="sets of one rank are allowed (false: runs only)",
        sources=("S0", "S1", "PG-BIR", "JW", "ZOO")),
    Opt("twos_set_allowed", "bool", True, doc="a set made only of 2s is allowed", sources=("S0",)),
    Opt("twos_set_may_contain_joker", "bool", False, doc="a joker may join a set of 2s"),
    Opt("allow_duplicate_set_ranks", "bool", True, doc="a side may own two sets of the same rank"),
    Opt("max_wilds_per_meld", "int", 1, low=1, high=1, doc="cards used as wilds per meld",
        sources=("S0", "UN", "WP-BIR-OLD")),
    Opt("run_ace_span", "enum", "one_end", ("one_end",), doc="an ace is low or high, never both",
        sources=("S1", "S0", "EL-WP")),
    Opt("displaced_suited_two_goes_natural", "bool", True,
      doc="a displaced 2 of the run's suit moves to position 2 and becomes natural (§4.5)",
      sources=("S0", "PG-BIR", "PJ")),
    Opt("free_wild_may_move", "bool", True,
      doc="a wild at the end of a run may move inside it so that a laid-off card joins (§4.5)",
      sources=("PG-BIR", "S0", "EL-WP")),
    Opt("natural_two_may_become_wild", "bool", True,
      doc="a natural 2 at the bottom of a run may become its wild so that a laid-off card "
          "joins (§4.5)", sources=("PG-BIR",)),
    Opt("discard_pickup_requirement", "enum", "none", ("none", "use_any_pile_card"),
      doc="taking the pile requires using one of its cards in a meld this turn (§3)", sources=("S0", "S1", "PG-BIR")),
    Opt("single_card_pickup_restriction", "enum", "no_going_out", ("no_going_out", "forbidden", "none"),
      doc="holding one card and taking a one-card pile: no closing, forbidden, or free (§3)", sources=("S0", "CO")),
    Opt("single_card_pile_rediscard_ban", "enum", "same_or_identical",
      ("same_or_identical", "same_card", "none"),
      doc="after taking a one-card pile, that card (or an identical one) may not be the turn's "
          "discard (§3)", sources=("PG-BIR", "PG-BRR", "CO", "S0", "S1")),
    Opt("initial_meld_table", "enum", "none", tuple(INITIAL_MELD_TABLES),
      doc="minimum card points of a side's first melds by match score (§4.7)", sources=("S1", "S0")),
    Opt("biriba_required_for_biribaki", "bool", True, doc="a side needs a biriba to take its pot (§5)",
        sources=("S1", "JW", "WP-BIR-OLD", "PG-BIR", "S0")),
    Opt("closing_requirement", "enum", "any_biriba", ("any_biriba", "clean_biriba"),
      doc="the biriba a side needs to close (§6)", sources=("S0", "S1")),
    Opt("closing_requires_discard", "bool", True, doc="closing needs a final discard (§6)", sources=("S0", "S1")),
    Opt("stock_exhausted_rule", "enum", "pass_round", ("pass_round", "end_after_last_card"),
      doc="what happens when the stock is empty (§7)", sources=("S1", "PG-BIR", "S0")),
    Opt("stock_empty_turn_limit", "int?", None, low=2,
      doc="turns played with an empty stock before the deal ends; null = no limit "
          "(engine safeguard, §7)", sources=("PG-BIR", "S1")),
    Opt("deal_turn_limit", "int", 1000, low=100, doc="turns after which a deal ends (engine safeguard, §3)"),
    Opt("untaken_biribaki_to_stock", "bool", False,
      doc="an untaken pot becomes the stock when the stock runs out (Buraco rule, §7)", sources=("S3", "GV")),
    Opt("card_values", "table", "standard", tuple(CARD_VALUE_TABLES), doc="card point values (§1)",
        sources=("S0", "S1", "UN", "ZOO", "EL-WP")),
    Opt("run_clean_bonus", "int", 200, low=0, doc="clean run biriba bonus", sources=("S0", "S1", "ZOO", "UN", "JW")),
    Opt("run_dirty_bonus", "int", 100, low=0, doc="dirty run biriba bonus", sources=("S0", "S1", "ZOO", "UN", "JW")),
    Opt("full_run_clean_bonus", "int", 1000, low=0, doc="clean 13-card run bonus (hiliara)",
        sources=("S0", "ZOO", "WP-BIR")),
    Opt("full_run_dirty_bonus", "int", 500, low=0, doc="dirty 13-card run bonus (pentakosara)",
        sources=("S0", "ZOO", "WP-BIR")),
    Opt("set_clean_bonus", "int", 300, low=0, doc="clean set biriba bonus", sources=("S0", "ZOO")),
    Opt("set_dirty_bonus", "int", 150, low=0, doc="dirty set biriba bonus", sources=("S0", "ZOO")),
    Opt("closing_bonus", "int", 100, low=0, doc="bonus of the side that closes", sources=("S0", "S1")),
    Opt("untaken_biribaki_penalty", "int", 100, low=0, doc="penalty of a side that never took its pot",
        sources=("S0", "PG-BIR")),
    Opt("unplayed_biribaki_penalty", "enum", "flat_100", ("flat_100", "card_values"),
      doc="charge for a pot taken by discarding and never played (§8.3)", sources=("S0", "PG-BIR")),
    Opt("target_score", "int", 3000, low=1, doc="match target score (§9)", sources=("S0", "S1", "PG-BIR", "UN", "CRP")),
    Opt("target_comparison", "enum", "greater", ("greater", "greater_or_equal"),
      doc="a side must exceed the target, or reach it", sources=("S0", "S1", "PG-BIR")),
    Opt("half_score_rounding", "enum", "exact", ("exact",), doc="halves of a pair's score (§10.3, §10.4)",
        sources=("S1", "PG-BIR")),
]

PRESETS = [
    Preset("standard_4p", "base", {}, "4 players in two partnerships", sources=("S0", "S1", "PG-BIR")),
    Preset("two_players", "base", {"num_players": 2, "partnership_mode": "individual",
                                    "biribaki_sizes": [11, 11]}, "2 players", sources=("S1", "PG-BIR")),
    Preset("three_players_individual", "base", {
        "num_players": 3, "partnership_mode": "individual", "deck_count": 3,
        "biribaki_sizes": [11, 11, 11], "discard_pickup_requirement": "use_any_pile_card"},
        "3 players, each alone, 162 cards", sources=("S1", "PG-BIR")),
    Preset("three_players_solo_18", "base", {
        "num_players": 3, "partnership_mode": "solo_vs_pair", "deck_count": 2,
        "biribaki_sizes": [18, 11], "whole_hand_first_meld": True},
        "3 players: the first to lay down the whole hand plays alone against the other two",
        sources=("S0", "S1", "PG-BIR")),
    Preset("five_players", "base", {
        "num_players": 5, "partnership_mode": "solo_vs_two_pairs", "deck_count": 3,
        "biribaki_sizes": [18, 11, 11], "whole_hand_first_meld": True},
        "5 players: the first to lay down the whole hand plays alone against two pairs (§10.4)", sources=("PG-BIR",)),
    Preset("six_players", "base", {"num_players": 6, "partnership_mode": "teams_of_two",
                                   "deck_count": 3, "biribaki_sizes": [11, 11, 11]},
           "6 players in three partnerships", sources=("S0", "WP-BIR-OLD", "PG-BIR")),
    Preset("runs_only", "modifier", {"allow_sets": False}, "no sets", sources=("S1", "JW")),
    Preset("cyprus_scoring", "modifier", {"full_run_dirty_bonus": 100}, "Cyprus full-run bonus", sources=("S0",)),
    Preset("no_full_run_bonus", "modifier", {"full_run_clean_bonus": 200, "full_run_dirty_bonus": 100},
           "13-card runs score as ordinary runs", sources=("WP-BIR",)),
    Preset("zoo_gr_scoring", "modifier", {"kozi_mode": "double", "kozi_affects_full_runs": True,
                                          "set_clean_bonus": 200, "set_dirty_bonus": 100},
           "zoo.gr scoring: kozi biribas double (full runs too), sets 200/100", sources=("ZOO",)),
    Preset("pagat_scoring", "modifier", {"kozi_mode": "double", "kozi_affects_full_runs": True,
                                         "target_score": 5000},
           "pagat.com's table: kozi biribas double (full runs too), more than 5000 to win", sources=("PG-BIR",)),
    Preset("catsatcards_house", "modifier", {
        "initial_meld_table": "catsatcards", "target_score": 5000,
        "discard_pickup_requirement": "use_any_pile_card"}, "catsatcards.com optional rules", sources=("S1",)),
    Preset("wikipedia_vulnerability", "modifier", {"initial_meld_table": "wikipedia"},
           "initial meld minimum by score", sources=("S0",)),
    Preset("old_greek_values", "modifier", {"card_values": "old_greek"}, "old Greek card values", sources=("EL-WP",)),
    Preset("whole_hand_opening", "modifier", {"whole_hand_first_meld": True, "kozi_mode": "double",
                                              "kozi_rank_sets": True}, "two-player whole-hand opening",
                                              sources=("SCR",)),
    Preset("fixed_wilds", "modifier", {"free_wild_may_move": False, "natural_two_may_become_wild": False},
           "a wild moves only when its natural card replaces it (§4.5)", sources=("S0",)),
    Preset("no_rediscard_ban", "modifier", {"single_card_pile_rediscard_ban": "none"},
           "a card taken from a one-card pile may be discarded at once (§3)", sources=("S0", "S1")),
]


def check(values: dict[str, Any]) -> None:
    """The §11 constraints.

    Raises:
        RulesError: naming the option that breaks a constraint.
    """
    n = values["num_players"]
    mode = values["partnership_mode"]
    if mode == "teams_of_two" and n not in (4, 6):
        raise RulesError("partnership_mode", _("teams_of_two needs 4 or 6 players, not {n}").format(n=n))
    solo = SOLO_MODES.get(mode)
    if solo is not None:
        players, pots = solo
        if n != players:
            raise RulesError("partnership_mode", n_("{mode} needs {n} player", "{mode} needs {n} players", players)
                             .format(mode=mode, n=number(players)))
        if list(values["biribaki_sizes"]) != pots:
            raise RulesError("biribaki_sizes", _("{mode} needs pots {pots}").format(mode=mode, pots=pots))
        if not values["whole_hand_first_meld"]:
            raise RulesError("whole_hand_first_meld", _("{mode} is decided by the whole-hand first "
                                                        "meld (§10.3, §10.4)").format(mode=mode))
        if mode == "solo_vs_two_pairs" and values["deck_count"] != 3:
            raise RulesError("deck_count", _("solo_vs_two_pairs is played with 3 packs (§10.4)"))
    if mode == "individual" and n == 5:
        raise RulesError("partnership_mode", _("5 players play a solo against two pairs, not "
                                               "individually (§10.4)"))
    if len(values["biribaki_sizes"]) != _sides(values):
        raise RulesError("biribaki_sizes", _("needs exactly one pot per side ({k})").format(
            k=number(_sides(values))))
    deck = values["deck_count"] * (52 + values["jokers_per_deck"])
    used = n * values["hand_size"] + sum(values["biribaki_sizes"]) + 1
    if deck - used < 0:
        raise RulesError("deck_count", n_("{d} card cannot deal {u}", "{d} cards cannot deal {u}", deck)
                         .format(d=number(deck), u=number(used)))
    limit = values["stock_empty_turn_limit"]
    if limit is not None and limit < n:
        raise RulesError("stock_empty_turn_limit", _("must be at least the number of players"))
    value_table(values["card_values"], CARD_VALUE_TABLES)


#: presets withdrawn in v1.2, refused naming what replaces them (README §5; biriba.md §12)
WITHDRAWN = {"five_players_individual": "five_players"}

RULEBOOK = RuleBook("biriba", OPTIONS, PRESETS, check, withdrawn=WITHDRAWN)
