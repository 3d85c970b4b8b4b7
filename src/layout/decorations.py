"""Decoration specs from a theme file + the box they sit in → items to paint.

The vocabulary: one msgspec Struct per kind, tagged by `kind`, and one builder per kind
(`BUILDERS`). Every kind is placed the same way: an `anchor` corner or edge of its `frame`
(the card, the content box, or each quote or code panel on the card), an inward offset
`x`, `y`, and optionally `rotate`, `opacity` and `effects`. `layer` puts it under the text
or over it. Adding a kind touches only this module: a Struct, a builder, a row in
`BUILDERS` (and docs/themes.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from .boxes import Fill, Group, Item, Layer, Pattern, Rect, Segment, Shape, Stroke
from .chrome import one_line
from .fonts import FontBook
from .paint import EffectSpec, PaintSpec, parse_color, resolve_effects, resolve_paint
from .shape import SpanStyle
from .svgpath import PathError, parse_svg_path, transform

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


class _Deco(
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
    paints: ClassVar[tuple[str, ...]] = ()  # the fields that hold a paint


class Rule(_Deco, frozen=True, tag="rule"):
    """A straight line `width` thick; `length` 0 spans the frame less `x` (or `y`) twice."""

    length: Length = 0.0
    width: Length = 1.0
    vertical: bool = False
    paint: PaintSpec = "border"
    dash: tuple[float, float] | None = None
    paints: ClassVar[tuple[str, ...]] = ("paint",)


class Box(_Deco, frozen=True, tag="rect"):
    """A rectangle `width` x `height` (or the frame less `inset`), filled and/or stroked."""

    width: Length = 0.0
    height: Length = 0.0
    inset: Insets | None = None
    radius: Length = 0.0
    fill: PaintSpec | None = None
    stroke: PaintSpec | None = None
    stroke_width: Length = 1.0
    dash: tuple[float, float] | None = None
    paints: ClassVar[tuple[str, ...]] = ("fill", "stroke")


class Circle(_Deco, frozen=True, tag="circle"):
    """A disc or ring of `radius`; its box is the square around it."""

    radius: Length = 8.0
    fill: PaintSpec | None = None
    stroke: PaintSpec | None = None
    stroke_width: Length = 1.0
    paints: ClassVar[tuple[str, ...]] = ("fill", "stroke")


class Icon(_Deco, frozen=True, tag="icon"):
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


class Label(_Deco, frozen=True, tag="label"):
    """One line of text in a text colour."""

    text: str = ""
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


class RuledLines(_Deco, frozen=True, tag="ruled-lines"):
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


class DotGrid(_Deco, frozen=True, tag="dot-grid"):
    """Dots of `radius` every `spacing` over the frame less `inset`."""

    spacing: Annotated[float, msgspec.Meta(ge=2.0)] = 20.0
    radius: Length = 1.0
    paint: PaintSpec = "border"
    inset: Insets = (0.0, 0.0, 0.0, 0.0)
    paints: ClassVar[tuple[str, ...]] = ("paint",)


class Halftone(_Deco, frozen=True, tag="halftone"):
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


class Rings(_Deco, frozen=True, tag="rings"):
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


class Stamp(_Deco, frozen=True, tag="stamp"):
    """A seal: a circle or square `size` px, filled and/or stroked, with text centred."""

    text: str = ""
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


class Corners(_Deco, frozen=True, tag="corners"):
    """Ornaments `size` px at the frame's `corners`, `x`, `y` in: L-shaped `bracket`s,
    quarter-circle `fan`s or filled `triangle`s."""

    style: Literal["bracket", "fan", "triangle"] = "bracket"
    size: Length = 16.0
    corners: tuple[Corner, ...] = ("top-left", "top-right", "bottom-left", "bottom-right")
    paint: PaintSpec = "border"
    stroke_width: Length = 1.5
    paints: ClassVar[tuple[str, ...]] = ("paint",)


class PageFrame(_Deco, frozen=True, tag="frame"):
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
    return deco.frame in ("card", "content") and not isinstance(deco, RuledLines)


@dataclass(frozen=True, slots=True)
class Context:
    """What a builder may use: the frame's box, palette tokens, fonts, text baselines."""

    frame: Rect
    palette: dict[str, str]
    fonts: FontBook
    baselines: tuple[float, ...] = ()

    def paint(self, spec: PaintSpec | None) -> Any:
        return None if spec is None else resolve_paint(spec, self.palette)

    def place(self, deco: _Deco, width: float, height: float) -> Rect:
        """The box of `width` x `height` at the decoration's anchor and offsets."""
        f = self.frame
        if deco.anchor in ("top", "bottom", "center"):
            x = f.x + (f.width - width) / 2 + deco.x
        elif deco.anchor.endswith("right"):
            x = f.right - deco.x - width
        else:
            x = f.x + deco.x
        if deco.anchor in ("left", "right", "center"):
            y = f.y + (f.height - height) / 2 + deco.y
        elif deco.anchor.startswith("bottom"):
            y = f.bottom - deco.y - height
        else:
            y = f.y + deco.y
        return Rect(x, y, width, height)

    def inset(self, insets: Insets) -> Rect:
        top, right, bottom, left = insets
        f = self.frame
        return Rect(f.x + left, f.y + top, f.width - left - right, f.height - top - bottom)


