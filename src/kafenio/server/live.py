"""A table in memory: its match rebuilt from the stored seed and moves, and what each seat sees.

:class:`LiveTable` is pure (no I/O): the hub loads a :class:`~kafenio.server.store.Loaded` row,
rebuilds it here, changes it, and commits the change with a compare-and-set. Every message a
seat gets about the cards is built here from ``State.view(seat)`` and the seat's legal actions.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import kafenio
from kafenio.agents import PLAYER_KINDS, Player, RandomPlayer, make_player
from kafenio.engine.errors import KafenioError
from kafenio.engine.game import Game, Seat, State
from kafenio.engine.match import Match
from kafenio.engine.rules import Option, RuleBook
from kafenio.i18n import _, current_language
from kafenio.server import protocol as p
from kafenio.server.models import MoveRow, TableRow
from kafenio.server.timers import TIMERS, deadline_for

#: a card in the spec's notation, as it appears in a view's JSON text: standing alone, not inside
#: a longer URL-safe token (``secrets.token_urlsafe``: letters, digits, "-", "_"), such as a table
#: id or a seat token, which may spell a card by chance ("3S_cawcp")
CARD_RE = re.compile(r"(?<![\w-])(?:10|[A2-9JQK])[SHDC](?![\w-])|(?<![\w-])JK(?![\w-])", re.ASCII)


def card_counts(view: Mapping[str, Any]) -> Counter[str]:
    """How often each card string occurs in a view's JSON text (``docs/protocol.md`` §7 rule 4).

    The view's ``last_action`` is left out: it is the notation of an action (``meld+ 3H``) whose
    cards are counted where they now lie, so it reveals nothing.
    """
    return Counter(CARD_RE.findall(json.dumps({k: v for k, v in view.items() if k != "last_action"})))


# -- games and computer players ------------------------------------------------------------------

class GameRegistry:
    """The games the server offers: kafenio's installed games, plus ``extra`` ones (tests).

    Args:
        extra: name → :class:`Game` subclass, looked up before kafenio's games.
    """

    def __init__(self, extra: Mapping[str, type[Game]] | None = None):
        self.extra = dict(extra or {})

    def names(self) -> list[str]:
        """Every game name on offer."""
        return [*self.extra, *(n for n in kafenio.available_games() if n not in self.extra)]

    def game_class(self, name: str) -> type[Game]:
        """The game class of ``name``.

        Raises:
            RulesError: an unknown game.
        """
        return self.extra.get(name) or kafenio.game_class(name)


def computer_levels() -> list[str]:
    """The levels the lobby offers: ``kafenio.agents.levels.LEVELS`` when installed, else the
    basic players."""
    try:
        from kafenio.agents import levels
    except ModuleNotFoundError:
        return list(PLAYER_KINDS)
    return list(getattr(levels, "LEVELS", PLAYER_KINDS))


def accepted_levels() -> list[str]:
    """The levels a computer seat may have: the lobby's, plus the basic players (``random``)."""
    return [*computer_levels(), *(k for k in PLAYER_KINDS if k not in computer_levels())]


def default_level() -> str:
    """The level of a computer seat when none is given, and of a computer playing an away seat."""
    known = computer_levels()
    return "medium" if "medium" in known else known[-1]


def make_bot(level: str, game: Game, seed: int | None = None) -> Player:
    """A computer player of ``level`` (a random player when the game has none of that level)."""
    try:
        try:
            from kafenio.agents.levels import make_named_player
        except ImportError:
            return make_player(level, game, seed)
        return make_named_player(level, game, seed)
    except KafenioError:
        return RandomPlayer(game, seed)


# -- options in words -----------------------------------------------------------------------------

def option_text(option: Option, value: Any) -> str:
    """One option and its value as a sentence for the lobby."""
    doc = _(option.doc) if option.doc else option.name.replace("_", " ")
    if option.kind == "bool":
        shown = _("yes") if value else _("no")
    elif value is None:
        shown = _("off")
    else:
        shown = str(value)
    allowed = ""
    if option.choices:
        allowed = _("one of {c}").format(c=", ".join(map(str, option.choices)))
    elif option.min is not None:
        allowed = _("a whole number from {lo} to {hi}").format(lo=option.min, hi=option.max)
    return f"{doc}: {shown}" + (f" ({allowed})" if allowed else "") + "."


