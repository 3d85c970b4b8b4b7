"""Ornaments keep off every text a card sets, not only its rows: an `avoid_text` ornament
keeps off the page number and a brand kit's byline and footer (watercolor's bottom-left
bloom sat under a byline at 3.7:1), and a theme's own glows behind the text panel keep to
its rim (glassmorphism's cyan glow passed behind the fund table's first column)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Gradient, Group, Item, Layer, Rect, Shape
from inkcard.layout.pages.cardface import card_rect, content_box
from inkcard.layout.pages.decor.clearance import TEXT_MARGIN
from inkcard.layout.pages.decor.decorate import Context, build
from inkcard.layout.style.brandkit import BrandKit
from inkcard.layout.style.decorations import Circle
from inkcard.layout.style.resolver import resolve

FUND = Path(__file__).resolve().parents[1] / "cases" / "hard" / "03-fund-explainer.md"
KIT = BrandKit(byline="@墨卡小记 · 每周一篇", footer="关注公众号「墨卡」看更多")
BLOOM = (
    'kind = "circle"\nanchor = "bottom-left"\nx = -20\ny = -20\nradius = 60\n'
    'fill = "#ff0000"\navoid_text = true\n'
)
FAINT = 0.1  # a glow this transparent no longer tints the text over it


def _leaves(items: tuple[Item, ...], dx: float = 0.0, dy: float = 0.0):
    for item in items:
        if isinstance(item, Group):
            yield from _leaves(item.items, dx + item.dx, dy + item.dy)
        elif isinstance(item, Layer):
            yield from _leaves(item.items, dx, dy)
        else:
            yield item, dx, dy


def _discs(items: tuple[Item, ...]) -> list[tuple[float, float, float]]:
    """The red discs among a card's items, where they are drawn."""
    return [
        (x + dx, y + dy, r)
        for item, dx, dy in _leaves(items)
        if isinstance(item, Shape) and item.fill == 0xFFFF0000
        for kind, x, y, r in (op for op in item.ops if op[0] == "O")
    ]


def _footer_runs(items: tuple[Item, ...], below: float) -> list[Rect]:
    """The glyph runs set under `below` (the footer band), an em tall above the baseline."""
    return [
        Rect(dx + min(xs), dy + min(run.ys) - run.size, max(xs) - min(xs) + run.size, run.size)
        for run, dx, dy in _leaves(items)
        for xs in [getattr(run, "xs", ())]
        if isinstance(run, GlyphRun) and run.xs and dy + min(run.ys) > below
    ]


def _touches(disc: tuple[float, float, float], box: Rect) -> bool:
    cx, cy, r = disc
    nearest = (min(max(cx, box.x), box.right), min(max(cy, box.y), box.bottom))
    return math.dist((cx, cy), nearest) < r + TEXT_MARGIN - 0.5


@pytest.mark.parametrize("brand", [KIT, None])
def test_an_ornament_keeps_off_the_footer_band(fonts, brand: BrandKit | None) -> None:
    """A bloom at the bottom-left corner, clear of the rows (the post is short), sat under
    the page number and a brand kit's byline and footer; it now moves off them or is left
    off the card, on every card, with and without a kit."""
    theme = layout.decode_theme(
        'name = "t"\n[roles.card]\npadding = [30, 30, 30, 30]\nfooter_height = 40\n'
        '[roles.page_number]\nformat = "{n} / {total}"\nalign = "left"\n'
        "[[decorations]]\n" + BLOOM
    )
    post = "# 标题\n\n" + "\n\n".join("正文一行。" * 8 for _ in range(14))
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", brand=brand)
    pages = layout.layout_pages(post, theme, fonts, options)
    assert len(pages) > 1
    for page in pages:
        bottom = max(p.y + p.row.height for p in page.rows) + 30.0
        footer = _footer_runs(page.items, bottom)
        assert footer, "the band sets text"
        for disc in _discs(page.items):
            assert not any(_touches(disc, run) for run in footer), (disc, footer)


