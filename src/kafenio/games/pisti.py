"""Pişti (Turkish; pişpirik) on the fishing engine (``fishing-relatives.md`` Part A).

Options are the table of A9, presets those of A10 (base presets ``pagat_4p`` … ``iskambilci``;
modifiers ``pishpirik``, ``bluff``, ``single_jack_pisti``, ``milliyet_peek``). The pile machine is
:mod:`kafenio.fishing.pile`; this module maps the options onto it.

>>> game = PistiGame(PistiGame.rulebook.build("pagat_2p"))
>>> state = game.new_initial_state(seed=3)
>>> state.current_player(), len(state.legal_actions()), state.view(None)["pile_face_down"]
(1, 4, 3)
"""

from __future__ import annotations

from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from kafenio.engine.errors import RulesError
from kafenio.engine.game import own_abc_caches
from kafenio.engine.rules import Option, Preset, RuleBook
from kafenio.fishing.pile import CHALLENGE, PileGame, PileState
from kafenio.fishing.scoring import card_points_table
from kafenio.fishing.state import check_choices, tally_option
from kafenio.i18n import _

CARD_TABLES = {"turkish": {"A": 1, "J": 1, "2C": 2, "10D": 3},
               "pishpirik": {"A": 1, "K": 1, "Q": 1, "J": 1, "10": 1, "10D": 1, "2C": 1}}

OPTIONS = [
    Option("num_players", "int", 4, low=2, high=4, doc="players at the table: 2, 3 or 4",
           sources=("PG-PIS", "EIG", "TRN", "ISK")),
    Option("partnerships", "bool", True, doc="with 4 players: partners sit opposite and score together",
           sources=("PG-PIS", "EIG")),
    Option("play_direction", "enum", "counterclockwise", ("counterclockwise", "clockwise"),
           doc="direction of play and of the deal", sources=("PG-PIS", "WP-DE-PIS", "LOD", "EIG", "TRB", "ISK")),
    Option("hand_size", "int", 4, low=4, high=4, doc="cards per player in each packet (always 4)",
           sources=("PG-PIS", "WP-DE-PIS", "LOD", "TRN")),
    Option("cut_jack_rule", "enum", "bottom_not_jack", ("bottom_not_jack", "cutter_takes_jack", "none"),
           doc="a jack at the bottom after the cut: replaced, kept by the cutter, or no rule",
           sources=("PG-PIS", "EIG", "GR-PIS", "ISK", "TRN", "WP-DE-PIS", "LOD", "CRA")),
    Option("expose_stock_bottom", "bool", True, doc="the bottom card of the stock is shown to all",
           sources=("PG-PIS", "EIG", "GR-PIS", "ISK", "TRN", "WP-DE-PIS", "LOD")),
    Option("opening_jack_rule", "enum", "turn_next", ("turn_next", "jack_under_pile", "jack_to_stock_bottom"),
           doc="a jack as the opening up-card: turn the next card, put the jack under the pile, or under the stock",
           sources=("PG-PIS", "EIG", "GR-PIS", "ISK", "CRA", "WP-DE-PIS", "LOD")),
    Option("first_pile_visibility", "enum", "capturing_side", ("capturing_side", "capturer_only", "first_player_peeks"),
           doc="who may look at the face-down opening cards", sources=("PG-PIS", "LOD", "TRN")),
    tally_option("PG-PIS"),
    Option("pisti_points", "int", 10, choices=(10,), low=10, high=10, doc="points of a pişti",
           sources=("PG-PIS", "WP-DE-PIS", "LOD", "TRN")),
    Option("jack_pisti_points", "int", 20, choices=(0, 10, 20), low=0, high=20,
           doc="points of a jack taking a lone jack: 0, 10 or 20",
           sources=("PG-PIS", "WP-DE-PIS", "LOD", "TRB", "PPB", "ERD")),
    Option("jack_on_lone_card_points", "int", 0, choices=(0, 20), low=0, high=20,
           doc="points of a jack taking a lone other card: 0 or 20", sources=("PG-PIS", "TRB", "SKB")),
    Option("pisti_on_last_card", "bool", False, doc="the deal's very last card may score a pişti",
           sources=("PG-PIS", "WP-DE-PIS", "LOD", "TRB", "LDP", "PG-XER")),
    Option("bluffing", "bool", False, doc="a pişti may be claimed face down; believe or challenge (A4.2)",
           sources=("PG-PIS",)),
    Option("card_points", "table", "turkish", tuple(CARD_TABLES),
           doc="card points: turkish (A 1, J 1, 2C 2, 10D 3) or pishpirik (A K Q J 10 = 1, 10D +1, 2C 1)",
           sources=("PG-PIS", "WP-DE-PIS", "LOD", "TRN", "TRB", "GR-PIS", "PPB")),
    Option("majority_points", "int", 3, choices=(3,), low=3, high=3, doc="bonus for capturing the most cards",
           sources=("PG-PIS", "WP-DE-PIS", "LOD", "TRN")),
    Option("majority_tie_rule", "enum", "nobody", ("nobody",), doc="tie for most cards: nobody scores it",
           sources=("PG-PIS", "TRB", "LDP")),
    Option("last_pile_bonus", "int", 0, choices=(0, 3), low=0, high=3,
           doc="points for taking the cards left at the end: 0 or 3", sources=("SKB",)),
    Option("target_score", "int", 151, choices=(101, 121, 151), low=101, high=151,
           doc="match target: 101, 121 or 151",
           sources=("PG-PIS", "ISK", "GR-PIS", "TRB", "WP-DE-PIS", "LOD", "TRN", "PPB")),
    Option("target_comparison", "enum", "greater_or_equal", ("greater_or_equal",), doc="the target is reached at it",
           sources=("PG-PIS",)),
    Option("final_tie_rule", "enum", "play_on", ("play_on",), doc="equal top totals past the target: play on"),
]