def describe_game(name: str, book: RuleBook) -> dict[str, Any]:
    """The lobby's description of a game: presets and options with their defaults, in words, the
    old names each is also accepted as (``aliases``, README §5) and the keys of its published
    sources (``sources``; empty for a rule of the engine's own), and every source they cite
    (``sources``: key, title, addresses; :mod:`kafenio.engine.sources`)."""
    rules = book.build()
    return {
        "name": name,
        "num_players": rules.get("num_players"),
        "presets": [{"name": pr.name, "kind": pr.kind, "doc": _(pr.doc) if pr.doc else "",
                     "values": dict(pr.values), "aliases": book.aliases_of(pr.name),
                     "sources": list(pr.sources)}
                    for pr in book.presets],
        "options": [{"name": o.name, "kind": o.kind, "default": rules.to_dict()[o.name],
                     "choices": list(o.choices), "low": o.min, "high": o.max,
                     "doc": _(o.doc) if o.doc else "", "text": option_text(o, rules[o.name]),
                     "aliases": book.aliases_of(o.name), "sources": list(o.sources)}
                    for o in book.options],
        "sources": [source.describe(name) for source in book.cited_sources()],
    }


def rules_text(book: RuleBook, values: Mapping[str, Any], presets: list[str]) -> list[str]:
    """The presets' docs, then every option whose value differs from the game's defaults."""
    defaults = book.build().to_dict()
    lines = [_(book.preset_by_name[n].doc) for n in presets
             if n in book.preset_by_name and book.preset_by_name[n].doc]
    lines += [option_text(o, values[o.name]) for o in book.options
              if o.name in values and values[o.name] != defaults.get(o.name)]
    return lines


# -- the live table ------------------------------------------------------------------------------

@dataclass
class Move:
    """An accepted action; ``texts``: its notation as each seat (``None``: a spectator) saw it
    made (:meth:`State.action_seen_by`)."""

    seq: int
    deal: int
    seat: int
    action: int
    by_bot: bool
    texts: dict[int | None, str]


