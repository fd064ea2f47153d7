"""Translations: the gettext catalogs (``src/kafenio/locale``) and the browser's JSON catalogs.

Every translated message exists in the source (``_()`` in ``src/kafenio``, ``t()`` in ``web/src``;
a new source message may wait for its translation in other languages: it is shown in English),
the browser's catalog is the one written from the same ``.po``, and the Greek catalog translates
every message (browser table, server, terminal table, CLI, engine and referee) with the game
terms of the glossary (``shared/i18n/GLOSSARY.md``), keeping each placeholder with its
conversion and format spec. The rule explanations of the rulebooks (every option's and preset's
``doc``) are extracted as messages too (``hatch_build.extract_python_and_rule_docs``), so the
lobby and ``kafenio rules list`` explain the rules in Greek. ``kafenio serve --lang el`` and
``kafenio play --lang el`` speak Greek; the CLI's ``--help`` is written at import, so it speaks
the language the process starts in (``LANG``/``LANGUAGE``). The engine's error prefixes
("illegal action …", "record line …") are translated too; the action notation (``draw``,
``discard 10S``) stays as it is. Every language's catalog is checked in ``test_i18n_catalogs.py``.
Skipped without Babel (the build and test requirement).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import hatch_build
import pytest
from typer.testing import CliRunner

import kafenio
from kafenio import i18n
from kafenio.engine.errors import CardError, IllegalAction, RecordError

pytest.importorskip("babel", reason="babel==2.18.0 (the catalogs' build requirement) is not installed")

GREEK = hatch_build.LOCALE / "el" / "LC_MESSAGES" / "kafenio.po"


def _key(message) -> str | tuple:
    return tuple(message.id) if message.pluralizable else message.id


@pytest.fixture(scope="module")
def template():
    return hatch_build.extract_messages()


@pytest.fixture
def greek() -> Iterator[None]:
    if hatch_build.catalogs_need_compiling():
        hatch_build.compile_catalogs()
    i18n.set_language("el")
    yield
    i18n.set_language(None)


def test_every_translated_message_is_in_the_source(template):
    source = {_key(m) for m in template if m.id}
    for lang, path in hatch_build.po_files().items():
        catalog = hatch_build.read_catalog(path)
        stale = [m.id for m in catalog if m.id and any(m.string if m.pluralizable else (m.string,))
                 and _key(m) not in source]
        assert not stale, f"{lang}: messages no longer in the source (python hatch_build.py catalogs): {stale}"
        assert not catalog.obsolete, f"{lang}: obsolete entries left in {path}"


def test_the_browser_catalogs_are_written_from_the_po_files():
    for lang, path in hatch_build.po_files().items():
        web = hatch_build.WEB_LOCALE / f"{lang}.json"
        assert json.loads(web.read_text(encoding="utf-8")) == hatch_build.web_catalog(hatch_build.read_catalog(path)), \
            f"{web} is not in step with {path}: run python hatch_build.py catalogs"


#: a replacement field of ``str.format`` (its name with any conversion and format spec, as in
#: ``{m:+.1f}`` or ``{text!r}``); the escaped braces ``{{`` and ``}}`` are matched first and are no field
FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def fields(text: str) -> set[str]:
    """The replacement fields of a message, each with its conversion and format spec."""
    return {m.group(1) for m in FIELD.finditer(text) if m.group(1) is not None}


def test_fields_read_conversions_and_specs_and_skip_escaped_braces():
    assert fields("{m:+.1f} a deal, {o:+.1f} ({n} simulations)") == {"m:+.1f", "o:+.1f", "n"}
    assert fields("cannot read {text!r}: {{not a field}}") == {"text!r"}
    assert fields("table after: {{{table}}}") == {"table"}


def test_greek_translates_every_message_keeping_its_placeholders():
    catalog = hatch_build.read_catalog(GREEK)
    untranslated, changed = [], []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if m.pluralizable else (m.id,)
        strings = m.string if m.pluralizable else (m.string,)
        if m.fuzzy or not all(strings):
            untranslated.append(m.id)
            continue
        wanted = fields(ids[-1])
        changed += [(m.id, text) for text in strings if fields(text) != wanted]
    assert not untranslated, f"{len(untranslated)} untranslated in {GREEK.name}: {untranslated}"
    assert not changed, f"placeholders changed: {changed}"


def test_greek_uses_the_glossary_terms(greek):
    _ = i18n._
    assert [_(w) for w in ("hearts", "diamonds", "clubs", "spades")] == ["κούπα", "καρό", "σπαθί", "μπαστούνι"]
    assert [_(w) for w in ("ace of hearts", "king of spades", "queen of diamonds", "jack of clubs", "joker")] \
        == ["άσσος κούπα", "ρήγας μπαστούνι", "ντάμα καρό", "βαλές σπαθί", "τζόκερ"]
    assert _("a hidden card was revealed since that action") == "από εκείνη την κίνηση αποκαλύφθηκε κρυφό φύλλο"
    web = json.loads((hatch_build.WEB_LOCALE / "el.json").read_text(encoding="utf-8"))["messages"]
    assert web["Hint"] == "Υπόδειξη" and web["Undo"] == "Αναίρεση" and web["Draw from the stock"].startswith("Τράβα")
    assert web["Your hand, {n} card"] == ["Το χέρι σου, {n} φύλλο", "Το χέρι σου, {n} φύλλα"]


def test_the_typescript_extractor_keeps_plurals_after_an_object_literal():
    source = io.BytesIO(b'''
        // t("not this")
        const a = t("{name}: {n} card", { name: names[s], n: size }, "{name}: {n} cards");
        x.t("nor a method's argument"); const b = t(`nor a template`);
        const c = t("Hello {x}", { x: f(a, b) }) + t('single');
    ''')
    found = [(line, msg) for line, _f, msg, _c in hatch_build.extract_typescript(source, ["t"], [], {})]
    assert found == [(3, ("{name}: {n} card", "{name}: {n} cards")), (5, ("Hello {x}",)), (5, ("single",))]


def test_the_rule_doc_extractor_reads_options_and_presets_beside_the_python_messages():
    """Docs by keyword and by position, under an ``as`` name or an alias, implicitly
    concatenated; not an f-string, nor another library's ``Option``."""
    source = io.BytesIO(b'''from kafenio.engine.rules import Option as O
from kafenio.engine.rules import Preset
from kafenio.i18n import _
from typer import Option
Opt = O
A = [Opt("a", "bool", True, doc="by keyword"), O("b", "int", 1, (), 0, 9, "by position"),
     O("c", "bool", False,
       doc="joined " "literals"),
     Opt("d", "bool", True, doc=f"not {A}"), Option("--e", help="a typer option")]
P = [Preset("p", "base", {}, "a preset"), Preset(name="q", kind="modifier", values={}, doc="by name")]
print(_("a message"), Opt("f", "bool", True))
''')
    found = [(line, message, comments) for line, _f, message, comments
             in hatch_build.extract_python_and_rule_docs(source, {"_": None}, [], {})]
    assert found == [(6, "by keyword", ["rule option a"]), (6, "by position", ["rule option b"]),
                     (8, "joined literals", ["rule option c"]), (10, "a preset", ["preset p"]),
                     (10, "by name", ["preset q"]), (11, "a message", [])]


