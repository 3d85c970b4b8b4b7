"""A flowchart record + a label `Measure` → its `Drawing`: boxes and edges laid out in layers.

Flowcharts are laid out by grandalf's Sugiyama layout (`layered`), each connected
component on its own, side by side. An edge label is a vertex of its own in the middle
of its edge, so layering leaves it room. LR and RL lay out TB with the boxes' sides
swapped, then turn the picture. The records a drawing is made of are in marks.py; mind
maps, sequence diagrams and pies have modules of their own.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING

from .flow.chips import chip_onto, turns_back, without_spike
from .flow.paint import (
    Placed,
    chip_size,
    edge_chip,
    edge_label,
    edge_marks,
    label_colour,
    look_text,
    loop_chip,
    loop_room,
    node_marks,
)
from .flow.route import PANEL_PAD, TITLE
from .flow.shapes import label_shift
from .flow.shapes import size as shape_size
from .flow.tips import off_shared_tips
from .layered import Path, ordered_edge, shared, sugiyama, vertex
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
    segment_meets,
)
from .mermaid import Edge, Flowchart, Node

if TYPE_CHECKING:  # grandalf pulls in numpy (~60 ms): imported when a flowchart is laid out
    from grandalf.graphs import Edge as GEdge
    from grandalf.graphs import Graph, Vertex


def _node_size(node: Node, text: Lines) -> tuple[float, float]:
    return shape_size(node.shape, text.width + 2 * PAD_X, text.height + 2 * PAD_Y)


POINTED = frozenset({"rhombus", "circle", "dcircle", "tri", "flip-tri", "hourglass", "bolt"})
# each node with a loop: its loops' labels measured (None for none), and their ink
Loops = dict[str, tuple[Lines | None, str | None]]
SPACER = 2.0  # px: the vertex a long link (`--->`) gets in each rank it spans past the first


def layout_flowchart(chart: Flowchart, measure: Measure) -> Drawing:
    across = chart.across
    from grandalf.graphs import Graph  # see TYPE_CHECKING above

    vertices: dict[str, Vertex] = {}
    placed_text: dict[str, Lines] = {}
    sizes: dict[str, tuple[float, float]] = {}
    loops = _loop_labels(chart, measure)
    # the loop is drawn up and right of its node in the final drawing: laid out before
    # the drawing is mirrored (RL, BT), the room goes the other way
    toward = (-1.0 if chart.direction == "RL" else 1.0, -1.0 if chart.direction == "BT" else 1.0)
    shifted: dict[str, tuple[float, float]] = {}  # a looped node's centre off its vertex's
    for node in chart.nodes:
        text = look_text(measure, node.label, LABEL_SIZE, node.bold, MAX_LABEL_WIDTH, node.look)
        placed_text[node.id] = text
        w, h = _node_size(node, text)
        if node.shape == "fork" and across:  # a fork's bar lies across the flow
            w, h = h, w
        sizes[node.id] = (w, h)
        if node.id in loops:  # room for the loop beside it
            dw, dh = loop_room(loops[node.id][0], across, w)
            # along the flow the room is on the side the loop is drawn on only and the
            # node sits off its vertex's centre (a line runs on to the node's edge): the
            # same room on the other side lengthened the arrow there (66's 自查 and 排版,
            # their arrows out 27 px longer than the others). Across the flow it is on
            # both sides, the node centred on the lines laid out to its vertex.
            if across:
                w, h = w + dw, h + 2 * dh
                shifted[node.id] = (-toward[0] * dw / 2, 0.0)
            else:
                w, h = w + 2 * dw, h + dh
                shifted[node.id] = (0.0, toward[1] * dh / 2)
        vertices[node.id] = vertex(node.id, w, h, across)
        vertices[node.id].view.pointed = node.shape in POINTED
    g_edges: list[GEdge] = []
    routes: list[list[GEdge]] = []
    for index, edge in enumerate(chart.edges):
        if edge.source == edge.target:  # a loop: drawn beside its node, not laid out
            routes.append([])
            continue
        ends = [vertices[edge.source]]
        chip = edge_label(edge, measure)
        if chip is not None:
            key = f"\0label{index}"
            placed_text[key] = chip
            ends.append(vertex(key, *chip_size(chip), across))
            vertices[key] = ends[-1]
        for step in range(edge.length - 1):  # a longer link spans more ranks
            key = f"\0gap{index}.{step}"
            ends.append(vertex(key, SPACER, SPACER, across))
            vertices[key] = ends[-1]
        ends.append(vertices[edge.target])
        pairs = itertools.pairwise(ends)
        pieces = [ordered_edge(a, b, len(g_edges) + k) for k, (a, b) in enumerate(pairs)]
        for piece in pieces:
            piece.view = Path([])
        g_edges.extend(pieces)
        routes.append(pieces)
    graph = Graph(list(vertices.values()), g_edges)
    if chart.subgraphs and len(graph.C) > 1:  # a panel may hold nodes of two components
        graph = _tied(graph, list(vertices.values()), g_edges, across)
    sugiyama(graph, _cluster_paths(chart), _depths(chart))
    boxes = {key: v.view for key, v in vertices.items()}
    if across:
        for box in boxes.values():
            box.xy = (box.xy[1], box.xy[0])
            box.w, box.h = box.h, box.w
        for piece in g_edges:
            piece.view.points = [(y, x) for x, y in piece.view.points]
    flip_x, flip_y = chart.direction == "RL", chart.direction == "BT"
    nodes = {n.id: n for n in chart.nodes}
    placed: dict[str, Placed] = {}
    for key, box in boxes.items():
        if key in placed_text:
            w, h = sizes.get(key, (box.w, box.h))
            dx, dy = shifted.get(key, (0.0, 0.0))
            x, y = box.xy
            placed[key] = Placed(nodes.get(key), placed_text[key], w, h, x + dx, y + dy)
    return _flowchart_drawing(chart, placed, routes, (flip_x, flip_y), measure, loops)


def _tied(graph: Graph, vertices: list[Vertex], edges: list[GEdge], across: bool) -> Graph:
    """The graph with one unseen vertex above a first node of each of its components, so
    all are laid out as one and a subgraph's panel never spans another component."""
    from grandalf.graphs import Graph  # see TYPE_CHECKING above

    root = vertex("\0root", SPACER, SPACER, across)
    ties: list[GEdge] = []
    for component in graph.C:
        first = next((v for v in component.sV if not v.e_in()), component.sV[0])
        ties.append(ordered_edge(root, first, len(edges) + len(ties)))
        ties[-1].view = Path([])
    return Graph([*vertices, root], [*edges, *ties])


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
        common = shared(paths[edge.source], paths[edge.target])
        paths[f"\0label{index}"] = common
        paths.update({f"\0gap{index}.{step}": common for step in range(edge.length - 1)})
    return paths


