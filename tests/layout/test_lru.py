"""The engine's bounded cache: least recently used dropped first, by count or weight."""

from __future__ import annotations

from inkcard.layout.base.lru import Lru, PerObject


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


def test_per_object_makes_a_value_once_for_each_object_not_each_equal_value() -> None:
    kept: PerObject[list[int], int] = PerObject(2)
    made: list[int] = []

    def make(obj: list[int]) -> int:
        made.append(len(obj))
        return sum(obj)

    a, b = [1, 2], [1, 2]  # equal, unhashable, two objects
    assert (kept.get(a, make), kept.get(a, make), kept.get(b, make)) == (3, 3, 3)
    assert made == [2, 2]  # once for a, once for b


def test_per_object_holds_its_objects_so_an_id_is_never_another_objects() -> None:
    kept: PerObject[list[int], int] = PerObject(4)
    kept.get([5], sum)  # the only reference to [5] is the entry's
    # were the list freed, a new list could take its id and be answered 5
    assert [kept.get([n], sum) for n in range(6, 9)] == [6, 7, 8]
