"""A `StateChart` + a label `Measure` → its `Drawing`: states in layers, composites as panels.

Each scope (the diagram, or one concurrent region of a composite state) is laid out on its
own by grandalf's layered layout, as flowcharts are (`layered.layered_routes`), innermost
first: a composite is then one box of its regions' size in its parent's layout, so panels
never overlap and each holds its own start and end; concurrent regions sit side by side
across the flow, a dashed divider between them. A transition between scopes is drawn in
the innermost scope holding both ends, to the panel of the composite the far end is in (one
from a composite to a state inside it has no such scope and is not drawn). Notes and
self-loops' labels widen their state's box on both sides alike, so layering leaves them
room and the shape stays in the middle; a transition's label is a vertex of its own, as
in flowcharts. The marks are drawn in `statemarks.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...errors import DiagramError
from ..flow.paint import look_ink, look_text
from ..flow.style import PLAIN, Look
from ..layered import layered_routes, vertex
from ..marks import (
    LABEL_SIZE,
    MAX_LABEL_WIDTH,
    PAD_X,
    PAD_Y,
    SMALL_SIZE,
    TURNED,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    finish,
    rect_ops,
)
from ..mermaid import MAX_NESTING
from .mermaidstate import State, StateChart, Transition, region_of
from .statemarks import (
    BAR,
    CHIP_PAD,
    CHOICE,
    DOT,
    LOOP,
    NOTE_GAP,
    RING,
    Rect,
    chip_marks,
    divider,
    loop_marks,
    note_marks,
    notes_height,
    shape_marks,
    transition_marks,
)

_PANEL_PAD, _REGION_GAP = 12.0, 24.0  # px inside a composite's panel; between its regions
# px between layers: tighter than a flowchart's, as a state diagram has more of them (start
# and end dots, each label's own layer): case 30's smallest text on a phone 6.4 -> 7.5 px
_LAYER_GAP = 26.0
_NONE = Lines((), 0.0, 0.0, SMALL_SIZE)  # the text of a shape that shows none


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
    `upright`: turned, a left-right diagram laid top-down and a top-down one left to right
    (its composites' own directions kept)."""
    if upright:
        chart = replace(chart, direction=TURNED[chart.direction])
    across = chart.direction in ("LR", "RL")  # as drawn, as a flowchart's (`drawing`)
    return replace(_Layout(chart, measure).drawing(), across=across, tall=not across)


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
            r = DOT if state.kind == "start" else RING
            return 2 * r, 2 * r
        if state.kind in ("fork", "join"):
            return (8.0, BAR) if across else (BAR, 8.0)
        if state.kind == "choice":
            return CHOICE, CHOICE
        size = SMALL_SIZE if state.kind == "note" else LABEL_SIZE
        text = self._text(state.id, state.label, size, state.look)
        w, h = text.width + 2 * PAD_X, text.height + 2 * PAD_Y
        if state.description:
            more = self._text("\0" + state.id, "\n".join(state.description), SMALL_SIZE)
            w, h = max(w, more.width + 2 * PAD_X), h + more.height + PAD_Y
        return max(w, 2 * h), h

    def _text(self, key: str, text: str, size: float, look: Look = PLAIN) -> Lines:
        if key not in self.texts:
            self.texts[key] = look_text(self.measure, text, size, False, MAX_LABEL_WIDTH, look)
        return self.texts[key]

    def _box(self, state: State, across: bool) -> _Box:
        """The state's shape with its notes and self-loops' labels beside it."""
        w, h = self._body(state, across)
        left = right = 0.0
        height = h
        loops = self.loops.get(state.id, [])
        if loops:  # room for the loop and its labels above the shape's top right corner
            text = self._loop_text(state.id)
            right += LOOP + text.width
            height = max(height, h + 2 * (14 + text.size * 0.7))
        for side in ("left", "right"):
            texts = self.notes.get((state.id, side), [])
            if texts:
                room = NOTE_GAP + max(t.width for t in texts) + 2 * PAD_X
                left, right = (left + room, right) if side == "left" else (left, right + room)
                height = max(height, notes_height(texts))
        room = max(left, right)  # the shape in the middle: transitions to it run straight
        return _Box(room + w + room, height, (room, (height - h) / 2, w, h))

    # layout

    def _laid(self, scope: str) -> _Scope:
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
        chains, ends = [], []
        for index, *pair in self.joins.get(scope, []):
            chain = [vertices[pair[0]]]
            if self.chart.transitions[index].label:
                text = self._label(index)
                key = f"\0label{index}"
                size = (text.width + CHIP_PAD[0], text.height + CHIP_PAD[1])
                chain.append(vertex(key, *size, across))
                vertices[key] = chain[-1]
            chains.append([*chain, vertices[pair[1]]])
            ends.append(pair)
        routes = layered_routes(list(vertices.values()), chains, _LAYER_GAP)
        swap = (lambda p: (p[1], p[0])) if across else (lambda p: p)
        for (a, b), points in zip(ends, routes, strict=True):
            out.routes.append((a, b, [swap(p) for p in points]))
        for key, v in vertices.items():
            x, y = swap(v.view.xy)
            if key.startswith("\0label"):
                index = int(key[6:])
                out.chips[index] = (x, y)
                text = self._label(index)
                out.chip_sizes[index] = (text.width + CHIP_PAD[0], text.height + CHIP_PAD[1])
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
                text, more = self.texts.get(ident), self.texts.get("\0" + ident)
                shape = shape_marks(state.kind, (bx, by, bw, bh), text or _NONE, more, state.look)
                later.extend(shape)
            later.extend(self._notes(state, box, ox, oy))
        for a, b, points in laid.routes:
            moved = [(x + ox, y + oy) for x, y in points]
            ends = [(_body_rect(laid.boxes[k], ox, oy), self.states[k].kind) for k in (a, b)]
            items.extend(transition_marks(moved, *ends))
        for index, (x, y) in laid.chips.items():
            later.extend(chip_marks(self._label(index), x + ox, y + oy))
        items.extend(later)
        for ident, box in laid.boxes.items():
            if ident in self.loops:
                items.extend(loop_marks(_body_rect(box, ox, oy), self._loop_text(ident)))

    def _draw_composite(self, state: State, rect: Rect, items: list[Mark | Label]) -> None:
        x, y, w, h = rect
        _, _, title = self.composites[state.id]
        look = state.look
        stroke, fill = look.stroke or "border", look.fill or "panel"
        items.append(Mark(rect_ops(x, y, w, h, 8), stroke, fill, look.width or 1.5, look.dash))
        ink = look_ink(look)
        items.append(Label(title, x + _PANEL_PAD, y + _PANEL_PAD * 0.6, ink, "left"))
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
                items.append(divider(ops))
            self._draw(key, cx, cy, items)
            cx, cy = (cx + laid.w + _REGION_GAP, cy) if side else (cx, cy + laid.h + _REGION_GAP)

    def _notes(self, state: State, box: _Box, ox: float, oy: float) -> list[Mark | Label]:
        """A state's notes beside it, left and right, past its loop's room."""
        bx, _, bw, _ = _body_rect(box, ox, oy)
        right = (
            bx + bw + NOTE_GAP + (LOOP + self._loop_room(state) if state.id in self.loops else 0)
        )
        out: list[Mark | Label] = []
        for side, x_of in (("left", bx - NOTE_GAP), ("right", right)):
            texts = self.notes.get((state.id, side), [])
            top = oy + box.y + (box.h - notes_height(texts)) / 2
            out.extend(note_marks(texts, x_of, top, side == "left"))
        return out

    def _loop_room(self, state: State) -> float:
        """The width of the labels of a state's transitions to itself."""
        return self._loop_text(state.id).width

    def _loop_text(self, ident: str) -> Lines:
        """The labels of a state's transitions to itself, one a line, beside one loop."""
        labels = [self.chart.transitions[i].label for i in self.loops.get(ident, [])]
        return self._text(
            "\0loop" + ident, "\n".join(label for label in labels if label), LABEL_SIZE
        )

    def _label(self, index: int) -> Lines:
        return self._text(f"\0t{index}", self.chart.transitions[index].label, LABEL_SIZE)


def _composite(scope: str) -> str:
    return scope.partition("\0")[0]


def _along(sizes: list[tuple[float, float]], axis: int, summed: bool) -> float:
    """The regions' extent on `axis`: summed (with gaps) when they sit in a row on it."""
    values = [s[axis] for s in sizes]
    return sum(values) + _REGION_GAP * (len(values) - 1) if summed else max(values)


def _body_rect(box: _Box, ox: float, oy: float) -> Rect:
    bx, by, bw, bh = box.body
    return ox + box.x + bx, oy + box.y + by, bw, bh


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
