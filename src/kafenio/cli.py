"""The ``kafenio`` command: play, watch bots, replay records, ask the referee.

Every error caused by the input (a bad card, option, preset, record line) is printed as one
clear line naming what was wrong, with exit code 2.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from typer._click.exceptions import MissingParameter, NoSuchOption, UsageError
from typer.core import TyperCommand, TyperGroup

import kafenio
from kafenio import referee
from kafenio.engine.errors import KafenioError
from kafenio.engine.rules import RuleBook
from kafenio.engine.sources import cited
from kafenio.i18n import N_, _, n_, number, translated, use_language
from kafenio.words import game_name, scores_text


class _ClickWords:
    """The words Typer and its copy of Click write without gettext, in the current language: the
    usage line's ``Usage:``, ``[OPTIONS]`` and ``COMMAND [ARGS]...``, the help texts of the help and
    completion options, and the parse errors (a missing argument or option, an unknown option, a
    value that is not a number or out of its range: :func:`_value_error`), and the help texts of
    the commands and their options, written in English (:func:`~kafenio.i18n.N_`) and translated
    as the help is shown (:meth:`format_help`). Typer's other words (``Options``, ``Commands``,
    ``Arguments``, ``Error``, ``Try … for help.``) go through gettext (``kafenio.i18n``). Option
    names, the type names of the help (``<int>``) and the arguments' names are notation, as
    typed."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help, its texts (the command's, its options' and arguments', its subcommands') in
        the current language: Typer builds the commands before ``--lang`` is read, so they are
        translated here, when the help is shown (``kafenio play --lang el --help``)."""
        items = [self, *self.get_params(ctx)]  # type: ignore[misc]
        if isinstance(self, TyperGroup):
            items += filter(None, (self.get_command(ctx, name) for name in self.list_commands(ctx)))
        _translate_help(items)
        super().format_help(ctx, formatter)  # type: ignore[misc]

    def get_short_help_str(self, limit: int = 45) -> str:
        """The command's short help in the current language (a group's help and the shell's
        completion list it)."""
        _translate_help([self])
        return super().get_short_help_str(limit)  # type: ignore[misc]

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """The shell's completions, the options' help texts in the current language."""
        _translate_help(self.get_params(ctx))  # type: ignore[misc]
        return super().shell_complete(ctx, incomplete)  # type: ignore[misc]

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)),
                              prefix=_("Usage:") + " ")

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        words = {"[OPTIONS]": _("[OPTIONS]"), "COMMAND [ARGS]...": _("COMMAND [ARGS]...")}
        return [words.get(piece, piece) for piece in super().collect_usage_pieces(ctx)]  # type: ignore[misc]

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = _("Show this message and exit.")
        return option

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if param.name in TYPER_HELP:
                param.help = TYPER_HELP[param.name]()
        return params

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)  # type: ignore[misc]
        except MissingParameter as err:
            hint = _error_hint(err.param) if err.param is not None else ""
            text = (_("Missing option {hint}.") if err.param is not None and err.param.param_type_name == "option"
                    else _("Missing argument {hint}.")).format(hint=hint)
            raise UsageError(text, ctx) from None
        except NoSuchOption as err:
            text = _("No such option: {name}").format(name=err.option_name)
            if err.possibilities:
                text += " " + _("(Possible options: {options})").format(options=", ".join(sorted(err.possibilities)))
            raise UsageError(text, ctx) from None
        except typer.BadParameter as err:
            if err.param is None:
                raise
            raise UsageError(_("Invalid value for {hint}: {message}").format(
                hint=_error_hint(err.param), message=_value_error(err)), ctx) from None


def _translate_help(items: list[Any]) -> None:
    """Put the help texts of ``items`` (commands, options, arguments), written in English
    (:func:`~kafenio.i18n.N_`), into the current language."""
    for item in items:
        if item.help:
            item.help = translated(item.help)
        if getattr(item, "short_help", None):
            item.short_help = translated(item.short_help)


#: the help texts of the options Typer adds itself (shell completion), by parameter name
TYPER_HELP = {
    "install_completion": lambda: _("Install completion for the current shell."),
    "show_completion": lambda: _("Show completion for the current shell, to copy it or customize the installation."),
}

#: the parse errors of a value (Pydantic's error types, through which Typer converts a value)
VALUE_ERRORS = {
    **dict.fromkeys(("int_parsing", "int_type", "int_from_float", "int_parsing_size"),
                    lambda: _("'{value}' is not a whole number")),
    **dict.fromkeys(("float_parsing", "float_type", "finite_number"), lambda: _("'{value}' is not a number")),
    "greater_than_equal": lambda: _("{value} is less than {ge}, the least allowed"),
    "greater_than": lambda: _("{value} is not more than {gt}"),
    "less_than_equal": lambda: _("{value} is more than {le}, the most allowed"),
    "less_than": lambda: _("{value} is not less than {lt}"),
}


def _error_hint(param: Any) -> str:
    """How an error names a parameter: its option names (``'--seed'``) or the argument's name,
    with the environment variable it is also read from."""
    hint = " / ".join(f"'{name}'" for name in (param.opts if param.param_type_name == "option" else [])
                      or [param.display_name_raw])
    if getattr(param, "show_envvar", False) and param.envvar:
        hint += " " + _("(environment variable {name})").format(name=f"'{param.envvar}'")
    return hint


def _value_error(err: typer.BadParameter) -> str:
    """What is wrong with a value, in the current language: Typer converts values with Pydantic,
    whose error (the exception's cause) names its type, the value and the limit broken; another
    error keeps its own text."""
    errors = err.__cause__.errors() if hasattr(err.__cause__, "errors") else []
    if not errors:
        return err.message
    first = errors[0]
    message = VALUE_ERRORS.get(first["type"], lambda: _("'{value}' is not a valid value"))()
    return message.format(value=first.get("input"), **first.get("ctx", {}))


def speak(lang: str | None) -> str | None:
    """``--lang``: from here on the process speaks ``lang`` (an unknown one: English, with a
    warning naming the languages there are). The option is eager, read before the others, so that
    their errors speak it too."""
    if lang is not None:
        warn_language(use_language(lang))
    return lang


class Command(_ClickWords, TyperCommand):
    """A ``kafenio`` command, with Click's words translated (:class:`_ClickWords`)."""


class Group(_ClickWords, TyperGroup):
    """A ``kafenio`` command group, with Click's words translated (:class:`_ClickWords`)."""


class App(typer.Typer):
    """A Typer application whose groups and commands speak the current language (:class:`Group`,
    :class:`Command`); every ``kafenio`` command is made with it."""

    def __init__(self, **kwargs: Any):
        super().__init__(cls=Group, **kwargs)

    def command(self, *args: Any, **kwargs: Any) -> Any:
        return super().command(*args, cls=Command, **kwargs)


app = App(help=N_("kafenio: Biriba, Buraco, Basra and its relatives, as played at the table."),
          no_args_is_help=True, pretty_exceptions_enable=False)
rules_app = App(help=N_("The referee: is this meld, lay-off or capture legal, and what does it score?"),
                no_args_is_help=True)
app.add_typer(rules_app, name="rules")

console = Console()
err_console = Console(stderr=True)

PresetOpt = Annotated[list[str] | None, typer.Option(
    "--preset", "-p", help=N_("A preset; repeat to stack a base and modifiers."))]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help=N_("A rule option as name=value; repeatable."))]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print one JSON object."))]