def _alpha(paint: Gradient, t: float) -> float:
    """The alpha of `paint` at `t` (0..1) along its stops."""
    stops = paint.positions or tuple(i / (len(paint.colors) - 1) for i in range(len(paint.colors)))
    alphas = [(c >> 24 & 0xFF) / 255 for c in paint.colors]
    for (a, one), (b, two) in zip(
        zip(stops, alphas, strict=True), zip(stops[1:], alphas[1:], strict=True), strict=False
    ):
        if t <= b:
            return one + (two - one) * (0.0 if b <= a else (t - a) / (b - a))
    return alphas[-1]


@pytest.mark.parametrize("size", [(440, 586), (1080, 1440), (1600, 900), (500, 500)])
def test_glassmorphisms_own_glows_keep_to_the_panels_rim(fonts, size) -> None:
    """The brief draws two discs behind glassmorphism's glass, at the top-left and the
    bottom-right; the theme adds a cyan glow at the left and a violet one at the right,
    which passed behind the fund table's first column and the ends of lines. Wherever
    they are more than `FAINT` opaque they now stay outside the content box, on the card
    the engine lays out at each size (a larger one at its virtual size, `type_zoom`)."""
    theme = themes.load("glassmorphism")
    styles = resolve(theme, None)
    options = layout.RenderOptions(width=size[0], height=size[1], split="autoSplit")
    page = layout.layout_pages(FUND.read_text("utf-8"), theme, fonts, options)[0]
    assert page.fit is not None
    width, height = size[0] / page.fit.zoom, size[1] / page.fit.zoom
    card = card_rect(styles["card"], width, height)
    content = content_box(styles, width, height)
    glows = [
        d
        for d in styles.decorations
        if isinstance(d, Circle) and d.anchor not in ("top-left", "bottom-right")
    ]
    assert len(glows) == 2
    for deco in glows:
        built = build(deco, Context(card, styles.tokens, fonts))
        [shape] = [item for item, _, _ in _leaves(tuple(built))]
        assert isinstance(shape, Shape) and isinstance(shape.fill, Gradient)
        _, cx, cy, r = shape.ops[0]
        nearest = (min(max(cx, content.x), content.right), min(max(cy, content.y), content.bottom))
        t = math.dist((cx, cy), nearest) / (shape.fill.radius * 2 * r)
        assert _alpha(shape.fill, t) <= FAINT, (deco.anchor, t)


def _panels(page, content: Rect) -> list[Rect]:
    """The filled panels drawn around a card's rows (a callout's box), on the card."""
    boxes = {}
    for placed in page.rows:
        for frame in placed.row.frames:
            if frame.decor.fill is None:
                continue
            top, bottom = content.y + placed.y, content.y + placed.y + placed.row.height
            right = frame.decor.x + frame.decor.width
            _, y0, _, y1 = boxes.get(frame.id, (0.0, top, 0.0, bottom))
            boxes[frame.id] = (frame.decor.x, min(y0, top), right, max(y1, bottom))
    return [Rect(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes.values()]


def test_an_ornament_keeps_off_a_filled_panel(fonts) -> None:
    """An ornament kept off the text rows only sat under a callout's box beside its text
    (art-deco's bottom-left fan under the git post's warning at 500x500, its rays showing
    past the box's left edge): it keeps off a filled panel (here a code block's) as off
    the text, or is left off."""
    theme = layout.decode_theme(  # the code's text 90 px inside its panel, as a callout's
        'name = "t"\n[roles.card]\npadding = [30, 30, 30, 30]\n[roles.code_block]\n'
        "padding = [12, 12, 12, 90]\n[[decorations]]\n" + BLOOM
    )
    code = "\n".join(f"step({n})  # 第 {n} 步" for n in range(20))
    post = "# 标题\n\n```python\n" + code + "\n```\n"
    options = layout.RenderOptions(width=440, height=586, split="autoSplit")
    pages = layout.layout_pages(post, theme, fonts, options)
    content = content_box(resolve(theme, None), 440, 586)
    panels = [box for page in pages for box in _panels(page, content)]
    assert panels, "the code block is a filled panel"
    for page in pages:
        for disc in _discs(page.items):
            assert not any(_touches(disc, box) for box in _panels(page, content)), disc