def _depths(chart: Flowchart) -> dict[int, int]:
    """Each subgraph's depth of panels: 1 for one holding no other, else one more than the
    deepest it holds (a subgraph is written, so closed and listed, after those it holds)."""
    depths: dict[int, int] = {}
    members = [set(sub.members) for sub in chart.subgraphs]
    for index, held in enumerate(members):
        inner = [depths[j] for j in range(index) if members[j] <= held and members[j] != held]
        depths[index] = 1 + max(inner, default=0)
    return depths


def _flowchart_drawing(
    chart: Flowchart,
    placed: dict[str, Placed],
    routes: list[list[GEdge]],
    flips: tuple[bool, bool],
    measure: Measure,
    loops: Loops,
) -> Drawing:
    across = chart.across
    width = max(p.x + p.w / 2 for p in placed.values())
    height = max(p.y + p.h / 2 for p in placed.values())

    def at(x: float, y: float) -> tuple[float, float]:
        return (MARGIN + (width - x if flips[0] else x), MARGIN + (height - y if flips[1] else y))

    placed = {k: replace(p, x=at(p.x, p.y)[0], y=at(p.x, p.y)[1]) for k, p in placed.items()}
    lines: list[list[tuple[float, float]]] = []
    for index, pieces in enumerate(routes):
        points: list[tuple[float, float]] = []
        junction = -1  # where a labelled edge (two pieces) meets its label's vertex
        for piece in pieces:
            junction = len(points) - 1
            route = [at(x, y) for x, y in piece.view.points]
            points.extend(route if not points else route[1:])
        key = f"\0label{index}"
        if len(pieces) == 2 and key in placed and turns_back(points, junction):
            points = _label_onto_line(placed, key, points, junction)
        lines.append(points)
    lines = off_shared_tips([(e.source, e.target) for e in chart.edges], lines, placed)
    items: list[Mark | Label] = []
    items.extend(_subgraph_panels(chart, placed, lines, measure, loops))
    for edge, points in zip(chart.edges, lines, strict=True):
        items.extend(edge_marks(edge, points, placed[edge.source], placed[edge.target], across))
    for ident, (said, ink) in loops.items():
        items.extend(loop_chip(placed[ident], said, ink, across) if said else ())
    for key, p in placed.items():
        if p.node is None:  # an edge label on a chip of the line's colour, over the line
            ink = chart.edges[int(key.removeprefix("\0label"))].look.color
            items.extend(edge_chip(p.text, (p.x, p.y), ink))
        else:
            shape, *details = node_marks(p)  # the label right after its shape, then details
            top = p.y + label_shift(p.node.shape, p.w, p.h) - p.text.height / 2
            items.extend([shape, Label(p.text, p.x, top, label_colour(p.node)), *details])
    text = "\n".join(label for label in chart.labels() if label)
    # the bounds of everything drawn: a subgraph's panel and title reach past its nodes
    return replace(finish(items, text), across=across, tall=not across)