Built = tuple[list[Item], Rect]


def build(deco: Decoration, ctx: Context) -> list[Item]:
    """The items of one decoration, wrapped in a layer for rotation, opacity and effects."""
    items, box = BUILDERS[type(deco)](deco, ctx)
    if not items or (deco.rotate == 0.0 and deco.opacity == 1.0 and not deco.effects):
        return items
    return [
        Layer(
            tuple(items),
            resolve_effects(deco.effects, ctx.palette),
            deco.opacity,
            deco.rotate,
            (box.x + box.width / 2, box.y + box.height / 2),
        )
    ]


def _rule(deco: Rule, ctx: Context) -> Built:
    span = ctx.frame.height - 2 * deco.y if deco.vertical else ctx.frame.width - 2 * deco.x
    length = deco.length or max(0.0, span)
    w = deco.width
    box = ctx.place(deco, w, length) if deco.vertical else ctx.place(deco, length, w)
    paint = ctx.paint(deco.paint)
    if deco.vertical:
        mid = box.x + w / 2
        return [Segment(mid, box.y, mid, box.bottom, paint, w, deco.dash)], box
    mid = box.y + w / 2
    return [Segment(box.x, mid, box.right, mid, paint, w, deco.dash)], box


def _rect(deco: Box, ctx: Context) -> Built:
    box = ctx.inset(deco.inset) if deco.inset else ctx.place(deco, deco.width, deco.height)
    items: list[Item] = []
    if deco.fill is not None:
        items.append(Fill(box, ctx.paint(deco.fill), deco.radius))
    if deco.stroke is not None:
        items.append(Stroke(box, ctx.paint(deco.stroke), deco.stroke_width, deco.radius, deco.dash))
    return items, box


def _circle(deco: Circle, ctx: Context) -> Built:
    box = ctx.place(deco, 2 * deco.radius, 2 * deco.radius)
    op = ("O", box.x + deco.radius, box.y + deco.radius, deco.radius)
    return [Shape((op,), ctx.paint(deco.stroke), ctx.paint(deco.fill), deco.stroke_width)], box


def _icon(deco: Icon, ctx: Context) -> Built:
    box = ctx.place(deco, deco.size, deco.size)
    ops = transform(parse_svg_path(deco.path), box.x, box.y, deco.size / deco.viewbox)
    return [Shape(ops, ctx.paint(deco.stroke), ctx.paint(deco.fill), deco.stroke_width)], box


def _label(deco: Label, ctx: Context) -> Built:
    style = SpanStyle(
        family=deco.family,
        size=deco.size,
        bold=deco.weight >= 600,
        italic=deco.italic,
        color=parse_color(deco.color, ctx.palette),
    )
    line = one_line(deco.text, style, ctx.fonts, x=0.0, width=ctx.frame.width, align="left")
    if line is None:
        return [], ctx.frame
    box = ctx.place(deco, line.width, line.height)
    return [Group(line.items, dx=box.x, dy=box.y)], box


def _ruled_lines(deco: RuledLines, ctx: Context) -> Built:
    f = ctx.frame
    ys = [y + deco.offset for y in ctx.baselines if f.y <= y <= f.bottom]
    if deco.extend:
        pitch = deco.pitch or (ys[-1] - ys[-2] if len(ys) > 1 else 24.0)
        y = ys[-1] + pitch if ys else f.y + pitch
        while y <= f.bottom and pitch > 0.5:
            ys.append(y)
            y += pitch
    paint = ctx.paint(deco.paint)
    left, right = f.x + deco.x, f.right - deco.x
    return [Segment(left, y, right, y, paint, deco.width) for y in ys], f


def _dot_grid(deco: DotGrid, ctx: Context) -> Built:
    box = ctx.inset(deco.inset)
    color = ctx.paint(deco.paint)
    color = color if isinstance(color, int) else 0xFF000000  # dots take a solid colour
    dots = Pattern("dots", color, spacing=deco.spacing, size=deco.radius, offset=(box.x, box.y))
    return [Fill(box, dots)], box


