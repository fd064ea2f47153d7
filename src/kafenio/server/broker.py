"""Version hints between server processes (``shared/STACK-NOTES.md`` §1.5).

A hint says "table T changed to version V" (``kind="state"``), "table T has chat line N"
(``kind="chat"``) or "a seat of T connected or left" (``kind="presence"``). It carries no state:
a process that holds sockets of T re-reads the table from the database, which stays the truth.
:class:`MemoryBroker` connects the hubs of one process (the default, and two-hub tests);
:class:`RedisBroker` connects processes over Redis pub/sub.

A broker also keeps **presence**: which seats of a table have an open socket in any process
(:meth:`Broker.claim`, :meth:`Broker.release`, :meth:`Broker.present`), so that one seat has one
socket across all processes and every snapshot's ``connected`` is the deployment's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Hint:
    """A change of a table made by the process ``origin``."""

    table: str
    version: int
    kind: str = "state"
    chat_id: int | None = None
    origin: str = ""


Handler = Callable[[Hint], Awaitable[None]]


class Broker(ABC):
    """Publishes hints and delivers the other processes' hints to the subscribed handlers."""

    def __init__(self) -> None:
        self.origin = secrets.token_hex(6)
        self.handlers: list[Handler] = []

    def subscribe(self, handler: Handler) -> None:
        """Call ``handler`` for every hint published by another origin."""
        self.handlers.append(handler)

    async def start(self) -> None:  # noqa: B027 (optional hook: the memory broker needs none)
        """Connect (no-op for the memory broker)."""

    async def close(self) -> None:  # noqa: B027 (optional hook)
        """Disconnect."""

    @abstractmethod
    async def publish(self, hint: Hint) -> None:
        """Send ``hint`` (stamped with this broker's origin) to every other origin."""

    @abstractmethod
    async def claim(self, table: str, seat: int) -> bool:
        """Mark ``seat`` of ``table`` as connected to this process; False (nothing changed)
        when another process holds it."""

    @abstractmethod
    async def release(self, table: str, seat: int) -> None:
        """Undo this process's :meth:`claim` (nothing when another process holds the seat)."""

    @abstractmethod
    async def present(self, tables: list[str]) -> dict[str, set[int]]:
        """The seats of each of ``tables`` connected to any process."""

    async def _deliver(self, hint: Hint) -> None:
        if hint.origin == self.origin:
            return
        for handler in self.handlers:
            try:
                await handler(hint)
            except Exception:  # a bad handler must not stop the others or the reader
                log.exception("hint handler failed for %s", hint)


class MemoryBus:
    """The brokers of one process and the presence they share: table → seat → origin."""

    def __init__(self) -> None:
        self.brokers: list[MemoryBroker] = []
        self.presence: dict[str, dict[int, str]] = {}


class MemoryBroker(Broker):
    """Hints within one process. :meth:`peer` gives a broker on the same bus (a second hub)."""

    def __init__(self, bus: MemoryBus | None = None):
        super().__init__()
        self.bus = bus if bus is not None else MemoryBus()
        self.bus.brokers.append(self)

    def peer(self) -> MemoryBroker:
        """Another broker on the same in-process bus."""
        return MemoryBroker(self.bus)

    async def publish(self, hint: Hint) -> None:
        stamped = Hint(hint.table, hint.version, hint.kind, hint.chat_id, self.origin)
        for broker in list(self.bus.brokers):
            if broker is not self:
                await broker._deliver(stamped)

    async def claim(self, table: str, seat: int) -> bool:
        return self.bus.presence.setdefault(table, {}).setdefault(seat, self.origin) == self.origin

    async def release(self, table: str, seat: int) -> None:
        seats = self.bus.presence.get(table, {})
        if seats.get(seat) == self.origin:
            del seats[seat]
        if not seats:
            self.bus.presence.pop(table, None)

    async def present(self, tables: list[str]) -> dict[str, set[int]]:
        return {t: set(self.bus.presence.get(t, ())) for t in tables}


