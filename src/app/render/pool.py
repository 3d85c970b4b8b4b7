"""Jobs of the service → answered by render worker processes: admission, waiting for an idle
worker under a deadline, the kill-and-replace policy, and a split request spread over two.

``size`` workers (kept by ``app.render.lifecycle``, forked by a forkserver that imported
the engine) each load the fonts, draw a card of every common block and typeset math, then say
ready. A job waits for an idle worker for at most its time left; a worker still rendering when
its request's time is up is killed and replaced, so a runaway render costs one process start,
never a stuck slot. At most ``size + queue`` jobs are admitted at once (503 ``overloaded``
above, answered at once) and one key at most ``per_key`` of them (429).
"""

from __future__ import annotations

import asyncio
import logging
from multiprocessing.context import BaseContext

import msgspec

from inkcard import layout
from inkcard.app.errors import Overloaded, RenderTimeout
from inkcard.app.metrics import Metrics
from inkcard.app.render.admission import Admission
from inkcard.app.render.lifecycle import LiveWorkers
from inkcard.app.render.messages import (
    CoverJob,
    Rendered,
    RenderJob,
    TypesetJob,
    WorkerConfig,
    WorkerJob,
)
from inkcard.app.render.process import Worker, forkserver_context
from inkcard.app.render.spread import HandOver, spreads
from inkcard.layout.text import Formula

log = logging.getLogger("inkcard.render_pool")


