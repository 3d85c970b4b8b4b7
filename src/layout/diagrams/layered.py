"""grandalf's layered (Sugiyama) layout, as every graph kind uses it: flowcharts
(`drawing`), state diagrams (`statecharts`), class and ER diagrams (`uml`).

Cycle removal, longest-path layering, barycentre crossing reduction, Brandes-Köpf
coordinates, each connected component on its own, side by side. Its edges are hashed by
their place in the diagram (`ordered_edge`): the layout comes out the same on every run.
A subgraph's vertices are kept side by side in each layer (`sugiyama`); a flowchart's
panels get room and its edges are routed between the layers (`flow.route`), the other
kinds take grandalf's own routes. Work is bounded by the vertices laid out, dummies
included (`MAX_LAYOUT_VERTICES`), besides the post's counted steps (`cost`).
"""

from __future__ import annotations

import functools
import itertools
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..errors import DiagramError
from .flow.route import make_room_for_panels, route_in_gaps

if TYPE_CHECKING:  # grandalf is imported when a graph is laid out
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
class Box:
    """A vertex's view for grandalf: its size (w, h) and, after layout, its centre xy;
    `pointed`: a shape whose ends narrow to a point (edges meet it there, not side by side)."""

    w: float
    h: float
    xy: tuple[float, float] = (0.0, 0.0)
    pointed: bool = False


@dataclass
class Path:
    """An edge's view for grandalf: the points of its route once laid out."""

    points: list[tuple[float, float]]

    def setpath(self, points: list[tuple[float, float]]) -> None:
        self.points = list(points)


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
    box.view = Box(h, w) if across else Box(w, h)
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
        piece.view = Path([])
    graph = Graph(vertices, [p for pieces in pieces_of for p in pieces])
    sugiyama(graph, {}, layer_gap=layer_gap)
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


def sugiyama(
    graph: Graph,
    paths: dict[str, tuple[int, ...]],
    depths: dict[int, int] | None = None,
    layer_gap: float = LAYER_GAP,
    node_gap: float = NODE_GAP,
    straighten: bool = True,
) -> None:
    """Lays out each connected component, then sets them side by side; a subgraph's
    vertices are kept together in each layer (`_keep_clusters_together`). With `depths`
    (a flowchart's subgraphs), a panel is given room and edges are routed in the gaps
    between layers (flow/route.py); without, grandalf routes them (the other graph kinds,
    which place their own ends and marks). `straighten`: a chain's end is set in line with
    the node it leads to (`_straighten_ends`); class and ER diagrams, whose ends sit side
    by side on a box's edge, keep grandalf's places."""
    offset, laid_out = 0.0, 0
    for component in graph.C:
        vertices = list(component.sV)
        if len(vertices) == 1:
            box = vertices[0].view
            box.xy = (offset + box.w / 2, box.h / 2)
            offset += box.w + node_gap
            continue
        layout = _sugiyama_class()(component)
        layout.xspace, layout.yspace = node_gap, layer_gap
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
        if straighten:
            _straighten_ends(layout, paths, node_gap)
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
        offset = max(v.view.xy[0] + v.view.w / 2 for v in vertices) + node_gap


@functools.cache
def _sugiyama_class() -> type[SugiyamaLayout]:
    """grandalf's layered layout, its module imported without numpy unless numpy is loaded.

    `grandalf.layouts` imports `grandalf.utils.geometry`, which takes numpy's `array` and
    `matrix` when numpy imports and grandalf's pure-Python ones (`utils.linalg`) when it
    does not; only the force-directed `DigcoLayout` uses them, never Sugiyama. numpy would
    then stay in a render worker for good (+7-10 MB of its peak, docs/benchmarks.md,
    "Memory"). A `None` in `sys.modules` makes that import raise ImportError (the
    language reference, "The module cache"), for as long as geometry's import takes."""
    if "numpy" not in sys.modules and "grandalf.utils.geometry" not in sys.modules:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # documented: import fails
        try:
            import grandalf.utils.geometry  # noqa: F401  # takes its fallback
        finally:
            if sys.modules.get("numpy", False) is None:
                del sys.modules["numpy"]
    from grandalf.layouts import SugiyamaLayout  # see TYPE_CHECKING

    return cast("type[SugiyamaLayout]", SugiyamaLayout)  # grandalf has no type hints


