"""A flowchart record + a label `Measure` → its `Drawing`: boxes and edges laid out in layers.

Flowcharts are laid out by grandalf's Sugiyama layout (cycle removal, longest-path
layering, barycentre crossing reduction, Brandes-Köpf coordinates), each connected
component on its own, side by side. An edge label is a vertex of its own in the middle
of its edge, so layering leaves it room. LR and RL lay out TB with the boxes' sides
swapped, then turn the picture. The records a drawing is made of are in marks.py; mind
maps, sequence diagrams and pies are in `kinds`.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..errors import DiagramError
from .marks import (
    LABEL_SIZE,
    LINE_WIDTH,
    MARGIN,
    MAX_LABEL_WIDTH,
    PAD_X,
    PAD_Y,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    arrowhead,
    circle_ops,
    finish,
    rect_ops,
    tint,
)
from .mermaid import Edge, Flowchart, Node

if TYPE_CHECKING:  # grandalf pulls in numpy (~60 ms): imported when a flowchart is laid out
    from grandalf.graphs import Edge as GEdge
    from grandalf.graphs import Graph, Vertex
    from grandalf.layouts import SugiyamaLayout


LAYER_GAP, NODE_GAP = 36.0, 24.0  # px between layers, and between nodes in one
# grandalf's ordering costs ~0.1 ms per vertex and sweep, counting the dummy vertices an
# edge gets in every layer it crosses: a diagram needing more is refused (~1 s at most),
# and past `FEW_SWEEPS` it gets fewer sweeps.
MAX_LAYOUT_VERTICES = 12_000
FEW_SWEEPS = 2_000


@dataclass
class _Box:
    """A vertex's view for grandalf: its size (w, h) and, after layout, its centre xy."""

    w: float
    h: float
    xy: tuple[float, float] = (0.0, 0.0)


@dataclass
class _Path:
    points: list[tuple[float, float]]

    def setpath(self, points: list[tuple[float, float]]) -> None:
        self.points = list(points)


@dataclass(frozen=True, slots=True)
class _Placed:
    node: Node | None  # None: an edge's label
    text: Lines
    w: float
    h: float
    x: float  # centre
    y: float


def _node_size(node: Node, text: Lines) -> tuple[float, float]:
    w, h = text.width + 2 * PAD_X, text.height + 2 * PAD_Y
    if node.shape == "rhombus":
        return w * 1.5, h * 1.5  # the label's corners (less padding) stay inside
    if node.shape == "circle":
        d = math.hypot(text.width + 2 * PAD_Y, text.height + 2 * PAD_Y)
        return d, d
    if node.shape == "stadium":
        return w + h / 2, h
    return w, h


def layout_flowchart(chart: Flowchart, measure: Measure) -> Drawing:
    across = chart.direction in ("LR", "RL")
    from grandalf.graphs import Graph  # see TYPE_CHECKING above

    vertices: dict[str, Vertex] = {}
    placed_text: dict[str, Lines] = {}
    for node in chart.nodes:
        text = measure(node.label, LABEL_SIZE, False, MAX_LABEL_WIDTH)
        placed_text[node.id] = text
        w, h = _node_size(node, text)
        vertices[node.id] = vertex(node.id, w, h, across)
    g_edges: list[GEdge] = []
    routes: list[list[GEdge]] = []
    for index, edge in enumerate(chart.edges):
        if edge.source == edge.target:  # a loop: drawn beside its node, not laid out
            routes.append([])
            continue
        ends = [vertices[edge.source]]
        if edge.label:
            text = measure(edge.label, LABEL_SIZE, True, MAX_LABEL_WIDTH * 0.8)
            key = f"\0label{index}"
            placed_text[key] = text
            ends.append(vertex(key, text.width + 14, text.height + 6, across))
            vertices[key] = ends[-1]
        ends.append(vertices[edge.target])
        pairs = itertools.pairwise(ends)
        pieces = [_edge_class()(a, b, len(g_edges) + k) for k, (a, b) in enumerate(pairs)]
        for piece in pieces:
            piece.view = _Path([])
        g_edges.extend(pieces)
        routes.append(pieces)
    graph = Graph(list(vertices.values()), g_edges)
    _sugiyama(graph, across, _cluster_paths(chart))
    boxes = {key: v.view for key, v in vertices.items()}
    if across:
        for box in boxes.values():
            box.xy = (box.xy[1], box.xy[0])
            box.w, box.h = box.h, box.w
        for piece in g_edges:
            piece.view.points = [(y, x) for x, y in piece.view.points]
    flip_x, flip_y = chart.direction == "RL", chart.direction == "BT"
    nodes = {n.id: n for n in chart.nodes}
    placed = {
        key: _Placed(nodes.get(key), placed_text[key], box.w, box.h, *box.xy)
        for key, box in boxes.items()
    }
    return _flowchart_drawing(chart, placed, routes, flip_x, flip_y)


