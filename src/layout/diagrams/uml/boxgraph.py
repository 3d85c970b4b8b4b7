"""Boxes joined by lines, laid out in layers, with the marks UML and ER diagrams put at a
line's ends: what class and ER diagrams share.

The layout is the flowcharts' (drawing.py: grandalf's Sugiyama layout, a labelled line's
label a vertex of its own so layering leaves it room, LR laid out TB and turned), each box
`LAYER_ROOM` taller there so lines have room for their end marks; boxroutes.py routes the
lines square between the placed boxes. The ends
are drawn as UML and crow's-foot notation draw them: hollow triangles (inheritance),
filled and hollow diamonds (composition, aggregation), open arrows, lollipops, and for
ER's cardinalities bars, rings and crow's feet. Hollow marks are filled with the page, so
no line shows through them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..flow.paint import Placed, back, rounded
from ..layered import LAYER_GAP, NODE_GAP, Path, ordered_edge, shared, sugiyama, vertex
from ..marks import (
    LINE_WIDTH,
    MARGIN,
    MAX_LABEL_WIDTH,
    SMALL_SIZE,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    circle_ops,
    rect_ops,
    segment_meets,
    tint,
)
from .boxroutes import LOOP, route_all

if TYPE_CHECKING:
    from grandalf.graphs import Edge as GEdge
    from grandalf.graphs import Vertex

Point = tuple[float, float]
LAYER_ROOM = 20.0  # px added above and below each box (left and right across) in layout
# The tight form (`lay_out(tight=True)`: a diagram a card would shrink under its floor):
# px a box is longer (a diamond end is 17.6 px), px between layers and between boxes in
# one, against 20, 36 and 24; mermaid-js's dagre ranks a line's label halfway too, 25 px
# either side. Case 20: 473x712 → 425x576, on a card 60 % → 74 % of its size
TIGHT_LAYER_ROOM, TIGHT_LAYER_GAP, TIGHT_NODE_GAP = 16.0, 10.0, 10.0
PANEL_PAD = 10.0  # px between a panel's edge and its boxes
END_SIZE = 11.0  # px: a triangle's or diamond's length along its line
_DASH = (5.0, 4.0)
_NO_TEXT = Lines((), 0.0, 0.0, SMALL_SIZE)


@dataclass(frozen=True, slots=True)
class Wire:
    """A line to lay out from one box to another, with its label measured (or None);
    `shares`: a key per end, "" for none: ends with one key on one face share a port."""

    source: str
    target: str
    label: Lines | None = None
    shares: tuple[str, str] = ("", "")


def lay_out(
    sizes: dict[str, tuple[float, float]],
    wires: list[Wire],
    direction: str,
    clusters: dict[str, tuple[int, ...]] | None = None,
    tight: bool = False,
) -> tuple[dict[str, Placed], list[list[Point]], list[Placed | None]]:
    """Each box placed (centre, size), each wire's route from box edge to box edge, and
    each wire's label placed (None: no label). `clusters`: the groups (by index) each box
    is in, whose boxes are kept side by side in each layer (as flowcharts' subgraphs);
    `tight`: layers and boxes closer (`TIGHT_LAYER_ROOM`, `TIGHT_LAYER_GAP`,
    `TIGHT_NODE_GAP`)."""
    paths = dict(clusters or {})
    from grandalf.graphs import Graph

    across = direction in ("LR", "RL")
    loops = _loop_room(wires)
    room = TIGHT_LAYER_ROOM if tight else LAYER_ROOM
    vertices = {
        key: vertex(key, *_roomy(w + 2 * loops.get(key, 0.0), h, across, room), across)
        for key, (w, h) in sizes.items()
    }
    texts = dict.fromkeys(sizes, _NO_TEXT)
    pieces_of: list[list[GEdge]] = []
    order = itertools.count()  # the edges' hashes: the same layout on every run
    for index, wire in enumerate(wires):
        if wire.source == wire.target:
            pieces_of.append([])
            continue
        ends = [vertices[wire.source], vertices[wire.target]]
        if wire.label is not None:
            key = f"\0label{index}"
            texts[key] = wire.label
            paths[key] = shared(paths.get(wire.source, ()), paths.get(wire.target, ()))
            vertices[key] = vertex(key, *_chip_size(wire.label), across)
            ends.insert(1, vertices[key])
        pieces = [ordered_edge(a, b, next(order)) for a, b in itertools.pairwise(ends)]
        for piece in pieces:
            piece.view = Path([])
        pieces_of.append(pieces)
    gaps = (TIGHT_LAYER_GAP, TIGHT_NODE_GAP) if tight else (LAYER_GAP, NODE_GAP)
    graph = Graph(list(vertices.values()), [p for ps in pieces_of for p in ps])
    sugiyama(graph, paths, layer_gap=gaps[0], node_gap=gaps[1], straighten=False)
    turn = _turn(vertices, direction)
    placed = {}
    for key, box in vertices.items():
        w, h = sizes.get(key, (box.view.w, box.view.h) if not across else (box.view.h, box.view.w))
        placed[key] = Placed(None, texts[key], w, h, *turn(*box.view.xy))
    lines = [
        _path(wire, [(p.v[0].data, [turn(*xy) for xy in p.view.points]) for p in pieces], placed)
        for wire, pieces in zip(wires, pieces_of, strict=True)
    ]
    ends = [(w.source, w.target) for w in wires]
    routes = route_all(ends, lines, placed, across, [w.shares for w in wires])
    for index, wire in enumerate(wires):
        if wire.source == wire.target and wire.label is not None:  # beside its loop
            box, (w, h) = placed[wire.source], _chip_size(wire.label)
            x = box.x + box.w / 2 + LOOP + 4 + w / 2
            placed[f"\0label{index}"] = Placed(None, wire.label, w, h, x, box.y - box.h / 2)
    labels = [placed.get(f"\0label{i}") for i in range(len(wires))]
    return placed, routes, labels


def _loop_room(wires: list[Wire]) -> dict[str, float]:
    """The room each box with a line to itself needs on its right (and, laid out centred,
    on its left): the loop and its label."""
    room: dict[str, float] = {}
    for wire in wires:
        if wire.source == wire.target:
            chip = _chip_size(wire.label)[0] + 4 if wire.label else 0.0
            room[wire.source] = max(room.get(wire.source, 0.0), LOOP + chip)
    return room


def _chip_size(text: Lines) -> tuple[float, float]:
    return text.width + 14, text.height + 6


def _roomy(w: float, h: float, across: bool, room: float) -> tuple[float, float]:
    """A box's size as laid out: `room` (`LAYER_ROOM`) longer at each end along the
    layers' axis, so a line has room for its end marks between layers (the box is drawn
    at its own size)."""
    return (w + 2 * room, h) if across else (w, h + 2 * room)


def _turn(vertices: dict[str, Vertex], direction: str) -> Callable[[float, float], Point]:
    """The map from grandalf's top-down place to the diagram's direction."""
    height = max((v.view.xy[1] + v.view.h / 2 for v in vertices.values()), default=0.0)

    def turn(x: float, y: float) -> Point:
        if direction in ("BT", "RL"):
            y = height - y
        return (MARGIN + y, MARGIN + x) if direction in ("LR", "RL") else (MARGIN + x, MARGIN + y)

    return turn


def _path(
    wire: Wire, pieces: list[tuple[str, list[Point]]], placed: dict[str, Placed]
) -> list[Point]:
    """The wire's path through its boxes' centres and the bends between; `pieces`: each
    piece's start vertex and its points."""
    b = placed[wire.target]
    points: list[Point] = []
    for start, route in pieces:
        centre = (placed[start].x, placed[start].y)
        if math.dist(route[0], centre) > math.dist(route[-1], centre):
            route = route[::-1]  # grandalf turned the edge to break a cycle
        points += [centre, *route[1:-1]]  # its ends are on the roomy boxes' edges
    return [*points, (b.x, b.y)]


