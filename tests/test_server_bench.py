"""The server benchmark's harness runs end to end (a few tables, a computer table and a small
socket flood for two seconds); it asserts that figures are produced, nothing failed and the
flood met the socket quota, never how fast."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_server_bench_plays_every_seat_over_its_socket(tmp_path):
    out = tmp_path / "bench.json"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "server_bench.py"), "--tables", "3", "--seconds",
                    "2", "--think", "0.02", "--expert-tables", "1", "--bot-level", "random", "--bot-delay", "0.05",
                    "--flood", "40", "--json", str(out)], check=True, cwd=ROOT, timeout=120, capture_output=True)
    figures = json.loads(out.read_text())
    assert figures["tables"] == 3 and figures["seats"] == 3 * figures["seats_per_table"]
    assert figures["moves"] > 0 and figures["p99_ms"] is not None and figures["moves_per_s"] > 0
    assert figures["errors"] == {} and figures["crashed_clients"] == []
    assert figures["bot_changes"] > 0
    assert figures["loop_cpu_share"] > 0 and figures["loop_wait_share"] >= 0
    assert figures["flood"]["accepted"] == 32 and figures["flood"]["refused"] == 8  # the default socket quota