def test_every_rule_explanation_is_a_message_of_the_template(template):
    """Each option's and preset's ``doc`` of every game is extracted (a literal the extractor
    sees), so a new one cannot be left out of the catalogs."""
    ids = {m.id for m in template if m.id}
    missing = [(game, item.name, item.doc) for game in kafenio.available_games()
               for item in [*kafenio.rulebook(game).options, *kafenio.rulebook(game).presets]
               if item.doc and item.doc not in ids]
    assert not missing, f"rule docs the extraction does not see (python hatch_build.py catalogs): {missing}"


def test_the_lobby_explains_the_rules_in_greek(greek):
    from kafenio.server.live import describe_game, rules_text

    book = kafenio.rulebook("basra")
    basra = describe_game("basra", book)
    deck = next(o for o in basra["options"] if o["name"] == "deck")
    doc = "52 φύλλα, ή 44 χωρίς ρηγάδες και ντάμες (παλαιστινιακή οικογένεια)"
    assert deck["doc"] == doc
    assert deck["text"] == f"{doc}: standard_52 (ένα από: standard_52, no_kings_queens_44)."
    egyptian = next(p for p in basra["presets"] if p["name"] == "egyptian")
    assert egyptian["doc"] == "Αιγυπτιακή Μπάστρα: όλα στις προεπιλογές (2 παίκτες· με 4 παίκτες παίζουν δύο ομάδες)"
    values = book.build("greek_bastra").to_dict()
    assert rules_text(book, values, ["greek_bastra"])[0] == "Ελληνική/Κυπριακή Μπάστρα"


