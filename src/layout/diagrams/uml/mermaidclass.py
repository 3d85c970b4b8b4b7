"""Mermaid `classDiagram` source → a `ClassDiagram` record: classes with their members, and the
relations between them with their ends, labels and cardinalities.

Read by hand with `str.find`/`partition`, one pass per line (no pattern sees the source):
`class X { ... }` blocks and `X : member` lines give members (a member with `(` is a
method), `<<interface>>` an annotation, `List~int~` generics are shown `List<int>`. A
relation is `A [ "card" ] END LINE END [ "card" ] B [ : label ]`, its line `--` (solid) or
`..` (dashed), each end one of `<|`/`|>` (inheritance, realization), `*` (composition),
`o` (aggregation), `<`/`>` (association, dependency), `()` (lollipop) or nothing.
Notes (`note for X "text"`) and namespaces (a panel round their classes) are kept. Styling
(`classDef`, `style`, `cssClass "A,B" name`, `class A:::name`) is read by the flowcharts'
`StyleSheet`, so a class takes its author's colours as a flowchart's node does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import DiagramError
from ..flow.style import PLAIN, Look, StyleSheet
from ..mermaid import MAX_EDGES, MAX_NESTING, MAX_NODES, clean_label

# end spellings on the left of a line and on its right → the mark drawn there
_LEFT_ENDS = (("<|", "triangle"), ("()", "lollipop"), ("*", "diamond"), ("<", "arrow"))
_RIGHT_ENDS = (("|>", "triangle"), ("()", "lollipop"), ("*", "diamond"), (">", "arrow"))
_SKIPPED = ("click", "callback", "link", "title")
_SKIPPED_PREFIXES = ("accTitle", "accDescr")
_DIRECTIONS = {"TB": "TB", "TD": "TB", "BT": "BT", "LR": "LR", "RL": "RL"}
_VISIBILITY = "+-#~"  # public, private, protected, package
_NOT_IN_NAMES = set(" \t\"'{}:<>|*")


@dataclass(frozen=True, slots=True)
class ClassBox:
    """One class: its id, the name shown (with its generic), an annotation
    (`interface`, without the guillemets) and its members as written."""

    id: str
    label: str
    annotation: str = ""
    attributes: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    look: Look = PLAIN  # the author's `classDef`/`style`/`cssClass`/`:::` colours


@dataclass(frozen=True, slots=True)
class Relation:
    """A line from `source` (the class written first) to `target`; `start`/`end` name the
    mark at each end: "", triangle, diamond, hollow (aggregation), arrow, lollipop."""

    source: str
    target: str
    start: str = ""
    end: str = ""
    dashed: bool = False
    label: str = ""
    source_card: str = ""
    target_card: str = ""


@dataclass(frozen=True, slots=True)
class ClassNote:
    """`note for X "text"` (`target` X) or `note "text"` (no target)."""

    text: str
    target: str = ""


@dataclass(frozen=True, slots=True)
class Namespace:
    """A namespace: its name and the ids of the classes declared in it (or in one in it)."""

    label: str
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClassDiagram:
    direction: str  # TB, BT, LR, RL
    classes: tuple[ClassBox, ...]
    relations: tuple[Relation, ...]
    notes: tuple[ClassNote, ...] = ()
    namespaces: tuple[Namespace, ...] = ()

    def labels(self) -> list[str]:
        """Every text drawn, in order: the figure's alt text."""
        out: list[str] = []
        for box in self.classes:
            out += [f"«{box.annotation}»"] if box.annotation else []
            out += [box.label, *box.attributes, *box.methods]
        for rel in self.relations:
            out += [t for t in (rel.label, rel.source_card, rel.target_card) if t]
        out += [note.text for note in self.notes]
        return out + [space.label for space in self.namespaces]


@dataclass
class _Draft:
    label: str
    annotation: str = ""
    attributes: list[str] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)


