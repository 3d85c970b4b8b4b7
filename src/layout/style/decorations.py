"""A theme file's `[[decorations]]` tables → checked decoration specs (data only).

The vocabulary: one msgspec Struct per kind, tagged by `kind`; decorate.py has one
builder per kind that turns a spec into items to paint. Every kind is placed the same
way: an `anchor` corner or edge of its `frame` (the card, the content box, or each quote
or code panel on the card), an inward offset `x`, `y`, and optionally `rotate`, `opacity`
and `effects`. `layer` puts it under the text or over it. An ornament marked `avoid_text`
never sits on a text row: clearance.py (beside decorate.py) moves it outward from its
anchor to the nearest spot clear of the card's rows, or leaves it off that card. Adding a
kind touches this module (a Struct) and decorate.py (a builder and a row in `BUILDERS`),
and docs/themes.md.

This module is part of the theme schema: it imports no shaping, fonts or drawing.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from ..base.svgpath import PathError, parse_svg_path
from .paint import EffectSpec, PaintSpec, resolve_effects, resolve_paint

Place = Literal[
    "top-left",
    "top-right",
    "bottom-left",
    "bottom-right",
    "top",
    "bottom",
    "left",
    "right",
    "center",
]
Corner = Literal["top-left", "top-right", "bottom-left", "bottom-right"]
FrameName = Literal["card", "content", "quote", "code_block"]
Length = Annotated[float, msgspec.Meta(ge=0.0, le=4000.0)]
Insets = tuple[float, float, float, float]  # top, right, bottom, left, as CSS padding


class DecoBase(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind"
):
    """What every kind has: where it sits and how it is composited."""

    anchor: Place = "top-left"
    x: float = 0.0
    y: float = 0.0
    frame: FrameName = "card"
    layer: Literal["under", "over"] = "under"
    opacity: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] = 1.0
    rotate: float = 0.0
    effects: tuple[EffectSpec, ...] = ()
    avoid_text: bool = False
    paints: ClassVar[tuple[str, ...]] = ()  # the fields that hold a paint


class Rule(DecoBase, frozen=True, tag="rule"):
    """A straight line `width` thick; `length` 0 spans the frame less `x` (or `y`) twice."""

    length: Length = 0.0
    width: Length = 1.0
    vertical: bool = False
    paint: PaintSpec = "border"
    dash: tuple[float, float] | None = None
    paints: ClassVar[tuple[str, ...]] = ("paint",)


class Box(DecoBase, frozen=True, tag="rect"):
    """A rectangle `width` x `height` (or the frame less `inset`), filled and/or stroked;
    a side of 0 spans the frame less `x` (or `y`) twice: a bar `height` tall across the top
    stays that tall on a card of any size."""

    width: Length = 0.0
    height: Length = 0.0
    inset: Insets | None = None
    radius: Length = 0.0
    fill: PaintSpec | None = None
    stroke: PaintSpec | None = None
    stroke_width: Length = 1.0
    dash: tuple[float, float] | None = None
    paints: ClassVar[tuple[str, ...]] = ("fill", "stroke")


class Circle(DecoBase, frozen=True, tag="circle"):
    """A disc or ring of `radius`; its box is the square around it."""

    radius: Length = 8.0
    fill: PaintSpec | None = None
    stroke: PaintSpec | None = None
    stroke_width: Length = 1.0
    paints: ClassVar[tuple[str, ...]] = ("fill", "stroke")


class Icon(DecoBase, frozen=True, tag="icon"):
    """SVG path data on a `viewbox`-unit square, drawn `size` px wide, stroked and/or filled."""

    path: str
    viewbox: Annotated[float, msgspec.Meta(gt=0.0)] = 24.0
    size: Length = 24.0
    fill: PaintSpec | None = None
    stroke: PaintSpec | None = None
    stroke_width: Length = 2.0
    paints: ClassVar[tuple[str, ...]] = ("fill", "stroke")

    def __post_init__(self) -> None:
        try:
            parse_svg_path(self.path)  # parsed once here, at load; cached for drawing
        except PathError as error:
            raise ValueError(str(error)) from None  # msgspec adds the field's path


class Label(DecoBase, frozen=True, tag="label"):
    """One line of text in a text colour. `decorative` marks an ornament (a "CODE" tab,
    a flourish) that is not read: the contrast rule for text does not hold it."""

    text: str = ""
    text_latin: str = ""  # the label on a post that is not Chinese (`locale.for_post`)
    decorative: bool = False
    size: Length = 16.0
    weight: int = 400
    italic: bool = False
    family: str = "sans"
    color: str = "text"
    paints: ClassVar[tuple[str, ...]] = ("color",)


class QuoteGlyph(Label, frozen=True, tag="quote-glyph"):
    """A large quotation mark, usually on `frame = "quote"`."""

    text: str = "\u201c"
    size: Length = 48.0
    color: str = "border"


class RuledLines(DecoBase, frozen=True, tag="ruled-lines"):
    """A line under every text baseline layout placed in the frame (`offset` px below),
    across the frame less `x` each side; `extend` rules the rest at `pitch` (0: the last
    line's pitch) down to the frame's bottom, like notebook paper."""

    frame: FrameName = "content"
    paint: PaintSpec = "border"
    width: Length = 1.0
    offset: float = 0.0
    extend: bool = False
    pitch: Length = 0.0
    paints: ClassVar[tuple[str, ...]] = ("paint",)


class DotGrid(DecoBase, frozen=True, tag="dot-grid"):
    """Dots of `radius` every `spacing` over the frame less `inset`."""

    spacing: Annotated[float, msgspec.Meta(ge=2.0)] = 20.0
    radius: Length = 1.0
    paint: PaintSpec = "border"
    inset: Insets = (0.0, 0.0, 0.0, 0.0)
    paints: ClassVar[tuple[str, ...]] = ("paint",)


class Halftone(DecoBase, frozen=True, tag="halftone"):
    """Halftone dots growing from `min_radius` to `max_radius` toward `angle` (CSS degrees:
    0 up, 90 right, 180 down), over `width` x `height` (0: the frame's)."""

    width: Length = 0.0
    height: Length = 0.0
    spacing: Annotated[float, msgspec.Meta(ge=6.0)] = 12.0
    min_radius: Length = 0.5
    max_radius: Length = 4.0
    angle: float = 180.0
    paint: PaintSpec = "text"
    paints: ClassVar[tuple[str, ...]] = ("paint",)


class Rings(DecoBase, frozen=True, tag="rings"):
    """Coil binding down the frame's left edge: a punched hole `x` px in, and a loop
    reaching `reach` px past the edge, every `spacing` from `y` to `end` px before the end."""

    spacing: Annotated[float, msgspec.Meta(ge=8.0)] = 33.0
    hole: Length = 4.0
    reach: Length = 14.0
    thickness: Length = 3.0
    end: float = 0.0
    paint: PaintSpec = "#888888"
    hole_color: PaintSpec = "#333333"
    paints: ClassVar[tuple[str, ...]] = ("paint", "hole_color")


class Stamp(DecoBase, frozen=True, tag="stamp"):
    """A seal: a circle or square `size` px, filled and/or stroked, with text centred
    (`decorative` as a label's)."""

    text: str = ""
    decorative: bool = False
    size: Length = 40.0
    shape: Literal["circle", "square"] = "square"
    radius: Length = 3.0
    fill: PaintSpec | None = None
    stroke: PaintSpec | None = None
    stroke_width: Length = 2.0
    text_size: Length = 24.0
    text_color: str = "background"
    family: str = "sans"
    weight: int = 600
    paints: ClassVar[tuple[str, ...]] = ("fill", "stroke", "text_color")


class Corners(DecoBase, frozen=True, tag="corners"):
    """Ornaments `size` px at the frame's `corners`, `x`, `y` in: L-shaped `bracket`s,
    quarter-circle `fan`s or filled `triangle`s."""

    style: Literal["bracket", "fan", "triangle"] = "bracket"
    size: Length = 16.0
    corners: tuple[Corner, ...] = ("top-left", "top-right", "bottom-left", "bottom-right")
    paint: PaintSpec = "border"
    stroke_width: Length = 1.5
    paints: ClassVar[tuple[str, ...]] = ("paint",)


class PageFrame(DecoBase, frozen=True, tag="frame"):
    """A border `inset` px inside the frame; `double` > 0 adds a second line that far in."""

    inset: float = 12.0
    width: Length = 1.0
    double: Length = 0.0
    radius: Length = 0.0
    paint: PaintSpec = "border"
    dash: tuple[float, float] | None = None
    paints: ClassVar[tuple[str, ...]] = ("paint",)


Decoration = (
    Rule
    | Box
    | Circle
    | Icon
    | Label
    | QuoteGlyph
    | RuledLines
    | DotGrid
    | Halftone
    | Rings
    | Stamp
    | Corners
    | PageFrame
)


def check(deco: Decoration, palette: dict[str, str], where: str) -> None:
    """Resolves every paint and effect of `deco` in this palette (raises ThemeError)."""
    for name in deco.paints:
        value = getattr(deco, name)
        if value is not None:
            resolve_paint(value, palette, f"{where}.{name}")
    resolve_effects(deco.effects, palette, f"{where}.effects")


def is_static(deco: Decoration) -> bool:
    """Whether `deco` is the same on every card of a size (not tied to text or panels)."""
    tied = isinstance(deco, RuledLines) or deco.avoid_text
    return deco.frame in ("card", "content") and not tied
