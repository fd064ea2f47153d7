"""Version hints between server processes (``shared/STACK-NOTES.md`` §1.5).

A hint says "table T changed to version V" (``kind="state"``) or "table T has chat line N"
(``kind="chat"``). It carries no state: a process that holds sockets of T re-reads the table
from the database, which stays the truth. :class:`MemoryBroker` connects the hubs of one process
(the default, and two-hub tests); :class:`RedisBroker` connects processes over Redis pub/sub.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
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

    async def _deliver(self, hint: Hint) -> None:
        if hint.origin == self.origin:
            return
        for handler in self.handlers:
            try:
                await handler(hint)
            except Exception:  # a bad handler must not stop the others or the reader
                log.exception("hint handler failed for %s", hint)


class MemoryBroker(Broker):
    """Hints within one process. :meth:`peer` gives a broker on the same bus (a second hub)."""

    def __init__(self, bus: list[MemoryBroker] | None = None):
        super().__init__()
        self.bus = bus if bus is not None else []
        self.bus.append(self)

    def peer(self) -> MemoryBroker:
        """Another broker on the same in-process bus."""
        return MemoryBroker(self.bus)

    async def publish(self, hint: Hint) -> None:
        stamped = Hint(hint.table, hint.version, hint.kind, hint.chat_id, self.origin)
        for broker in list(self.bus):
            if broker is not self:
                await broker._deliver(stamped)


class RedisBroker(Broker):
    """Hints over Redis pub/sub (``redis.asyncio``), on one channel.

    Args:
        url: ``redis://host:port/db``.
        channel: the pub/sub channel (one per deployment).
    """

    def __init__(self, url: str, channel: str = "kafenio:tables"):
        super().__init__()
        self.url = url
        self.channel = channel
        self._client = None
        self._pubsub = None
        self._reader: asyncio.Task | None = None

    async def start(self) -> None:
        import redis.asyncio as redis

        self._client = redis.from_url(self.url)
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel)
        self._reader = asyncio.create_task(self._read(), name="kafenio-redis-broker")

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
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._client is not None:
            await self._client.aclose()
