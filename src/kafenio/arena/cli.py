"""The ``kafenio arena`` command: duplicate-deal matches between computer players.

``kafenio arena GAME --preset P --players expert,hard --deals N [--seed S] [--workers W]
[--backend process|ray] [--json FILE] [--log FILE [--resume]]``

``--resume`` reads the log first: the deal sets of this run found there are reported, not played
again, so a long table can be played over several sessions (same game, rules, seed and playing
code: :func:`kafenio.arena.duplicate.run_identity`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from kafenio.agents.levels import player_names, split_player_names
from kafenio.arena import BACKENDS, run_arena
from kafenio.arena.duplicate import DealSetResult, GameSpec, log_line, read_log, run_identity
from kafenio.engine.errors import KafenioError
from kafenio.i18n import N_, _, n_, number, percent
from kafenio.words import game_name

console = Console()
err_console = Console(stderr=True)


def _print_error(err: object) -> None:
    label = _("error")
    err_console.print(f"[bold red]{label}:[/] {err}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to ``app``."""
    app.command("arena", help=N_("Play computer players against each other on duplicate deals; print margins, "
                                "CIs and ratings."))(arena)


def arena(game: Annotated[str, typer.Argument(help=N_("The game, e.g. basra or biriba."))],
          players: Annotated[str, typer.Option(help=N_("Comma-separated players: {names}.",
                                                          names=", ".join(player_names())))] = "heuristic,random",
          deals: Annotated[int, typer.Option(help=N_("Duplicate deal sets per pairing."))] = 100,
          preset: Annotated[list[str] | None, typer.Option(
              "--preset", "-p", help=N_("A preset; repeat to stack a base and modifiers."))] = None,
          option: Annotated[list[str] | None, typer.Option(
              "--option", "-o", help=N_("A rule option as name=value; repeatable."))] = None,
          seed: Annotated[int, typer.Option(help=N_("Base seed of the deals."))] = 0,
          workers: Annotated[int | None, typer.Option(help=N_("Worker processes (default: all cores)."))] = None,
          backend: Annotated[str, typer.Option(help=N_("Where tasks run: {b}.", b=", ".join(BACKENDS)))] = "process",
          json_path: Annotated[Path | None, typer.Option("--json", help=N_("Also write the report here."))] = None,
          log: Annotated[Path | None, typer.Option(help=N_(
              "Append each finished deal set here as a JSON line (partial results of a long run)."))] = None,
          resume: Annotated[bool, typer.Option(help=N_(
              "Read --log first and do not play again the deal sets of this run found there."))] = False,
          ) -> None:
    """Play computer players against each other on duplicate deals; print margins, CIs and ratings."""
    names = split_player_names(players)
    identity = run_identity(GameSpec(game, tuple(preset or ()), tuple(option or ())), seed)
    done: list[DealSetResult] = []
    if resume:
        if log is None:
            _print_error(_("--resume reads the run from --log: give --log FILE"))
            raise typer.Exit(2)
        try:
            done, others = read_log(log, identity)
        except KafenioError as err:
            _print_error(err)
            raise typer.Exit(2) from None
        sets = n_("{n} deal set", "{n} deal sets", len(done)).format(n=number(len(done)))
        err_console.print(n_("{log}: {sets} of this run, {n} line of other runs (not used)",
                             "{log}: {sets} of this run, {n} lines of other runs (not used)", others).format(
            log=log, sets=sets, n=number(others)), highlight=False)
    log_file = log.open("a", encoding="utf-8") if log is not None else None

    def finished(result: DealSetResult) -> None:
        bar.advance(task)
        if log_file is not None:
            log_file.write(log_line(identity, result) + "\n")
            log_file.flush()

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err_console, transient=True) as bar:
        task = bar.add_task(_("deal sets"), total=None)
        try:
            report = run_arena(game, names, deals, seed, preset=preset or (), options=option or (),
                               workers=workers, backend=backend,
                               on_start=lambda n: bar.update(task, total=n), on_result=finished, done=done)
        except KafenioError as err:
            _print_error(err)
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            bar.stop()
            finished_now = int(bar.tasks[0].completed)
            kept = finished_now + len(done)
            err_console.print(n_("interrupted: {n} deal set of this run is in {log}; the same command with "
                                 "--resume goes on from there",
                                 "interrupted: {n} deal sets of this run are in {log}; the same command with "
                                 "--resume goes on from there", kept).format(n=number(kept), log=log)
                              if log is not None else
                              n_("interrupted after {n} deal set, which is lost: give --log FILE to keep a "
                                 "long run's deal sets",
                                 "interrupted after {n} deal sets, which are lost: give --log FILE to keep a "
                                 "long run's deal sets", finished_now).format(n=number(finished_now)),
                              highlight=False)
            raise typer.Exit(130) from None
        finally:
            if log_file is not None:
                log_file.close()
    print_report(report)
    if json_path is not None:
        json_path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        console.print(_("report written to {path}").format(path=json_path))


def print_report(report: dict) -> None:
    """Print the pairing table, the rating table and (search players) the think times of a report."""
    resumed = report.get("resumed")
    results = Table(title=n_("{game}: {n} duplicate deal set per pairing, seed {seed} (scheme {v}), {s} s",
                             "{game}: {n} duplicate deal sets per pairing, seed {seed} (scheme {v}), {s} s",
                             report["deals"]).format(
        game=game_name(report["game"]), n=number(report["deals"]), seed=report["seed"], v=report["seed_scheme"],
        s=number(report["seconds"], digits=0))
        + (n_(", {k} deal set from the log", ", {k} deal sets from the log", resumed).format(k=number(resumed))
           if resumed else ""))
    for col, justify in ((_("pairing"), "left"), (_("player"), "left"), (_("mean margin"), "right"),
                         (_("95% CI"), "right"), (_("win rate"), "right"), (_("W-T-L"), "right")):
        results.add_column(col, justify=justify)
    versus = " " + _("vs") + " "
    for pairing in report["pairings"]:
        label = versus.join(pairing["entrants"])
        for row in pairing["rows"]:
            ci = row["ci95"]
            results.add_row(label, row["player"], number(row["mean_margin"], digits=2, sign=True),
                            "—" if ci is None else "[{} … {}]".format(*(number(x, digits=2, sign=True) for x in ci)),
                            percent(row["win_rate"], digits=1),
                            "-".join(number(row[k]) for k in ("wins", "ties", "losses")))
    console.print(results)
    ratings = Table(title=_("openskill ratings (Plackett–Luce, one update per deal set)"))
    for col in (_("player"), "mu", "sigma", _("ordinal")):
        ratings.add_column(col, justify="right")
    for row in report["ratings"]:
        ratings.add_row(row["player"], *(number(row[k], digits=2) for k in ("mu", "sigma", "ordinal")))
    console.print(ratings)
    if report.get("think"):
        think = Table(title=_("search time per searched move (wall seconds, this machine and load)"))
        for col in (_("player"), _("searched moves"), _("mean s"), _("longest s")):
            think.add_column(col, justify="right")
        for row in report["think"]:
            think.add_row(row["player"], number(row["searches"]),
                          *(number(row[k], digits=3) for k in ("mean_seconds", "max_seconds")))
        console.print(think)
