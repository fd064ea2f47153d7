"""Every catalog, every language: complete, faithful to its placeholders and markup, with the game
terms of the glossary, the same for the browser and the server; and one language per person.

Parametrised over every language folder of ``src/kafenio/locale`` (a new language is checked as
soon as its ``.po`` exists). The glossary terms are ``tests/data/glossary_terms.json``, taken from
``shared/i18n/GLOSSARY.md``. The server answers each request and each socket in the language its
browser asks for (``kafenio.i18n.LanguageMiddleware``): two sockets at one table in two languages
each read their own. Skipped without Babel (the build and test requirement).
"""

from __future__ import annotations

import asyncio
import gettext
import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import hatch_build
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import kafenio
from kafenio import i18n
from kafenio.agents.names import computer_names, name_pool
from test_server_api import make_app, migrated_sqlite
from test_server_ws import BOT, HUMAN, drain, my_turn, new_table, snapshot_when

pytest.importorskip("babel", reason="babel==2.18.0 (the catalogs' build requirement) is not installed")

LANGUAGES = sorted(hatch_build.po_files())
TERMS = json.loads((Path(__file__).parent / "data" / "glossary_terms.json").read_text(encoding="utf-8"))["terms"]

#: a replacement field of ``str.format`` with its conversion and format spec; ``{{``/``}}`` are no field
FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
SPEC_FILE = re.compile(r"\b[\w-]+\.md\b")
"""A rules file named in a message (``basra.md §6``): notation, not a game term."""
#: markup a message may carry: HTML tags, Rich's styles (``[blue]…[/]``), a §-reference of the rules
MARKUP = re.compile(r"</?[a-z][^>]*>|\[/\]|\[/?(?:bold|dim|italic|underline|blue|red|green|yellow|cyan)"
                    r"(?: [a-z]+)*\]|§\s?[\dA-Z][\d.]*")


def fields(text: str) -> set[str]:
    """The replacement fields of a message, each with its conversion and format spec."""
    return {m.group(1) for m in FIELD.finditer(text) if m.group(1) is not None}


def _strings(message) -> tuple[str, ...]:
    return tuple(message.string) if message.pluralizable else (message.string,)


def _key(message) -> str:
    return message.id[0] if message.pluralizable else message.id


@pytest.fixture(scope="module")
def template():
    return hatch_build.extract_messages()


