"""The table protocol's messages (``docs/protocol.md``, version :data:`PROTOCOL_VERSION`).

Client messages are parsed with :func:`parse_client_message`; server messages are built from
the ``*Msg`` models and sent as JSON text with :func:`dump`. Every model here is the normative
shape of one message type of the document.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_serializer

from kafenio.i18n import _
from kafenio.server.limits import JsonError, load_json

PROTOCOL_VERSION = 1
#: frames larger than this are refused with ``too_large`` (the socket stays open)
MAX_MESSAGE_BYTES = 4096
#: the transport's own limit: larger frames close the socket with 1009
MAX_FRAME_BYTES = 64 * 1024
MAX_CHAT_CHARS = 500
MAX_NAME_CHARS = 32
#: messages a socket may send each second on average …
MESSAGE_RATE = 20.0
#: … and at most at once; a message beyond is dropped with ``rate_limited`` (the socket stays open)
MESSAGE_BURST = 40
#: a table id as the server makes them (``secrets.token_urlsafe``)
TABLE_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")

#: control characters (Unicode category Cc: C0, DEL, C1) and lone surrogates (no UTF-8 form)
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: characters that reorder the text around them (Unicode bidi embeddings, overrides, isolates
#: and marks): refused in names, where they could disguise one player as another
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def text_problem(text: str, name: bool = False) -> str | None:
    """Why ``text`` may not be stored or shown, in words; ``None`` when it may.

    Refused everywhere: control characters (``NUL``, ``ESC`` …: Unicode category Cc) and lone
    surrogates (no UTF-8 form). Refused in a ``name`` too: the bidi controls
    (:data:`BIDI_CONTROLS`), and a name of spaces only.
    """
    bad = _UNSHOWABLE.search(text)
    if bad is not None:
        code = ord(bad.group())
        if 0xD800 <= code <= 0xDFFF:
            return _("a lone surrogate (U+{code:04X}) is not a character").format(code=code)
        return _("control character U+{code:04X} is not allowed").format(code=code)
    if name:
        bad = BIDI_CONTROLS.search(text)
        if bad is not None:
            return _("direction control U+{code:04X} is not allowed in a name").format(code=ord(bad.group()))
        if not text.strip():
            return _("a name needs a visible character")
    return None


def clean_text(text: str) -> str:
    """``text`` when :func:`text_problem` finds none (a pydantic validator).

    Raises:
        ValueError: the problem in words.
    """
    problem = text_problem(text)
    if problem is not None:
        raise ValueError(problem)
    return text


def clean_name(text: str) -> str:
    """A name with the spaces around it removed, when :func:`text_problem` finds none.

    Raises:
        ValueError: the problem in words.
    """
    problem = text_problem(text, name=True)
    if problem is not None:
        raise ValueError(problem)
    return text.strip()


#: a string a client may send: no control characters, no lone surrogates
Text = Annotated[str, AfterValidator(clean_text)]
#: a player's name (also no bidi controls), 1–32 characters, spaces around it removed
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS), AfterValidator(clean_name)]


Ref = Annotated[str, Field(max_length=64), AfterValidator(clean_text)] | int


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
    action: int | Annotated[str, Field(min_length=1, max_length=400), AfterValidator(clean_text)]


class Chat(_Client):
    """A chat line from a seat."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_CHARS), AfterValidator(clean_text)]


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
    try:
        data = load_json(raw, MAX_MESSAGE_BYTES)
    except JsonError as err:
        raise ProtocolError(err.code, err.reason) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", _("a message must be a JSON object"))
    ref = data.get("ref")
    if not isinstance(ref, (str, int)) or isinstance(ref, bool) or (
            isinstance(ref, str) and (len(ref) > 64 or text_problem(ref) is not None)):
        ref = None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        shown = kind if isinstance(kind, str) else json.dumps(kind)
        raise ProtocolError("unknown_type", _("unknown message type {t!r}; the types are: {known}").format(
            t=shown[:64], known=", ".join(sorted(CLIENT_TYPES))), ref)
    try:
        return _client_adapter.validate_python(data)
    except ValidationError as err:
        raise ProtocolError("bad_message", _("{type}: {why}").format(
            type=kind, why=validation_reason(err, skip=1) or kind), ref) from None


def validation_reason(err: ValidationError, skip: int = 0) -> str:
    """The first error of ``err`` in words, ``field: message`` (``skip``: leading parts of the
    location left out, e.g. the union tag); never the refused value itself."""
    first = err.errors(include_input=False, include_url=False)[0]
    where = field_name(first["loc"][skip:])
    message = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def field_name(loc: Any) -> str:
    """A pydantic error location as a dotted field name (``seats.1.name``)."""
    return ".".join(str(part) for part in loc)


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


class PresenceMsg(BaseModel):
    """The seats with an open socket changed (the snapshot's ``table.seats[i].connected``)."""

    type: Literal["presence"] = "presence"
    connected: list[int]


class PongMsg(BaseModel):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"
    ref: Ref | None = None


def dump(message: BaseModel) -> str:
    """A server message as compact JSON text."""
    return message.model_dump_json(exclude_none=isinstance(message, ErrorMsg | PongMsg))
