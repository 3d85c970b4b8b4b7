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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..errors import DiagramError
from .flow.paint import LOOP_REACH, LOOP_RISE, Placed, edge_marks, label_colour, node_marks
from .flow.route import PANEL_PAD, TITLE, make_room_for_panels, route_in_gaps
from .flow.shapes import label_shift
from .flow.shapes import size as shape_size
from .marks import (
    LABEL_SIZE,
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
    finish,
    rect_ops,
    tint,
)
from .mermaid import Flowchart, Node

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
    """A vertex's view for grandalf: its size (w, h) and, after layout, its centre xy;
    `pointed`: a shape whose ends narrow to a point (edges meet it there, not side by side)."""

    w: float
    h: float
    xy: tuple[float, float] = (0.0, 0.0)
    pointed: bool = False


@dataclass
class _Path:
    points: list[tuple[float, float]]

    def setpath(self, points: list[tuple[float, float]]) -> None:
        self.points = list(points)


def _node_size(node: Node, text: Lines) -> tuple[float, float]:
    return shape_size(node.shape, text.width + 2 * PAD_X, text.height + 2 * PAD_Y)


POINTED = frozenset({"rhombus", "circle", "dcircle", "tri", "flip-tri", "hourglass", "bolt"})
SPACER = 2.0  # px: the vertex a long link (`--->`) gets in each rank it spans past the first


def layout_flowchart(chart: Flowchart, measure: Measure) -> Drawing:
    across = chart.direction in ("LR", "RL")
    from grandalf.graphs import Graph  # see TYPE_CHECKING above

    vertices: dict[str, Vertex] = {}
    placed_text: dict[str, Lines] = {}
    sizes: dict[str, tuple[float, float]] = {}
    loops = {edge.source for edge in chart.edges if edge.source == edge.target}
    for node in chart.nodes:
        text = measure(node.label, LABEL_SIZE, node.bold, MAX_LABEL_WIDTH)
        placed_text[node.id] = text
        w, h = _node_size(node, text)
        if node.shape == "fork" and across:  # a fork's bar lies across the flow
            w, h = h, w
        sizes[node.id] = (w, h)
        if node.id in loops:  # room for the loop beside it (laid out centred: both sides)
            w, h = w + 2 * LOOP_REACH, h + 2 * LOOP_RISE
        vertices[node.id] = vertex(node.id, w, h, across)
        vertices[node.id].view.pointed = node.shape in POINTED
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
        for step in range(edge.length - 1):  # a longer link spans more ranks
            key = f"\0gap{index}.{step}"
            ends.append(vertex(key, SPACER, SPACER, across))
            vertices[key] = ends[-1]
        ends.append(vertices[edge.target])
        pairs = itertools.pairwise(ends)
        pieces = [ordered_edge(a, b, len(g_edges) + k) for k, (a, b) in enumerate(pairs)]
        for piece in pieces:
            piece.view = _Path([])
        g_edges.extend(pieces)
        routes.append(pieces)
    graph = Graph(list(vertices.values()), g_edges)
    if chart.subgraphs and len(graph.C) > 1:  # a panel may hold nodes of two components
        graph = _tied(graph, list(vertices.values()), g_edges, across)
    _sugiyama(graph, _cluster_paths(chart), _depths(chart))
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
        key: Placed(nodes.get(key), placed_text[key], *sizes.get(key, (box.w, box.h)), *box.xy)
        for key, box in boxes.items()
        if key in placed_text
    }
    return _flowchart_drawing(chart, placed, routes, (flip_x, flip_y), measure)


def _tied(graph: Graph, vertices: list[Vertex], edges: list[GEdge], across: bool) -> Graph:
    """The graph with one unseen vertex above a first node of each of its components, so
    all are laid out as one and a subgraph's panel never spans another component."""
    from grandalf.graphs import Graph  # see TYPE_CHECKING above

    root = vertex("\0root", SPACER, SPACER, across)
    ties: list[GEdge] = []
    for component in graph.C:
        first = next((v for v in component.sV if not v.e_in()), component.sV[0])
        ties.append(ordered_edge(root, first, len(edges) + len(ties)))
        ties[-1].view = _Path([])
    return Graph([*vertices, root], [*edges, *ties])


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

    box = Vertex(key)
    box.view = _Box(h, w) if across else _Box(w, h)
    return box