def line_marks(route: list[Point], start: str, end: str, dashed: bool) -> list[Mark]:
    """A line along `route` with the mark named `start` at its first point and `end` at
    its last (UML ends and ER cardinalities: see `end_mark`)."""
    points = list(route)
    first, last = points[0], points[-1]
    before, after = end_mark(start, first, points[1]), end_mark(end, last, points[-2])
    points[0] = back(first, points[1], before[1]) if before[1] else first
    points[-1] = back(last, points[-2], after[1]) if after[1] else last
    line = Mark(rounded(points), "line", None, LINE_WIDTH, _DASH if dashed else None)
    return [line, *before[0], *after[0]]


def end_mark(kind: str, tip: Point, frm: Point) -> tuple[list[Mark], float]:
    """The marks of one end at `tip` (on a box's edge), the line coming from `frm`, and how
    far before `tip` the line stops (under a hollow mark)."""
    ux, uy = _unit(tip, frm)  # from the tip back along the line

    def at(along: float, across: float) -> Point:
        return (tip[0] + ux * along - uy * across, tip[1] + uy * along + ux * across)

    def polygon(points: list[Point], fill: str) -> Mark:
        ops: list[Op] = [("M", *points[0]), *(("L", *p) for p in points[1:]), ("Z",)]
        return Mark(tuple(ops), "line", fill, LINE_WIDTH)

    def bar(along: float) -> Mark:
        return Mark((("M", *at(along, -6)), ("L", *at(along, 6))), "line", None, LINE_WIDTH)

    size = END_SIZE
    if kind == "triangle":
        return [polygon([tip, at(size, -size * 0.6), at(size, size * 0.6)], "page")], size
    if kind in ("diamond", "hollow"):
        points = [tip, at(size * 0.8, -size * 0.45), at(size * 1.6, 0), at(size * 0.8, size * 0.45)]
        return [polygon(points, "line" if kind == "diamond" else "page")], size * 1.6
    if kind == "arrow":
        ops: tuple[Op, ...] = (
            ("M", *at(size, -size * 0.5)),
            ("L", *tip),
            ("L", *at(size, size * 0.5)),
        )
        return [Mark(ops, "line", None, LINE_WIDTH)], 0.0
    if kind == "lollipop":
        centre = at(6, 0)
        return [Mark(circle_ops(*centre, 6), "line", "page", LINE_WIDTH)], 12.0
    least, _, most = kind.partition("-")
    if not most:
        return [], 0.0
    marks = [bar(4)] if most == "one" else [_crow(at)]
    if least == "zero":
        marks.append(Mark(circle_ops(*at(19, 0), 4.5), "line", "page", LINE_WIDTH))
        return marks, 0.0
    marks.append(bar(10 if most == "one" else 16))
    return marks, 0.0