def test_rules_list_explains_the_rules_in_greek(greek, monkeypatch):
    from rich.console import Console

    from kafenio import cli

    monkeypatch.setattr(cli, "console", Console(width=300))
    result = CliRunner().invoke(cli.app, ["rules", "list", "basra"])
    assert result.exit_code == 0, result.output
    assert "Αιγυπτιακή Μπάστρα: όλα στις προεπιλογές (2 παίκτες· με 4 παίκτες παίζουν δύο ομάδες)" in result.output
    assert "52 φύλλα, ή 44 χωρίς ρηγάδες και ντάμες (παλαιστινιακή οικογένεια)" in result.output
    assert "Egyptian Basra" not in result.output and "Palestinian family" not in result.output


def test_the_build_compiles_the_catalogs(tmp_path):
    po = tmp_path / "el" / "LC_MESSAGES" / "kafenio.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(GREEK.read_bytes())
    assert hatch_build.catalogs_need_compiling(tmp_path)
    assert hatch_build.compile_catalogs(tmp_path) == [po.with_suffix(".mo")]
    assert not hatch_build.catalogs_need_compiling(tmp_path)


def test_serve_with_a_language_without_a_catalog_speaks_english(monkeypatch, tmp_path):
    import uvicorn

    from kafenio.cli import app

    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    try:
        result = CliRunner().invoke(app, ["serve", "--lang", "xx", "--no-browser",
                                          "--database-url", f"sqlite:///{tmp_path / 'k.db'}"])
        assert result.exit_code == 0, result.output
        languages = ", ".join(["en", *i18n.available_languages()])
        assert "no catalog for xx; the languages are: " + languages in result.output
        assert i18n._("the match is over") == "the match is over"
    finally:
        i18n.set_language(None)


def test_serve_lang_el_speaks_greek(greek, monkeypatch, tmp_path):
    import uvicorn

    from kafenio.cli import app

    i18n.set_language(None)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    result = CliRunner().invoke(app, ["serve", "--lang", "el", "--no-browser",
                                      "--database-url", f"sqlite:///{tmp_path / 'k.db'}"])
    assert result.exit_code == 0, result.output
    assert i18n._("the match is over") == "η παρτίδα τελείωσε"


def test_an_illegal_rummy_move_is_explained_in_greek(greek):
    state = kafenio.load_game("biriba").new_initial_state(seed=2)
    state.apply_string("draw")
    with pytest.raises(IllegalAction) as err:
        state.apply_string("draw")
    assert "έχεις ήδη τραβήξει σε αυτή τη σειρά" in str(err.value)
    assert str(err.value).startswith("μη επιτρεπτή κίνηση 0: ")  # the action as given
    assert str(RecordError(3, "x")) == "αρχείο καταγραφής, γραμμή 3: x"
    assert str(CardError("ZZ", "x")) == "λάθος φύλλο 'ZZ': x"