def layered_routes(
    vertices: list[Vertex], chains: list[list[Vertex]], layer_gap: float
) -> list[list[tuple[float, float]]]:
    """Lays out `vertices` joined by `chains` (each a path through vertices, such as a
    transition through its label) as flowcharts are, without clusters; each chain's route,
    from its first vertex's centre to its last's (a state diagram's scope: `states`)."""
    from grandalf.graphs import Graph  # see TYPE_CHECKING above

    count = itertools.count()
    pieces_of = [
        [ordered_edge(a, b, next(count)) for a, b in itertools.pairwise(chain)] for chain in chains
    ]
    for piece in (piece for pieces in pieces_of for piece in pieces):
        piece.view = _Path([])
    graph = Graph(vertices, [p for pieces in pieces_of for p in pieces])
    _sugiyama(graph, {}, layer_gap=layer_gap)
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
        shared = _shared(paths[edge.source], paths[edge.target])
        paths[f"\0label{index}"] = shared
        paths.update({f"\0gap{index}.{step}": shared for step in range(edge.length - 1)})
    return paths


def _shared(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The subgraphs two vertices are both in (the common start of their paths)."""
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return a[:common]


def _depths(chart: Flowchart) -> dict[int, int]:
    """Each subgraph's depth of panels: 1 for one holding no other, else one more than the
    deepest it holds (a subgraph is written, so closed and listed, after those it holds)."""
    depths: dict[int, int] = {}
    members = [set(sub.members) for sub in chart.subgraphs]
    for index, held in enumerate(members):
        inner = [depths[j] for j in range(index) if members[j] <= held and members[j] != held]
        depths[index] = 1 + max(inner, default=0)
    return depths


def _keep_clusters_together(
    layout: SugiyamaLayout, paths: dict[str, tuple[int, ...]]
) -> dict[object, tuple[int, ...]]:
    """Reorders each layer so a subgraph's vertices (and the long edges inside it) sit side
    by side, where the crossing reduction left them; grandalf knows no clusters, and
    without this an outside node can land between two members, inside their panel. Gives
    each long edge's dummy vertices the subgraphs both its ends are in."""
    path_of: dict[object, tuple[int, ...]] = {}
    for edge, ctrl in layout.ctrls.items():  # a long edge's dummies: in what both ends are in
        shared = _shared(paths.get(edge.v[0].data, ()), paths.get(edge.v[1].data, ()))
        path_of.update({v: shared for v in ctrl.values() if not hasattr(v, "data")})
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
    return path_of


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
    graph: Graph,
    paths: dict[str, tuple[int, ...]],
    depths: dict[int, int] | None = None,
    layer_gap: float = LAYER_GAP,
) -> None:
    """Lays out each connected component, then sets them side by side; a subgraph's
    vertices are kept together in each layer (`_keep_clusters_together`). With `depths`
    (a flowchart's subgraphs), a panel is given room and edges are routed in the gaps
    between layers (flow/route.py); without, grandalf routes them (the other graph kinds,
    which place their own ends and marks)."""
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
        dummy_paths = _keep_clusters_together(layout, paths)
        layout.setxy()
        if depths is not None:
            make_room_for_panels(layout, paths, depths, dummy_paths)
            route_in_gaps(layout, list(component.sE))
        else:
            layout.draw_edges()
            for piece in component.sE:
                if not piece.view.points:
                    piece.view.points = [piece.v[0].view.xy, piece.v[1].view.xy]
        left = min(v.view.xy[0] - v.view.w / 2 for v in vertices)
        top = min(v.view.xy[1] - v.view.h / 2 for v in vertices)
        for box in vertices:
            x, y = box.view.xy
            box.view.xy = (x - left + offset, y - top)
        for piece in component.sE:
            piece.view.points = [(x - left + offset, y - top) for x, y in piece.view.points]
        offset = max(v.view.xy[0] + v.view.w / 2 for v in vertices) + NODE_GAP


def _flowchart_drawing(
    chart: Flowchart,
    placed: dict[str, Placed],
    routes: list[list[GEdge]],
    flips: tuple[bool, bool],
    measure: Measure,
) -> Drawing:
    width = max(p.x + p.w / 2 for p in placed.values())
    height = max(p.y + p.h / 2 for p in placed.values())

    def at(x: float, y: float) -> tuple[float, float]:
        return (MARGIN + (width - x if flips[0] else x), MARGIN + (height - y if flips[1] else y))

    placed = {k: replace(p, x=at(p.x, p.y)[0], y=at(p.x, p.y)[1]) for k, p in placed.items()}
    lines: list[list[tuple[float, float]]] = []
    for pieces in routes:
        points: list[tuple[float, float]] = []
        for piece in pieces:
            route = [at(x, y) for x, y in piece.view.points]
            points.extend(route if not points else route[1:])
        lines.append(points)
    items: list[Mark | Label] = []
    items.extend(_subgraph_panels(chart, placed, lines, measure))
    for edge, points in zip(chart.edges, lines, strict=True):
        items.extend(edge_marks(edge, points, placed[edge.source], placed[edge.target]))
    for key, p in placed.items():
        if p.node is None:  # an edge label on a chip of the line's colour, over the line
            chip = rect_ops(p.x - p.w / 2, p.y - p.h / 2, p.w, p.h, p.h / 2)
            items.append(Mark(chip, None, "page"))
            items.append(Mark(chip, None, tint("line")))
            ink = chart.edges[int(key.removeprefix("\0label"))].look.color or "text"
            items.append(Label(p.text, p.x, p.y - p.text.height / 2, ink))
        else:
            shape, *details = node_marks(p)  # the label right after its shape, then details
            top = p.y + label_shift(p.node.shape, p.w, p.h) - p.text.height / 2
            items.extend([shape, Label(p.text, p.x, top, label_colour(p.node)), *details])
    text = "\n".join(label for label in chart.labels() if label)
    # the bounds of everything drawn: a subgraph's panel and title reach past its nodes
    return replace(finish(items, text), across=chart.direction in ("LR", "RL"))