def _crow(at: Callable[[float, float], Point]) -> Mark:
    """A crow's foot: three toes from a point on the line spread to the box's edge."""
    heel = at(12, 0)
    ops: tuple[Op, ...] = (
        ("M", *at(0, -7)),
        ("L", *heel),
        ("L", *at(0, 7)),
        ("M", *at(0, 0)),
        ("L", *heel),
    )
    return Mark(ops, "line", None, LINE_WIDTH)


def _unit(tip: Point, frm: Point) -> Point:
    length = math.dist(tip, frm) or 1.0
    return (frm[0] - tip[0]) / length, (frm[1] - tip[1]) / length


def chip(p: Placed) -> list[Mark | Label]:
    """A line's label on a chip of the line's colour, over the line (as flowcharts do)."""
    ops = rect_ops(p.x - p.w / 2, p.y - p.h / 2, p.w, p.h, p.h / 2)
    return [
        Mark(ops, None, "page"),
        Mark(ops, None, tint("line")),
        Label(p.text, p.x, p.y - p.text.height / 2),
    ]


def beside_end(route: list[Point], text: Lines, at_start: bool, box: Placed, mark: str) -> Label:
    """A cardinality beside a line's end, next to its end mark, on the side away from the
    middle of the box's face (so the lines beside it on that face stay clear of it), else
    right of the line or above it."""
    tip, frm = (route[0], route[1]) if at_start else (route[-1], route[-2])
    ux, uy = _unit(tip, frm)
    nx, ny = uy, -ux
    outward = nx * (tip[0] - box.x) + ny * (tip[1] - box.y)
    if outward < -1 or (abs(outward) <= 1 and (nx < -0.3 or ny > 0.3)):
        nx, ny = -nx, -ny
    clear = END_SIZE * 0.6 + 3 if mark else 3.0
    along = 3 + abs(ux) * text.width / 2 + abs(uy) * text.height / 2
    across = clear + abs(nx) * text.width / 2 + abs(ny) * text.height / 2
    x = tip[0] + ux * along + nx * across
    y = tip[1] + uy * along + ny * across
    return Label(text, x, y - text.height / 2, "text")


