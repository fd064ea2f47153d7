"""Smoke tests of the benchmark command: it produces figures and survives missing games.

Nothing here is timed; the rows run for fractions of a second and only their shape is checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks.run import kafenio_playout, run_isolated, run_workload

import kafenio

ROOT = Path(__file__).resolve().parents[1]


class _CountdownState:
    """A fake game state: ``moves`` turns of two legal actions each, then terminal."""

    def __init__(self, moves: int):
        self.moves = moves

    def is_terminal(self) -> bool:
        return self.moves == 0

    def legal_actions(self) -> list[int]:
        return [0, 1]

    def apply_action(self, action: int) -> None:
        self.moves -= 1


class _CountdownGame:
    def new_initial_state(self, seed: int | None = None) -> _CountdownState:
        return _CountdownState(10)


def test_anchor_row_through_the_command(tmp_path):
    pytest.importorskip("pyspiel")
    out = tmp_path / "bench.json"
    command = [sys.executable, "-m", "benchmarks.run", "--seconds", "0.5", "--only", "openspiel_gin_rummy",
               "--json", str(out)]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert "openspiel_gin_rummy" in completed.stdout
    (row,) = json.loads(out.read_text())["rows"]
    assert row["name"] == "openspiel_gin_rummy"
    assert row["transitions_per_s"] > 0
    assert 0 < row["decisions"] < row["transitions"]  # gin_rummy's deal and draws are chance nodes


def test_unregistered_game_is_not_available():
    row = run_workload("no_such_game", "playout", "no_such_game", {}, seconds=0.1)
    assert row["name"] == "no_such_game"
    assert row["error"] == "not available yet"


def test_unregistered_game_in_a_worker_process_is_not_available():
    row = run_isolated("no_such_game", run_workload, lambda elapsed: None, name="no_such_game",
                       job="env", game="no_such_game", options={}, seconds=0.1, seed=0)
    assert row["error"] == "not available yet"


def test_env_row_is_measured_against_its_anchors():
    row = run_workload("basra_env", "env", "basra", {}, seconds=0.3)
    assert row["name"] == "basra_env" and row["decisions_per_s"] > 0


def test_registered_game_is_measured(monkeypatch):
    monkeypatch.setattr(kafenio, "load_game", lambda name, **options: _CountdownGame())
    row = kafenio_playout("countdown", {}, seconds=0.2, seed=1)
    assert "error" not in row
    assert row["transitions"] == row["decisions"] == 10 * row["games"] > 0
    assert row["transitions_per_s"] > 0
