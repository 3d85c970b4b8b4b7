"""Article work (a callable and its arguments) → run in a bounded thread pool, under a deadline."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from inkcard.app.errors import Overloaded, RenderTimeout
from inkcard.app.metrics import Metrics
from inkcard.app.render.admission import Admission

T = TypeVar("T")


class ArticleThreads:
    """Threads for the article work (conversion, image fitting, cover cards): at most
    ``threads`` at once and ``queue`` waiting (503 above), ``per_key`` per key (429 above).

    Card renders run in ``app.render.pool``'s processes instead. A slot is freed when its call
    really ends, not when its request gives up. ``metrics`` counts the 503s.
    """

    def __init__(
        self, threads: int, queue: int, per_key: int | None = None, metrics: Metrics | None = None
    ):
        self._executor = ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="inkcard-render"
        )
        self._admission = Admission(threads + queue, per_key)
        self._overloaded = (metrics or Metrics()).overloaded.labels("articles")

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float, key: object = None) -> T:
        """Run ``fn(*args)`` in a pool thread and await it for at most ``timeout`` seconds.

        Raises:
            RateLimited: ``key`` already has ``per_key`` calls in flight.
            Overloaded: Every slot is taken.
            RenderTimeout: The call did not finish in time (its thread finishes on its own).
        """
        try:
            self._admission.take(key)
        except Overloaded:
            self._overloaded.inc()
            raise

        def free(_: object = None) -> None:
            self._admission.give_back(key)

        try:
            future = self._executor.submit(contextvars.copy_context().run, fn, *args)
        except BaseException:
            free()
            raise
        future.add_done_callback(free)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            raise RenderTimeout("rendering took longer than the time limit") from None

    def shutdown(self) -> None:
        """Stop accepting work; running calls finish in the background."""
        self._executor.shutdown(wait=False, cancel_futures=True)
