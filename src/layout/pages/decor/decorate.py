"""A decoration spec + the frame it sits in → items to paint.

One builder per kind of decorations.py (`BUILDERS`); `build` wraps a builder's items in a
layer when the spec rotates, fades or adds effects, and keeps an `avoid_text` ornament off
the card's text rows (by `clearance.clear_shift`, where that rule is written once). Labels and
stamps shape text (chrome.one_line), so this module belongs to the engine, not to the theme
schema.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...base.boxes import Fill, Group, Item, Layer, Pattern, Rect, Segment, Shape, Stroke
from ...base.fonts import FontBook
from ...base.svgpath import parse_svg_path, transform
from ...style.decorations import (
    Box,
    Circle,
    Corners,
    DecoBase,
    Decoration,
    DotGrid,
    Halftone,
    Icon,
    Insets,
    Label,
    PageFrame,
    QuoteGlyph,
    Rings,
    Rule,
    RuledLines,
    Stamp,
)
from ...style.looks import text_look
from ...style.paint import PaintSpec, parse_color, resolve_effects, resolve_paint
from ..marks.chrome import one_line
from .clearance import Panel, ink_box, keep_off_text, shrink, turned


@dataclass(frozen=True, slots=True)
class Context:
    """What a builder may use: the frame's box, palette tokens, fonts, text baselines;
    and what `avoid_text` keeps clear of: the boxes of the card's text rows, on the card
    (or on the theme's text panel, for an ornament the theme set inside it)."""

    frame: Rect
    palette: dict[str, str]
    fonts: FontBook
    baselines: tuple[float, ...] = ()
    text: tuple[Rect, ...] = ()
    card: Rect | None = None
    panel: Panel | None = None  # the panel the card's text is set on, if any
    figures: tuple[tuple[float, float], ...] = ()  # the top and bottom of each figure row

    def paint(self, spec: PaintSpec | None) -> Any:
        return None if spec is None else resolve_paint(spec, self.palette)

    def place(self, deco: DecoBase, width: float, height: float) -> Rect:
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
    """The items of one decoration, wrapped in a layer for rotation, opacity and effects,
    moved off the text (or left out) when it is marked `avoid_text`."""
    return build_parts((deco,), ctx)


def build_parts(parts: tuple[Decoration, ...], ctx: Context) -> list[Item]:
    """The items of one ornament drawn as `parts` (`parts_of`: fairytale's rainbow, an arc
    a colour), each wrapped as `build` wraps one, moved off the text together, by the box
    all of them draw in: moved each by its own box, the arcs came apart."""
    items: list[Item] = []
    inks: list[Rect] = []
    for deco in parts:
        drawn, box = BUILDERS[type(deco)](deco, ctx)
        if not drawn:
            continue
        if deco.rotate != 0.0 or deco.opacity != 1.0 or deco.effects:
            drawn = [
                Layer(
                    tuple(drawn),
                    resolve_effects(deco.effects, ctx.palette),
                    deco.opacity,
                    deco.rotate,
                    (box.x + box.width / 2, box.y + box.height / 2),
                )
            ]
        items += drawn
        pivot = (box.x + box.width / 2, box.y + box.height / 2)
        inks.append(turned(ink_box(drawn, box), deco.rotate, pivot))
    if not items or not parts[0].avoid_text:
        return items
    left, top = min(r.x for r in inks), min(r.y for r in inks)
    right, bottom = max(r.right for r in inks), max(r.bottom for r in inks)
    ink = Rect(left, top, right - left, bottom - top)
    return keep_off_text(items, parts[0].anchor, ink, ctx.text, ctx.card or ctx.frame, ctx.panel)


def parts_of(decorations: list[Decoration]) -> list[tuple[Decoration, ...]]:
    """`decorations` in runs that are one ornament: next to each other in the theme, kept
    off the text, in the same frame and layer, at the same anchor and offsets (the
    rainbow's three arcs, each its own colour); every other decoration alone."""
    runs: list[tuple[Decoration, ...]] = []
    for deco in decorations:
        last = runs[-1][-1] if runs else None
        if last is not None and deco.avoid_text and _place_key(last) == _place_key(deco):
            runs[-1] = (*runs[-1], deco)
        else:
            runs.append((deco,))
    return runs


def _place_key(deco: Decoration) -> tuple[object, ...]:
    """What decorations of one ornament share: how they keep off the text, their frame,
    layer, anchor, offsets, kind and size."""
    where = (deco.avoid_text, deco.frame, deco.layer, deco.anchor, deco.x, deco.y)
    return (*where, type(deco), getattr(deco, "size", None))


def footprint(deco: Decoration, ctx: Context) -> Rect | None:
    """Where one decoration draws: the box of its shapes' points (the builder's box for
    anything else), turned as the decoration is; None when it draws nothing. What a brand
    kit's marks keep clear of (`cardface.ornament_boxes`)."""
    items, box = BUILDERS[type(deco)](deco, ctx)
    if not items:
        return None
    pivot = (box.x + box.width / 2, box.y + box.height / 2)
    return turned(ink_box(items, box), deco.rotate, pivot)


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
    if deco.inset:
        box = ctx.inset(deco.inset)
    else:  # a side of 0 spans the frame less the offset twice, as a rule's length does
        width = deco.width or max(0.0, ctx.frame.width - 2 * deco.x)
        height = deco.height or max(0.0, ctx.frame.height - 2 * deco.y)
        box = ctx.place(deco, width, height)
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
    color = parse_color(deco.color, ctx.palette)
    style = text_look(deco.family, deco.size, color, weight=deco.weight, italic=deco.italic)
    line = one_line(deco.text, style, ctx.fonts, x=0.0, width=ctx.frame.width, align="left")
    if line is None:
        return [], ctx.frame
    box = ctx.place(deco, line.width, line.height)
    return [Group(line.items, dx=box.x, dy=box.y)], box


def _ruled_lines(deco: RuledLines, ctx: Context) -> Built:
    f = ctx.frame
    lines = sorted({y for y in ctx.baselines if f.y <= y <= f.bottom})
    ys = [y + deco.offset for y in _ruled_baselines(lines, deco.pitch)]
    if deco.extend:
        pitch = deco.pitch or (ys[-1] - ys[-2] if len(ys) > 1 else 24.0)
        y = ys[-1] + pitch if ys else f.y + pitch
        while y <= f.bottom and pitch > 0.5:
            ys.append(y)
            y += pitch
    ys = [y for y in ys if not any(top <= y <= bottom for top, bottom in ctx.figures)]
    paint = ctx.paint(deco.paint)
    left, right = f.x + deco.x, f.right - deco.x
    return [Segment(left, y, right, y, paint, deco.width) for y in ys], f


# Lines closer than this share of the paper's pitch are one block set tight (a wrapped
# heading at 0.9): a rule under the first would run through the second's letters.
_TIGHT_PITCH = 0.8


def _ruled_baselines(lines: list[float], pitch: float) -> list[float]:
    """The baselines that get a rule: each, except one whose next line sits closer than
    the paper's pitch allows (ruled paper has no rule between a title's two lines)."""
    if pitch <= 0 or not lines:
        return lines
    return [
        y
        for y, below in zip(lines, [*lines[1:], math.inf], strict=True)
        if below - y >= pitch * _TIGHT_PITCH
    ]


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
    top, bottom = f.y + deco.y, f.bottom - deco.end
    # as many rings as the run holds, centred in it: both ends keep the same margin (the
    # spare of the last spacing all fell at the bottom, a ring short on coil-notebook)
    count = max(0, math.floor((bottom - top) / deco.spacing + 1e-6))
    y = top + deco.spacing / 2 + (bottom - top - count * deco.spacing) / 2
    for _ in range(count):
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
        inner = shrink(box, deco.stroke_width / 2)
        items.append(Stroke(inner, ctx.paint(deco.stroke), deco.stroke_width, radius))
    color = parse_color(deco.text_color, ctx.palette)
    style = text_look(deco.family, deco.text_size, color, weight=deco.weight)
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
    outer = shrink(ctx.frame, deco.inset + deco.width / 2)
    items: list[Item] = [Stroke(outer, paint, deco.width, deco.radius, deco.dash)]
    if deco.double:
        inner = shrink(outer, deco.double + deco.width)
        radius = max(0.0, deco.radius - deco.double - deco.width)
        items.append(Stroke(inner, paint, deco.width, radius, deco.dash))
    return items, outer


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