def _subgraph_panels(
    chart: Flowchart,
    placed: dict[str, Placed],
    lines: list[list[tuple[float, float]]],
    measure: Measure,
) -> list[Mark | Label]:
    """Each subgraph as a tinted panel around its nodes and the panels it holds, its title
    at the top left, or right or middle where no edge crosses it there (in the author's
    `style` colours when given)."""
    out: list[Mark | Label] = []
    boxes: list[tuple[float, float, float, float] | None] = []
    held = [set(sub.members) for sub in chart.subgraphs]
    loops = {edge.source for edge in chart.edges if edge.source == edge.target}
    for index, sub in enumerate(chart.subgraphs):
        members = [placed[m] for m in sub.members if m in placed]
        members += [  # the labels of its own edges (laid out inside it)
            placed[f"\0label{i}"]
            for i, e in enumerate(chart.edges)
            if f"\0label{i}" in placed and e.source in held[index] and e.target in held[index]
        ]
        inner = [b for j, b in enumerate(boxes) if b and held[j] <= held[index] and j != index]
        if not members:
            boxes.append(None)
            continue
        reach = [_reach(p, loops) for p in members] + [b for b in inner if b]
        left = min(b[0] for b in reach) - PANEL_PAD
        top = min(b[1] for b in reach) - PANEL_PAD - TITLE
        right = max(b[2] for b in reach) + PANEL_PAD
        bottom = max(b[3] for b in reach) + PANEL_PAD
        boxes.append((left, top, right, bottom))
        look = sub.look
        panel = rect_ops(left, top, right - left, bottom - top, 6)
        stroke, width = look.stroke or "border", look.width or 1.5
        out.append(Mark(panel, stroke, look.fill or "panel", width, look.dash))
        # at most as wide as the panel: a longer title is cut at its edge, never wraps
        title = measure(sub.label, SMALL_SIZE, True, 10_000.0)
        title = replace(title, lines=title.lines[:1], width=min(title.width, right - left - 16))
        x = _title_x(title.width, left + 8, right - 8, top + 3, lines)
        ink = "muted"
        if look.fill or look.color:
            ink = label_colour(Node(sub.id, sub.label, look=look))
        out.append(Label(title, x, top + 3, ink, "left"))
    return out


def _reach(p: Placed, loops: set[str]) -> tuple[float, float, float, float]:
    """What a vertex covers: its box, and a loop's curve up and right of it (edge_marks)."""
    box = (p.x - p.w / 2, p.y - p.h / 2, p.x + p.w / 2, p.y + p.h / 2)
    if p.node is None or p.node.id not in loops:
        return box
    return box[0], box[1] - LOOP_RISE, box[2] + LOOP_REACH, box[3]


def _title_x(
    width: float, left: float, right: float, top: float, lines: list[list[tuple[float, float]]]
) -> float:
    """Where a panel's title starts: at the left, else the right, else the middle, the
    first place no edge crosses; the left when every place is crossed."""
    height = SMALL_SIZE * 1.4
    for x in (left, right - width, (left + right - width) / 2):
        if not any(_crosses(line, (x - 2, top, x + width + 2, top + height)) for line in lines):
            return x
    return left


def _crosses(line: list[tuple[float, float]], box: tuple[float, float, float, float]) -> bool:
    """Whether a polyline passes through a box (each segment clipped to it, Liang-Barsky)."""
    return any(_segment_meets(a, b, box) for a, b in itertools.pairwise(line))


def _segment_meets(
    a: tuple[float, float], b: tuple[float, float], box: tuple[float, float, float, float]
) -> bool:
    low, high = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True
