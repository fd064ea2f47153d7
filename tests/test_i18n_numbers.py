"""Numbers in the reader's language: :func:`kafenio.i18n.number` and :func:`~kafenio.i18n.percent`
write scores, counts, seconds and margins as CLDR has each language write them, the same as the
browser's ``formatNumber`` (``Intl.NumberFormat``) — Latin digits in every language, Arabic
included, the minus sign of Arabic with its left-to-right mark — in the terminal table, the
referee's answers and the CLI's tables."""

from __future__ import annotations

import json
import shutil
import subprocess

import hatch_build
import pytest
from rich.console import Console
from typer.testing import CliRunner

from kafenio import i18n
from kafenio.i18n import language, number, percent

LRM = "\u200e"
LANGUAGES = ["en", *sorted(hatch_build.po_files())]


@pytest.fixture(scope="module")
def compiled():
    if hatch_build.catalogs_need_compiling():
        hatch_build.compile_catalogs()


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["-1,234.5", "3,150", "12,345", "0.6", "+2.50", "12.3%"]),
    ("el", ["-1.234,5", "3.150", "12.345", "0,6", "+2,50", "12,3%"]),
    ("pt_BR", ["-1.234,5", "3.150", "12.345", "0,6", "+2,50", "12,3%"]),
    ("it", ["-1234,5", "3150", "12.345", "0,6", "+2,50", "12,3%"]),     # no group below 10 000
    ("ar", [LRM + "-1,234.5", "3,150", "12,345", "0.6", LRM + "+2.50", f"12.3{LRM}%{LRM}"]),
    ("tr", ["-1.234,5", "3.150", "12.345", "0,6", "+2,50", "%12,3"]),
])
def test_numbers_are_written_as_each_language_writes_them(lang, expected):
    with language(lang):
        assert [number(-1234.5), number(3150), number(12345), number(0.6), number(2.5, digits=2, sign=True),
                percent(0.123, digits=1)] == expected


def test_zero_has_no_sign_and_halves_round_away_from_zero():
    with language("el"):
        assert number(0, sign=True) == "0" and number(-0.0001) == "0"
        assert number(2.345, digits=2) == "2,35" and number(-2.345, digits=2) == "-2,35"
        assert number(12) == "12" and percent(-0.5) == "-50%"


@pytest.mark.skipif(shutil.which("node") is None, reason="node (the web build's) is not installed")
def test_the_server_writes_numbers_as_the_browser_does():
    """The browser's formatNumber (web/src/i18n.ts) is Intl.NumberFormat with Latin digits; Node's
    ICU has the CLDR data of Chromium's (both CLDR 48 here)."""
    values = [-1234.5, 3150, 12345, 1234567.891, 0.6, -35, 7.25]
    script = """
const [langs, values] = JSON.parse(process.argv[1]);
const out = {};
for (const lang of langs) {
  const plain = new Intl.NumberFormat(lang, { numberingSystem: "latn" });
  const fixed = new Intl.NumberFormat(lang, { numberingSystem: "latn", minimumFractionDigits: 2,
                                             maximumFractionDigits: 2, signDisplay: "exceptZero" });
  const pct = new Intl.NumberFormat(lang, { numberingSystem: "latn", style: "percent", minimumFractionDigits: 1,
                                           maximumFractionDigits: 1 });
  out[lang] = values.map((v) => [plain.format(v), fixed.format(v), pct.format(v / 100)]);
}
console.log(JSON.stringify(out));
"""
    tags = [lang.replace("_", "-") for lang in LANGUAGES]
    done = subprocess.run(["node", "-e", script, json.dumps([tags, values])], capture_output=True, text=True,
                          check=True, timeout=60)
    browser = json.loads(done.stdout)
    for lang, tag in zip(LANGUAGES, tags, strict=True):
        with language(lang):
            ours = [[number(v), number(v, digits=2, sign=True), percent(v / 100, digits=1)] for v in values]
        assert ours == browser[tag], lang


def test_the_referee_scores_in_the_readers_numbers(compiled):
    """A deal's score with a negative side and a total over a thousand (Biriba's 13-card clean run)."""
    from kafenio.cli import app

    position = {"sides": [
        {"melds": ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"], "hands": ["", ""], "pot": "taken",
         "closed": True},
        {"melds": ["7C 7D 7S"], "hands": ["AH JK 9C", "4D 4D 6S"], "pot": "untaken", "closed": False}]}
    lines = {}
    for lang in ("el", "it", "ar"):
        i18n.set_language(lang)
        try:
            result = CliRunner().invoke(app, ["rules", "score", "biriba", json.dumps(position)], env={"COLUMNS": "200"})
        finally:
            i18n.set_language(None)
        assert result.exit_code == 0, result.output
        lines[lang] = result.output.splitlines()
    totals = json.loads(CliRunner().invoke(app, ["rules", "score", "biriba", json.dumps(position), "--json"]).output)
    first, second = (side["total"] for side in totals["sides"])
    assert first >= 1000 and second < 0
    with language("el"):
        assert lines["el"][0].endswith("= " + number(first)) and "." in number(first)
    assert lines["it"][0].endswith(f"= {first}")                      # no group separator below 10 000
    assert lines["ar"][1].endswith(f"= {LRM}-{-second}")              # the minus stays left in Arabic text
    assert f"{LRM}-" in lines["ar"][1].split("=")[0]                  # the hands, counted against the side


def test_the_terminal_tables_write_the_readers_numbers():
    from kafenio.tui.app import cell_text

    with language("el"):
        assert cell_text(1234.5) == "1.234,5" and cell_text(-100) == "-100"
        assert cell_text({"count": 2, "points": 1500}).startswith("2 (1.500 ")
    with language("ar"):
        assert cell_text(-100) == LRM + "-100"


def test_the_arena_report_writes_the_readers_numbers():
    from kafenio.arena.cli import print_report

    report = {"game": "basra", "deals": 1200, "seed": 12345, "seed_scheme": 2, "seconds": 3725.4,
              "pairings": [{"entrants": ["expert", "medium"], "rows": [
                  {"player": "expert", "mean_margin": 2.5, "ci95": [-0.25, 5.25], "win_rate": 0.6125,
                   "wins": 700, "ties": 35, "losses": 465}]}],
              "ratings": [{"player": "expert", "mu": 27.5, "sigma": 1.25, "ordinal": -1.5}]}
    console = Console(width=200, record=True)
    from kafenio.arena import cli as arena_cli

    arena_cli.console, saved = console, arena_cli.console
    try:
        with language("tr"):
            print_report(report)
    finally:
        arena_cli.console = saved
    text = console.export_text()
    assert "1.200" in text and "12345" in text and "3.725" in text     # the seed is an identifier
    assert "+2,50" in text and "[-0,25 … +5,25]" in text and "%61,3" in text and "700-35-465" in text
    assert "-1,50" in text
