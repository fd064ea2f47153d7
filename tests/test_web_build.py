"""The web table's build: the hatch hook builds it into the package, and its vitest suite passes.

Runs ``npm`` (skipped when npm is not installed); the first run may install ``web/node_modules``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import hatch_build
import pytest

pytestmark = pytest.mark.skipif(shutil.which("npm") is None or shutil.which("node") is None,
                                reason="node/npm not installed: the web table cannot be built or tested")


def test_hook_builds_the_web_table_into_the_package():
    if hatch_build.web_build_needed():
        hatch_build.build_web()
    assert not hatch_build.web_build_needed()
    page = hatch_build.BUILT_PAGE.read_text()
    for asset in re.findall(r'(?:src|href)="/static/app/([^"]+)"', page):
        assert (hatch_build.BUILT / asset).is_file(), asset
    assert (hatch_build.BUILT / "cards" / "2color" / "TH.svg").is_file()
    assert (hatch_build.BUILT / "cards" / "LICENSE.md").is_file()
    assert (hatch_build.BUILT / ".gitignore").read_text().strip().endswith("*")


def test_build_is_needed_when_a_source_is_newer(tmp_path: Path):
    web = tmp_path / "web"
    (web / "src").mkdir(parents=True)
    source = web / "src" / "main.ts"
    source.write_text("")
    page = tmp_path / "index.html"
    assert hatch_build.web_build_needed(web, page)
    page.write_text("")
    past = time.time() - 60
    os.utime(source, (past, past))
    assert not hatch_build.web_build_needed(web, page)
    source.touch()
    assert hatch_build.web_build_needed(web, page)


def test_missing_node_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PATH", "")
    with pytest.raises(RuntimeError, match=r"Node\.js 20"):
        hatch_build.build_web()


def test_vitest_suite():
    if hatch_build.npm_install_needed():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=hatch_build.WEB, check=True,
                       capture_output=True)
    done = subprocess.run(["npm", "test"], cwd=hatch_build.WEB, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
