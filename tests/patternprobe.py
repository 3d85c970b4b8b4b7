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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

LENGTH = 8_000  # characters of a probe's input
GROWTH = 8  # the second length is LENGTH / GROWTH
RATIO = 24.0  # between GROWTH (linear) and GROWTH**2 (quadratic)
FLOOR = 0.004  # seconds at LENGTH below which a probe is not timed again
HARD_LIMIT = 4.0  # seconds one probe may take before its child is killed (no test input
# costs more than a few CPU seconds; a linear probe takes milliseconds)
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


Probe = tuple[str, tuple[str, str, str]]  # (mode, (prefix, unit, suffix))


def _text(item: Pattern, shape: tuple[str, str, str], length: int) -> str | bytes:
    from tests.patternshapes import Shape

    return _encoded(Shape(*shape).text(length), item.pattern)


def _serve(conn: Connection) -> None:
    """The child. A batch ``(item, probes, length, best_of, stop)`` is answered probe by
    probe without waiting for the parent (a round trip per probe costs more than most probes
    on a busy machine), up to the first that takes ``stop`` seconds or more; None ends it."""
    while (job := conn.recv()) is not None:
        item, probes, length, best_of, stop = job
        compiled = _compiled(item)
        for mode, shape in probes:
            seconds = _seconds(compiled, mode, _text(item, shape, length), best_of)
            conn.send(seconds)
            if seconds >= stop:
                break


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

    def seconds(
        self,
        item: Pattern,
        probes: Sequence[Probe],
        length: int,
        best_of: int,
        stop: float = float("inf"),
    ) -> Iterator[float | None]:
        """Each probe's time at ``length``, up to the first that takes ``stop`` seconds; None
        for one that ran past HARD_LIMIT, after which the child is killed."""
        self._conn.send((item, list(probes), length, best_of, stop))
        for _ in probes:
            if not self._conn.poll(HARD_LIMIT):
                self._restart()
                yield None
                return
            seconds = float(self._conn.recv())
            yield seconds
            if seconds >= stop:
                return

    def growth(self, item: Pattern, probe: Probe) -> str | None:
        """Why a probe slower than FLOOR is superlinear, or None: timed carefully at two
        lengths."""
        short = next(self.seconds(item, [probe], LENGTH // GROWTH, BEST_OF * 2))
        long = next(self.seconds(item, [probe], LENGTH, BEST_OF))
        if short is None or long is None:
            return _killed(LENGTH if long is None else LENGTH // GROWTH)
        ratio = long / max(short, 1e-9)
        if long < FLOOR or ratio <= RATIO:
            return None
        return (
            f"{short * 1000:.2f} ms at {LENGTH // GROWTH:,} characters, {long * 1000:.1f} ms "
            f"at {LENGTH:,}: {ratio:.0f}x for {GROWTH}x the input"
        )


def _killed(length: int) -> str:
    return f"still running after {HARD_LIMIT:.0f} s at {length:,} characters (killed)"


def superlinear(prober: Prober, item: Pattern, shapes: Iterable[Any]) -> list[Verdict]:
    """The first probe of ``item`` that grows faster than linearly, if any."""
    pending = [
        (mode, (shape.prefix, shape.unit, shape.suffix))
        for shape in shapes
        for mode in sorted(item.modes)
    ]
    while pending:
        times = list(prober.seconds(item, pending, LENGTH, 1, stop=FLOOR))
        probe, last = pending[len(times) - 1], times[-1]
        if last is None:
            return [Verdict(probe[0], *probe[1], _killed(LENGTH))]
        if last >= FLOOR and (why := prober.growth(item, probe)) is not None:
            return [Verdict(probe[0], *probe[1], why)]
        pending = pending[len(times) :]
    return []


def modes_of(methods: Sequence[str]) -> frozenset[str]:
    """The probe modes for the methods the code calls on a pattern (every mode if unknown)."""
    table = {"match": "match", "fullmatch": "fullmatch", "search": "search"}
    if not methods:
        return frozenset(MODES)
    return frozenset(table.get(method, "all") for method in methods)
