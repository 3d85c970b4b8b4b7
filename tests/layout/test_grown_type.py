"""A short post spread thin over cards each half empty is set in larger type
(`pages/typesteps.grown_type`): the Kyoto cafés at 1080x1440 took two cards 72 and 56 %
full, the lower third of each blank, in 28 of 30 theme-modes (sixth look, rated 3/5: "set
the body and headings 15-20 % larger"). Only the text grows: the card's zoom, and with it
the frame, its ornaments and the page number, stay the theme's."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Page
from inkcard.layout.pages.quality import measure
from inkcard.layout.pages.typesteps import GROW_STEPS, THIN
from inkcard.layout.pages.zoom import type_zoom
from inkcard.layout.style.resolver import resolve

CASES = Path(__file__).resolve().parents[1] / "cases"
KYOTO = (CASES / "hard" / "18-cafe-kyoto.md").read_text("utf-8")
TIPS = (CASES / "posts" / "02-python-tips-mixed.md").read_text("utf-8")
RECIPE = (CASES / "hard" / "07-recipe.md").read_text("utf-8")
PORTRAIT = layout.RenderOptions(width=1080, height=1440, split="autoSplit")
SQUARE = layout.RenderOptions(width=500, height=500, split="autoSplit")


def _cards(md: str, theme: str, options: layout.RenderOptions) -> list[Page]:
    return layout.layout_pages(md, themes.load(theme), layout.FontBook.load(), options)


def _body_px(pages: list[Page]) -> float:
    """The size the last card's first paragraph is set at (virtual px; a title card's lead
    may be set larger, as the post's cover)."""
    for page in reversed(pages):
        for placed in page.rows:
            if placed.row.source and placed.row.source[-1][0] == "Paragraph":
                return next(i.size for i in placed.row.items if isinstance(i, GlyphRun))
    raise AssertionError("no paragraph")


def _fills(pages: list[Page]) -> list[float]:
    return [quality.fill for page in pages if (quality := measure(page)) is not None]


@pytest.mark.parametrize("theme", ["warm", "apple-notes", "coil-notebook", "glassmorphism"])
def test_a_short_post_spread_thin_is_set_larger_on_as_many_cards(theme: str) -> None:
    """Two cards still, now filled 0.78 or more on average (0.64-0.7 before), the body up
    to `GROW_STEPS[0]` of the theme's; the zoom the card's own."""
    pages = _cards(KYOTO, theme, PORTRAIT)
    fills = _fills(pages)
    assert len(pages) == 2
    assert sum(fills) / len(fills) >= 0.78 > THIN, fills
    styles = resolve(themes.load(theme), None)
    body = styles["body"].size
    assert body * 1.04 < _body_px(pages) <= body * GROW_STEPS[0] + 1e-6
    own = type_zoom(styles["card"], PORTRAIT.width, PORTRAIT.height, body)
    assert {page.fit.zoom for page in pages if page.fit} == {own}


def test_a_post_with_code_keeps_the_themes_type() -> None:
    """The Python tips at 500x500 (a title card 42 % full, then two at 78-80 %) set 1.2
    larger filled card 1 but wrapped three of their eight code lines under a wrap mark:
    a code line is the writer's, not the measure's, so a post with code keeps its type."""
    pages = _cards(TIPS, "apple-notes", SQUARE)
    assert _body_px(pages) == resolve(themes.load("apple-notes"), None)["body"].size


def test_larger_type_parts_no_block_the_themes_own_keeps_whole() -> None:
    """business's recipe at 440x586 (card 1 90 % full, the closing section alone on card 2,
    37 %) filled card 2 at 1.1 by parting the four steps 2 | 2: it keeps its own type."""
    pages = _cards(RECIPE, "business", layout.RenderOptions(split="autoSplit"))
    assert _body_px(pages) == resolve(themes.load("business"), None)["body"].size
    assert "倒回鸡蛋" in pages[0].alt_text()
