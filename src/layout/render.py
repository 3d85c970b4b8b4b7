"""Markdown (or its `Doc`) + a theme + fonts + `RenderOptions` → cards laid out, drawn, encoded.

The engine's entry points: `layout_cards` lays out (no pixels; plain data another process can
draw), `draw_cards` draws and encodes what was laid out, `render_cards` does both with the
budgets checked before each costly step; `layout_share` lays out a long post's second share
elsewhere; `render_covers` and `render_wechat_cover` make covers. Each is a pure function of
its arguments, so its output can be cached by a hash of them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

import msgspec

from .base.aigc import Aigc, visible_text
from .base.boxes import Page
from .base.brandfonts import coverage_note, with_brand_fonts
from .base.fonts import FontBook
from .base.images import Images
from .blocks.parts import Part
from .covers.covers import MAX_COVERS, CoverCrops, cover_pages, wechat_cover, wechat_covers
from .draw.aigcmeta import labelled
from .draw.encode import encode_lossy, encode_pdf, encode_png
from .draw.imagecodec import tones as image_tones
from .draw.painter import Painter
from .flow.budget import OutputLimits
from .flow.shares import Premade
from .limits import (
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    MAX_CARDS,
    image_pixels_beside,
)
from .pages.card import Card, SplitMode, hides_overflow
from .pages.compose import compose, compose_share
from .pages.fitting import best_fit
from .pages.marks.aigclabel import post_text
from .pages.marks.brandmarks import brand_images
from .pages.quality import Quality, measure
from .parse.doc import Doc
from .parse.markdown import parse as parse_markdown
from .parse.mdx import parse_mdx
from .style.brandkit import BrandKit, branded_theme
from .style.resolver import resolve
from .style.schema import Theme

ENGINE_VERSION = "168"  # bump whenever the pixels of an unchanged request may change

OutputFormat = Literal["png", "jpeg", "webp", "pdf"]
FORMATS: tuple[OutputFormat, ...] = get_args(OutputFormat)
Fit = Literal["none", "auto"]
FITS: tuple[Fit, ...] = get_args(Fit)
MEDIA_TYPES: dict[str, str] = {
    "png": "image/png",
    "jpeg": "image/jpeg",
    "webp": "image/webp",
    "pdf": "application/pdf",
}
EXTENSIONS: dict[str, str] = {"png": "png", "jpeg": "jpg", "webp": "webp", "pdf": "pdf"}
DEFAULT_QUALITY = 90  # JPEG/WebP: no visible ringing around text at scale 2


class RenderOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Card size in CSS px, output scale, split mode and overflow handling."""

    width: float = DEFAULT_WIDTH
    height: float = DEFAULT_HEIGHT
    scale: float = 2
    split: SplitMode = "noSplit"
    overflow_hidden: bool = False
    mode: str | None = None
    mdx: bool = False
    max_pages: int = MAX_CARDS
    max_pixels: int | None = None  # refuse (CardTooLarge) before drawing a bigger card
    max_total_pixels: int | None = None  # refuse (TooManyPixels) before drawing more in all
    max_image_pixels: int | None = None  # refuse (ImagesTooLarge) before decoding more
    format: OutputFormat = "png"  # pdf: one document of every card, vector text
    fit: Fit = "none"  # auto: the type scale whose cards score best (`fitting`)
    quality: int = DEFAULT_QUALITY  # 1..100, for jpeg and webp
    aigc: Aigc | None = None  # an AI-content label: visible on every card, and in the files
    brand: BrandKit | None = None  # a creator's marks and fonts on the theme (brandkit.py)


@dataclass(frozen=True, slots=True)
class Rendered:
    """The encoded files of one render and the text each shows, in reading order.

    One file per card, or for `pdf` one file of every card; `alt_texts[i]` is the visible
    text of `files[i]` (see `Page.alt_text`), for the PDF every card's, cards apart by a
    blank line; `qualities[i]` the engine's measure of it (`quality.measure`; None for a
    cover), for the PDF its lowest-scoring card's.
    """

    files: list[bytes]
    alt_texts: list[str]
    qualities: list[Quality | None] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class LaidOut:
    """Laid-out cards and the encoded bytes of their images by `ImageRef.key`: plain data,
    to be drawn by `draw_cards` here or in another process."""

    pages: list[Page]
    images: dict[str, bytes]


