"""Concurrent calls with one key → one run whose result (or error) each of them gets.

The card service renders a set once however many identical requests arrive together, and the
theme previews render each preview once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class SingleFlight(Generic[T]):
    """Concurrent calls with one key share one run: the first starts it, the rest await it.

    The run is a task of its own, so a caller that gives up (a closed connection) does not
    cancel it for the others; every caller gets its result or its error.
    """

    def __init__(self) -> None:
        self._running: dict[str, asyncio.Task[T]] = {}

    async def run(self, key: str, start: Callable[[], Coroutine[Any, Any, T]]) -> T:
        task = self._running.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(start())
            self._running[key] = task
            task.add_done_callback(lambda done: self._finished(key, done))
        return await asyncio.shield(task)

    def _finished(self, key: str, task: asyncio.Task[T]) -> None:
        if self._running.get(key) is task:
            del self._running[key]
        if not task.cancelled():
            task.exception()  # retrieved: a run whose callers all left logs no warning
