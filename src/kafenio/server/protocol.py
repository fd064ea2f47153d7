"""The table protocol's messages (``docs/protocol.md``, version :data:`PROTOCOL_VERSION`).

Client messages are parsed with :func:`parse_client_message`; server messages are built from
the ``*Msg`` models and sent as JSON text with :func:`dump`. Every model here is the normative
shape of one message type of the document.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_serializer

from kafenio.i18n import _

PROTOCOL_VERSION = 1
#: frames larger than this are refused with ``too_large`` (the socket stays open)
MAX_MESSAGE_BYTES = 4096
#: the transport's own limit: larger frames close the socket with 1009
MAX_FRAME_BYTES = 64 * 1024
MAX_CHAT_CHARS = 500
#: messages a socket may send each second on average …
MESSAGE_RATE = 20.0
#: … and at most at once; a message beyond is dropped with ``rate_limited`` (the socket stays open)
MESSAGE_BURST = 40

Ref = Annotated[str, Field(max_length=64)] | int


class _Client(BaseModel):
    model_config = ConfigDict(extra="ignore")
    ref: Ref | None = None


class Hello(_Client):
    """Checks the protocol version and may choose the socket's language (``lang``, a tag such as
    ``pt-BR``); answered by a snapshot."""

    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    lang: Annotated[str, Field(max_length=35)] | None = None


class Sync(_Client):
    """Asks for a full snapshot."""

    type: Literal["sync"]


class Move(_Client):
    """An action (engine id or notation) chosen from the snapshot of ``version``."""

    type: Literal["move"]
    version: int
    action: int | Annotated[str, Field(min_length=1, max_length=400)]


class Chat(_Client):
    """A chat line from a seat."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_CHARS)]


class Mute(_Client):
    """Stop or resume receiving one seat's chat on this socket."""

    type: Literal["mute"]
    seat: int
    muted: bool = True


class UndoRequest(_Client):
    """Take back the seat's last action (``docs/protocol.md`` §7)."""

    type: Literal["undo_request"]
    version: int


class HintRequest(_Client):
    """Ask a computer player for a suggestion."""

    type: Literal["hint_request"]
    version: int


class NextDeal(_Client):
    """Ready for the next deal."""

    type: Literal["next_deal"]


class Away(_Client):
    """Let a computer play this seat until ``back``."""

    type: Literal["away"]


class Back(_Client):
    """Take the seat back from the computer."""

    type: Literal["back"]


class Rematch(_Client):
    """Vote for a rematch once the match is over."""

    type: Literal["rematch"]


class Ping(_Client):
    """Answered by ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | Sync | Move | Chat | Mute | UndoRequest | HintRequest | NextDeal
                          | Away | Back | Rematch | Ping, Field(discriminator="type")]
CLIENT_TYPES = frozenset(("hello", "sync", "move", "chat", "mute", "undo_request", "hint_request",
                          "next_deal", "away", "back", "rematch", "ping"))
_client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A client frame that cannot be read.

    Attributes:
        code: ``too_large``, ``bad_json``, ``unknown_type`` or ``bad_message``.
        reason: for people.
        ref: the message's ``ref`` when it could be read.
    """

    def __init__(self, code: str, reason: str, ref: Any = None):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.ref = ref


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Parse one client frame.

    Raises:
        ProtocolError: too large, not a JSON object, unknown ``type``, or bad fields.
    """
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", _("message of {n} bytes; the limit is {m}").format(
            n=size, m=MAX_MESSAGE_BYTES))
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ProtocolError("bad_json", _("not JSON: {err}").format(err=err)) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", _("a message must be a JSON object"))
    ref = data.get("ref")
    if not isinstance(ref, (str, int)) or isinstance(ref, bool) or (isinstance(ref, str) and len(ref) > 64):
        ref = None
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", _("unknown message type {t!r}; the types are: {known}").format(
            t=kind, known=", ".join(sorted(CLIENT_TYPES))), ref)
    try:
        return _client_adapter.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or kind
        raise ProtocolError("bad_message", _("{type}: {where}: {msg}").format(
            type=kind, where=where, msg=first["msg"]), ref) from None


# -- server → client -------------------------------------------------------------------------

class LegalAction(BaseModel):
    """One legal action: the engine id and its notation; in the fishing games a play's ``takes``.

    ``takes``: the floor cards the play captures at once (``[]``: none), absent when it is not
    a play or the rules leave the player a choice of captures next (docs/protocol.md §4).
    """

    id: int
    text: str
    takes: list[str] | None = None

    @model_serializer(mode="wrap")
    def _without_empty_takes(self, handler: Any) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if self.takes is None:
            out.pop("takes", None)
        return out


class LastAction(BaseModel):
    """The last action of the deal."""

    seat: int
    text: str
    by_bot: bool


class SeatInfo(BaseModel):
    """A seat as the lobby and the table show it."""

    seat: int
    kind: Literal["human", "computer"]
    level: str | None
    name: str
    claimed: bool
    connected: bool
    away: bool


class TableInfo(BaseModel):
    """A table's public description (``docs/protocol.md`` §2)."""

    id: str
    game: str
    presets: list[str]
    options: dict[str, Any]
    rules: dict[str, Any]
    rules_text: list[str]
    seats: list[SeatInfo]
    phase: Literal["waiting", "playing", "deal_over", "finished"]
    version: int
    timer: Literal["off", "relaxed", "blitz"]
    spectators: bool
    hints: bool
    totals: list[float]
    winner: int | None
    deals_played: int
    next_table: str | None
    created_at: str
    updated_at: str