def parse_post(markdown: str, mdx: bool = False) -> Doc:
    """The post's `Doc` (blocks and image sources), read as mdxMode Markdown with `mdx`.

    Raises:
        MdxError: With `mdx`, text the component set refuses (names the line).
    """
    return parse_mdx(markdown) if mdx else parse_markdown(markdown)


def layout_cards(
    post: str | Doc,
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    images: Mapping[str, bytes] | None = None,
    premade: Premade | None = None,
) -> LaidOut:
    """Lays out the cards without drawing them or decoding any image.

    `post` is the Markdown, or the `Doc` `parse_post` made of it (then it is not parsed
    again; its `images` are the sources the caller fetched). With `premade` (autoSplit
    only), the blocks another process laid out (`layout_share`) are taken from it.

    Image sizes come from their headers; with `options.max_image_pixels` the distinct
    images are held to it before layout starts. The cards are held to the page and pixel
    limits of `options` as soon as each is known, while they are laid out: a post far over
    a limit is refused after the layout of about as much as the limits allow.

    Raises:
        ImagesTooLarge: The distinct images would decode to more than `max_image_pixels`.
        TooManyPages: More than `options.max_pages` cards.
        CardTooLarge, TooTallForFormat, TooManyPixels: See `render_cards`.
        MdxError: With `options.mdx`, text the component set refuses (names the line).
    """
    # Every card is at least width x height, so a request over budget with one card is
    # refused without laying anything out.
    _limits(options).check([(options.width, options.height)])
    doc = post if isinstance(post, Doc) else parse_post(post, options.mdx)
    budget = Images(images or {}, options.max_image_pixels)
    budget.admit(doc.images)
    card = Card(
        width=options.width,
        height=options.height,
        split=options.split,
        overflow_hidden=hides_overflow(options.split, options.overflow_hidden),
        limits=_limits(options),
        label=_label(doc, options),
    )
    shared = premade if options.split == "autoSplit" else None
    theme, fonts = branded(theme, fonts, options)
    card = replace(card, brand=toned(options.brand))
    styles = resolve(theme, options.mode)
    marks = brand_images(options.brand)  # the kit's logo and images, by key, for draw
    if options.fit == "none":
        pages = compose(doc, styles, fonts, budget, card, shared)
        return LaidOut(pages, {**budget.blobs, **marks} if marks else budget.blobs)

    def lay_out(step: float) -> list[Page]:
        # another process's share was laid out at the theme's own type scale only
        return compose(doc, styles, fonts, budget, replace(card, type_step=step), None)

    pages = best_fit(lay_out)
    return LaidOut(pages, {**budget.blobs, **marks} if marks else budget.blobs)


def toned(kit: BrandKit | None) -> BrandKit | None:
    """`kit` with its background's tones filled in (`draw.image_tones`, once per image):
    the pages measure the wash that keeps text legible over it from them."""
    if kit is None or not kit.background or kit.background_tones:
        return kit
    return msgspec.structs.replace(kit, background_tones=_tones(kit.background))


@functools.lru_cache(maxsize=8)
def _tones(background: bytes) -> tuple[int, ...]:
    return image_tones(background)


def branded(theme: Theme, fonts: FontBook, options: RenderOptions) -> tuple[Theme, FontBook]:
    """The theme and fonts `options.brand` draws with: the branded theme (room for its marks,
    its page-number style and font families) and the book with its faces; unchanged
    without a brand.

    Raises:
        FontError: A font of the kit that Skia or HarfBuzz cannot read.
    """
    kit = options.brand
    if kit is None:
        return theme, fonts
    book = with_brand_fonts(fonts, kit.font_families())
    return branded_theme(theme, kit, options.mode), book


