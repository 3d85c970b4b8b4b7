"""A flowchart node's shape in its box → its outline: lines and cubic curves only (no arcs),
so `polygon` can flatten it to the points that edges are clipped to.

Boxes, cylinders, circles, diamonds, hexagons, leaning and trapezoid boxes, documents,
triangles, bolts: each shape `shapes.size` measured has its drawer here, a plain box the
rest; what is stroked inside an outline (a cylinder's rim, a subroutine's side bars) is
`details.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from ..marks import Op
from .shapes import WAVE, rim

Point = tuple[float, float]
K = 0.5523  # a quarter ellipse's cubic control distance, in radii


def outline(shape: str, x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    """The shape's outline in the box at (x, y), `w` x `h`: lines and cubics only."""
    draw = _OUTLINES.get(shape)
    return draw(x, y, w, h) if draw else _polygon(_rect_points(x, y, w, h))


def filled(shape: str) -> bool:
    """Whether the shape is a filled area (a brace or a text block is not)."""
    return shape not in ("text", "brace", "brace-r", "braces")


def polygon(ops: tuple[Op, ...]) -> list[Point]:
    """An outline's points, each cubic flattened to 8 segments (for clipping edges)."""
    points: list[Point] = []
    for op in ops:
        if op[0] in ("M", "L"):
            points.append((float(op[1]), float(op[2])))  # type: ignore[arg-type]
        elif op[0] == "C" and points:
            values = [float(v) for v in op[1:]]  # type: ignore[arg-type]
            start, c1, c2, end = points[-1], values[0:2], values[2:4], values[4:6]
            for step in range(1, 9):
                t = step / 8
                points.append(
                    tuple(  # type: ignore[arg-type]
                        (1 - t) ** 3 * start[i] + 3 * (1 - t) ** 2 * t * c1[i]
                        + 3 * (1 - t) * t**2 * c2[i] + t**3 * end[i]
                        for i in (0, 1)
                    )
                )  # fmt: skip
    return points


def _polygon(points: list[Point]) -> tuple[Op, ...]:
    return (("M", *points[0]), *(("L", *p) for p in points[1:]), ("Z",))


def _rect_points(x: float, y: float, w: float, h: float) -> list[Point]:
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def _round_rect(x: float, y: float, w: float, h: float, r: float) -> tuple[Op, ...]:
    """A rectangle with quarter-ellipse corners of radius `r`, as cubics."""
    r = min(r, w / 2, h / 2)
    c = r * (1 - K)
    return (
        ("M", x + r, y),
        ("L", x + w - r, y),
        ("C", x + w - c, y, x + w, y + c, x + w, y + r),
        ("L", x + w, y + h - r),
        ("C", x + w, y + h - c, x + w - c, y + h, x + w - r, y + h),
        ("L", x + r, y + h),
        ("C", x + c, y + h, x, y + h - c, x, y + h - r),
        ("L", x, y + r),
        ("C", x, y + c, x + c, y, x + r, y),
        ("Z",),
    )


def ellipse(cx: float, cy: float, rx: float, ry: float) -> tuple[Op, ...]:
    """An ellipse as four cubics, from its left point, clockwise."""
    kx, ky = rx * K, ry * K
    return (
        ("M", cx - rx, cy),
        ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        ("Z",),
    )


