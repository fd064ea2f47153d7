"""Translations: the gettext catalogs (``src/kafenio/locale``) and the browser's JSON catalogs.

Every translated message exists in the source (``_()`` in ``src/kafenio``, ``t()`` in ``web/src``;
a new source message may wait for its translation: it is shown in English), the browser's
catalog is the one written from the same ``.po``, the Greek catalog translates the whole
browser table with the game terms of the glossary (``shared/i18n/GLOSSARY.md``) and keeps every
placeholder, and ``kafenio serve --lang el`` speaks Greek. Long rule texts of the Python side
are not translated yet. Skipped without Babel (the build and test requirement).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator

import hatch_build
import pytest
from typer.testing import CliRunner

from kafenio import i18n

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


def test_greek_translates_every_message_of_the_browser_table_keeping_its_placeholders():
    catalog = hatch_build.read_catalog(GREEK)
    for m in catalog:
        if not m.id or not any(where.startswith("web/src/") for where, _line in m.locations):
            continue
        ids = m.id if m.pluralizable else (m.id,)
        strings = m.string if m.pluralizable else (m.string,)
        assert all(strings), f"untranslated: {m.id!r}"
        wanted = set(re.findall(r"\{\w+\}", ids[-1]))
        for text in strings:
            assert set(re.findall(r"\{\w+\}", text)) == wanted, f"{m.id!r} → {text!r}"


def test_greek_uses_the_glossary_terms(greek):
    _ = i18n._
    assert [_(w) for w in ("hearts", "diamonds", "clubs", "spades")] == ["κούπα", "καρό", "σπαθί", "μπαστούνι"]
    assert [_(w) for w in ("ace", "king", "queen", "jack", "joker")] == ["άσσος", "ρήγας", "ντάμα", "βαλές", "τζόκερ"]
    assert _("{rank} of {suit}").format(rank=_("ace"), suit=_("hearts")) == "άσσος κούπα"
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


def test_the_build_compiles_the_catalogs(tmp_path):
    po = tmp_path / "el" / "LC_MESSAGES" / "kafenio.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(GREEK.read_bytes())
    assert hatch_build.catalogs_need_compiling(tmp_path)
    assert hatch_build.compile_catalogs(tmp_path) == [po.with_suffix(".mo")]
    assert not hatch_build.catalogs_need_compiling(tmp_path)


def test_serve_with_a_language_without_a_catalog_is_refused():
    from kafenio.cli import app

    result = CliRunner().invoke(app, ["serve", "--lang", "xx", "--no-browser"])
    assert result.exit_code == 2
    assert "no catalog for xx" in result.output


def test_serve_lang_el_speaks_greek(greek, monkeypatch, tmp_path):
    import uvicorn

    from kafenio.cli import app

    i18n.set_language(None)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    result = CliRunner().invoke(app, ["serve", "--lang", "el", "--no-browser",
                                      "--database-url", f"sqlite:///{tmp_path / 'k.db'}"])
    assert result.exit_code == 0, result.output
    assert i18n._("the match is over") == "η παρτίδα τελείωσε"