@dataclass
class LiveTable:
    """A table rebuilt from its row; see :meth:`build`."""

    row: TableRow
    book: RuleBook
    game: Game
    match: Match
    state: State | None
    moves: list[Move]
    bot_played: list[set[int]] = field(default_factory=list)
    reveal: list[Counter[str]] = field(default_factory=list)
    bots: dict[int, Player] = field(default_factory=dict)
    #: :func:`rules_text` by language (the rules never change: described once per table and language)
    rules_lines: dict[str, list[str]] = field(default_factory=dict)
    #: seat → its token at the rematch table, as sent by this process (kept in memory only)
    rematch_tokens: dict[int, str] = field(default_factory=dict)

    @classmethod
    def build(cls, row: TableRow, moves: list[MoveRow | Move], games: GameRegistry) -> LiveTable:
        """Replay the match from the row's seed and the moves (in ``seq`` order): deal after
        deal up to the row's ``deal``, each move in the deal it is stored with, so that the
        table rebuilt is the live table that stored them (every :class:`Move` the same).

        Raises:
            KafenioError: the moves do not replay (a corrupt table): a gap in ``seq``, a move
                of a deal the row has not reached, or an action that is not legal there.
        """
        game_cls = games.game_class(row.game)
        game = game_cls(game_cls.rulebook.from_dict(row.rules, row.presets))
        match = Match(game, seed=row.seed, first_dealer=row.first_dealer)
        live = cls(row, game_cls.rulebook, game, match, None, [])
        by_deal: dict[int, list[MoveRow | Move]] = {}
        for i, m in enumerate(moves):
            if m.seq != i or not 0 <= m.deal <= row.deal:
                raise KafenioError(_("table {t} cannot be rebuilt: its stored move {s} of deal {d} is out of "
                                     "order").format(t=row.id, s=m.seq, d=m.deal))
            by_deal.setdefault(m.deal, []).append(m)
        for d in range(row.deal + 1):
            live._start_deal()
            for m in by_deal.get(d, []):
                live.apply(m.seat, m.action, m.by_bot)
        return live

    # -- who is who ---------------------------------------------------------------------------
    @property
    def id(self) -> str:
        """The table id."""
        return self.row.id

    @property
    def version(self) -> int:
        """The table's version."""
        return self.row.version

    def human_seats(self) -> list[int]:
        """The human seats."""
        return [i for i, s in enumerate(self.row.seats) if s["kind"] == "human"]

    def seat_of_token(self, token_hash: str) -> int | None:
        """The seat whose token has this hash."""
        return next((i for i, s in enumerate(self.row.seats) if s.get("token_hash") == token_hash), None)

    @property
    def phase(self) -> str:
        """``waiting``, ``playing``, ``deal_over`` or ``finished``."""
        if self.state is None:
            return "waiting"
        if self.match.is_over:
            return "finished"
        return "deal_over" if self.state.is_terminal() else "playing"

    def to_act(self) -> int | None:
        """The seat to act, when playing."""
        return self.state.current_player() if self.phase == "playing" else None

    def computer_acts(self) -> bool:
        """True when the seat to act is played by a computer (a computer seat or an away seat)."""
        seat = self.to_act()
        return seat is not None and (self.row.seats[seat]["kind"] == "computer" or self.row.seats[seat]["away"])

    def all_ready(self) -> bool:
        """True between deals when every human seat sent ``next_deal`` or is away."""
        return self.phase == "deal_over" and all(
            i in self.row.ready or self.row.seats[i]["away"] for i in self.human_seats())

    # -- changes (in memory; the hub commits them) ------------------------------------------------
    @property
    def deal_index(self) -> int:
        """The index of the deal dealt last in this match's replay (−1 before the first): the
        deal a move applied now belongs to. The row's ``deal`` is where the match is; while
        :meth:`build` replays the earlier deals, this is the deal being replayed."""
        return len(self.bot_played) - 1

    def _start_deal(self) -> None:
        self.state = self.match.start_deal()
        self.bot_played.append(set())
        self.reveal = []
        self._mark()

    def _mark(self) -> None:
        humans = self.human_seats()
        if len(humans) == 1 and self.state is not None:
            self.reveal.append(card_counts(self.state.view(humans[0])))

    def start_next_deal(self) -> None:
        """Deal the next deal (the first one when waiting)."""
        self.row.deal += 1
        self.row.ready = []
        self._start_deal()

    def parse_action(self, action: int | str) -> int:
        """An action id from an id or a notation.

        Raises:
            KafenioError: out of range or unparsable.
        """
        assert self.state is not None
        if isinstance(action, int):
            if not 0 <= action < self.game.num_distinct_actions():
                raise KafenioError(_("action id {a} is out of range").format(a=action))
            return action
        return self.state.string_to_action(action)

    def apply(self, seat: int, action: int, by_bot: bool) -> Move:
        """Apply ``action`` for ``seat`` (the seat to act); finish the deal when it ends.

        Raises:
            IllegalAction: the table is unchanged.
        """
        assert self.state is not None
        if action not in self.state.legal_actions():
            raise self.state.explain_illegal(action)
        # before applying: the notation may depend on the state
        texts = {s: self.state.action_seen_by(action, s) for s in [*range(self.game.num_players), None]}
        self.state.apply_action(action)
        move = Move(len(self.moves), self.deal_index, seat, action, by_bot, texts)
        self.moves.append(move)
        if by_bot:
            self.bot_played[-1].add(seat)
        self._mark()
        if self.state.is_terminal():
            self.match.finish_deal()
        return move

    def deal_moves(self) -> list[Move]:
        """The moves of the current deal."""
        return [m for m in self.moves if m.deal == self.row.deal]

    def undo_point(self, seat: int) -> tuple[int | None, str]:
        """Where an undo by ``seat`` would go back to (``docs/protocol.md`` §7).

        Returns:
            ``(seq, "")`` — the first move to remove — or ``(None, reason)``.
        """
        if any(s["kind"] == "human" for i, s in enumerate(self.row.seats) if i != seat):
            return None, _("undo is only for tables against computer players")
        if self.phase != "playing":
            return None, _("undo is only possible during a deal")
        moves = self.deal_moves()
        k = next((i for i in range(len(moves) - 1, -1, -1)
                  if moves[i].seat == seat and not moves[i].by_bot), None)
        if k is None:
            return None, _("you have no action to take back in this deal")
        before = self.reveal[k]
        for later in self.reveal[k + 1:]:
            if any(n > before[c] for c, n in later.items()):
                return None, _("a hidden card was revealed since that action")
        return moves[k].seq, ""

    # -- derived columns ------------------------------------------------------------------------
    def columns(self, keep_clock: bool = False) -> dict[str, Any]:
        """The row's columns that every commit writes (from the in-memory state), the time of
        the change (``updated_at``) included.

        Args:
            keep_clock: a change that is no action (a vote, a seat joining): a running clock
                keeps its deadline.
        """
        self.row.phase = self.phase
        deadline = deadline_for(self, time.time())
        if not (keep_clock and deadline is not None and self.row.deadline is not None):
            self.row.deadline = deadline
        self.row.summary = {"totals": list(self.match.totals), "winner": self.match.winner,
                            "deals_played": len(self.match.deals)}
        self.row.updated_at = datetime.now(UTC)
        return {k: getattr(self.row, k) for k in (
            "seats", "phase", "deal", "ready", "rematch", "next_table", "deadline", "summary", "updated_at")}

    # -- what a seat sees ------------------------------------------------------------------------
    def table_info(self, connected: set[int]) -> p.TableInfo:
        """The public description of the table."""
        lang = current_language()
        if lang not in self.rules_lines:
            self.rules_lines[lang] = rules_text(self.book, self.row.rules, self.row.presets)
        return table_info(self.row, self.book, connected, self.rules_lines[lang])

    def legal(self, seat: int | None) -> list[p.LegalAction]:
        """The seat's legal actions (empty unless it is to act itself)."""
        if seat is None or self.to_act() != seat or self.row.seats[seat]["away"]:
            return []
        view = Seat(self.state, seat)
        floor = self.state.view(seat).get("floor")
        texts = {a: view.action_to_string(a) for a in view.legal_actions()}
        return [p.LegalAction(id=a, text=text, takes=self._takes(seat, a, floor) if text.startswith("play ") else None)
                for a, text in texts.items()]

    def _takes(self, seat: int, action: int, floor: list[str] | None) -> list[str] | None:
        """The floor cards the play ``action`` of ``seat`` captures at once, played on a copy of
        the deal (``None``: no floor, or a choice of captures follows): only public cards."""
        if floor is None:
            return None
        after = self.state.clone()
        after.apply_action(action)
        seen = after.view(seat)
        if seen.get("pending"):
            return None
        capture = seen.get("last_capture")
        if not capture or capture["seat"] != seat or capture == self.state.view(seat).get("last_capture"):
            return []
        left = list(floor)
        return [card for card in capture["cards"] if card in left and not left.remove(card)]

    def snapshot(self, seat: int | None, connected: set[int], now: float) -> p.SnapshotMsg:
        """The full snapshot for ``seat`` (``None``: a spectator)."""
        return self.snapshots([seat], connected, now)[seat]

    def snapshots(self, seats: Iterable[int | None], connected: set[int],
                  now: float) -> dict[int | None, p.SnapshotMsg]:
        """The full snapshot of each of ``seats`` (``None``: a spectator), seat → snapshot.

        The parts every seat sees alike (table, match, clock) are built once; each seat adds its
        own ``view(seat)``, legal actions, undo/hint flags and the last action as it saw it made.
        """
        phase, to_act, moves = self.phase, self.to_act(), self.deal_moves()
        finished = [p.FinishedDeal(index=r.index, dealer=r.dealer, scores=r.scores, sheet=r.sheet,
                                   bot_played=sorted(self.bot_played[r.index]))
                    for r in self.match.deals]
        timer = None
        if self.row.deadline is not None and self.row.timer != "off":
            timer = p.TimerInfo(mode=self.row.timer, seat=to_act, deadline=self.row.deadline,
                                remaining=max(0.0, self.row.deadline - now))
        shared = {"version": self.version, "table": self.table_info(connected), "phase": phase,
                  "match": p.MatchInfo(totals=self.match.totals, winner=self.match.winner, deals=finished),
                  "timer": timer, "ready": list(self.row.ready), "rematch": list(self.row.rematch),
                  "next_table": self.row.next_table}
        out: dict[int | None, p.SnapshotMsg] = {}
        for seat in seats:
            deal = None
            if self.state is not None:
                last = None
                if moves:
                    m = moves[-1]
                    last = p.LastAction(seat=m.seat, text=m.texts[seat], by_bot=m.by_bot)
                deal = p.DealInfo(index=self.row.deal, step=len(moves), dealer=self.state.dealer, to_act=to_act,
                                  view=self.state.view(seat), legal=self.legal(seat), last=last)
            can_undo = seat is not None and phase == "playing" and self.undo_point(seat)[0] is not None
            out[seat] = p.SnapshotMsg(seat=seat, deal=deal, can_undo=can_undo,
                                      can_hint=self.row.hints and seat is not None and bool(deal and deal.legal),
                                      **shared)
        return out

    def hint_player(self) -> Player:
        """The computer whose action is suggested as a hint (of the default level)."""
        return make_bot(default_level(), self.game)

    def bot_for(self, seat: int) -> Player:
        """The computer playing ``seat`` (its level, or the default level for an away human)."""
        if seat not in self.bots:
            info = self.row.seats[seat]
            self.bots[seat] = make_bot(info.get("level") or default_level(), self.game)
        return self.bots[seat]


