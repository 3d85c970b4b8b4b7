"""An API key and a host → a turn to use one of the process's shared fetch connections.

Every fetch of a process goes through one pool of ``POOL_CONNECTIONS``. A fetch gets a turn
before it may use a connection: at most ``FETCHES_PER_REQUEST`` of one request and
``FETCHES_PER_KEY`` of one API key (across its requests) at once, so one key's slow images
keep a quarter of the pool busy at most and another key's image starts at once. The
download deadline starts with the turn: waiting is never reported as a slow download.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass

log = logging.getLogger("inkcard.fetch")

POOL_CONNECTIONS = 16  # one per fetch in flight, shared by every request of the process
FETCHES_PER_KEY = 4  # in flight for one API key across its requests: a quarter of the pool
FETCHES_PER_REQUEST = 4  # in flight for one request
SLOW_TURN_SECONDS = 1.0  # a wait for a connection longer than this is logged


@dataclass(slots=True)
class _KeyShare:
    gate: asyncio.Semaphore
    users: int = 0  # fetches of the key holding or waiting for a turn


class Turns:
    """Who may use a connection now: at most ``per_key`` fetches of one key, ``total`` in all.

    A fetch first waits behind its own key's other fetches, then in one first-come queue for
    the pool; so that queue never holds more than ``per_key`` fetches of any key, however
    many requests the key sends. ``total`` is the pool's size: no fetch ever waits inside
    the pool, where the wait would count against its download.
    """

    def __init__(self, total: int, per_key: int):
        if not 0 < per_key < total:
            raise ValueError("a key's share must be smaller than the pool")
        self.total = total
        self.per_key = per_key
        self._pool = asyncio.Semaphore(total)
        self._keys: dict[Hashable, _KeyShare] = {}

    @asynccontextmanager
    async def turn(self, key: Hashable, host: str) -> AsyncIterator[None]:
        share = self._keys.get(key)
        if share is None:
            share = self._keys[key] = _KeyShare(asyncio.Semaphore(self.per_key))
        share.users += 1
        try:
            async with share.gate:
                loop = asyncio.get_running_loop()
                asked = loop.time()
                async with self._pool:
                    waited = loop.time() - asked
                    if waited > SLOW_TURN_SECONDS:
                        log.info(
                            "image fetch from %s waited %.1f s for one of the %d connections",
                            host, waited, self.total,
                        )  # fmt: skip
                    yield
        finally:
            share.users -= 1
            if not share.users:
                del self._keys[key]
