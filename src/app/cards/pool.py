"""Card renders in worker processes: a small supervisor over ``app.render_worker`` processes.

``size`` workers (forked by a forkserver that has already imported the engine) each load the
fonts, draw a card of every common block and typeset math, then say ready. A job waits for
an idle worker for at most its time left; a worker still rendering when its request's time is
up is killed and replaced, so a runaway render costs one process start, never a stuck slot. At
most ``size + queue`` jobs are admitted at once (503 ``overloaded`` above, answered at once)
and one key at most ``per_key`` of them (429).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import threading
import time
from collections.abc import Callable, Coroutine
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

import msgspec

import layout
from app.cards.spread import HandOver, spreads
from app.cards.worker import (
    ENGINE_FAILED,
    CoverJob,
    Offer,
    Ready,
    Rendered,
    RenderJob,
    Share,
    TypesetJob,
    WantShare,
    WorkerConfig,
    WorkerJob,
    serve,
)
from app.errors import Overloaded, RateLimited, RenderFailed, RenderTimeout
from app.metrics import Metrics

log = logging.getLogger("inkcard.render_pool")

T = TypeVar("T")
RETRY_AFTER_SECONDS = 5
KEY_RETRY_AFTER_SECONDS = 2  # a typical render takes well under a second
START_SECONDS = 60.0  # a worker that is not warm by then is killed and started again
RESTART_PAUSE = 1.0  # between failed starts, so a broken font folder does not spin


def forkserver_context() -> BaseContext:
    """Workers are forked from a single-threaded server that imported the engine once: as fast
    as ``fork`` after the first, without copying the service's threads, locks or sockets."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["app.cards.worker"])
    return context


class Admission:
    """At most ``slots`` jobs at once and ``per_key`` of them per key; refused, not queued."""

    def __init__(self, slots: int, per_key: int | None):
        self._free = slots
        self._per_key = per_key
        self._in_flight: dict[object, int] = {}
        self._lock = threading.Lock()

    def take(self, key: object) -> None:
        """Admit one job of ``key`` (None: not counted per key).

        Raises:
            RateLimited: ``key`` already has ``per_key`` jobs in flight.
            Overloaded: Every slot is taken.
        """
        with self._lock:
            count = self._in_flight.get(key, 0)
            if key is not None and self._per_key is not None and count >= self._per_key:
                raise RateLimited(
                    f"this API key already has {count} renders in flight, the most one key may"
                    f" have at once; wait for one to finish, then retry",
                    headers={"Retry-After": str(KEY_RETRY_AFTER_SECONDS)},
                )
            if self._free <= 0:
                raise Overloaded(
                    "the server is busy rendering other cards; retry shortly",
                    headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
                )
            self._free -= 1
            self._in_flight[key] = count + 1

    def give_back(self, key: object) -> None:
        with self._lock:
            self._free += 1
            count = self._in_flight.pop(key) - 1
            if count:
                self._in_flight[key] = count


