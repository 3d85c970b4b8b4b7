"""A placed flowchart node or edge → its marks: the shape, the author's colours, the line ends.

A node is its shape (`shapes`) filled with the accent's tint and no outline (a hard line
round a label reads as line art to OCR), or in the author's `classDef`/`style` colours, which
pass on as `#rrggbb` roles; a label on an author's fill takes the darker or lighter ink that
reads on it. An edge is a polyline with rounded corners in the line colour (or its
`linkStyle`), ended by an arrowhead, a filled dot (`--o`) or a cross (`--x`); an invisible link
(`~~~`) is not drawn.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

from ...style.resolver import contrast
from ..marks import (
    CHIP_FILLS,
    LABEL_SIZE,
    LINE_WIDTH,
    MAX_LABEL_WIDTH,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    arrowhead,
    circle_ops,
    rect_ops,
    tint,
)
from ..mermaid import Edge, Node
from .details import details
from .outlines import filled, outline, polygon
from .style import Look

DARK_INK, LIGHT_INK = "#1c1f23", "#ffffff"  # a label's ink on an author's fill
DETAIL_WIDTH = 1.2
STRAIGHT = 0.05  # px a point may stand off the line through its neighbours and still be on it
CORNER = 10.0
LOOP_REACH = 20.0  # px a loop (an edge from its node to itself) reaches right of the node
LOOP_RISE = 14.0  # ... and above it  # px of a bend rounded off
LOOP_GAP = 4.0  # px between a loop and its label's chip
LOOP_HALF = 10.0  # px: half a loop's width where it stands on its node (a chart laid across)
LOOP_INSET = 6.0  # px ... between it and its node's right end: the top's middle takes a line in
CHIP_PAD = (14.0, 6.0)  # px an edge label's chip adds to its text's width and height
SOLID = ("f-circ", "fork", "sm-circ")  # drawn in the text colour, as mermaid-js draws them
ROUND_SHAPES = ("circle", "dcircle", "sm-circ", "f-circ", "fr-circ", "cross-circ")


@dataclass(frozen=True, slots=True)
class Placed:
    """A laid-out vertex: a node, or (node None) an edge's label chip; centre x, y."""

    node: Node | None
    text: Lines
    w: float
    h: float
    x: float
    y: float

    def bounds(self) -> tuple[float, float, float, float]:
        """Its box: left, top, right, bottom."""
        return self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2


def node_marks(p: Placed) -> list[Mark]:
    """The node's shape, in the theme's tint or its author's look, then its details."""
    assert p.node is not None
    x, y, shape, look = p.x - p.w / 2, p.y - p.h / 2, p.node.shape, p.node.look
    dash = look.dash
    width = look.width if look.width is not None else LINE_WIDTH
    fill: str | None = None  # a text block or a brace: no area (its mark bounds the label)
    if filled(shape):
        fill = look.fill or (tint("accent") if shape not in SOLID else "text")
    stroke = look.stroke if look.width != 0 and fill else None
    out = [Mark(outline(shape, x, y, p.w, p.h), stroke, fill, width, dash)]
    extra = details(shape, x, y, p.w, p.h)
    if extra:
        out.append(Mark(extra, look.stroke or "accent", None, DETAIL_WIDTH, None))
    return out


def look_text(
    measure: Measure, text: str, size: float, bold: bool, width: float, look: Look
) -> Lines:
    """A node's, class's or state's label measured at the weight its `look` sets (else
    `bold`) and slanted where it sets `font-style` (a slant takes no width)."""
    weight = bold if look.bold is None else look.bold
    return replace(measure(text, size, weight, width), italic=bool(look.italic))


def label_colour(node: Node) -> str:
    """The label's ink: the author's `color`, else on an author's fill the ink that reads."""
    return look_ink(node.look)


def look_ink(look: Look) -> str:
    """The ink of a label on a shape in `look` (a class's or a state's too)."""
    if look.color:
        return look.color
    if look.fill:
        fill = _argb(look.fill)
        return max((DARK_INK, LIGHT_INK), key=lambda ink: contrast(_argb(ink), fill))
    return "text"


def _argb(hex_colour: str) -> int:
    return 0xFF000000 | int(hex_colour[1:7], 16)


def clip(p: Placed, toward: tuple[float, float]) -> tuple[float, float]:
    """Where the line from the centre of `p` toward a point leaves its shape."""
    dx, dy = toward[0] - p.x, toward[1] - p.y
    if dx == 0 and dy == 0:
        return p.x, p.y
    shape = p.node.shape if p.node else "rect"
    if shape in ROUND_SHAPES:
        t = (p.w / 2) / math.hypot(dx, dy)
        return p.x + dx * min(t, 1.0), p.y + dy * min(t, 1.0)
    if p.node is None or shape in ("text", "brace", "brace-r", "braces"):
        t = min(p.w / 2 / abs(dx) if dx else math.inf, p.h / 2 / abs(dy) if dy else math.inf)
        return p.x + dx * min(t, 1.0), p.y + dy * min(t, 1.0)
    points = polygon(outline(shape, p.x - p.w / 2, p.y - p.h / 2, p.w, p.h))
    return ray_exit((p.x, p.y), toward, points)


