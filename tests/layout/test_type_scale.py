"""Type that follows the card: a card larger than the 3:4 default reads like the default
card zoomed, not like small print; a theme may opt out; the output pixels stay the same."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group, Item, Page
from inkcard.layout.draw.encode import rasterize
from inkcard.layout.draw.painter import Painter
from inkcard.layout.pages.compose import type_zoom
from inkcard.layout.pages.quality import READABLE_PX, measure
from inkcard.layout.pages.slidetype import at_least
from inkcard.layout.pages.zoom import phone_floor
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.schema import Style

PARAGRAPH = "这篇文章很长，适合收藏后慢慢看。" * 12
NO_SCALE = layout.decode_theme('name = "no-scale"\n[roles.card]\ntype_scale = "none"\n')


def _runs(items: tuple[Item, ...], zoom: float = 1.0) -> list[tuple[GlyphRun, float]]:
    """Every glyph run with the scale it is drawn at (the groups it sits in)."""
    found: list[tuple[GlyphRun, float]] = []
    for item in items:
        if isinstance(item, GlyphRun):
            found.append((item, zoom))
        elif isinstance(item, Group):
            found.extend(_runs(item.items, zoom * item.scale))
        elif hasattr(item, "items"):
            found.extend(_runs(item.items, zoom))
    return found


def _body_size(page: Page) -> float:
    """The drawn size of the body text (the most common run size)."""
    sizes = [round(run.size * zoom, 2) for run, zoom in _runs(page.items)]
    return max(set(sizes), key=sizes.count)


def _first_line(page: Page) -> str:
    return next(placed.row.text for placed in page.rows if placed.row.text)


def _page(
    fonts: layout.FontBook, theme: layout.Theme, width: float, height: float, post: str = PARAGRAPH
) -> Page:
    options = layout.RenderOptions(width=width, height=height, split="autoSplit", scale=1)
    return layout.layout_pages(post, theme, fonts, options)[0]


@pytest.mark.parametrize(
    ("width", "height", "zoom"),
    [
        (440, 586, 1.0),
        (500, 500, 1.0),
        (440, 782, 1.0),
        (360, 640, 1.0),
        (595, 842, 595 / 440),
        (1080, 1440, 1080 / 440),
        (1080, 1920, 1080 / 440),
        (1080, 1080, 1080 / 520),  # a square card: 520 virtual px wide, as a phone shows it
        (1600, 900, 1600 / 520),  # a slide: 520 wide, 292 tall (no padding: over 240)
        (3000, 400, 400 / 200),  # a banner, its body small on a phone: content 200 tall
    ],
)
def test_the_zoom_of_each_card_size(width: float, height: float, zoom: float) -> None:
    assert type_zoom(Style(type_scale="auto"), width, height) == pytest.approx(zoom)
    assert type_zoom(Style(type_scale="none"), width, height) == 1.0


def test_a_slide_is_zoomed_until_its_body_reads_at_10_px_on_a_phone() -> None:
    """A 1600x900 slide with 110 px of chrome (apple-notes) drew at 900 / 350 (its content
    box 240 tall), its 16 px body 9.3 px on a phone 360 px wide; now at 2.78, 10 px. A
    17 px body needs less. The roomier zoom stays the fallback (`legible=False`)."""
    chrome = Style(type_scale="auto", padding=(40.0, 24.0, 40.0, 24.0), header_height=30.0)
    assert type_zoom(chrome, 1600, 900, legible=False) == pytest.approx(900 / 350)
    zoom = type_zoom(chrome, 1600, 900, 16.0)
    assert 16.0 * zoom * 360 / 1600 == pytest.approx(10.0)
    assert type_zoom(chrome, 1600, 900, 17.0) < zoom
    assert type_zoom(chrome, 1080, 1080) == pytest.approx(1080 / 520)  # 11 px already


@pytest.mark.parametrize(("width", "height"), [(500, 500), (440, 586), (360, 640), (600, 800)])
def test_a_portrait_or_square_body_reads_11_px_on_a_phone(width: float, height: float) -> None:
    """A 500x500 card shows at 0.72 on a phone 360 px wide: at zoom 1 a 15-px body read
    10.8 px, under the quality report's 11; it is zoomed until it reads 11. A 16-px body
    already does, and a card with little room keeps its content box."""
    for body in (14.0, 15.0, 16.0):  # what the built-in themes set
        zoom = type_zoom(Style(type_scale="auto"), width, height, body)
        assert body * zoom * min(1.0, 360 / width) >= 11.0 - 1e-9
    assert type_zoom(Style(type_scale="auto"), 500, 500, 16.0) == 1.0
    # a theme that sets its body small on the default card keeps it (the card made up for)
    assert type_zoom(Style(type_scale="auto"), 440, 586, 10.0) == 1.0
    assert type_zoom(Style(type_scale="auto"), 500, 500, 10.0) == pytest.approx(500 / 440)
    cramped = Style(type_scale="auto", padding=(120.0, 24.0, 120.0, 24.0))
    assert type_zoom(cramped, 500, 500, 14.0) == pytest.approx(500 / 480)  # 240 of content


def test_a_thick_frame_costs_a_wide_card_zoom_not_lines() -> None:
    """The content box of a zoomed wide card keeps 240 virtual px between the theme's
    padding, header and footer: pop-art's frame (122 px of padding, 40 of header and
    footer) draws 1600x900 at 900 / 402, where a bound on the card's height alone left it
    130 px (five lines)."""
    framed = Style(type_scale="auto", padding=(64.0, 44.0, 58.0, 36.0))
    framed = replace(framed, header_height=18.0, footer_height=22.0)
    assert type_zoom(framed, 1600, 900, legible=False) == pytest.approx(900 / 402)
    assert 900 / type_zoom(framed, 1600, 900, legible=False) - 162 == pytest.approx(240)
    # zoomed for a legible body, the content box keeps at least 200 px (8.9 px body)
    assert 900 / type_zoom(framed, 1600, 900) - 162 == pytest.approx(200)


def test_a_big_card_reads_like_the_default_one_zoomed(
    fonts: layout.FontBook, apple_notes: layout.Theme
) -> None:
    small = _page(fonts, apple_notes, 440, 586)
    big = _page(fonts, apple_notes, 1080, 1440)
    assert (big.width, big.height) == (1080, 1440)
    assert _body_size(big) / _body_size(small) == pytest.approx(1080 / 440, rel=0.01)
    assert abs(len(_first_line(big)) - len(_first_line(small))) <= 2


def test_a_wide_card_keeps_lines_a_reader_can_follow(
    fonts: layout.FontBook, apple_notes: layout.Theme
) -> None:
    line = _first_line(_page(fonts, apple_notes, 1600, 900))
    assert 25 <= len(line) <= 48  # a 16:9 slide: about 45 CJK characters, not 100
    latin = "Type that follows the card reads well at every size of card. " * 8
    assert 45 <= len(_first_line(_page(fonts, apple_notes, 1600, 900, latin))) <= 85


def test_a_theme_may_keep_its_type_at_its_px_size(fonts: layout.FontBook) -> None:
    assert _body_size(_page(fonts, NO_SCALE, 1080, 1440)) == 16.0
    assert _body_size(_page(fonts, themes.load("apple-notes"), 1080, 1440)) > 16.0


def test_the_zoomed_card_has_the_pixels_asked_and_their_limits(
    fonts: layout.FontBook, apple_notes: layout.Theme
) -> None:
    options = layout.RenderOptions(width=1080, height=1440, scale=2, split="autoSplit")
    [png, *_] = layout.render(PARAGRAPH, apple_notes, fonts, options)
    assert png[16:24] == (2160).to_bytes(4, "big") + (2880).to_bytes(4, "big")
    limited = layout.RenderOptions(
        width=1080, height=1440, scale=2, split="autoSplit", max_pixels=2160 * 2880 - 1
    )
    with pytest.raises(layout.CardTooLarge):
        layout.render(PARAGRAPH, apple_notes, fonts, limited)


def test_a_growing_card_keeps_the_asked_width(
    fonts: layout.FontBook, apple_notes: layout.Theme
) -> None:
    options = layout.RenderOptions(width=1080, height=1440, scale=1)
    [page] = layout.layout_pages(PARAGRAPH * 8, apple_notes, fonts, options)
    assert page.width == 1080 and page.height > 1440


@pytest.mark.parametrize("theme", ["cyberpunk", "business", "art-deco"])
def test_a_zoomed_static_layer_is_as_sharp_as_its_drawing(
    fonts: layout.FontBook, theme: str
) -> None:
    """Costly static layers are rasterized once: at the output scale times the zoom, so
    that they match drawing the layer itself, not a blurred enlargement of small pixels."""
    page = _page(fonts, themes.load(theme), 1080, 1440)
    kept = Painter(fonts.typefaces(), scale=1).record(page)
    drawn = Painter(fonts.typefaces(), scale=None).record(page)
    a = rasterize(kept, page.width, page.height, page.background, 1).astype(np.int16)
    b = rasterize(drawn, page.width, page.height, page.background, 1).astype(np.int16)
    assert np.abs(a - b).max() <= 16  # dithering moves a few levels; a blur far more


@pytest.mark.parametrize(
    ("width", "height", "floor"),
    [(500, 500, 11 * 500 / 360), (440, 586, 0.0), (1080, 1440, 0.0), (360, 640, 0.0)],
)
def test_only_a_card_a_phone_shows_smaller_than_the_default_has_a_floor(
    width: float, height: float, floor: float
) -> None:
    """At 500x500 (zoom 1 for a 16-px body) a virtual px reads 0.72 px on a phone, less
    than on the default card (0.82): small text is set at least 15.3 px there. The default
    card, one zoomed like it (1080x1440) and a phone-sized one keep the theme's sizes; a
    slide has its own floor (slidetype.slide_styles)."""
    zoom = type_zoom(Style(type_scale="auto"), width, height, 16.0)
    assert phone_floor(width, height, zoom) == pytest.approx(floor)
    assert phone_floor(1600, 900, type_zoom(Style(type_scale="auto"), 1600, 900, 16.0)) == 0.0


def test_a_small_cards_code_inline_code_and_cells_read_11_px_on_a_phone(
    fonts: layout.FontBook,
) -> None:
    """The asyncio tutorial (code blocks, inline code) and the fund explainer (a table)
    at 500x500: their code and cells read 9.9 to 10.4 px on a phone before; now none of
    their text reads under 11 px (the default card is untouched: its code reads 10.6)."""
    hard = Path(__file__).resolve().parents[1] / "cases" / "hard"
    square = layout.RenderOptions(width=500, height=500, split="autoSplit")
    for post, theme in (("02-asyncio-tutorial", "brandA"), ("03-fund-explainer", "business")):
        text = (hard / f"{post}.md").read_text("utf-8")
        cards = layout.layout_pages(text, themes.load(theme), fonts, square)
        smallest = min(measured.smallest_text for card in cards if (measured := measure(card)))
        assert smallest >= READABLE_PX - 0.05, (post, theme, smallest)


def test_raising_small_text_raises_inline_code_too() -> None:
    """Inline code's size lives in the inline knobs, not the block roles: both rise."""
    styles = resolve(themes.load("warm"), None)  # inline code 13.5 px, code blocks 13
    raised = at_least(styles, 15.0)
    assert raised.inline["inline_code"]["size"] == 15.0
    assert raised["code_block"].size == 15.0 and raised["table"].size >= 15.0
    assert raised["body"].size == styles["body"].size  # only the small roles
    assert at_least(styles, 10.0).inline["inline_code"]["size"] == 13.5  # never smaller
