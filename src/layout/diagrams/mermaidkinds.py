"""Mermaid source → a diagram record: the dispatcher, mind maps, sequence diagrams, pies.

Flowcharts are read in `mermaid`, which also holds the limits and `DiagramError`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..errors import DiagramError
from .mermaid import (
    MAX_EDGES,
    MAX_NESTING,
    MAX_NODES,
    Flowchart,
    clean_label,
    parse_flowchart,
    statements,
)
from .mermaidlines import message as message_line
from .mermaidlines import note as note_line
from .mermaidlines import participant as participant_line
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
class Participant:
    id: str
    label: str
    actor: bool = False


@dataclass(frozen=True, slots=True)
class Message:
    source: str
    target: str
    label: str
    dashed: bool = False
    arrow: str = "filled"  # filled, open (`->`), cross (`-x`), async (`-)`)


@dataclass(frozen=True, slots=True)
class Note:
    over: tuple[str, ...]  # one or two participant ids
    label: str
    side: str = "over"  # over, left, right


@dataclass(frozen=True, slots=True)
class Section:
    """A block's start (`loop`, `alt`, `opt`, `par`, ...), its `else`/`and` or its `end`."""

    kind: str  # open, divider, close
    keyword: str = ""
    label: str = ""


Event = Message | Note | Section


@dataclass(frozen=True, slots=True)
class Sequence:
    participants: tuple[Participant, ...]
    events: tuple[Event, ...]

    def labels(self) -> list[str]:
        out = [p.label for p in self.participants]
        return out + [event.label for event in self.events if event.label]


@dataclass(frozen=True, slots=True)
class Pie:
    title: str
    slices: tuple[tuple[str, float], ...]

    def labels(self) -> list[str]:
        return ([self.title] if self.title else []) + [label for label, _ in self.slices]


Diagram = Flowchart | Mindmap | Sequence | Pie | ClassDiagram | ErDiagram


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
    if keyword in ("classDiagram", "classDiagram-v2", "erDiagram"):
        return (parse_er_diagram if keyword == "erDiagram" else parse_class_diagram)(lines)
    raise DiagramError(f"{keyword!r} diagrams are not supported")


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


_OPENERS = ("loop", "alt", "opt", "par", "critical", "break", "rect")
_DIVIDERS = ("else", "and", "option")
_SKIPPED = ("autonumber", "activate", "deactivate", "title", "box", "create", "destroy")


def _sequence(lines: list[str]) -> Sequence:
    participants: dict[str, Participant] = {}
    events: list[Event] = []
    depth = 0

    def meet(ident: str) -> str:
        ident = ident.strip()
        if ident not in participants:
            if len(participants) >= MAX_NODES:
                raise DiagramError(f"more than {MAX_NODES} participants")
            participants[ident] = Participant(ident, clean_label(ident))
        return ident

    for line in lines:
        text = line.strip()
        word = text.split()[0]
        if participant := participant_line(text):
            ident = participant.id.strip()
            label = clean_label(participant.label or ident)
            participants[ident] = Participant(ident, label, participant.keyword == "actor")
            if len(participants) > MAX_NODES:
                raise DiagramError(f"more than {MAX_NODES} participants")
            continue
        if word in _OPENERS:
            depth += 1
            if depth > MAX_NESTING:
                raise DiagramError("blocks nested too deeply")
            label = "" if word == "rect" else clean_label(text[len(word) :])
            events.append(Section("open", word, label))
        elif word in _DIVIDERS:
            events.append(Section("divider", word, clean_label(text[len(word) :])))
        elif text == "end":
            if depth == 0:
                raise DiagramError("`end` without a block")
            depth -= 1
            events.append(Section("close"))
        elif note := note_line(text):
            who = tuple(meet(w) for w in note.who.split(",")[:2])
            side = note.side.lower().split()[0]
            events.append(Note(who, clean_label(note.text), side))
        elif message := message_line(text):
            arrow = message.arrow
            kind = {">>": "filled", "->": "open", "-x": "cross", "-)": "async"}[arrow[-2:]]
            dashed = arrow.startswith("--")
            source, target = meet(message.source), meet(message.target)
            events.append(Message(source, target, clean_label(message.text), dashed, kind))
        elif word not in _SKIPPED:
            raise DiagramError(f"cannot read {text[:40]!r}")
        if len(events) > MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} messages")
    if depth:
        raise DiagramError("block without its `end`")
    if not participants:
        raise DiagramError("sequence diagram without participants")
    return Sequence(tuple(participants.values()), tuple(events))


_SLICE = re.compile(r'^"(?P<label>[^"]*)"\s*:\s*(?P<value>[-+0-9.eE]+)\s*$')


def _pie(lines: list[str]) -> Pie:
    head = lines[0].split(None, 1)
    rest = head[1] if len(head) > 1 else ""
    rest = re.sub(r"^showData\b\s*", "", rest)
    title = clean_label(rest[len("title") :]) if rest.startswith("title") else ""
    slices: list[tuple[str, float]] = []
    for line in lines[1:]:
        text = line.strip()
        if text.startswith("title"):
            title = clean_label(text[len("title") :])
            continue
        if text.startswith(("showData", "accTitle", "accDescr")):
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
    return Pie(title, tuple(slices))