#: claim KEYS[1] field ARGV[1] for origin ARGV[2] at time ARGV[3] until ARGV[4] unless another
#: origin holds it unexpired; the hash lives ARGV[5] seconds past its last claim
_CLAIM = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held then
  local origin, expires = string.match(held, '^(.*) ([^ ]*)$')
  if origin ~= ARGV[2] and tonumber(expires) > tonumber(ARGV[3]) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""
#: delete KEYS[1] field ARGV[1] when origin ARGV[2] holds it
_RELEASE = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held and string.match(held, '^(.*) ') == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
"""


class RedisBroker(Broker):
    """Hints over Redis pub/sub (``redis.asyncio``), on one channel; presence in Redis hashes.

    Presence of table T is the hash ``{channel}:presence:T``: seat → ``"origin expires"``. A
    process renews its seats every ``presence_ttl / 3`` seconds; the seats of a process that
    died without releasing them count as gone ``presence_ttl`` seconds after its last renewal.

    Args:
        url: ``redis://host:port/db``.
        channel: the pub/sub channel (one per deployment), also the prefix of the presence keys.
        presence_ttl: seconds a claim holds without renewal.
    """

    def __init__(self, url: str, channel: str = "kafenio:tables", presence_ttl: float = 15.0):
        super().__init__()
        self.url = url
        self.channel = channel
        self.presence_ttl = presence_ttl
        self.held: set[tuple[str, int]] = set()
        self._client = None
        self._pubsub = None
        self._reader: asyncio.Task | None = None
        self._renewer: asyncio.Task | None = None

    def _key(self, table: str) -> str:
        return f"{self.channel}:presence:{table}"

    async def start(self) -> None:
        import redis.asyncio as redis

        self._client = redis.from_url(self.url)
        self._claim = self._client.register_script(_CLAIM)
        self._release = self._client.register_script(_RELEASE)
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel)
        self._reader = asyncio.create_task(self._read(), name="kafenio-redis-broker")
        self._renewer = asyncio.create_task(self._renew(), name="kafenio-redis-presence")

    async def claim(self, table: str, seat: int) -> bool:
        at = time.time()
        ok = await self._claim(keys=[self._key(table)], args=[
            seat, self.origin, at, at + self.presence_ttl, math.ceil(2 * self.presence_ttl)])
        if ok:
            self.held.add((table, seat))
        return bool(ok)

    async def release(self, table: str, seat: int) -> None:
        self.held.discard((table, seat))
        await self._release(keys=[self._key(table)], args=[seat, self.origin])

    async def present(self, tables: list[str]) -> dict[str, set[int]]:
        async with self._client.pipeline(transaction=False) as pipe:
            for table in tables:
                pipe.hgetall(self._key(table))
            answers = await pipe.execute()
        at = time.time()
        return {table: {int(seat) for seat, held in answer.items() if float(held.split()[-1]) > at}
                for table, answer in zip(tables, answers, strict=True)}

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.presence_ttl / 3)
            for table, seat in list(self.held):
                try:
                    if not await self.claim(table, seat):  # expired and taken by another process
                        self.held.discard((table, seat))
                except Exception:  # Redis away for a moment: the next round renews
                    log.warning("could not renew the presence of seat %s at table %s", seat, table)

    async def _read(self) -> None:
        async for message in self._pubsub.listen():
            try:
                data = json.loads(message["data"])
                hint = Hint(str(data["t"]), int(data["v"]), str(data.get("k", "state")),
                            data.get("c"), str(data["o"]))
            except (ValueError, KeyError, TypeError):
                log.warning("ignored a malformed hint on %s", self.channel)
                continue
            await self._deliver(hint)

    async def publish(self, hint: Hint) -> None:
        payload = {"t": hint.table, "v": hint.version, "k": hint.kind, "o": self.origin}
        if hint.chat_id is not None:
            payload["c"] = hint.chat_id
        await self._client.publish(self.channel, json.dumps(payload, separators=(",", ":")))

    async def close(self) -> None:
        for task in (self._reader, self._renewer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for table, seat in list(self.held):
            with contextlib.suppress(Exception):
                await self.release(table, seat)
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._client is not None:
            await self._client.aclose()