def _circle_in(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    return ellipse(x + w / 2, y + h / 2, w / 2, h / 2)


def _cylinder(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    """Sides and both ends' outer halves: the body of a database."""
    rx, ry = w / 2, rim(w)
    kx, ky = rx * K, ry * K
    cx, top, bottom = x + w / 2, y + ry, y + h - ry
    return (
        ("M", x, top),
        ("C", x, top - ky, cx - kx, top - ry, cx, top - ry),
        ("C", cx + kx, top - ry, x + w, top - ky, x + w, top),
        ("L", x + w, bottom),
        ("C", x + w, bottom + ky, cx + kx, bottom + ry, cx, bottom + ry),
        ("C", cx - kx, bottom + ry, x, bottom + ky, x, bottom),
        ("Z",),
    )


def _h_cylinder(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    rx, ry = rim(h), h / 2
    kx, ky = rx * K, ry * K
    left, right, cy = x + rx, x + w - rx, y + h / 2
    return (
        ("M", left, y),
        ("L", right, y),
        ("C", right + kx, y, right + rx, cy - ky, right + rx, cy),
        ("C", right + rx, cy + ky, right + kx, y + h, right, y + h),
        ("L", left, y + h),
        ("C", left - kx, y + h, left - rx, cy + ky, left - rx, cy),
        ("C", left - rx, cy - ky, left - kx, y, left, y),
        ("Z",),
    )


def _wave_bottom(x: float, y: float, w: float, h: float, flag: bool = False) -> tuple[Op, ...]:
    """A document: a box whose bottom edge is one wave (`flag`: the top one too)."""
    amp = h * WAVE
    base = y + h - amp
    top: list[Op] = [("M", x, y + amp if flag else y)]
    if flag:
        top.append(("C", x + w / 3, y - amp, x + 2 * w / 3, y + 3 * amp, x + w, y + amp))
    else:
        top.append(("L", x + w, y))
    return (
        *top,
        ("L", x + w, base),
        ("C", x + 2 * w / 3, base - 2 * amp, x + w / 3, base + 2 * amp, x, base),
        ("Z",),
    )


Drawer = Callable[[float, float, float, float], tuple[Op, ...]]


def _stacked(draw: Drawer, offset: float) -> Drawer:
    """Two copies of a shape, the back one `offset` up and right (many documents)."""

    def stacked(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
        return (
            *draw(x + offset, y, w - offset, h - offset),
            *draw(x, y + offset, w - offset, h - offset),
        )

    return stacked


def _delay(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    r = h / 2
    c = r * K
    right = x + w - r
    return (
        ("M", x, y),
        ("L", right, y),
        ("C", right + c, y, x + w, y + r - c, x + w, y + r),
        ("C", x + w, y + r + c, right + c, y + h, right, y + h),
        ("L", x, y + h),
        ("Z",),
    )


def _curved_trapezoid(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    """A display: a pointed left end, a round right one."""
    r = h / 2
    c = r * K
    right = x + w - r
    return (
        ("M", x + r * 0.8, y),
        ("L", right, y),
        ("C", right + c, y, x + w, y + r - c, x + w, y + r),
        ("C", x + w, y + r + c, right + c, y + h, right, y + h),
        ("L", x + r * 0.8, y + h),
        ("L", x, y + r),
        ("Z",),
    )


def _bow(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    """Stored data: both ends curved the same way, the left one hollow."""
    d = h / 4
    return (
        ("M", x + d, y),
        ("L", x + w - d, y),
        ("C", x + w + d / 2, y, x + w + d / 2, y + h, x + w - d, y + h),
        ("L", x + d, y + h),
        ("C", x + d * 2.5, y + h, x + d * 2.5, y, x + d, y),
        ("Z",),
    )


def _hourglass(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    return _polygon([(x, y), (x + w, y), (x, y + h), (x + w, y + h)])


def _bolt(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    return _polygon(
        [(x + w * 0.6, y), (x + w * 0.2, y + h * 0.55), (x + w * 0.5, y + h * 0.5),
         (x + w * 0.35, y + h), (x + w * 0.8, y + h * 0.42), (x + w * 0.5, y + h * 0.47)]
    )  # fmt: skip


def _points(make: Callable[[float, float, float, float], list[Point]]) -> Drawer:
    """An outline drawer from a function of the box giving the polygon's points."""

    def draw(x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
        return _polygon(make(x, y, w, h))

    return draw


_OUTLINES: dict[str, Callable[[float, float, float, float], tuple[Op, ...]]] = {
    "round": lambda x, y, w, h: _round_rect(x, y, w, h, 10.0),
    "stadium": lambda x, y, w, h: _round_rect(x, y, w, h, h / 2),
    "rect": lambda x, y, w, h: _round_rect(x, y, w, h, 3.0),
    "circle": _circle_in,
    "dcircle": _circle_in,
    "sm-circ": _circle_in,
    "f-circ": _circle_in,
    "fr-circ": _circle_in,
    "cross-circ": _circle_in,
    "cylinder": _cylinder,
    "lin-cyl": _cylinder,
    "h-cyl": _h_cylinder,
    "rhombus": _points(
        lambda x, y, w, h: [(x + w / 2, y), (x + w, y + h / 2), (x + w / 2, y + h), (x, y + h / 2)]
    ),
    "hexagon": _points(
        lambda x, y, w, h: [
            (x + h * 0.4, y),
            (x + w - h * 0.4, y),
            (x + w, y + h / 2),
            (x + w - h * 0.4, y + h),
            (x + h * 0.4, y + h),
            (x, y + h / 2),
        ]
    ),
    "lean-r": _points(
        lambda x, y, w, h: [(x + h / 2, y), (x + w, y), (x + w - h / 2, y + h), (x, y + h)]
    ),
    "lean-l": _points(
        lambda x, y, w, h: [(x, y), (x + w - h / 2, y), (x + w, y + h), (x + h / 2, y + h)]
    ),
    "trap-b": _points(
        lambda x, y, w, h: [(x + h / 2, y), (x + w - h / 2, y), (x + w, y + h), (x, y + h)]
    ),
    "trap-t": _points(
        lambda x, y, w, h: [(x, y), (x + w, y), (x + w - h / 2, y + h), (x + h / 2, y + h)]
    ),
    "odd": _points(
        lambda x, y, w, h: [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x + h / 2, y + h / 2)]
    ),
    "tri": _points(lambda x, y, w, h: [(x + w / 2, y), (x + w, y + h), (x, y + h)]),
    "flip-tri": _points(lambda x, y, w, h: [(x, y), (x + w, y), (x + w / 2, y + h)]),
    "notch-rect": _points(
        lambda x, y, w, h: [(x + 12, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y + 12)]
    ),
    "sl-rect": _points(lambda x, y, w, h: [(x, y + 10), (x + w, y), (x + w, y + h), (x, y + h)]),
    "notch-pent": _points(
        lambda x, y, w, h: [
            (x + h / 4, y),
            (x + w - h / 4, y),
            (x + w, y + h / 4),
            (x + w, y + h),
            (x, y + h),
            (x, y + h / 4),
        ]
    ),
    "fork": _points(_rect_points),
    "doc": _wave_bottom,
    "tag-doc": _wave_bottom,
    "docs": _stacked(_wave_bottom, 6.0),
    "st-rect": _stacked(lambda x, y, w, h: _polygon(_rect_points(x, y, w, h)), 6.0),
    "flag": lambda x, y, w, h: _wave_bottom(x, y, w, h, flag=True),
    "delay": _delay,
    "curv-trap": _curved_trapezoid,
    "bow-rect": _bow,
    "hourglass": _hourglass,
    "bolt": _bolt,
}
