"""Game records: a match written as JSON lines that replays and verifies exactly.

A record is a text file, one JSON object per line::

    {"kafenio_record": 1, "game": "biriba", "presets": ["standard_4p"], "rules": {…},
     "seed": 123, "first_dealer": 2,
     "players": [{"name": null, "level": null}, {"name": "Eleni", "level": "medium"}, …]}
    {"deal": 0, "dealer": 2}
    {"seat": 1, "action": "draw"}
    …
    {"deal_end": 0, "scores": [425, -110], "totals": [425, -110]}
    …
    {"result": {"totals": [3105, 2870], "winner": 0}}

``players`` (optional, one per seat) names who sat where: a computer with its name
(:func:`kafenio.agents.names.computer_names`) and level or player kind, a person with ``level``
null and their name, or null when they gave none.

The match seed fixes every deal (:func:`kafenio.engine.match.deal_seed`), so the record holds no
card: it is written for finished matches, never sent to a player of a running one.
:func:`replay` re-plays every action and checks every deal score and the result; a corrupt or
tampered record is refused with the number of its first bad line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kafenio.engine.errors import KafenioError, RecordError
from kafenio.engine.game import Game, State
from kafenio.engine.match import DealResult, Match
from kafenio.i18n import _
from kafenio.words import scores_text

FORMAT_VERSION = 1


def header(game: Game, seed: int, first_dealer: int,
           players: list[dict[str, str | None]] | None = None) -> dict[str, Any]:
    """A record's first line: game, rules, seed, first dealer, and ``players`` when given (per
    seat ``{"name", "level"}``, the module docstring)."""
    line: dict[str, Any] = {"kafenio_record": FORMAT_VERSION, "game": game.name,
                            "presets": list(game.rules.presets), "rules": game.rules.to_dict(),
                            "seed": seed, "first_dealer": first_dealer}
    if players is not None:
        line["players"] = players
    return line


class Recorder:
    """Writes a match's record line by line as it is played (a crash loses nothing written).

    Args:
        out: a text stream open for writing.
    """

    def __init__(self, out: IO[str]):
        self.out = out

    def _line(self, obj: dict[str, Any]) -> None:
        self.out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self.out.flush()

    def start(self, match: Match, players: list[dict[str, str | None]] | None = None) -> None:
        """The header (:func:`header`)."""
        self._line(header(match.game, match.seed, match.first_dealer, players))

    def deal_started(self, index: int, state: State) -> None:
        """A new deal."""
        self._line({"deal": index, "dealer": state.dealer})

    def action(self, state: State, action: int) -> None:
        """An action, written before it is applied (its notation may depend on the state)."""
        self._line({"seat": state.current_player(), "action": state.action_to_string(action)})

    def deal_finished(self, result: DealResult, totals: list[float]) -> None:
        """A deal's scores and the totals after it."""
        self._line({"deal_end": result.index, "scores": result.scores, "totals": totals})

    def finish(self, match: Match) -> None:
        """The result line."""
        self._line({"result": {"totals": match.totals, "winner": match.winner}})


@dataclass
class ReplayResult:
    """What a verified record holds: the replayed match and how many actions it had."""

    match: Match
    actions: int
    complete: bool


def _lines(source: str | Path | IO[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    if isinstance(source, (str, Path)):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise RecordError(0, str(err)) from None
    else:
        text = source.read()
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as err:
            raise RecordError(number, _("not JSON: {err}").format(err=err.msg)) from None
        if not isinstance(obj, dict):
            raise RecordError(number, _("expected a JSON object"))
        yield number, obj


def _field(number: int, obj: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in obj:
        raise RecordError(number, _("missing field {key!r}").format(key=key))
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(number, _("field {key!r} has the wrong type").format(key=key))
    return value


def replay(source: str | Path | IO[str]) -> ReplayResult:
    """Replay a record and verify every action, deal score and the result.

    Args:
        source: a path or a text stream.

    Returns:
        The replayed match; ``complete`` is False when the record stops before a result line.

    Raises:
        RecordError: the number of the first bad line and what is wrong with it.
    """
    import kafenio

    lines = _lines(source)
    try:
        number, header = next(lines)
    except StopIteration:
        raise RecordError(0, _("empty record")) from None
    if header.get("kafenio_record") != FORMAT_VERSION:
        raise RecordError(number, _("not a kafenio record (format {v})").format(v=FORMAT_VERSION))
    try:
        cls = kafenio.game_class(_field(number, header, "game", str))
        rules = cls.rulebook.from_dict(_field(number, header, "rules", dict),
                                       _field(number, header, "presets", list))
        match = Match(cls(rules), seed=_field(number, header, "seed", int),
                      first_dealer=_field(number, header, "first_dealer", int))
    except KafenioError as err:
        if isinstance(err, RecordError):
            raise
        raise RecordError(number, str(err)) from None
    actions = 0
    complete = False
    state: State | None = None
    for number, obj in lines:
        if complete:
            raise RecordError(number, _("line after the result"))
        if "deal" in obj:
            if state is not None:
                raise RecordError(number, _("new deal before the previous one ended"))
            index = _field(number, obj, "deal", int)
            if index != len(match.deals):
                raise RecordError(number, _("expected deal {i}").format(i=len(match.deals)))
            if match.is_over:
                raise RecordError(number, _("the match was already over"))
            state = match.start_deal()
            if _field(number, obj, "dealer", int) != state.dealer:
                raise RecordError(number, _("dealer is {d}, the rotation gives {e}").format(
                    d=obj["dealer"], e=state.dealer))
        elif "action" in obj:
            if state is None or state.is_terminal():
                raise RecordError(number, _("action outside a running deal"))
            seat = _field(number, obj, "seat", int)
            if seat != state.current_player():
                raise RecordError(number, _("seat {s} is not to act (seat {c} is)").format(
                    s=seat, c=state.current_player()))
            try:
                state.apply_string(_field(number, obj, "action", str))
            except KafenioError as err:
                raise RecordError(number, str(err)) from None
            actions += 1
        elif "deal_end" in obj:
            if state is None or not state.is_terminal():
                raise RecordError(number, _("deal end before the deal is over"))
            result = match.finish_deal()
            state = None
            if _field(number, obj, "scores", list) != result.scores:
                raise RecordError(number, _("scores {g} differ from the replayed {r}").format(
                    g=obj["scores"], r=result.scores))
            if _field(number, obj, "totals", list) != match.totals:
                raise RecordError(number, _("totals {g} differ from the replayed {r}").format(
                    g=obj["totals"], r=match.totals))
        elif "result" in obj:
            result_obj = _field(number, obj, "result", dict)
            if state is not None:
                raise RecordError(number, _("result before the deal ended"))
            if result_obj.get("totals") != match.totals or result_obj.get("winner") != match.winner:
                raise RecordError(number, _("result differs from the replayed totals {t}, winner {w}")
                                  .format(t=scores_text(match.totals), w=match.winner))
            complete = True
        else:
            raise RecordError(number, _("unknown line: expected deal, action, deal_end or result"))
    return ReplayResult(match, actions, complete)
