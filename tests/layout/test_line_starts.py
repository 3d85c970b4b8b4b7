"""No line of a card opens with closing punctuation or an arrow, whatever the theme's measure.

A URL is held whole (`units.keep_whole`); where it filled its line and the writer typed a
space before the Chinese comma after it ("…/docs/overview ，其他…"), the break fell after
the space and "，" opened the next line in art-deco at 440x586 (a post of our own, the
subscription FAQ). The URL now breaks after one of its own marks (`linebreak._inside_word`).

The FAQ's path of steps (设置 → Apple ID → 订阅 → ChatGPT → 取消订阅) opened a list item's
second line with "→ 取消订阅" in minimal, notebook and art-deco at 440x586 (thirteenth
look): the arrow ends its line with the step before it (`units.keep_whole`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.text.opportunities import ARROWS, Brk, classify

POST = Path(__file__).resolve().parents[1] / "cases" / "hard" / "19-faq-subscription.md"
CLOSERS = (Brk.CL, Brk.CLW)


@pytest.mark.parametrize("theme", ["art-deco", "pop-art", "apple-notes", "traditional-chinese"])
@pytest.mark.parametrize("size", [(440, 586), (500, 500)])
def test_no_line_opens_with_a_closing_mark(theme: str, size: tuple[int, int]) -> None:
    width, height = size
    options = layout.RenderOptions(width=width, height=height, split="autoSplit")
    pages = layout.layout_pages(
        POST.read_text("utf-8"), themes.load(theme), layout.FontBook.load(), options
    )
    starts = [placed.row.text.lstrip()[:1] for page in pages for placed in page.rows]
    opened = [start for start in starts if start and classify(start) in CLOSERS]
    assert not opened, opened
    assert any("overview" in placed.row.text for page in pages for placed in page.rows)


@pytest.mark.parametrize("theme", ["minimal", "notebook", "art-deco", "warm"])
@pytest.mark.parametrize("size", [(440, 586), (500, 500), (1080, 1440)])
def test_no_line_opens_with_an_arrow(theme: str, size: tuple[int, int]) -> None:
    width, height = size
    options = layout.RenderOptions(width=width, height=height, split="autoSplit")
    pages = layout.layout_pages(
        POST.read_text("utf-8"), themes.load(theme), layout.FontBook.load(), options
    )
    rows = [placed.row.text.strip() for page in pages for placed in page.rows]
    assert not [row for row in rows if row[:1] in ARROWS]
    assert sum(row.count("→") for row in rows) == 7  # every step of the paths is drawn
