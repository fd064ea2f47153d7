"""The arena: duplicate seating, reproducible results, the CI arithmetic, the JSON report, errors."""

from __future__ import annotations

import json
import math

import pytest
import typer
from typer.testing import CliRunner

import kafenio
from kafenio.arena import mean_ci, run_arena, seatings
from kafenio.arena.cli import register
from kafenio.arena.duplicate import DealSetResult
from kafenio.arena.report import ratings, t975
from kafenio.engine.errors import KafenioError

pytestmark = pytest.mark.skipif("basra" not in kafenio.available_games(), reason="basra not available yet")


def test_duplicate_seating_swaps_sides():
    two = kafenio.load_game("basra")
    assert seatings(two, ["a", "b"]) == [["a", "b"], ["b", "a"]]
    four = kafenio.load_game("basra", options={"num_players": 4})
    tables = seatings(four, ["a", "b"])
    assert len(tables) == 2
    for seat in range(4):
        assert tables[0][seat] != tables[1][seat]
        assert tables[0][seat] == tables[0][(seat + 2) % 4]  # partners play the same player
    with pytest.raises(KafenioError, match="one player per side"):
        seatings(two, ["a", "b", "c"])


def test_margins_rotate_with_the_seats():
    result = DealSetResult(0, 0, ("a", "b"), ((30, 10), (25, 5)))
    # table 0: a holds side 0 (+20); table 1: a holds side 1 (5 - 25 = -20)
    assert result.margins() == [0.0, 0.0]
    result = DealSetResult(0, 0, ("a", "b"), ((30, 10), (5, 25)))
    assert result.margins() == [20.0, -20.0]


def test_ratings_rank_each_deal_set_by_its_margins_not_its_tables():
    # every set: a wins table 0 by 10 and loses table 1 by 100 (one table each, margin a -45)
    lopsided = [DealSetResult(0, d, ("a", "b"), ((110, 100), (200, 100))) for d in range(20)]
    table = {row["player"]: row for row in ratings(lopsided)}
    assert table["b"]["ordinal"] > table["a"]["ordinal"] + 10
    even = [DealSetResult(0, d, ("a", "b"), ((110, 100), (110, 100))) for d in range(20)]
    table = {row["player"]: row for row in ratings(even)}
    assert table["a"]["mu"] == pytest.approx(table["b"]["mu"])
    # across pairings the order follows the margins: c beats b, b beats a, in every set
    ladder = [DealSetResult(p, d, pair, ((50, 60), (60, 50)))
              for p, pair in enumerate([("a", "b"), ("b", "c")]) for d in range(20)]
    assert [row["player"] for row in ratings(ladder)] == ["c", "b", "a"]


def test_ci_half_width_by_hand():
    # mean 3, sample sd sqrt(2.5) = 1.5811, t(0.975, 4) = 2.776: 2.776 * 1.5811 / sqrt(5) = 1.9629
    mean, half = mean_ci([1, 2, 3, 4, 5])
    assert mean == 3 and half == pytest.approx(1.9629, abs=1e-4)
    assert math.isinf(mean_ci([4.0])[1])
    assert t975(40) == pytest.approx(2.021, abs=1e-3) and t975(1000) == pytest.approx(1.962, abs=1e-3)


def test_results_reproducible_from_the_seed():
    runs = [run_arena("basra", ["random", "ismcts:8"], deals=3, seed=7, workers=w) for w in (1, 1, 2)]
    assert runs[0]["pairings"] == runs[1]["pairings"] == runs[2]["pairings"]
    assert runs[0]["ratings"] == runs[2]["ratings"]
    other = run_arena("basra", ["random", "ismcts:8"], deals=3, seed=8, workers=1)
    assert other["pairings"] != runs[0]["pairings"]


def test_search_plays_iteration_bound_and_its_think_time_is_reported():
    plain, capped = (run_arena("basra", ["random", name], deals=2, seed=7, workers=1)
                     for name in ("ismcts:8", "ismcts:8/0.0001s"))
    margins = [[row["mean_margin"] for row in report["pairings"][0]["rows"]] for report in (plain, capped)]
    assert margins[0] == margins[1]  # the 0.1 ms cap would bind at once: the arena drops it
    (think,) = capped["think"]
    assert think["player"] == "ismcts:8/0.0001s" and think["searches"] > 0
    assert 0 < think["mean_seconds"] <= think["max_seconds"]


def cli() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command()
    def _other() -> None:  # a second command keeps "arena" a subcommand, as in kafenio's app
        pass

    return app


def test_json_report_shape(tmp_path):
    path = tmp_path / "arena.json"
    out = CliRunner().invoke(cli(), ["arena", "basra", "--players", "random,ismcts:5,ismcts:10", "--deals", "2",
                                     "--seed", "3", "--workers", "1", "--json", str(path),
                                     "--log", str(tmp_path / "sets.jsonl")])
    assert out.exit_code == 0, out.output
    report = json.loads(path.read_text())
    logged = [json.loads(line) for line in (tmp_path / "sets.jsonl").read_text().splitlines()]
    assert sorted((r["pairing"], r["deal"]) for r in logged) == [(p, d) for p in range(3) for d in range(2)]
    assert {len(r["scores"]) for r in logged} == {2}
    assert report["seed_scheme"] == 1 and report["game"] == "basra" and report["deals"] == 2
    assert [p["entrants"] for p in report["pairings"]] == [
        ["random", "ismcts:5"], ["random", "ismcts:10"], ["ismcts:5", "ismcts:10"]]
    row = report["pairings"][0]["rows"][0]
    assert set(row) == {"player", "deal_sets", "mean_margin", "ci95_half_width", "ci95", "win_rate",
                        "wins", "ties", "losses"}
    assert row["deal_sets"] == 2 and row["wins"] + row["ties"] + row["losses"] == 2
    assert {r["player"] for r in report["ratings"]} == {"random", "ismcts:5", "ismcts:10"}


@pytest.mark.parametrize(("args", "listed"), [
    (["--players", "random,wizard"], "expert"),
    (["--players", "random,ismcts:fast"], "500/2s"),
    (["--players", "random,random"], "once"),
    (["--players", "random,hard", "--preset", "nope"], "egyptian"),
    (["--players", "random,hard", "--backend", "dask"], "process, ray"),
])
def test_unknown_names_are_refused(args, listed):
    out = CliRunner().invoke(cli(), ["arena", "basra", "--deals", "1", "--workers", "1", *args])
    assert out.exit_code == 2
    assert listed in " ".join(out.output.split())


def test_ray_backend_matches_processes():
    pytest.importorskip("ray", reason="ray is an optional extra, not installed")
    kwargs = {"deals": 2, "seed": 5, "workers": 1}
    ray_run = run_arena("basra", ["random", "ismcts:5"], backend="ray", **kwargs)
    assert ray_run["pairings"] == run_arena("basra", ["random", "ismcts:5"], **kwargs)["pairings"]