def _fail(err: Exception) -> typer.Exit:
    label = _("error")
    err_console.print(f"[bold red]{label}:[/] {err}", highlight=False)
    return typer.Exit(2)


def warn_language(note: str | None) -> None:
    """Say that an unknown ``--lang`` falls back to English, and which languages exist."""
    if note is not None:
        label = _("warning")
        err_console.print(f"[yellow]{label}:[/] {note}", highlight=False)


def records_dir() -> Path:
    """Where finished matches' records are written (the user's data folder)."""
    from platformdirs import user_data_path
    return user_data_path("kafenio") / "records"


def new_record_path(game: str) -> Path:
    """A fresh record file name for a match of ``game``."""
    folder = records_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    return folder / f"{game}-{stamp}.jsonl"


@app.command(help=N_("Play a whole match at the terminal table against computer players."))
def play(game: Annotated[str, typer.Argument(help=N_("biriba, buraco, basra, pisti, xeri or diloti"))],
         preset: PresetOpt = None, option: OptionOpt = None,
         seed: Annotated[int | None, typer.Option(help=N_("Fix the match's shuffles."))] = None,
         players: Annotated[str, typer.Option(
             "--players", "--level",
             help=N_("Computer players for the other seats, comma-separated (one for all): "
                     "easy, medium, hard, expert, random, heuristic, ismcts, pimc."))] = "medium",
         delay: Annotated[float, typer.Option(help=N_("Seconds between computer moves."))] = 0.6,
         lang: Annotated[str | None, typer.Option(
             "--lang", is_eager=True, callback=speak,
             help=N_("Language of the table (messages, rule errors, keys), e.g. el; default: the "
                     "environment's (LANG)."))] = None) -> None:
    """Play a whole match at the terminal table against computer players (the table is imported
    after ``--lang`` has switched the language: its key names are set at import)."""
    try:
        g = kafenio.load_game(game, preset=preset, options=option)
        from kafenio.agents.levels import split_player_names
        from kafenio.tui import run_table
    except KafenioError as err:
        raise _fail(err) from None
    run_table(g, seed=seed, players=split_player_names(players), delay=delay,
              record_path=new_record_path(game))


