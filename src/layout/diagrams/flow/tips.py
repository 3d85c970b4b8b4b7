"""An edge coming into a diamond at the tip its other edges leave from → in at a side.

`route.route_in_gaps` brings every edge into a pointed shape at its centre line (a
diamond's edges meet at its tips, not side by side), so a loop back into a decision
(`D --> B` after `B -->|no| D`) ends on the very tip the branches leave from: three lines
on one point, the arrowhead among the branches' starts. mermaid-js brings such an edge in
on the diamond's side face; so does this, straight along the flow into the middle of the
face on the side the edge comes from, the route's last run moved over with it.
"""

from __future__ import annotations

from .outlines import outline, polygon
from .paint import Placed, ray_exit

TIPPED = ("rhombus",)  # shapes whose edges meet at a tip (a circle's meet round its rim)
ON_AXIS = 0.5  # px a point may stand off a node's centre line and still be on it
Point = tuple[float, float]


def off_shared_tips(
    ends: list[tuple[str, str]], lines: list[list[Point]], placed: dict[str, Placed]
) -> list[list[Point]]:
    """The edges' lines (each from its source's centre to its target's, `ends` their
    nodes' ids), each that comes into a diamond's tip where another of its edges leaves
    brought in at the side face instead (module doc)."""
    out = [list(points) for points in lines]
    for index, (source, target) in enumerate(ends):
        node, points = placed[target], out[index]
        if source == target or len(points) < 3 or node.node is None:
            continue
        if node.node.shape not in TIPPED:
            continue
        tip = _tip(node, points[-2])
        leaving = [
            other[1] for k, other in enumerate(out) if k != index and ends[k][0] == target and other
        ]
        if tip is not None and any(_tip(node, start) == tip for start in leaving):
            out[index] = _into_side(points, node, tip)
    return out


def _tip(node: Placed, point: Point) -> tuple[int, float] | None:
    """Which tip a line's point next to the node's centre meets it at: the axis the line
    runs along (1: up or down, 0: left or right) and the side (-1, 1); none when the point
    is off both centre lines."""
    if abs(point[0] - node.x) <= ON_AXIS and abs(point[1] - node.y) > ON_AXIS:
        return 1, 1.0 if point[1] > node.y else -1.0
    if abs(point[1] - node.y) <= ON_AXIS and abs(point[0] - node.x) > ON_AXIS:
        return 0, 1.0 if point[0] > node.x else -1.0
    return None


def _into_side(points: list[Point], node: Placed, tip: tuple[int, float]) -> list[Point]:
    """`points` with their last run along the centre line moved a quarter of the node
    across, toward where the line comes from, and ended on the face there."""
    axis, _ = tip
    across = 1 - axis  # the coordinate the run is moved in
    centre = (node.x, node.y)
    before = next(
        (p for p in reversed(points[:-1]) if abs(p[across] - centre[across]) > ON_AXIS),
        (centre[0] + 1.0, centre[1] + 1.0),  # a straight line: the right or lower side
    )
    side = 1.0 if before[across] > centre[across] else -1.0
    reach = (node.w if across == 0 else node.h) / 4
    moved = centre[across] + side * reach
    out = list(points[:-1])
    k = len(out) - 1
    while k >= 1 and abs(out[k][across] - centre[across]) <= ON_AXIS:
        out[k] = _with(out[k], across, moved)
        k -= 1
    inside = _with(centre, across, moved)  # on the face's middle line, inside the shape
    shape = polygon(outline(node.node.shape if node.node else "rect", *_box(node)))
    face = ray_exit(inside, out[-1], shape)
    return [*out, face, centre]


def _with(point: Point, axis: int, value: float) -> Point:
    return (value, point[1]) if axis == 0 else (point[0], value)


def _box(node: Placed) -> tuple[float, float, float, float]:
    return node.x - node.w / 2, node.y - node.h / 2, node.w, node.h
