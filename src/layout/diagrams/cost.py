"""A parsed diagram → the steps its layout will take, counted before any layout is tried.

A post's diagrams are bounded by counted steps, never by the seconds they took
(`fit.DiagramBudget`): the same source gets the same answer (drawn, or its source with a
note) on every machine, loaded or idle, through the API or the CLI, and a diagram past the
allowance gets its note at once, without a layout begun. The count follows what the layout
does. A layered layout (grandalf's Sugiyama, as flowcharts use it) orders every vertex of
every layer in each crossing-reduction sweep, the dummy vertices of long edges included, and
weighs each against its neighbours: so its steps are (vertices + dummies + edge pieces) x
sweeps, the dummies counted from a layering done here the way grandalf does it (cycles
broken depth-first from the sources, then longest path), linear in the diagram. Class and
ER diagrams are one such layout of their boxes (a class's notes too), state diagrams one a
scope (the diagram, each region of a composite state): counted so, not by their labels
alone, so a dense one past the allowance gets its note at once. Every other kind is laid
out in one pass over its items. Every kind measures (shapes) and places each
label once: `ITEM_STEPS` a label. A record may count its own steps with a `layout_steps()` method.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from .mermaid import Flowchart
from .statecharts.mermaidstate import StateChart
from .uml.mermaidclass import ClassDiagram
from .uml.mermaider import ErDiagram

SWEEPS = 3  # crossing-reduction sweeps a layered layout makes (layered.sugiyama)
ITEM_STEPS = 20  # a label measured and placed, in the units of one vertex of one sweep
# One diagram's allowance, calibrated on this machine with generated flowcharts up to the
# parser's limits (200 nodes, 400 edges; random, acyclic, labelled, long-edged, bipartite)
# and benchmarks/bench_mermaid.py (docs/decisions/engine.md, "counted steps"): one layout
# of up to 40,000 steps took at most 0.7 s of CPU, most well under 0.3 s.
DIAGRAM_STEPS = 40_000
# A diagram's forms together (as written, upright, narrow): a second form only for one
# under half the cap. With flowcharts' edges routed between layers, a 200-node, 400-edge
# chart of 38,900 steps took 1.05 s a form: two came to 2.1 s, over the 2-s ceiling.
FORMS_STEPS = 3 * DIAGRAM_STEPS // 2
POST_STEPS = 6 * DIAGRAM_STEPS  # a post's diagrams together


def diagram_steps(diagram: object) -> int:
    """The steps laying out `diagram` will take."""
    own = getattr(diagram, "layout_steps", None)
    if callable(own):
        return int(own())
    labels = getattr(diagram, "labels", None)
    measured = ITEM_STEPS * (len(labels()) if callable(labels) else 1)
    if isinstance(diagram, Flowchart):
        return measured + flowchart_steps(diagram)
    if isinstance(diagram, ClassDiagram):
        boxes = [box.id for box in diagram.classes] + [
            f"\0note{i}" for i in range(len(diagram.notes))
        ]
        wires = [(r.source, r.target, bool(r.label)) for r in diagram.relations]
        wires += [(f"\0note{i}", n.target, False) for i, n in enumerate(diagram.notes) if n.target]
        return measured + box_graph_steps(boxes, wires)
    if isinstance(diagram, ErDiagram):
        wires = [(k.source, k.target, bool(k.label)) for k in diagram.links]
        return measured + box_graph_steps([e.id for e in diagram.entities], wires)
    if isinstance(diagram, StateChart):
        return measured + state_steps(diagram)
    return measured


def flowchart_steps(chart: Flowchart) -> int:
    """A flowchart's layered-layout steps: an edge label is a vertex of its own mid-edge, a
    loop is drawn beside its node and not laid out (as `drawing.layout_flowchart` does)."""
    index = {node.id: i for i, node in enumerate(chart.nodes)}
    count = len(index)
    links: list[tuple[int, int]] = []
    for edge in chart.edges:
        a, b = index[edge.source], index[edge.target]
        if a == b:
            continue
        if edge.label:
            links += [(a, count), (count, b)]
            count += 1
        else:
            links.append((a, b))
    return layered_steps(count, links)


def box_graph_steps(boxes: list[str], wires: list[tuple[str, str, bool]]) -> int:
    """The layered-layout steps of `boxes` joined by `wires` (source, target, labelled), as
    `uml.boxgraph.lay_out` lays them out: a label a vertex of its own, a loop not laid out."""
    index = {key: i for i, key in enumerate(boxes)}
    count = len(index)
    links: list[tuple[int, int]] = []
    for source, target, labelled in wires:
        a, b = index[source], index[target]
        if a == b:
            continue
        if labelled:
            links += [(a, count), (count, b)]
            count += 1
        else:
            links.append((a, b))
    return layered_steps(count, links)


def state_steps(chart: StateChart) -> int:
    """A state diagram's layered-layout steps, scope by scope as `statecharts.states` lays
    them out: a transition in the innermost scope holding both its ends, between the
    children of that scope that hold them (none between a composite and a state in it)."""
    scope_of = {state.id: state.scope for state in chart.states}
    members: dict[str, list[str]] = {}
    for state in chart.states:
        members.setdefault(state.scope, []).append(state.id)
    wires: dict[str, list[tuple[str, str, bool]]] = {}
    for transition in chart.transitions:
        if transition.source == transition.target:
            continue
        ends = _innermost(transition.source, transition.target, scope_of)
        if ends is not None:
            scope, a, b = ends
            wires.setdefault(scope, []).append((a, b, bool(transition.label)))
    return sum(box_graph_steps(members[scope], wires.get(scope, [])) for scope in members)


def _innermost(source: str, target: str, scope_of: dict[str, str]) -> tuple[str, str, str] | None:
    """The innermost scope holding both ends and its children that hold them (None: one
    end is a composite and the other is in it)."""
    theirs = dict(_holders(target, scope_of))
    for scope, child in _holders(source, scope_of):
        if scope in theirs:
            return (scope, child, theirs[scope]) if child != theirs[scope] else None
    return None


def _holders(ident: str, scope_of: dict[str, str]) -> list[tuple[str, str]]:
    """(scope, its child holding `ident`), innermost first: at most `MAX_NESTING` + 1."""
    out = []
    while True:
        scope = scope_of[ident]
        out.append((scope, ident))
        if not scope:
            return out
        ident = scope.partition("\0")[0]


def layered_steps(vertices: int, links: Iterable[tuple[int, int]]) -> int:
    """Steps of a layered layout of `vertices` joined by `links` (pairs of vertex numbers)."""
    pairs = list(links)
    ranks = _ranks(vertices, pairs)
    dummies = sum(max(0, abs(ranks[b] - ranks[a]) - 1) for a, b in pairs)
    return (vertices + 2 * dummies + len(pairs)) * SWEEPS


def _ranks(vertices: int, pairs: list[tuple[int, int]]) -> list[int]:
    """Each vertex's layer: the links that close a cycle (found depth-first from the
    vertices nothing points at, then from the rest) turned round, then the longest path
    from a source. Linear, without recursion."""
    out: list[list[int]] = [[] for _ in range(vertices)]
    has_in = [False] * vertices
    for a, b in pairs:
        out[a].append(b)
        has_in[b] = True
    state = [0] * vertices  # 0 new, 1 on the path, 2 done
    back: set[tuple[int, int]] = set()
    starts = [v for v in range(vertices) if not has_in[v]] + list(range(vertices))
    for start in starts:
        if state[start]:
            continue
        state[start] = 1
        stack = [(start, iter(out[start]))]
        while stack:
            vertex, targets = stack[-1]
            target = next(targets, None)
            if target is None:
                state[vertex] = 2
                stack.pop()
            elif state[target] == 1:
                back.add((vertex, target))
            elif state[target] == 0:
                state[target] = 1
                stack.append((target, iter(out[target])))
    return _longest_paths(vertices, [(b, a) if (a, b) in back else (a, b) for a, b in pairs])


def _longest_paths(vertices: int, pairs: list[tuple[int, int]]) -> list[int]:
    """Each vertex's longest distance from a source of the acyclic `pairs` (Kahn's order)."""
    out: list[list[int]] = [[] for _ in range(vertices)]
    waiting = [0] * vertices
    for a, b in pairs:
        if a != b:
            out[a].append(b)
            waiting[b] += 1
    ranks = [0] * vertices
    ready = deque(v for v in range(vertices) if waiting[v] == 0)
    while ready:
        vertex = ready.popleft()
        for target in out[vertex]:
            ranks[target] = max(ranks[target], ranks[vertex] + 1)
            waiting[target] -= 1
            if waiting[target] == 0:
                ready.append(target)
    return ranks
