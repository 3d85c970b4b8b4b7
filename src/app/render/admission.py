"""A job's key → admitted or refused at once: at most so many jobs in flight, and per key.

The render pool admits its jobs with it, and the article threads theirs: too many at once is
503 ``overloaded`` and too many of one key 429, answered at once rather than queued.
"""

from __future__ import annotations

import threading

from inkcard.app.errors import Overloaded, RateLimited

RETRY_AFTER_SECONDS = 5
KEY_RETRY_AFTER_SECONDS = 2  # a typical render takes well under a second


class Admission:
    """At most ``slots`` jobs at once and ``per_key`` of them per key; refused, not queued."""

    def __init__(self, slots: int, per_key: int | None):
        self._free = slots
        self._per_key = per_key
        self._in_flight: dict[object, int] = {}
        self._lock = threading.Lock()

    def take(self, key: object) -> None:
        """Admit one job of ``key`` (None: not counted per key).

        Raises:
            RateLimited: ``key`` already has ``per_key`` jobs in flight.
            Overloaded: Every slot is taken.
        """
        with self._lock:
            count = self._in_flight.get(key, 0)
            if key is not None and self._per_key is not None and count >= self._per_key:
                raise RateLimited(
                    f"this API key already has {count} renders in flight, the most one key may"
                    f" have at once; wait for one to finish, then retry",
                    headers={"Retry-After": str(KEY_RETRY_AFTER_SECONDS)},
                )
            if self._free <= 0:
                raise Overloaded(
                    "the server is busy rendering other cards; retry shortly",
                    headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
                )
            self._free -= 1
            self._in_flight[key] = count + 1

    def give_back(self, key: object) -> None:
        with self._lock:
            self._free += 1
            count = self._in_flight.pop(key) - 1
            if count:
                self._in_flight[key] = count
