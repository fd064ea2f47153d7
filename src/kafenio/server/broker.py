"""Version hints between server processes (``shared/STACK-NOTES.md`` §1.5).

A hint says "table T changed to version V" (``kind="state"``), "table T has chat line N"
(``kind="chat"``) or "a seat of T connected or left" (``kind="presence"``). It carries no state:
a process that holds sockets of T re-reads the table from the database, which stays the truth.
:class:`MemoryBroker` connects the hubs of one process (the default, and two-hub tests);
:class:`RedisBroker` connects processes over Redis pub/sub.

A broker also keeps **presence**: which seats of a table have an open socket in any process
(:meth:`Broker.claim`, :meth:`Broker.release`, :meth:`Broker.present`), so that one seat has one
socket across all processes and every snapshot's ``connected`` is the deployment's.

A broker is never a single point of failure: while Redis is away no call raises or
waits long (a hint is not sent, a claim is this process's alone, presence is this process's), and
:attr:`Broker.generation` tells the hub when hints may have been lost (Redis went away or came
back), so that it re-reads its tables' versions from the database (``docs/operations.md``).
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

from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: what a Redis call raises when Redis is away, slow or refuses (connection, timeout, protocol)
REDIS_ERRORS = (RedisError, OSError, TimeoutError)


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
        #: False while hints cannot be sent or heard (Redis away)
        self.healthy = True
        #: counts the times hints started to flow: a change means hints may have been lost since
        self.generation = 0

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

    Every Redis call waits ``timeout`` seconds at most and is not retried. While Redis is away
    (:attr:`healthy` False) hints are neither sent nor heard, a claim is granted (this process
    cannot ask the others) and held, presence is this process's own; the reader reconnects
    every second or so, and when it has subscribed again it re-claims the held seats and moves
    :attr:`generation` on (the hub then re-reads its tables).

    Args:
        url: ``redis://host:port/db``.
        channel: the pub/sub channel (one per deployment), also the prefix of the presence keys.
        presence_ttl: seconds a claim holds without renewal.
        timeout: seconds any one Redis call may take.
    """

    def __init__(self, url: str, channel: str = "kafenio:tables", presence_ttl: float = 15.0,
                 timeout: float = 2.0):
        super().__init__()
        self.url = url
        self.channel = channel
        self.presence_ttl = presence_ttl
        self.timeout = timeout
        self.held: set[tuple[str, int]] = set()
        self.healthy = False
        self._client = None
        self._reader: asyncio.Task | None = None
        self._renewer: asyncio.Task | None = None
        #: set by close(): the reader and the renewer stop at their next look (see close())
        self._stop = asyncio.Event()

    def _key(self, table: str) -> str:
        return f"{self.channel}:presence:{table}"

    async def start(self) -> None:
        """Make the client and start the reader (which subscribes, and keeps subscribing
        again whenever Redis goes away) and the presence renewer; wait until the reader listens,
        ``timeout`` seconds at most: Redis may be away, the server starts all the same."""
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self._client = redis.from_url(self.url, socket_timeout=self.timeout,
                                      socket_connect_timeout=self.timeout, retry=Retry(NoBackoff(), 0))
        self._claim = self._client.register_script(_CLAIM)
        self._release = self._client.register_script(_RELEASE)
        self._listening = asyncio.Event()
        #: held while a hint's handlers run: close() never cancels the reader in the middle of one
        self._delivering = asyncio.Lock()
        self._reader = asyncio.create_task(self._read(), name="kafenio-redis-broker")
        self._renewer = asyncio.create_task(self._renew(), name="kafenio-redis-presence")
        with contextlib.suppress(TimeoutError):  # hints published from now on are heard
            await asyncio.wait_for(self._listening.wait(), self.timeout)

    def _away(self, doing: str, err: BaseException) -> None:
        """Log a Redis call that failed (once per absence when the reader has noticed it)."""
        if self.healthy:
            log.warning("Redis did not answer (%s: %s)", doing, err)

    async def claim(self, table: str, seat: int) -> bool:
        at = time.time()
        try:
            ok = await self._claim(keys=[self._key(table)], args=[
                seat, self.origin, at, at + self.presence_ttl, math.ceil(2 * self.presence_ttl)])
        except REDIS_ERRORS as err:  # nobody to ask: this process's claim, renewed when Redis is back
            self._away("claim", err)
            ok = True
        if ok:
            self.held.add((table, seat))
        return bool(ok)

    async def release(self, table: str, seat: int) -> None:
        self.held.discard((table, seat))
        try:
            await self._release(keys=[self._key(table)], args=[seat, self.origin])
        except REDIS_ERRORS as err:  # the claim runs out by itself
            self._away("release", err)

    async def present(self, tables: list[str]) -> dict[str, set[int]]:
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for table in tables:
                    pipe.hgetall(self._key(table))
                answers = await pipe.execute()
        except REDIS_ERRORS as err:  # the hub adds its own sockets' seats
            self._away("presence", err)
            return {table: set() for table in tables}
        at = time.time()
        return {table: {int(seat) for seat, held in answer.items() if float(held.split()[-1]) > at}
                for table, answer in zip(tables, answers, strict=True)}

    async def _renew(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.presence_ttl / 3)
            if not self._stop.is_set():
                await self._claim_held()

    async def _claim_held(self) -> None:
        for table, seat in list(self.held):
            if not await self.claim(table, seat):  # expired and taken by another process
                self.held.discard((table, seat))

    async def _read(self) -> None:
        """Subscribe and deliver hints; whenever the connection fails, subscribe again after a
        pause (0.1 s doubling to 1 s). A silent connection is pinged every ``timeout`` seconds
        and given up after three silent pings."""
        pause = 0.1
        while not self._stop.is_set():
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                await self._claim_held()
                self.healthy, pause = True, 0.1
                self.generation += 1
                self._listening.set()
                log.info("listening for hints on %s", self.channel)
                heard = time.monotonic()
                while not self._stop.is_set():
                    message = await pubsub.get_message(timeout=self.timeout)
                    if message is not None:
                        heard = time.monotonic()
                        if message["type"] == "message":
                            async with self._delivering:
                                await self._deliver_raw(message["data"])
                    elif time.monotonic() - heard > 3 * self.timeout:
                        raise TimeoutError("no answer to three pings")
                    else:
                        await pubsub.ping()
            except REDIS_ERRORS as err:
                if self.healthy or pause == 0.1:  # once per absence
                    log.warning("Redis is away (%s); this process serves its own sockets until it is back", err)
                self.healthy = False
                self._listening.clear()
            finally:
                with contextlib.suppress(*REDIS_ERRORS):
                    await pubsub.aclose()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), pause)
            pause = min(1.0, 2 * pause)

    async def _deliver_raw(self, data: bytes) -> None:
        try:
            parsed = json.loads(data)
            hint = Hint(str(parsed["t"]), int(parsed["v"]), str(parsed.get("k", "state")),
                        parsed.get("c"), str(parsed["o"]))
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed hint on %s", self.channel)
            return
        await self._deliver(hint)

    async def publish(self, hint: Hint) -> None:
        payload = {"t": hint.table, "v": hint.version, "k": hint.kind, "o": self.origin}
        if hint.chat_id is not None:
            payload["c"] = hint.chat_id
        try:
            await self._client.publish(self.channel, json.dumps(payload, separators=(",", ":")))
        except REDIS_ERRORS as err:  # the others re-read the table when Redis is back
            self._away("publish", err)

    async def close(self) -> None:
        """Stop the reader and the renewer, release the held seats, close the client.

        The tasks are told to stop, then cancelled, and waited for ``timeout`` seconds and a
        bit at most. Cancelling alone is not enough: redis-py turns a cancellation that arrives
        during a command into a ``ConnectionError`` (the cancellation is lost), which a loop that
        outlives Redis's absences catches, so a task cancelled only could run forever, and this
        wait with it (the broker test that hung). The reader is cancelled only between two hints,
        never while the hub's handlers run a database call."""
        self._stop.set()
        tasks = {t for t in (self._reader, self._renewer) if t is not None}
        if self._reader is not None:
            async with self._delivering:
                self._reader.cancel()
        for task in tasks:
            task.cancel()
        if tasks:
            _done, running = await asyncio.wait(tasks, timeout=self.timeout + 1)
            for task in running:
                log.warning("%s did not stop", task.get_name())
        for table, seat in list(self.held):
            await self.release(table, seat)
        if self._client is not None:
            with contextlib.suppress(*REDIS_ERRORS):
                await self._client.aclose()