@app.command(help=N_("Let computer players play a match and write its record."))
def autoplay(game: Annotated[str, typer.Argument(help=N_("The game to play."))],
             preset: PresetOpt = None, option: OptionOpt = None,
             seed: Annotated[int | None, typer.Option(help=N_("Fix the match's shuffles."))] = None,
             players: Annotated[str, typer.Option(help=N_("Players, comma-separated, one per seat or one "
                                                          "for all: easy, medium, hard, expert, random, "
                                                          "heuristic, ismcts, pimc."))] = "medium",
             max_deals: Annotated[int | None, typer.Option(help=N_("Stop after this many deals."))] = None,
             record: Annotated[Path | None, typer.Option(help=N_("Where to write the record."))] = None,
             ) -> None:
    """Let computer players play a match and write its record."""
    from kafenio.agents import make_player, play_match
    from kafenio.agents.levels import split_player_names
    from kafenio.engine.match import Match
    from kafenio.engine.records import Recorder

    try:
        g = kafenio.load_game(game, preset=preset, options=option)
        kinds = split_player_names(players)
        if len(kinds) == 1:
            kinds = kinds * g.num_players()
        bots = [make_player(k, g, seed=None if seed is None else seed + i) for i, k in enumerate(kinds)]
        match = Match(g, seed=seed)
        path = record or new_record_path(game)
        with path.open("w", encoding="utf-8") as out:
            play_match(match, bots, Recorder(out), max_deals=max_deals,
                       on_deal_end=lambda r, m: console.print(
                           _("deal {i}: {s}  totals {t}").format(i=number(r.index + 1), s=scores_text(r.scores),
                                                                 t=scores_text(m.totals))))
    except KafenioError as err:
        raise _fail(err) from None
    winner = _("none yet") if match.winner is None else str(match.winner)
    console.print(_("winner: side {w}; record: {p}").format(w=winner, p=path))


