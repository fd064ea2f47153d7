"""Diloti (Greek Δηλωτή) on the fishing engine (``fishing-relatives.md`` Part C).

Options are the table of C9, presets those of C10 (base ``pagat_2p``, ``pagat_4p``,
``diloti_online``, ``denexa``; the modifiers ``forced_capture`` … ``dealer_peeks``). The table
with declarations is :mod:`kafenio.fishing.declarations`; the xeri (C4) is scored there too.

Action ids: ``0 … 51`` play a card, ``52 + k`` choose move ``k`` of the played card (``capture
7C P7@0``, ``declare P8 5C``, ``raise P4@1 to 9``, ``group G6 6S 4H 2D``, ``lay``), ``308`` cancel
the round with a face-card hand (``redeal``) — ``docs/views-fishing.md``.

>>> game = DilotiGame(DilotiGame.rulebook.build("pagat_2p"))
>>> state = game.new_initial_state(seed=3)
>>> state.current_player(), state.view(None)["stock"]
(1, 36)
"""

from __future__ import annotations

from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from kafenio.engine.game import own_abc_caches
from kafenio.engine.rules import Option, Preset, RuleBook
from kafenio.fishing.declarations import DeclarationGame, DeclarationState
from kafenio.fishing.scoring import card_points_table
from kafenio.fishing.state import check_choices, tally_option

DILOTI_POINTS = {"A": 1, "10D": 2, "2C": 1}

OPTIONS = [
    Option("num_players", "int", 2, choices=(2, 4), low=2, high=4, doc="players at the table: 2 or 4",
           sources=("PG-DIL", "DOL", "DNX", "DCM", "EGO")),
    Option("partnerships", "bool", True, doc="with 4 players: partners sit opposite and score together",
           sources=("PG-DIL", "DNX")),
    Option("play_direction", "enum", "counterclockwise", ("counterclockwise", "clockwise"),
           doc="direction of play (matters with 4 players)", sources=("PG-DIL", "DNX")),
    Option("hand_size", "int", 6, low=6, high=6, doc="cards per player in each packet (always 6)",
           sources=("PG-DIL", "DOL", "DNX", "DCM", "CRP-DIL")),
    Option("initial_table_check", "enum", "face_triples", ("face_triples", "any_triples", "face_quads_only"),
           doc="opening tables laid anew: 3+ equal face cards, 3+ equal cards, or only 4 equal face cards",
           sources=("PG-DIL", "DOL", "DNX")),
    Option("dealer_sees_bottom", "bool", False, doc="the dealer may look at the bottom card (information only)",
           sources=("PG-DIL",)),
    tally_option("PG-DIL"),
    Option("face_card_hand_redeal", "enum", "none", ("none", "first_deal", "any_deal"),
           doc="a hand of 5 or 6 face cards may cancel the round: never, in the first deal, in any deal",
           sources=("PG-DIL",)),
    Option("capture_rule", "enum", "free_choice", ("free_choice", "forced_maximal", "take_all_equal"),
           doc="captures optional, forced and maximal, or taking every equal item", sources=("PG-DIL", "DCM", "KKO")),
    Option("plain_declaration_as_card", "enum", "strict", ("strict", "groups", "full"),
           doc="plain declarations combine with cards: never, in groups, also in raises and sums", sources=("PG-DIL",)),
    Option("self_raise", "bool", False, doc="a player may raise their own plain declaration",
           sources=("PG-DIL", "DOL")),
    Option("declaration_absorbs_loose", "bool", False,
           doc="a new declaration takes in the loose cards of its value", sources=("PG-DIL", "KKO")),
    Option("soy_locked", "bool", False, doc="a group of two equal single cards (soy) is closed", sources=("PG-DIL",)),
    Option("xeri_points", "int", 10, choices=(10,), low=10, high=10, doc="points of a xeri (clearing the table)",
           sources=("PG-DIL", "DOL", "DCM", "CRP-DIL")),
    Option("xeri_on_first_card", "bool", False, doc="the round's first card may score a xeri",
           sources=("PG-DIL", "DOL")),
    Option("xeri_on_last_card", "bool", True, doc="the round's last card may score a xeri", sources=("PG-DIL", "DOL")),
    Option("card_points", "table", "diloti", ("diloti",), doc="card points: diloti (A 1, 10D 2, 2C 1)",
           sources=("PG-DIL", "DOL", "DCM", "CRP-DIL")),
    Option("majority_points", "int", 4, choices=(4,), low=4, high=4, doc="bonus for capturing the most cards",
           sources=("PG-DIL", "DOL", "DCM", "CRP-DIL")),
    Option("majority_tie_rule", "enum", "nobody", ("nobody",), doc="tie for most cards: nobody scores it",
           sources=("PG-DIL",)),
    Option("target_score", "int", 61, choices=(61, 101, 121), low=61, high=121, doc="match target: 61, 101 or 121",
           sources=("PG-DIL", "DOL", "CRP-DIL", "EGO")),
    Option("target_comparison", "enum", "greater_or_equal", ("greater_or_equal",), doc="the target is reached at it",
           sources=("PG-DIL",)),
    Option("final_tie_rule", "enum", "play_on", ("play_on",), doc="equal top totals past the target: play on",
           sources=("PG-DIL", "DOL")),
]

