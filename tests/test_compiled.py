"""The fishing engine's modules (issue #8), the rummy core (issue #7) and the card-counting fishing
player's arithmetic run compiled (mypyc, ``hatch_build.py``), and compiled play is the same game
as the plain sources: the legal actions at every step, determinizations and the final returns of
seeded random deals of every fishing and rummy game and preset (and for rummy an observation, the
view and the score sheet), and the heuristic's moves, agree with a run of the plain ``.py`` files
in another process. The doctests of the compiled modules (which pytest's
doctest collection skips, ``conftest.py``) run here against the compiled code.

``KAFENIO_PURE=1`` (an install in pure Python on purpose) skips the first test; without it, a
missing or stale extension fails it, so CI notices a build that fell back to pure Python."""

from __future__ import annotations

import ast
import doctest
import hashlib
import importlib
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEALS = 8


def play_digest(deals: int = DEALS) -> str:
    """SHA-1 over every legal-action list, a determinization's legal actions and the returns of
    ``deals`` seeded random deals of each preset of Basra, Pişti, Xeri, Diloti, Biriba and Buraco
    (and Basra with 4 players); for Biriba and Buraco also the observation and view at the
    determinization's step and the score sheet; and every move of ``deals`` deals of Basra, Pişti
    and Xeri played by the card-counting heuristic (:mod:`kafenio.agents.capture_value`)."""
    import kafenio
    from kafenio.agents import make_player
    from kafenio.engine.game import Seat

    digest = hashlib.sha1()
    games = ("basra", "pisti", "xeri", "diloti", "biriba", "buraco")
    variants = [(g, p.name, {}) for g in games for p in kafenio.rulebook(g).presets]
    variants.append(("basra", "egyptian", {"num_players": 4}))
    for name, preset, options in variants:
        game = kafenio.load_game(name, preset=preset, options=options)
        for i in range(deals):
            rng = random.Random(i)
            state = game.new_initial_state(seed=rng.getrandbits(64))
            while not state.is_terminal():
                legal = state.legal_actions()
                digest.update(repr(legal).encode())
                if len(state.history) == 10:  # a determinization (a copy, renamed cards)
                    seat = state.current_player()
                    digest.update(repr(state.resample_from_infostate(seat, random.Random(i)).legal_actions()).encode())
                    if name in ("biriba", "buraco"):
                        digest.update(state.observation_tensor(seat).tobytes())
                        digest.update(repr(state.view(seat)).encode())
                state.apply_action(legal[rng.randrange(len(legal))])
            digest.update(repr(state.returns()).encode())
            if name in ("biriba", "buraco"):
                digest.update(repr(state.score_sheet()).encode())
    for name in ("basra", "pisti", "xeri"):  # the card-counting player's arithmetic is compiled too
        game = kafenio.load_game(name)
        players = [make_player("heuristic", game, seat) for seat in range(game.num_players())]
        for i in range(deals):
            state = game.new_initial_state(seed=i)
            while not state.is_terminal():
                action = players[state.current_player()].step(Seat(state, state.current_player()))
                digest.update(repr(action).encode())
                state.apply_action(action)
    return digest.hexdigest()


@pytest.mark.skipif(os.environ.get("KAFENIO_PURE") == "1", reason="installed in pure Python on purpose")
def test_the_engine_modules_are_compiled_from_the_current_sources():
    import hatch_build

    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in compiled_modules():
        module = importlib.import_module(name)
        assert module.__file__.endswith(suffix), f"{name} is not compiled: run bin/setup"
    sources = hatch_build.compiled_sources()
    assert not hatch_build.compile_needed(sources), "a compiled module is older than its source: run bin/setup"


def compiled_modules() -> list[str]:
    import hatch_build

    return [s.removeprefix("src/").removesuffix(".py").replace("/", ".") for s in hatch_build.compiled_sources()]


@pytest.mark.parametrize("name", compiled_modules())
def test_doctests_of_the_compiled_modules(name):
    """Every docstring example of the module's source, run in the namespace of the imported module."""
    module = importlib.import_module(name)
    source = ROOT / "src" / (name.replace(".", "/") + ".py")
    kinds = ast.Module | ast.ClassDef | ast.FunctionDef
    nodes = [n for n in ast.walk(ast.parse(source.read_text())) if isinstance(n, kinds)]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for node in nodes:
        text = ast.get_docstring(node, clean=False)
        if text and ">>>" in text:
            runner.run(doctest.DocTestParser().get_doctest(text, dict(vars(module)), name, str(source), 0))
    assert runner.summarize(verbose=False).failed == 0


def test_compiled_and_plain_play_agree(tmp_path):
    plain = tmp_path / "kafenio"
    shutil.copytree(ROOT / "src" / "kafenio", plain,
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "static", "locale"))
    code = ("import test_compiled as t, kafenio.fishing.state as f, kafenio.rummy.state as r; "
            "print(t.play_digest(), f.__file__, r.__file__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{Path(__file__).parent}"})
    digest, *where = done.stdout.split()
    assert all(w.endswith(".py") and w.startswith(str(tmp_path)) for w in where)
    assert play_digest() == digest


@pytest.mark.skipif(os.environ.get("KAFENIO_PURE") == "1", reason="installed in pure Python on purpose")
def test_a_wheel_carries_the_compiled_modules(tmp_path):
    """``pip wheel .`` (the non-editable install) packs every compiled extension and mypyc's
    shared library, and the unpacked wheel plays on its own compiled modules."""
    import zipfile

    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            "-w", str(tmp_path / "dist"), str(ROOT)], capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("kafenio-*.whl")
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    script = ("import importlib, random, kafenio\n"
              f"for name in {compiled_modules()!r}:\n"
              "    assert importlib.import_module(name).__file__.endswith(" + repr(suffix) + "), name\n"
              "state = kafenio.load_game('buraco').new_initial_state(seed=5)\n"
              "rng = random.Random(5)\n"
              "while not state.is_terminal():\n"
              "    legal = state.legal_actions()\n"
              "    state.apply_action(legal[rng.randrange(len(legal))])\n"
              "print(kafenio.__file__)")
    ran = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False,
                         env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stdout.strip() == str(tmp_path / "site" / "kafenio" / "__init__.py")