class DealInfo(BaseModel):
    """The current (or just finished) deal as one seat sees it."""

    index: int
    step: int
    dealer: int
    to_act: int | None
    view: dict[str, Any]
    legal: list[LegalAction]
    last: LastAction | None


class FinishedDeal(BaseModel):
    """A finished deal's scores and itemised sheet."""

    index: int
    dealer: int
    scores: list[float]
    sheet: dict[str, Any]
    bot_played: list[int]


class MatchInfo(BaseModel):
    """Totals, finished deals and the winner."""

    totals: list[float]
    winner: int | None
    deals: list[FinishedDeal]


class TimerInfo(BaseModel):
    """A running clock."""

    mode: Literal["relaxed", "blitz"]
    seat: int | None
    deadline: float
    remaining: float


class SnapshotMsg(BaseModel):
    """Everything a seat (or a spectator) may know about the table, at ``version``."""

    type: Literal["snapshot"] = "snapshot"
    protocol: int = PROTOCOL_VERSION
    version: int
    seat: int | None
    table: TableInfo
    phase: Literal["waiting", "playing", "deal_over", "finished"]
    deal: DealInfo | None
    match: MatchInfo
    timer: TimerInfo | None
    can_undo: bool
    can_hint: bool
    ready: list[int]
    rematch: list[int]
    next_table: str | None


class RateLimit(BaseModel):
    """A socket's message rate limit: ``per_second`` on average, ``burst`` at once."""

    per_second: float
    burst: int


class ErrorMsg(BaseModel):
    """A refused message; the table is unchanged. ``limit``: only with ``rate_limited``."""

    type: Literal["error"] = "error"
    code: str
    reason: str
    rule: str | None = None
    ref: Ref | None = None
    limit: RateLimit | None = None


class ChatMsg(BaseModel):
    """A chat line."""

    type: Literal["chat"] = "chat"
    id: int
    seat: int
    name: str
    text: str
    at: str


class ChatHistoryMsg(BaseModel):
    """The last chat lines, oldest first."""

    type: Literal["chat_history"] = "chat_history"
    messages: list[ChatMsg]


class HintMsg(BaseModel):
    """A computer's suggestion for the snapshot of ``version``."""

    type: Literal["hint"] = "hint"
    version: int
    action: LegalAction


class RematchMsg(BaseModel):
    """The rematch table exists; ``token`` is this seat's token there."""

    type: Literal["rematch"] = "rematch"
    table_id: str
    token: str | None


class PongMsg(BaseModel):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"
    ref: Ref | None = None


def dump(message: BaseModel) -> str:
    """A server message as compact JSON text."""
    return message.model_dump_json(exclude_none=isinstance(message, ErrorMsg | PongMsg))
