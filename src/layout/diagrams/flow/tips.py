"""An edge coming into a diamond at the tip its other edges leave from → in at a side; one
leaving a tip another edge uses, only to turn back past the diamond → out of its side.

`route.route_in_gaps` brings every edge into a pointed shape at its centre line (a
diamond's edges meet at its tips, not side by side), so a loop back into a decision
(`D --> B` after `B -->|no| D`) ends on the very tip the branches leave from: three lines
on one point, the arrowhead among the branches' starts. mermaid-js brings such an edge in
on the diamond's side face; so does this, straight along the flow into the middle of the
face on the side the edge comes from, the route's last run moved over with it. A loop
back up from a decision left its bottom tip beside the branch going down, ran under the
diamond and rose beside it; it leaves by the side tip now, straight across to its rise
(`_out_of_side`), where no box or chip stands in the way.
"""

from __future__ import annotations

from .chips import chip_onto
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
    for index, (source, target) in enumerate(ends):
        node, points = placed[source], out[index]
        if source == target or len(points) < 4 or node.node is None:
            continue
        tip = _tip(node, points[1]) if node.node.shape in TIPPED else None
        if tip is None or not any(_tip(node, at) == tip for at in _others_at(ends, out, index)):
            continue
        side = _out_of_side(points, node, tip, _boxes(placed, source, index))
        if side is not None and chip_onto(side, placed, f"\0label{index}"):
            out[index] = side
    return out


def _others_at(ends: list[tuple[str, str]], lines: list[list[Point]], index: int) -> list[Point]:
    """The points next to the source of edge `index` on its node's other edges' lines:
    where each of them meets that node."""
    source = ends[index][0]
    near = []
    for k, ((start, end), line) in enumerate(zip(ends, lines, strict=True)):
        if k == index or len(line) < 2 or start == end:
            continue
        if start == source:
            near.append(line[1])
        elif end == source:
            near.append(line[-2])
    return near


def _boxes(placed: dict[str, Placed], source: str, index: int) -> list[tuple[float, ...]]:
    """What a line may not cross: every node and chip but the edge's own source and chip."""
    own = (source, f"\0label{index}")
    return [p.bounds() for key, p in placed.items() if key not in own]


def _out_of_side(
    points: list[Point], node: Placed, tip: tuple[int, float], boxes: list[tuple[float, ...]]
) -> list[Point] | None:
    """A line that leaves a diamond's tip, turns aside past the diamond and comes back
    past its centre (a loop back up beside the decision: 66's 退回 under 主编审核, beside
    the "通过" branch leaving the same tip), sent out of the side tip instead, straight
    across to where it turns back; None where it does not run so, or a box stands in the
    way across."""
    axis, sign = tip
    across = 1 - axis
    centre = (node.x, node.y)
    half = (node.w if across == 0 else node.h) / 2
    turn = next((k for k, p in enumerate(points) if abs(p[across] - centre[across]) > half), None)
    if turn is None or (points[turn][axis] - centre[axis]) * sign <= 0:
        return None  # it never gets past the side, or it does before the tip
    column = points[turn][across]
    back = turn
    while back < len(points) and abs(points[back][across] - column) <= ON_AXIS:
        if (points[back][axis] - centre[axis]) * sign < 0:
            break  # back past the centre along its column
        back += 1
    if back == len(points) or abs(points[back][across] - column) > ON_AXIS:
        return None
    corner = _with(centre, across, column)
    low, high = sorted((centre[across] + half * (1 if column > centre[across] else -1), column))
    for box in boxes:
        if (
            box[across] < high
            and low < box[across + 2]
            and box[axis] < centre[axis] < box[axis + 2]
        ):
            return None
    return [centre, corner, *points[back:]]


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
