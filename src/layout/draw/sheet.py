"""A contact sheet: card thumbnails in a grid, each with a caption under it, drawn by this
engine (captions shaped like card text, the sheet painted and encoded like a card).

Thumbnails arrive as PNG bytes (a card rendered at thumbnail scale), so whatever a card
paints past its edges stays inside its own tile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

from ..base.boxes import Group, Item, Page, Picture, Rect, Stroke
from ..base.fonts import FontBook
from ..base.images import image_ref
from ..errors import SheetError
from ..style.looks import text_look
from ..style.spanstyle import BOLD_WEIGHT, Span
from ..text.inline import layout_text
from ..text.linebox import line_metrics
from .encode import encode_png
from .painter import Painter

BACKGROUND = 0xFFF4F4F2
BORDER = 0xFFD6D6D2
NAME_COLOR = 0xFF1F2328
LABEL_COLOR = 0xFF6A6F76
MARGIN = 28.0
GAP_X = 20.0
GAP_Y = 22.0
CAPTION_GAP = 8.0  # between a thumbnail and its caption
CAPTION_SIZE = 12.0
CAPTION_LINE_HEIGHT = 1.4
TITLE_SIZE = 20.0


class Tile(msgspec.Struct, frozen=True):
    """One thumbnail (PNG bytes) and its caption: a bold first line, then plain lines."""

    png: bytes
    caption: tuple[str, ...]


def contact_sheet(
    tiles: Sequence[Tile],
    fonts: FontBook,
    *,
    columns: int = 6,
    tile_width: float = 180.0,
    title: str = "",
) -> bytes:
    """A PNG of `tiles` in rows of `columns`, each scaled to `tile_width` CSS px (1 px each).

    Every cell is as tall as the tallest thumbnail and the longest caption, so rows line
    up however many tiles there are; every thumbnail sits on whole pixels, unresampled when its
    PNG is `tile_width` px wide.

    Raises:
        SheetError: No tiles, or a tile's PNG has no readable header.
    """
    if not tiles:
        raise SheetError("a contact sheet needs at least one tile")
    columns = max(1, min(columns, len(tiles)))
    pictures = [_thumbnail(tile.png, tile_width) for tile in tiles]
    blobs = {picture.image.key: tile.png for picture, tile in zip(pictures, tiles, strict=True)}
    captions = [_caption(tile.caption, fonts, tile_width) for tile in tiles]
    image_height = max(p.rect.height for p in pictures)
    caption_height = max(height for height, _ in captions)
    cell_height = math.ceil(image_height + CAPTION_GAP + caption_height)  # tiles on whole px
    width = 2 * MARGIN + columns * tile_width + (columns - 1) * GAP_X
    items: list[Item] = []
    top = MARGIN
    if title:
        height, title_items = _text([title], fonts, width - 2 * MARGIN, TITLE_SIZE, bold=True)
        items.append(Group(title_items, dx=MARGIN, dy=top))
        top += math.ceil(height) + GAP_Y
    rows = math.ceil(len(tiles) / columns)
    for index, (picture, (_, caption_items)) in enumerate(zip(pictures, captions, strict=True)):
        x = MARGIN + (index % columns) * (tile_width + GAP_X)
        y = top + (index // columns) * (cell_height + GAP_Y)
        frame = Rect(x, y, picture.rect.width, picture.rect.height)
        items.append(Picture(picture.image, frame))
        items.append(Stroke(Rect(x - 0.5, y - 0.5, frame.width + 1, frame.height + 1), BORDER, 1))
        items.append(Group(caption_items, dx=x, dy=y + image_height + CAPTION_GAP))
    height = top + rows * cell_height + (rows - 1) * GAP_Y + MARGIN
    page = Page(width=width, height=height, background=BACKGROUND, items=tuple(items))
    painter = Painter(fonts.typefaces(), scale=1, images=blobs)
    return encode_png(painter.record(page), width, height, BACKGROUND, 1)


def _thumbnail(png: bytes, tile_width: float) -> Picture:
    ref = image_ref(png)
    if ref is None:
        raise SheetError("a thumbnail is not a readable image")
    height = round(ref.height * tile_width / ref.width)
    return Picture(ref, Rect(0, 0, tile_width, height))


def _caption(
    lines: tuple[str, ...], fonts: FontBook, width: float
) -> tuple[float, tuple[Item, ...]]:
    """The caption's height and items (origin at its top left): the first line bold."""
    if not lines:
        return 0.0, ()
    name_height, name = _text(lines[:1], fonts, width, CAPTION_SIZE, bold=True)
    rest_height, rest = _text(lines[1:], fonts, width, CAPTION_SIZE, bold=False, color=LABEL_COLOR)
    return name_height + rest_height, (*name, Group(rest, dy=name_height))


def _text(
    lines: Sequence[str],
    fonts: FontBook,
    width: float,
    size: float,
    *,
    bold: bool,
    color: int = NAME_COLOR,
) -> tuple[float, tuple[Item, ...]]:
    """Lines of text wrapped to `width`: their total height and items, top left at (0, 0)."""
    metrics = line_metrics(fonts, "sans", bold, size, CAPTION_LINE_HEIGHT)
    style = text_look("sans", size, color, weight=BOLD_WEIGHT if bold else 400)
    items: list[Item] = []
    y = 0.0
    for text in lines:
        for line in layout_text([Span(text, style)], fonts, x=0, width=width, metrics=metrics):
            items.append(Group(line.items, dy=y))
            y += line.height
    return y, tuple(items)
