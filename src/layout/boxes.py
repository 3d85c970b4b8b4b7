"""Sized records → what paginate places and draw paints.

Every record is immutable and positioned in CSS px at 1x, y pointing down. Layout builds
them at their final x; rows get their final y when paginate places them on a page, so the
paint stage only translates and draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height


@dataclass(frozen=True, slots=True)
class GlyphRun:
    """Glyph ids of one face at absolute positions (pen origins on the baseline)."""

    face: str
    size: float
    glyphs: tuple[int, ...]
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    color: int
    skew: float = 0.0


@dataclass(frozen=True, slots=True)
class Fill:
    """A filled (optionally rounded) rectangle."""

    rect: Rect
    color: int
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Stroke:
    """A stroked (optionally rounded) rectangle or circle outline."""

    rect: Rect
    color: int
    width: float
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Segment:
    """A straight line."""

    x1: float
    y1: float
    x2: float
    y2: float
    color: int
    width: float


@dataclass(frozen=True, slots=True)
class Shape:
    """A vector path in `ops` (M/L/C/Q/Z tuples), stroked and/or filled."""

    ops: tuple[tuple[Any, ...], ...]
    stroke: int | None
    fill: int | None
    stroke_width: float = 0.0


@dataclass(frozen=True, slots=True)
class Picture:
    """A decoded raster image drawn into `rect`."""

    image: Any  # an opaque decoded image, made by layout.images
    rect: Rect
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Group:
    """Children drawn translated by (dx, dy), then scaled about the group origin."""

    items: tuple[Item, ...]
    dx: float = 0.0
    dy: float = 0.0
    scale: float = 1.0


Item = GlyphRun | Fill | Stroke | Segment | Shape | Picture | Group


@dataclass(frozen=True, slots=True)
class FrameDecor:
    """How a container (quote, code panel, table) is painted around its rows."""

    x: float
    width: float
    fill: int | None = None
    radius: float = 0.0
    bar_width: float = 0.0
    bar_color: int = 0
    border_color: int | None = None
    border_width: float = 0.0


@dataclass(frozen=True, slots=True)
class Frame:
    """A container that rows can belong to; it re-opens with its padding on each page."""

    id: int
    pad_top: float
    pad_bottom: float
    decor: FrameDecor


@dataclass(frozen=True, slots=True)
class Row:
    """An unbreakable horizontal strip: one text line, a table row, an image.

    `gap` is the collapsed margin above the row; it is dropped at the top of a card.
    `frames` are the containers the row sits in, outermost first.
    `keep_with_next` forbids a page break after this row (headings, orphan lines).
    `text` is the row's plain text, for tests that check nothing is lost or repeated.
    """

    height: float
    items: tuple[Item, ...]
    gap: float = 0.0
    frames: tuple[Frame, ...] = ()
    keep_with_next: bool = False
    text: str = ""
    baseline: float = 0.0


@dataclass(frozen=True, slots=True)
class PlacedRow:
    row: Row
    y: float
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class Page:
    """One card: its size, background, and every item to paint, in paint order."""

    width: float
    height: float
    background: int
    items: tuple[Item, ...]
    rows: tuple[PlacedRow, ...] = field(default=())
