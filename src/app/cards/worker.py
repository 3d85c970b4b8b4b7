"""One render worker process: fonts loaded and a card drawn at start, then jobs in, PNGs out.

The service's ``app.render_pool`` starts these processes; a job crosses the boundary as plain
data (Markdown, the decoded theme, fetched image bytes, options) and comes back as PNG bytes,
or as the ``ApiError`` the request answers with. This module imports the engine and nothing of
the web framework, so the forkserver that forks workers holds only what they need.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import pickle
import resource
import time
from collections.abc import Iterator, Mapping
from multiprocessing.connection import Connection
from typing import Protocol

import msgspec

import layout
from app.cards.request import CardRequest
from app.errors import (
    ApiError,
    CardTooLarge,
    ImageTooLarge,
    InvalidMdx,
    RenderFailed,
    TooManyPages,
    TooManyPixels,
)

log = logging.getLogger("inkcard.worker")

STALL_MARKER = "<!-- inkcard-test-stall -->"
"""Tests only: with ``WorkerConfig.stall_seconds`` set, a job whose Markdown holds this line
sleeps that long first (a render that hangs). Off (0) unless a test turns it on."""

WARM_UP_POST = r"""# 墨卡 Inkcard 🐍

把 **Markdown** 变成卡片, a *warm-up* card with `code`, [a link](https://example.com)
and $E = mc^2$.

## 列表与表格

- one
- [x] done

1. first

| 写法 | 速度 |
|:---|---:|
| `enumerate` | 1.02x |

> Readability counts. —— *The Zen of Python*

很多人写了好几年 Python，还在用下标遍历列表。今天分享几个**立刻能用**的写法：用 enumerate
代替下标，用字典合并代替循环，用列表推导式代替 append。Short sentences in English keep
their own spacing, hyphenation and line breaks, as a mixed post does.

### 小结

1. 先读懂，再优化。
2. Measure before you change anything.

```python
print(f"{1 + 1}")
```

$$\int_0^1 x^2 \, dx$$
"""
"""Drawn by each worker before it says ready: a block of every common kind (code with its
highlighter, a table, math, emoji, CJK and Latin), so that the first request finds their
code paths, fonts and caches warm, not just the plain paragraph's."""
ENGINE_FAILED = "the card engine could not render this Markdown"  # a crash, in the worker or of it
MAX_CARD_PIXELS = layout.MAX_CARD_PIXELS
"""The pixels of the largest fixed-size card the field limits allow: no card may be bigger."""


OUT_OF_MEMORY = (
    "the card needed more memory than a render process may use; use a smaller scale, "
    "smaller cards or fewer images"
)


class WorkerConfig(msgspec.Struct, frozen=True, kw_only=True):
    """What a worker needs at start: the fonts (loaded once), the theme of its warm-up card
    and the address space it may use (bytes; 0: no limit)."""

    fonts_dir: str
    warm_up_theme: layout.Theme
    stall_seconds: float = 0.0
    memory_limit: int = 0


class RenderJob(msgspec.Struct, frozen=True, kw_only=True):
    """One render: everything the engine needs, as plain data. ``doc`` is the Markdown as
    the service parsed it (then the worker does not parse it again)."""

    markdown: str
    doc: layout.Doc | None = None
    theme: layout.Theme
    options: layout.RenderOptions
    images: dict[str, bytes] = {}
    may_share: bool = False
    """After the layout, offer the cards to the pool (``Offer``): another worker may draw
    the last of them (``Share``, then ``DrawJob``) while this one draws the first."""
    shared: bool = False
    """Another worker lays out the second share of the post's top-level blocks
    (``ShareJob``): their parts are asked for (``WantShare``) when the layout reaches them."""


class Offer(msgspec.Struct, frozen=True):
    """A ``may_share`` job laid out into ``cards`` cards. The pool answers with how many of
    them, from the first, this worker draws itself: ``first_half`` when another worker
    takes the rest, else all of them (no other worker is free)."""

    cards: int

    @property
    def first_half(self) -> int:
        return (self.cards + 1) // 2


class Share(msgspec.Struct, frozen=True):
    """The cards a worker hands over after an ``Offer``: its last ones, laid out and pickled,
    so that the pool passes them on to a ``DrawJob`` without unpickling them."""

    pages: bytes


class WantShare(msgspec.Struct, frozen=True):
    """Sent when the layout reaches the second share (``RenderJob.shared``): the pool
    answers with its parts as the other worker pickled them (``Rendered.share``), or with
    b"" (it failed or ran out of time): then this worker lays them out itself."""


class ShareJob(msgspec.Struct, frozen=True, kw_only=True):
    """The second share of ``render``'s post (its blocks from ``layout.share_start`` on),
    to lay out for the worker that lays out the rest (``layout.layout_share``)."""

    render: RenderJob


class DrawJob(msgspec.Struct, frozen=True, kw_only=True):
    """Cards another worker laid out (``Share.pages``), to draw and encode. They were held to
    the request's page and pixel limits there; ``draw_cards`` checks the pixels again."""

    pages: bytes
    options: layout.RenderOptions


class TypesetJob(msgspec.Struct, frozen=True, kw_only=True):
    """An article's math: each distinct (LaTeX, display) in the order written, at ``size`` px.
    Typeset here rather than in the server, so a formula that runs long is stopped with its
    worker, under one ``layout.MathBudget`` for the whole article."""

    formulas: list[tuple[str, bool]]
    size: float


class CoverJob(msgspec.Struct, frozen=True, kw_only=True):
    """Cover cards of a title (``layout.render_covers``): one layout each, ``count`` of them."""

    title: str
    keywords: tuple[str, ...]
    theme: layout.Theme
    options: layout.RenderOptions
    count: int


WorkerJob = RenderJob | ShareJob | DrawJob | TypesetJob | CoverJob
"""Whatever a worker is sent."""

WARM_UP_MATH = TypesetJob(
    formulas=[(r"\frac{a}{b} + \sqrt{x^2}", False), (r"\sum_{i=1}^{n} i^2", True)], size=17.0
)
"""Typeset by each worker before it says ready, as an article's math is (the math engine
and its font load on first use: ~150 ms)."""


class Rendered(msgspec.Struct, frozen=True, kw_only=True):
    """A worker's answer: the files and their alt texts, or the formulas (None: shown as
    source), or the error to answer with; and the worker's own counts."""

    files: list[bytes] = []
    alt_texts: list[str] = []
    formulas: list[layout.Formula | None] = []
    share: bytes = b""  # a ``ShareJob``'s parts, pickled
    error: ApiError | None = None
    pid: int
    renders: int  # jobs this worker has rendered since it started, this one included
    peak_rss_kb: int  # the worker's peak resident set so far (ru_maxrss)
    retiring: bool = False  # ran out of memory: it exits after this answer, to be replaced


class Ready(msgspec.Struct, frozen=True):
    """Sent once, after the fonts are loaded and the warm-up is done: ``warmed`` names what
    was run (``WARM_UPS``), ``warm_up_ms`` how long it took."""

    pid: int
    peak_rss_kb: int
    warmed: tuple[str, ...] = ()
    warm_up_ms: float = 0.0


def parse_post(card: CardRequest) -> layout.Doc:
    """The card request's Markdown as the engine's ``Doc``.

    Raises:
        InvalidMdx: With mdxMode, text the component set refuses.
    """
    try:
        return layout.parse_post(card.markdown, card.mdx)
    except layout.MdxError as error:
        raise _invalid_mdx(error) from None


def _over_limit(
    error: layout.CardTooLarge | layout.TooTallForFormat | layout.TooManyPixels,
    options: layout.RenderOptions,
) -> ApiError:
    """The service's answer to a render over the card or request pixel limits."""
    if isinstance(error, layout.CardTooLarge):
        other_formats = (
            f", or format png or jpeg ({MAX_CARD_PIXELS:,} pixels a card)"
            if error.limit < MAX_CARD_PIXELS
            else ""
        )
        return CardTooLarge(
            f"a card would be {error.width}x{error.height} pixels, more than the "
            f"{error.limit:,}-pixel limit of one {options.format} card; use splitMode "
            f"autoSplit, overHiddenMode, a smaller scale or a wider card{other_formats}"
        )
    if isinstance(error, layout.TooTallForFormat):
        return CardTooLarge(
            f"a card would be {error.width}x{error.height} pixels, and {error.format} holds at"
            f" most {error.limit:,} pixels a side; use format png or pdf, splitMode autoSplit,"
            " overHiddenMode or a smaller scale"
        )
    return TooManyPixels(
        f"the cards would have at least {error.pixels:,} pixels in all (width x height"
        f" x scale², summed over the cards), more than the {error.limit:,}-pixel limit"
        " of one request; use a smaller scale, smaller cards or fewer cards"
    )


def _invalid_mdx(error: layout.MdxError) -> InvalidMdx:
    return InvalidMdx(f"mdxMode: {error}")


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


class Sharing(Protocol):
    """What ``render_cards`` asks of the pool when it shares its work (``PoolLink``)."""

    def premade(self, doc: layout.Doc) -> layout.Premade | None: ...

    def hand_off(self, pages: list[layout.Page]) -> int: ...


class PoolLink:
    """A ``may_share`` render's talk with the pool over ``conn``: the parts of the blocks
    another worker laid out (``WantShare``), then its cards (``Offer``, ``Share``)."""

    def __init__(self, conn: Connection, shared: bool):
        self._conn = conn
        self._shared = shared

    def premade(self, doc: layout.Doc) -> layout.Premade | None:
        """Where the parts of the second share come from, if another worker lays it out."""
        start = layout.share_start(doc) if self._shared else None
        return None if start is None else layout.Premade(start, self._parts)

    def _parts(self) -> list[layout.Part | None] | None:
        self._conn.send(WantShare())
        pickled = self._conn.recv()
        return pickle.loads(pickled) if pickled else None

    def hand_off(self, pages: list[layout.Page]) -> int:
        """How many of the laid-out cards (the first ones) this worker draws: a post of one
        card is not offered; else ``Offer``, the pool's answer, and the ``Share`` it did
        not keep, for another worker."""
        if len(pages) < 2:
            return len(pages)
        offer = Offer(len(pages))
        self._conn.send(offer)
        half = offer.first_half
        # A worker that laid out a share was helped a moment ago: the pool will most likely
        # take that worker again, so the half it would draw is pickled while the pool answers.
        likely = _pickled(pages[half:]) if self._shared else None
        keep = int(self._conn.recv())
        if keep < len(pages):
            self._conn.send(Share(likely if likely and keep == half else _pickled(pages[keep:])))
        return keep


def _pickled(laid_out: list[layout.Page] | list[layout.Part | None]) -> bytes:
    return pickle.dumps(laid_out, protocol=pickle.HIGHEST_PROTOCOL)


def lay_out_share(job: ShareJob, fonts: layout.FontBook) -> bytes:
    """The parts of a ``ShareJob``, pickled (the refusals of ``render_cards``)."""
    render = job.render
    with engine_refusals(render.options):
        doc = render.doc or layout.parse_post(render.markdown, render.options.mdx)
        start = layout.share_start(doc)  # as the worker that waits for it finds it
        if start is None:
            return b""
        parts = layout.layout_share(doc, render.theme, fonts, render.options, start)
    return _pickled(parts)


def draw_share(job: DrawJob, fonts: layout.FontBook) -> layout.Rendered:
    """The cards of a ``DrawJob``, drawn and encoded (the refusals of ``render_cards``)."""
    with engine_refusals(job.options):
        return layout.draw_cards(pickle.loads(job.pages), {}, fonts, job.options)


@contextlib.contextmanager
def engine_refusals(options: layout.RenderOptions) -> Iterator[None]:
    """The engine's refusals inside, raised as the service's errors (``render_cards``)."""
    try:
        yield
    except (layout.CardTooLarge, layout.TooTallForFormat, layout.TooManyPixels) as error:
        raise _over_limit(error, options) from None
    except layout.ImagesTooLarge as error:
        raise ImageTooLarge(
            f"the images would decode to at least {error.pixels:,} pixels (width x height,"
            f" each distinct image counted once), more than the {error.limit:,}-pixel limit"
            " of this request (the bigger the card, the less room for images); use fewer or"
            " smaller images, or a smaller card or scale"
        ) from None
    except layout.MdxError as error:
        raise _invalid_mdx(error) from None
    except layout.TooManyPages:
        raise TooManyPages(
            f"the Markdown makes more than {layout.MAX_CARDS} cards; split it into several requests"
        ) from None
    except MemoryError:
        raise  # over the address-space limit: answered by ``_answer``, the worker replaced
    except Exception:
        log.exception("card engine failed")
        raise RenderFailed(ENGINE_FAILED) from None


def render_covers(job: CoverJob, fonts: layout.FontBook) -> layout.Rendered:
    """``layout.render_covers`` of ``job``, its refusals the service's errors as for cards.

    Raises:
        CardTooLarge, TooManyPixels: The covers are over a limit.
        RenderFailed: The engine failed.
    """
    try:
        return layout.render_covers(
            job.title, job.keywords, job.theme, fonts, job.options, count=job.count
        )
    except (layout.CardTooLarge, layout.TooTallForFormat, layout.TooManyPixels) as error:
        raise _over_limit(error, job.options) from None
    except MemoryError:
        raise
    except Exception:
        log.exception("cover designer failed")
        raise RenderFailed(ENGINE_FAILED) from None


def peak_rss_kb() -> int:
    """This process's peak resident set in KiB (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def limit_address_space(limit: int) -> None:
    """Hold this process to ``limit`` bytes of address space (0: leave it unlimited): an
    allocation past it fails (``MemoryError``, or Skia aborts the process) instead of the
    machine running out of memory. Only the soft limit is set."""
    if limit:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def serve(conn: Connection, config: WorkerConfig) -> None:
    """The worker's main loop: load, warm up, say ready, then answer jobs until ``None``.

    Ends quietly when the pool closes its end of the pipe (the service stopped), and after
    answering a job that ran out of memory (the pool starts a fresh worker)."""
    limit_address_space(config.memory_limit)
    fonts = layout.FontBook.load(config.fonts_dir)
    layout.load_numpy()  # a worker draws many cards: numpy packs PNG rows faster
    started = time.perf_counter()
    warmed = warm_up(fonts, config)
    warm_up_ms = (time.perf_counter() - started) * 1000
    # What start-up made (modules, fonts, caches) lives as long as the process: frozen out
    # of the collector, a full collection walks only what requests made. A 10-card request's
    # slowest layout of 40 went from 22-26 to 19-20 ms, its slowest drawing from 34-46 to 30-32.
    gc.collect()
    gc.freeze()
    renders = 0
    try:
        conn.send(Ready(os.getpid(), peak_rss_kb(), warmed, warm_up_ms))
        while (job := conn.recv()) is not None:
            renders += 1
            answer = _answer(job, fonts, config, renders, conn)
            conn.send(answer)
            if answer.retiring:
                return
    except (EOFError, BrokenPipeError):
        return


WARM_UPS = ("card", "math")
WARM_UP_CARD_DRAWS = 2
"""The warm-up card is drawn twice. Only the second draw is as cheap as a later card, and a
card after one draw still pays first-use costs that no particular text explains (most in
filling and encoding its pixels: fresh heap pages); after two, the first request's card cost
14.6 ms of CPU instead of 17.2 (a later one 9 ms), for ~10 ms more CPU at start and ~1 MB."""


def warm_up(fonts: layout.FontBook, config: WorkerConfig) -> tuple[str, ...]:
    """Runs each kind of job a worker is sent once, as a request would (``_answer``), so
    that the first request after a start costs what a later one does: a card of every
    common block (``WARM_UP_POST``, drawn ``WARM_UP_CARD_DRAWS`` times) and an article's
    math (``WARM_UP_MATH``). Returns what
    was warmed (``WARM_UPS``); a warm-up that fails is logged, and the worker serves anyway
    (its first request then pays what the warm-up would have)."""
    jobs: dict[str, WorkerJob] = {
        "card": RenderJob(
            markdown=WARM_UP_POST, theme=config.warm_up_theme, options=layout.RenderOptions()
        ),
        "math": WARM_UP_MATH,
    }
    warmed = []
    for name, job in jobs.items():
        draws = WARM_UP_CARD_DRAWS if name == "card" else 1
        answers = [_answer(job, fonts, config, renders=0) for _ in range(draws)]
        answer = next((a for a in answers if a.error is not None), answers[0])
        if answer.error is not None:
            log.error("warm-up %s failed: %s", name, answer.error.message)
        else:
            warmed.append(name)
    return tuple(warmed)


def _answer(
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
    formulas: list[layout.Formula | None] = []
    error: ApiError | None = None
    retiring = False
    try:
        if isinstance(job, TypesetJob):
            budget = layout.MathBudget()  # one article's math
            formulas = [budget.typeset(tex, job.size, display) for tex, display in job.formulas]
        elif isinstance(job, CoverJob):
            done = render_covers(job, fonts)
            files, alt_texts = done.files, done.alt_texts
        elif isinstance(job, DrawJob):
            done = draw_share(job, fonts)
            files, alt_texts = done.files, done.alt_texts
        elif isinstance(job, ShareJob):
            share = lay_out_share(job, fonts)
        else:
            if config.stall_seconds and STALL_MARKER in job.markdown:
                time.sleep(config.stall_seconds)
            post = job.doc or job.markdown
            link = PoolLink(pool, job.shared) if pool is not None and job.may_share else None
            done = render_cards(post, job.theme, fonts, job.options, job.images, link)
            files, alt_texts = done.files, done.alt_texts
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
        formulas=formulas,
        share=share,
        error=error,
        pid=os.getpid(),
        renders=renders,
        peak_rss_kb=peak_rss_kb(),
        retiring=retiring,
    )
