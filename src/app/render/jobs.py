"""A job (``WorkerJob``) and loaded fonts → its answer (``Rendered``): what a worker does with
each job it is sent, and what the in-process pool of ``inkcard mcp`` does in a thread.

Cards, a split request's shares, covers and an article's math are each run by the engine with
its refusals turned into the service's errors (``app.render.refusals``); a render over the
process's memory limit is answered as a failure and the process retires.
"""

from __future__ import annotations

import logging
import os
import pickle
import resource
import time
from collections.abc import Mapping
from multiprocessing.connection import Connection

from inkcard import layout
from inkcard.app.errors import ApiError, RenderFailed
from inkcard.app.render.messages import (
    CoverJob,
    DrawJob,
    Rendered,
    RenderJob,
    ShareJob,
    TypesetJob,
    WorkerConfig,
    WorkerJob,
)
from inkcard.app.render.refusals import ENGINE_FAILED, engine_refusals, over_limit
from inkcard.app.render.sharing import PoolLink, Sharing, pickled
from inkcard.layout.text import Formula, MathBudget

log = logging.getLogger("inkcard.worker")

STALL_MARKER = "<!-- inkcard-test-stall -->"
"""Tests only: with ``WorkerConfig.stall_seconds`` set, a job whose Markdown holds this line
sleeps that long first (a render that hangs). Off (0) unless a test turns it on."""

OUT_OF_MEMORY = (
    "the card needed more memory than a render process may use; use a smaller scale, "
    "smaller cards or fewer images"
)


def answer(
    job: WorkerJob,
    fonts: layout.FontBook,
    config: WorkerConfig,
    renders: int,
    pool: Connection | None = None,
) -> Rendered:
    """``job`` done, or the error to answer with; a ``may_share`` render shares its work
    with another worker through the ``pool`` (see ``PoolLink``)."""
    files: list[bytes] = []
    share = b""
    alt_texts: list[str] = []
    qualities: list[layout.Quality | None] = []
    formulas: list[Formula | None] = []
    error: ApiError | None = None
    retiring = False
    try:
        if isinstance(job, TypesetJob):
            budget = MathBudget()  # one article's math
            formulas = [budget.typeset(tex, job.size, display) for tex, display in job.formulas]
        elif isinstance(job, CoverJob):
            done = render_covers(job, fonts)
            files, alt_texts, qualities = done.files, done.alt_texts, done.qualities
        elif isinstance(job, DrawJob):
            done = draw_share(job, fonts)
            files, alt_texts, qualities = done.files, done.alt_texts, done.qualities
        elif isinstance(job, ShareJob):
            share = lay_out_share(job, fonts)
        else:
            done = _render(job, fonts, config, pool)
            files, alt_texts, qualities = done.files, done.alt_texts, done.qualities
    except ApiError as exc:
        error = exc
    except MemoryError:
        # Whatever the engine held is freed by now, but a process that hit its limit
        # mid-allocation is not trusted with the next job: it answers and exits.
        log.error(
            "render over the worker's memory limit (%d bytes); worker retires", config.memory_limit
        )
        error, retiring = RenderFailed(OUT_OF_MEMORY), True
    return Rendered(
        files=files,
        alt_texts=alt_texts,
        qualities=qualities,
        formulas=formulas,
        share=share,
        error=error,
        pid=os.getpid(),
        renders=renders,
        peak_rss_kb=peak_rss_kb(),
        retiring=retiring,
    )


def _render(
    job: RenderJob, fonts: layout.FontBook, config: WorkerConfig, pool: Connection | None
) -> layout.Rendered:
    """A card request's cards, sharing the work through ``pool`` when the job may."""
    if config.stall_seconds and STALL_MARKER in job.markdown:
        time.sleep(config.stall_seconds)
    post = job.doc or job.markdown
    link = PoolLink(pool, job.shared) if pool is not None and job.may_share else None
    return render_cards(post, job.theme, fonts, job.options, job.images, link)


def render_cards(
    markdown: str | layout.Doc,
    theme: layout.Theme,
    fonts: layout.FontBook,
    options: layout.RenderOptions,
    images: Mapping[str, bytes] | None = None,
    link: Sharing | None = None,
) -> layout.Rendered:
    """``layout.render_cards``, its refusals turned into the service's errors. With ``link``
    to the pool, the parts of blocks another worker laid out are taken from it, and the
    laid-out cards are offered to the pool: only the ones it leaves to this process are
    drawn (the first ones; the rest are another worker's).

    Raises:
        TooManyPages, CardTooLarge, TooManyPixels, ImageTooLarge: The request is over a limit.
        RenderFailed: The engine failed.
    """
    if link is None:
        with engine_refusals(options):
            return layout.render_cards(markdown, theme, fonts, options, images or {})
    with engine_refusals(options):
        doc = markdown
        if not isinstance(doc, layout.Doc):
            doc = layout.parse_post(doc, options.mdx)
        laid = layout.layout_cards(doc, theme, fonts, options, images or {}, link.premade(doc))
    keep = link.hand_off(laid.pages)
    with engine_refusals(options):
        return layout.draw_cards(laid.pages[:keep], laid.images, fonts, options)


def lay_out_share(job: ShareJob, fonts: layout.FontBook) -> bytes:
    """The parts of a ``ShareJob``, pickled (the refusals of ``render_cards``)."""
    render = job.render
    with engine_refusals(render.options):
        doc = render.doc or layout.parse_post(render.markdown, render.options.mdx)
        start = layout.share_start(doc)  # as the worker that waits for it finds it
        if start is None:
            return b""
        parts = layout.layout_share(doc, render.theme, fonts, render.options, start)
    return pickled(parts)


def draw_share(job: DrawJob, fonts: layout.FontBook) -> layout.Rendered:
    """The cards of a ``DrawJob``, drawn and encoded (the refusals of ``render_cards``)."""
    with engine_refusals(job.options):
        return layout.draw_cards(pickle.loads(job.pages), {}, fonts, job.options)


def render_covers(job: CoverJob, fonts: layout.FontBook) -> layout.Rendered:
    """``layout.render_covers`` of ``job``, its refusals the service's errors as for cards.

    Raises:
        CardTooLarge, TooManyPixels: The covers are over a limit.
        RenderFailed: The engine failed.
    """
    try:
        return layout.render_covers(
            job.title,
            job.keywords,
            job.theme,
            fonts,
            job.options,
            count=job.count,
            wechat=job.wechat,
        )
    except (layout.CardTooLarge, layout.TooTallForFormat, layout.TooManyPixels) as error:
        raise over_limit(error, job.options) from None
    except MemoryError:
        raise
    except Exception:
        log.exception("cover designer failed")
        raise RenderFailed(ENGINE_FAILED) from None


def peak_rss_kb() -> int:
    """This process's peak resident set in KiB (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
