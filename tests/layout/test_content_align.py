"""`content_align = "center"` sets a post of one card in the middle of the content box,
with the panels tied to its rows; the cards of a longer post start at the top; the
`page_number` role's rule is drawn with the page number only."""

from __future__ import annotations

import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Fill, Group, Page, Rect
from inkcard.layout.draw.encode import rasterize
from inkcard.layout.draw.painter import Painter
from inkcard.layout.pages.cardface import content_box
from inkcard.layout.style.resolver import resolve

TWO_LINES = "第一行，很短。\n\n第二行，也很短。\n"
LONG = "\n\n".join(f"第 {n} 段：这篇文章很长，适合收藏后慢慢看。" * 3 for n in range(12))
CARD = (
    'name = "t"\n[roles.card]\npadding = [40, 30, 40, 30]\ncontent_align = "{align}"\n'
    '[roles.quote]\nbackground = "#eeeeee"\n'
)


def _theme(align: str) -> layout.Theme:
    return layout.decode_theme(CARD.format(align=align))


def _pages(fonts: layout.FontBook, theme: layout.Theme, post: str, split: str) -> list[Page]:
    options = layout.RenderOptions(width=440, height=586, split=split, scale=1)
    return layout.layout_pages(post, theme, fonts, options)


def _rows_span(page: Page) -> tuple[float, float]:
    """Where the page draws its first row's top and its last row's bottom."""
    groups = {id(item.items): item.dy for item in page.items if isinstance(item, Group)}
    tops = [groups[id(p.row.items)] for p in page.rows]
    return tops[0], tops[-1] + page.rows[-1].row.height


def _box(theme: layout.Theme) -> Rect:
    return content_box(resolve(theme, None), 440, 586)


@pytest.mark.parametrize("split", ["autoSplit", "noSplit"])
def test_a_short_post_sits_in_the_middle_of_the_content_box(fonts, split: str) -> None:
    theme = _theme("center")
    [page] = _pages(fonts, theme, TWO_LINES, split)
    box = _box(theme)
    top, bottom = _rows_span(page)
    assert top - box.y > 100  # it moved well down
    assert abs((top - box.y) - (box.bottom - bottom)) <= 1.0


def test_with_top_a_short_post_starts_at_the_top_of_the_content_box(fonts) -> None:
    theme = _theme("top")
    [page] = _pages(fonts, theme, TWO_LINES, "autoSplit")
    assert _rows_span(page)[0] == pytest.approx(_box(theme).y)


def test_the_cards_of_a_longer_post_all_start_at_the_top(fonts) -> None:
    theme = _theme("center")
    pages = _pages(fonts, theme, LONG, "autoSplit")
    assert len(pages) > 1
    assert all(_rows_span(p)[0] == pytest.approx(_box(theme).y) for p in pages)


def test_a_quote_panel_moves_with_its_centred_rows(fonts) -> None:
    theme = _theme("center")
    [page] = _pages(fonts, theme, "> 一句引用。\n", "autoSplit")
    panel = next(i for i in page.items if isinstance(i, Fill) and i.rect.width > 100)
    top, bottom = _rows_span(page)
    assert panel.rect.y < top and bottom < panel.rect.bottom
    assert panel.rect.y - _box(theme).y > 100


def _ruled_rows(fonts: layout.FontBook, page: Page, box: Rect) -> int:
    """How many pixel rows of the card's foot (below the text, above the sheet's edge)
    carry a line across most of the text's width."""
    picture = Painter(fonts.typefaces(), scale=1).record(page)
    pixels = rasterize(picture, page.width, page.height, page.background, 1).astype(int)
    white = np.array([255, 255, 255])
    foot = pixels[int(box.bottom) - 12 : int(page.height) - 20, int(box.x) : int(box.right)]
    inked = (np.abs(foot - white).sum(axis=2) > 6).mean(axis=1)
    return int((inked > 0.8).sum())


def test_minimal_draws_the_rule_over_the_folio_only_with_a_page_number(fonts) -> None:
    minimal = themes.load("minimal")
    box = _box(minimal)
    [single] = _pages(fonts, minimal, TWO_LINES, "autoSplit")
    assert _ruled_rows(fonts, single, box) == 0
    several = _pages(fonts, minimal, LONG, "autoSplit")
    assert len(several) > 1
    assert all(_ruled_rows(fonts, p, box) >= 1 for p in several)