def seat_name(info: Mapping[str, Any]) -> str:
    """A seat's name: a person's own, a computer's as the table gave it
    (:func:`kafenio.agents.names.computer_names`); "Player" for a person who gave none."""
    return info.get("name") or _("Player")


def table_info(row: TableRow, book: RuleBook, connected: set[int], rules_lines: list[str] | None = None
               ) -> p.TableInfo:
    """The public description of a stored table (no live state needed); ``rules_lines``: its
    :func:`rules_text` when already known."""
    summary = row.summary
    return p.TableInfo(
        id=row.id, game=row.game, presets=row.presets, options=row.options, rules=row.rules,
        rules_text=rules_lines if rules_lines is not None else rules_text(book, row.rules, row.presets),
        seats=[p.SeatInfo(seat=i, kind=s["kind"], level=s.get("level"), name=seat_name(s),
                          claimed=s["kind"] == "computer" or s.get("token_hash") is not None,
                          connected=i in connected, away=bool(s.get("away")))
               for i, s in enumerate(row.seats)],
        phase=row.phase, version=row.version, timer=row.timer, spectators=row.spectators, hints=row.hints,
        totals=summary.get("totals", []), winner=summary.get("winner"),
        deals_played=summary.get("deals_played", 0), next_table=row.next_table,
        created_at=row.created_at.isoformat(), updated_at=row.updated_at.isoformat())