def ordered_edge(a: Vertex, b: Vertex, order: int) -> GEdge:
    """A grandalf edge from `a` to `b` hashed by `order` (its place in the diagram), so the
    layered layout comes out the same on every run (`_edge_class`)."""
    return _edge_class()(a, b, order)


@functools.cache
def _edge_class() -> type[GEdge]:
    """grandalf's edge, hashed by its place in the chart: grandalf gathers a component's
    edges in a set, which hashed by address came out in another order each run, and so did
    the layout (the same chart 2,660 px wide in one run, 3,110 in the next)."""
    from grandalf.graphs import Edge  # see TYPE_CHECKING above

    class OrderedEdge(Edge):  # type: ignore[misc]
        def __init__(self, x: Vertex, y: Vertex, order: int) -> None:
            super().__init__(x, y)
            self.order = order

        def __hash__(self) -> int:
            return self.order

    return OrderedEdge


def vertex(key: str, w: float, h: float, across: bool) -> Vertex:
    """A grandalf vertex of a box `w` x `h` (its sides swapped when laid `across`)."""
    from grandalf.graphs import Vertex  # see TYPE_CHECKING above

    vertex = Vertex(key)
    vertex.view = _Box(h, w) if across else _Box(w, h)
    return vertex


def layered_routes(
    vertices: list[Vertex], chains: list[list[Vertex]], across: bool, layer_gap: float
) -> list[list[tuple[float, float]]]:
    """Lays out `vertices` joined by `chains` (each a path through vertices, such as a
    transition through its label) as flowcharts are, without clusters; each chain's route,
    from its first vertex's centre to its last's (a state diagram's scope: `states`)."""
    from grandalf.graphs import Graph  # see TYPE_CHECKING above

    edge, count = _edge_class(), itertools.count()
    pieces_of = [
        [edge(a, b, next(count)) for a, b in itertools.pairwise(chain)] for chain in chains
    ]
    for piece in (piece for pieces in pieces_of for piece in pieces):
        piece.view = _Path([])
    graph = Graph(vertices, [p for pieces in pieces_of for p in pieces])
    _sugiyama(graph, across, {}, layer_gap)
    routes = []
    for pieces in pieces_of:
        points: list[tuple[float, float]] = []
        for piece in pieces:
            route = list(piece.view.points)
            if route[0] != piece.v[0].view.xy:
                route.reverse()  # grandalf turned the edge to break a cycle
            points.extend(route if not points else route[1:])
        routes.append(points)
    return routes


def _cluster_paths(chart: Flowchart) -> dict[str, tuple[int, ...]]:
    """Each vertex's subgraphs, outermost first (by index): a node's own, an edge label's
    those its two ends share."""
    outer_first = sorted(
        range(len(chart.subgraphs)), key=lambda i: -len(chart.subgraphs[i].members)
    )
    paths = {
        node.id: tuple(i for i in outer_first if node.id in chart.subgraphs[i].members)
        for node in chart.nodes
    }
    for index, edge in enumerate(chart.edges):
        paths[f"\0label{index}"] = _shared(paths[edge.source], paths[edge.target])
    return paths


