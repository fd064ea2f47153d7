"""Xeri / Kseri (Greek Ξερή) on the fishing engine (``fishing-relatives.md`` Part B).

Options are the table of B9, presets those of B10 (base ``pagat_2p``, ``pagat_4p``,
``gamerules_2p``, ``gamerules_4p``; modifiers ``point_race``, ``exposed_bottom``, ``open_pile``,
``no_last_xeri``, ``jack_xeri_25``). The pile machine is :mod:`kafenio.fishing.pile`. The match
is counted in rounds won by default (B7, :meth:`XeriGame.match_winner`).

>>> game = XeriGame(XeriGame.rulebook.build("pagat_2p"))
>>> state = game.new_initial_state(seed=3)
>>> state.current_player(), len(state.legal_actions()), len(state.view(None)["floor"])
(1, 6, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from kafenio.engine.errors import RulesError
from kafenio.engine.game import own_abc_caches
from kafenio.engine.rules import Option, Preset, RuleBook
from kafenio.fishing.pile import PileGame, PileState
from kafenio.fishing.scoring import card_points_table
from kafenio.fishing.state import check_choices, tally_option
from kafenio.i18n import _

GREEK_XERI = {"A": 1, "K": 1, "Q": 1, "J": 1, "10": 1, "10D": 1, "2C": 1}

OPTIONS = [
    Option("num_players", "int", 2, choices=(2, 4), low=2, high=4, doc="players at the table: 2 or 4",
           sources=("PG-XER", "GR-XER", "PGC", "UFM", "KEO")),
    Option("partnerships", "bool", True, doc="with 4 players: partners sit opposite and score together",
           sources=("PG-XER", "KEO")),
    Option("play_direction", "enum", "counterclockwise", ("counterclockwise", "clockwise"),
           doc="direction of play (matters with 4 players)", sources=("PG-XER", "KEO")),
    Option("hand_size", "int", 6, low=6, high=6, doc="cards per player in each packet (always 6)",
           sources=("PG-XER", "GR-XER", "PGC", "UFM", "KEO")),
    Option("opening_pile_check", "enum", "top_two_or_jack", ("top_two_or_jack", "any_two_or_jack", "none"),
           doc="opening piles shuffled back into the stock: top pair or jack on top, any pair or jack, none",
           sources=("PG-XER", "PGC", "GR-XER", "UFM", "KEO")),
    Option("cut_jack_rule", "enum", "none", ("none", "bottom_not_jack"),
           doc="a jack at the bottom after the cut is replaced (with expose_stock_bottom)", sources=("PG-XER",)),
    Option("expose_stock_bottom", "bool", False, doc="the bottom card of the stock is shown to both",
           sources=("PG-XER",)),
    tally_option("PG-XER", "GR-XER"),
    Option("xeri_points", "int", 10, choices=(10,), low=10, high=10, doc="points of a xeri", sources=("PG-XER", "PGC")),
    Option("jack_xeri_points", "int", 20, choices=(20, 25), low=20, high=25,
           doc="points of a jack taking a lone jack: 20 or 25", sources=("PG-XER",)),
    Option("jack_on_lone_card_points", "int", 0, choices=(0,), low=0, high=0,
           doc="a jack taking a lone other card scores nothing", sources=("PG-XER",)),
    Option("xeri_on_last_card", "bool", True, doc="the dealer's last card of the round may score a xeri",
           sources=("PG-XER",)),
    Option("card_points", "table", "greek_xeri", ("greek_xeri",),
           doc="card points: greek_xeri (A K Q J 10 = 1, 10D +1, 2C 1)", sources=("PG-XER",)),
    Option("majority_points", "int", 3, choices=(3,), low=3, high=3, doc="bonus for capturing the most cards",
           sources=("PG-XER",)),
    Option("majority_tie_rule", "enum", "nobody", ("nobody",), doc="tie for most cards: nobody scores it",
           sources=("PG-XER",)),
    Option("match_mode", "enum", "rounds_won", ("rounds_won", "cumulative"),
           doc="count rounds won, or race to target_score", sources=("PG-XER",)),
    Option("match_rounds", "int", 5, low=1, doc="rounds of a rounds_won match (more while level)"),
    Option("target_score", "int", 151, choices=(151,), low=151, high=151, doc="target of a cumulative match",
           sources=("PG-XER",)),
    Option("both_reach_rule", "enum", "raise_target_100", ("raise_target_100", "higher_wins"),
           doc="both sides past the target in one round: target +100, or the higher total wins", sources=("PG-XER",)),
]

PRESETS = [
    Preset("pagat_2p", "base", {}, "pagat: 2 players, rounds won", sources=("PG-XER",)),
    Preset("pagat_4p", "base", {"num_players": 4}, "pagat: 4 players in partnerships, anticlockwise",
           sources=("PG-XER",)),
    Preset("gamerules_2p", "base", {"opening_pile_check": "any_two_or_jack"},
           "gamerules: any pair in the opening pile forces a new pile", sources=("GR-XER", "UFM")),
    Preset("gamerules_4p", "base", {"num_players": 4, "play_direction": "clockwise",
                                    "opening_pile_check": "any_two_or_jack"}, "gamerules, 4 players clockwise",
                                    sources=("GR-XER", "KEO")),
    Preset("point_race", "modifier", {"match_mode": "cumulative", "target_score": 151}, "race to 151",
           sources=("PG-XER",)),
    Preset("exposed_bottom", "modifier", {"cut_jack_rule": "bottom_not_jack", "expose_stock_bottom": True},
           "Pişti-style cut: the bottom card is not a jack and is shown", sources=("PG-XER",)),
    Preset("open_pile", "modifier", {"opening_pile_check": "none"}, "no opening-pile check", sources=("PG-XER",)),
    Preset("no_last_xeri", "modifier", {"xeri_on_last_card": False}, "no xeri with the round's last card",
           sources=("PG-XER",)),
    Preset("jack_xeri_25", "modifier", {"jack_xeri_points": 25}, "a jack xeri scores 25", sources=("PG-XER",)),
]


def check(values: dict[str, Any]) -> None:
    """The allowed values and constraints of B9.

    Raises:
        RulesError: naming the option that breaks a constraint.
    """
    check_choices(OPTIONS, values)
    if (values["cut_jack_rule"] == "bottom_not_jack") != values["expose_stock_bottom"]:
        raise RulesError("cut_jack_rule", _("bottom_not_jack goes with expose_stock_bottom = true (B9)"))
    if values["match_mode"] == "rounds_won" and values["both_reach_rule"] != "raise_target_100":
        raise RulesError("both_reach_rule", _("acts only with match_mode = cumulative"))
    if values["match_mode"] == "cumulative" and values["match_rounds"] != 5:
        raise RulesError("match_rounds", _("acts only with match_mode = rounds_won"))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class XeriState(PileState):
    """A Xeri round."""


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class XeriGame(PileGame):
    """Xeri with one rule set of B9 (see the module docstring)."""

    name = "xeri"
    rulebook = RuleBook("xeri", OPTIONS, PRESETS, check)
    state_class = XeriState
    special_name = "xeris"
    rule_refs: ClassVar[dict[str, str]] = {"play": "§B3", "choice": "§B3", "end": "§B5", "bluff": "§B3", "deal": "§B2",
                                           "special": "§B4", "score": "§B6"}
    pile_first = False
    face_down = 0

    def __init__(self, rules):
        super().__init__(rules)
        self.card_points = card_points_table(GREEK_XERI)
        self.lone_points = rules.xeri_points
        self.jack_lone_jack = rules.jack_xeri_points
        self.jack_lone_card = rules.jack_on_lone_card_points
        self.last_card_counts = rules.xeri_on_last_card

    def match_winner(self, totals: Sequence[float], deals_won: Sequence[int],
                     deals_played: int) -> int | None:
        """B7. ``rounds_won``: once ``match_rounds`` rounds have been played, the side with more
        round wins takes the match (level → play on, one round at a time). A round with equal
        points is played but won by nobody.
        ``cumulative``: a side at or past the target alone wins; both past it in the same round →
        the target rises by 100 (``raise_target_100``) or the higher total wins (``higher_wins``,
        equal → play on)."""
        rules = self.rules
        if rules.match_mode == "rounds_won":
            ranked = sorted(deals_won, reverse=True)
            if deals_played < rules.match_rounds or ranked[0] == ranked[1]:
                return None
            return list(deals_won).index(ranked[0])
        target = rules.target_score
        top = sorted(totals, reverse=True)
        if rules.both_reach_rule == "raise_target_100":
            while top[1] >= target:
                target += 100
        if top[0] < target or top[0] == top[1]:
            return None
        return list(totals).index(top[0])


own_abc_caches(XeriState, XeriGame)
GAME = XeriGame