class _Reader:
    """The state of one pass: classes so far, the open class body and namespaces."""

    def __init__(self) -> None:
        self.classes: dict[str, _Draft] = {}
        self.relations: list[Relation] = []
        self.notes: list[ClassNote] = []
        self.direction = "TB"
        self.body: _Draft | None = None
        self.depth = 0  # open namespaces
        self.spaces: list[tuple[str, list[str]]] = []  # each namespace: name, its classes
        self.open_spaces: list[int] = []  # the open ones, by index
        self.members = 0
        self.styles = StyleSheet()

    def meet(self, name: str) -> _Draft:
        ident, label = _class_name(name)
        if ident not in self.classes:
            if len(self.classes) >= MAX_NODES:
                raise DiagramError(f"more than {MAX_NODES} classes")
            self.classes[ident] = _Draft(label)
        elif label != ident:
            self.classes[ident].label = label
        return self.classes[ident]

    def member(self, draft: _Draft, text: str) -> None:
        text = text.strip()
        if not text:
            return
        if text.startswith("<<") and text.endswith(">>"):
            draft.annotation = clean_label(text[2:-2])
            return
        self.members += 1
        if self.members > MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} class members")
        mark = text[0] if text[0] in _VISIBILITY else ""  # `~` package: not a generic
        shown = clean_label(mark + generics(member_text(text[len(mark) :])))
        (draft.methods if "(" in text else draft.attributes).append(shown)

    def line(self, text: str) -> None:
        if self.body is not None:
            if text == "}":
                self.body = None
            else:
                self.member(self.body, text)
            return
        word = text.split()[0]
        if text == "}":
            if self.depth == 0:
                raise DiagramError("`}` without a class or namespace")
            self.depth -= 1
            self.open_spaces.pop()
        elif word == "namespace":
            self.depth += 1
            if self.depth > MAX_NESTING or not text.endswith("{"):
                raise DiagramError("namespace without `{`, or nested too deeply")
            self.open_spaces.append(len(self.spaces))
            self.spaces.append((clean_label(text[len(word) : -1]), []))
        elif word == "direction":
            self.direction = _DIRECTIONS.get(text[len(word) :].strip().upper(), "")
            if not self.direction:
                raise DiagramError(f"unknown direction {text[:40]!r}")
        elif word in _SKIPPED or word.startswith(_SKIPPED_PREFIXES):
            return
        elif word in ("classDef", "style"):
            self.styles.take(text)
        elif word == "cssClass":
            self.css_class(text[len(word) :].strip().removesuffix(";"))
        elif word == "note":
            self.note(text[len(word) :].strip())
        elif text.startswith("<<"):
            annotation, _, name = text[2:].partition(">>")
            self.meet(name.strip()).annotation = clean_label(annotation)
        elif word == "class":
            self.declaration(text[len(word) :].strip())
        elif _link_at(text.partition(":")[0]) >= 0:
            self.relation(text)
        elif ":" in text:
            name, _, member = text.partition(":")
            self.member(self.meet(name.strip()), member)
        else:
            raise DiagramError(f"cannot read {text[:40]!r}")

    def note(self, rest: str) -> None:
        """`for Name "text"` or `"text"`."""
        target = ""
        if rest.startswith("for "):
            target, _, rest = rest[4:].strip().partition(" ")
            target = _class_name(target)[0]
            if target not in self.classes:
                raise DiagramError(f"a note for a class not declared before it: {target[:40]!r}")
        rest = rest.strip()
        if len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
            raise DiagramError(f"a note's text must be quoted: {rest[:40]!r}")
        self.notes.append(ClassNote(clean_label(rest), target))
        if len(self.notes) > MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} notes")

    def css_class(self, rest: str) -> None:
        """`"A,B" name`: the classes A and B take the style class `name`."""
        ids, _, name = rest.rpartition(" ")
        ids = ids.strip()
        if len(ids) < 2 or ids[0] != '"' or ids[-1] != '"' or not name:
            raise DiagramError(f"cannot read cssClass {rest[:40]!r}")
        self.styles.add_classes(
            [_class_name(i)[0] for i in ids[1:-1].split(",") if i.strip()], name
        )

    def declaration(self, rest: str) -> None:
        """`class Name~T~["Label"]:::style <<annotation>> {` (each part optional but the
        name); an open brace starts the body, which may close on the same line."""
        rest, brace, body = rest.partition("{")
        rest, _, style = rest.partition(":::")
        style, _, after = style.strip().partition(" ")  # `:::name <<annotation>>`
        rest = f"{rest.strip()} {after}".strip()
        annotation = ""
        if "<<" in rest:
            rest, _, annotation = rest.partition("<<")
            annotation = annotation.partition(">>")[0]
        name, _, label = rest.partition("[")
        draft = self.meet(name.strip())
        for space in self.open_spaces:  # the class is in each open namespace
            members = self.spaces[space][1]
            ident = _class_name(name)[0]
            if ident not in members:
                members.append(ident)
        if style:
            self.styles.add_classes([_class_name(name)[0]], style)
        if label:
            draft.label = clean_label(label.rstrip().removesuffix("]"))
        if annotation:
            draft.annotation = clean_label(annotation)
        if brace:
            inside, closed, _ = body.partition("}")
            self.member(draft, inside)
            self.body = None if closed else draft

    def relation(self, text: str) -> None:
        left, _, label = text.partition(":")
        at = _link_at(left)
        stop = at
        while stop < len(left) and left[stop] in "-.":
            stop += 1
        head, start = _left_end(left[:at])
        tail, end = _right_end(left[stop:])
        source, source_card = _name_and_card(head, card_last=True)
        target, target_card = _name_and_card(tail, card_last=False)
        self.meet(source)
        self.meet(target)
        self.relations.append(
            Relation(
                _class_name(source)[0],
                _class_name(target)[0],
                start,
                end,
                left[at] == ".",
                clean_label(label),
                clean_label(source_card),
                clean_label(target_card),
            )
        )
        if len(self.relations) > MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} relations")