def _shared(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The subgraphs two vertices are both in (the common start of their paths)."""
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return a[:common]


def _keep_clusters_together(layout: SugiyamaLayout, paths: dict[str, tuple[int, ...]]) -> None:
    """Reorders each layer so a subgraph's vertices (and the long edges inside it) sit side
    by side, where the crossing reduction left them; grandalf knows no clusters, and
    without this an outside node can land between two members, inside their panel."""
    path_of: dict[object, tuple[int, ...]] = {}
    for edge, ctrl in layout.ctrls.items():  # a long edge's dummies: in what both ends are in
        shared = _shared(paths.get(edge.v[0].data, ()), paths.get(edge.v[1].data, ()))
        path_of.update(dict.fromkeys(ctrl.values(), shared))
    for layer in layout.layers:
        where = {v: paths.get(v.data, ()) if v not in path_of else path_of[v] for v in layer}
        if not any(where.values()):
            continue
        position = {v: layout.grx[v].pos for v in layer}
        centre: dict[tuple[int, ...], list[float]] = {}
        for v, path in where.items():
            for depth in range(1, len(path) + 1):
                centre.setdefault(path[:depth], []).append(position[v])

        layer.sort(key=lambda v: _cluster_key(where[v], centre, position[v]))
        step = 1.0 / (len(layer) - 1) if len(layer) > 1 else 1.0
        for index, v in enumerate(layer):
            layout.grx[v].pos, layout.grx[v].bar = index, index * step


def _cluster_key(
    path: tuple[int, ...], centre: dict[tuple[int, ...], list[float]], position: float
) -> list[tuple[float, int]]:
    """Where a vertex sorts in its layer: by the mean place of its outermost subgraph's
    vertices, then of the next, then its own place (a vertex outside all: its own)."""
    ranks = [
        (sum(centre[path[:d]]) / len(centre[path[:d]]), path[d - 1])
        for d in range(1, len(path) + 1)
    ]
    return [*ranks, (position, -1)]


def _sugiyama(
    graph: Graph, across: bool, paths: dict[str, tuple[int, ...]], layer_gap: float = LAYER_GAP
) -> None:
    """Lays out each connected component, then sets them side by side; a subgraph's
    vertices are kept together in each layer (`_keep_clusters_together`)."""
    offset, laid_out = 0.0, 0
    for component in graph.C:
        vertices = list(component.sV)
        if len(vertices) == 1:
            box = vertices[0].view
            box.xy = (offset + box.w / 2, box.h / 2)
            offset += box.w + NODE_GAP
            continue
        from grandalf.layouts import SugiyamaLayout  # see TYPE_CHECKING

        layout = SugiyamaLayout(component)
        layout.xspace, layout.yspace = NODE_GAP, layer_gap
        layout.init_all()
        laid_out += len(vertices) + sum(len(dummies) for dummies in layout.ctrls.values())
        if laid_out > MAX_LAYOUT_VERTICES:
            raise DiagramError("too many long edges to lay out: simplify the diagram")
        sweeps = 1.5 if laid_out > FEW_SWEEPS else 3
        while sweeps > 0.5:  # grandalf's draw(), with the clusters kept before placing
            for _ in layout.ordering_step():
                pass
            sweeps -= 1
        if sweeps > 0:
            for _ in layout.ordering_step(oneway=True):
                pass
        _keep_clusters_together(layout, paths)
        layout.setxy()
        layout.draw_edges()
        for piece in component.sE:
            if not piece.view.points:
                piece.view.points = [piece.v[0].view.xy, piece.v[1].view.xy]
        left = min(v.view.xy[0] - v.view.w / 2 for v in vertices)
        top = min(v.view.xy[1] - v.view.h / 2 for v in vertices)
        for vertex in vertices:
            x, y = vertex.view.xy
            vertex.view.xy = (x - left + offset, y - top)
        for piece in component.sE:
            piece.view.points = [(x - left + offset, y - top) for x, y in piece.view.points]
        offset = max(v.view.xy[0] + v.view.w / 2 for v in vertices) + NODE_GAP


def _flowchart_drawing(
    chart: Flowchart,
    placed: dict[str, _Placed],
    routes: list[list[GEdge]],
    flip_x: bool,
    flip_y: bool,
) -> Drawing:
    width = max(p.x + p.w / 2 for p in placed.values())
    height = max(p.y + p.h / 2 for p in placed.values())

    def at(x: float, y: float) -> tuple[float, float]:
        return (MARGIN + (width - x if flip_x else x), MARGIN + (height - y if flip_y else y))

    placed = {k: _Placed(p.node, p.text, p.w, p.h, *at(p.x, p.y)) for k, p in placed.items()}
    items: list[Mark | Label] = []
    items.extend(_subgraph_panels(chart, placed))
    for edge, pieces in zip(chart.edges, routes, strict=True):
        points: list[tuple[float, float]] = []
        for piece in pieces:
            route = [at(x, y) for x, y in piece.view.points]
            if route[0] != (placed[piece.v[0].data].x, placed[piece.v[0].data].y):
                route.reverse()  # grandalf turned the edge to break a cycle
            points.extend(route if not points else route[1:])
        items.extend(_edge_marks(edge, points, placed[edge.source], placed[edge.target]))
    for p in placed.values():
        if p.node is None:  # an edge label on a chip of the line's colour, over the line
            chip = rect_ops(p.x - p.w / 2, p.y - p.h / 2, p.w, p.h, p.h / 2)
            items.append(Mark(chip, None, "page"))
            items.append(Mark(chip, None, tint("line")))
            items.append(Label(p.text, p.x, p.y - p.text.height / 2))
        else:
            items.append(_node_mark(p))
            items.append(Label(p.text, p.x, p.y - p.text.height / 2))
    text = "\n".join(label for label in chart.labels() if label)
    # the bounds of everything drawn: a subgraph's panel and title reach past its nodes
    return replace(finish(items, text), across=chart.direction in ("LR", "RL"))


def _subgraph_panels(chart: Flowchart, placed: dict[str, _Placed]) -> list[Mark | Label]:
    """Each subgraph as a tinted panel around its nodes, its title at the top left; the
    nodes are where the layout put them (grandalf knows no clusters)."""
    out: list[Mark | Label] = []
    for index, sub in enumerate(chart.subgraphs):
        members = [placed[m] for m in sub.members if m in placed]
        if not members:
            continue
        pad = 10.0 + 4.0 * (len(chart.subgraphs) - 1 - index)
        left = min(p.x - p.w / 2 for p in members) - pad
        right = max(p.x + p.w / 2 for p in members) + pad
        top = min(p.y - p.h / 2 for p in members) - pad - SMALL_SIZE * 1.4
        bottom = max(p.y + p.h / 2 for p in members) + pad
        out.append(Mark(rect_ops(left, top, right - left, bottom - top, 6), "border", "panel"))
        # as wide as the panel: a longer title is cut at its edge, never wraps over nodes
        title = Lines((sub.label,), right - left - 16, SMALL_SIZE * 1.3, SMALL_SIZE, True)
        out.append(Label(title, left + 8, top + 3, "muted", "left"))
    return out


def _node_mark(p: _Placed) -> Mark:
    assert p.node is not None
    x, y, w, h = p.x - p.w / 2, p.y - p.h / 2, p.w, p.h
    shape = p.node.shape
    if shape == "rhombus":
        ops: tuple[Op, ...] = (
            ("M", p.x, y),
            ("L", x + w, p.y),
            ("L", p.x, y + h),
            ("L", x, p.y),
            ("Z",),
        )
    elif shape == "circle":
        ops = circle_ops(p.x, p.y, w / 2)
    else:
        radius = {"round": 10.0, "stadium": h / 2}.get(shape, 3.0)
        ops = rect_ops(x, y, w, h, radius)
    # A tinted shape without an outline: a hard line round a label reads as line art to
    # OCR (and screen readers' image text), which then skips the words inside.
    return Mark(ops, None, tint("accent"))


def clip(p: _Placed, toward: tuple[float, float]) -> tuple[float, float]:
    """Where the line from the centre of `p` toward a point leaves its shape."""
    dx, dy = toward[0] - p.x, toward[1] - p.y
    if dx == 0 and dy == 0:
        return p.x, p.y
    half_w, half_h = p.w / 2, p.h / 2
    shape = p.node.shape if p.node else "rect"
    if shape == "circle":
        t = half_w / math.hypot(dx, dy)
    elif shape == "rhombus":
        t = 1.0 / (abs(dx) / half_w + abs(dy) / half_h)
    else:
        t = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
    t = min(t, 1.0)
    return p.x + dx * t, p.y + dy * t


def _edge_marks(
    edge: Edge, points: list[tuple[float, float]], a: _Placed, b: _Placed
) -> list[Mark]:
    """An edge as a polyline from shape to shape, its corners rounded, arrowheads filled;
    an edge from a node to itself a loop on its right."""
    if a is b:
        right, top = a.x + a.w / 2, a.y - a.h / 2
        points = [(a.x + a.w / 4, top), (right + 18, top - 12), (right + 18, a.y), (right, a.y)]
    else:
        points = [clip(a, points[1]), *points[1:-1], clip(b, points[-2])]
    width = {"thick": LINE_WIDTH * 2.2}.get(edge.line, LINE_WIDTH)
    dash = (4.0, 4.0) if edge.line == "dotted" else None
    head = 6.0 + width * 1.5
    end, start = points[-1], points[0]
    if edge.arrow:
        points[-1] = back(points[-1], points[-2], head * 0.8)
    if edge.both:
        points[0] = back(points[0], points[1], head * 0.8)
    out = [Mark(rounded(points), "line", None, width, dash)]
    if edge.arrow:
        out.append(arrowhead(end, points[-2], head))
    if edge.both:
        out.append(arrowhead(start, points[1], head))
    return out


def back(tip: tuple[float, float], frm: tuple[float, float], by: float) -> tuple[float, float]:
    """`tip` moved `by` px back toward `frm` (room for an arrowhead or a rounded corner)."""
    length = math.hypot(tip[0] - frm[0], tip[1] - frm[1]) or 1.0
    by = min(by, length * 0.9)
    return tip[0] - (tip[0] - frm[0]) * by / length, tip[1] - (tip[1] - frm[1]) * by / length


def rounded(points: list[tuple[float, float]]) -> tuple[Op, ...]:
    """A polyline whose inner corners are quadratic curves (softer than mermaid's
    straight dagre bends, and never a sharp kink at a dummy vertex)."""
    ops: list[Op] = [("M", *points[0])]
    for i in range(1, len(points) - 1):
        before = back(points[i], points[i - 1], 10.0)
        after = back(points[i], points[i + 1], 10.0)
        ops.append(("L", *before))
        ops.append(("Q", *points[i], *after))
    ops.append(("L", *points[-1]))
    return tuple(ops)