def panels(
    groups: list[tuple[str, tuple[str, ...]]],
    placed: dict[str, Placed],
    routes: list[list[Point]],
    taken: list[Mark | Label],
    measure: Measure,
) -> list[Mark | Label]:
    """Each group (a title, its boxes' keys) as a panel round its boxes, its title along
    the panel's top where no line crosses it and no label is (from the left), so a line
    into the panel never runs through the words."""
    out: list[Mark | Label] = []
    busy = [_label_box(label) for label in taken if isinstance(label, Label)]
    for title, members in groups:
        boxes = [placed[key] for key in members if key in placed]
        if not boxes:
            continue
        text = measure(title, SMALL_SIZE, True, MAX_LABEL_WIDTH)
        left = min(p.x - p.w / 2 for p in boxes) - PANEL_PAD
        right = max(max(p.x + p.w / 2 for p in boxes) + PANEL_PAD, left + text.width + 16)
        top = min(p.y - p.h / 2 for p in boxes) - PANEL_PAD - text.height - 2
        bottom = max(p.y + p.h / 2 for p in boxes) + PANEL_PAD
        out.append(Mark(rect_ops(left, top, right - left, bottom - top, 6), "border", "panel"))
        x = _free_x(left + 8, right - 8 - text.width, top + 3, text, routes, busy)
        name = Label(text, x, top + 3, "muted", "left")
        out.append(name)
        busy.append(_label_box(name))
    return out


def _free_x(
    low: float,
    high: float,
    y: float,
    text: Lines,
    routes: list[list[Point]],
    busy: list[tuple[float, float, float, float]],
) -> float:
    """The leftmost x from `low` to `high` (in at most 64 steps) where `text` at `y` meets
    no route and no busy box; `low` when there is none."""
    band = (low - 3, y - 3, high + text.width + 3, y + text.height + 3)
    near = [
        (a, b)
        for route in routes
        for a, b in itertools.pairwise(route)
        if segment_meets(a, b, band)
    ]
    busy = [box for box in busy if _overlap(band, box)]
    step, x = max(4.0, (high - low) / 64), low
    while x <= high:
        rect = (x - 3, y - 3, x + text.width + 3, y + text.height + 3)
        if not any(segment_meets(a, b, rect) for a, b in near) and not any(
            _overlap(rect, box) for box in busy
        ):
            return x
        x += step
    return low


def _label_box(label: Label) -> tuple[float, float, float, float]:
    left = label.x - label.text.width / 2 if label.align == "center" else label.x
    return left, label.y, left + label.text.width, label.y + label.text.height


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
