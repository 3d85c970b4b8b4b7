"""Keys and values, a budget → a thread-safe cache that drops the least recently used first.

The engine keeps a few process-wide caches (laid-out static layers, their recordings and
rasters); each is one of these. The budget counts entries, or with `weight` what each
value costs (bytes of pixels, say).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _one(_: object) -> int:
    return 1


class Lru(Generic[K, V]):
    """At most `budget` worth of values (`weight` each, 1 by default); a lookup makes an
    entry the most recently used, an insert over budget drops the least recently used."""

    def __init__(self, budget: int, weight: Callable[[V], int] = _one) -> None:
        self.budget = budget
        self._weight = weight
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            while self._entries and self._total() > self.budget:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def weight(self) -> int:
        """What the kept values cost together."""
        with self._lock:
            return self._total()

    def _total(self) -> int:
        if self._weight is _one:
            return len(self._entries)
        return sum(map(self._weight, self._entries.values()))


T = TypeVar("T")


class PerObject(Generic[T, V]):
    """A value worked out once per object, told apart by identity (for objects that cannot
    be hashed or cost more to hash than to keep: a resolved theme), for at most `budget`
    objects, the least recently used dropped first. Each entry holds its object, so that
    object's id cannot be reused by another while the entry is kept."""

    def __init__(self, budget: int) -> None:
        self._kept: Lru[int, tuple[T, V]] = Lru(budget)

    def get(self, obj: T, make: Callable[[T], V]) -> V:
        """`make(obj)`, made on the first call for `obj` and kept."""
        kept = self._kept.get(id(obj))
        if kept is not None and kept[0] is obj:
            return kept[1]
        value = make(obj)
        self._kept.put(id(obj), (obj, value))
        return value

    def clear(self) -> None:
        self._kept.clear()
