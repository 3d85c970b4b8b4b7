"""Geometry of the block vocabulary: bullet shapes, number badges, rules with an ornament,
table chrome with rounded corners, and framed (matted, bordered, tilted) images.

Pure geometry on `boxes` records: the flow and the table layout decide where a block
goes and measure its text; these helpers turn a box and a style into the items that paint
it, and say how much room a framed image needs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

from ..base.boxes import (
    Effect,
    Fill,
    ImageRef,
    Item,
    Layer,
    Paint,
    Picture,
    Rect,
    Segment,
    Shape,
    Stroke,
)

STAR_INNER = 0.45  # a star's inner radius, a share of its outer one
BADGE_TEXT = 0.55  # a badge's number is this share of the badge's height
BADGE_PAD = 0.25  # a badge wider than tall (10., 100.) keeps this share of its height each side
ORNAMENT_GAP = 0.5  # em of space on each side of a rule's ornament


def bullet(shape: str, cx: float, cy: float, size: float, color: Paint) -> tuple[Item, ...]:
    """A list marker of `shape`, `size` px across, centred on (cx, cy)."""
    r = size / 2
    box = Rect(cx - r, cy - r, size, size)
    if shape == "disc":
        return (Fill(box, color, radius=r),)
    if shape == "square":
        return (Fill(box, color),)
    if shape == "circle":
        w = max(1.0, size / 6)
        ring = Rect(box.x + w / 2, box.y + w / 2, size - w, size - w)
        return (Stroke(ring, color, w, radius=(size - w) / 2),)
    if shape == "dash":
        t = max(1.5, size / 4)
        return (Fill(Rect(box.x, cy - t / 2, size, t), color, radius=t / 2),)
    if shape == "diamond":
        corners = ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy))
        return (Shape(_polygon(corners), stroke=None, fill=color),)
    if shape == "star":
        return (Shape(_star(cx, cy, r * 1.15), stroke=None, fill=color),)
    if shape == "check":
        tick = (
            ("M", box.x + size * 0.1, box.y + size * 0.55),
            ("L", box.x + size * 0.4, box.y + size * 0.85),
            ("L", box.x + size * 0.95, box.y + size * 0.2),
        )
        return (Shape(tick, stroke=color, fill=None, stroke_width=max(1.5, size / 4)),)
    if shape == "arrow":
        h = r * 0.8
        ops = (
            ("M", box.x, cy),
            ("L", box.right, cy),
            ("M", box.right - h, cy - h),
            ("L", box.right, cy),
            ("L", box.right - h, cy + h),
        )
        return (Shape(ops, stroke=color, fill=None, stroke_width=max(1.2, size / 5)),)
    raise ValueError(f"unknown marker shape {shape!r}")


def _star(cx: float, cy: float, r: float) -> tuple[tuple[object, ...], ...]:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * STAR_INNER
        angle = math.pi * k / 5 - math.pi / 2  # the first point straight up
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return _polygon(points)


def _polygon(points: Sequence[tuple[float, float]]) -> tuple[tuple[object, ...], ...]:
    ops: list[tuple[object, ...]] = [("M", *points[0])]
    ops.extend(("L", *p) for p in points[1:])
    ops.append(("Z",))
    return tuple(ops)


def badge_width(text_width: float, height: float) -> float:
    """A number badge's width: a disc or square while the number fits, else a pill."""
    return max(height, text_width + 2 * BADGE_PAD * height)


def badge(rect: Rect, paint: Paint, rounded: bool) -> Fill:
    """The badge behind a list number: a disc (a pill when wide) or a rounded square."""
    return Fill(rect, paint, radius=rect.height / 2 if rounded else rect.height * 0.25)


def rule_segments(
    x: float, width: float, y: float, gap: tuple[float, float] | None, segment: Segment
) -> tuple[Segment, ...]:
    """A horizontal rule from `x` across `width` at `y`, cut around `gap` (an ornament's
    left and right edges) when there is one; `segment` gives its paint, width and dash."""
    spans = [(x, x + width)] if gap is None else [(x, gap[0]), (gap[1], x + width)]
    return tuple(
        Segment(a, y, b, y, segment.color, segment.width, segment.dash, segment.round_cap)
        for a, b in spans
        if b > a
    )


