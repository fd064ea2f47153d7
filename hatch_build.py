"""Hatchling build hook: build the browser table (``web/``) into ``src/kafenio/server/static/app/``.

Enabled in ``pyproject.toml`` by ``[tool.hatch.build.hooks.custom]``. For wheels and editable
installs it runs ``npm ci`` (when ``web/node_modules`` is missing or older than the lock file) and
``npm run build`` when the built page is missing or older than any source of it. The built files
are git-ignored, so they are handed to hatchling as artifacts to land in the wheel.

Set ``KAFENIO_SKIP_WEB_BUILD=1`` to install without Node: the server then serves its placeholder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).parent
WEB = ROOT / "web"
BUILT = ROOT / "src" / "kafenio" / "server" / "static" / "app"
BUILT_PAGE = BUILT / "index.html"
SOURCES = ("src", "public", "index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts")


def newest_mtime(paths: list[Path]) -> float:
    """The latest modification time of the files in ``paths`` (folders searched recursively)."""
    newest = 0.0
    for path in paths:
        files = path.rglob("*") if path.is_dir() else [path]
        for f in files:
            if f.is_file():
                newest = max(newest, f.stat().st_mtime)
    return newest


def web_build_needed(web: Path = WEB, page: Path = BUILT_PAGE) -> bool:
    """Whether the built page is missing or older than any of its sources."""
    if not page.is_file():
        return True
    return newest_mtime([web / s for s in SOURCES]) > page.stat().st_mtime


def npm_install_needed(web: Path = WEB) -> bool:
    """Whether ``npm ci`` must run: no installed tree, or one older than the lock file."""
    marker = web / "node_modules" / ".package-lock.json"
    return not marker.is_file() or (web / "package-lock.json").stat().st_mtime > marker.stat().st_mtime


def build_web(web: Path = WEB) -> None:
    """Run ``npm ci`` (if needed) and ``npm run build`` in ``web``.

    Raises:
        RuntimeError: Node or npm is missing, or a step failed (its output is in the message).
    """
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(
            f"kafenio's web table must be built, but {' and '.join(missing)} cannot be found on PATH. "
            "Install Node.js 20 or newer with npm (Debian: apt-get install nodejs npm), or set "
            "KAFENIO_SKIP_WEB_BUILD=1 to install without the web table.")
    steps = [["npm", "ci", "--no-audit", "--no-fund"]] if npm_install_needed(web) else []
    for cmd in [*steps, ["npm", "run", "build"]]:
        done = subprocess.run(cmd, cwd=web, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"`{' '.join(cmd)}` failed in {web} (exit {done.returncode}):\n"
                               f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}")


class WebBuildHook(BuildHookInterface):
    """Builds ``web/`` before a wheel or an editable install is made."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or os.environ.get("KAFENIO_SKIP_WEB_BUILD") == "1":
            return
        if web_build_needed():
            self.app.display_info("building the web table (npm run build in web/)")
            build_web()
        build_data["artifacts"].append("src/kafenio/server/static/app/**")
