"""A `StateChart` + a label `Measure` → its `Drawing`: states in layers, composites as panels.

Each scope (the diagram, or one concurrent region of a composite state) is laid out on its
own by grandalf's layered layout, as flowcharts are (`drawing.sugiyama`), innermost
first: a composite is then one box of its regions' size in its parent's layout, so panels
never overlap and each holds its own start and end. A transition between scopes is drawn
in the innermost scope holding both ends, to the panel of the composite the far end is in.
Notes and self-loops' labels widen their state's box on its side, so layering leaves
them room; a transition's label is a vertex of its own, as in flowcharts.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace

from ..errors import DiagramError
from .drawing import EdgePath, back, rounded, sugiyama, vertex
from .marks import (
    LABEL_SIZE,
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
from .mermaid import MAX_NESTING
from .mermaidstate import State, StateChart, Transition, region_of

_DOT, _RING, _BAR, _CHOICE = 7.0, 9.0, 70.0, 26.0  # start radius, end radius, bar, diamond
_PANEL_PAD, _REGION_GAP, _NOTE_GAP, _LOOP = 12.0, 24.0, 14.0, 22.0
Rect = tuple[float, float, float, float]  # left, top, width, height


@dataclass
class _Box:
    """A child of a scope as laid out: its box, and its own shape's rect in it (a note or
    a self-loop's label widens the box past the shape)."""

    w: float
    h: float
    body: Rect  # relative to the box's top left
    x: float = 0.0  # the box's top left, in its scope
    y: float = 0.0


@dataclass
class _Scope:
    """One scope laid out: its children's boxes and its transitions' routes, in px from
    its own top left."""

    w: float = 0.0
    h: float = 0.0
    boxes: dict[str, _Box] = field(default_factory=dict)
    routes: list[tuple[str, str, list[tuple[float, float]]]] = field(default_factory=list)
    chips: dict[int, tuple[float, float]] = field(default_factory=dict)  # label centres
    chip_sizes: dict[int, tuple[float, float]] = field(default_factory=dict)


def layout_states(chart: StateChart, measure: Measure, upright: bool = False) -> Drawing:
    """The state diagram: scopes laid out innermost first, then drawn from the outside in;
    `upright`: a left-right diagram laid top-down (its composites' own directions kept)."""
    across = chart.direction in ("LR", "RL")
    if upright and across:
        chart = replace(chart, direction="TB")
    return replace(_Layout(chart, measure).drawing(), across=across)