@pytest.fixture(scope="module")
def compiled():
    if hatch_build.catalogs_need_compiling():
        hatch_build.compile_catalogs()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_translates_every_message(lang, template):
    catalog = hatch_build.read_catalog(hatch_build.po_files()[lang])
    have = {_key(m) for m in catalog if m.id}
    missing = sorted(_key(m) for m in template if m.id and _key(m) not in have)
    assert not missing, f"{lang}: messages not merged (python hatch_build.py catalogs): {missing[:10]}"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    untranslated = [m.id for m in catalog if m.id and not all(_strings(m))]
    assert not fuzzy, f"{lang}: {len(fuzzy)} fuzzy entries: {fuzzy[:10]}"
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated: {untranslated[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_keeps_every_placeholder_and_markup(lang):
    catalog = hatch_build.read_catalog(hatch_build.po_files()[lang])
    changed = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if m.pluralizable else (m.id,)
        wanted = [fields(i) for i in ids]
        markup = sorted(MARKUP.findall(ids[-1]))
        forms = _strings(m)
        for k, text in enumerate(forms):
            got = fields(text)
            # a plural form has the singular's or the plural's fields; one that is not the last
            # (the form for one, two, …) may spell its number out instead of showing {n}
            kept = bool(text) and any(got == w or (got < w and k < len(forms) - 1) for w in wanted)
            if not kept or sorted(MARKUP.findall(text)) != markup:
                changed.append((m.id, text))
    assert not changed, f"{lang}: placeholders or markup changed: {changed[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plural_forms_are_gettexts(lang):
    catalog = hatch_build.read_catalog(hatch_build.po_files()[lang])
    if lang in hatch_build.PLURAL_FORMS:  # the same rule, however it is parenthesised
        wanted = dict(part.strip().split("=", 1) for part in hatch_build.PLURAL_FORMS[lang].split(";") if part.strip())
        rule, expected = gettext.c2py(catalog.plural_expr), gettext.c2py(wanted["plural"])
        assert catalog.num_plurals == int(wanted["nplurals"])
        assert [rule(n) for n in range(1000)] == [expected(n) for n in range(1000)]
    bad = [m.id for m in catalog if m.id and m.pluralizable and len(m.string) != catalog.num_plurals]
    assert not bad, f"{lang}: plural messages without {catalog.num_plurals} forms: {bad}"


#: messages whose game words are notation or names (command words, game names, a site's name),
#: not table talk: they stay as they are in every language
NOTATION = frozenset(json.loads((Path(__file__).parent / "data" / "glossary_terms.json")
                                .read_text(encoding="utf-8"))["notation"])


def _folded(text: str) -> str:
    """``text`` without case and accents (``ΚΑΝΑΣΤΑ`` and ``κανάστα`` match)."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_uses_the_glossary_terms(lang):
    """Where a message has a glossary term in English, its translation has the language's term
    (or one of the glossary's alternatives)."""
    catalog = hatch_build.read_catalog(hatch_build.po_files()[lang])
    wrong = []
    for term in (t for t in TERMS if lang in t):
        english = re.compile(term["en"], re.IGNORECASE)
        forms = [_folded(f) for f in term[lang]]
        for m in catalog:
            if (not m.id or m.fuzzy or _key(m) in NOTATION or _key(m) in term.get("except", ())
                    or not english.search(SPEC_FILE.sub("", FIELD.sub("", _key(m))))):
                continue
            wrong += [(term["key"], _key(m), text) for text in filter(None, _strings(m))
                      if not any(f in _folded(text) for f in forms)]
    assert not wrong, f"{lang}: glossary terms not used ({len(wrong)}): {wrong[:10]}"


def test_the_glossary_terms_name_every_language_with_a_catalog():
    langs = {"el", *LANGUAGES}
    assert all(langs <= set(t) for t in TERMS), [t["key"] for t in TERMS if not langs <= set(t)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_browser_catalog_is_written_from_the_same_po(lang):
    po = hatch_build.po_files()[lang]
    web = hatch_build.WEB_LOCALE / f"{lang}.json"
    assert json.loads(web.read_text(encoding="utf-8")) == hatch_build.web_catalog(hatch_build.read_catalog(po)), \
        f"{web} is not in step with {po}: run python hatch_build.py catalogs"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_server_speaks_the_catalog(lang, compiled):
    """The compiled server catalog is the same ``.po``: a message of the browser and one of the
    server come out as the ``.po`` says."""
    catalog = hatch_build.read_catalog(hatch_build.po_files()[lang])
    with i18n.language(lang):
        for msgid in ("the match is over", "ace of hearts", "Draw from the stock"):
            assert i18n._(msgid) == catalog[msgid].string


def test_a_broken_po_fails_the_build_with_its_file_and_line(tmp_path):
    po = tmp_path / "pt_BR" / "LC_MESSAGES" / "kafenio.po"
    po.parent.mkdir(parents=True)
    lines = hatch_build.po_files()["el"].read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith('msgid "ace of hearts"'))
    lines[at + 1] = 'msgstr "άσσος'  # an unterminated string
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(hatch_build.CatalogError, match=rf"{re.escape(str(po))}:{at + 2}:"):
        hatch_build.compile_catalogs(tmp_path)
    done = subprocess.run([sys.executable, "-c", "import hatch_build, pathlib; "
                           f"hatch_build.compile_catalogs(pathlib.Path({str(tmp_path)!r}))"],
                          cwd=hatch_build.ROOT, capture_output=True, text=True, check=False)
    assert done.returncode != 0 and f"{po}:{at + 2}:" in done.stderr


def test_a_new_language_starts_from_the_template_with_gettexts_plural_forms(tmp_path):
    path = hatch_build.new_catalog("ar", tmp_path)
    catalog = hatch_build.read_catalog(path)
    assert catalog.num_plurals == 6 and catalog.plural_forms == hatch_build.PLURAL_FORMS["ar"]
    assert [gettext.c2py(catalog.plural_expr)(n) for n in (0, 1, 2, 3, 10, 11, 99, 100, 102, 103, 111)] == \
        [0, 1, 2, 3, 3, 4, 4, 5, 5, 3, 4]
    assert catalog.locale_identifier == "ar" and "ace of hearts" in catalog and not catalog["ace of hearts"].string
    with pytest.raises(hatch_build.CatalogError, match="exists already"):
        hatch_build.new_catalog("ar", tmp_path)


# -- one language per person -------------------------------------------------------------------------

def test_accept_language_and_the_pages_choice_are_negotiated():
    known = i18n.known_languages()
    assert i18n.negotiate(None, None) == (None, None)
    assert i18n.negotiate("el", "pt-BR") == ("el", None)
    assert i18n.negotiate(None, "fr-FR,fr;q=0.9,el;q=0.8,en;q=0.5") == ("el", None)
    assert i18n.negotiate(None, "en-US,en;q=0.9") == ("en", None)
    assert i18n.match_language("EL-gr") == "el"
    lang, note = i18n.negotiate("xx", None)
    assert lang == "en" and note == f"no catalog for xx; the languages are: {', '.join(known)}"
    assert i18n.negotiate(None, "xx, yy;q=0.5")[0] == "en"


def test_the_process_language_goes_back_to_the_environments(compiled):
    before = os.environ.get("LANGUAGE")
    i18n.set_language("el")
    assert os.environ["LANGUAGE"] == "el" and i18n.current_language() == "el"
    i18n.set_language(None)
    assert os.environ.get("LANGUAGE") == before
    assert i18n._("the match is over") == "the match is over"


@pytest.mark.skipif("pt_BR" not in LANGUAGES, reason="no Brazilian Portuguese catalog")
def test_two_contexts_speak_two_languages_at_once(compiled):
    async def speak(lang: str) -> list[str]:
        with i18n.language(lang):
            said = [i18n._("the match is over")]
            await asyncio.sleep(0.01)  # the other task runs meanwhile
            return [*said, i18n._("the match is over"), i18n.current_language()]

    async def both():
        return await asyncio.gather(speak("el"), speak("pt_BR"))

    greek, brazilian = asyncio.run(both())
    assert greek == ["η παρτίδα τελείωσε"] * 2 + ["el"]
    assert brazilian == ["a partida acabou"] * 2 + ["pt_BR"]
    assert i18n._("the match is over") == "the match is over"


@pytest.fixture
def client(tmp_path, compiled):
    with TestClient(make_app(migrated_sqlite(tmp_path))) as c:
        yield c


@pytest.mark.skipif("pt_BR" not in LANGUAGES, reason="no Brazilian Portuguese catalog")
def test_rest_answers_and_errors_follow_the_browser(client):
    games = client.get("/api/games", headers={"Accept-Language": "pt-BR,pt;q=0.9"})
    assert games.headers["content-language"] == "pt-BR"
    basra = next(g for g in games.json()["games"] if g["name"] == "basra")
    assert next(o for o in basra["options"] if o["name"] == "deck")["doc"].startswith("52 cartas, ou 44")
    missing = client.get("/api/tables/nosuch?lang=el", headers={"Accept-Language": "pt-BR"})
    assert missing.status_code == 404 and missing.json()["detail"]["reason"] == "δεν υπάρχει τραπέζι nosuch"
    unknown = client.get("/api/tables/nosuch?lang=xx")
    assert unknown.json()["detail"]["reason"] == "no table nosuch"
    assert unknown.headers["content-language"] == "en"
    assert unknown.headers["kafenio-language-note"].startswith("no catalog for xx; the languages are: en, ")
    assert client.get("/api/tables/nosuch").json()["detail"]["reason"] == "no table nosuch"


@pytest.mark.skipif("pt_BR" not in LANGUAGES, reason="no Brazilian Portuguese catalog")
def test_two_sockets_at_one_table_each_read_their_own_language(client):
    """A Greek seat (the page's ``lang``) and a Brazilian spectator (``Accept-Language``) at one
    table: the snapshots fanned out after each change and the errors are in each one's language;
    a ``hello`` may switch a socket's language, an unknown one falls back to English."""
    tid, (token,) = new_table(client, [HUMAN, BOT], options={"target": 10})
    # the rules in words: the target option, not at its default, with its allowed values
    target = {"el": "(ένας ακέραιος από 1 έως 500)", "pt_BR": "(um número inteiro de 1 a 500)",
              "en": "(a whole number from 1 to 500)"}

    def rules(snapshot):
        return snapshot["table"]["rules_text"][-1].removeprefix("Points to win the match: 10 ").rstrip(".")

    with client.websocket_connect(f"/ws/tables/{tid}?token={token}&lang=el") as greek, \
            client.websocket_connect(f"/ws/tables/{tid}", headers={"Accept-Language": "pt-BR"}) as brazilian:
        first = snapshot_when(greek, my_turn)
        assert rules(first) == target["el"]
        assert rules(snapshot_when(brazilian)) == target["pt_BR"]
        version = first["version"]
        greek.send_json({"type": "move", "version": version, "action": first["deal"]["legal"][0]["id"]})
        after = snapshot_when(brazilian, lambda s: s["version"] > version)
        assert rules(after) == target["pt_BR"]
        assert rules(snapshot_when(greek, lambda s: s["version"] > version)) == target["el"]
        brazilian.send_json({"type": "move", "version": after["version"], "action": 0})
        assert [m["reason"] for m in drain(brazilian) if m["type"] == "error"] == ["espectadores só podem assistir"]
        brazilian.send_json({"type": "hello", "protocol": 1, "lang": "el"})
        assert snapshot_when(brazilian, lambda s: rules(s) == target["el"])
        drain(greek)
        greek.send_json({"type": "hello", "protocol": 1, "lang": "xx"})
        sent = drain(greek)  # a snapshot fanned out just before the hello may still be Greek
        assert [m["code"] for m in sent if m["type"] == "error"] == ["unknown_language"]
        assert [rules(m) for m in sent if m["type"] == "snapshot"][-1] == target["en"]
    with client.websocket_connect(f"/ws/tables/{tid}?lang=xx") as unknown:
        sent = [unknown.receive_json() for _i in range(2)]
        assert {m["type"] for m in sent} == {"snapshot", "error"}
        error = next(m for m in sent if m["type"] == "error")
        assert error["code"] == "unknown_language" and "the languages are: en, " in error["reason"]


def test_every_language_names_ten_computers_and_a_table_draws_distinct_ones(compiled):
    """The names' message (kafenio.agents.names) gives each language 10 distinct names; a table's
    draw is the same for the same key and never a person's name at the table."""
    for lang in [None, *LANGUAGES]:
        with i18n.language(lang):
            pool = name_pool()
            assert len(pool) == len(set(pool)) == 10, (lang, pool)
            drawn = computer_names(5, "k3J9xQe2", taken=[pool[0].upper()])
            assert drawn == computer_names(5, "k3J9xQe2", taken=[pool[0].upper()])
            assert len(set(drawn)) == 5 and pool[0] not in drawn and set(drawn) <= set(pool)


@pytest.mark.skipif("el" not in LANGUAGES, reason="no Greek catalog")
def test_computers_keep_the_names_of_the_language_their_table_was_made_in(client):
    """kafenio.agents.names: a table made in Greek seats its computers under the Greek catalog's
    names, distinct and none a person's; a Brazilian socket reads the same names (the table's)."""
    with i18n.language("el"):
        greek_names = name_pool()
    made = client.post("/api/tables", headers={"Accept-Language": "el"}, json={
        "game": "basra", "options": {"num_players": 4}, "join": {"seat": 0, "name": greek_names[0]}}).json()
    names = [s["name"] for s in made["table"]["seats"]]
    assert names[0] == greek_names[0] and len(set(names)) == 4 and set(names[1:]) <= set(greek_names[1:])
    with client.websocket_connect(f"/ws/tables/{made['table']['id']}?lang=pt-BR") as brazilian:
        assert [s["name"] for s in snapshot_when(brazilian)["table"]["seats"]] == names


# -- the command line --------------------------------------------------------------------------------

def test_an_unknown_lang_falls_back_to_english_and_names_the_languages(monkeypatch, tmp_path):
    import kafenio.tui
    from kafenio import cli

    played = {}
    monkeypatch.setattr(kafenio.tui, "run_table", lambda game, **kw: played.update(turn=i18n._("your turn")))
    monkeypatch.setattr(cli, "new_record_path", lambda game: tmp_path / f"{game}.jsonl")
    try:
        result = CliRunner().invoke(cli.app, ["play", "basra", "--lang", "xx"])
    finally:
        i18n.set_language(None)
    assert result.exit_code == 0, result.output
    assert played == {"turn": "your turn"}
    assert "no catalog for xx; the languages are: " + ", ".join(i18n.known_languages()) in result.output


#: English words of Typer's and Click's texts: none may be left in another language's help or errors
#: (option and command names, ``<int>``, the arguments' names and ``name=value`` are notation: a word
#: preceded by ``-``, ``<``, ``{`` or ``=`` is not counted)
ENGLISH = re.compile(r"(?<![-<{=\w])(Usage|Options|OPTIONS|Commands?|COMMAND|ARGS|Arguments|Error|Try|Show|Install|"
                     r"Missing|Invalid|valid|value|integer|number|Input|should|such|option|env|var|environment|"
                     r"least|allowed|completion|required|default)\b")


def _kafenio(*args: str, lang: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(COLUMNS="200", LANG="C.UTF-8", **({"LANGUAGE": lang} if lang else {}))
    return subprocess.run([sys.executable, "-m", "kafenio", *args], env=env, capture_output=True, text=True,
                          check=False, cwd=hatch_build.ROOT, timeout=120)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_clicks_own_words_speak_the_language(lang, compiled):
    """Usage, ``[OPTIONS]``, ``COMMAND [ARGS]...``, Options, Commands, the help and completion
    options' texts and Click's errors (a missing argument, an unknown option, a value that is not a
    whole number or not a number, one below its least) come from the catalog too (gettext's
    ``messages`` domain and ``kafenio.cli``'s own messages, the same ``.po``): no English is left."""
    catalog = hatch_build.read_catalog(hatch_build.po_files()[lang])
    done = _kafenio("--help", lang=lang)
    assert done.returncode == 0, done.stderr
    for word in ("Usage:", "[OPTIONS]", "COMMAND [ARGS]...", "Options", "Commands", "Show this message and exit.",
                 "Install completion for the current shell."):
        assert catalog[word].string in done.stdout, word
    assert not ENGLISH.findall(done.stdout.split(catalog["Commands"].string)[0])   # the commands' own help follows
    done = _kafenio("play", lang=lang)
    assert done.returncode == 2
    assert catalog["Missing argument {hint}."].string.format(hint="'game'") in done.stderr
    assert catalog["Error"].string in done.stderr and not ENGLISH.findall(done.stderr)
    done = _kafenio("play", "basra", "--bogus", lang=lang)
    assert done.returncode == 2
    assert catalog["No such option: {name}"].string.format(name="--bogus") in done.stderr
    assert not ENGLISH.findall(done.stderr)
    invalid = catalog["Invalid value for {hint}: {message}"].string
    for args, hint, message in (
            (("autoplay", "basra", "--max-deals", "x"), "'--max-deals'",
             catalog["'{value}' is not a whole number"].string.format(value="x")),
            (("serve", "--bot-delay", "soon"), "'--bot-delay'",
             catalog["'{value}' is not a number"].string.format(value="soon")),
            (("serve", "--sockets-per-client", "0"), "'--sockets-per-client' " + catalog[
                "(environment variable {name})"].string.format(name="'KAFENIO_SOCKETS_PER_CLIENT'"),
             catalog["{value} is less than {ge}, the least allowed"].string.format(value=0, ge=1))):
        done = _kafenio(*args, lang=lang)
        assert done.returncode == 2, done.stdout
        assert invalid.format(hint=hint, message=message) in " ".join(done.stderr.replace("│", "").split())
        assert not ENGLISH.findall(done.stderr), done.stderr


@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_lang_speaks_before_the_other_options_are_read(lang, compiled):
    """``--lang`` is read first: a bad ``--seed`` after it is refused in that language, although the
    environment speaks English."""
    catalog = hatch_build.read_catalog(hatch_build.po_files()[lang])
    done = _kafenio("play", "basra", "--lang", lang.replace("_", "-"), "--seed", "1.5", lang=None)
    assert done.returncode == 2
    message = catalog["'{value}' is not a whole number"].string.format(value="1.5")
    assert catalog["Invalid value for {hint}: {message}"].string.format(hint="'--seed'", message=message) \
        in " ".join(done.stderr.replace("│", "").split())
    assert not ENGLISH.findall(done.stderr), done.stderr


@pytest.mark.parametrize("command", ["play", "serve"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_lang_then_help_shows_every_help_text_in_that_language(lang, command, compiled):
    """``kafenio play --lang el --help`` in an English environment: the help texts of the command,
    its options and its argument were written before ``--lang`` was read and are translated as
    the help is shown, with Typer's and Click's words: no English is left."""
    import typer

    from kafenio import cli

    catalog = hatch_build.read_catalog(hatch_build.po_files()[lang])
    done = _kafenio(command, "--lang", lang, "--help", lang=None)
    assert done.returncode == 0, done.stderr
    shown = " ".join(done.stdout.replace("│", "").split())
    clicked = typer.main.get_command(cli.app).commands[command]
    texts = [clicked.help, *(param.help for param in clicked.params if param.help)]
    assert len(texts) > 5
    for english in texts:
        assert english not in shown
        assert " ".join(catalog[english].string.split()) in shown, english
    assert not ENGLISH.findall(shown), shown


def test_shell_completion_lists_the_commands_in_the_environments_language(compiled):
    """The shell's completion of ``kafenio pl`` shows ``play``'s short help translated, as the help does."""
    catalog = hatch_build.read_catalog(hatch_build.po_files()["tr"])
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(LANG="C.UTF-8", LANGUAGE="tr", _KAFENIO_COMPLETE="complete_zsh", _TYPER_COMPLETE_ARGS="kafenio pl")
    done = subprocess.run([str(Path(sys.executable).parent / "kafenio")], env=env, capture_output=True, text=True,
                          check=False, cwd=hatch_build.ROOT, timeout=120)    # the command the shell completes
    start = catalog["Play a whole match at the terminal table against computer players."].string[:30]
    assert f'"play":"{start}' in done.stdout, done.stdout + done.stderr


def test_the_terminal_table_counts_in_each_languages_plural_forms(compiled):
    """``n_`` picks gettext's form for the count (the browser's ``t()`` the same one): Arabic's
    dual and its plural of 3 to 10, Greek's singular for 1, Brazilian Portuguese's for 0."""
    from kafenio.tui.fishing import special_count
    from kafenio.words import cards_count, points_count

    with i18n.language("ar"):
        assert [cards_count(n) for n in (1, 2, 3, 10, 11, 100)] == \
            ["1 ورقة", "2 ورقتان", "3 أوراق", "10 أوراق", "11 ورقة", "100 ورقة"]
        assert points_count(5) == "5 نقاط" and special_count("basras", 4) == "4 بصرات"
    with i18n.language("el"):
        assert [cards_count(1), cards_count(5), points_count(-1), points_count(1500)] == \
            ["1 φύλλο", "5 φύλλα", "-1 πόντος", "1.500 πόντοι"]
    with i18n.language("pt_BR"):
        assert [cards_count(0), cards_count(2), points_count(2.5)] == ["0 carta", "2 cartas", "2,5 pontos"]
    with i18n.language("tr"):
        assert [cards_count(1), cards_count(7), special_count("pistis", 2)] == ["1 kart", "7 kart", "2 pişti"]


def test_each_game_and_pot_is_named_in_the_glossarys_words(compiled):
    """``kafenio.words``: a game's name and its pot's word as the glossary gives them in each
    language (the browser's ``gameName`` and ``potWord`` messages): Biriba's biribaki, Buraco's
    morto, Italian Burraco's pozzetto; an unknown game keeps its id."""
    from kafenio.words import game_name, pot_word

    expected = {
        "el": (["Μπιρίμπα", "Μπουράκο", "Μπάστρα", "Πίστι", "Ξερή", "Ντιλότι"],
               ["μπιριμπάκι", "μπιριμπάκι", "μπιριμπάκια"]),
        "pt_BR": (["Biriba grega", "Buraco", "Basra", "Pişti", "Xeri", "Diloti"], ["biribaki", "morto", "pozzetti"]),
        "it": (["Biriba", "Buraco", "Basra", "Pişti", "Xeri", "Diloti"], ["biribaki", "pozzetto", "pozzetti"]),
        "ar": (["بيريبا", "بوراكو", "البصرة", "بشتي", "كسيري", "ديلوتي"], ["البيريباكي", "المور", "المور"]),
        "tr": (["Biriba", "Burako", "Basra", "Pişti", "Xeri", "Diloti"], ["biribaki", "fiy", "fiyler"]),
    }
    for lang, (names, pots) in expected.items():
        with i18n.language(lang):
            assert [game_name(g) for g in ("biriba", "buraco", "basra", "pisti", "xeri", "diloti")] == names
            assert [pot_word(None), pot_word("morto"), pot_word("pozzetto", many=True)] == pots
            assert game_name("scopa") == "scopa"
    assert (game_name("pisti"), pot_word("pozzetto"), pot_word(None, many=True)) == ("Pişti", "pozzetto", "biribakia")


def test_engine_and_referee_messages_take_the_counts_plural_form(compiled):
    """The referee's score line and the engine's errors count in the language's forms (Arabic's
    dual and plural of 3 to 10, Greek's singular for 1) with the numbers in its format."""
    from kafenio.agents import play_match
    from kafenio.engine.errors import KafenioError
    from kafenio.engine.match import Match
    from kafenio.referee.fishing import describe

    def side(cards: int) -> dict:
        return {"side": 0, "cards": cards, "majority": 0, "card_points": 0, "point_cards": [],
                "basras": {"count": 0, "points": 0}, "total": 1200}

    with i18n.language("ar"):
        lines = describe("score", {"sides": [side(2), side(3)]}).splitlines()
        assert lines[0].startswith("الفريق 0: 2 ورقتان؛") and lines[1].startswith("الفريق 0: 3 أوراق؛")
        assert lines[0].endswith("= 1,200")
    with i18n.language("el"):
        assert describe("score", {"sides": [side(1)]}).startswith("ομάδα 0: 1 φύλλο· ")
    match = Match(kafenio.load_game("basra"), seed=1)
    for lang, expected in (("el", "δόθηκε 1 παίκτης για 2 θέσεις"), ("ar", "أُعطي 3 لاعبين مقابل 2 مقعدان"),
                           ("tr", "2 koltuk için 3 oyuncu verildi")):
        with i18n.language(lang), pytest.raises(KafenioError) as raised:
            play_match(match, [None] * (1 if lang == "el" else 3))
        assert str(raised.value).endswith(expected), str(raised.value)
