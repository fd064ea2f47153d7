"""The computer players' worker processes (``docs/operations.md``, "Limits", ``--bot-workers``).

A computer player's search runs in one of ``workers`` processes of a
:class:`concurrent.futures.ProcessPoolExecutor`, never in the server's process: a search then
never holds the server's interpreter, and the workers run niced (:data:`WORKER_NICENESS`), so
the event loop that handles the people's moves gets the CPU first. The workers are forked, on
the first search, from a fork server that imported the players' modules once; they live until
the hub stops, or until the server's process is gone (killed, it could not stop them).

Each search sends the player (its settings and its own random generator) pickled, with the
deal as :meth:`kafenio.engine.game.State.serialize` gives it; the worker sends back the action
and the player as the search left it (its random generator moved on), so a player in a worker
plays exactly as it would in the server's process. A worker that dies (killed, out of memory)
breaks its pool: every search waiting on it is tried again on a new pool, up to
:data:`ATTEMPTS` times.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from kafenio.agents import Player
from kafenio.engine.game import Seat, State

log = logging.getLogger(__name__)

#: how much lower a worker's CPU priority is than the server's (``os.nice``)
WORKER_NICENESS = 10
#: how many pools one search is tried on when workers die under it
ATTEMPTS = 3
#: seconds between a worker's looks for the server's process
WATCH_INTERVAL = 1.0


def _start_worker(server: int) -> None:
    """A worker's first act: step back, so that the server's own process gets the CPU first,
    and watch the server's process ``server`` (a process id)."""
    os.nice(WORKER_NICENESS)
    threading.Thread(target=_end_with_server, args=(server,), name="kafenio-server-watch", daemon=True).start()


def _end_with_server(server: int) -> None:
    """In a worker: end the process once the server's process is gone. A server killed (``kill
    -9``) could not stop its workers, and a worker waiting for work never notices by itself."""
    while True:
        time.sleep(WATCH_INTERVAL)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os._exit(0)


def _think(payload: bytes) -> tuple[int, Player]:
    """In a worker: the action of the pickled ``(player, serialized deal, seat)``, and the
    player after its search."""
    player, text, seat = pickle.loads(payload)
    action = player.step(Seat(player.game.deserialize_state(text), seat))
    return action, player


class Thinkers:
    """The pool of worker processes the computer players think in.

    Args:
        workers: searches run at the same time (≥ 1); the others wait their turn.
    """

    def __init__(self, workers: int):
        self.workers = workers
        self.closed = False
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__, "kafenio.agents.levels"])
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker,
                                   initargs=(os.getpid(),))

    def step(self, player: Player, state: State, seat: int) -> Awaitable[tuple[int, Player]]:
        """``player``'s action for ``seat`` in ``state`` (on turn), to be found in a worker, and
        the player as its search left it (keep it for its next step). ``player`` and ``state``
        are copied when this is called, so they may change while the search runs.

        Raises (when awaited):
            BrokenProcessPool: the workers died under the search :data:`ATTEMPTS` times, or
                the pool is closed.
            Exception: whatever the player's ``step`` raised.
        """
        return self._search(pickle.dumps((player, state.serialize(), seat)))

    async def _search(self, payload: bytes) -> tuple[int, Player]:
        attempt = 1
        while True:
            if self.closed:
                raise BrokenProcessPool("the computer players' workers are stopped")
            pool = self._pool
            try:
                # submitted from a thread: a submit that starts a worker waits for the fork
                # server (seconds, the first time), and the event loop must not wait with it
                found = await asyncio.to_thread(pool.submit, _think, payload)
                return await asyncio.wrap_future(found)
            except BrokenProcessPool:
                if self.closed or attempt == ATTEMPTS:
                    raise
                attempt += 1
                if pool is self._pool:  # the first search to hear of it starts the new pool
                    log.warning("a computer players' worker process died; starting new ones")
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = self._new_pool()
            except RuntimeError:  # (BrokenProcessPool is one too) a submit after close()
                if not self.closed:
                    raise

    def close(self) -> None:
        """Stop the workers now: a search under way ends with :class:`BrokenProcessPool`, a
        waiting one is cancelled."""
        self.closed = True
        workers = list((self._pool._processes or {}).values())  # as Python 3.14's terminate_workers()
        self._pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