def test_the_referee_answers_in_greek(greek):
    from kafenio.cli import app

    result = CliRunner().invoke(app, ["rules", "meld", "biriba", "5H 6H 7H 8H 9H 10H JH"])
    assert result.exit_code == 0, result.output
    assert "έγκυρη καθαρή σειρά 7 φύλλων: 5H 6H 7H 8H 9H 10H JH — μπόνους 200" in result.output
    result = CliRunner().invoke(app, ["rules", "meld", "biriba", "5H 6H 8H"])
    assert "άκυρο — biriba.md §4.2: τα φύλλα δεν είναι διαδοχικά" in result.output


@pytest.mark.asyncio
async def test_the_terminal_table_speaks_greek(greek, tmp_path):
    """A refused move on the status line and the info line, in Greek (the footer's key names are
    written when :mod:`kafenio.tui` is imported, which ``kafenio play --lang`` does after the switch)."""
    from textual.widgets import Static

    from kafenio.tui.app import HUMAN, TableApp

    app = TableApp(kafenio.load_game("biriba"), seed=2, players=["random"], delay=0,
                   record_path=tmp_path / "r.jsonl")
    async with app.run_test(size=(100, 30)) as pilot:
        for _i in range(500):
            await pilot.pause()
            await app.workers.wait_for_complete()
            if app.state.current_player() == HUMAN:
                break
        assert app.state.current_player() == HUMAN
        await pilot.press("d")                       # a discard before drawing
        assert app.table.status.startswith("Δεν επιτρέπεται: discard ")
        assert "τράβα πρώτα από την κλειστή στοίβα ή πάρε τα ανοιχτά" in app.table.status
        info = str(app.table.query_one("#info", Static).render())
        assert "γύρος 1 · ντίλερ: " in info and "σειρά σου" in info


def test_the_cli_help_speaks_the_language_the_process_starts_in(greek):
    """Typer reads the help texts when :mod:`kafenio.cli` is imported, so a switch of language in a
    running process (``set_language``, ``--lang``) cannot change ``--help``: a Greek environment can."""
    env = {**os.environ, "LANGUAGE": "el", "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "kafenio", "play", "--help"], env=env, capture_output=True,
                          text=True, check=True, cwd=Path(hatch_build.ROOT))
    assert "Παίξε ολόκληρη παρτίδα στο τραπέζι του τερματικού" in done.stdout
    assert "Η γλώσσα του τραπεζιού" in done.stdout and "--lang" in done.stdout
    done = subprocess.run([sys.executable, "-m", "kafenio", "--help"], env=env, capture_output=True,
                          text=True, check=True, cwd=Path(hatch_build.ROOT))
    assert "kafenio: Μπιρίμπα, Μπουράκο, Μπάστρα" in done.stdout


def test_play_lang_el_speaks_greek(greek, monkeypatch, tmp_path):
    import kafenio.tui
    from kafenio import cli

    i18n.set_language(None)
    played = {}
    monkeypatch.setattr(kafenio.tui, "run_table",
                        lambda game, **kwargs: played.update(game=game.name, turn=i18n._("your turn")))
    monkeypatch.setattr(cli, "new_record_path", lambda game: tmp_path / f"{game}.jsonl")
    result = CliRunner().invoke(cli.app, ["play", "basra", "--lang", "el"])
    assert result.exit_code == 0, result.output
    assert played == {"game": "basra", "turn": "σειρά σου"}
    i18n.set_language(None)
    result = CliRunner().invoke(cli.app, ["play", "biriba", "--lang", "el", "-o", "num_players=5"])
    assert result.exit_code == 2
    assert "σφάλμα: partnership_mode: το teams_of_two θέλει 4 ή 6 παίκτες, όχι 5" in result.output
