"""Sized records → what paginate places and draw paints.

Every record is immutable and positioned in CSS px at 1x, y pointing down. Layout builds
them at their final x; rows get their final y when paginate places them on a page, so the
paint stage only translates and draws.

A fill, stroke or line is painted with a `Paint`: an ARGB int (a solid colour), a
`Gradient` or a `Pattern`, both laid over the bounds of the shape they paint. `Layer`
applies `Effect`s (shadow, glow, blur, grain) to what it holds; `Cached` marks items that
are the same on every card of a theme, mode and size, so draw records them once.

The paints, effects and items are msgspec structs, equal and hashed by value as frozen
dataclasses are (`msgspec.structs.replace` copies one): their classes are built in C, where
a frozen slots dataclass compiles six generated methods at import (0.6-0.9 ms each class on
a busy 2-core machine against 0.02 for a struct: part of every cold start). The
records layout edits with `dataclasses.replace` (`Rect`, frames, rows, `Fit`, `Page`) stay
dataclasses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .records import bulk_record


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


class Gradient(msgspec.Struct, frozen=True):
    """Colour stops across the shape it paints (positions 0..1, None: evenly spaced).

    `linear` runs along `angle` (CSS degrees: 0 up, 90 right, 180 down) corner to corner
    as CSS does; `radial` spreads from `center` (fractions of the box) to `radius` (a
    fraction of the box's longer side); `sweep` turns around `center` from `angle`.
    """

    kind: str
    colors: tuple[int, ...]
    positions: tuple[float, ...] | None = None
    angle: float = 180.0
    center: tuple[float, float] = (0.5, 0.5)
    radius: float = 0.5


class Pattern(msgspec.Struct, frozen=True):
    """A procedural tile repeated over the card: `dots`, `lines`, `grid` or `noise`.

    `spacing` is the tile pitch, `size` the dot radius or line width (for noise, its
    opacity 0..1), `angle` turns lines, `offset` shifts the tiling, `background` fills
    under the motif.
    """

    kind: str
    color: int
    background: int | None = None
    spacing: float = 20.0
    size: float = 1.0
    angle: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)


Paint = int | Gradient | Pattern


class Shadow(msgspec.Struct, frozen=True):
    """A drop shadow (blur 0 is a hard offset copy), as CSS box-shadow spells it."""

    dx: float
    dy: float
    blur: float
    color: int


class Glow(msgspec.Struct, frozen=True):
    """A blurred halo of `color` around the shape, drawn under it."""

    blur: float
    color: int


class Blur(msgspec.Struct, frozen=True):
    """The layer itself blurred (soft blobs, watercolour blooms)."""

    blur: float


class Grain(msgspec.Struct, frozen=True):
    """Paper grain: fractal noise of `color` at `opacity`, only where the layer is."""

    opacity: float
    frequency: float = 0.8
    color: int = 0xFF000000
    seed: float = 0.0


Effect = Shadow | Glow | Blur | Grain


class GlyphRun(msgspec.Struct, frozen=True):
    """Glyph ids of one face at absolute positions (pen origins on the baseline)."""

    face: str
    size: float
    glyphs: tuple[int, ...]
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    color: int
    skew: float = 0.0


class Fill(msgspec.Struct, frozen=True):
    """A filled (optionally rounded) rectangle."""

    rect: Rect
    color: Paint
    radius: float = 0.0
    square: tuple[bool, bool] = (False, False)  # left, right ends cut square (a line break)


class Stroke(msgspec.Struct, frozen=True):
    """A stroked (optionally rounded) rectangle or circle outline; `dash` is on, off."""

    rect: Rect
    color: Paint
    width: float
    radius: float = 0.0
    dash: tuple[float, float] | None = None


class Segment(msgspec.Struct, frozen=True):
    """A straight line."""

    x1: float
    y1: float
    x2: float
    y2: float
    color: Paint
    width: float
    dash: tuple[float, float] | None = None
    round_cap: bool = False


class Shape(msgspec.Struct, frozen=True):
    """A vector path in `ops`, stroked and/or filled.

    Ops are tuples: M x y, L x y, Q x1 y1 x y, C x1 y1 x2 y2 x y, Z, O cx cy r (a circle)
    and A rx ry rotation large sweep x y (an SVG elliptical arc).
    """

    ops: tuple[tuple[Any, ...], ...]
    stroke: Paint | None
    fill: Paint | None
    stroke_width: float = 0.0
    dash: tuple[float, float] | None = None  # the stroke's on, off lengths


class ImageRef(msgspec.Struct, frozen=True):
    """An image as layout knows it: the SHA-256 of its encoded bytes and the size its
    header declares. Draw is handed the bytes by `key` and decodes them; a page holds no
    pixels, so it is plain data that another process can draw."""

    key: str
    width: int
    height: int


class Picture(msgspec.Struct, frozen=True):
    """The image `image` names, drawn stretched into `rect` (layout keeps its aspect)."""

    image: ImageRef
    rect: Rect
    radius: float = 0.0


class Group(msgspec.Struct, frozen=True):
    """Children drawn translated by (dx, dy), then scaled about the group origin; with
    `clip`, only inside that rect of the children's own px (a band of a tall diagram).
    With `mark`, its text is a mark read by its shape and place (a list's number on its
    badge), not words: the quality report leaves it out of the smallest text it reads. With
    `ornament`, its text is a shape drawn from a font (a bullet's ★ or 🍃), read neither
    for its size nor its contrast, as a bullet drawn as a shape is not. With `labels`, its
    text is a diagram's labels, read against a figure's least size rather than a line's."""

    items: tuple[Item, ...]
    dx: float = 0.0
    dy: float = 0.0
    scale: float = 1.0
    clip: Rect | None = None
    mark: bool = False
    ornament: bool = False
    labels: bool = False


class Layer(msgspec.Struct, frozen=True):
    """Children drawn as one layer with effects, rotated by `rotate` degrees about `pivot`
    and composited at `opacity`."""

    items: tuple[Item, ...]
    effects: tuple[Effect, ...] = ()
    opacity: float = 1.0
    rotate: float = 0.0
    pivot: tuple[float, float] = (0.0, 0.0)


class Cached(msgspec.Struct, frozen=True):
    """Items that are the same on every card with this `key` (theme, mode, layer, size):
    draw records them once and replays the recording."""

    key: tuple[Any, ...]
    items: tuple[Item, ...]
    base: int | None = None  # the card colour under it, when it is the card's bottom layer
    size: tuple[float, float] = (0.0, 0.0)  # the card it covers (0, 0: unknown)


Item = GlyphRun | Fill | Stroke | Segment | Shape | Picture | Group | Layer | Cached


@dataclass(frozen=True, slots=True)
class FrameDecor:
    """How a container (quote, code panel, table) is painted around its rows."""

    x: float
    width: float
    fill: Paint | None = None
    radius: float = 0.0
    bar_width: float = 0.0
    bar_color: Paint = 0
    border_color: Paint | None = None
    border_width: float = 0.0
    effects: tuple[Effect, ...] = ()
    role: str = ""
    bar_side: str = "left"  # "left", or "top" / "bottom": a heading's rule
    bar_length: float = 0.0  # 0: the whole side
    bar_align: str = "left"  # where a shorter top or bottom bar sits: left, center, right


@dataclass(frozen=True, slots=True)
class Frame:
    """A container that rows can belong to; it re-opens with its padding on each page."""

    id: int
    pad_top: float
    pad_bottom: float
    decor: FrameDecor


@bulk_record
class Row:
    """An unbreakable horizontal strip: one text line, a table row, an image.

    `gap` is the collapsed margin above the row; it is dropped at the top of a card.
    `frames` are the containers the row sits in, outermost first.
    `keep_with_next` forbids a page break after this row (headings, orphan lines);
    `keep_soft` discourages one (inside a three-line paragraph): paginate breaks there only
    when a break it prefers would leave a large gap. `header` is the header row of the
    table this body row belongs to, repeated at the top of a card this row starts.
    `text` is the row's plain text, for tests that check nothing is lost or repeated, and
    for alt text: `broken_word` says it ends in a hyphen layout added inside a word,
    `decorative` that it is a theme's ornament rather than the post's text.
    `source` names the blocks the row comes from, outermost first, as (block type name,
    serial number within the post): read by the page-break report, and by balancing, which
    never splits a paragraph to even out two cards.
    `discardable` rows (a thematic break) are dropped where they fall on a card break.
    `note` says how layout changed the author's block to fit the card (a left-right
    flowchart drawn top-down), for the quality report.
    `min_scale` under 1 marks a figure (a picture, a diagram) the page breaker may draw
    down to that share of its size where this saves a card left half empty; `scale` is
    the share it chose (the row is drawn scaled, centred); `max_scale` over 1 marks a
    diagram a card it leaves mostly empty may draw up to that share (`grow.py`). `tight`
    is the same row set shorter (a table row with less padding), which the page breaker
    may put in its place to end a card rather than split what it ends. `stretch` is the em
    justification added to the line's widest CJK gap, for the quality report (0: a line
    not spread). `panels` are the containers drawn inside a row of columns side by side
    (frame, top, bottom from the row's top): the decorations tied to a quote's panel find
    them there. `figure` marks a whole picture, diagram or display formula (and an image's
    caption): a card of figures alone is set at its optical centre (`pages/compose.py`), and
    ruled paper stops at each (`pages/layers.py`). `run_in` marks a line of a top-level
    paragraph that opens with a bold run-in head ("**阅读（40 分）**：…"): a run of such
    paragraphs reads as one list of parallel items (`breakrules.parallel_items`).
    `baseline` is where the row's text sits below its top (0: no text), a table row's
    that of its last line: ruled paper rules under it (`pages/layers.py`).
    """

    height: float
    items: tuple[Item, ...]
    gap: float = 0.0
    frames: tuple[Frame, ...] = ()
    keep_with_next: bool = False
    text: str = ""
    baseline: float = 0.0
    keep_soft: bool = False
    header: Row | None = None
    broken_word: bool = False
    decorative: bool = False
    source: tuple[tuple[str, int], ...] = ()
    discardable: bool = False
    note: str = ""
    min_scale: float = 1.0
    scale: float = 1.0
    max_scale: float = 1.0
    stretch: float = 0.0
    tight: Row | None = None
    panels: tuple[tuple[Frame, float, float], ...] = ()
    figure: bool = False
    run_in: bool = False


@bulk_record
class PlacedRow:
    row: Row
    y: float
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class Fit:
    """How a card's rows sit in its content box, as the pages stage left them: what the
    quality report reads besides the items. Lengths are the virtual card's px (the rows'),
    `zoom` the times larger the card draws them."""

    room: float  # the content box's height
    offset: float  # where the first row starts below the box's top (a post centred)
    zoom: float = 1.0
    last: bool = True  # the post's last card, or a card holding a whole part (not autoSplit)
    hidden: bool = False  # the card cut rows it had no room for (overflow hidden)
    broken: tuple[str, ...] = ()  # the page-break rules its end breaks (`breakrules.RULES`)
    section_end: bool = False  # the next card opens with a heading: this one ends a section
    first: bool = False  # the post's first card (of several: `last` is the post's one)
    title: bool = False  # the post's first card holds its title and lead alone, cards follow
    cover: bool = False  # that title card is set as the post's cover: in larger type
    stranded: bool = False  # it opens with the short end of the section the card before began
    closes: bool = False  # the last of two or more cards autoSplit cut the post into
    plate: bool = False  # a later card holding one panel alone, set in its middle (a plate)
    statement: bool = False  # a later slide of one short section whole, set in its middle
    continued: bool = False  # a later slide of one panel alone under its section's heading again


@dataclass(frozen=True, slots=True)
class Page:
    """One card: its size, background, and every item to paint, in paint order; `fit`
    (None for covers) how its rows sit in its content box."""

    width: float
    height: float
    background: int
    items: tuple[Item, ...]
    rows: tuple[PlacedRow, ...] = field(default=())
    fit: Fit | None = None

    def alt_text(self) -> str:
        """The text this card shows, in reading order, one laid-out line a line: headings,
        paragraphs, list items, code, table rows (cells apart by ` | `) and image alt
        texts (`[alt]`). A word hyphenated across lines is whole again; theme ornaments,
        decorations and list markers are drawings, not text."""
        return rows_text(placed.row for placed in self.rows)


def rows_text(rows: Iterable[Row]) -> str:
    """The text of rows, one line a row, words hyphenated across rows whole again;
    decorative rows (theme ornaments) left out."""
    out: list[str] = []
    for row in rows:
        if not row.text or row.decorative:
            continue
        out.append(row.text.removesuffix("-") if row.broken_word else row.text)
        out.append("" if row.broken_word else "\n")
    return "".join(out).rstrip("\n")


def shift(items: tuple[Item, ...], dy: float) -> tuple[Item, ...]:
    """Moves items down by `dy` (a line placed inside a taller row)."""
    return (Group(items, dy=dy),) if dy else items