def corner_fill(rect: Rect, paint: Paint, radius: float, *, top: bool, bottom: bool) -> Item:
    """`rect` filled with only its top and/or bottom corners rounded (a header or a last
    row inside a rounded table)."""
    r = min(radius, rect.width / 2, rect.height / 2)
    if r <= 0 or not (top or bottom):
        return Fill(rect, paint)
    x0, y0, x1, y1 = rect.x, rect.y, rect.right, rect.bottom
    rt, rb = (r if top else 0.0), (r if bottom else 0.0)
    ops: list[tuple[object, ...]] = [("M", x0, y0 + rt)]
    if rt:
        ops.append(("A", rt, rt, 0, 0, 1, x0 + rt, y0))
    ops.append(("L", x1 - rt, y0))
    if rt:
        ops.append(("A", rt, rt, 0, 0, 1, x1, y0 + rt))
    ops.append(("L", x1, y1 - rb))
    if rb:
        ops.append(("A", rb, rb, 0, 0, 1, x1 - rb, y1))
    ops.append(("L", x0 + rb, y1))
    if rb:
        ops.append(("A", rb, rb, 0, 0, 1, x0, y1 - rb))
    ops.append(("Z",))
    return Shape(tuple(ops), stroke=None, fill=paint)


class ImageFrame(msgspec.Struct, frozen=True):
    """What goes around an image: a mat of `padding` (top, right, bottom, left) in
    `mat`, a `border` of `border_width`, effects, and a tilt of `rotate` degrees."""

    padding: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    mat: Paint | None = None
    border: Paint | None = None
    border_width: float = 0.0
    radius: float = 0.0
    effects: tuple[Effect, ...] = ()
    rotate: float = 0.0

    @property
    def extra(self) -> tuple[float, float]:
        """The frame's own width and height around the picture (mat and border)."""
        top, right, bottom, left = self.padding
        w = self.border_width
        return left + right + 2 * w, top + bottom + 2 * w

    def bounds(self, width: float, height: float) -> tuple[float, float]:
        """The upright bounding box of the framed picture `width` x `height`, tilted."""
        fw, fh = width + self.extra[0], height + self.extra[1]
        c, s = abs(math.cos(math.radians(self.rotate))), abs(math.sin(math.radians(self.rotate)))
        return fw * c + fh * s, fw * s + fh * c

    def fit(self, width: float, height: float, room_w: float, room_h: float | None) -> float:
        """The largest scale, at most 1, at which the framed, tilted picture fits
        `room_w` x `room_h` (the bounding box is linear in the scale)."""
        scale = 1.0
        for axis, room in ((0, room_w), (1, room_h)):
            if room is None:
                continue
            fixed = self.bounds(0.0, 0.0)[axis]
            grows = self.bounds(width, height)[axis] - fixed
            if grows > 0 and fixed + grows * scale > room:
                scale = max(0.0, (room - fixed) / grows)
        return scale

    def items(self, image: ImageRef, picture: Rect) -> tuple[Item, ...]:
        """The mat, the picture and the border, in one layer with the effects and tilt."""
        top, _, _, left = self.padding
        w = self.border_width
        outer = Rect(
            picture.x - left - w,
            picture.y - top - w,
            picture.width + self.extra[0],
            picture.height + self.extra[1],
        )
        inner_radius = max(0.0, self.radius - w - min(self.padding))
        items: list[Item] = []
        if self.mat is not None and any(self.padding):
            items.append(Fill(outer, self.mat, self.radius))
        items.append(Picture(image, picture, inner_radius))
        if self.border is not None and w:
            ring = Rect(outer.x + w / 2, outer.y + w / 2, outer.width - w, outer.height - w)
            items.append(Stroke(ring, self.border, w, max(0.0, self.radius - w / 2)))
        if not (self.effects or self.rotate):
            return tuple(items)
        pivot = (outer.x + outer.width / 2, outer.y + outer.height / 2)
        return (Layer(tuple(items), self.effects, rotate=self.rotate, pivot=pivot),)
