"""The engine's bounded cache: least recently used dropped first, by count or weight."""

from __future__ import annotations

from inkcard.layout.base.lru import Lru


def test_a_lookup_keeps_an_entry_longest() -> None:
    cache: Lru[str, int] = Lru(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)
    assert cache.get("b") is None
    assert (cache.get("a"), cache.get("c"), len(cache)) == (1, 3, 2)


def test_a_weighted_budget_drops_until_it_fits() -> None:
    cache: Lru[str, bytes] = Lru(10, weight=len)
    cache.put("a", b"xxxx")
    cache.put("b", b"xxxx")
    cache.put("c", b"xxxx")
    assert cache.get("a") is None
    assert cache.weight() == 8
    cache.put("big", b"x" * 11)  # over the budget alone: nothing is kept
    assert len(cache) == 0


def test_clear_forgets_everything() -> None:
    cache: Lru[str, int] = Lru(4)
    cache.put("a", 1)
    cache.clear()
    assert cache.get("a") is None
    assert len(cache) == 0
