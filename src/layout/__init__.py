"""Inkcard's card engine: Markdown → laid-out pages → PNG bytes, without a browser.

Stages (one module each): markdown → style.resolve → shape → linebreak → inline/flow →
paginate → compose → draw → png. `render` is a pure function of its arguments, so it can
run in another process and its output can be cached by a hash of them.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from .boxes import Page
from .compose import (
    MAX_CARDS,
    SPLIT_MODES,
    Card,
    CardTooLarge,
    RenderError,
    SplitMode,
    TooManyPages,
    compose,
    hides_overflow,
)
from .draw import Painter, encode_png
from .fonts import DEFAULT_FONTS_DIR, FontBook, FontError
from .markdown import image_sources, parse
from .style import Theme, ThemeError, decode_theme, resolve

ENGINE_VERSION = "1"  # bump whenever the pixels of an unchanged request may change

__all__ = [
    "DEFAULT_FONTS_DIR",
    "ENGINE_VERSION",
    "MAX_CARDS",
    "SPLIT_MODES",
    "CardTooLarge",
    "FontBook",
    "FontError",
    "Page",
    "RenderError",
    "RenderOptions",
    "SplitMode",
    "Theme",
    "ThemeError",
    "TooManyPages",
    "decode_theme",
    "hides_overflow",
    "image_sources",
    "layout_pages",
    "render",
]


class RenderOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Card size in CSS px, output scale, split mode and overflow handling."""

    width: float = 440
    height: float = 586
    scale: float = 2
    split: SplitMode = "noSplit"
    overflow_hidden: bool = False
    mode: str | None = None
    mdx: bool = False
    max_pages: int = MAX_CARDS
    max_pixels: int | None = None  # refuse (CardTooLarge) before drawing a bigger card


def layout_pages(
    markdown: str,
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    images: Mapping[str, bytes] | None = None,
) -> list[Page]:
    """Lays out the cards without drawing them."""
    card = Card(
        width=options.width,
        height=options.height,
        split=options.split,
        overflow_hidden=hides_overflow(options.split, options.overflow_hidden),
        max_pages=options.max_pages,
    )
    return compose(parse(markdown), resolve(theme, options.mode), fonts, images or {}, card)


def render(
    markdown: str,
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    images: Mapping[str, bytes] | None = None,
) -> list[bytes]:
    """One PNG per card, `options.scale` times the card's CSS size."""
    pages = layout_pages(markdown, theme, fonts, options, images)
    if options.max_pixels is not None:
        for page in pages:
            width, height = round(page.width * options.scale), round(page.height * options.scale)
            if width * height > options.max_pixels:
                raise CardTooLarge(width, height, options.max_pixels)
    painter = Painter(fonts.typefaces())
    return [
        encode_png(painter.record(page), page.width, page.height, page.background, options.scale)
        for page in pages
    ]