class Worker:
    """One worker process and the parent's end of its pipe (blocking calls: run in a thread)."""

    def __init__(self, context: BaseContext, config: WorkerConfig):
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]  # contexts have Process
            target=serve, args=(child, config), name="inkcard-render", daemon=True
        )
        self.process.start()
        child.close()  # so the parent sees EOF when the worker dies
        self.ready: Ready | None = None
        self._kill_lock = threading.Lock()
        self._killed = False

    def wait_ready(self, seconds: float) -> Ready:
        """Block until the worker is warm.

        Raises:
            TimeoutError: Not warm within ``seconds``.
            EOFError: The worker died while starting.
        """
        if not self.conn.poll(seconds):
            raise TimeoutError("the render worker did not start in time")
        ready = self.conn.recv()
        assert isinstance(ready, Ready), ready
        self.ready = ready
        return ready

    def call(self, job: WorkerJob, hand_over: HandOver[Worker] | None = None) -> Rendered:
        """Send ``job`` and block until its answer (EOFError or OSError if the worker dies);
        a render's offer of its cards is answered by ``hand_over`` (all kept without one)."""
        self.conn.send(job)
        while True:
            answer = self.conn.recv()
            if isinstance(answer, Offer):
                self.conn.send(answer.cards if hand_over is None else hand_over.offer(answer))
            elif isinstance(answer, WantShare):
                self.conn.send(b"" if hand_over is None else hand_over.share_parts())
            elif isinstance(answer, Share):
                if hand_over is not None:
                    hand_over.share(answer)
            else:
                assert isinstance(answer, Rendered), answer
                return answer

    def kill(self) -> None:
        """End the process now and reap it; its answer, if any, is dropped. Safe to call
        again and from several threads (a replacement and the shutdown may race)."""
        with self._kill_lock:
            if self._killed:
                return
            self._killed = True
            self.process.kill()
            self.process.join()
            self.conn.close()

    def stop(self, seconds: float = 1.0) -> None:
        """Ask the worker to finish, then kill it if it does not within ``seconds``."""
        with self._kill_lock:
            if self._killed:
                return
            with contextlib.suppress(OSError):  # already gone
                self.conn.send(None)
            self.process.join(seconds)
        self.kill()


