"""A split request shared by two render workers (the second share of its blocks laid out by
an idle one while the first lays out the rest; the last half of its cards handed to it):
the same bytes in the same order as one worker makes them, a request that still completes
when the pool is busy, and the pixel budgets that still refuse a request over them. Real
worker processes and the real engine; not timed."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest

from inkcard import layout, themes
from inkcard.app.errors import TooManyPixels
from inkcard.app.render.jobs import draw_share, lay_out_share, render_cards
from inkcard.app.render.messages import DrawJob, RenderJob, ShareJob, WorkerConfig
from inkcard.app.render.pool import ProcessRenderPool
from tests import pngcodec

T = TypeVar("T")
POSTS = Path(__file__).resolve().parents[1] / "cases" / "posts"
SPLIT = layout.RenderOptions(split="autoSplit", width=440, height=586, scale=1)


def job(options: layout.RenderOptions = SPLIT) -> RenderJob:
    markdown = "\n\n".join(
        (POSTS / name).read_text(encoding="utf-8")
        for name in ("04-long-article-zh.md", "01-efficiency-zh.md", "03-english-notes.md")
    )
    return RenderJob(markdown=markdown, theme=themes.builtin().get("apple-notes"), options=options)


CONFIG = WorkerConfig(
    fonts_dir=str(layout.DEFAULT_FONTS_DIR), warm_up_theme=themes.builtin().get("apple-notes")
)


async def with_pool(spread: bool, body: Any) -> Any:
    pool = ProcessRenderPool(2, queue=8, config=CONFIG, spread=spread)
    pool.start()
    try:
        while not pool.ready:
            await asyncio.sleep(0.05)
        return await body(pool)
    finally:
        await pool.close()


def spread_count(pool: ProcessRenderPool) -> float:
    return pool.metrics.registry.get_sample_value("inkcard_render_spread_total") or 0.0


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


def test_spread_cards_are_the_bytes_and_order_of_one_worker() -> None:
    async def render(pool: ProcessRenderPool) -> layout.Rendered:
        return await pool.run(job(), timeout=60)

    alone = run(with_pool(False, render))
    spread = run(with_pool(True, render))
    assert len(alone.files) >= 6
    assert pngcodec.same_cards(spread.files, alone.files), pngcodec.card_differences(
        spread.files, alone.files
    )
    assert spread.alt_texts == alone.alt_texts


def test_a_busy_pool_still_renders_every_split_request_whole() -> None:
    async def burst(pool: ProcessRenderPool) -> list[layout.Rendered]:
        return await asyncio.gather(*(pool.run(job(), timeout=120) for _ in range(6)))

    alone = run(with_pool(False, lambda pool: pool.run(job(), timeout=60)))
    for rendered in run(with_pool(True, burst)):
        assert pngcodec.same_cards(rendered.files, alone.files)


def test_the_request_pixel_budget_still_refuses_a_spread_request() -> None:
    over = msgspec.structs.replace(SPLIT, max_total_pixels=440 * 586 * 3)

    async def refused(pool: ProcessRenderPool) -> None:
        with pytest.raises(TooManyPixels):
            await pool.run(job(over), timeout=60)

    run(with_pool(True, refused))


def test_an_idle_pool_spreads_a_split_request_and_a_one_card_post_stays_whole() -> None:
    async def counted(pool: ProcessRenderPool) -> tuple[float, float]:
        await pool.run(job(), timeout=60)
        spread_once = spread_count(pool)
        one_card = RenderJob(
            markdown="# One card", theme=themes.builtin().get("apple-notes"), options=SPLIT
        )
        await pool.run(one_card, timeout=60)
        return spread_once, spread_count(pool)

    assert run(with_pool(True, counted)) == (1, 1)
    assert run(with_pool(False, counted)) == (0, 0)


class Link:
    """The pool's side of a shared render, in this process: the second share laid out by
    ``lay_out_share`` (as another worker would), and the cards after the first two handed
    over."""

    def __init__(self, job: RenderJob, fonts: layout.FontBook):
        self.share = lay_out_share(ShareJob(render=job), fonts)
        self.handed: list[bytes] = []

    def premade(self, doc: layout.Doc) -> layout.Premade | None:
        start = layout.share_start(doc)
        assert start is not None
        return layout.Premade(start, lambda: pickle.loads(self.share))

    def hand_off(self, pages: list[layout.Page]) -> int:
        self.handed.append(pickle.dumps(pages[2:]))
        return 2


def test_the_first_worker_takes_the_laid_out_share_then_hands_over_the_last_cards() -> None:
    fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
    post, theme = job().markdown, job().theme
    whole = render_cards(post, theme, fonts, SPLIT)
    link = Link(job(), fonts)
    assert link.share  # the post is long enough to share its layout
    first = render_cards(post, theme, fonts, SPLIT, link=link)
    rest = draw_share(DrawJob(pages=link.handed[0], options=SPLIT), fonts)
    assert len(first.files) == 2
    joined = first.files + rest.files
    assert pngcodec.same_cards(joined, whole.files), pngcodec.card_differences(joined, whole.files)
    assert first.alt_texts + rest.alt_texts == whole.alt_texts


def test_a_post_too_short_to_share_its_layout_gets_no_share() -> None:
    fonts = layout.FontBook.load(str(layout.DEFAULT_FONTS_DIR))
    short = RenderJob(markdown="# Title\n\nA paragraph.", theme=job().theme, options=SPLIT)
    assert not layout.may_have_share(short.markdown)
    assert lay_out_share(ShareJob(render=short), fonts) == b""
