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
from .covers import (
    COVER_LAYOUTS,
    MAX_COVER_KEYWORD_CHARS,
    MAX_COVER_KEYWORDS,
    MAX_COVER_TITLE_CHARS,
    MAX_COVERS,
    WECHAT_COVER_SIZE,
    CoverCrops,
    centred_crops,
)
from .diagrams import DiagramBudget, diagram_svg
from .draw import (
    ARTICLE_IMAGE_BYTES,
    COVER_IMAGE_BYTES,
    EncodedImage,
    ImageInfo,
    Tile,
    contact_sheet,
    fit_image,
    load_numpy,
    probe_image,
)
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
from .pages.compose import SPLIT_MODES, SplitMode, hides_overflow
from .parse import (
    ALERT_LABELS,
    HTML_TAGS,
    STYLED_TAGS,
    address_linkify,
    clean_style,
    clean_text,
    color_hex,
    color_pattern,
    css_color,
    highlight,
    image_sources,
    may_name_images,
    valid_link,
)
from .parse.doc import Doc
from .render import (
    DEFAULT_QUALITY,
    ENGINE_VERSION,
    EXTENSIONS,
    FORMATS,
    MEDIA_TYPES,
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
from .style.resolver import relative_luminance
from .style.schema import Theme
from .style.theme import decode_theme
from .text import Formula, MathBudget, typeset_math

__all__ = [
    "ALERT_LABELS",
    "ARTICLE_IMAGE_BYTES",
    "CARD_LIMITS",
    "COVER_IMAGE_BYTES",
    "COVER_LAYOUTS",
    "DEFAULT_CARD_SIZE",
    "DEFAULT_FONTS_DIR",
    "DEFAULT_HEIGHT",
    "DEFAULT_QUALITY",
    "DEFAULT_WIDTH",
    "ENGINE_VERSION",
    "EXTENSIONS",
    "FORMATS",
    "HTML_TAGS",
    "MAX_CARDS",
    "MAX_CARD_PIXELS",
    "MAX_CARD_PIXELS_BY_FORMAT",
    "MAX_COVERS",
    "MAX_COVER_KEYWORDS",
    "MAX_COVER_KEYWORD_CHARS",
    "MAX_COVER_TITLE_CHARS",
    "MEDIA_TYPES",
    "SPLIT_MODES",
    "STYLED_TAGS",
    "WECHAT_COVER_SIZE",
    "CardTooLarge",
    "CoverCrops",
    "DiagramBudget",
    "DiagramError",
    "Doc",
    "EncodedImage",
    "EngineError",
    "FontBook",
    "FontError",
    "Formula",
    "ImageInfo",
    "ImageRef",
    "ImageRejected",
    "ImagesTooLarge",
    "LaidOut",
    "MathBudget",
    "MdxError",
    "OutputFormat",
    "Page",
    "Part",
    "PathError",
    "Premade",
    "RenderError",
    "RenderOptions",
    "Rendered",
    "SheetError",
    "SplitMode",
    "Theme",
    "ThemeError",
    "Tile",
    "TooManyPages",
    "TooManyPixels",
    "TooTallForFormat",
    "address_linkify",
    "centred_crops",
    "clean_style",
    "clean_text",
    "color_hex",
    "color_pattern",
    "contact_sheet",
    "css_color",
    "decode_theme",
    "diagram_svg",
    "draw_cards",
    "fit_image",
    "hides_overflow",
    "highlight",
    "image_pixels_beside",
    "image_sources",
    "layout_cards",
    "layout_pages",
    "layout_share",
    "load_numpy",
    "may_have_share",
    "may_name_images",
    "parse_post",
    "probe_image",
    "relative_luminance",
    "render",
    "render_cards",
    "render_covers",
    "render_wechat_cover",
    "share_start",
    "subset_font",
    "typeset_math",
    "valid_link",
]
