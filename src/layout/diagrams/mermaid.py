"""Mermaid source → a diagram record: flowcharts here, the other kinds in `mermaidkinds`.

We read the part of Mermaid's syntax that people write by hand: flowcharts (`graph` /
`flowchart` with a direction, every Mermaid 11 node shape in brackets or `A@{ shape: … }`
(`flow.nodes`), solid, dotted, thick and invisible links with arrow, circle or cross ends,
longer links and labels (`flow.links`), chains, `&` and subgraphs), mind maps, sequence
diagrams and pies. A flowchart's `classDef`, `class`, `:::`, `style` and `linkStyle` give its
nodes and edges the author's colours (`flow.style`); `click` and accessibility lines are read
and ignored. Anything else raises `DiagramError`, whose message is the one-line note shown
under the source, which then stays a code block. The parser is linear in the source, and
every diagram is held to `MAX_SOURCE` characters, `MAX_NODES` nodes and `MAX_EDGES` edges
before any layout runs.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field, replace

from ..errors import DiagramError
from .flow.links import link_at
from .flow.nodes import WITHOUT_LABEL, node_shape, open_attributes
from .flow.style import PLAIN, Look, StyleSheet

MAX_SOURCE = 20_000  # characters of one diagram
MAX_NODES = 200  # nodes (flowchart, mind map), participants + notes, or pie slices
MAX_EDGES = 400  # edges, or messages of a sequence diagram
MAX_LABEL = 300  # characters of one label; longer labels are cut with an ellipsis
MAX_NESTING = 12  # subgraphs in subgraphs, blocks in blocks, mind map levels (x2)


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    label: str
    shape: str = "rect"  # a name `flow.shapes` draws (flow.nodes.SHAPE_NAMES' values)
    bold: bool = False
    look: Look = PLAIN


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    label: str = ""
    line: str = "solid"  # solid, dotted, thick, invisible (`~~~`: laid out, not drawn)
    arrow: bool = True  # a mark at the target
    both: bool = False  # a mark at the source too (`<-->`, `o--o`)
    marker: str = "arrow"  # the marks: arrow, circle (`--o`), cross (`--x`)
    length: int = 1  # ranks spanned (`--->`: 2)
    bold: bool = False
    look: Look = PLAIN


@dataclass(frozen=True, slots=True)
class Subgraph:
    id: str
    label: str
    members: tuple[str, ...]  # node ids directly or in nested subgraphs
    look: Look = PLAIN


@dataclass(frozen=True, slots=True)
class Flowchart:
    direction: str  # TB, BT, LR, RL
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    subgraphs: tuple[Subgraph, ...] = ()

    @property
    def across(self) -> bool:
        """Whether the chart flows left to right or right to left."""
        return self.direction in ("LR", "RL")

    def labels(self) -> list[str]:
        return [n.label for n in self.nodes] + [e.label for e in self.edges if e.label]


def clean_label(text: str) -> str:
    """A label as shown: quotes and Mermaid's markdown-string backticks off, `<br>` a line
    break, `<b>`/`<i>` and a markdown string's `**`/`*` marks off, entities (`&amp;`, Mermaid's
    `#quot;`, `#35;`) decoded, at most `MAX_LABEL` characters."""
    return label_and_weight(text)[0]


def label_and_weight(text: str) -> tuple[str, bool]:
    """`clean_label`'s label, and whether all of it is bold (`<b>…</b>`, `**…**`): drawn bold."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    markdown = len(text) >= 2 and text[0] == text[-1] == "`"
    if markdown:
        text = text[1:-1].strip()
    text = _BREAK.sub("\n", text)
    bold = _all_bold(text, markdown)
    text = _TAG.sub("", text)
    if markdown:
        text = text.replace("**", "").replace("__", "")
        text = _EMPHASIS.sub(r"\1", text)
    text = html.unescape(text).replace("\r", "")  # `&amp;`, `&#39;`; then Mermaid's own
    text = re.sub(r"#(\d{1,6});", lambda m: html.unescape(f"&#{m.group(1)};"), text)
    text = _MERMAID_NAMED.sub(lambda m: html.unescape(f"&{m.group(1)};"), text)
    text = "\n".join(line.strip() for line in text.split("\n")).strip()
    return (text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"), bold


def _all_bold(text: str, markdown: bool) -> bool:
    """Whether one bold run (`<b>`, `<strong>`, or in a markdown string `**`) holds the label."""
    lower = text.lower()
    for opener, closer in (("<b>", "</b>"), ("<strong>", "</strong>")):
        if lower.startswith(opener) and lower.endswith(closer) and lower.count(opener) == 1:
            return True
    return markdown and text.startswith("**") and text.endswith("**") and text.count("**") == 2


_BREAK = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?(?:b|strong|i|em|u|s|del|small|sup|sub|span|code|mark)\b[^<>]*>", re.I)
_EMPHASIS = re.compile(r"(?<![*\w])[*_]([^*_\n]+)[*_](?![*\w])")
_MERMAID_NAMED = re.compile(r"#([a-zA-Z]{2,8});")  # `#quot;`: an HTML entity's name


def statements(source: str) -> list[str]:
    """The source's lines without comments, directives and front matter, stripped."""
    if len(source) > MAX_SOURCE:
        raise DiagramError(f"diagram longer than {MAX_SOURCE:,} characters")
    text = _without_directives(source)
    text = re.sub(r"\A\s*---\n.*?\n---\s*\n", "", text, flags=re.S)  # front matter
    out = []
    for line in text.splitlines():
        line = line.split("%%", 1)[0].rstrip()
        if line.strip():
            out.append(line)
    return out


def _without_directives(source: str) -> str:
    """The source without its ``%%{…}%%`` directives, each from its ``%%{`` to the first
    ``}%%`` after it. A loop over `str.find`: the pattern ``%%\\{.*?\\}%%`` would read the rest
    of the source again from every ``%%{`` that nothing closes (quadratic)."""
    kept, pos = [], 0
    while (start := source.find("%%{", pos)) >= 0:
        end = source.find("}%%", start + 3)
        if end < 0:
            break
        kept.append(source[pos:start])
        pos = end + 3
    kept.append(source[pos:])
    return "".join(kept)


_DIRECTIONS = {"TB": "TB", "TD": "TB", "BT": "BT", "LR": "LR", "RL": "RL"}
_IGNORED = re.compile(r"^(click|direction|accTitle|accDescr)\b")
_ID = r"[\w\u0080-\U0010ffff]+(?:[-.][\w\u0080-\U0010ffff]+)*"
_ID_RE = re.compile(_ID)
_CLASS = re.compile(r":::([\w-]+(?:,[\w-]+)*)")
_AND = re.compile(r"\s*&\s*")
_EDGE_FIELDS = ("animate", "animation", "curve")  # `e1@{ animate: true }`: read, not drawn
# a subgraph's `[title]` after its id, to the last `]`; the id is read by `_ID_RE` alone (an
# id may end in a space like U+3000 that `\s*` would take too: one pattern could split it)
_TITLE = re.compile(r"\s*\[(.*)\]\s*")


def parse_flowchart(lines: list[str]) -> Flowchart:
    header = lines[0].split()
    direction = _DIRECTIONS.get(header[1].upper(), "") if len(header) > 1 else "TB"
    if not direction:
        raise DiagramError(f"unknown flowchart direction {header[1]!r}")
    graph = _Graph()
    for raw in _joined(lines[1:]):
        for statement in _split_statements(raw.strip()):
            graph.take(statement)
    if graph.stack:
        raise DiagramError("subgraph without its end")
    if not graph.nodes:
        raise DiagramError("flowchart without nodes")
    return graph.chart(direction)


def _joined(lines: list[str]) -> list[str]:
    """The lines, a node's ``@{`` fields or a quoted (markdown) label written over several
    lines joined into one, its line breaks kept."""
    out: list[str] = []
    for line in lines:
        if out and (open_attributes(out[-1]) or out[-1].count('"') % 2):
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def subgraph_title(rest: str) -> tuple[str, str] | None:
    """(id, label) of ``id[label]`` after ``subgraph``; None for a bare title."""
    ident = _ID_RE.match(rest)
    title = ident and _TITLE.fullmatch(rest, ident.end())
    return (ident.group(), clean_label(title.group(1))) if ident and title else None


def _split_statements(line: str) -> list[str]:
    """A line's statements: `;` ends one, except inside a quoted label or ending an entity
    (`&lt;`, `&#39;`, Mermaid's `#quot;`)."""
    parts, quoted, start = [], False, 0
    for i, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == ";" and not quoted and not _ends_entity(line, i):
            parts.append(line[start:i])
            start = i + 1
    parts.append(line[start:])
    return [p.strip() for p in parts if p.strip()]


def _ends_entity(line: str, at: int) -> bool:
    """Whether the `;` at `at` closes `&name;`, `&#123;` or Mermaid's `#name;` (a name of at
    most 8 letters or digits: each `;` looks back a bounded way, so the scan stays linear)."""
    back = at - 1
    while back >= 0 and at - back <= 8 and line[back].isalnum():
        back -= 1
    return 0 <= back < at - 1 and line[back] in "&#"


@dataclass
class _Graph:
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    subgraphs: list[Subgraph] = field(default_factory=list)
    stack: list[tuple[str, str, list[str]]] = field(default_factory=list)
    styles: StyleSheet = field(default_factory=StyleSheet)

    def take(self, statement: str) -> None:
        if statement.startswith("subgraph"):
            self._open(statement[len("subgraph") :].strip())
        elif statement == "end":
            self._close()
        elif not _IGNORED.match(statement) and not self.styles.take(statement):
            self._chain(statement)

    def chart(self, direction: str) -> Flowchart:
        """The chart read, each node, edge and subgraph with its author's look."""
        nodes = [replace(n, look=self.styles.node_look(n.id)) for n in self.nodes.values()]
        edges = [replace(e, look=self.styles.edge_look(i)) for i, e in enumerate(self.edges)]
        subs = [replace(s, look=self.styles.node_look(s.id, False)) for s in self.subgraphs]
        return Flowchart(direction, tuple(nodes), tuple(edges), tuple(subs))

    def _open(self, rest: str) -> None:
        if len(self.stack) >= MAX_NESTING:
            raise DiagramError("subgraphs nested too deeply")
        found = subgraph_title(rest)
        if found:
            ident, label = found
        else:
            ident = label = clean_label(rest) or f"subgraph {len(self.subgraphs) + 1}"
        self.stack.append((ident, label, []))

    def _close(self) -> None:
        if not self.stack:
            raise DiagramError("`end` without a subgraph")
        ident, label, members = self.stack.pop()
        if self.stack:
            self.stack[-1][2].extend(members)
        self.subgraphs.append(Subgraph(ident, label, tuple(dict.fromkeys(members))))

    def _chain(self, text: str) -> None:
        """`A & B --> C -- label --> D`: groups of nodes joined by links."""
        if self._edge_attributes(text):
            return
        group, pos = self._group(text, 0)
        while pos < len(text):
            link = link_at(text, pos)
            label, bold = label_and_weight(link.label) if link.label else ("", False)
            edge = Edge(
                "", "", label, link.line, link.head, link.tail, link.marker, link.length, bold
            )
            targets, pos = self._group(text, link.end)
            for source in group:
                for target in targets:
                    self._edge(replace(edge, source=source, target=target))
            group = targets

    def _edge_attributes(self, text: str) -> bool:
        """Whether the statement is an edge id's ``e1@{ animate: true }`` (nothing we draw)."""
        ident = _ID_RE.match(text)
        if not ident or not text.startswith("@{", ident.end()) or ident.group() in self.nodes:
            return False
        head = text[ident.end() + 2 :].lstrip()
        return head.startswith(_EDGE_FIELDS) and text.rstrip().endswith("}")

    def _group(self, text: str, pos: int) -> tuple[list[str], int]:
        ids = []
        while True:
            ident, pos = self._node(text, pos)
            ids.append(ident)
            match = _AND.match(text, pos)
            if not match:
                return ids, pos
            pos = match.end()

    def _node(self, text: str, pos: int) -> tuple[str, int]:
        match = _ID_RE.match(text, pos)
        if not match:
            raise DiagramError(f"cannot read {text[pos : pos + 30]!r}")
        ident, pos = match.group(), match.end()
        shaped = node_shape(text, pos)
        if shaped:
            known = self.nodes.get(ident)
            raw = shaped.label if shaped.label is not None else (known.label if known else ident)
            label, bold = label_and_weight(raw)
            if shaped.shape in WITHOUT_LABEL:
                label, bold = "", False
            self._add(Node(ident, label, shaped.shape, bold))
            pos = shaped.end
        elif ident not in self.nodes:
            self._add(Node(ident, ident))
        class_match = _CLASS.match(text, pos)
        if class_match:
            self.styles.add_classes([ident], class_match.group(1))
            pos = class_match.end()
        for _, _, members in self.stack[-1:]:
            members.append(ident)
        return ident, pos

    def _add(self, node: Node) -> None:
        if node.id not in self.nodes and len(self.nodes) >= MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} nodes")
        self.nodes[node.id] = node

    def _edge(self, edge: Edge) -> None:
        if len(self.edges) >= MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} edges")
        self.edges.append(edge)
