"""Mermaid source → a diagram record: the dispatcher, mind maps, pies.

Flowcharts are read in `mermaid`, which also holds the limits and `DiagramError`; sequence
diagrams in `sequenceparse`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import DiagramError
from .charts.mermaidcharts import Quadrant, XYChart, parse_quadrant, parse_xychart
from .gitgraphs.mermaidgit import GitGraph, parse_gitgraph
from .mermaid import (
    MAX_NESTING,
    MAX_NODES,
    Flowchart,
    clean_label,
    parse_flowchart,
    statements,
)
from .sequences.sequenceparse import Sequence as Sequence  # the record, for `fit`
from .sequences.sequenceparse import parse_sequence as _sequence
from .statecharts.mermaidstate import StateChart, parse_states
from .timecharts.mermaidgantt import Gantt, parse_gantt
from .timecharts.mermaidtime import Journey, Timeline, parse_journey, parse_timeline
from .uml.mermaidclass import ClassDiagram, parse_class_diagram
from .uml.mermaider import ErDiagram, parse_er_diagram


@dataclass(frozen=True, slots=True)
class MindNode:
    label: str
    shape: str = "round"  # rect, round, circle, cloud, bang, hexagon
    children: tuple[MindNode, ...] = ()


@dataclass(frozen=True, slots=True)
class Mindmap:
    root: MindNode

    def labels(self) -> list[str]:
        out, pending = [], [self.root]
        while pending:
            node = pending.pop(0)
            out.append(node.label)
            pending.extend(node.children)
        return out


@dataclass(frozen=True, slots=True)
class Pie:
    title: str
    slices: tuple[tuple[str, float], ...]
    show_data: bool = False  # `pie showData`: each value in the legend too

    def labels(self) -> list[str]:
        return ([self.title] if self.title else []) + [label for label, _ in self.slices]


Diagram = (
    Flowchart
    | Mindmap
    | Sequence
    | Pie
    | Quadrant
    | XYChart
    | StateChart
    | GitGraph
    | Gantt
    | Timeline
    | Journey
    | ClassDiagram
    | ErDiagram
)


def parse_diagram(source: str) -> Diagram:
    """The diagram the Mermaid source describes; `DiagramError` for one we do not draw."""
    lines = statements(source)
    if not lines:
        raise DiagramError("empty diagram")
    keyword = lines[0].split()[0]
    if keyword in ("graph", "flowchart", "flowchart-elk"):
        return parse_flowchart(lines)
    if keyword == "mindmap":
        return _mindmap(lines[1:])
    if keyword == "sequenceDiagram":
        return _sequence(lines[1:])
    if keyword == "pie":
        return _pie(lines)
    if keyword in ("quadrantChart", "xychart-beta", "xychart"):
        return parse_quadrant(lines) if keyword == "quadrantChart" else parse_xychart(lines)
    if keyword in ("stateDiagram-v2", "stateDiagram"):
        return parse_states(lines)
    if keyword in ("gitGraph", "gitGraph:"):
        return parse_gitgraph(lines)
    if keyword in _TIME_KINDS:
        return _TIME_KINDS[keyword](lines[1:])
    if keyword in ("classDiagram", "classDiagram-v2", "erDiagram"):
        return (parse_er_diagram if keyword == "erDiagram" else parse_class_diagram)(lines)
    raise DiagramError(f"{keyword!r} diagrams are not supported")


_TIME_KINDS: dict[str, Callable[[list[str]], Diagram]] = {
    "gantt": parse_gantt,
    "timeline": parse_timeline,
    "journey": parse_journey,
}
_MIND_SHAPES = (
    ("((", "))", "circle"),
    ("))", "((", "bang"),
    ("{{", "}}", "hexagon"),
    ("[", "]", "rect"),
    ("(", ")", "round"),
    (")", "(", "cloud"),
)
_MIND_NODE = re.compile(r"^(?P<id>[^\s()\[\]{}]*?)(?P<rest>[(\[{)].*)$")


@dataclass
class _Draft:
    label: str
    shape: str
    indent: int
    children: list[_Draft]


def _mindmap(lines: list[str]) -> Mindmap:
    """An indented tree: each line is a node, a child of the nearest line above that is
    indented less."""
    stack: list[_Draft] = []
    roots: list[_Draft] = []
    for count, line in enumerate(lines, 1):
        text = line.strip()
        if count > MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} nodes")
        if text.startswith(("::icon(", ":::")):
            continue
        indent = len(line) - len(line.lstrip())
        label, shape = _mind_label(re.sub(r":::.*$", "", text).strip())
        while stack and stack[-1].indent >= indent:
            stack.pop()
        draft = _Draft(label, shape, indent, [])
        (stack[-1].children if stack else roots).append(draft)
        if len(stack) >= MAX_NESTING * 2:
            raise DiagramError("mind map nested too deeply")
        stack.append(draft)
    if len(roots) != 1:
        raise DiagramError("a mind map needs exactly one root" if roots else "empty mind map")
    return Mindmap(_freeze(roots[0]))


def _mind_label(text: str) -> tuple[str, str]:
    match = _MIND_NODE.match(text)
    if match:
        rest = match.group("rest")
        for opener, closer, shape in _MIND_SHAPES:
            if rest.startswith(opener) and rest.endswith(closer) and len(rest) > 2 * len(opener):
                return clean_label(rest[len(opener) : -len(closer)]), shape
    return clean_label(text), "plain"


def _freeze(root: _Draft) -> MindNode:
    """The drafts as records, built bottom-up without recursion."""
    order: list[_Draft] = []
    pending = [root]
    while pending:
        draft = pending.pop()
        order.append(draft)
        pending.extend(draft.children)
    built: dict[int, MindNode] = {}
    for draft in reversed(order):
        children = tuple(built[id(child)] for child in draft.children)
        built[id(draft)] = MindNode(draft.label, draft.shape, children)
    return built[id(root)]


_SLICE = re.compile(r'^"(?P<label>[^"]*)"\s*:\s*(?P<value>[-+0-9.eE]+)\s*$')


def _pie(lines: list[str]) -> Pie:
    head = lines[0].split(None, 1)
    rest = head[1] if len(head) > 1 else ""
    show_data = rest.startswith("showData")
    rest = re.sub(r"^showData\b\s*", "", rest)
    title = clean_label(rest[len("title") :]) if rest.startswith("title") else ""
    slices: list[tuple[str, float]] = []
    for line in lines[1:]:
        text = line.strip()
        if text.startswith("title"):
            title = clean_label(text[len("title") :])
            continue
        if text.startswith("showData"):
            show_data = True
            continue
        if text.startswith(("accTitle", "accDescr")):
            continue
        match = _SLICE.match(text)
        if not match:
            raise DiagramError(f"cannot read pie slice {text[:40]!r}")
        try:
            value = float(match.group("value"))
        except ValueError:
            raise DiagramError(f"not a number: {match.group('value')!r}") from None
        if not math.isfinite(value) or value < 0:
            raise DiagramError(f"a slice must be a positive number, not {value}")
        slices.append((clean_label(match.group("label")), value))
        if len(slices) > MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} slices")
    if not slices or sum(v for _, v in slices) <= 0:
        raise DiagramError("pie without slices")
    return Pie(title, tuple(slices), show_data)
