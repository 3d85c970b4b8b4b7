"""Mermaid source → a diagram record: flowcharts here, the other kinds in `mermaidkinds`.

We read the part of Mermaid's syntax that people write by hand: flowcharts (`graph` /
`flowchart` with a direction, five node shapes, solid, dotted and thick edges with or
without labels, chains, `&` and subgraphs), mind maps, sequence diagrams and pies. Styling
statements (`classDef`, `style`, `click`, ...) are read and ignored: the theme colours the
diagram. Anything else raises `DiagramError`, whose message is the one-line note shown
under the source, which then stays a code block. The parser is linear in the source, and
every diagram is held to `MAX_SOURCE` characters, `MAX_NODES` nodes and `MAX_EDGES` edges
before any layout runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..errors import DiagramError
from .mermaidlines import labelled_link

MAX_SOURCE = 20_000  # characters of one diagram
MAX_NODES = 200  # nodes (flowchart, mind map), participants + notes, or pie slices
MAX_EDGES = 400  # edges, or messages of a sequence diagram
MAX_LABEL = 300  # characters of one label; longer labels are cut with an ellipsis
MAX_NESTING = 12  # subgraphs in subgraphs, blocks in blocks, mind map levels (x2)


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    label: str
    shape: str = "rect"  # rect, round, stadium, rhombus, circle


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    label: str = ""
    line: str = "solid"  # solid, dotted, thick
    arrow: bool = True
    both: bool = False  # an arrowhead at the source too (`<-->`)


@dataclass(frozen=True, slots=True)
class Subgraph:
    id: str
    label: str
    members: tuple[str, ...]  # node ids directly or in nested subgraphs


@dataclass(frozen=True, slots=True)
class Flowchart:
    direction: str  # TB, BT, LR, RL
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    subgraphs: tuple[Subgraph, ...] = ()

    def labels(self) -> list[str]:
        return [n.label for n in self.nodes] + [e.label for e in self.edges if e.label]


def clean_label(text: str) -> str:
    """A label as shown: quotes and Mermaid's markdown-string backticks off, `<br>` a line
    break, entities `#quot;` and `#35;` decoded, at most `MAX_LABEL` characters."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "`":
        text = text[1:-1]
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.I)
    text = re.sub(r"#(\d{1,6});", lambda m: chr(int(m.group(1))), text).replace("#quot;", '"')
    text = "\n".join(line.strip() for line in text.split("\n")).strip()
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


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
_IGNORED = re.compile(r"^(classDef|class|style|linkStyle|click|direction|accTitle|accDescr)\b")
_ID = r"[\w\u0080-\U0010ffff]+(?:[-.][\w\u0080-\U0010ffff]+)*"
_ID_RE = re.compile(_ID)
# Opening brackets, longest first, with their closers and the shape we draw for them.
_SHAPES = (
    ("(((", ")))", "circle"),
    ("((", "))", "circle"),
    ("([", "])", "stadium"),
    ("[[", "]]", "rect"),
    ("[(", ")]", "round"),
    ("[/", "/]", "rect"),
    ("[\\", "\\]", "rect"),
    ("{{", "}}", "rhombus"),
    ("[", "]", "rect"),
    ("(", ")", "round"),
    ("{", "}", "rhombus"),
    (">", "]", "rect"),
)
_PLAIN = re.compile(r"\s*(?P<open><?)(?P<line>-{2,}|={2,}|-\.+-)(?P<tail>[>ox]?)\s*")
_PIPE = re.compile(r"\|(?P<text>[^|]*)\|\s*")
_CLASS = re.compile(r":::[\w-]+")
# a subgraph's `[title]` after its id, to the last `]`; the id is read by `_ID_RE` alone (an
# id may end in a space like U+3000 that `\s*` would take too: one pattern could split it)
_TITLE = re.compile(r"\s*\[(.*)\]\s*")


def parse_flowchart(lines: list[str]) -> Flowchart:
    header = lines[0].split()
    direction = _DIRECTIONS.get(header[1].upper(), "") if len(header) > 1 else "TB"
    if not direction:
        raise DiagramError(f"unknown flowchart direction {header[1]!r}")
    graph = _Graph()
    for raw in lines[1:]:
        for statement in _split_statements(raw.strip()):
            graph.take(statement)
    if graph.stack:
        raise DiagramError("subgraph without its end")
    if not graph.nodes:
        raise DiagramError("flowchart without nodes")
    return Flowchart(
        direction, tuple(graph.nodes.values()), tuple(graph.edges), tuple(graph.subgraphs)
    )


def subgraph_title(rest: str) -> tuple[str, str] | None:
    """(id, label) of ``id[label]`` after ``subgraph``; None for a bare title."""
    ident = _ID_RE.match(rest)
    title = ident and _TITLE.fullmatch(rest, ident.end())
    return (ident.group(), clean_label(title.group(1))) if ident and title else None


def _split_statements(line: str) -> list[str]:
    """A line's statements: `;` ends one, except inside a quoted label."""
    parts, quoted, start = [], False, 0
    for i, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == ";" and not quoted:
            parts.append(line[start:i])
            start = i + 1
    parts.append(line[start:])
    return [p.strip() for p in parts if p.strip()]


@dataclass
class _Graph:
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    subgraphs: list[Subgraph] = field(default_factory=list)
    stack: list[tuple[str, str, list[str]]] = field(default_factory=list)

    def take(self, statement: str) -> None:
        if statement.startswith("subgraph"):
            self._open(statement[len("subgraph") :].strip())
        elif statement == "end":
            self._close()
        elif not _IGNORED.match(statement):
            self._chain(statement)

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
        group, pos = self._group(text, 0)
        while pos < len(text):
            link, pos = _link(text, pos)
            targets, pos = self._group(text, pos)
            for source in group:
                for target in targets:
                    self._edge(replace(link, source=source, target=target))
            group = targets

    def _group(self, text: str, pos: int) -> tuple[list[str], int]:
        ids = []
        while True:
            ident, pos = self._node(text, pos)
            ids.append(ident)
            match = re.compile(r"\s*&\s*").match(text, pos)
            if not match:
                return ids, pos
            pos = match.end()

    def _node(self, text: str, pos: int) -> tuple[str, int]:
        match = _ID_RE.match(text, pos)
        if not match:
            raise DiagramError(f"cannot read {text[pos : pos + 30]!r}")
        ident, pos = match.group(), match.end()
        shape_label = _shape(text, pos)
        if shape_label:
            shape, label, pos = shape_label
            self._add(Node(ident, label, shape))
        elif ident not in self.nodes:
            self._add(Node(ident, ident))
        class_match = _CLASS.match(text, pos)
        pos = class_match.end() if class_match else pos
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


def _shape(text: str, pos: int) -> tuple[str, str, int] | None:
    """The bracketed label after a node id: its shape, label and where it ends."""
    for opener, closer, shape in _SHAPES:
        if not text.startswith(opener, pos):
            continue
        start = pos + len(opener)
        quoted = re.compile(r'\s*"([^"]*)"\s*').match(text, start)
        if quoted and text.startswith(closer, quoted.end()):
            return shape, clean_label(quoted.group(1)), quoted.end() + len(closer)
        end = text.find(closer, start)
        if end < 0:
            raise DiagramError(f"unclosed {opener!r} in {text[pos : pos + 30]!r}")
        return shape, clean_label(text[start:end]), end + len(closer)
    return None


def _link(text: str, pos: int) -> tuple[Edge, int]:
    """The link at `pos` (`-->`, `---`, `-.->`, `==>`, `-- x -->`, `-->|x|`): an edge
    with no ends yet, and where the link ends."""
    labelled = labelled_link(text, pos)
    if labelled:
        opener, close = labelled.opener, labelled.close
        line = _line_kind(opener.lstrip("<") + close)
        label = clean_label(labelled.text)
        return Edge("", "", label, line, close[-1] in ">ox", opener.startswith("<")), labelled.end
    plain = _PLAIN.match(text, pos)
    if not plain:
        raise DiagramError(f"expected a link at {text[pos : pos + 30]!r}")
    line, arrow, both = (
        _line_kind(plain.group("line")),
        bool(plain.group("tail")),
        bool(plain.group("open")),
    )
    pipe = _PIPE.match(text, plain.end())
    if pipe:
        return Edge("", "", clean_label(pipe.group("text")), line, arrow, both), pipe.end()
    return Edge("", "", "", line, arrow, both), plain.end()


def _line_kind(link: str) -> str:
    if "." in link:
        return "dotted"
    return "thick" if "=" in link else "solid"
