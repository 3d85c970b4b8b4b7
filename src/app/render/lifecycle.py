"""A pool size and a ``WorkerConfig`` → that many worker processes kept alive and warm.

Each worker is started in the background and joins the idle queue once it says ready; one
that fails to start is started again after a pause, and one that fails a job (out of time,
dead, out of memory, its caller gone) is killed and replaced. The pool's jobs side
(``app.render.pool``) takes workers from the idle queue, calls them here and gives them back.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from multiprocessing.context import BaseContext

from inkcard.app.errors import RenderFailed, RenderTimeout
from inkcard.app.metrics import Metrics
from inkcard.app.render.messages import Rendered, WorkerConfig, WorkerJob
from inkcard.app.render.process import Worker
from inkcard.app.render.refusals import ENGINE_FAILED
from inkcard.app.render.spread import HandOver

log = logging.getLogger("inkcard.render_pool")

START_SECONDS = 60.0  # a worker that is not warm by then is killed and started again
RESTART_PAUSE = 1.0  # between failed starts, so a broken font folder does not spin


class LiveWorkers:
    """``size`` worker processes, started by ``start`` and each put in ``idle`` once warm;
    ``call`` runs a job in one and replaces it if it fails.

    ``killed`` counts the workers replaced; ``peak_rss_kb`` is each live worker's last
    reported peak resident set, by pid. ``metrics`` counts restarts by reason.
    """

    def __init__(self, size: int, config: WorkerConfig, context: BaseContext, metrics: Metrics):
        self.size = size
        self.config = config
        self.metrics = metrics
        self.killed = 0
        self.peak_rss_kb: dict[int, int] = {}
        self.idle: asyncio.Queue[Worker] | None = None
        self._context = context
        self._workers: set[Worker] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._lock = threading.Lock()  # _workers and _closed: also touched by starter threads

    def start(self) -> None:
        """Start every worker in the background; call from the running event loop."""
        self.idle = asyncio.Queue()
        for _ in range(self.size):
            self._spawn_later(0.0)

    @property
    def warm(self) -> int:
        """Workers started, warm and alive (busy or idle)."""
        return sum(1 for w in self._workers if w.ready is not None and w.process.is_alive())

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

    def replace(self, worker: Worker, reason: str) -> None:
        """Kill ``worker`` and start another in its place (``reason`` labels the restart)."""
        self.killed += 1
        self.metrics.worker_restarts.labels(reason).inc()
        self._retire(worker)
        if not self._closed:
            self._spawn_later(0.0)

    async def call(
        self, worker: Worker, job: WorkerJob, deadline: float, hand_over: HandOver[Worker] | None
    ) -> Rendered:
        """``job``'s answer from ``worker`` by ``deadline``, timed; a worker that fails it (out of
        time, dead, or its caller gone) is replaced."""
        started = time.perf_counter()
        try:
            async with asyncio.timeout_at(deadline):
                rendered = await asyncio.to_thread(worker.call, job, hand_over)
        except TimeoutError:
            log.warning("render past the time limit: worker %s killed", worker.process.pid)
            self.replace(worker, "timeout")
            raise RenderTimeout("rendering took longer than the time limit") from None
        except (EOFError, OSError):
            log.error("render worker %s died during a render; replaced", worker.process.pid)
            self.replace(worker, "died")
            raise RenderFailed(ENGINE_FAILED) from None
        except asyncio.CancelledError:
            self.replace(worker, "abandoned")  # nobody waits for this render any more
            raise
        self.metrics.render_seconds.observe(time.perf_counter() - started)
        return rendered

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
        assert self.idle is not None
        self.idle.put_nowait(worker)

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
