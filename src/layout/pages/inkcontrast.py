"""A laid-out card's text → its least contrast against what is painted under it, as the
quality report reads it (`quality.measure`).

What is under a line of text is worked out from the items painted before it: the card's
colour, then every filled rectangle (a panel, a highlight, the background's gradient) and
filled shape (a table's rounded header, a theme's glow: circles exactly, paths by their
corners) that covers the line's middle, each composited over the last at its own opacity
and its layer's. A gradient is sampled where the line is; a pattern counts by its ground.
Images and patterns' motifs are not counted. The ratio a run needs is WCAG's: 4.5:1, or
3:1 for large text.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from ..base.boxes import (
    Cached,
    Fill,
    GlyphRun,
    Gradient,
    Group,
    Item,
    Layer,
    Page,
    Paint,
    Pattern,
    Rect,
    Shape,
)
from ..style.resolver import contrast, contrast_asked

BOLD_FACES = ("Bold", "Black", "Heavy", "SemiBold")  # what a face's name says of its weight


@dataclass(frozen=True, slots=True)
class _Ground:
    """A filled shape painted under what follows it, in card px: its bounds (what a paint
    is laid over), and unless it is a plain rectangle, its outline as circles and polygons
    (a path's corners; the even-odd rule, so a ring is empty in its middle)."""

    rect: Rect
    paint: Paint
    opacity: float
    circles: tuple[tuple[float, float, float], ...] = ()
    polygons: tuple[tuple[tuple[float, float], ...], ...] = ()

    def covers(self, px: float, py: float) -> bool:
        r = self.rect
        if not (r.x <= px <= r.right and r.y <= py <= r.bottom):
            return False
        if not (self.circles or self.polygons):
            return True
        if any((px - cx) ** 2 + (py - cy) ** 2 <= radius**2 for cx, cy, radius in self.circles):
            return True
        return sum(_crossings(polygon, px, py) for polygon in self.polygons) % 2 == 1


def _crossings(polygon: tuple[tuple[float, float], ...], px: float, py: float) -> int:
    """How many edges of `polygon` a ray from (px, py) to the right crosses."""
    count = 0
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            count += 1
    return count


def lowest_contrast(page: Page, text: set[int]) -> tuple[float, float]:
    """The least WCAG ratio of a run of the post's text (ids in `text`) against what is
    painted under its middle, and the largest shortfall of a run under the ratio its size
    asks for (`style.resolver.contrast_asked`)."""
    grounds: list[_Ground] = []
    lowest, short = 21.0, 0.0
    for item, x, y, scale, opacity in _walk(page.items, 0.0, 0.0, 1.0, 1.0):
        if isinstance(item, GlyphRun):
            if id(item) not in text:
                continue
            size = item.size * scale
            left, right = x + item.xs[0] * scale, x + item.xs[-1] * scale + size / 2
            point = ((left + right) / 2, y + item.ys[0] * scale - size * 0.35)
            under = _under(point, page.background, grounds)
            ratio = contrast(_over(item.color, under, opacity), under)
            lowest = min(lowest, ratio)
            short = max(short, _asked(item, scale) - ratio)
        else:
            ground = _ground(item, x, y, scale, opacity)
            if ground is not None:
                grounds.append(ground)
    return round(lowest, 2), short


def _asked(run: GlyphRun, scale: float) -> float:
    """The contrast WCAG asks of `run`: less for large text (24 px, or 18.66 px bold)."""
    return contrast_asked(run.size * scale, any(weight in run.face for weight in BOLD_FACES))


def _walk(
    items: tuple[Item, ...], x: float, y: float, scale: float, opacity: float
) -> Iterator[tuple[Item, float, float, float, float]]:
    """Every leaf item in paint order with the offset, scale and opacity it is drawn at."""
    for item in items:
        if isinstance(item, Group):
            inner = (x + item.dx * scale, y + item.dy * scale, scale * item.scale)
            yield from _walk(item.items, *inner, opacity)
        elif isinstance(item, Layer):
            yield from _walk(item.items, x, y, scale, opacity * item.opacity)
        elif isinstance(item, Cached):
            yield from _walk(item.items, x, y, scale, opacity)
        else:
            yield item, x, y, scale, opacity


def _ground(item: Item, x: float, y: float, scale: float, opacity: float) -> _Ground | None:
    """`item` as a ground text may sit on (a filled rectangle or shape), else None."""
    if isinstance(item, Fill):
        r = item.rect
        rect = Rect(x + r.x * scale, y + r.y * scale, r.width * scale, r.height * scale)
        return _Ground(rect, item.color, opacity)
    if not isinstance(item, Shape) or item.fill is None:
        return None
    circles: list[tuple[float, float, float]] = []
    polygons: list[tuple[tuple[float, float], ...]] = []
    corners: list[tuple[float, float]] = []
    for op in item.ops:
        if op[0] == "O":  # a circle: cx cy r
            circles.append((x + op[1] * scale, y + op[2] * scale, op[3] * scale))
        elif op[0] == "Z" or op[0] == "M":
            if len(corners) > 2:
                polygons.append(tuple(corners))
            corners = [] if op[0] == "Z" else [(x + op[1] * scale, y + op[2] * scale)]
        else:  # L, Q, C, A: where the segment ends
            corners.append((x + op[-2] * scale, y + op[-1] * scale))
    if len(corners) > 2:
        polygons.append(tuple(corners))
    points = [p for polygon in polygons for p in polygon]
    points += [(cx + dx * r, cy + dy * r) for cx, cy, r in circles for dx, dy in ((-1, -1), (1, 1))]
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    rect = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    return _Ground(rect, item.fill, opacity, tuple(circles), tuple(polygons))


def _under(point: tuple[float, float], background: int, grounds: list[_Ground]) -> int:
    """The colour at `point` after every ground that covers it is painted on the card."""
    colour = background | 0xFF000000
    px, py = point
    for ground in grounds:
        if not ground.covers(px, py):
            continue
        paint = _colour_at(ground.paint, ground.rect, px, py)
        if paint is not None:
            colour = _over(paint, colour, ground.opacity)
    return colour


def _colour_at(paint: Paint, rect: Rect, px: float, py: float) -> int | None:
    """The colour `paint` laid over `rect` has at (px, py), as shaders.py lays it."""
    if isinstance(paint, int):
        return paint
    if isinstance(paint, Pattern):
        return paint.background
    return _gradient_at(paint, rect, px, py)


def _gradient_at(paint: Gradient, rect: Rect, px: float, py: float) -> int:
    cx, cy = rect.x + paint.center[0] * rect.width, rect.y + paint.center[1] * rect.height
    if paint.kind == "radial":
        radius = max(paint.radius * max(rect.width, rect.height), 1e-3)
        t = math.hypot(px - cx, py - cy) / radius
    elif paint.kind == "sweep":
        turn = math.degrees(math.atan2(px - cx, cy - py)) - paint.angle
        t = (turn % 360.0) / 360.0
    else:  # linear, the CSS way: along the angle, corner to corner
        turn = math.radians(paint.angle)
        dx, dy = math.sin(turn), -math.cos(turn)
        half = (abs(rect.width * dx) + abs(rect.height * dy)) / 2 or 1.0
        mx, my = rect.x + rect.width / 2, rect.y + rect.height / 2
        t = ((px - mx) * dx + (py - my) * dy) / (2 * half) + 0.5
    return _stop_colour(paint, min(1.0, max(0.0, t)))


def _stop_colour(paint: Gradient, t: float) -> int:
    colours = paint.colors
    if len(colours) == 1:
        return colours[0]
    stops = paint.positions or tuple(i / (len(colours) - 1) for i in range(len(colours)))
    for (a, ca), (b, cb) in zip(
        zip(stops, colours, strict=True), zip(stops[1:], colours[1:], strict=True), strict=False
    ):
        if t <= b:
            share = 0.0 if b <= a else max(0.0, (t - a) / (b - a))
            return _mix(ca, cb, share)
    return colours[-1]


def _mix(a: int, b: int, share: float) -> int:
    out = 0
    for shift in (24, 16, 8, 0):
        one, two = a >> shift & 0xFF, b >> shift & 0xFF
        out |= round(one + (two - one) * share) << shift
    return out


def _over(colour: int, under: int, opacity: float) -> int:
    """`colour` (ARGB) at its alpha times `opacity`, composited over the opaque `under`."""
    alpha = (colour >> 24 & 0xFF) / 255 * opacity
    out = 0xFF000000
    for shift in (16, 8, 0):
        top, bottom = colour >> shift & 0xFF, under >> shift & 0xFF
        out |= round(top * alpha + bottom * (1 - alpha)) << shift
    return out
