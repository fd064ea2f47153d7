"""Rule options, presets and overrides (README §5), on a small rule book."""

import pytest

from kafenio.engine.errors import RulesError
from kafenio.engine.rules import Option, Preset, RuleBook


def _check(values):
    if values["mode"] == "pairs" and values["players"] not in (4, 6):
        raise RulesError("mode", "pairs requires 4 or 6 players")


BOOK = RuleBook(
    "demo",
    [Option("players", "int", 4, low=2, high=6), Option("mode", "enum", "pairs", choices=("pairs", "solo")),
     Option("sets", "bool", True), Option("limit", "int", lambda v: 4 * v["players"], low=1),
     Option("pots", "list", (11, 11), low=1), Option("target", "int?", None),
     Option("card_values", "table", "standard", choices=("standard", "old"))],
    [Preset("four", "base", {}), Preset("two", "base", {"players": 2, "mode": "solo"}),
     Preset("runs_only", "modifier", {"sets": False}), Preset("short", "modifier", {"target": 500})],
    _check)


def test_defaults_come_from_the_first_base():
    rules = BOOK.build()
    assert rules.presets == ("four",)
    assert (rules.players, rules.mode, rules.sets, rules.limit) == (4, "pairs", True, 16)


def test_presets_stack_and_a_lone_modifier_uses_the_default_base():
    assert BOOK.build(["two", "runs_only", "short"]).to_dict()["sets"] is False
    lone = BOOK.build("runs_only")
    assert lone.presets == ("four", "runs_only") and lone.players == 4 and not lone.sets
    assert BOOK.build(["runs_only", "two"]).presets == ("two", "runs_only")


def test_overrides_win_and_are_parsed_from_text():
    rules = BOOK.build("two", ["players=3", "sets=false", "pots=[18, 11]", "target=null", "card_values=old"])
    assert (rules.players, rules.sets, rules.pots, rules.target, rules.card_values) == (3, False, (18, 11), None, "old")
    assert rules.limit == 12
    assert BOOK.build(None, {"target": 300}).target == 300


@pytest.mark.parametrize(("presets", "overrides", "named"), [
    (["nine"], None, "nine"),
    (["four", "two"], None, "two"),
    (None, ["colour=red"], "colour"),
    (None, ["players=9"], "players"),
    (None, ["players=x"], "players"),
    (None, ["mode=trio"], "mode"),
    (None, ["sets=maybe"], "sets"),
    (None, ["pots=[a]"], "pots"),
    (None, ["players"], "players"),
    (["two"], ["mode=pairs"], "mode"),
])
def test_bad_rules_are_refused_naming_the_option(presets, overrides, named):
    with pytest.raises(RulesError) as err:
        BOOK.build(presets, overrides)
    assert err.value.option == named
    assert named in str(err.value)


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(RulesError, match="four, two, runs_only, short"):
        BOOK.build("nine")


def test_rules_copy_and_pickle():
    import copy
    import pickle

    rules = BOOK.build("two", ["pots=[18, 11]"])
    assert copy.deepcopy(rules) == rules and copy.copy(rules) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert copy.deepcopy(rules).presets == ("two",)


def test_rules_are_immutable_and_round_trip():
    rules = BOOK.build("two")
    with pytest.raises(AttributeError):
        rules.players = 5
    assert BOOK.from_dict(rules.to_dict(), rules.presets) == rules