def parse_class_diagram(lines: list[str]) -> ClassDiagram:
    """The class diagram of the statements after `classDiagram`; `DiagramError` for a line
    that would change its meaning and that we cannot read."""
    reader = _Reader()
    for raw in lines[1:]:
        reader.line(raw.strip())
    if reader.body is not None or reader.depth:
        raise DiagramError("a class or namespace without its `}`")
    if not reader.classes:
        raise DiagramError("class diagram without classes")
    look = reader.styles.node_look
    classes = tuple(
        ClassBox(ident, d.label, d.annotation, tuple(d.attributes), tuple(d.methods), look(ident))
        for ident, d in reader.classes.items()
    )
    spaces = tuple(Namespace(label, tuple(members)) for label, members in reader.spaces if members)
    relations, notes = tuple(reader.relations), tuple(reader.notes)
    return ClassDiagram(reader.direction, classes, relations, notes, spaces)


def member_text(text: str) -> str:
    """A member as mermaid-js shows it: a method's return type after ` : `, and the static
    `$` and abstract `*` markers dropped (mermaid-js underlines or slants the member)."""
    head, paren, tail = text.rpartition(")")
    if not paren:
        return text.removesuffix("$").removesuffix("*").rstrip()
    tail = tail.strip().lstrip("$*").strip()
    if tail and not tail.startswith(":"):
        tail = ": " + tail
    return f"{head}) {tail}" if tail else f"{head})"


def generics(text: str) -> str:
    """Mermaid's `~` generics as angle brackets: `List~List~int~~` → `List<List<int>>`; a
    `~` opens when a name follows it, else closes. Unbalanced tildes are left as written."""
    out: list[str] = []
    depth = 0
    for index, char in enumerate(text):
        if char != "~":
            out.append(char)
            continue
        following = text[index + 1 : index + 2]
        if following and (following.isalnum() or following == "_"):
            depth += 1
            out.append("<")
        else:
            depth -= 1
            out.append(">")
        if depth < 0:
            return text
    return "".join(out) if depth == 0 else text


def _class_name(name: str) -> tuple[str, str]:
    """A class name as written → its id (before any generic) and the name shown."""
    name = name.strip().strip("`")
    if not name or any(c in _NOT_IN_NAMES for c in name):
        raise DiagramError(f"not a class name: {name[:40]!r}")
    ident = name.partition("~")[0]
    if not ident:
        raise DiagramError(f"not a class name: {name[:40]!r}")
    return ident, clean_label(generics(name))


def _link_at(text: str) -> int:
    """Where the first `--` or `..` outside quotes starts in `text`, or -1."""
    quoted = False
    for index, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "-." and text[index + 1 : index + 2] == char:
            return index
    return -1


def _left_end(text: str) -> tuple[str, str]:
    """The text before a line, less its end mark, and that mark's name."""
    for spelling, mark in _LEFT_ENDS:
        if text.endswith(spelling):
            return text[: -len(spelling)], mark
    if text.endswith("o") and (len(text) == 1 or text[-2] in ' "'):
        return text[:-1], "hollow"
    return text, ""


def _right_end(text: str) -> tuple[str, str]:
    """The text after a line, less its end mark, and that mark's name."""
    for spelling, mark in _RIGHT_ENDS:
        if text.startswith(spelling):
            return text[len(spelling) :], mark
    if text.startswith("o") and (len(text) == 1 or text[1] in ' "'):
        return text[1:], "hollow"
    return text, ""


def _name_and_card(text: str, card_last: bool) -> tuple[str, str]:
    """`Name "card"` (before a line) or `"card" Name` (after one) → the name and card."""
    text = text.strip()
    quote = text.find('"')
    if quote < 0:
        return text, ""
    close = text.find('"', quote + 1)
    if close < 0:
        raise DiagramError(f"unclosed quote in {text[:40]!r}")
    card = text[quote + 1 : close]
    outside = (text[:quote] + text[close + 1 :]).strip()
    if text[close + 1 :].strip() if card_last else text[:quote].strip():
        raise DiagramError(f"a cardinality must sit next to the line: {text[:40]!r}")
    return outside, card