PRESETS = [
    Preset("pagat_4p", "base", {}, "pagat: 4 players in partnerships, anticlockwise, to 151", sources=("PG-PIS",)),
    Preset("pagat_2p", "base", {"num_players": 2}, "pagat: 2 players", sources=("PG-PIS",)),
    Preset("individual_4p", "base", {"partnerships": False}, "4 players, each for themselves", sources=("PG-PIS",)),
    Preset("three_player", "base", {"num_players": 3}, "3 players", sources=("PG-PIS",)),
    Preset("german_diaspora", "base", {"opening_jack_rule": "jack_to_stock_bottom", "cut_jack_rule": "none",
                                       "expose_stock_bottom": False, "first_pile_visibility": "capturer_only"},
           "German/Swiss diaspora: an up-card jack goes under the stock", sources=("WP-DE-PIS", "LOD")),
    Preset("turkish_101", "base", {"target_score": 101, "cut_jack_rule": "cutter_takes_jack"},
           "Turkish home rules: to 101, the cutter keeps a jack", sources=("TRN",)),
    Preset("iskambilci", "base", {"play_direction": "clockwise", "cut_jack_rule": "cutter_takes_jack"},
           "iskambilci: clockwise, the cutter keeps a jack", sources=("ISK",)),
    Preset("pishpirik", "modifier", {"card_points": "pishpirik", "target_score": 101},
           "pişpirik scoring (Greek card table), to 101", sources=("PPB",)),
    Preset("bluff", "modifier", {"bluffing": True}, "the bluffing variant (A4.2)", sources=("PG-PIS",)),
    Preset("single_jack_pisti", "modifier", {"jack_pisti_points": 10}, "a jack on a lone jack scores 10",
           sources=("ERD", "PG-PIS")),
    Preset("milliyet_peek", "modifier", {"first_pile_visibility": "first_player_peeks"},
           "the first player may look at the face-down opening cards", sources=("TRN",)),
]


def check(values: dict[str, Any]) -> None:
    """The allowed values and constraints of A9.

    Raises:
        RulesError: naming the option that breaks a constraint.
    """
    check_choices(OPTIONS, values)
    if values["bluffing"] and values["pisti_points"] <= 0:
        raise RulesError("bluffing", _("needs pisti_points > 0"))
    card_points_table(CARD_TABLES.get(values["card_points"], values["card_points"]))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class PistiState(PileState):
    """A Pişti deal."""


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class PistiGame(PileGame):
    """Pişti with one rule set of A9 (see the module docstring)."""

    name = "pisti"
    rulebook = RuleBook("pisti", OPTIONS, PRESETS, check)
    state_class = PistiState
    special_name = "pistis"
    rule_refs: ClassVar[dict[str, str]] = {
        "play": "§A3", "choice": "§A3", "end": "§A5", "bluff": "§A4.2", "deal": "§A2", "special": "§A4",
        "score": "§A6"}
    extra_actions = CHALLENGE + 1 - 52
    pile_first = True
    face_down = 3

    def __init__(self, rules):
        super().__init__(rules)
        self.card_points = card_points_table(CARD_TABLES.get(rules.card_points, rules.card_points))
        self.lone_points = rules.pisti_points
        self.jack_lone_jack = rules.jack_pisti_points
        self.jack_lone_card = rules.jack_on_lone_card_points
        self.last_card_counts = rules.pisti_on_last_card


own_abc_caches(PistiState, PistiGame)
GAME = PistiGame
