"""One split request laid out and drawn by two render workers side by side.

A raster autoSplit request without images (``spreads``) is sent to its worker with
``may_share``. Twice the worker offers work to the pool, and each time, if another worker
is idle and no request waits for one, the pool takes it; else the first worker does that
work too, as it always did: under load nothing changes, and no work is done twice.

- With the job, a long post's second share of blocks (``layout.share_start``: each worker
  finds it in its own parse): the other worker lays them out (``ShareJob``) while the
  first lays out the rest and then asks for their parts (``WantShare``), joins them on and
  paginates.
- Once its cards are laid out (``Offer``): the first worker draws the first half of the
  cards while the other draws the rest (``Share`` → ``DrawJob``).

The files come back in card order, the same bytes either way. The offers are answered
from the pool's event loop, but asked in the thread that waits for the first worker
(``Worker.call``); ``HandOver`` is the bridge between the two.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from typing import Generic, Protocol, TypeVar

import msgspec

from inkcard.app.render.messages import (
    DrawJob,
    Offer,
    Rendered,
    RenderJob,
    Share,
    ShareJob,
    WorkerJob,
)

LOOP_ANSWER_SECONDS = 5.0
"""How long the thread waiting for the first worker waits for the event loop to answer its
offer (it answers at once unless the service is stopping; then the worker draws every card)."""

Worker = TypeVar("Worker")  # the pool's worker (app.render.process imports this module)


class Helpers(Protocol[Worker]):
    """What a hand-over needs of the pool."""

    def take_helper(self) -> Worker | None: ...

    def give_back(self, worker: Worker) -> None: ...

    async def serve(self, worker: Worker, job: WorkerJob, deadline: float) -> Rendered: ...


def spreads(job: WorkerJob) -> bool:
    """Whether ``job``'s cards may be drawn by two workers: raster cards of an autoSplit
    request (every card the same size, so the share has the whole request's pixel budget)
    without images (the share would decode its own, outside the request's image budget)."""
    return (
        isinstance(job, RenderJob)
        and job.options.split == "autoSplit"
        and job.options.format != "pdf"
        and not job.images
    )


class HandOver(Generic[Worker]):
    """One request's hand-over: ``offer`` and ``share`` run in the thread waiting for the
    first worker, ``close`` and ``joined`` on the event loop."""

    def __init__(self, pool: Helpers[Worker], job: RenderJob, deadline: float):
        self._pool = pool
        self._job = job
        self._options = job.options
        self._deadline = deadline
        self._loop = asyncio.get_running_loop()
        self._lock = threading.Lock()
        self._closed = False
        self._helper: Worker | None = None
        self._drawing: Future[Rendered] | None = None
        self._laying_out: asyncio.Future[Rendered] | None = None
        self.helped = False  # another worker took a share of the work

    def lay_out_share(self) -> bool:
        """On the event loop, before the first worker is sent the job: takes an idle worker,
        if there is one, to lay out the post's second share of blocks meanwhile. Whether
        one was taken."""
        helper = self._pool.take_helper()
        if helper is None:
            return False
        self.helped = True
        job = ShareJob(render=self._job)
        self._laying_out = asyncio.ensure_future(self._pool.serve(helper, job, self._deadline))
        self._laying_out.add_done_callback(_retrieve)
        return True

    def share_parts(self) -> bytes:
        """The parts of the share another worker laid out, pickled as it sent them; b""
        when none was taken, it failed, or the request's time ran out."""
        if self._laying_out is None:
            return b""
        try:
            waiting = asyncio.run_coroutine_threadsafe(self._parts(), self._loop)
            return waiting.result(timeout=max(0.0, self._deadline - self._loop.time()))
        except (RuntimeError, TimeoutError):
            return b""

    async def _parts(self) -> bytes:
        assert self._laying_out is not None
        try:
            laid = await asyncio.shield(self._laying_out)
        except Exception:  # its worker failed or ran out of time: lay them out here
            return b""
        return laid.share if laid.error is None else b""

    def offer(self, offer: Offer) -> int:
        """How many of the offered cards, from the first, the first worker draws: half,
        rounded up, when an idle worker was taken for the rest; else all (also when the
        event loop does not answer: it is stopping)."""
        try:
            taking = asyncio.run_coroutine_threadsafe(self._take(), self._loop)
            taken = taking.result(timeout=LOOP_ANSWER_SECONDS)
        except (RuntimeError, TimeoutError):
            return offer.cards
        return offer.cards if taken is None else offer.first_half

    async def _take(self) -> Worker | None:
        with self._lock:
            if not self._closed:
                self._helper = self._pool.take_helper()
                self.helped = self.helped or self._helper is not None
            return self._helper

    def share(self, share: Share) -> None:
        """The cards handed over, sent to the worker taken for them."""
        with self._lock:
            if self._closed or self._helper is None or self._drawing is not None:
                return
            job = DrawJob(pages=share.pages, options=self._options)
            serving = self._pool.serve(self._helper, job, self._deadline)
            try:
                self._drawing = asyncio.run_coroutine_threadsafe(serving, self._loop)
            except RuntimeError:  # the event loop is closed: the service is stopping
                serving.close()

    def close(self) -> None:
        """After the first worker answered or failed: a worker taken but never given cards
        (the first one failed in between) goes back to the idle ones."""
        with self._lock:
            self._closed = True
            if self._helper is not None and self._drawing is None:
                self._pool.give_back(self._helper)

    async def joined(self, first: Rendered) -> Rendered:
        """The whole request's answer: the first worker's cards, then the second's; an
        error of either is the answer."""
        if self._drawing is None or first.error is not None:
            return first
        rest = await asyncio.wrap_future(self._drawing)
        if rest.error is not None:
            return rest
        return msgspec.structs.replace(
            first,
            files=first.files + rest.files,
            alt_texts=first.alt_texts + rest.alt_texts,
            qualities=first.qualities + rest.qualities,
        )


def _retrieve(laying_out: asyncio.Future[Rendered]) -> None:
    """Reads a share's failure, so that one nobody waited for (the first worker failed
    before it asked) is not reported as never retrieved."""
    if not laying_out.cancelled():
        laying_out.exception()
