"""Hatchling build hook: build the browser table (``web/``) into ``src/kafenio/server/static/app/``,
compile the message catalogs (``src/kafenio/locale/<lang>/LC_MESSAGES/kafenio.po`` → ``.mo``) and
compile the engine's hot modules to C extensions with mypyc.

Enabled in ``pyproject.toml`` by ``[tool.hatch.build.hooks.custom]``. For wheels and editable
installs it runs ``npm ci`` (when ``web/node_modules`` is missing or older than the lock file) and
``npm run build`` when the built page is missing or older than any source of it. The built files
are git-ignored, so they are handed to hatchling as artifacts to land in the wheel.

Set ``KAFENIO_SKIP_WEB_BUILD=1`` to install without Node: the server then serves its placeholder.

Compiled modules (issue #8: the fishing engine's speed): the sources listed as ``compiled`` under
``[tool.hatch.build.hooks.custom]`` in ``pyproject.toml`` are compiled by mypyc (the build requires
a pinned ``mypy``) into extension modules beside them in ``src/`` (git-ignored), which Python
imports instead of the ``.py`` files; their C code and objects go to ``build/mypyc/``. A build
records a digest of those sources (``src/kafenio/_compiled.digest``) and compiles again only when
it differs, so an install after an edit never keeps a stale extension (``bin/setup`` reinstalls
when a compiled source changes; ``tests/test_compiled.py`` fails on a stale or missing one). The
extensions are removed before each compile, so a failed compile leaves the plain sources in use.
Without a C compiler or the Python headers, the install still succeeds in pure Python (a warning
says so); ``KAFENIO_PURE=1`` installs pure Python on purpose. ``python hatch_build.py compile``
compiles when needed, outside an install.

Translations (English is the source language): ``python hatch_build.py catalogs`` extracts every
``_()``, ``N_()`` and ``n_()`` of ``src/kafenio`` with the ``doc`` texts of the rulebooks' options and presets
(:func:`extract_python_and_rule_docs`), every ``t()`` of ``web/src`` (``babel.cfg``) and Typer's
gettext words (:func:`_typer_messages`) into ``kafenio.pot``, merges it into each language's ``.po``
(every folder ``src/kafenio/locale/<lang>/`` that has one), compiles the ``.mo`` files and writes
the browser's JSON catalogs ``web/src/locale/<lang>.json`` from the same ``.po`` files. The ``.mo``
files are git-ignored and compiled by this hook for wheels and editable installs; a broken ``.po``
stops the build with its file and line (:class:`CatalogError`). ``python hatch_build.py
new-language LANG`` starts a new language's ``.po`` (:func:`new_catalog`).
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).parent
WEB = ROOT / "web"
BUILT = ROOT / "src" / "kafenio" / "server" / "static" / "app"
BUILT_PAGE = BUILT / "index.html"
SOURCES = ("src", "public", "index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts")
LOCALE = ROOT / "src" / "kafenio" / "locale"
WEB_LOCALE = WEB / "src" / "locale"
DOMAIN = "kafenio"
#: gettext's default domain: Typer looks up its own words (Options, Commands, Error) in it
DEFAULT_DOMAIN = "messages"


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


# -- message catalogs -------------------------------------------------------------------------------

_TS_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)
  | (?P<name>[A-Za-z_$][\w$]*)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<comma>,)
  | (?P<other>\S)
""", re.VERBOSE | re.DOTALL)