def layout_share(
    doc: Doc, theme: Theme, fonts: FontBook, options: RenderOptions, start: int
) -> list[Part | None]:
    """The second share of an autoSplit post (`share_start`), laid out for the `premade`
    of the `layout_cards` of the same arguments in another process: plain data.

    Raises:
        TooManyPages, CardTooLarge, TooTallForFormat, TooManyPixels: The share alone is
            already over a limit (the `layout_cards` that waits for it lays it out itself).
    """
    card = Card(
        options.width,
        options.height,
        "autoSplit",
        limits=_limits(options),
        label=_label(doc, options),
        brand=options.brand,  # with a label, the kit's marks move it (aigclabel: stacked)
    )
    theme, fonts = branded(theme, fonts, options)
    return compose_share(doc, resolve(theme, options.mode), fonts, card, start)


def _label(doc: Doc, options: RenderOptions) -> str:
    """The visible AI-content label of `doc`'s cards (none without `options.aigc`): the
    same in `layout_cards` and in `layout_share`, whose rows must fit the same content box."""
    return visible_text(options.aigc, post_text(doc)) if options.aigc else ""


def layout_pages(
    post: str | Doc,
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    images: Mapping[str, bytes] | None = None,
) -> list[Page]:
    """The pages of `layout_cards` (raises what it raises)."""
    return layout_cards(post, theme, fonts, options, images).pages


def render(
    post: str | Doc,
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    images: Mapping[str, bytes] | None = None,
) -> list[bytes]:
    """The files of `render_cards` (one PNG per card by default)."""
    return render_cards(post, theme, fonts, options, images).files


def render_cards(
    post: str | Doc,
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    images: Mapping[str, bytes] | None = None,
) -> Rendered:
    """One image per card in `options.format`, `options.scale` times the card's CSS size
    (a `pdf` is one document, a page per card at its CSS size in points), with its alt text.

    The work is bounded before it starts: image pixels from headers before layout, output
    pixels and cards before layout (for the smallest possible card), during it (as the
    rows add up, see `layout_cards`) and before drawing.

    Raises:
        ImagesTooLarge: See `layout_cards`.
        TooManyPages: See `layout_cards`.
        CardTooLarge: One card would have more than `options.max_pixels` pixels.
        TooTallForFormat: One card is longer on a side than `options.format` holds.
        TooManyPixels: All cards together would have more than `options.max_total_pixels`.
    """
    laid = layout_cards(post, theme, fonts, options, images)
    return draw_cards(laid.pages, laid.images, fonts, options)


def draw_cards(
    pages: list[Page], images: Mapping[str, bytes], fonts: FontBook, options: RenderOptions
) -> Rendered:
    """The cards `layout_cards` laid out, drawn and encoded as `render_cards` says; each
    distinct image in `images` (bytes by `ImageRef.key`) is decoded once, on first use.

    Raises:
        CardTooLarge, TooManyPixels: See `render_cards`; checked before any pixel is drawn.
        ImagesTooLarge: The images drawn would decode to more than `max_image_pixels`.
    """
    largest = _limits(options).check([(page.width, page.height) for page in pages])
    image_pixels = options.max_image_pixels
    if options.format != "pdf":  # raster: the card and its images share one memory budget
        beside = image_pixels_beside(largest)
        image_pixels = beside if image_pixels is None else min(image_pixels, beside)
    if options.brand is not None:
        fonts = with_brand_fonts(fonts, options.brand.font_families())
    painter = Painter(
        fonts.typefaces(), scale=options.scale, images=images, max_image_pixels=image_pixels
    )
    cards = [(painter.record(page), page.width, page.height, page.background) for page in pages]
    texts = [page.alt_text() for page in pages]
    measured = [measure(page) for page in pages]
    if options.brand is not None:
        font = options.brand.body_font or options.brand.heading_font
        notes = [coverage_note(fonts, font, text) for text in texts]
        measured = [_noted(q, note) for q, note in zip(measured, notes, strict=True)]
    if options.format == "pdf":
        text = "\n\n".join(text for text in texts if text)
        return Rendered(_labelled([encode_pdf(cards)], pages, options), [text], [_lowest(measured)])
    if options.format == "png":
        files = [encode_png(*card, options.scale) for card in cards]
    else:
        files = [
            encode_lossy(*card, options.scale, codec=options.format, quality=options.quality)
            for card in cards
        ]
    return Rendered(_labelled(files, pages, options), texts, measured)


