"""A pattern and its probe shapes → the probes that grow faster than their input, if any.

Each probe runs in a child process, since CPython's ``re`` holds the GIL for a whole match and
cannot be interrupted: a probe that passes ``HARD_LIMIT`` has the child killed (a blow-up) and
a fresh one started. A probe is first timed once at ``LENGTH`` characters; only one slower
than ``FLOOR`` is timed again carefully (the best of several runs) at ``LENGTH`` and at
``LENGTH / GROWTH``, and counts as superlinear when the time grew more than ``RATIO`` times:
a linear pattern grows ``GROWTH`` times, a quadratic one ``GROWTH**2``. The floor keeps timer
noise on a loaded machine from ever failing a fast pattern; the ratio, taken on best-of runs,
keeps a slow but linear one (Unicode grapheme clusters) from failing. Times are the child's
CPU time, not the wall clock: on a busy machine a long probe is often preempted, a short one
seldom, and wall times would make a linear pattern look superlinear.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

LENGTH = 8_000  # characters of a probe's input
GROWTH = 8  # the second length is LENGTH / GROWTH
RATIO = 24.0  # between GROWTH (linear) and GROWTH**2 (quadratic)
FLOOR = 0.004  # seconds at LENGTH below which a probe is not timed again
HARD_LIMIT = 8.0  # seconds one probe may take before its child is killed
BEST_OF = 5
BUDGET = 2.0  # seconds of repeated timings a slow probe is given (a slow probe varies little)
MODES = ("match", "search", "fullmatch", "all")  # "all": finditer to the end (sub, findall)


@dataclass(frozen=True, slots=True)
class Pattern:
    engine: str  # "re" or "regex"
    pattern: str | bytes
    flags: int
    modes: frozenset[str]


@dataclass(frozen=True, slots=True)
class Verdict:
    """A probe that grew too fast: which input, in which mode, and the times measured."""

    mode: str
    prefix: str
    unit: str
    suffix: str
    why: str

    def __str__(self) -> str:
        shape = f"{self.prefix!r} + {self.unit!r} * n + {self.suffix!r}"
        return f"{self.mode}({shape}): {self.why}"


def _compiled(item: Pattern) -> Any:
    if item.engine == "regex":
        import regex

        return regex.compile(item.pattern, item.flags)
    import re

    return re.compile(item.pattern, item.flags)


def _run(compiled: Any, mode: str, text: Any) -> None:
    if mode == "all":
        for _ in compiled.finditer(text):
            pass
    else:
        getattr(compiled, mode)(text)


def _seconds(compiled: Any, mode: str, text: Any, best_of: int) -> float:
    """The best of ``best_of`` timings, each of enough calls to last a millisecond."""
    start = time.thread_time()
    _run(compiled, mode, text)
    best = once = time.thread_time() - start
    calls = max(1, int(0.001 / max(once, 1e-7)))
    for _ in range(best_of - 1 if once < BUDGET / best_of else 0):
        start = time.thread_time()
        for _ in range(calls):
            _run(compiled, mode, text)
        best = min(best, (time.thread_time() - start) / calls)
    return best


def _encoded(text: str, pattern: str | bytes) -> str | bytes:
    return text.encode("latin-1") if isinstance(pattern, bytes) else text


def _measure(
    item: Pattern, mode: str, shape: tuple[str, str, str], length: int, best_of: int
) -> float:
    """Seconds ``mode`` takes on the shape filled to ``length`` (the best of ``best_of``)."""
    from tests.patternshapes import Shape

    text = _encoded(Shape(*shape).text(length), item.pattern)
    return _seconds(_compiled(item), mode, text, best_of)


def _serve(conn: Connection) -> None:
    """The child: measures each job it is sent until it gets None."""
    while (job := conn.recv()) is not None:
        conn.send(_measure(*job))


class Prober:
    """The child process and its pipe; restarted after a kill."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._start()

    def _start(self) -> None:
        self._conn, child = self._context.Pipe()
        self._child = self._context.Process(target=_serve, args=(child,), daemon=True)
        self._child.start()
        child.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._conn.send(None)
        self._child.join(5)
        if self._child.is_alive():
            self._child.kill()
            self._child.join()

    def _restart(self) -> None:
        self._child.kill()
        self._child.join()
        self._conn.close()
        self._start()

    def _seconds(self, job: tuple[Any, ...]) -> float | None:
        """The child's answer to one job, or None when it ran past HARD_LIMIT (killed)."""
        self._conn.send(job)
        if self._conn.poll(HARD_LIMIT):
            return float(self._conn.recv())
        self._restart()
        return None

    def verdict(self, item: Pattern, mode: str, shape: tuple[str, str, str]) -> str | None:
        """Why the probe is superlinear, or None."""
        killed = f"still running after {HARD_LIMIT:.0f} s at {{:,}} characters (killed)"
        first = self._seconds((item, mode, shape, LENGTH, 1))
        if first is None:
            return killed.format(LENGTH)
        if first < FLOOR:
            return None
        short = self._seconds((item, mode, shape, LENGTH // GROWTH, BEST_OF * 2))
        long = self._seconds((item, mode, shape, LENGTH, BEST_OF))
        if short is None or long is None:
            return killed.format(LENGTH if long is None else LENGTH // GROWTH)
        if long < FLOOR:
            return None
        ratio = long / max(short, 1e-9)
        if ratio <= RATIO:
            return None
        return (
            f"{short * 1000:.2f} ms at {LENGTH // GROWTH:,} characters, {long * 1000:.1f} ms "
            f"at {LENGTH:,}: {ratio:.0f}x for {GROWTH}x the input"
        )


def superlinear(
    prober: Prober, item: Pattern, shapes: Iterable[Any], first_only: bool = True
) -> list[Verdict]:
    """The probes of ``item`` that grow faster than linearly (the first one, by default)."""
    found: list[Verdict] = []
    for shape in shapes:
        for mode in sorted(item.modes):
            why = prober.verdict(item, mode, (shape.prefix, shape.unit, shape.suffix))
            if why is None:
                continue
            found.append(Verdict(mode, shape.prefix, shape.unit, shape.suffix, why))
            if first_only:
                return found
    return found


def modes_of(methods: Sequence[str]) -> frozenset[str]:
    """The probe modes for the methods the code calls on a pattern (every mode if unknown)."""
    table = {"match": "match", "fullmatch": "fullmatch", "search": "search"}
    if not methods:
        return frozenset(MODES)
    return frozenset(table.get(method, "all") for method in methods)