def _halftone(deco: Halftone, ctx: Context) -> Built:
    box = ctx.place(deco, deco.width or ctx.frame.width, deco.height or ctx.frame.height)
    turn = math.radians(deco.angle)
    ux, uy = math.sin(turn), -math.cos(turn)  # toward `angle`
    reach = abs(ux) * box.width + abs(uy) * box.height or 1.0
    cx, cy = box.x + box.width / 2, box.y + box.height / 2
    ops: list[tuple[object, ...]] = []
    step = deco.spacing
    for row in range(int(box.height // step) + 1):
        for col in range(int(box.width // step) + 1):
            x, y = box.x + step / 2 + col * step, box.y + step / 2 + row * step
            t = min(1.0, max(0.0, 0.5 + ((x - cx) * ux + (y - cy) * uy) / reach))
            r = deco.min_radius + (deco.max_radius - deco.min_radius) * t
            if r > 0.05:
                ops.append(("O", x, y, r))
    return [Shape(tuple(ops), None, ctx.paint(deco.paint))], box


def _rings(deco: Rings, ctx: Context) -> Built:
    f = ctx.frame
    paint, hole = ctx.paint(deco.paint), ctx.paint(deco.hole_color)
    holes: list[tuple[object, ...]] = []
    loops: list[Item] = []
    hole_x = f.x + deco.x
    y = f.y + deco.y + deco.spacing / 2
    while y <= f.bottom - deco.end - deco.spacing / 2 + 1e-6:
        holes.append(("O", hole_x, y, deco.hole))
        loop = Rect(f.x - deco.reach, y - deco.hole, hole_x - f.x + deco.reach, 2 * deco.hole)
        loops.append(Stroke(loop, paint, deco.thickness, deco.hole))
        y += deco.spacing
    box = Rect(f.x - deco.reach, f.y, deco.reach + deco.x + deco.hole, f.height)
    return [Shape(tuple(holes), None, hole), *loops], box


def _stamp(deco: Stamp, ctx: Context) -> Built:
    box = ctx.place(deco, deco.size, deco.size)
    radius = deco.size / 2 if deco.shape == "circle" else deco.radius
    items: list[Item] = []
    if deco.fill is not None:
        items.append(Fill(box, ctx.paint(deco.fill), radius))
    if deco.stroke is not None:
        inner = _shrink(box, deco.stroke_width / 2)
        items.append(Stroke(inner, ctx.paint(deco.stroke), deco.stroke_width, radius))
    style = SpanStyle(
        family=deco.family,
        size=deco.text_size,
        bold=deco.weight >= 600,
        italic=False,
        color=parse_color(deco.text_color, ctx.palette),
    )
    line = one_line(deco.text, style, ctx.fonts, x=box.x, width=deco.size, align="center")
    if line is not None:
        items.append(Group(line.items, dy=box.y + (deco.size - line.height) / 2))
    return items, box


def _corners(deco: Corners, ctx: Context) -> Built:
    f, s = ctx.frame, deco.size
    paint = ctx.paint(deco.paint)
    items: list[Item] = []
    for corner in deco.corners:
        sx = -1.0 if corner.endswith("right") else 1.0
        sy = -1.0 if corner.startswith("bottom") else 1.0
        cx = (f.right if sx < 0 else f.x) + sx * deco.x
        cy = (f.bottom if sy < 0 else f.y) + sy * deco.y
        if deco.style == "bracket":
            ops: tuple[tuple[object, ...], ...] = (
                ("M", cx + sx * s, cy),
                ("L", cx, cy),
                ("L", cx, cy + sy * s),
            )
            items.append(Shape(ops, paint, None, deco.stroke_width))
            continue
        ops = (("M", cx, cy), ("L", cx + sx * s, cy))
        if deco.style == "fan":
            ops += (("A", s, s, 0.0, False, sx * sy > 0, cx, cy + sy * s),)
        else:
            ops += (("L", cx, cy + sy * s),)
        items.append(Shape((*ops, ("Z",)), None, paint))
    return items, f


def _page_frame(deco: PageFrame, ctx: Context) -> Built:
    paint = ctx.paint(deco.paint)
    outer = _shrink(ctx.frame, deco.inset + deco.width / 2)
    items: list[Item] = [Stroke(outer, paint, deco.width, deco.radius, deco.dash)]
    if deco.double:
        inner = _shrink(outer, deco.double + deco.width)
        radius = max(0.0, deco.radius - deco.double - deco.width)
        items.append(Stroke(inner, paint, deco.width, radius, deco.dash))
    return items, outer


def _shrink(rect: Rect, by: float) -> Rect:
    return Rect(rect.x + by, rect.y + by, rect.width - 2 * by, rect.height - 2 * by)


BUILDERS: dict[type, Callable[[Any, Context], Built]] = {
    Rule: _rule,
    Box: _rect,
    Circle: _circle,
    Icon: _icon,
    Label: _label,
    QuoteGlyph: _label,
    RuledLines: _ruled_lines,
    DotGrid: _dot_grid,
    Halftone: _halftone,
    Rings: _rings,
    Stamp: _stamp,
    Corners: _corners,
    PageFrame: _page_frame,
}
