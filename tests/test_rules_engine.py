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


INLINE_VALUES = {"joker": 50, "ace": 15, "two": 20, "low": 5, "eight": 10, "nine": 10, "high": 10}


@pytest.mark.parametrize("game", ["biriba", "buraco"])
def test_card_values_given_inline_score_by_their_table(game):
    """biriba.md §1 / buraco.md §1: ``card_values`` is a named table or one given inline."""
    from kafenio import load_game

    loaded = load_game(game, options={"card_values": INLINE_VALUES})
    assert loaded.card_values[52] == 50                    # the joker
    assert loaded.card_values[1] == 20                     # 2H
    assert loaded.card_values[0] == loaded.card_values[13] == 15   # aces
    assert loaded.new_initial_state(seed=3).values == loaded.card_values


@pytest.mark.parametrize("game", ["biriba", "buraco"])
@pytest.mark.parametrize(("table", "says"), [
    ({"joker": 1}, "missing: ace"),
    ({**INLINE_VALUES, "queen": 3}, "unknown: queen"),
    ({**INLINE_VALUES, "ace": -1}, "ace: expected a whole number"),
    ({**INLINE_VALUES, "ace": "x"}, "ace: expected a whole number"),
    ("nope", "is not one of"),
])
def test_bad_card_value_tables_are_refused_naming_the_option(game, table, says):
    from kafenio import load_game

    with pytest.raises(RulesError, match=says) as err:
        load_game(game, options={"card_values": table})
    assert err.value.option == "card_values"


# -- renamed and withdrawn names (README §5) ---------------------------------------------------

RENAMED = RuleBook(
    "demo", BOOK.options, BOOK.presets, _check,
    aliases={"old_runs": "runs_only", "max_players": "players"},
    withdrawn={"six_alone": "two (with players=6)", "kozi": "card_values"})


def test_aliases_stand_for_the_new_preset_and_option():
    rules = RENAMED.build(["old_runs"], {"max_players": 6})
    assert rules.presets == ("four", "runs_only") and rules.players == 6 and not rules.sets
    assert RENAMED.build("old_runs", ["max_players=4"]) == RENAMED.build("runs_only", ["players=4"])
    old = {k: v for k, v in rules.to_dict().items() if k != "players"}
    again = RENAMED.from_dict({**old, "max_players": 4}, ["four", "old_runs"])
    assert again.presets == ("four", "runs_only") and again.players == 4
    assert RENAMED.aliases_of("runs_only") == ["old_runs"] and RENAMED.canonical("players") == "players"


@pytest.mark.parametrize(("presets", "overrides", "named", "replacement"), [
    (["six_alone"], None, "six_alone", "two (with players=6)"),
    (None, {"kozi": "old"}, "kozi", "card_values"),
])
def test_withdrawn_names_are_refused_naming_the_replacement(presets, overrides, named, replacement):
    with pytest.raises(RulesError) as err:
        RENAMED.build(presets, overrides)
    assert err.value.option == named and replacement in str(err.value)


def test_an_alias_must_name_something_and_not_shadow_a_name():
    with pytest.raises(AssertionError):
        RuleBook("demo", BOOK.options, BOOK.presets, aliases={"x": "nothing"})
    with pytest.raises(AssertionError):
        RuleBook("demo", BOOK.options, BOOK.presets, aliases={"runs_only": "short"})


# -- published sources (README §7; the option tables' last column) ------------------------------

GAMES = ("biriba", "buraco", "basra", "pisti", "xeri", "diloti")

#: the options whose row of the spec's table names no source: the engine's own rules
ENGINE_OWN = {
    ("biriba", "twos_set_may_contain_joker"),   # biriba.md §11: "none (Q5)"
    ("biriba", "allow_duplicate_set_ranks"),    # "no Biriba source restricts"
    ("biriba", "deal_turn_limit"),              # "engine safeguard (§3)"
    ("buraco", "twos_set_may_contain_joker"),   # buraco.md §10: "none (open question 14)"
    ("buraco", "deal_turn_limit"),              # "engine safeguard (§3)"
    ("basra", "seven_diamonds_plain_seven_basra"),  # basra.md §9: "none (Q1)"
    ("pisti", "final_tie_rule"),                # fishing-relatives.md A9: "engine (PG-PIS silent …)"
    ("xeri", "match_rounds"),                   # B9: "engine (PG-XER leaves the number to the players)"
}


@pytest.mark.parametrize("game", GAMES)
def test_every_option_and_preset_names_its_sources(game):
    """Every preset and option cites at least one published source by a key of the table, but
    for the options the spec gives to no source; and those cite none."""
    import kafenio
    from kafenio.engine.sources import SOURCES

    book = kafenio.rulebook(game)
    for preset in book.presets:
        assert preset.sources, f"preset {preset.name} of {game} cites no source"
    for option in book.options:
        own = (game, option.name) in ENGINE_OWN
        assert bool(option.sources) != own, f"option {option.name} of {game}: {option.sources}"
    for entry in (*book.presets, *book.options):
        assert len(set(entry.sources)) == len(entry.sources)
        assert all(key in SOURCES for key in entry.sources)
    assert {name for g, name in ENGINE_OWN if g == game} <= set(book.by_name)


def test_the_source_table_gives_each_key_a_title_and_addresses():
    from kafenio.engine.sources import SOURCES

    for key, source in SOURCES.items():
        assert source.key == key and source.title and source.urls
        assert all(url.startswith(("https://", "http://")) for url in source.urls)
        for game, urls in source.by_game.items():
            assert game in GAMES and set(urls) <= set(source.urls)
    assert SOURCES["JW"].urls_for("basra") != SOURCES["JW"].urls_for("biriba")


def test_a_rule_book_refuses_a_source_key_it_does_not_know():
    with pytest.raises(AssertionError, match="PG-NOPE"):
        RuleBook("demo", [Option("players", "int", 4, sources=("PG-BIR", "PG-NOPE"))], BOOK.presets)
    with pytest.raises(AssertionError, match="XX"):
        RuleBook("demo", BOOK.options, [Preset("four", "base", {}, sources=("XX",))])


def test_a_rule_book_lists_the_sources_it_cites_once_each():
    import kafenio

    book = kafenio.rulebook("biriba")
    keys = [s.key for s in book.cited_sources()]
    assert len(keys) == len(set(keys)) and keys[:3] == ["S0", "S1", "PG-BIR"]
    assert set(keys) == {k for e in (*book.presets, *book.options) for k in e.sources}
