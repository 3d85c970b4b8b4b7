"""Jobs → answered in the service's own process, one at a time: ``inkcard mcp``'s render pool.

A desktop agent's stdio server serves one caller, who waits for each answer: a forkserver and
a warm worker per core would cost more memory and start-up than all its renders. So this pool
answers the same jobs as ``ProcessRenderPool`` (the same admission, budgets, errors and
counts) by running the worker's own job function (``app.render.jobs.answer``) in a thread,
with the fonts the card service has already loaded. What it cannot do is kill a render: a
render past its time answers 504 as usual, but its thread runs on to the end and the next
render waits for it; and the address space limit of render processes does not apply (the
pixel budgets still do).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable

from inkcard import layout
from inkcard.app.errors import RenderFailed, RenderTimeout
from inkcard.app.metrics import Metrics
from inkcard.app.render.jobs import answer
from inkcard.app.render.messages import Rendered, WorkerConfig, WorkerJob
from inkcard.app.render.pool import ProcessRenderPool
from inkcard.layout.draw import smaller_pngs


class InlineRenderPool(ProcessRenderPool):
    """One render at a time in a thread of this process; ``fonts()`` gives the loaded fonts."""

    def __init__(
        self,
        fonts: Callable[[], layout.FontBook | None],
        queue: int,
        config: WorkerConfig,
        per_key: int | None = None,
        metrics: Metrics | None = None,
    ):
        super().__init__(1, queue, config, per_key, metrics=metrics)
        self._fonts = fonts
        if config.small_pngs:  # this process draws the cards: its PNGs as the setting says
            smaller_pngs()
        self._turn = threading.Lock()  # one render at a time: the engine's caches are per process
        self._started = False

    def start(self) -> None:
        self._started = True

    @property
    def warm(self) -> int:
        return 1 if self._started else 0

    @property
    def ready(self) -> bool:
        return self._started

    def pids(self) -> list[int]:
        return [os.getpid()]

    async def close(self) -> None:
        self._started = False

    async def _run(self, job: WorkerJob, timeout: float) -> Rendered:
        fonts = self._fonts()
        if not self._started or fonts is None:
            raise RenderFailed("the fonts are not loaded yet; try again in a moment")
        started = time.perf_counter()
        try:
            with self.metrics.queued("rendering"):
                async with asyncio.timeout(timeout):
                    rendered = await asyncio.to_thread(self._render, job, fonts)
        except TimeoutError:
            raise RenderTimeout("rendering took longer than the time limit") from None
        self.metrics.render_seconds.observe(time.perf_counter() - started)
        return rendered

    def _render(self, job: WorkerJob, fonts: layout.FontBook) -> Rendered:
        with self._turn:
            return answer(job, fonts, self.config, self.renders + 1)
