"""The arena's resumable log (``--log FILE --resume``): a run completed from its log reports
exactly what one uninterrupted run reports, plays only the missing deal sets, ignores other runs'
lines and rejects a broken log naming the line; Ctrl-C stops a run at once, its log intact."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time

import pytest
import typer
from typer.testing import CliRunner

from kafenio.arena import run_arena
from kafenio.arena.cli import register
from kafenio.arena.duplicate import GameSpec, log_line, make_tasks, read_log, run_identity, run_tasks
from kafenio.engine.errors import KafenioError

PLAYERS = ["random", "heuristic", "ismcts:4"]


def _log(path, identity, results) -> None:
    with path.open("a", encoding="utf-8") as out:
        for result in results:
            out.write(log_line(identity, result) + "\n")


def _stats(report: dict) -> list:
    return [(p["entrants"], p["deal_sets"], p["rows"]) for p in report["pairings"]]


def test_a_run_completed_from_its_log_equals_one_run(tmp_path):
    identity = run_identity(GameSpec("basra"), 5)
    log = tmp_path / "run.jsonl"
    first: list = []
    run_arena("basra", PLAYERS[:2], deals=3, seed=5, workers=1, on_result=first.append)
    _log(log, identity, first)
    done, others = read_log(log, identity)
    assert (len(done), others) == (3, 0)
    played: list = []
    resumed = run_arena("basra", PLAYERS, deals=4, seed=5, workers=1, on_result=played.append, done=done)
    # random-heuristic: deal 3 only; the pairings with ismcts:4: all four deals
    assert sorted((r.entrants, r.deal) for r in played) == sorted(
        [(("random", "heuristic"), 3)] + [(e, d) for e in (("random", "ismcts:4"), ("heuristic", "ismcts:4"))
                                          for d in range(4)])
    assert resumed["resumed"] == 3
    whole = run_arena("basra", PLAYERS, deals=4, seed=5, workers=1)
    assert _stats(resumed) == _stats(whole)
    assert resumed["ratings"] == whole["ratings"]


def test_other_runs_lines_are_not_used(tmp_path):
    log = tmp_path / "run.jsonl"
    results: list = []
    run_arena("basra", PLAYERS[:2], deals=2, seed=5, workers=1, on_result=results.append)
    _log(log, run_identity(GameSpec("basra"), 6), results)                       # another seed
    _log(log, {**run_identity(GameSpec("basra"), 5), "code": "0" * 16}, results)   # other code
    log.open("a").write(json.dumps({"pairing": 0, "deal": 0, "entrants": ["random", "heuristic"],
                                    "scores": [[1, 2]], "think": []}) + "\n")      # unnamed run
    assert read_log(log, run_identity(GameSpec("basra"), 5)) == ([], 5)
    assert read_log(tmp_path / "missing.jsonl", run_identity(GameSpec("basra"), 5)) == ([], 0)


@pytest.mark.parametrize("line", ["{not json", "[1, 2]", '{"run": RUN, "pairing": 0}',
                                  '{"run": RUN, "pairing": 0, "deal": "x", "entrants": [], "scores": [], "think": []}'])
def test_a_broken_log_names_its_line(tmp_path, line):
    identity = run_identity(GameSpec("basra"), 5)
    log = tmp_path / "run.jsonl"
    log.write_text("\n" + line.replace("RUN", json.dumps(identity)) + "\n", encoding="utf-8")
    with pytest.raises(KafenioError, match=r"run\.jsonl line 2: not a deal set"):
        read_log(log, identity)


def _cli() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command()
    def _other() -> None:  # a second command keeps "arena" a subcommand
        """Unused."""

    return app


def test_cli_resume(tmp_path):
    log = tmp_path / "run.jsonl"
    args = ["arena", "basra", "--players", "random,heuristic", "--seed", "5", "--workers", "1", "--log", str(log)]
    assert CliRunner().invoke(_cli(), [*args, "--deals", "2"]).exit_code == 0
    assert len(log.read_text().splitlines()) == 2
    out = CliRunner().invoke(_cli(), [*args, "--deals", "3", "--resume", "--json", str(tmp_path / "r.json")])
    assert out.exit_code == 0, out.output
    assert "2 deal sets of this" in " ".join(out.output.split())
    assert len(log.read_text().splitlines()) == 3        # only deal 2 was played and logged
    report = json.loads((tmp_path / "r.json").read_text())
    assert (report["resumed"], report["pairings"][0]["deal_sets"]) == (2, 3)


def test_cli_resume_needs_a_log(tmp_path):
    out = CliRunner().invoke(_cli(), ["arena", "basra", "--deals", "1", "--workers", "1", "--resume"])
    assert out.exit_code == 2
    assert "--log" in out.output
    log = tmp_path / "bad.jsonl"
    log.write_text("oops\n")
    out = CliRunner().invoke(_cli(), ["arena", "basra", "--deals", "1", "--workers", "1", "--log", str(log),
                                      "--resume"])
    assert out.exit_code == 2
    assert "line 1" in " ".join(out.output.split())


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child before it runs Python: Ctrl-C's default action back, as a shell in a terminal
    starts a command. A suite started in the background (``cmd &`` without job control, nohup)
    ignores SIGINT, and a child inherits that: the run would rightly ignore the Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_run_at_once_and_keeps_its_log(tmp_path):
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) ends the run and its workers
    at once, says where the finished deal sets are, and leaves a log that resumes. Before, the
    executor's shutdown played every queued deal set first (here about 400 CPU seconds)."""
    log = tmp_path / "run.jsonl"
    cmd = [sys.executable, "-m", "kafenio", "arena", "basra", "--players", "random,hard", "--deals", "400",
           "--workers", "2", "--log", str(log)]
    run = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           start_new_session=True, preexec_fn=_ctrl_c_as_in_a_terminal)
    try:
        while not log.exists() or not log.read_text():
            assert run.poll() is None, run.communicate()[0]
            time.sleep(0.2)
        os.killpg(run.pid, signal.SIGINT)
        output = " ".join(run.communicate(timeout=60)[0].split())
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, output
    assert re.search(rf"deal sets? of this run (is|are) in {re.escape(str(log))}", output) and "--resume" in output
    with pytest.raises(ProcessLookupError):  # no worker left behind
        os.killpg(run.pid, 0)
    identity = run_identity(GameSpec("basra", (), ()), 0)
    done, others = read_log(log, identity)
    assert 1 <= len(done) < 400 and others == 0


def test_an_interrupt_while_a_result_is_handled_ends_the_workers():
    """Ctrl-C may land while a finished deal set is being logged (in ``on_result``), outside the
    pool's own loop: the workers end then too, and their queued deal sets are not played."""
    spec = GameSpec("basra", (), ())
    tasks = make_tasks(spec, spec.load(), ["random", "hard"], 200, 0)

    def interrupt(_result):
        raise KeyboardInterrupt

    try:
        run_tasks(tasks, 2, on_result=interrupt)
    except KeyboardInterrupt:  # as the command line's handler sees it: the run's frames still held
        assert not multiprocessing.active_children()
    else:
        raise AssertionError("the interrupt was swallowed")