PRESETS = [
    Preset("pagat_2p", "base", {}, "pagat: 2 players, to 61", sources=("PG-DIL",)),
    Preset("pagat_4p", "base", {"num_players": 4}, "pagat: 4 players in partnerships", sources=("PG-DIL",)),
    Preset("diloti_online", "base", {"self_raise": True}, "diloti.online: own plain declarations may be raised",
           sources=("DOL",)),
    Preset("denexa", "base", {"initial_table_check": "any_triples", "play_direction": "clockwise"},
           "denexa: any three equal cards force a new table; clockwise", sources=("DNX",)),
    Preset("forced_capture", "modifier", {"capture_rule": "forced_maximal"}, "a card that can capture must",
           sources=("PG-DIL",)),
    Preset("dragging", "modifier", {"declaration_absorbs_loose": True, "capture_rule": "take_all_equal"},
           "dragging rules: declarations and captures take every equal card", sources=("KKO",)),
    Preset("liberal_groups", "modifier", {"plain_declaration_as_card": "groups"},
           "plain declarations combine with cards in groups", sources=("PG-DIL",)),
    Preset("liberal_declarations", "modifier", {"plain_declaration_as_card": "full"},
           "plain declarations combine with cards everywhere", sources=("PG-DIL",)),
    Preset("soy", "modifier", {"soy_locked": True}, "a pair group is closed", sources=("PG-DIL",)),
    Preset("three_faces_kept", "modifier", {"initial_table_check": "face_quads_only"},
           "three equal face cards stay on the table", sources=("PG-DIL",)),
    Preset("first_card_xeri", "modifier", {"xeri_on_first_card": True}, "xeri with the first card",
           sources=("PG-DIL",)),
    Preset("no_last_xeri", "modifier", {"xeri_on_last_card": False}, "no xeri with the last card", sources=("PG-DIL",)),
    Preset("long_121", "modifier", {"target_score": 121}, "to 121", sources=("PG-DIL",)),
    Preset("face_redeal", "modifier", {"face_card_hand_redeal": "first_deal"},
           "a first hand of 5 or 6 face cards may cancel the round", sources=("PG-DIL",)),
    Preset("dealer_peeks", "modifier", {"dealer_sees_bottom": True}, "the dealer sees the bottom card",
           sources=("PG-DIL",)),
]


def check(values: dict[str, Any]) -> None:
    """The allowed values of C9 (its constraints are independent options: nothing else to refuse).

    Raises:
        RulesError: naming the option.
    """
    check_choices(OPTIONS, values)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class DilotiState(DeclarationState):
    """A Diloti round."""


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class DilotiGame(DeclarationGame):
    """Diloti with one rule set of C9 (see the module docstring)."""

    name = "diloti"
    rulebook = RuleBook("diloti", OPTIONS, PRESETS, check)
    state_class = DilotiState
    special_name = "xeris"
    rule_refs: ClassVar[dict[str, str]] = {
        "play": "§C3", "choice": "§C3", "end": "§C5", "owner": "§C3.7", "face": "§C3.3",
                 "deal": "§C2", "plain": "§C3.4", "raise": "§C3.5", "group": "§C3.6", "variant": "§C3.9",
                 "capture": "§C3.2", "special": "§C4", "score": "§C6"}

    def __init__(self, rules):
        super().__init__(rules)
        self.card_points = card_points_table(DILOTI_POINTS)


own_abc_caches(DilotiState, DilotiGame)
GAME = DilotiGame
