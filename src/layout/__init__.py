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
    CARD_LIMITS,
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
from .images import Images, ImagesTooLarge
from .markdown import clean_text, image_sources, parse
from .mdx import MdxError, parse_mdx
from .sheet import SheetError, Tile, contact_sheet
from .style import Theme, ThemeError, decode_theme, resolve

ENGINE_VERSION = "3"  # bump whenever the pixels of an unchanged request may change

__all__ = [
    "CARD_LIMITS",
    "DEFAULT_FONTS_DIR",
    "ENGINE_VERSION",
    "MAX_CARDS",
    "SPLIT_MODES",
    "CardTooLarge",
    "FontBook",
    "FontError",
    "ImagesTooLarge",
    "MdxError",
    "Page",
    "RenderError",
    "RenderOptions",
    "SheetError",
    "SplitMode",
    "Theme",
    "ThemeError",
    "Tile",
    "TooManyPages",
    "TooManyPixels",
    "clean_text",
    "contact_sheet",
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
    max_total_pixels: int | None = None  # refuse (TooManyPixels) before drawing more in all
    max_image_pixels: int | None = None  # refuse (ImagesTooLarge) before decoding more


class TooManyPixels(RenderError):
    """The cards of one render together would have more pixels than the caller's budget."""

    def __init__(self, pixels: int, limit: int) -> None:
        super().__init__(f"the cards would have {pixels:,} pixels in all, more than {limit:,}")
        self.pixels = pixels
        self.limit = limit


def layout_pages(
    markdown: str,
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    images: Mapping[str, bytes] | None = None,
) -> list[Page]:
    """Lays out the cards without drawing them.

    Every distinct image is decoded at most once; with `options.max_image_pixels` the sizes
    of all of them are read from their headers and held to it before the first is decoded.

    Raises:
        ImagesTooLarge: The distinct images would decode to more than `max_image_pixels`.
        TooManyPages: More than `options.max_pages` cards.
        MdxError: With `options.mdx`, text the component set refuses (names the line).
    """
    doc = parse_mdx(markdown) if options.mdx else parse(markdown)  # refuse bad MDX first
    budget = Images(images or {}, options.max_image_pixels)
    budget.admit(image_sources(markdown))
    card = Card(
        width=options.width,
        height=options.height,
        split=options.split,
        overflow_hidden=hides_overflow(options.split, options.overflow_hidden),
        max_pages=options.max_pages,
    )
    return compose(doc, resolve(theme, options.mode), fonts, budget, card)


def render(
    markdown: str,
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    images: Mapping[str, bytes] | None = None,
) -> list[bytes]:
    """One PNG per card, `options.scale` times the card's CSS size.

    The work is bounded before it starts: image pixels from headers before decoding, output
    pixels after layout (and, for the smallest possible card, before it) and before drawing.

    Raises:
        ImagesTooLarge: See `layout_pages`.
        TooManyPages: See `layout_pages`.
        CardTooLarge: One card would have more than `options.max_pixels` pixels.
        TooManyPixels: All cards together would have more than `options.max_total_pixels`.
    """
    # Every card is at least width x height, so a request over budget with one card is
    # refused without laying anything out.
    _check_pixels([(options.width, options.height)], options)
    pages = layout_pages(markdown, theme, fonts, options, images)
    _check_pixels([(page.width, page.height) for page in pages], options)
    painter = Painter(fonts.typefaces(), scale=options.scale)
    return [
        encode_png(painter.record(page), page.width, page.height, page.background, options.scale)
        for page in pages
    ]


def _check_pixels(cards: list[tuple[float, float]], options: RenderOptions) -> None:
    """Holds cards of (width, height) CSS px, drawn at `options.scale`, to the pixel budgets.

    Raises:
        CardTooLarge: One card is over `options.max_pixels`.
        TooManyPixels: All of them together are over `options.max_total_pixels`.
    """
    total = 0
    for css_width, css_height in cards:
        width, height = round(css_width * options.scale), round(css_height * options.scale)
        if options.max_pixels is not None and width * height > options.max_pixels:
            raise CardTooLarge(width, height, options.max_pixels)
        total += width * height
    if options.max_total_pixels is not None and total > options.max_total_pixels:
        raise TooManyPixels(total, options.max_total_pixels)