class _Layout:
    def __init__(self, chart: StateChart, measure: Measure) -> None:
        self.chart, self.measure = chart, measure
        self.states = {s.id: s for s in chart.states}
        self.regions = dict(chart.regions)
        self.children: dict[str, list[State]] = {}
        for state in chart.states:
            self.children.setdefault(state.scope, []).append(state)
        own = dict(chart.directions)
        self.direction = {"": chart.direction}
        self.depth = {"": 0}
        for state in chart.states:  # a composite is made before its members
            if state.kind == "composite":
                depth = self.depth[state.scope] + 1
                if depth > MAX_NESTING:
                    raise DiagramError("composite states nested too deeply")
                for index in range(self.regions.get(state.id, 1)):
                    key = region_of(state.id, index)
                    self.depth[key] = depth
                    self.direction[key] = own.get(state.id, self.direction[state.scope])
        self.texts: dict[str, Lines] = {}
        self.scopes: dict[str, _Scope] = {}
        self.composites: dict[str, tuple[float, float, Lines]] = {}  # w, h, title
        self.joins: dict[str, list[tuple[int, str, str]]] = {}  # scope: (transition, a, b)
        self.loops: dict[str, list[int]] = {}  # state: its transitions to itself
        self.notes: dict[tuple[str, str], list[Lines]] = {}  # (state, side): its notes
        for note in chart.notes:
            text = measure(note.label, SMALL_SIZE, False, MAX_LABEL_WIDTH)
            self.notes.setdefault((note.target, note.side), []).append(text)
        for index, transition in enumerate(chart.transitions):
            if transition.source == transition.target:
                self.loops.setdefault(transition.source, []).append(index)
                continue
            joined = self._ends(transition)
            if joined:
                self.joins.setdefault(joined[0], []).append((index, *joined[1:]))

    def drawing(self) -> Drawing:
        for scope in sorted(self.depth, key=lambda k: -self.depth[k]):
            self.scopes[scope] = self._laid(scope)
        items: list[Mark | Label] = []
        self._draw("", 0.0, 0.0, items)
        return finish(items, "\n".join(label for label in self.chart.labels() if label))

    # sizes

    def _composite_size(self, ident: str) -> tuple[float, float]:
        if ident not in self.composites:
            regions = self._region_keys(ident)
            sizes = [(self.scopes[k].w, self.scopes[k].h) for k in regions]
            side = self.direction[regions[0]] in ("TB", "BT")
            w = _along(sizes, 0, side)
            h = _along(sizes, 1, not side)
            title = self.measure(self.states[ident].label, LABEL_SIZE, True, max(w, 120.0))
            w = max(w, title.width) + 2 * _PANEL_PAD
            h += title.height + 6 + 2 * _PANEL_PAD
            self.composites[ident] = (w, h, title)
        w, h, _ = self.composites[ident]
        return w, h

    def _region_keys(self, ident: str) -> list[str]:
        return [region_of(ident, i) for i in range(self.regions.get(ident, 1))]

    def _body(self, state: State, across: bool) -> tuple[float, float]:
        if state.kind == "composite":
            return self._composite_size(state.id)
        if state.kind in ("start", "end"):
            r = _DOT if state.kind == "start" else _RING
            return 2 * r, 2 * r
        if state.kind in ("fork", "join"):
            return (8.0, _BAR) if across else (_BAR, 8.0)
        if state.kind == "choice":
            return _CHOICE, _CHOICE
        size = SMALL_SIZE if state.kind == "note" else LABEL_SIZE
        text = self._text(state.id, state.label, size)
        w, h = text.width + 2 * PAD_X, text.height + 2 * PAD_Y
        if state.description:
            more = self._text("\0" + state.id, "\n".join(state.description), SMALL_SIZE)
            w, h = max(w, more.width + 2 * PAD_X), h + more.height + PAD_Y
        return max(w, 2 * h), h

    def _text(self, key: str, text: str, size: float) -> Lines:
        if key not in self.texts:
            self.texts[key] = self.measure(text, size, False, MAX_LABEL_WIDTH)
        return self.texts[key]

    def _box(self, state: State, across: bool) -> _Box:
        """The state's shape with its notes and self-loops' labels beside it."""
        w, h = self._body(state, across)
        left = right = 0.0
        height = h
        loops = self.loops.get(state.id, [])
        if loops:
            right += _LOOP + self._loop_room(state)
        for side in ("left", "right"):
            texts = self.notes.get((state.id, side), [])
            if texts:
                room = _NOTE_GAP + max(t.width for t in texts) + 2 * PAD_X
                left, right = (left + room, right) if side == "left" else (left, right + room)
                height = max(height, sum(t.height + 2 * PAD_Y + 4 for t in texts))
        return _Box(left + w + right, height, (left, (height - h) / 2, w, h))

    # layout

    def _laid(self, scope: str) -> _Scope:
        from grandalf.graphs import Edge as GEdge  # grandalf: only when a chart is laid out
        from grandalf.graphs import Graph

        across = self.direction[scope] in ("LR", "RL")
        out = _Scope()
        children = self.children.get(scope, [])
        if not children:
            out.w, out.h = 60.0, 24.0
            return out
        vertices = {}
        for state in children:
            out.boxes[state.id] = self._box(state, across)
            vertices[state.id] = vertex(
                state.id, out.boxes[state.id].w, out.boxes[state.id].h, across
            )
        pieces_of: list[tuple[str, str, list[GEdge]]] = []
        for index, *ends in self.joins.get(scope, []):
            chain = [vertices[ends[0]]]
            if self.chart.transitions[index].label:
                text = self._label(index)
                key = f"\0label{index}"
                chain.append(vertex(key, text.width + 12, text.height + 4, across))
                vertices[key] = chain[-1]
            chain.append(vertices[ends[1]])
            pieces = [GEdge(a, b) for a, b in itertools.pairwise(chain)]
            for piece in pieces:
                piece.view = EdgePath([])
            pieces_of.append((ends[0], ends[1], pieces))
        edges = [piece for *_, pieces in pieces_of for piece in pieces]
        sugiyama(Graph(list(vertices.values()), edges), across, {})
        swap = (lambda p: (p[1], p[0])) if across else (lambda p: p)
        for a, b, pieces in pieces_of:
            points: list[tuple[float, float]] = []
            for piece in pieces:
                route = list(piece.view.points)
                if route[0] != piece.v[0].view.xy:
                    route.reverse()  # grandalf turned the edge to break a cycle
                points.extend(route if not points else route[1:])
            out.routes.append((a, b, [swap(p) for p in points]))
        for key, v in vertices.items():
            x, y = swap(v.view.xy)
            if key.startswith("\0label"):
                index = int(key[6:])
                out.chips[index] = (x, y)
                text = self._label(index)
                out.chip_sizes[index] = (text.width + 12, text.height + 4)
            else:
                box = out.boxes[key]
                box.x, box.y = x - box.w / 2, y - box.h / 2
        _normalise(out, self.direction[scope])
        return out

    def _ends(self, transition: Transition) -> tuple[str, str, str] | None:
        """The innermost scope holding both ends, and its children the transition joins
        (None: one end is a composite, the other inside it)."""
        mine = self._ancestors(transition.source)
        theirs = dict(self._ancestors(transition.target))
        for key, child in mine:
            if key in theirs:
                return (key, child, theirs[key]) if child != theirs[key] else None
        return None

    def _ancestors(self, ident: str) -> list[tuple[str, str]]:
        """(scope, the state or composite holding `ident` in it), innermost first."""
        out = []
        while True:
            scope = self.states[ident].scope
            out.append((scope, ident))
            if not scope:
                return out
            ident = _composite(scope)

    # drawing

    def _draw(self, scope: str, ox: float, oy: float, items: list[Mark | Label]) -> None:
        laid = self.scopes[scope]
        later: list[Mark | Label] = []
        for ident, box in laid.boxes.items():
            state = self.states[ident]
            bx, by, bw, bh = _body_rect(box, ox, oy)
            if state.kind == "composite":
                self._draw_composite(state, (bx, by, bw, bh), items)
            else:
                later.extend(self._shape(state, (bx, by, bw, bh)))
            later.extend(self._notes(state, box, ox, oy))
        for a, b, points in laid.routes:
            moved = [(x + ox, y + oy) for x, y in points]
            items.extend(self._edge(moved, laid.boxes[a], laid.boxes[b], ox, oy, a, b))
        for index, (x, y) in laid.chips.items():
            text = self.texts[f"\0t{index}"]
            w, h = text.width + 12, text.height + 4
            chip = rect_ops(x + ox - w / 2, y + oy - h / 2, w, h, h / 2)
            later += [Mark(chip, None, "page"), Mark(chip, None, tint("line"))]
            later.append(Label(text, x + ox, y + oy - text.height / 2))
        items.extend(later)
        for ident, box in laid.boxes.items():
            if ident in self.loops:
                items.extend(self._loop(ident, _body_rect(box, ox, oy)))

    def _draw_composite(self, state: State, rect: Rect, items: list[Mark | Label]) -> None:
        x, y, w, h = rect
        _, _, title = self.composites[state.id]
        items.append(Mark(rect_ops(x, y, w, h, 8), "border", "panel"))
        items.append(Label(title, x + _PANEL_PAD, y + _PANEL_PAD * 0.6, "text", "left"))
        keys = self._region_keys(state.id)
        side = self.direction[keys[0]] in ("TB", "BT")
        cx, cy = x + _PANEL_PAD, y + _PANEL_PAD + title.height + 6
        for number, key in enumerate(keys):
            laid = self.scopes[key]
            if number:  # a dashed divider between concurrent regions
                gap = _REGION_GAP / 2
                ops: tuple[Op, ...] = (
                    (("M", cx - gap, y + title.height + 12), ("L", cx - gap, y + h - 6))
                    if side
                    else (("M", x + 6, cy - gap), ("L", x + w - 6, cy - gap))
                )
                items.append(Mark(ops, "border", None, 1.5, (5.0, 4.0)))
            self._draw(key, cx, cy, items)
            cx, cy = (cx + laid.w + _REGION_GAP, cy) if side else (cx, cy + laid.h + _REGION_GAP)

    def _shape(self, state: State, rect: Rect) -> list[Mark | Label]:
        x, y, w, h = rect
        cx, cy = x + w / 2, y + h / 2
        if state.kind == "start":
            return [Mark(circle_ops(cx, cy, _DOT), None, "line")]
        if state.kind == "end":
            ring = Mark(circle_ops(cx, cy, _RING - 1), "line", "page", 1.5)
            return [ring, Mark(circle_ops(cx, cy, _RING - 4.5), None, "line")]
        if state.kind in ("fork", "join"):
            return [Mark(rect_ops(x, y, w, h, 2), None, "line")]
        if state.kind == "choice":
            ops = (("M", cx, y), ("L", x + w, cy), ("L", cx, y + h), ("L", x, cy), ("Z",))
            return [Mark(ops, "line", "page", 1.5)]
        text = self.texts[state.id]
        fill = "panel" if state.kind == "note" else tint("accent")
        out: list[Mark | Label] = [
            Mark(rect_ops(x, y, w, h, 2 if fill == "panel" else 8), None, fill)
        ]
        if not state.description:
            return [*out, Label(text, cx, cy - text.height / 2)]
        more = self.texts["\0" + state.id]
        rule = y + PAD_Y + text.height + PAD_Y / 2
        out.append(Label(text, cx, y + PAD_Y))
        out.append(Mark((("M", x, rule), ("L", x + w, rule)), "page", None, 1.5))
        out.append(Label(more, cx, rule + PAD_Y / 2, "text"))
        return out

    def _notes(self, state: State, box: _Box, ox: float, oy: float) -> list[Mark | Label]:
        out: list[Mark | Label] = []
        bx, _, bw, _ = _body_rect(box, ox, oy)
        for side in ("left", "right"):
            texts = self.notes.get((state.id, side), [])
            y = oy + box.y + (box.h - sum(t.height + 2 * PAD_Y + 4 for t in texts)) / 2
            for text in texts:
                w, h = text.width + 2 * PAD_X, text.height + 2 * PAD_Y
                loops = state.id in self.loops
                right = bx + bw + _NOTE_GAP + (_LOOP + self._loop_room(state) if loops else 0)
                x = bx - _NOTE_GAP - w if side == "left" else right
                out.append(Mark(rect_ops(x, y, w, h, 2), None, "panel"))
                out.append(Mark(((("M", x, y)), ("L", x, y + h)), "border", None, 3.0))
                out.append(Label(text, x + w / 2, y + PAD_Y))
                y += h + 4
        return out

    def _loop_room(self, state: State) -> float:
        """The width of the labels of a state's transitions to itself."""
        return self._loop_text(state.id).width

    def _loop_text(self, ident: str) -> Lines:
        """The labels of a state's transitions to itself, one a line, beside one loop."""
        labels = [self.chart.transitions[i].label for i in self.loops.get(ident, [])]
        return self._text(
            "\0loop" + ident, "\n".join(label for label in labels if label), SMALL_SIZE
        )

    def _label(self, index: int) -> Lines:
        return self._text(f"\0t{index}", self.chart.transitions[index].label, SMALL_SIZE)

    def _loop(self, ident: str, rect: Rect) -> list[Mark | Label]:
        """A loop round the shape's top right corner, its labels to its right."""
        x, y, w, _ = rect
        right = x + w
        end = (right, y + 10)
        points = [(right - 12, y), (right - 12, y - 12), (right + 12, y - 12), (right + 12, end[1])]
        out: list[Mark | Label] = [Mark(rounded([*points, back(end, points[-1], 7.0)]))]
        out.append(arrowhead(end, points[-1], 8.0))
        text = self._loop_text(ident)
        if text.width > 0:
            out.append(Label(text, right + _LOOP, y - 12 - SMALL_SIZE * 0.7, "text", "left"))
        return out

    def _edge(
        self,
        points: list[tuple[float, float]],
        a: _Box,
        b: _Box,
        ox: float,
        oy: float,
        ida: str,
        idb: str,
    ) -> list[Mark | Label]:
        """A transition from shape to shape (not to a note beside it), arrowhead filled."""
        ra, rb = _body_rect(a, ox, oy), _body_rect(b, ox, oy)
        inner = points[1:-1]
        first = inner[0] if inner else _centre(rb)
        last = inner[-1] if inner else _centre(ra)
        start = _clip(ra, self.states[ida].kind, first)
        end = _clip(rb, self.states[idb].kind, last)
        line = [start, *inner, end]
        tip = line[-1]
        line[-1] = back(tip, line[-2], 7.0)
        return [Mark(rounded(line)), arrowhead(tip, line[-2], 9.0)]


