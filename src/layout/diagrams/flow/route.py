"""A laid-out grandalf component → subgraph panels kept apart, and edges routed in the gaps.

grandalf places vertices layer by layer but knows neither subgraphs nor the boxes its
straight edges cross. Two passes here fix both, in grandalf's top-down coordinates:

- `make_room_for_panels`: each layer boundary a subgraph starts or ends at is widened by the
  panel's margin (padding and title), and each top-level subgraph (its members, long edges
  inside it) is one block that is slid right of every block before it that shares its
  height, as are single vertices; so panels never overlap each other, and no node or edge
  label sits on a panel it is not in. A tangle of subgraphs whose blocks would spread it
  past `MAX_GROWTH` times its width is left as grandalf placed it (its panels may touch).
- `route_in_gaps`: an edge leaves its node straight down (up for a turned edge) to the end
  of its layer, crosses the free gap between two layers to the next, and passes through a
  layer only where grandalf kept it a slot (a long edge's dummy vertex, a label, a spacer),
  straight along that slot. No segment can cross another node's box, because nodes only sit
  in layers and a layer is crossed only in a slot of its own.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..marks import SMALL_SIZE

# grandalf's SugiyamaLayout, which only ../drawing.py imports (the one door to grandalf)
SugiyamaLayout = Any

PANEL_PAD = 10.0  # px between a panel's edge and what it holds
TITLE = SMALL_SIZE * 1.5  # px: a panel's title line
MAX_BLOCKS = 800  # blocks slid apart at most (pairs: ~320k): past it panels may touch
BLOCK_GAP = 12.0  # px between two blocks that were slid apart
MAX_GROWTH = 4.0  # times its width a chart may grow by sliding panels apart, else it stays
PORT_GAP = 12.0  # px between two edges meeting one side of a node
STUB = 0.25  # of a gap between layers, crossed straight at each end (arrowheads come in square)
Paths = dict[str, tuple[int, ...]]


def panel_margin(depth: int) -> float:
    """The room a panel holding `depth` levels of panels (1: none inside) takes round its nodes."""
    return (PANEL_PAD + TITLE) * depth


def make_room_for_panels(
    layout: SugiyamaLayout,
    paths: Paths,
    depths: dict[int, int],
    edge_paths: dict[object, tuple[int, ...]],
) -> None:
    """Widens layer gaps where panels start or end, then slides blocks apart (module doc)."""
    if not depths:
        return
    _widen_layer_gaps(layout, paths, depths)
    _slide_blocks(layout, paths, depths, edge_paths)


def _key_path(
    v: object, paths: Paths, edge_paths: dict[object, tuple[int, ...]]
) -> tuple[int, ...]:
    if v in edge_paths:
        return edge_paths[v]
    return paths.get(getattr(v, "data", None), ())  # type: ignore[arg-type]


def _widen_layer_gaps(layout: SugiyamaLayout, paths: Paths, depths: dict[int, int]) -> None:
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for rank, layer in enumerate(layout.layers):
        for v in layer:
            for cluster in paths.get(getattr(v, "data", None), ()):  # type: ignore[arg-type]
                first.setdefault(cluster, rank)
                last[cluster] = rank
    shift = 0.0
    for rank, layer in enumerate(layout.layers):
        ending = [panel_margin(depths[c]) for c, r in last.items() if r == rank - 1]
        starting = [panel_margin(depths[c]) for c, r in first.items() if r == rank]
        shift += max(ending, default=0.0) + max(starting, default=0.0)
        for v in layer:
            x, y = v.view.xy
            v.view.xy = (x, y + shift)


def _slide_blocks(
    layout: SugiyamaLayout,
    paths: Paths,
    depths: dict[int, int],
    edge_paths: dict[object, tuple[int, ...]],
) -> None:
    """Slides blocks apart inside each panel, the deepest panels first, then at the top."""
    where = {v: _key_path(v, paths, edge_paths) for layer in layout.layers for v in layer}
    for depth in range(max(len(path) for path in where.values()), -1, -1):
        scopes: dict[tuple[int, ...], dict[object, list[object]]] = {}
        for v, path in where.items():
            if len(path) >= depth:
                key = ("panel", path[depth]) if len(path) > depth else v
                scopes.setdefault(path[:depth], {}).setdefault(key, []).append(v)
        for blocks in scopes.values():
            _slide_apart(blocks, depths, top=depth == 0)


def _slide_apart(blocks: dict[object, list[object]], depths: dict[int, int], top: bool) -> None:
    """Each block right of every block before it (by its middle) that shares its height."""
    if len(blocks) > MAX_BLOCKS or len(blocks) < 2:
        return
    extents = {key: _extent(key, members, depths) for key, members in blocks.items()}
    order = sorted(blocks, key=lambda key: (extents[key][0] + extents[key][2]) / 2)
    shifts: dict[object, float] = {}
    for index, key in enumerate(order):
        left, top_y, _, bottom = extents[key]
        need = 0.0
        for earlier in order[:index]:
            _, e_top, e_right, e_bottom = extents[earlier]
            if e_top < bottom and top_y < e_bottom:
                need = max(need, e_right + shifts[earlier] + BLOCK_GAP - left)
        shifts[key] = need
    lefts = [e[0] for e in extents.values()]
    width = max(e[2] for e in extents.values()) - min(lefts)
    grown = max(extents[k][2] + shifts[k] for k in order) - min(lefts)
    if top and grown > MAX_GROWTH * width:
        return  # a tangle of subgraphs: sliding them apart would spread it past reading
    for key, need in shifts.items():
        for v in blocks[key]:
            x, y = v.view.xy  # type: ignore[attr-defined]
            v.view.xy = (x + need, y)  # type: ignore[attr-defined]


def _extent(
    key: object, members: list[object], depths: dict[int, int]
) -> tuple[float, float, float, float]:
    """A block's box: its vertices', and a panel's margin round them."""
    margin = panel_margin(depths[key[1]]) if isinstance(key, tuple) else 0.0
    boxes = [v.view for v in members]  # type: ignore[attr-defined]
    return (
        min(b.xy[0] - b.w / 2 for b in boxes) - margin,
        min(b.xy[1] - b.h / 2 for b in boxes) - margin,
        max(b.xy[0] + b.w / 2 for b in boxes) + margin,
        max(b.xy[1] + b.h / 2 for b in boxes) + margin,
    )


