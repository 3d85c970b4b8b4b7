"""A 1600x900 slide is set in type a phone 360 px wide shows at 10 px, where its post allows.

At the zoom that keeps a slide's content box 240 px tall, apple-notes' 16 px body read at
9.3 px on a phone (the quality report's `smallest_text`). A slide is now drawn larger until
the body reads at 10 px (`zoom.LEGIBLE_BODY_PX`), paying with slides; a post that then
breaks a page-break rule the roomier zoom spares, or leaves a card before the last half
empty where it does not, keeps the roomier zoom.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.pages.quality import measure

# Paragraphs of two lines at the legible zoom, which no set of breaks splits: a longer
# paragraph split over slides is a fault a smaller zoom may clear (`zoom.split_paragraphs`).
SENTENCE = "这篇文章讲的是一个简单的道理：好的卡片在手机上也要看得清楚，字太小就没有人读。"
PARA = SENTENCE * 2
POST = "# 看得清楚\n\n" + "\n\n".join([PARA] * 8)
CHENGDU = Path(__file__).resolve().parents[1] / "cases" / "hard" / "01-chengdu-travel.md"
SLIDE = layout.RenderOptions(width=1600, height=900, split="autoSplit")


@pytest.mark.parametrize("theme_name", ["apple-notes", "minimal", "warm"])
def test_a_slides_body_reads_at_10_px_on_a_phone(fonts, theme_name: str) -> None:
    pages = layout.layout_pages(POST, themes.load(theme_name), fonts, SLIDE)
    for page in pages:
        quality = measure(page)
        assert quality is not None and quality.smallest_text >= 9.95, quality
    # drawn just legible, not larger: the slides are paid for in number
    assert min(measure(page).smallest_text for page in pages) < 10.5


def test_a_post_the_legible_zoom_would_break_keeps_the_roomier_one(fonts) -> None:
    """The Chengdu guide's Day 2 heading, table and note fill a roomier slide (its rows
    set tight); at the legible zoom the table split 2 | 2 (`kept_lines_parted`)."""
    pages = layout.layout_pages(
        CHENGDU.read_text("utf-8"), themes.load("apple-notes"), fonts, SLIDE
    )
    holding = [
        p
        for p in pages
        if any("月亮产房" in r.row.text or "杜甫草堂" in r.row.text for r in p.rows)
    ]
    assert len(holding) == 1
    assert not any(measure(page).broken_rules for page in pages)


def test_a_post_the_legible_zoom_would_leave_half_empty_keeps_the_roomier_one(fonts) -> None:
    """Six paragraphs under a title: on legible apple-notes slides one card before the
    last was left under 55 % full; slides 4 % smaller fill every card but the last (the
    zoom ladder stops there, above the roomy zoom's 9.3 px)."""
    post = "# 看得清楚\n\n" + "\n\n".join([SENTENCE * 3] * 6)
    pages = layout.layout_pages(post, themes.load("apple-notes"), fonts, SLIDE)
    assert all(measure(page).fill >= 0.55 for page in pages[:-1])
    assert 9.0 <= min(measure(page).smallest_text for page in pages) < 9.95


def test_a_slide_that_hides_its_overflow_keeps_what_the_roomier_zoom_shows(fonts) -> None:
    """hrSplit with overflow hidden: a heading, four items and a line fill a roomier slide;
    at the legible zoom the line was cut off. The slide keeps the zoom that shows it all."""
    part = "## 小标题\n\n" + "\n".join(f"- 第{i}条：短句一行" for i in range(4))
    options = layout.RenderOptions(width=1600, height=900, split="hrSplit", overflow_hidden=True)
    [page] = layout.layout_pages(
        f"{part}\n\n一行的说明文字。", themes.load("apple-notes"), fonts, options
    )
    assert page.fit is not None and not page.fit.hidden
    assert page.rows[-1].row.text == "一行的说明文字。"
