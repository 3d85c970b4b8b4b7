"""The service's one in-memory cache: kept for a time, bounded in size, oldest out."""

from __future__ import annotations

from inkcard.app.cache import BoundedCache


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_it_drops_the_oldest_entries_past_its_bound() -> None:
    cache: BoundedCache[str, int] = BoundedCache(60, 3, clock=Clock())
    for n, key in enumerate("abcd"):
        cache.put(key, n)
    assert len(cache) == 3
    assert [cache.get(k) for k in "abcd"] == [None, 1, 2, 3]


def test_a_size_function_bounds_the_sum_and_a_value_over_the_bound_is_not_kept() -> None:
    cache: BoundedCache[str, bytes] = BoundedCache(60, 10, size=len, clock=Clock())
    cache.put("a", b"x" * 4)
    cache.put("b", b"x" * 4)
    cache.put("c", b"x" * 4)  # 12 > 10: "a" goes
    assert [cache.get(k) is not None for k in "abc"] == [False, True, True]
    cache.put("big", b"x" * 11)
    assert cache.get("big") is None and len(cache) == 2
    cache.put("b", b"x" * 2)  # replacing counts the new size only
    cache.put("d", b"x" * 4)  # 2 + 4 + 4 = 10: nothing goes
    assert [cache.get(k) is not None for k in "bcd"] == [True, True, True]


def test_an_entry_expires_after_its_time() -> None:
    clock = Clock()
    cache: BoundedCache[str, int] = BoundedCache(5, 10, clock=clock)
    cache.put("a", 1)
    clock.now = 4.9
    assert cache.get("a") == 1
    clock.now = 5.0
    assert cache.get("a") is None and len(cache) == 0