def _keep_clusters_together(
    layout: SugiyamaLayout, paths: dict[str, tuple[int, ...]]
) -> dict[object, tuple[int, ...]]:
    """Reorders each layer so a subgraph's vertices (and the long edges inside it) sit side
    by side, where the crossing reduction left them; grandalf knows no clusters, and
    without this an outside node can land between two members, inside their panel. Gives
    each long edge's dummy vertices the subgraphs both its ends are in."""
    path_of: dict[object, tuple[int, ...]] = {}
    for edge, ctrl in layout.ctrls.items():  # a long edge's dummies: in what both ends are in
        common = shared(paths.get(edge.v[0].data, ()), paths.get(edge.v[1].data, ()))
        path_of.update({v: common for v in ctrl.values() if not hasattr(v, "data")})
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


def shared(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The subgraphs two vertices are both in (the common start of their paths)."""
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return a[:common]


def _straighten_ends(layout: SugiyamaLayout, paths: dict[str, tuple[int, ...]], gap: float) -> None:
    """Sets a chain's first (or last) node straight over (under) the one node it leads to
    where a long edge also leaves it, as a loop back to the start does: Brandes-Köpf
    averages its alignments with the node and with the long edge's first bend, and set
    the start half-way between them, its arrow to the next node slanting (case 66:
    写稿 64 px right of 自查, the loop back from 主编审核 beside it). It moves only where
    its layer has the room, and only outside subgraphs (a panel narrowed so set its title
    across the edge coming in: case 64's 通知阶段)."""
    grx = layout.grx
    for layer in layout.layers:
        for index, v in enumerate(layer):
            if grx[v].dummy:
                continue
            target = _straight_over(v, grx, paths)
            if target is not None and _room_at(layer, index, target, gap):
                v.view.xy = (target, v.view.xy[1])


def _straight_over(
    v: Vertex, grx: dict[Vertex, object], paths: dict[str, tuple[int, ...]]
) -> float | None:
    """The x of the one node next to `v` on one side, where `v` has no edge on the other
    side and a long edge (spanning layers) leaves it on the first; else None."""
    rank = grx[v].rank  # type: ignore[attr-defined]
    near: dict[int, list[Vertex]] = {-1: [], 1: []}
    far = {-1: 0, 1: 0}
    for edge in v.e:
        other = edge.v[1] if edge.v[0] is v else edge.v[0]
        step = grx[other].rank - rank  # type: ignore[attr-defined]
        if step in (-1, 1):
            near[step].append(other)
        elif step:
            far[1 if step > 0 else -1] += 1
    for side in (-1, 1):
        lonely = not near[-side] and not far[-side]
        if lonely and len(near[side]) == 1 and far[side]:
            [next_one] = near[side]
            if not paths.get(v.data) and not paths.get(next_one.data):
                return float(next_one.view.xy[0])
    return None


def _room_at(layer: list[Vertex], index: int, x: float, gap: float) -> bool:
    """Whether the vertex at `index` of `layer` fits at `x` between its neighbours there,
    `gap` from each, in the same order."""
    half = layer[index].view.w / 2
    if index > 0:
        left = layer[index - 1]
        if x - half < left.view.xy[0] + getattr(left.view, "w", 0.0) / 2 + gap:
            return False
    if index + 1 < len(layer):
        right = layer[index + 1]
        if x + half > right.view.xy[0] - getattr(right.view, "w", 0.0) / 2 - gap:
            return False
    return True