def _composite(scope: str) -> str:
    return scope.partition("\0")[0]


def _along(sizes: list[tuple[float, float]], axis: int, summed: bool) -> float:
    """The regions' extent on `axis`: summed (with gaps) when they sit in a row on it."""
    values = [s[axis] for s in sizes]
    return sum(values) + _REGION_GAP * (len(values) - 1) if summed else max(values)


def _body_rect(box: _Box, ox: float, oy: float) -> Rect:
    bx, by, bw, bh = box.body
    return ox + box.x + bx, oy + box.y + by, bw, bh


def _centre(rect: Rect) -> tuple[float, float]:
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def _clip(rect: Rect, kind: str, toward: tuple[float, float]) -> tuple[float, float]:
    """Where the line from the shape's centre toward a point leaves the shape."""
    cx, cy = _centre(rect)
    dx, dy = toward[0] - cx, toward[1] - cy
    if dx == 0 and dy == 0:
        return cx, cy
    hw, hh = rect[2] / 2, rect[3] / 2
    if kind in ("start", "end"):
        t = hw / math.hypot(dx, dy)
    elif kind == "choice":
        t = 1.0 / (abs(dx) / hw + abs(dy) / hh)
    else:
        t = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    t = min(t, 1.0)
    return cx + dx * t, cy + dy * t


def _normalise(laid: _Scope, direction: str) -> None:
    """The scope flipped for BT and RL, and moved so its bounds start at 0, 0."""
    xs = [b.x for b in laid.boxes.values()] + [b.x + b.w for b in laid.boxes.values()]
    ys = [b.y for b in laid.boxes.values()] + [b.y + b.h for b in laid.boxes.values()]
    for *_, points in laid.routes:
        xs += [p[0] for p in points]
        ys += [p[1] for p in points]
    for index, (x, y) in laid.chips.items():
        w, h = laid.chip_sizes[index]
        xs += [x - w / 2, x + w / 2]
        ys += [y - h / 2, y + h / 2]
    left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
    fx, fy = direction == "RL", direction == "BT"

    def at(x: float, y: float) -> tuple[float, float]:
        return (right - x if fx else x - left), (bottom - y if fy else y - top)

    for box in laid.boxes.values():
        x, y = at(box.x + (box.w if fx else 0), box.y + (box.h if fy else 0))
        box.x, box.y = x, y
    for *_, points in laid.routes:
        points[:] = [at(*p) for p in points]
    laid.chips = {k: at(*p) for k, p in laid.chips.items()}
    laid.w, laid.h = right - left, bottom - top
