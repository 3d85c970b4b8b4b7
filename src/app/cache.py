"""Values by key → kept for a time, within a size bound: the service's one in-memory cache.

``BoundedCache`` keeps each value for ``ttl`` seconds and at most ``max_size`` in all, as
measured by ``size`` (one per value by default, or its bytes); past the bound the oldest
entries go first. A value bigger than the whole bound is not kept. Not thread-safe: its
users call it from the event loop.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


def _one(_: object) -> int:
    return 1


class BoundedCache(Generic[K, V]):
    """Values for ``ttl`` seconds, at most ``max_size`` (summed ``size``) in all, oldest out."""

    def __init__(
        self,
        ttl: float,
        max_size: int,
        *,
        size: Callable[[V], int] = _one,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._ttl = ttl
        self._max_size = max_size
        self._size = size
        self._clock = clock
        self._entries: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._total = 0

    def get(self, key: K) -> V | None:
        """The value kept for ``key``, or None when there is none or it has expired."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry[0] <= self._clock():
            self._drop(key)
            return None
        return entry[1]

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` (replacing any), then drop the oldest past the bound."""
        if self._size(value) > self._max_size:
            return
        if key in self._entries:
            self._drop(key)
        self._entries[key] = (self._clock() + self._ttl, value)
        self._total += self._size(value)
        while self._total > self._max_size:
            self._drop(next(iter(self._entries)))

    def _drop(self, key: K) -> None:
        _, value = self._entries.pop(key)
        self._total -= self._size(value)

    def __len__(self) -> int:
        return len(self._entries)