@app.command(help=N_("Replay a record, verifying every action, deal score and the result."))
def replay(path: Annotated[Path, typer.Argument(help=N_("A record file (.jsonl)."))]) -> None:
    """Replay a record, verifying every action, deal score and the result."""
    from kafenio.engine.records import replay as replay_record

    try:
        result = replay_record(path)
    except KafenioError as err:
        raise _fail(err) from None
    match = result.match
    deals = n_("{n} deal", "{n} deals", len(match.deals)).format(n=number(len(match.deals)))
    table = Table(title=n_("{game}: {deals}, {n} action verified", "{game}: {deals}, {n} actions verified",
                           result.actions).format(game=game_name(match.game.name), deals=deals,
                                                  n=number(result.actions)))
    table.add_column(_("deal"))
    for side in range(match.game.num_sides):
        table.add_column(_("side {s}").format(s=side), justify="right")
    for deal in match.deals:
        table.add_row(number(deal.index + 1), *map(number, deal.scores))
    table.add_row(_("total"), *map(number, match.totals), style="bold")
    console.print(table)
    if result.complete:
        console.print(_("record verified; winner: side {w}").format(w=match.winner))
    else:
        console.print(_("record verified so far; the match was not finished"))


def _answer(game: str, verb: str, result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        console.print_json(json.dumps(result))
    else:
        console.print(referee.describe(game, verb, result), highlight=False)


@rules_app.command("meld", help=N_("Is this a legal new meld? Run or set, clean or dirty, its bonus, or the rule "
                                   "against it."))
def rules_meld(game: str, cards: Annotated[str, typer.Argument(help=N_('Cards, e.g. "5H 6H 7H 2C=8H".'))],
               preset: PresetOpt = None, option: OptionOpt = None, as_json: JsonOpt = False,
               kozi: Annotated[str | None, typer.Option(help=N_("Biriba: the kozi suit (S, H, D, C)."))] = None,
               ) -> None:
    """Is this a legal new meld? Run or set, clean or dirty, its bonus, or the rule against it."""
    extra = {"kozi": kozi} if kozi else {}
    try:
        result = referee.meld(game, cards, preset, option, **extra)
    except KafenioError as err:
        raise _fail(err) from None
    _answer(game, "meld", result, as_json)


@rules_app.command("layoff", help=N_("Can these cards be laid off on that meld? The meld after it, or the rule "
                                     "against it."))
def rules_layoff(game: str, cards: Annotated[str, typer.Argument(help=N_("The cards laid off."))],
                 meld: Annotated[str, typer.Option("--meld", help=N_("The meld on the table."))],
                 preset: PresetOpt = None, option: OptionOpt = None, as_json: JsonOpt = False,
                 wild_end: Annotated[str | None, typer.Option(
                     help=N_("Where a displaced wild goes: low or high."))] = None) -> None:
    """Can these cards be laid off on that meld? The meld after it, or the rule against it."""
    extra = {"wild_end": wild_end} if wild_end else {}
    try:
        result = referee.layoff(game, meld, cards, preset, option, **extra)
    except KafenioError as err:
        raise _fail(err) from None
    _answer(game, "layoff", result, as_json)


@rules_app.command("capture", help=N_("What does this card capture from this floor, and is it a basra (pişti, xeri)?"))
def rules_capture(game: str, floor: Annotated[str, typer.Option("--floor", help=N_("The floor cards."))],
                  play_card: Annotated[str, typer.Option("--play", help=N_("The card played."))],
                  preset: PresetOpt = None, option: OptionOpt = None, as_json: JsonOpt = False) -> None:
    """What does this card capture from this floor, and is it a basra (pişti, xeri)?"""
    try:
        result = referee.capture(game, floor, play_card, preset, option)
    except KafenioError as err:
        raise _fail(err) from None
    _answer(game, "capture", result, as_json)


@rules_app.command("declare", help=N_("Diloti: is this declaration allowed?"))
def rules_declare(game: str, declaration: Annotated[str, typer.Argument(help=N_("The declaration."))],
                  floor: Annotated[str, typer.Option("--floor", help=N_("The floor cards."))],
                  hand: Annotated[str, typer.Option("--hand", help=N_("The declarer's hand."))],
                  preset: PresetOpt = None, option: OptionOpt = None, as_json: JsonOpt = False) -> None:
    """Diloti: is this declaration allowed?"""
    try:
        result = referee.declare(game, floor, hand, declaration, preset, option)
    except KafenioError as err:
        raise _fail(err) from None
    _answer(game, "declare", result, as_json)


@rules_app.command("score", help=N_("Score a deal from its end position (melds, hands and pots; or captured piles)."))
def rules_score(game: str,
                data: Annotated[str, typer.Argument(help=N_("The deal's end position as JSON, or @FILE, "
                                                            "or - for standard input."))],
                preset: PresetOpt = None, option: OptionOpt = None, as_json: JsonOpt = False) -> None:
    """Score a deal from its end position (melds, hands and pots; or captured piles)."""
    try:
        if data == "-":
            text = sys.stdin.read()
        elif data.startswith("@"):
            text = Path(data[1:]).read_text(encoding="utf-8")
        else:
            text = data
        try:
            position = json.loads(text)
        except json.JSONDecodeError as err:
            raise KafenioError(_("score input is not JSON: {e}").format(e=err)) from None
        if not isinstance(position, dict):
            raise KafenioError(_("score input must be a JSON object"))
        result = referee.score(game, position, preset, option)
    except (KafenioError, OSError) as err:
        raise _fail(err) from None
    _answer(game, "score", result, as_json)


@rules_app.command("list", help=N_("The game's presets and options, with the values a preset and options give, "
                                   "and the published sources of each."))
def rules_list(game: str, preset: PresetOpt = None, option: OptionOpt = None) -> None:
    """The game's presets and options, with the values a preset and options give, and the published
    sources of each (their keys, then each key's title and addresses)."""
    try:
        book = kafenio.rulebook(game)
        rules = book.build(preset, option)
    except KafenioError as err:
        raise _fail(err) from None
    presets = Table(title=_("{game} presets").format(game=game_name(game)))
    for col in (_("preset"), _("kind"), _("sets"), _("meaning"), _("sources")):
        presets.add_column(col)
    for p in book.presets:
        presets.add_row(p.name, p.kind, ", ".join(f"{k}={v}" for k, v in p.values.items()) or "—",
                        _meaning(book, p.name, p.doc), cited(p.sources))
    console.print(presets)
    options = Table(title=_("{game} options (with {p})").format(game=game_name(game), p=" + ".join(rules.presets)))
    for col in (_("option"), _("value"), _("allowed"), _("meaning"), _("sources")):
        options.add_column(col)
    for o in book.options:
        allowed = ", ".join(map(str, o.choices)) if o.choices else (
            f"{o.min}…{o.max}" if o.kind in ("int", "int?", "list") else o.kind)
        options.add_row(o.name, str(rules[o.name]), allowed, _meaning(book, o.name, o.doc), cited(o.sources))
    console.print(options)
    sources = Table(title=_("{game} sources").format(game=game))
    for col in (_("source"), _("title"), _("address")):
        sources.add_column(col)
    for source in book.cited_sources():
        sources.add_row(source.key, source.title, "\n".join(source.urls_for(game)))
    console.print(sources)


def _meaning(book: RuleBook, name: str, doc: str) -> str:
    """A preset's or option's doc in words, with the old names it is also accepted as
    (README §5)."""
    text = _(doc) if doc else ""
    old = book.aliases_of(name)
    if old:
        text += (" " if text else "") + _("(also accepted as {names})").format(names=", ".join(old))
    return text



#: modules that add commands to ``app`` through their ``register(app)`` function
COMMAND_MODULES = ("kafenio.arena.cli", "kafenio.server.cli", "kafenio.benchcli")


def _register_commands() -> None:
    import importlib

    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name is not None and name.startswith(err.name):
                continue
            raise
        module.register(app)


_register_commands()