def extract_typescript(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """Babel extraction method for the web table's ``t(msgid, params?, plural?)`` calls.

    Babel's own JavaScript extractor counts the commas inside an object literal as arguments, so
    ``t("{n} card", {n, name}, "{n} cards")`` would lose its plural. Only string-literal
    (not template) arguments are messages. Yields Babel's ``(lineno, funcname, message, comments)``.
    """
    text = fileobj.read().decode("utf-8")
    tokens = [m for m in _TS_TOKEN.finditer(text) if m.lastgroup != "comment"]
    for i, tok in enumerate(tokens[:-1]):
        before = tokens[i - 1].group() if i else ""
        if tok.group() != "t" or tokens[i + 1].group() != "(" or before in (".", "function"):
            continue
        args: list[list[re.Match]] = [[]]
        depth = 0
        for inner in tokens[i + 2:]:
            kind = inner.lastgroup
            if kind == "close" and depth == 0:
                break
            depth += {"open": 1, "close": -1}.get(kind, 0)
            if kind == "comma" and depth == 0:
                args.append([])
            else:
                args[-1].append(inner)
        literal = [a[0].group() if len(a) == 1 and a[0].group()[0] in "\"'" else None for a in args]
        if not literal[0]:
            continue
        msgid = ast.literal_eval(literal[0])
        lineno = text.count("\n", 0, tok.start()) + 1
        plural = (ast.literal_eval(literal[2]),) if len(literal) >= 3 and literal[2] else ()
        yield lineno, "t", (msgid, *plural), []


#: the module of the rulebooks' classes, and where each class takes its ``doc`` when it is given
#: by position (the order of the dataclass fields: ``Option(name, kind, default, choices, low,
#: high, doc)``, ``Preset(name, kind, values, doc)``)
RULES_MODULE = "kafenio.engine.rules"
RULE_DOC_POSITION = {"Option": 6, "Preset": 3}


def _rule_classes(tree: ast.Module) -> dict[str, str]:
    """The names under which a module calls :data:`RULES_MODULE`'s ``Option`` and ``Preset``
    (imported, ``as`` renamed or aliased as in ``Opt = Option``) → the class."""
    classes: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == RULES_MODULE:
            classes.update({a.asname or a.name: a.name for a in node.names if a.name in RULE_DOC_POSITION})
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in classes
                and all(isinstance(t, ast.Name) for t in node.targets)):
            classes.update({t.id: classes[node.value.id] for t in node.targets})
    return classes


def rule_docs(source: bytes | str) -> Iterator[tuple[int, str, str, str]]:
    """The literal ``doc`` texts of the rule options and presets that a Python module defines:
    ``(line, class, name, doc)`` for each ``Option(..., doc="...")`` and ``Preset(name, kind,
    values, "...")`` (by keyword or by position). A doc that is no literal string (an f-string,
    a name, a sum) is not seen; implicitly concatenated literals are one string.
    (``test_every_rule_explanation_is_a_message_of_the_template`` catches a doc it misses.)"""
    tree = ast.parse(source)
    classes = _rule_classes(tree)
    if not classes:
        return
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes):
            continue
        position = RULE_DOC_POSITION[classes[node.func.id]]
        doc = next((k.value for k in node.keywords if k.arg == "doc"),
                   node.args[position] if len(node.args) > position else None)
        name = next((k.value for k in node.keywords if k.arg == "name"), node.args[0] if node.args else None)
        if isinstance(doc, ast.Constant) and isinstance(doc.value, str) and doc.value:
            shown = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else "?"
            yield doc.lineno, classes[node.func.id], shown, doc.value


