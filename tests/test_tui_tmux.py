"""Smoke test of the real terminal: ``kafenio play basra`` in a detached tmux session.

It checks that the table renders in a fixed-size terminal, reacts to keys and writes its record.
Skipped when tmux is missing (the project's set-up script installs it).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import kafenio

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (the set-up script installs it)")


def tmux(*args: str) -> str:
    """Run a tmux command and return its output."""
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


class Pane:
    """A detached tmux session running one command."""

    def __init__(self, name: str):
        self.name = name

    def text(self) -> str:
        """The visible screen as plain text."""
        return tmux("capture-pane", "-p", "-t", self.name)

    def wait_for(self, check: Callable[[str], bool], timeout: float = 20) -> str:
        """Poll the screen until ``check`` holds; fail with the last screen otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail("the terminal never showed what was expected:\n" + screen)
            time.sleep(0.2)

    def keys(self, *keys: str) -> None:
        """Send key names (tmux spelling: ``Enter``, ``Right``, ``r``)."""
        tmux("send-keys", "-t", self.name, *keys)

    def alive(self) -> bool:
        """True while the session (and so the command) is running."""
        return subprocess.run(["tmux", "has-session", "-t", self.name], capture_output=True).returncode == 0


@pytest.fixture
def basra_table(tmp_path: Path) -> Iterator[tuple[Pane, Path]]:
    """``kafenio play basra --seed 3 --delay 0`` in a 100×32 tmux session; records under tmp_path."""
    if "basra" not in kafenio.available_games():
        pytest.skip("basra is not available yet")
    players = "heuristic" if importlib.util.find_spec("kafenio.agents.heuristic_basra") else "random"
    env = {"PYTHONPATH": str(ROOT / "src"), "XDG_DATA_HOME": str(tmp_path), "TERM": "xterm-256color"}
    command = " ".join([
        "env", *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
        shlex.quote(sys.executable), "-m", "kafenio", "play", "basra", "--seed", "3", "--delay", "0",
        "--players", players])
    pane = Pane(f"kafenio-test-{os.getpid()}")
    tmux("new-session", "-d", "-s", pane.name, "-x", "100", "-y", "32", "-c", str(ROOT), command)
    try:
        yield pane, tmp_path
    finally:
        if pane.alive():
            tmux("kill-session", "-t", pane.name)


def test_basra_table_renders_and_reacts(basra_table: tuple[Pane, Path]) -> None:
    pane, data = basra_table
    screen = pane.wait_for(lambda s: "Your hand" in s and "your turn" in s)
    assert "Floor:" in screen and "stock:" in screen and "Legal actions" in screen
    assert any(suit in screen for suit in "♠♥♦♣")
    pane.keys("r")
    pane.wait_for(lambda s: "Hand sorted by rank" in s)
    pane.keys("Enter")                                   # play the card under the cursor
    pane.wait_for(lambda s: "you: play" in s)
    records = list((data / "kafenio" / "records").glob("basra-*.jsonl"))
    assert len(records) == 1 and '"game":"basra"' in records[0].read_text().splitlines()[0]
    pane.keys("q")
    deadline = time.monotonic() + 10
    while pane.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not pane.alive(), "q did not leave the table"
