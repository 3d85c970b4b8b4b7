"""The pool and a worker process → the records they send each other over the worker's pipe.

A worker is started with a ``WorkerConfig`` and says ``Ready``; then it is sent jobs
(``WorkerJob``: cards, a share of a split request's layout or drawing, an article's math,
covers) and answers each with ``Rendered``. While it renders a split request it talks with
the pool: ``WantShare`` asks for the parts another worker laid out, ``Offer`` and ``Share``
hand its last cards over (``app.render.spread``). Every record is plain data (msgspec), so it
pickles across the process boundary; this module imports the engine's records and the
service's errors, nothing else.
"""

from __future__ import annotations

import msgspec

from inkcard import layout
from inkcard.app.errors import ApiError
from inkcard.layout.text import Formula


class WorkerConfig(msgspec.Struct, frozen=True, kw_only=True):
    """What a worker needs at start: the fonts (loaded once), the theme of its warm-up card
    and the address space it may use (bytes; 0: no limit)."""

    fonts_dir: str
    warm_up_theme: layout.Theme
    stall_seconds: float = 0.0
    memory_limit: int = 0
    small_pngs: bool = False  # INKCARD_PNG_COMPRESSION=small: zlib's smaller, slower PNGs


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
    worker, under one ``MathBudget`` for the whole article."""

    formulas: list[tuple[str, bool]]
    size: float


class CoverJob(msgspec.Struct, frozen=True, kw_only=True):
    """Cover cards of a title (``layout.render_covers``): one layout each, ``count`` of them."""

    title: str
    keywords: tuple[str, ...]
    theme: layout.Theme
    options: layout.RenderOptions
    count: int
    wechat: bool = False  # the platform's 900 x 383 covers (``layout.wechat_covers``)


WorkerJob = RenderJob | ShareJob | DrawJob | TypesetJob | CoverJob
"""Whatever a worker is sent."""


class Rendered(msgspec.Struct, frozen=True, kw_only=True):
    """A worker's answer: the files and their alt texts, or the formulas (None: shown as
    source), or the error to answer with; and the worker's own counts."""

    files: list[bytes] = []
    alt_texts: list[str] = []
    qualities: list[layout.Quality | None] = []
    formulas: list[Formula | None] = []
    share: bytes = b""  # a ``ShareJob``'s parts, pickled
    error: ApiError | None = None
    pid: int
    renders: int  # jobs this worker has rendered since it started, this one included
    peak_rss_kb: int  # the worker's peak resident set so far (ru_maxrss)
    retiring: bool = False  # ran out of memory: it exits after this answer, to be replaced


class Ready(msgspec.Struct, frozen=True):
    """Sent once, after the fonts are loaded and the warm-up is done: ``warmed`` names what
    was run (``app.render.worker.WARM_UPS``), ``warm_up_ms`` how long it took."""

    pid: int
    peak_rss_kb: int
    warmed: tuple[str, ...] = ()
    warm_up_ms: float = 0.0