def extract_python_and_rule_docs(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """Babel extraction method for ``src/kafenio``: Babel's own Python extraction (the ``_()``
    calls) and the ``doc`` of every rule option and preset (:func:`rule_docs`), which the server,
    the lobby and ``kafenio rules list`` translate when they show it.

    One method for both, because a file matched by several patterns of ``babel.cfg`` is read by
    the first one only. Each doc comes with a comment for the translator naming its option or
    preset. Yields Babel's ``(lineno, funcname, message, comments)``, in line order (``funcname``
    ``None`` for a doc: it is taken as its one message).
    """
    from babel.messages.extract import extract_python

    source = fileobj.read()
    found = list(extract_python(io.BytesIO(source), keywords, comment_tags, options))
    kinds = {"Option": "rule option", "Preset": "preset"}
    found += [(line, None, doc, [f"{kinds[cls]} {name}"]) for line, cls, name, doc in rule_docs(source)]
    yield from sorted(found, key=lambda item: item[0])


#: the modules of Typer whose words a user of ``kafenio`` meets through gettext (the help's
#: panels, the error box), and those of their messages kafenio's commands never show. Typer's
#: copy of Click writes its own words without gettext: ``kafenio.cli`` translates them itself
TYPER_MODULES = ("core.py", "rich_utils.py")
TYPER_UNSHOWN = ("(deprecated) ",)


def _typer_messages() -> Iterator[tuple[str, int, Any, list[str], str | None]]:
    """The messages of Typer's :data:`TYPER_MODULES` (Typer looks them up with ``gettext`` in
    gettext's default domain), located as ``typer/core.py``; :data:`TYPER_UNSHOWN` left out."""
    import typer
    from babel.messages.extract import extract_from_file

    folder = Path(typer.__file__).parent
    for module in TYPER_MODULES:
        for lineno, message, comments, context in extract_from_file("python", folder / module, {"_": None}):
            if message not in TYPER_UNSHOWN:
                yield f"typer/{module}", lineno, message, comments, context


def extract_messages() -> Any:
    """Every message of ``src/kafenio`` (``_()`` and the rulebooks' ``doc`` texts), ``web/src``
    (``t()``) and Typer's words (:func:`_typer_messages`) as a Babel catalog."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    catalog = Catalog(project="kafenio", version=version, msgid_bugs_address="", copyright_holder="kafenio",
                      charset="utf-8")
    sources = ((ROOT / "src" / "kafenio", "**.py", extract_python_and_rule_docs, {"_": None, "N_": None, "n_": (1, 2)}),
               (WEB / "src", "**.ts", extract_typescript, {"t": {1: (1,), 2: (1, 2)}}))
    for folder, pattern, method, keywords in sources:
        found = extract_from_dir(folder, [(pattern, method)], keywords=keywords, strip_comment_tags=True)
        for filename, lineno, message, comments, context in found:
            where = (folder.relative_to(ROOT) / filename).as_posix()
            catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    for where, lineno, message, comments, context in _typer_messages():
        catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return catalog


def web_catalog(po: Any) -> dict[str, Any]:
    """The browser's catalog from a ``.po`` catalog: its Plural-Forms expression and the
    translated messages that ``web/src`` uses (plural ones as one string per form)."""
    messages: dict[str, Any] = {}
    for m in po:
        in_web = any(where.startswith("web/src/") for where, _line in m.locations)
        if not m.id or not in_web or m.fuzzy or not (all(m.string) if m.pluralizable else m.string):
            continue
        messages[m.id[0] if m.pluralizable else m.id] = list(m.string) if m.pluralizable else m.string
    return {"plural": po.plural_expr, "messages": dict(sorted(messages.items()))}


def web_catalog_text(po: Any) -> str:
    """:func:`web_catalog` as the JSON text kept in ``web/src/locale/<lang>.json``."""
    return json.dumps(web_catalog(po), ensure_ascii=False, indent=1) + "\n"


def po_files(locale: Path = LOCALE) -> dict[str, Path]:
    """Language code (``el``, ``pt_BR``) → its ``.po`` file."""
    return {p.parent.parent.name: p for p in sorted(locale.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}


class CatalogError(Exception):
    """A ``.po`` file that cannot be read: the message names the file and the line."""


#: gettext's Plural-Forms of the languages kafenio speaks (GNU gettext manual, "Plural forms":
#: Brazilian Portuguese takes the singular for 0 and 1, Italian, Greek and Turkish for 1 only,
#: Arabic has six forms by ``n % 100``); another language takes Babel's from CLDR
PLURAL_FORMS = {
    "el": "nplurals=2; plural=(n != 1);",
    "pt_BR": "nplurals=2; plural=(n > 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "tr": "nplurals=2; plural=(n != 1);",
    "ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
          "n%100>=11 ? 4 : 5);",
}


def read_catalog(path: Path) -> Any:
    """A ``.po`` file as a Babel catalog.

    Raises:
        CatalogError: the file is not a well-formed catalog (``file:line: what``), or a message's
            plural forms do not match the file's ``Plural-Forms``.
    """
    from babel.messages.pofile import PoFileError, read_po

    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise CatalogError(f"{path}:{line}: not UTF-8 ({err.reason})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not _PO_LINE.match(line):
            raise CatalogError(f"{path}:{number}: not a line of a .po file (a keyword and a quoted string, "
                               f"a continued string, a comment or nothing): {line[:80]!r}")
    try:
        catalog = read_po(io.BytesIO(data), locale=path.parent.parent.name, domain=DOMAIN, abort_invalid=True)
    except (PoFileError, ValueError) as err:
        what = re.sub(r" on \d+$", "", str(err))
        raise CatalogError(f"{path}:{_po_error_line(str(err))}: {what}") from None
    for m in catalog:
        if m.id and m.pluralizable and any(m.string) and len(m.string) != catalog.num_plurals:
            raise CatalogError(f"{path}:{m.lineno}: {len(m.string)} plural forms for {m.id[0]!r}, "
                               f"the Plural-Forms header says {catalog.num_plurals}")
    return catalog


#: a line of a ``.po`` file: a keyword and a C string, a continued string, a comment or nothing
#: (Babel reads an unterminated string or junk after one without a word)
_PO_LINE = re.compile(r'''\s*(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?'''
                      r'''"(?:[^"\\]|\\["\\ntrabfv])*"\s*$|\s*(?:#.*)?$''')


def _po_error_line(message: str) -> str:
    """The line (counted from 1) that Babel's parse error names (``… on 12``, counted from 0),
    or ``?``."""
    found = re.search(r"\bon (\d+)$", message)
    return str(int(found.group(1)) + 1) if found else "?"


def compile_catalogs(locale: Path = LOCALE) -> list[Path]:
    """Compile every ``.po`` under ``locale`` into the ``.mo`` beside it (fuzzy entries left out),
    and the same into ``messages.mo``, gettext's default domain in which Typer looks up its own
    words (``kafenio.i18n``); returns the ``kafenio.mo`` files.

    Raises:
        CatalogError: a ``.po`` file is broken (its file and line are named).
    """
    from babel.messages.mofile import write_mo

    out = []
    for path in po_files(locale).values():
        buffer = io.BytesIO()
        write_mo(buffer, read_catalog(path))
        mo = path.with_suffix(".mo")
        mo.write_bytes(buffer.getvalue())
        (path.parent / f"{DEFAULT_DOMAIN}.mo").write_bytes(buffer.getvalue())
        out.append(mo)
    return out


def catalogs_need_compiling(locale: Path = LOCALE) -> bool:
    """Whether some ``.mo`` is missing or older than its ``.po``."""
    return any(not mo.is_file() or p.stat().st_mtime > mo.stat().st_mtime
               for p in po_files(locale).values()
               for mo in (p.with_suffix(".mo"), p.parent / f"{DEFAULT_DOMAIN}.mo"))


def new_catalog(lang: str, locale: Path = LOCALE) -> Path:
    """Start the catalog of a new language (a gettext code: ``pt_BR``, ``it``) from the template:
    every message untranslated, the headers and the language's :data:`PLURAL_FORMS`.

    Raises:
        CatalogError: the language has a catalog already, or Babel does not know it.
    """
    from babel.core import UnknownLocaleError
    from babel.messages.catalog import Catalog

    path = locale / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        raise CatalogError(f"{path} exists already")
    template = extract_messages()
    try:
        catalog = Catalog(locale=lang, domain=DOMAIN, project=template.project, version=template.version,
                          copyright_holder=template.copyright_holder, msgid_bugs_address="",
                          last_translator="kafenio", language_team="kafenio", charset="utf-8", fuzzy=False)
    except (UnknownLocaleError, ValueError) as err:
        raise CatalogError(f"{lang}: not a language Babel knows ({err})") from None
    catalog.msgid_bugs_address = ""  # Babel's constructor puts a placeholder for an empty one
    if lang in PLURAL_FORMS:
        catalog.mime_headers = [(k, PLURAL_FORMS[lang] if k == "Plural-Forms" else v)
                                for k, v in catalog.mime_headers]
    catalog.update(template, no_fuzzy_matching=True)
    path.parent.mkdir(parents=True)
    write_catalog(catalog, path)
    return path


def write_catalog(catalog: Any, path: Path) -> None:
    """Write ``catalog`` as a ``.po``/``.pot`` file (sorted, locations without line numbers)."""
    from babel.messages.pofile import write_po

    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, include_lineno=False, sort_output=True)
    path.write_bytes(buffer.getvalue())


def _messages(catalog: Any) -> dict[str, list[str]]:
    """Each message of ``catalog`` with the files it comes from."""
    return {str(m.id): sorted({where for where, _line in m.locations}) for m in catalog if m.id}


def update_catalogs() -> None:
    """Extract the template, merge it into every ``.po``, compile them, write the web catalogs."""
    template = extract_messages()
    pot = LOCALE / f"{DOMAIN}.pot"
    if pot.is_file():  # the same messages keep their date: no change to commit
        from babel.messages.pofile import read_po

        with pot.open("rb") as f:
            old = read_po(f)
        if _messages(old) == _messages(template):
            template.creation_date = old.creation_date
    write_catalog(template, pot)
    WEB_LOCALE.mkdir(exist_ok=True)
    for lang, path in po_files().items():
        catalog = read_catalog(path)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()  # translations of messages gone from the source (git keeps them)
        write_catalog(catalog, path)
        (WEB_LOCALE / f"{lang}.json").write_text(web_catalog_text(read_catalog(path)), encoding="utf-8")
    compile_catalogs()


# -- compiled modules (mypyc) ----------------------------------------------------------------------

MYPYC_BUILD = ROOT / "build" / "mypyc"
#: the shared library of the compiled modules is ``kafenio/_compiled__mypyc`` (mypyc's group name)
COMPILED_GROUP = "kafenio._compiled"
COMPILED_DIGEST = ROOT / "src" / "kafenio" / "_compiled.digest"
#: mypy's settings for the compile: the modules it does not compile are only read for their types
MYPY_ARGS = ("--follow-imports=silent", "--ignore-missing-imports", f"--cache-dir={MYPYC_BUILD / 'cache'}")


def compiled_sources(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The sources to compile, relative to the root (``compiled`` of the hook in ``pyproject.toml``)."""
    return tomllib.loads(pyproject.read_text())["tool"]["hatch"]["build"]["hooks"]["custom"]["compiled"]


def compiled_outputs(sources: list[str]) -> list[Path]:
    """The extension modules a compile of ``sources`` leaves in ``src/``: one per source and the
    shared library."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    group = ROOT / "src" / (COMPILED_GROUP.replace(".", "/") + "__mypyc" + suffix)
    return [ROOT / (s.removesuffix(".py") + suffix) for s in sources] + [group]


def sources_digest(sources: list[str]) -> str:
    """SHA-256 over the names and contents of ``sources`` and the interpreter's extension suffix."""
    h = hashlib.sha256(sysconfig.get_config_var("EXT_SUFFIX").encode())
    for source in sources:
        h.update(source.encode() + b"\0" + (ROOT / source).read_bytes() + b"\0")
    return h.hexdigest()


def compile_needed(sources: list[str]) -> bool:
    """Whether an extension is missing or was built from other sources than the current ones."""
    if not all(p.is_file() for p in compiled_outputs(sources)) or not COMPILED_DIGEST.is_file():
        return True
    return COMPILED_DIGEST.read_text().strip() != sources_digest(sources)


def remove_compiled(sources: list[str]) -> None:
    """Delete the extensions of ``sources`` and the digest: the plain sources are imported again."""
    for path in [*compiled_outputs(sources), COMPILED_DIGEST]:
        path.unlink(missing_ok=True)


def compiler_missing() -> str | None:
    """Why nothing can be compiled here (no C compiler, no Python headers), or ``None``."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}) on PATH"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h; Debian: apt-get install python3-dev)"
    return None


def compile_modules(sources: list[str]) -> None:
    """Compile ``sources`` with mypyc into extensions beside them and record their digest (run in
    a process of its own by :func:`build_compiled`: mypyc exits on a type error)."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(ROOT)
    extensions = mypycify([*MYPY_ARGS, *sources], target_dir=str(MYPYC_BUILD), group_name=COMPILED_GROUP)
    dist = Distribution({"name": "kafenio-compiled", "ext_modules": extensions, "package_dir": {"": "src"}})
    build = dist.get_command_obj("build_ext")
    build.inplace = True
    build.build_temp = str(MYPYC_BUILD / "temp")
    build.build_lib = str(MYPYC_BUILD / "lib")
    dist.run_command("build_ext")
    COMPILED_DIGEST.write_text(sources_digest(sources) + "\n")


def build_compiled(sources: list[str]) -> str | None:
    """Compile ``sources`` when needed; returns why they stay pure Python (``KAFENIO_PURE=1``, no
    compiler), else ``None``. Stale extensions are removed first, whatever happens next.

    Raises:
        RuntimeError: mypyc or the C compiler failed (the output is in the message).
    """
    reason = "KAFENIO_PURE=1" if os.environ.get("KAFENIO_PURE") == "1" else compiler_missing()
    if reason is None and not compile_needed(sources):
        return None
    remove_compiled(sources)
    if reason is not None:
        return reason
    script = f"import hatch_build; hatch_build.compile_modules({sources!r})"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        remove_compiled(sources)
        raise RuntimeError(f"mypyc failed to compile {', '.join(sources)} (exit {done.returncode}):\n"
                           f"{done.stdout[-6000:]}\n{done.stderr[-4000:]}")
    return None


class WebBuildHook(BuildHookInterface):
    """Builds ``web/`` and compiles the modules listed in ``pyproject.toml`` before a wheel or an
    editable install is made."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        if catalogs_need_compiling():
            self.app.display_info("compiling the message catalogs (src/kafenio/locale)")
            compile_catalogs()
        build_data["artifacts"].append("src/kafenio/locale/**/*.mo")  # kafenio.mo and messages.mo
        sources = self.config.get("compiled", [])
        if sources:
            if compile_needed(sources):
                self.app.display_info(f"compiling {len(sources)} modules with mypyc (about a minute)")
            pure = build_compiled(sources)
            if pure is not None:
                self.app.display_warning(f"kafenio installs in pure Python (slower): {pure}")
            else:
                build_data["artifacts"] += [p.relative_to(ROOT).as_posix() for p in compiled_outputs(sources)]
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
        if os.environ.get("KAFENIO_SKIP_WEB_BUILD") == "1":
            return
        if web_build_needed():
            self.app.display_info("building the web table (npm run build in web/)")
            build_web()
        build_data["artifacts"].append("src/kafenio/server/static/app/**")


if __name__ == "__main__":
    if sys.argv[1:] == ["catalogs"]:
        try:
            update_catalogs()
        except CatalogError as err:
            sys.exit(f"broken catalog: {err}")
    elif sys.argv[1:2] == ["new-language"] and len(sys.argv) == 3:
        try:
            print(f"{new_catalog(sys.argv[2])}: translate it, then python hatch_build.py catalogs")
        except CatalogError as err:
            sys.exit(str(err))
    elif sys.argv[1:] == ["compile"]:
        sources = compiled_sources()
        done = f"compiled {len(sources)} modules" if compile_needed(sources) else "compiled modules up to date"
        print(build_compiled(sources) or done)
    else:
        sys.exit("usage: python hatch_build.py catalogs | new-language LANG | compile")
