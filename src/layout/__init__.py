"""Inkcard's card engine: Markdown → laid-out pages → image files, without a browser.

The engine in stages, each a package that imports only the stages below it (the order here,
bottom first; `tests/test_architecture.py` holds it):

    base       the sized records every stage passes on (`Row`, `Page`, `ImageRef`) and placing
    parse      Markdown (and mdxMode, inline HTML) → `Doc`, our block tree
    style      theme file → checked schema → one `Style` per role; how inline text looks
    text       fonts, HarfBuzz shaping, line breaking → lines of glyph runs; math
    diagrams   Mermaid source → `Drawing`s (and the article path's SVG)
    blocks     one block + its box → `Part` (its rows): a layout per block kind
    flow       a `Doc` → rows in reading order, held to the render's budget
    pages      rows → `Page`s per split mode: card breaks, chrome, decorations
    draw       pages → pixels → PNG, JPEG, WebP, PDF
    covers     a title → cover cards

`render` holds the entry points (`layout_cards`, `draw_cards`, `render_cards`, covers); `errors`
every error the engine raises on purpose (all `EngineError`); `limits` the numbers a caller
sees. This face (`__all__`) is what the service and the themes use; the article path's helpers
are reached through their stages' own faces (`layout.parse`, `layout.text`, `layout.diagrams`,
`layout.draw`, `layout.covers`, `layout.style`).
"""

from __future__ import annotations

from .base.boxes import ImageRef, Page
from .base.fonts import DEFAULT_FONTS_DIR, FontBook, subset_font
from .blocks.parts import Part
from .errors import (
    CardTooLarge,
    DiagramError,
    EngineError,
    FontError,
    ImageRejected,
    ImagesTooLarge,
    MdxError,
    PathError,
    RenderError,
    SheetError,
    ThemeError,
    TooManyPages,
    TooManyPixels,
    TooTallForFormat,
)
from .flow.shares import Premade, may_have_share, share_start
from .limits import (
    CARD_LIMITS,
    DEFAULT_CARD_SIZE,
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    MAX_CARD_PIXELS,
    MAX_CARD_PIXELS_BY_FORMAT,
    MAX_CARDS,
    image_pixels_beside,
)
from .pages.breaks.breakrules import RULES as BREAK_RULES
from .pages.card import SPLIT_MODES, SplitMode, hides_overflow
from .pages.quality import PHONE_WIDTH, Quality
from .parse.doc import Doc
from .render import (
    DEFAULT_QUALITY,
    ENGINE_VERSION,
    EXTENSIONS,
    FITS,
    FORMATS,
    MEDIA_TYPES,
    Fit,
    LaidOut,
    OutputFormat,
    Rendered,
    RenderOptions,
    draw_cards,
    layout_cards,
    layout_pages,
    layout_share,
    parse_post,
    render,
    render_cards,
    render_covers,
    render_wechat_cover,
)
from .style.schema import Theme
from .style.theme import decode_theme

__all__ = [
    "BREAK_RULES",
    "CARD_LIMITS",
    "DEFAULT_CARD_SIZE",
    "DEFAULT_FONTS_DIR",
    "DEFAULT_HEIGHT",
    "DEFAULT_QUALITY",
    "DEFAULT_WIDTH",
    "ENGINE_VERSION",
    "EXTENSIONS",
    "FITS",
    "FORMATS",
    "MAX_CARDS",
    "MAX_CARD_PIXELS",
    "MAX_CARD_PIXELS_BY_FORMAT",
    "MEDIA_TYPES",
    "PHONE_WIDTH",
    "SPLIT_MODES",
    "CardTooLarge",
    "DiagramError",
    "Doc",
    "EngineError",
    "Fit",
    "FontBook",
    "FontError",
    "ImageRef",
    "ImageRejected",
    "ImagesTooLarge",
    "LaidOut",
    "MdxError",
    "OutputFormat",
    "Page",
    "Part",
    "PathError",
    "Premade",
    "Quality",
    "RenderError",
    "RenderOptions",
    "Rendered",
    "SheetError",
    "SplitMode",
    "Theme",
    "ThemeError",
    "TooManyPages",
    "TooManyPixels",
    "TooTallForFormat",
    "decode_theme",
    "draw_cards",
    "hides_overflow",
    "image_pixels_beside",
    "layout_cards",
    "layout_pages",
    "layout_share",
    "may_have_share",
    "parse_post",
    "render",
    "render_cards",
    "render_covers",
    "render_wechat_cover",
    "share_start",
    "subset_font",
]