class ProcessRenderPool:
    """``size`` render processes, admission control and the kill-and-replace policy.

    ``renders`` counts the jobs the workers report having rendered (tests count renders by
    it); ``peak_rss_kb`` is each live worker's last reported peak resident set, by pid.
    ``metrics`` gets render times, queue depth, 503s and restarts (its own when not given).
    With ``spread``, a split request's cards are drawn by two workers when one is idle
    (``app.render.spread``).
    """

    def __init__(
        self,
        size: int,
        queue: int,
        config: WorkerConfig,
        per_key: int | None = None,
        context: BaseContext | None = None,
        metrics: Metrics | None = None,
        spread: bool = True,
    ):
        self.size = size
        self.spread = spread  # False: every request drawn by one worker (benchmarks compare)
        self.metrics = metrics or Metrics()
        self.config = config
        self.admission = Admission(size + queue, per_key)
        self.renders = 0
        self.busy = 0  # jobs a worker is rendering right now
        self._waiting = 0  # jobs waiting for an idle worker: they have it before any spread
        self.processes = LiveWorkers(size, config, context or forkserver_context(), self.metrics)

    # Life cycle: the processes'

    def start(self) -> None:
        """Start every worker in the background; call from the running event loop."""
        self.processes.start()

    @property
    def warm(self) -> int:
        """Workers started, warm and alive (busy or idle)."""
        return self.processes.warm

    @property
    def ready(self) -> bool:
        """Every worker is warm."""
        return self.warm >= self.size

    @property
    def killed(self) -> int:
        """Workers killed and replaced (out of time, dead, out of memory, abandoned)."""
        return self.processes.killed

    @property
    def peak_rss_kb(self) -> dict[int, int]:
        """Each live worker's last reported peak resident set (KiB), by pid."""
        return self.processes.peak_rss_kb

    def pids(self) -> list[int]:
        """Process ids of the live workers."""
        return self.processes.pids()

    async def close(self) -> None:
        """Stop every worker; renders in flight are abandoned (their requests get 504)."""
        await self.processes.close()

    # Jobs

    async def run(
        self, job: RenderJob | CoverJob, timeout: float, key: object = None
    ) -> layout.Rendered:
        """Render ``job`` in a worker within ``timeout`` seconds; its files and alt texts.

        Raises:
            RateLimited: ``key`` already has ``per_key`` renders in flight.
            Overloaded: Every worker is busy and the queue is full.
            RenderTimeout: No worker was free in time, or the render ran out of time (its
                worker is killed and replaced).
            ApiError: The render's own refusal (too many pages or pixels, engine failure).
        """
        rendered = await self._admitted(job, timeout, key)
        return layout.Rendered(rendered.files, rendered.alt_texts, rendered.qualities)

    async def typeset(
        self, job: TypesetJob, timeout: float, key: object = None
    ) -> list[Formula | None]:
        """An article's formulas typeset in a worker, in order (None: show the source);
        admitted, timed and killed like a render (the same errors as ``run``)."""
        rendered = await self._admitted(job, timeout, key)
        return rendered.formulas

    async def _admitted(self, job: WorkerJob, timeout: float, key: object) -> Rendered:
        self._admit(key)
        try:
            rendered = await self._run(job, timeout)
        finally:
            self.admission.give_back(key)
        self.renders += 1
        if rendered.error is not None:
            raise rendered.error
        return rendered

    def _admit(self, key: object) -> None:
        try:
            self.admission.take(key)
        except Overloaded:
            self.metrics.overloaded.labels("cards").inc()
            raise

    async def _run(self, job: WorkerJob, timeout: float) -> Rendered:
        idle = self.processes.idle
        assert idle is not None, "start() the pool first"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self._waiting += 1
        try:
            with self.metrics.queued("waiting"):
                async with asyncio.timeout_at(deadline):
                    worker = await idle.get()
        except TimeoutError:
            raise RenderTimeout("no render worker was free within the time limit") from None
        finally:
            self._waiting -= 1
        if not (self.spread and spreads(job)):
            return await self.serve(worker, job, deadline)
        assert isinstance(job, RenderJob)
        return await self._spread(worker, job, deadline)

    async def _spread(self, worker: Worker, job: RenderJob, deadline: float) -> Rendered:
        """``job`` sent to ``worker``, offered to share its work with an idle one."""
        hand_over = HandOver(self, job, deadline)
        shared = False
        # fit "auto" lays the post out at several type scales: a share laid out at one is no use
        if job.options.fit == "none" and layout.may_have_share(job.markdown):
            # One turn of the loop first: the requests that arrived with this one claim the
            # idle workers before it may (in a burst, each keeps to one worker).
            await asyncio.sleep(0)
            shared = hand_over.lay_out_share()
        offered = msgspec.structs.replace(job, may_share=True, shared=shared)
        try:
            first = await self.serve(worker, offered, deadline, hand_over)
        finally:
            hand_over.close()
            if hand_over.helped:
                self.metrics.cards_spread.inc()
        return await hand_over.joined(first)

    async def serve(
        self,
        worker: Worker,
        job: WorkerJob,
        deadline: float,
        hand_over: HandOver[Worker] | None = None,
    ) -> Rendered:
        """``job`` rendered by ``worker``, which goes back to the idle ones after (or is
        replaced, if it ran out of memory or failed)."""
        idle = self.processes.idle
        assert idle is not None
        self.busy += 1
        try:
            with self.metrics.queued("rendering"):
                rendered = await self.processes.call(worker, job, deadline, hand_over)
        finally:
            self.busy -= 1
        self.peak_rss_kb[rendered.pid] = rendered.peak_rss_kb
        if rendered.retiring:
            log.error("render worker %s ran out of memory; replaced", worker.process.pid)
            self.processes.replace(worker, "out_of_memory")
        else:
            idle.put_nowait(worker)
        return rendered

    def take_helper(self) -> Worker | None:
        """An idle worker to draw part of a request's cards, if nobody waits for one (so
        under load every request keeps to one worker, and throughput is what it was)."""
        idle = self.processes.idle
        assert idle is not None
        if self._waiting or idle.empty():
            return None
        return idle.get_nowait()

    def give_back(self, worker: Worker) -> None:
        """A worker taken by ``take_helper`` and not used."""
        assert self.processes.idle is not None
        self.processes.idle.put_nowait(worker)
