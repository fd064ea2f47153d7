"""Basra / Bastra and its regional rule sets (``shared/rules/basra.md``) on the fishing engine.

Options are the table of §9, presets the 13 of §10 (all **base** presets: each is a complete
regional rule set; stack individual options such as ``num_players=4`` or ``target_score=151`` on
them). The deal machinery is :mod:`kafenio.fishing.state`; this module adds the basra (§4):
its definitions, the seven of diamonds (§3.4, §4.2) and its values (§4.3).

Action ids: ``0 … 51`` play a card (``play 7D``), ``52 + k`` choose capture option ``k``
(``capture 5C 4D``; ``trail`` when capturing is optional) — see ``docs/views-fishing.md``.

>>> game = BasraGame(BasraGame.rulebook.build("egyptian"))
>>> state = game.new_initial_state(seed=1)
>>> state.current_player(), len(state.legal_actions()), state.view(None)["stock"]
(1, 4, 40)
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from kafenio.cards import RANK
from kafenio.engine.errors import RulesError
from kafenio.engine.game import own_abc_caches
from kafenio.engine.rules import Option, Preset, RuleBook
from kafenio.fishing.captures import (
    JACK,
    KING,
    QUEEN,
    SEVEN_DIAMONDS,
    VALUE,
    CaptureSpec,
    capture_options,
    equal_sum_split,
)
from kafenio.fishing.scoring import TIE_RULES, card_points_table
from kafenio.fishing.state import FishingGame, FishingState, check_choices, tally_option
from kafenio.i18n import _

DEFAULT_CARD_POINTS = {"A": 1, "J": 1, "2C": 2, "10D": 3}
PLAIN_SEVEN = 6  # 7S: "an ordinary 7" for seven_diamonds_plain_seven_basra


def lebanese_hand_size(values: dict[str, Any]) -> int:
    """§9, §10 ``hand_size`` unless given: 6 in the Lebanese presets (their lone-card basra
    definitions), but 4 with three players (PG-BAS, open question 13); 4 otherwise."""
    if values["basra_definition"] != "clear_floor" and values["num_players"] != 3:
        return 6
    return 4


OPTIONS = [
    Option("deck", "enum", "standard_52", ("standard_52", "no_kings_queens_44"),
           doc="52 cards, or 44 without kings and queens (Palestinian family)",
           sources=("S2", "PG-BAS", "JW", "CAC-BAS")),
    Option("num_players", "int", 2, low=2, high=4, doc="players at the table: 2, 3 or 4",
           sources=("PG-BAS", "JW", "S2")),
    Option("partnerships", "bool", True, doc="with 4 players: partners sit opposite and score together",
           sources=("PG-BAS", "S2")),
    Option("play_direction", "enum", "counterclockwise", ("counterclockwise", "clockwise"),
           doc="direction of play and of the deal", sources=("PG-BAS", "TGR", "S2", "CAC-BAS")),
    Option("hand_size", "int", lebanese_hand_size, low=4, high=6,
           doc="cards dealt to each player per distribution (Lebanese: 6, or 4 with 3 players)",
           sources=("S2", "PG-BAS", "JW")),
    Option("floor_size", "int", 4, low=4, high=4, doc="cards dealt face up to the floor",
           sources=("S2", "PG-BAS", "JW", "CAC-BAS")),
    Option("floor_redeal_cards", "enum", "jacks_and_seven_diamonds", ("jacks_and_seven_diamonds", "jacks"),
           doc="opening floor cards taken off and replaced from the stock", sources=("PG-BAS", "JW", "CAC-BAS", "S2")),
    Option("floor_redeal_destination", "enum", "buried", ("buried", "stock_bottom"),
           doc="where the cards taken off the opening floor go: buried at hidden places in the stock, "
               "or under the stock where everybody knows (Greek)", sources=("PG-BAS", "CAC-BAS", "JW", "S2")),
    Option("seven_diamonds_special", "bool", True, doc="the 7D sweeps a non-empty floor (Egyptian family)",
           sources=("S2", "JW", "CAC-BAS")),
    Option("seven_diamonds_basra_rule", "enum", "sum_at_most_10", ("sum_at_most_10", "yemeni", "ethiopian"),
           doc="when a sweep by the 7D is a basra", sources=("S2", "JW", "CAC-BAS")),
    Option("seven_diamonds_plain_seven_basra", "bool", False,
           doc="the 7D also scores a basra when an ordinary 7 would have cleared the floor"),
    Option("lone_seven_diamonds_capturable_by_any", "bool", False,
           doc="any non-jack takes a lone 7D with a basra (Ethiopian)", sources=("S2",)),
    tally_option("S2", "PG-BAS"),
    Option("capture_mode", "enum", "maximal", ("maximal", "player_choice"),
           doc="the largest capture is forced, or the player picks any capture", sources=("S2", "JW")),
    Option("capture_compulsory", "bool", True, doc="with player_choice: a card that can capture must", sources=("S2",)),
    Option("basra_definition", "enum", "clear_floor", ("clear_floor", "lone_card", "lone_card_or_pair_sum"),
           doc="what makes a basra: clearing the floor, or taking a lone card (Lebanese)",
           sources=("S2", "PG-BAS", "JW")),
    Option("basra_value_mode", "enum", "flat", ("flat", "double_face_value"),
           doc="a basra is worth basra_points, or twice the capturing card (Palestinian)", sources=("S2", "JW")),
    Option("basra_points", "int", 10, low=0, doc="points of a basra in flat mode",
           sources=("S2", "PG-BAS", "JW", "CAC-BAS")),
    Option("picture_basra_values", "enum", "none", ("none", "ten", "syrian"),
           doc="face values of Q and K for double_face_value: none, 10, or Q 3 and K 4 (Syrian)", sources=("S2",)),
    Option("jack_on_lone_jack_points", "int", 20, choices=(0, 10, 20, 25, 30), low=0, high=30,
           doc="points of a jack taking a lone jack: 0, 10, 20, 25 or 30", sources=("S2",)),
    Option("basra_on_final_play_counts", "bool", True, doc="the deal's very last card may score a basra",
           sources=("PISTI",)),
    Option("majority_points", "int", 30, low=0, doc="bonus for capturing the most cards (3 or 30)",
           sources=("S2", "JW")),
    Option("majority_tie_rule", "enum", "carry_over", TIE_RULES,
           doc="tie for most cards: carry the bonus to the next deal, both score, or nobody", sources=("S2", "PG-BAS")),
    Option("card_points", "table", DEFAULT_CARD_POINTS,
           doc="points per rank or card, e.g. {\"A\": 1, \"J\": 1, \"2C\": 2, \"10D\": 3}",
           sources=("S2", "JW", "CAC-BAS", "PISTI")),
    Option("target_score", "int", 101, choices=(52, 100, 101, 121, 151), low=1,
           doc="match target: 52, 100, 101, 121 or 151", sources=("S2",)),
    Option("target_comparison", "enum", "greater_or_equal", ("greater_or_equal", "greater"),
           doc="the target is reached at (greater_or_equal) or beyond it (greater)", sources=("S2",)),
    Option("final_tie_rule", "enum", "play_on", ("play_on", "draw", "extend_target"),
           doc="equal top totals past the target: play on, draw, or raise the target", sources=("S2",)),
    Option("tie_extension", "int", 20, choices=(20, 30, 50), low=20, high=50,
           doc="points the target rises by with extend_target: 20, 30 or 50", sources=("S2",)),
]

_GREEK = {"play_direction": "clockwise", "floor_redeal_cards": "jacks", "floor_redeal_destination": "stock_bottom",
          "seven_diamonds_special": False,
          "jack_on_lone_jack_points": 0, "majority_points": 3, "majority_tie_rule": "both_score",
          "target_score": 100, "final_tie_rule": "play_on"}
# §2, §8: the Levantine presets derive from Greek Bastra but play anticlockwise (PG-BAS's Arab accounts)
_PALESTINIAN = {**_GREEK, "play_direction": "counterclockwise", "deck": "no_kings_queens_44",
                "majority_tie_rule": "nobody",
                "basra_value_mode": "double_face_value", "picture_basra_values": "none",
                "jack_on_lone_jack_points": 0, "target_score": 101}
_LEBANESE = {**_GREEK, "play_direction": "counterclockwise", "majority_tie_rule": "nobody",
             "jack_on_lone_jack_points": 10, "target_score": 101}
PRESETS = [
    Preset("egyptian", "base", {}, "Egyptian Basra: all defaults (2 players; 4 players play as two teams)",
           sources=("PG-BAS", "JW", "CAC-BAS", "S2")),
    Preset("egyptian_121", "base", {"target_score": 121}, "Egyptian to 121", sources=("S2",)),
    Preset("egyptian_triple_jack", "base", {"jack_on_lone_jack_points": 30},
           "Egyptian; a jack on a lone jack scores 30", sources=("S2",)),
    Preset("greek_bastra", "base", _GREEK, "Greek/Cypriot Bastra", sources=("S2",)),
    Preset("yemeni", "base", {"seven_diamonds_basra_rule": "yemeni"}, "Yemeni: other 7D basra tests",
           sources=("S2", "PG-BAS")),
    Preset("ethiopian", "base", {"seven_diamonds_basra_rule": "ethiopian",
                                 "lone_seven_diamonds_capturable_by_any": True, "jack_on_lone_jack_points": 0,
                                 "majority_points": 3, "majority_tie_rule": "carry_over", "target_score": 52},
           "Ethiopian: lone 7D taken by any card, a tied majority carried over, to 52", sources=("S2",)),
    Preset("lebanese_a", "base", {**_LEBANESE, "basra_definition": "lone_card_or_pair_sum"},
           "Lebanese (variant A), anticlockwise, 6-card hands (4 with 3 players): basra on a lone card "
           "or a lone card plus a trailed card", sources=("S2", "PG-BAS")),
    Preset("lebanese_ashush", "base", {**_LEBANESE, "basra_definition": "lone_card"},
           "Lebanese Ashush, anticlockwise, 6-card hands (4 with 3 players): basra only on a lone card",
           sources=("S2", "PG-BAS")),
    Preset("palestinian", "base", _PALESTINIAN,
           "Palestinian: 44 cards, anticlockwise, basra = twice the card; 2, 3 or 4 players", sources=("S2",)),
    Preset("jordanian", "base", _PALESTINIAN, "Jordanian: as Palestinian", sources=("S2",)),
    Preset("jordanian_haddad", "base", {**_PALESTINIAN, "deck": "standard_52", "picture_basra_values": "ten"},
           "Jordanian (M. Haddad): 52 cards, Q and K basras worth 20", sources=("S2", "PG-BAS")),
    Preset("syrian", "base", {**_PALESTINIAN, "deck": "standard_52", "picture_basra_values": "syrian",
                              "jack_on_lone_jack_points": 25}, "Syrian: 52 cards, Q 6 and K 8 basras", sources=("S2",)),
    Preset("syrian_homsi", "base", {**_PALESTINIAN, "jack_on_lone_jack_points": 25},
           "Syrian Homsi: as Palestinian, jack on lone jack 25", sources=("S2",)),
]

_SEVEN_OPTIONS = ("seven_diamonds_basra_rule", "seven_diamonds_plain_seven_basra",
                  "lone_seven_diamonds_capturable_by_any")


def check(values: dict[str, Any]) -> None:
    """The constraints of ``basra.md`` §9, and ``capture_compulsory = false`` only with
    ``capture_mode = player_choice`` (§3.1: the maximal capture is always made, so it would have
    no effect).

    Raises:
        RulesError: naming the option that breaks a constraint.
    """
    defaults = {o.name: o.default for o in OPTIONS}
    check_choices(OPTIONS, values)
    if not values["seven_diamonds_special"]:
        for name in _SEVEN_OPTIONS:
            if values[name] != defaults[name]:
                raise RulesError(name, _("has no effect unless seven_diamonds_special = true"))
    if not values["capture_compulsory"] and values["capture_mode"] != "player_choice":
        raise RulesError("capture_compulsory", _("acts only with capture_mode = player_choice"))
    if values["deck"] == "no_kings_queens_44" and values["picture_basra_values"] != "none":
        raise RulesError("picture_basra_values", _("the 44-card deck has no pictures: use none"))
    if values["basra_definition"] != "clear_floor" and values["seven_diamonds_special"]:
        raise RulesError("basra_definition", _("lone-card basras are used with seven_diamonds_special = false"))
    if values["num_players"] * values["hand_size"] + values["floor_size"] > (
            44 if values["deck"] == "no_kings_queens_44" else 52):
        raise RulesError("hand_size", _("the deck is too small for this many cards per hand"))
    card_points_table(values["card_points"])


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class BasraState(FishingState["BasraGame"]):
    """A Basra deal: the fishing deal plus the basra of §4."""

    def _capture_bonus(self, card: int, option: tuple[int, ...], final: bool) -> int:
        """§4: points of the basra (or jack on a lone jack) made by ``card`` taking ``option``."""
        game = self.game
        if final and not game.final_play_counts:
            return 0
        floor = self.floor
        n = len(floor)
        rank = RANK[card]
        if rank == JACK:
            return game.jack_on_lone_jack if n == 1 and RANK[floor[0]] == JACK else 0
        if card == SEVEN_DIAMONDS and game.seven_special:
            return game.basra_value[card] if game.seven_basra(floor) else 0
        if n == 1 and floor[0] == game.capture_spec.lone_prey:
            return game.basra_value[card]
        if len(option) != n:
            return 0
        definition = game.basra_definition
        if definition == "clear_floor":
            return game.basra_value[card]
        if n == 1 and RANK[floor[0]] == rank:
            return game.basra_value[card]
        if (definition == "lone_card_or_pair_sum" and n == 2 and self.lone_trail in floor
                and VALUE[card] and VALUE[card] == VALUE[floor[0]] + VALUE[floor[1]]):
            return game.basra_value[card]
        return 0


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class BasraGame(FishingGame):
    """Basra with one rule set of ``basra.md`` §9 (see the module docstring)."""

    name = "basra"
    rulebook = RuleBook("basra", OPTIONS, PRESETS, check)
    state_class = BasraState

    def __init__(self, rules):
        super().__init__(rules)
        self.seven_special = rules.seven_diamonds_special
        jacks = frozenset(c for c in range(52) if RANK[c] == JACK)
        self.capture_spec = CaptureSpec(
            mode=rules.capture_mode, compulsory=rules.capture_compulsory,
            sweepers=jacks | {SEVEN_DIAMONDS} if self.seven_special else jacks,
            lone_prey=SEVEN_DIAMONDS if self.seven_special and rules.lone_seven_diamonds_capturable_by_any
            else None)
        self.plain_spec = CaptureSpec(sweepers=frozenset())
        self.card_points = card_points_table(rules.card_points)
        self.floor_redeal = jacks | {SEVEN_DIAMONDS} if (
            rules.floor_redeal_cards == "jacks_and_seven_diamonds") else jacks
        self.final_play_counts = rules.basra_on_final_play_counts
        self.jack_on_lone_jack = rules.jack_on_lone_jack_points
        self.basra_definition = rules.basra_definition
        self.basra_value = tuple(self._basra_value(c) for c in range(52))
        self._cards = [c for c in range(52) if rules.deck == "standard_52" or RANK[c] not in (QUEEN, KING)]

    def _basra_value(self, card: int) -> int:
        """§4.3: the basra ``card`` makes is worth this (jacks: see ``jack_on_lone_jack_points``)."""
        rules = self.rules
        if rules.basra_value_mode == "flat" or RANK[card] == JACK:
            return rules.basra_points
        if VALUE[card]:
            return 2 * VALUE[card]
        pictures = {"ten": {QUEEN: 10, KING: 10}, "syrian": {QUEEN: 3, KING: 4}}.get(rules.picture_basra_values)
        return 2 * pictures[RANK[card]] if pictures else rules.basra_points

    def seven_basra(self, floor: list[int]) -> bool:
        """§4.2: whether the special ``7D`` sweeping the non-empty ``floor`` makes a basra."""
        rule = self.rules.seven_diamonds_basra_rule
        values = [VALUE[c] for c in floor]
        numerals = all(values)
        total = sum(values)
        if rule == "sum_at_most_10":
            ok = numerals and total <= 10
        elif rule == "yemeni":
            ok = (numerals and total < 10) or all(RANK[c] in (10, QUEEN, KING) for c in floor) or (
                numerals and any(total // k < 10 and equal_sum_split(values, k) for k in range(2, len(values) + 1)))
        else:
            ok = numerals and any(total // k <= 10 and equal_sum_split(values, k)
                                  for k in range(1, len(values) + 1))
        if not ok and self.rules.seven_diamonds_plain_seven_basra:
            ok = any(len(o) == len(floor) for o in capture_options(floor, PLAIN_SEVEN, self.plain_spec))
        return ok

    def full_deck(self) -> list[int]:
        return self._cards[:]


own_abc_caches(BasraState, BasraGame)
GAME = BasraGame