def route_in_gaps(layout: SugiyamaLayout, edges: list[object]) -> None:
    """Each edge piece's points (module doc): from its first vertex's centre to its last's;
    edges on one side of a node leave or enter it side by side (`_ports`)."""
    bands = _bands(layout)
    chains = [_chain(layout, e) for e in edges]
    ports = _ports(layout, chains)
    for index, (e, chain) in enumerate(zip(edges, chains, strict=True)):
        points = [chain[0].view.xy]
        last = len(chain) - 2
        for at, (u, w) in enumerate(itertools.pairwise(chain)):
            ru, rw = layout.grx[u].rank, layout.grx[w].rank
            down = rw > ru
            leave = bands[ru][1] if down else bands[ru][0]
            enter = bands[rw][0] if down else bands[rw][1]
            stub = (enter - leave) * STUB  # straight out of one layer and into the next
            ux = u.view.xy[0] + (ports.get((index, 0), 0.0) if at == 0 else 0.0)
            wx = w.view.xy[0] + (ports.get((index, 1), 0.0) if at == last else 0.0)
            points += [(ux, leave), (ux, leave + stub), (wx, enter - stub), (wx, enter)]
        points.append(chain[-1].view.xy)
        e.view.setpath(points)  # type: ignore[attr-defined]


def _chain(layout: SugiyamaLayout, e: object) -> list:  # type: ignore[type-arg]
    """An edge piece's vertices in rank order from its first end: the dummies between."""
    ctrl = layout.ctrls.get(e, {})
    first, last = e.v  # type: ignore[attr-defined]
    r0, r1 = layout.grx[first].rank, layout.grx[last].rank
    step = 1 if r1 > r0 else -1
    return [first, *(ctrl[r] for r in range(r0 + step, r1, step)), last]


def _ports(layout: SugiyamaLayout, chains: list[list]) -> dict[tuple[int, int], float]:  # type: ignore[type-arg]
    """(edge, end 0/1) → how far right of its node's centre the edge meets the node: the
    edges on one side of a node, in the order of where they go, PORT_GAP apart (less on a
    narrow node), the one that goes straight on at the centre (`_straight_end`). A label
    or spacer (a vertex an edge passes through) and a pointed shape (a diamond's tip, a
    circle's) keep their centre."""
    sides: dict[tuple[object, bool], list[tuple[float, int, int]]] = {}
    for index, chain in enumerate(chains):
        for end, vertex, other in ((0, chain[0], chain[1]), (1, chain[-1], chain[-2])):
            data = getattr(vertex, "data", "")
            if not isinstance(data, str) or data.startswith("\0") or vertex.view.pointed:
                continue
            below = layout.grx[other].rank > layout.grx[vertex].rank
            sides.setdefault((vertex, below), []).append((other.view.xy[0], index, end))
    out: dict[tuple[int, int], float] = {}
    for (vertex, _), ends in sides.items():
        if len(ends) < 2:
            continue
        ends.sort()
        middle = _straight_end(ends, vertex.view.xy[0])  # type: ignore[attr-defined]
        reach = max(middle, len(ends) - 1 - middle)  # ports from the middle one to the far side
        gap = min(PORT_GAP, vertex.view.w * 0.4 / reach)  # type: ignore[attr-defined]
        for k, (_, index, end) in enumerate(ends):
            out[(index, end)] = (k - middle) * gap
    return out


def _straight_end(ends: list[tuple[float, int, int]], x: float) -> float:
    """Which of a side's `ends` (sorted by where they go) meets the node's centre: the one
    that goes straight on to a node (or a long edge's slot) right over or under it, so it
    stays straight (a loop back to a chain's start made its first arrow bend round the
    loop's port); else the ports are centred on the node (the middle index, perhaps half)."""
    straight = [k for k, (other, _, _) in enumerate(ends) if abs(other - x) < 0.5]
    return float(straight[0]) if len(straight) == 1 else (len(ends) - 1) / 2


def _bands(layout: SugiyamaLayout) -> list[tuple[float, float]]:
    """Each layer's top and bottom: the reach of its nodes' boxes."""
    out = []
    for layer in layout.layers:
        boxes = [v.view for v in layer if isinstance(getattr(v, "data", None), str)]
        if not boxes:
            y = layer[0].view.xy[1] if layer else 0.0
            out.append((y, y))
            continue
        out.append((min(b.xy[1] - b.h / 2 for b in boxes), max(b.xy[1] + b.h / 2 for b in boxes)))
    return out