def ray_exit(
    start: tuple[float, float], toward: tuple[float, float], points: list[tuple[float, float]]
) -> tuple[float, float]:
    """Where the ray from `start` (inside the polygon) toward a point first crosses it."""
    sx, sy = start
    dx, dy = toward[0] - sx, toward[1] - sy
    first = math.inf
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        ex, ey = bx - ax, by - ay
        denom = dx * ey - dy * ex
        if abs(denom) < 1e-12:
            continue
        t = ((ax - sx) * ey - (ay - sy) * ex) / denom
        u = ((ax - sx) * dy - (ay - sy) * dx) / denom
        if -1e-9 <= u <= 1 + 1e-9 and t > 1e-9:
            first = min(first, t)
    first = 1.0 if first == math.inf else first
    return sx + dx * first, sy + dy * first


def edge_marks(
    edge: Edge, points: list[tuple[float, float]], a: Placed, b: Placed, across: bool = False
) -> list[Mark]:
    """An edge as a polyline from shape to shape, its corners rounded, its ends marked;
    an edge from a node to itself a loop on its right (laid `across`, on its top: the
    lines in and out meet its sides); an invisible link nothing."""
    if edge.line == "invisible":
        return []
    if a is b:
        points = _loop(a, across)
    else:
        points = _distinct([clip(a, points[1]), *points[1:-1], clip(b, points[-2])])
    look = edge.look
    width = look.width or {"thick": LINE_WIDTH * 2.2}.get(edge.line, LINE_WIDTH)
    dash = look.dash or ((4.0, 4.0) if edge.line == "dotted" else None)
    role = look.stroke or "line"
    head = 6.0 + width * 1.5
    end, start = points[-1], points[0]
    setback = head * 0.8 if edge.marker == "arrow" else head * 0.45
    if edge.arrow:
        points[-1] = back(points[-1], points[-2], setback)
    if edge.both:
        points[0] = back(points[0], points[1], setback)
    out = [Mark(rounded(points), role, None, width, dash)]
    if edge.arrow:
        out.append(_end_mark(edge.marker, end, points[-2], head, role))
    if edge.both:
        out.append(_end_mark(edge.marker, start, points[1], head, role))
    return out


def _loop(a: Placed, across: bool) -> list[tuple[float, float]]:
    """The points of a node's loop; the curve's corners are rounded inside them."""
    top, rise = a.y - a.h / 2, LOOP_RISE - 2.0
    if across:  # up from the top and back down onto it near its right end, pointing in
        x = a.x + _loop_centre(a.w)
        left, right = x - LOOP_HALF, x + LOOP_HALF
        return [(left, top), (left, top - rise), (right, top - rise), (right, top)]
    right, loop = a.x + a.w / 2, LOOP_REACH - 2.0
    return [(a.x + a.w / 4, top), (right + loop, top - rise), (right + loop, a.y), (right, a.y)]


def _loop_centre(width: float) -> float:
    """Where a loop standing on a node `width` wide is centred, from the node's centre:
    near its right end, clear of a line that comes down onto the top's middle (a wrapped
    chain's link from the row above)."""
    return max(0.0, width / 2 - LOOP_HALF - LOOP_INSET)


def loop_room(text: Lines | None, across: bool = False, width: float = 0.0) -> tuple[float, float]:
    """What a node's loop (an edge to itself) takes beside its box (`width` wide): right of
    it the loop and its labels' chip (`text`) right of that; above it the loop's rise, or
    the chip's height. Laid `across` the loop stands on the node's top (its right side is
    where the line out leaves): only the chip may reach past its right edge."""
    chip_w, chip_h = chip_size(text) if text is not None else (-LOOP_GAP, 0.0)
    reach = _chip_start(width, across) + chip_w - width / 2
    if across:
        return max(0.0, reach), LOOP_RISE + chip_h / 2
    return reach, max(LOOP_RISE, chip_h)


def loop_chip(p: Placed, text: Lines, ink: str | None, across: bool = False) -> list[Mark | Label]:
    """A node's loops' labels (`text`) on a chip right of the loop, standing on the
    node's top (a two-line chip centred on the loop reached down over the link out); laid
    `across`, centred on the loop's top."""
    width, height = chip_size(text)
    top, x = p.y - p.h / 2, p.x + _chip_start(p.w, across) + width / 2
    if across:
        return edge_chip(text, (x, top - LOOP_RISE), ink)
    return edge_chip(text, (x, top - max(LOOP_RISE, height) / 2), ink)


