"""The ``kafenio`` command: the referee's verbs in words and in JSON, records, bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kafenio.cli import app

runner = CliRunner()


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


def run_json(*args: str) -> dict:
    return json.loads(run(*args, "--json"))


def test_BIR_01_meld_json_has_the_issue_shape():
    assert run_json("rules", "meld", "biriba", "4H 5H 2C=6H 7H") == {
        "valid": True, "kind": "run", "clean": False, "cards": ["4H", "5H", "2C=6H", "7H"], "bonus": 0}


def test_BIR_07_meld_refused_names_the_rule():
    result = run_json("rules", "meld", "biriba", "5S JK=6S 2S=7S 8S")
    assert result["valid"] is False and result["rule"].startswith("biriba.md §4")
    assert "biriba.md §4" in run("rules", "meld", "biriba", "5S JK=6S 2S=7S 8S")


def test_BIR_12_presets_stack_on_the_command_line():
    assert run_json("rules", "meld", "biriba", "9C 9D 9H")["valid"]
    assert not run_json("rules", "meld", "biriba", "9C 9D 9H", "--preset", "standard_4p",
                        "--preset", "runs_only")["valid"]
    assert not run_json("rules", "meld", "biriba", "9C 9D 9H", "--option", "allow_sets=false")["valid"]


def test_BIR_14_kozi_bonus_from_the_command_line():
    assert run_json("rules", "meld", "biriba", "7S 8S 9S JK=10S JS QS KS", "--kozi", "S")["bonus"] == 300
    assert run_json("rules", "meld", "biriba", "7S 8S 9S JK=10S JS QS KS", "--kozi", "H")["bonus"] == 100


def test_BIR_20_layoff_moves_the_wild():
    result = run_json("rules", "layoff", "biriba", "--meld", "4H 5H 2C=6H 7H", "6H")
    assert result["valid"] and "6H" in result["cards"] and not result["clean"]
    assert result["cards"][0] == "2C=3H"
    high = run_json("rules", "layoff", "biriba", "--meld", "4H 5H 2C=6H 7H", "6H", "--wild-end", "high")
    assert high["cards"][-1] == "2C=8H"


def test_BIR_31_score_from_a_json_position():
    position = {"kozi": "S", "sides": [
        {"melds": ["5H 6H 7H 8H 9H 10H JH", "QC QD QS JK", "AS 2S 3S 4S"], "hands": ["", "8D 3C"],
         "pot": "taken", "closed": True},
        {"melds": ["7C 7D 7S 7H", "KD KH 2C"], "hands": ["AH JK 9C", "4D 4D 6S"], "pot": "untaken",
         "closed": False}]}
    result = run_json("rules", "score", "biriba", json.dumps(position))
    assert [side["total"] for side in result["sides"]] == [425, -110]


def test_BAS_01_capture_json_has_the_issue_shape():
    assert run_json("rules", "capture", "basra", "--floor", "5C 4D 2H 7S", "--play", "9H") == {
        "captured": ["5C", "4D", "2H", "7S"], "basra": True, "points": 10, "floor_after": []}
    assert "basra" in run("rules", "capture", "basra", "--floor", "5C 4D 2H 7S", "--play", "9H")


def test_diloti_declaration_in_words_and_json():
    args = ("rules", "declare", "diloti", "--floor", "5C", "--hand", "3D 8S", "declare P8 (5C 3D)")
    assert run_json(*args)["table_after"] == ["P8@0(3D 5C)"]
    assert "allowed" in run(*args)
    refused = ("rules", "declare", "diloti", "--floor", "5C 3D", "--hand", "8S 8H", "declare P8 (5C 3D)")
    assert run_json(*refused)["rule"].startswith("fishing-relatives.md §C3")
    assert "not allowed" in run(*refused)


@pytest.mark.parametrize("game", ["biriba", "buraco", "basra", "pisti", "xeri", "diloti"])
def test_rules_list_shows_presets_and_options(game):
    out = run("rules", "list", game)
    assert "presets" in out and "options" in out


@pytest.mark.parametrize(("args", "named"), [
    (("rules", "meld", "biriba", "4H 5X 6H"), "'5X'"),
    (("rules", "meld", "biriba", "4H 5H 6H", "--option", "allow_sets=maybe"), "allow_sets"),
    (("rules", "meld", "biriba", "4H 5H 6H", "--preset", "seven_players"), "seven_players"),
    (("rules", "meld", "biriba", "4H 5H 6H", "--preset", "two_players", "--preset", "six_players"),
     "six_players"),
    (("rules", "capture", "basra", "--floor", "5C", "--play", "9Z"), "'9Z'"),
    (("rules", "capture", "chess", "--floor", "5C", "--play", "9H"), "chess"),
    (("rules", "declare", "basra", "--floor", "5C", "--hand", "3D", "declare P8 (5C 3D)"), "declare"),
    (("rules", "score", "biriba", "{not json"), "not JSON"),
    (("autoplay", "basra", "--players", "grandmaster"), "grandmaster"),
])
def test_bad_input_exits_2_naming_what_is_wrong(args, named):
    out = run(*args, code=2)
    assert named in out and "Traceback" not in out


def test_autoplay_writes_a_record_that_replays_and_a_tampered_one_is_refused(tmp_path):
    record = tmp_path / "match.jsonl"
    run("autoplay", "basra", "--seed", "5", "--players", "heuristic,random", "--record", str(record))
    assert "verified" in run("replay", str(record))
    lines = record.read_text().splitlines()
    actions = [i for i, line in enumerate(lines) if '"action":"play' in line]
    first_played = json.loads(lines[actions[0]])["action"]        # nobody holds this card any more
    tampered = json.loads(lines[actions[5]])
    tampered["action"] = first_played
    lines[actions[5]] = json.dumps(tampered)
    record.write_text("\n".join(lines) + "\n")
    out = run("replay", str(record), code=2)
    assert f"record line {actions[5] + 1}" in out


def test_BUR_43_old_preset_and_option_names_work_on_the_command_line():
    """README §5: ``fechado_stbl`` and ``a_to_a_bonus`` are aliases; the CLI, the lobby and the
    API all build rules through the rulebook, so all three accept them."""
    assert not run_json("rules", "meld", "buraco", "7C 7D 7S", "--preset", "fechado_stbl")["valid"]
    assert run_json("rules", "meld", "buraco", "7C 7D 7S", "--preset", "fechado")["valid"]
    assert run_json("rules", "meld", "buraco", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
                    "--option", "a_to_a_bonus=700")["bonus"] == 700
    listed = run("rules", "list", "buraco", "--preset", "fechado_stbl")
    assert "stbl" in listed and "fechado_stbl" in listed


def test_BUR_34_lobby_lists_new_presets_and_aliases():
    import kafenio
    from kafenio.server.live import describe_game

    lobby = describe_game("buraco", kafenio.rulebook("buraco"))
    presets = {p["name"]: p for p in lobby["presets"]}
    assert {"fechado", "stbl", "no_vulnerability", "stalemate_draw"} <= set(presets)
    assert presets["stbl"]["aliases"] == ["fechado_stbl"] and "runs only" not in presets["fechado"]["doc"]
    options = {o["name"]: o for o in lobby["options"]}
    assert options["allow_sets"]["default"] is False
    assert options["canastra_real_bonus"]["aliases"] == ["a_to_a_bonus"]


@pytest.mark.parametrize("game", ["biriba", "buraco", "basra", "pisti", "xeri", "diloti"])
def test_rules_list_names_the_sources_of_each_preset_and_option(game, monkeypatch):
    """README §7: a Sources column on both tables, then each cited key's title and address."""
    import kafenio

    monkeypatch.setenv("COLUMNS", "400")
    out = run("rules", "list", game)
    book = kafenio.rulebook(game)
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") >= 5}
    for entry in (*book.presets, *book.options):
        assert rows[entry.name].rstrip(" │").endswith(", ".join(entry.sources) or "none: a rule of kafenio's own")
    for source in book.cited_sources():
        assert source.title in out and source.urls_for(game)[0] in out