def _label_onto_line(
    placed: dict[str, Placed], key: str, points: list[tuple[float, float]], junction: int
) -> list[tuple[float, float]]:
    """An edge against the layers turns back at its label (flow/chips.py): its chip
    moved onto its line, clear of the boxes and other chips, and the line without the
    turn; both as they were where no run has room."""
    line = without_spike(points, junction)
    return line if chip_onto(line, placed, key) else points


def _subgraph_panels(
    chart: Flowchart,
    placed: dict[str, Placed],
    lines: list[list[tuple[float, float]]],
    measure: Measure,
    loops: Loops,
) -> list[Mark | Label]:
    """Each subgraph as a tinted panel around its nodes and the panels it holds, its title
    at the top left, or right or middle where no edge crosses it there (in the author's
    `style` colours when given)."""
    out: list[Mark | Label] = []
    boxes: list[tuple[float, float, float, float] | None] = []
    held = [set(sub.members) for sub in chart.subgraphs]
    across = chart.across
    rooms = {ident: loop_room(text, across, placed[ident].w) for ident, (text, _) in loops.items()}
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
        reach = [_reach(p, rooms) for p in members] + [b for b in inner if b]
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


def _reach(p: Placed, loops: dict[str, tuple[float, float]]) -> tuple[float, float, float, float]:
    """What a vertex covers: its box, and a loop's curve and label up and right of it
    (`loops`: each looped node's `loop_room`)."""
    box = p.bounds()
    if p.node is None or p.node.id not in loops:
        return box
    right, up = loops[p.node.id]
    return box[0], box[1] - up, box[2] + right, box[3]


def _loop_labels(chart: Flowchart, measure: Measure) -> Loops:
    """Each node with a loop (an edge to itself), in the nodes' order: its loops' labels
    as one text, one a line (None for none), and the ink of its first labelled loop. One
    pass over the edges: a 200-node chart's 400 edges were read once a node."""
    own: dict[str, list[Edge]] = {}
    for edge in chart.edges:
        if edge.source == edge.target:
            own.setdefault(edge.source, []).append(edge)
    out: Loops = {}
    for node in chart.nodes:
        if node.id not in own:
            continue
        said = [e for e in own[node.id] if e.label]
        text = "\n".join(e.label for e in said)
        lines = measure(text, LABEL_SIZE, True, MAX_LABEL_WIDTH * 0.8) if said else None
        out[node.id] = (lines, said[0].look.color if said else None)
    return out


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
    return any(segment_meets(a, b, box) for a, b in itertools.pairwise(line))