def _chip_start(width: float, across: bool) -> float:
    """Where the chip of a node's loop starts, from the centre of the node (`width` wide):
    a gap right of the loop (`loop_room` leaves it the room, `loop_chip` sets it there)."""
    if across:
        return _loop_centre(width) + LOOP_HALF + LOOP_GAP
    return width / 2 + LOOP_REACH + LOOP_GAP


def edge_label(edge: Edge, measure: Measure) -> Lines | None:
    """An edge's label as a flowchart sets it (bold, wrapped at 0.8 of a node label's
    width); None for an edge with none."""
    return measure(edge.label, LABEL_SIZE, True, MAX_LABEL_WIDTH * 0.8) if edge.label else None


def chip_size(text: Lines) -> tuple[float, float]:
    """The width and height of an edge label's chip round `text`."""
    return text.width + CHIP_PAD[0], text.height + CHIP_PAD[1]


def edge_chip(text: Lines, at: tuple[float, float], ink: str | None) -> list[Mark | Label]:
    """An edge's label on a chip of the line's colour centred at `at`, over the line, in
    the edge's own `ink` (its `linkStyle` colour) or the text's."""
    (x, y), (w, h) = at, chip_size(text)
    chip = rect_ops(x - w / 2, y - h / 2, w, h, h / 2)
    label = Label(text, x, y - text.height / 2, ink or "text")
    return [*(Mark(chip, None, fill) for fill in CHIP_FILLS), label]


def _distinct(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The points without any within half a pixel of the one before (a route's bend on a
    node's border, where the clipped end falls too)."""
    out = [points[0]]
    for point in points[1:]:
        if math.dist(point, out[-1]) > 0.5:
            out.append(point)
    if len(out) == 1:
        out.append(points[-1])
    return out


def _end_mark(
    marker: str, tip: tuple[float, float], frm: tuple[float, float], size: float, role: str
) -> Mark:
    """An arrowhead, a dot or a cross at the end `tip` of a line coming from `frm`."""
    if marker == "arrow":
        return arrowhead(tip, frm, size, role)
    length = math.hypot(tip[0] - frm[0], tip[1] - frm[1]) or 1.0
    ux, uy = (tip[0] - frm[0]) / length, (tip[1] - frm[1]) / length
    r = size * 0.45
    cx, cy = tip[0] - ux * r, tip[1] - uy * r
    if marker == "circle":
        return Mark(circle_ops(cx, cy, r), None, role)  # a dot, as mermaid-js draws it
    ops: tuple[Op, ...] = (
        ("M", cx - r * 0.8, cy - r * 0.8),
        ("L", cx + r * 0.8, cy + r * 0.8),
        ("M", cx + r * 0.8, cy - r * 0.8),
        ("L", cx - r * 0.8, cy + r * 0.8),
    )
    return Mark(ops, role, None, LINE_WIDTH * 1.3)


def back(
    tip: tuple[float, float], frm: tuple[float, float], by: float, most: float = 0.9
) -> tuple[float, float]:
    """The point `by` px back from `tip` toward `frm` (at most the share `most` of the way)."""
    length = math.hypot(tip[0] - frm[0], tip[1] - frm[1]) or 1.0
    by = min(by, length * most)
    return tip[0] - (tip[0] - frm[0]) * by / length, tip[1] - (tip[1] - frm[1]) * by / length


def rounded(points: list[tuple[float, float]]) -> tuple[Op, ...]:
    """A polyline whose inner corners are quadratic curves (never a sharp kink at a bend);
    a point on the straight line between its neighbours is no corner and is left out (a
    long edge's route passes one in every layer: they made a 200-node chart's SVG 3x larger)."""
    points = _turns(points)
    ops: list[Op] = [("M", *points[0])]
    for i in range(1, len(points) - 1):
        before = back(points[i], points[i - 1], CORNER, 0.45)
        after = back(points[i], points[i + 1], CORNER, 0.45)
        ops.append(("L", *before))
        ops.append(("Q", *points[i], *after))
    ops.append(("L", *points[-1]))
    return tuple(ops)


def _turns(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The ends of `points` and the points where it turns (by more than a hair)."""
    kept = [points[0]]
    for here, after in itertools.pairwise(points[1:]):
        (ax, ay), (bx, by), (cx, cy) = kept[-1], here, after
        cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx)
        if abs(cross) > STRAIGHT * math.hypot(cx - ax, cy - ay):
            kept.append(here)
    return [*kept, points[-1]] if len(points) > 1 else kept
