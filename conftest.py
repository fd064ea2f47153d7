"""pytest's doctest collection of ``src/`` (``--doctest-modules``) skips the modules compiled by
mypyc (``hatch_build.py``): Python imports them from their extension, which pytest refuses for
the ``.py`` file, and which keeps no docstrings. ``tests/test_compiled.py`` runs their doctests
against the compiled modules instead."""

from __future__ import annotations

import sysconfig
from pathlib import Path

EXTENSION = sysconfig.get_config_var("EXT_SUFFIX")


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Skip a ``.py`` file with a compiled extension beside it; decide nothing for the others."""
    if collection_path.suffix == ".py" and collection_path.with_suffix(EXTENSION).is_file():
        return True
    return None