def timer_modes() -> list[dict[str, Any]]:
    """The timer modes for ``GET /api/games``."""
    return [{"name": name, "turn_seconds": spec.turn if spec else None,
             "between_deals_seconds": spec.between_deals if spec else None,
             "text": spec.text() if spec else _("No clocks.")} for name, spec in TIMERS.items()]



# -- records and replays of finished matches --------------------------------------------------------

def record_text(live: LiveTable) -> str:
    """The match record as JSON lines (``kafenio.engine.records``' format), with ``by_bot`` on
    the actions a computer made for an away human seat and ``bot_played`` on each deal end."""
    from kafenio.engine.records import header

    row, game = live.row, live.game
    lines = [header(game, row.seed, row.first_dealer,
                    [{"name": seat_name(s), "level": s.get("level")} for s in row.seats])]
    match = Match(game, seed=row.seed, first_dealer=row.first_dealer)
    for d in range(row.deal + 1):
        state = match.start_deal()
        lines.append({"deal": d, "dealer": state.dealer})
        for m in (m for m in live.moves if m.deal == d):
            line = {"seat": m.seat, "action": state.action_to_string(m.action)}
            if m.by_bot:
                line["by_bot"] = True
            lines.append(line)
            state.apply_action(m.action)
        if state.is_terminal():
            result = match.finish_deal()
            lines.append({"deal_end": d, "scores": result.scores, "totals": list(match.totals),
                          "bot_played": sorted(live.bot_played[d])})
    if match.is_over:
        lines.append({"result": {"totals": match.totals, "winner": match.winner}})
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def replay_frames(live: LiveTable, deal: int, seat: int | None) -> dict[str, Any]:
    """Every position of deal ``deal`` as ``seat`` saw it (``None``: a spectator).

    Raises:
        KafenioError: no such deal or seat.
    """
    if not 0 <= deal <= live.row.deal:
        raise KafenioError(_("no deal {d}; this match had {n}").format(d=deal, n=live.row.deal + 1))
    if seat is not None and not 0 <= seat < live.game.num_players():
        raise KafenioError(_("no seat {s} at this table").format(s=seat))
    match = Match(live.game, seed=live.row.seed, first_dealer=live.row.first_dealer)
    for d in range(deal):
        state = match.start_deal()
        for m in (m for m in live.moves if m.deal == d):
            state.apply_action(m.action)
        match.finish_deal()
    state = match.start_deal()
    frames = [{"step": 0, "seat": None, "text": None, "by_bot": False, "view": state.view(seat)}]
    for m in (m for m in live.moves if m.deal == deal):
        text = state.action_seen_by(m.action, seat)
        state.apply_action(m.action)
        frames.append({"step": len(frames), "seat": m.seat, "text": text, "by_bot": m.by_bot,
                       "view": state.view(seat)})
    return {"deal": deal, "dealer": state.dealer, "frames": frames}