class ProcessRenderPool:
    """``size`` render processes, admission control and the kill-and-replace policy.

    ``renders`` counts the jobs the workers report having rendered (tests count renders by
    it); ``peak_rss_kb`` is each live worker's last reported peak resident set, by pid.
    ``metrics`` gets render times, queue depth, 503s and restarts (its own when not given).
    With ``spread``, a split request's cards are drawn by two workers when one is idle
    (``app.cards.spread``).
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
        self.killed = 0
        self.busy = 0  # jobs a worker is rendering right now
        self._waiting = 0  # jobs waiting for an idle worker: they have it before any spread
        self.peak_rss_kb: dict[int, int] = {}
        self._context = context or forkserver_context()
        self._idle: asyncio.Queue[Worker] | None = None
        self._workers: set[Worker] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._lock = threading.Lock()  # _workers and _closed: also touched by starter threads

    # Life cycle

    def start(self) -> None:
        """Start every worker in the background; call from the running event loop."""
        self._idle = asyncio.Queue()
        for _ in range(self.size):
            self._spawn_later(0.0)

    @property
    def warm(self) -> int:
        """Workers started, warm and alive (busy or idle)."""
        return sum(1 for w in self._workers if w.ready is not None and w.process.is_alive())

    @property
    def ready(self) -> bool:
        """Every worker is warm."""
        return self.warm >= self.size

    def pids(self) -> list[int]:
        """Process ids of the live workers."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def close(self) -> None:
        """Stop every worker; renders in flight are abandoned (their requests get 504)."""
        with self._lock:
            self._closed = True
            workers, self._workers = list(self._workers), set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*(asyncio.to_thread(w.stop) for w in workers))

    def _spawn_later(self, pause: float) -> None:
        task = asyncio.get_running_loop().create_task(self._spawn(pause))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _spawn(self, pause: float) -> None:
        """Start one worker and put it in the idle queue once warm; retry until it is."""
        await asyncio.sleep(pause)
        if self._closed:
            return
        worker = await asyncio.to_thread(self._start_worker)
        if worker is None:
            return
        try:
            ready = await asyncio.to_thread(worker.wait_ready, START_SECONDS)
        except (TimeoutError, EOFError, OSError) as exc:
            log.error("render worker failed to start (%s); starting another", exc or type(exc))
            self.metrics.worker_restarts.labels("start_failed").inc()
            self._retire(worker)
            self._spawn_later(RESTART_PAUSE)
            return
        except asyncio.CancelledError:
            self._retire(worker)
            raise
        if self._closed:
            self._retire(worker)
            return
        self.peak_rss_kb[ready.pid] = ready.peak_rss_kb
        log.info(
            "render worker %d warm (%s in %.0f ms; %d MB)",
            ready.pid,
            ", ".join(ready.warmed) or "nothing",
            ready.warm_up_ms,
            ready.peak_rss_kb // 1024,
        )
        assert self._idle is not None
        self._idle.put_nowait(worker)

    def _start_worker(self) -> Worker | None:
        """A new worker process, known to ``close`` from its first moment (None once closed)."""
        worker = Worker(self._context, self.config)
        with self._lock:
            closed = self._closed
            if not closed:
                self._workers.add(worker)
        if closed:
            worker.kill()
            return None
        return worker

    def _retire(self, worker: Worker) -> None:
        """Kill ``worker`` (in a thread: reaping may take a moment) and forget it."""
        with self._lock:
            self._workers.discard(worker)
        if worker.process.pid is not None:
            self.peak_rss_kb.pop(worker.process.pid, None)
        threading.Thread(target=worker.kill, name="inkcard-reap", daemon=True).start()

    def _replace(self, worker: Worker, reason: str) -> None:
        self.killed += 1
        self.metrics.worker_restarts.labels(reason).inc()
        self._retire(worker)
        if not self._closed:
            self._spawn_later(0.0)

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
        return layout.Rendered(rendered.files, rendered.alt_texts)

    async def typeset(
        self, job: TypesetJob, timeout: float, key: object = None
    ) -> list[layout.Formula | None]:
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
        assert self._idle is not None, "start() the pool first"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self._waiting += 1
        try:
            with self.metrics.queued("waiting"):
                async with asyncio.timeout_at(deadline):
                    worker = await self._idle.get()
        except TimeoutError:
            raise RenderTimeout("no render worker was free within the time limit") from None
        finally:
            self._waiting -= 1
        if not (self.spread and spreads(job)):
            return await self.serve(worker, job, deadline)
        assert isinstance(job, RenderJob)
        hand_over = HandOver(self, job, deadline)
        shared = False
        if layout.may_have_share(job.markdown):
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
        assert self._idle is not None
        self.busy += 1
        try:
            with self.metrics.queued("rendering"):
                rendered = await self._call(worker, job, deadline, hand_over)
        finally:
            self.busy -= 1
        self.peak_rss_kb[rendered.pid] = rendered.peak_rss_kb
        if rendered.retiring:
            log.error("render worker %s ran out of memory; replaced", worker.process.pid)
            self._replace(worker, "out_of_memory")
        else:
            self._idle.put_nowait(worker)
        return rendered

    def take_helper(self) -> Worker | None:
        """An idle worker to draw part of a request's cards, if nobody waits for one (so
        under load every request keeps to one worker, and throughput is what it was)."""
        assert self._idle is not None
        if self._waiting or self._idle.empty():
            return None
        return self._idle.get_nowait()

    def give_back(self, worker: Worker) -> None:
        """A worker taken by ``take_helper`` and not used."""
        assert self._idle is not None
        self._idle.put_nowait(worker)

    async def _call(
        self, worker: Worker, job: WorkerJob, deadline: float, hand_over: HandOver[Worker] | None
    ) -> Rendered:
        """``job``'s answer from ``worker``, timed; a worker that fails it is replaced."""
        started = time.perf_counter()
        try:
            async with asyncio.timeout_at(deadline):
                rendered = await asyncio.to_thread(worker.call, job, hand_over)
        except TimeoutError:
            log.warning("render past the time limit: worker %s killed", worker.process.pid)
            self._replace(worker, "timeout")
            raise RenderTimeout("rendering took longer than the time limit") from None
        except (EOFError, OSError):
            log.error("render worker %s died during a render; replaced", worker.process.pid)
            self._replace(worker, "died")
            raise RenderFailed(ENGINE_FAILED) from None
        except asyncio.CancelledError:
            self._replace(worker, "abandoned")  # nobody waits for this render any more
            raise
        self.metrics.render_seconds.observe(time.perf_counter() - started)
        return rendered


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
