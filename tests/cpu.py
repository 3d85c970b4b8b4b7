"""A piece of work → the calls it made of a function, or its CPU seconds beside a reference:
what a test that guards against a blow-up measures, never the machine's speed.

Speed targets live in benchmarks/; a test must not fail because its machine is slow or
loaded. A guard against quadratic or exponential work, or work done before a refusal, so
counts the steps where it can (`counted`: the rows laid out, the formulas typeset), and
where it must time, compares this thread's CPU seconds (`cpu_of`) with a reference workload
timed beside it (`at_most`; wall seconds where the work is in another process): a loaded
machine slows both alike.
"""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest


@dataclass
class Calls:
    """How many times a function was called, and the sum of what `weigh` gave each call."""

    count: int = 0
    weight: int = 0


def counted(
    monkeypatch: pytest.MonkeyPatch,
    owner: object,
    name: str,
    weigh: Callable[..., int] | None = None,
) -> Calls:
    """Counts the calls of `owner.name` (a module's function, a class's method) until the
    test ends; `weigh(*args, **kwargs)` adds its number for each call (characters, rows)."""
    calls = Calls()
    original = getattr(owner, name)

    @functools.wraps(original)
    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.count += 1
        if weigh is not None:
            calls.weight += weigh(*args, **kwargs)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)  # raises if the name is gone: never counts 0
    return calls


def cpu_of(work: Callable[[], object], best_of: int = 1) -> float:
    """The CPU seconds `work` takes in this thread (not a server thread left by another
    test), after a full garbage collection (not one over the whole suite's heap: late in a
    full run a refusal that takes 0.06 s alone measured 0.52 s); the least of `best_of`."""
    least = float("inf")
    for _ in range(best_of):
        gc.collect()
        start = time.thread_time()
        work()
        least = min(least, time.thread_time() - start)
    return least


def at_most(spent: float, reference: float, times: float, slack: float, what: str = "") -> None:
    """Asserts that `spent` seconds are less than `times` the `reference` seconds timed
    beside them, plus `slack` seconds (the timer's and the collector's noise on short work)."""
    bound = times * reference + slack
    assert spent < bound, (
        f"{what or 'the work'} took {spent:.3f} s, more than {times} x "
        f"{reference:.3f} s (the reference) + {slack} s"
    )
