"""Title + keywords + card theme → cover cards: big display type a designer would post.

A cover is one card drawn from a title, not from Markdown: the theme's page (background and
static decorations, as its cards have them), the title set as large as its balanced lines
fit the room its layout gives it (covertitle.py), and the keywords emphasised in the theme's
accent. Four layouts, each recognisably the theme's: headline, band, pills and split
(coverlayouts.py).

`wechat_cover` draws the article cover the platform wants (900 x 383, 2.35:1) with the
title inside the centred square, so the square thumbnail crop shows it whole; `wechat_covers`
up to four of them, the card layouts drawn inside that square (the cover endpoint's default).
"""

from __future__ import annotations

from dataclasses import replace

import msgspec

from ..base.boxes import Group, Item, Page, PlacedRow, Rect, Row, Stroke
from ..base.fonts import FontBook
from ..limits import DEFAULT_HEIGHT, DEFAULT_WIDTH
from ..pages.cardface import (
    canvas_colour,
    card_rect,
    content_box,
    edges,
    ornament_boxes,
    static_layers,
)
from ..pages.marks.aigclabel import ROLE as LABEL_ROLE
from ..pages.marks.aigclabel import label_items, with_label_room
from ..pages.marks.brandmarks import backdrop_items, band_items, watermark_items
from ..style.brandkit import BrandKit
from ..style.resolver import Styles, resolve
from ..style.schema import Style, Theme
from .coverinks import emphasis, ink_on, small_ink
from .coverlayouts import DRAWERS, centred_square, in_the_square
from .covertitle import Design

LAYOUTS = tuple(DRAWERS)  # headline, band, pills, split: a post's covers in this order
MAX_COVERS = len(LAYOUTS)
MAX_TITLE_CHARS = 80  # a title longer than this is cut: it would set as a paragraph
MAX_KEYWORDS = 8  # keywords looked for in the title (later ones are ignored)
MAX_KEYWORD_CHARS = 20
WECHAT_SIZE = (900, 383)  # the article cover the platform shows at 2.35:1
# A WeChat cover's layouts: the title alone in the square, then three of the card layouts
# drawn inside it (split is left out: its colour block would repeat the side's)
WECHAT_LAYOUTS = ("square", "headline", "band", "pills")
WIDE_RATIO = 2.35
CROP_MARK = 0xFFFF00AA  # the square crop's outline in a gallery: a colour no theme uses
CORNER_GAP = 12.0  # px between a WeChat cover's centred square and its AI label


class CoverCrops(msgspec.Struct, frozen=True):
    """The platform's crop boxes of a cover, each `x1_y1_x2_y2` as fractions of the image
    (origin top left, at most 6 decimals)."""

    crop_235_1: str
    crop_1_1: str


def cover_pages(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    *,
    width: float,
    height: float,
    count: int = 1,
    mode: str | None = None,
    label: str = "",
    brand: BrandKit | None = None,
) -> list[Page]:
    """`count` (1..4) covers of `title`, each in another layout, `width` x `height` CSS px.

    `keywords` found in the title are drawn in the accent; the others are shown beside it
    (as pills, or in a kicker line). `label`: an AI-content label in the footer band, which
    the title's room then ends above (pages/marks/aigclabel.py). `brand`: its marks in the footer
    band the branded `theme` keeps (`style.brandkit`), its watermark under the title."""
    design = _design(title, keywords, theme, fonts, mode, width, height, label)
    zoom = _zoom(width, height)
    return [
        _page(design, DRAWERS[name](design), width, height, zoom, label, brand=brand)
        for name in LAYOUTS[: max(1, min(count, MAX_COVERS))]
    ]


def wechat_cover(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    mode: str | None = None,
    *,
    mark_crop: bool = False,
    label: str = "",
) -> tuple[Page, CoverCrops]:
    """The article cover (900 x 383) with the title in the centred square, and its crops:
    the whole image at 2.35:1 and the centred square at 1:1; `label` as `cover_pages`."""
    [page] = wechat_covers(title, keywords, theme, fonts, mode, mark_crop=mark_crop, label=label)
    return page, centred_crops(*WECHAT_SIZE)


def wechat_covers(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    mode: str | None = None,
    *,
    count: int = 1,
    mark_crop: bool = False,
    label: str = "",
    brand: BrandKit | None = None,
) -> list[Page]:
    """`count` (1..4) WeChat covers (900 x 383, 2.35:1), each in another of
    `WECHAT_LAYOUTS`, every one with the whole title inside the centred square the platform
    crops at 1:1; `mark_crop` outlines that square (a gallery's, never the platform's);
    `label` as `cover_pages` takes it."""
    width, height = WECHAT_SIZE
    design = _design(title, keywords, theme, fonts, mode, width, height, label)
    pages = []
    for name in WECHAT_LAYOUTS[: max(1, min(count, MAX_COVERS))]:
        drawn = centred_square(design) if name == "square" else in_the_square(design, name)
        if mark_crop:
            square = Rect((width - height) / 2, 1.0, height, height - 2.0)
            drawn.append(Stroke(square, CROP_MARK, 2.0, dash=(8.0, 6.0)))
        square = _square_box(design)
        pages.append(
            _page(design, drawn, width, height, 1.0, label, corner=True, brand=brand, marks=square)
        )
    return pages