def _labelled(files: list[bytes], pages: list[Page], options: RenderOptions) -> list[bytes]:
    """The files with the AI-content label of `options` in their metadata (if it has one)."""
    aigc = options.aigc
    if aigc is None:
        return files
    sizes = [
        (math.ceil(page.width * options.scale), math.ceil(page.height * options.scale))
        for page in pages
    ]
    return [
        labelled(data, options.format, aigc, size) for data, size in zip(files, sizes, strict=False)
    ]


def _noted(quality: Quality | None, note: str | None) -> Quality | None:
    """`quality` with `note` added to its notes (unchanged without either)."""
    if quality is None or note is None:
        return quality
    return replace(quality, notes=(*quality.notes, note))


def _lowest(measured: list[Quality | None]) -> Quality | None:
    known = [quality for quality in measured if quality is not None]
    return min(known, key=lambda quality: quality.score) if known else None


def render_covers(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    options: RenderOptions,
    count: int = 1,
    *,
    wechat: bool = False,
) -> Rendered:
    """`count` covers of `title` (coverlayouts.py: one layout each) at `options`' size, scale
    and format, drawn and encoded as `draw_cards` does; held to the same pixel limits.
    `wechat`: the platform's covers (`wechat_covers`: 2.35:1, the title whole in the centred
    square), `options`' size being 900 x 383.

    Raises:
        CardTooLarge, TooTallForFormat, TooManyPixels: See `render_cards`.
    """
    covers = max(1, min(count, MAX_COVERS))
    _limits(options).check([(options.width, options.height)] * covers)
    label = visible_text(options.aigc, title) if options.aigc else ""
    theme, fonts = branded(theme, fonts, options)
    marks = brand_images(options.brand)
    if wechat:
        pages = wechat_covers(
            title,
            keywords,
            theme,
            fonts,
            options.mode,
            count=covers,
            label=label,
            brand=toned(options.brand),
        )
        return draw_cards(pages, marks, fonts, options)
    pages = cover_pages(
        title,
        keywords,
        theme,
        fonts,
        width=options.width,
        height=options.height,
        count=covers,
        mode=options.mode,
        label=label,
        brand=toned(options.brand),
    )
    return draw_cards(pages, marks, fonts, options)


def render_wechat_cover(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    mode: str | None = None,
    *,
    mark_crop: bool = False,
    aigc: Aigc | None = None,
) -> tuple[bytes, CoverCrops]:
    """An article's cover for the platform: a 900 x 383 PNG whose centred square holds the
    title, and its `pic_crop_235_1` / `pic_crop_1_1` boxes (`CoverCrops`); `mark_crop`
    outlines the square crop (for a gallery, never for the platform); `aigc` labels it as
    `RenderOptions.aigc` does."""
    label = visible_text(aigc, title) if aigc else ""
    page, crops = wechat_cover(
        title, keywords, theme, fonts, mode, mark_crop=mark_crop, label=label
    )
    options = RenderOptions(width=page.width, height=page.height, scale=1, aigc=aigc)
    return draw_cards([page], {}, fonts, options).files[0], crops


def _limits(options: RenderOptions) -> OutputLimits:
    """What `options` allow one render to make (see `budget.OutputLimits.check`)."""
    return OutputLimits(
        scale=options.scale,
        format=options.format,
        max_pages=options.max_pages,
        max_pixels=options.max_pixels,
        max_total_pixels=options.max_total_pixels,
    )