def centred_crops(width: float, height: float) -> CoverCrops:
    """The centred 2.35:1 and 1:1 crop boxes of an image `width` x `height`: the platform
    shows the first in the feed and the second as the square thumbnail. An image within 1 %
    of 2.35:1 (the 900 x 383 cover) is its own wide crop."""
    return CoverCrops(_centred(width, height, WIDE_RATIO), _centred(width, height, 1.0))


def _centred(width: float, height: float, ratio: float) -> str:
    if abs(width / height - ratio) <= ratio * 0.01:
        return "0_0_1_1"
    if width / height > ratio:  # too wide: a centred band of the width
        side = (1 - height * ratio / width) / 2
        return f"{_fraction(side)}_0_{_fraction(1 - side)}_1"
    side = (1 - width / ratio / height) / 2
    return f"0_{_fraction(side)}_1_{_fraction(1 - side)}"


def _fraction(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _design(
    title: str,
    keywords: tuple[str, ...],
    theme: Theme,
    fonts: FontBook,
    mode: str | None,
    width: float,
    height: float,
    label: str = "",
) -> Design:
    styles = resolve(theme, mode)
    zoom = _zoom(width, height)
    page = Rect(0.0, 0.0, width / zoom, height / zoom)
    if label:
        styles = with_label_room(styles, page.width)
    accent, marker = emphasis(styles)
    # The engine's own bounds (a caller refuses more): a cover shows a short title.
    words = tuple(dict.fromkeys(k.strip()[:MAX_KEYWORD_CHARS] for k in keywords if k.strip()))
    words = words[:MAX_KEYWORDS]
    return Design(
        styles=styles,
        fonts=fonts,
        page=page,
        content=content_box(styles, page.width, page.height),
        title=" ".join(title.split())[:MAX_TITLE_CHARS],
        keywords=words,
        accent=accent,
        on_accent=ink_on(accent),
        marker=marker,
        tag_ink=small_ink(styles, accent),
    )


def _right(styles: Styles) -> Style:
    """The AI label's style in a WeChat cover's corner: at the bottom, right-aligned."""
    return replace(styles[LABEL_ROLE], align="right", position="bottom", indent=0.0)


def _zoom(width: float, height: float) -> float:
    """How much larger than the theme's own card a cover draws its page and decorations:
    a 1080 x 1440 cover looks like a 440 x 586 card, only sharper."""
    return max(1.0, min(width / DEFAULT_WIDTH, height / DEFAULT_HEIGHT))


def _square_box(design: Design) -> Rect:
    """The text's box inside a WeChat cover's centred square: where a brand kit's marks go,
    so that the square crop shows them and the layouts' blocks beside it stay clear."""
    page, content = design.page, design.content
    _, right, _, left = edges(design.styles["card"])
    side = page.height
    x = (page.width - side) / 2 + left
    return Rect(x, content.y, max(1.0, side - left - right), content.height)


def _page(
    design: Design,
    drawn: list[Item],
    width: float,
    height: float,
    zoom: float,
    label: str,
    *,
    corner: bool = False,
    brand: BrandKit | None = None,
    marks: Rect | None = None,
) -> Page:
    """One cover; `label` in its footer band, or with `corner` (a WeChat cover, whose
    layouts draw across that band) right-aligned right of the centred square, on a patch;
    `brand`'s marks in the footer band under `marks` (the content box unless given), its
    watermark under the drawing."""
    page = design.page
    face = card_rect(design.styles["card"], page.width, page.height)
    backdrop = backdrop_items(brand, face, design.styles, design.fonts)
    under, over = static_layers(design.styles, design.fonts, page.width, page.height, backdrop)
    items: tuple[Item, ...] = (*under, *drawn, *over)
    if brand is not None:
        styles, fonts = design.styles, design.fonts
        content = marks or design.content
        bottom = page.height - edges(styles["card"])[2]
        clear = ornament_boxes(styles, fonts, page.width, page.height)
        band = band_items(brand, styles, fonts, content, bottom, False, clear)
        items = (*under, *watermark_items(brand, styles, fonts, content), *drawn, *over, *band)
    if label:
        styles, box = design.styles, design.content
        if corner:
            styles = replace(styles, roles={**styles.roles, LABEL_ROLE: _right(styles)})
            left = (page.width + page.height) / 2 + CORNER_GAP
            right = page.width - edges(styles["card"])[1]  # the card's edge, not the measure's
            box = Rect(left, box.y, max(1.0, right - left), box.height)
        labelled = label_items(
            styles, design.fonts, label, box, page.height, page.width, chip=corner
        )
        items += tuple(labelled)
    if zoom != 1.0:
        items = (Group(items, scale=zoom),)
    alt = Row(0.0, (), text=design.title) if design.title else None
    rows = (PlacedRow(alt, 0.0),) if alt is not None else ()
    background = canvas_colour(design.styles["card"])
    return Page(width, height, background, items, rows)
