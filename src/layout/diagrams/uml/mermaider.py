"""Mermaid `erDiagram` source → an `ErDiagram` record: entities with their attribute tables,
and the relationships between them with a cardinality at each end.

Read by hand with `str.find`/`partition`, one pass per line (no pattern sees the source).
A relationship is `A ||--o{ B : "label"`: two characters at each end of `--`
(identifying, solid) or `..` (non-identifying, dashed), the one nearer an entity its
most (`|` one, `{`/`}` many), the other its least (`o` zero, `|` one); or in words,
`A one or more optionally to zero or one B : label`. An entity is
named alone, in a relationship or with a block `NAME["Alias"] { type name PK, FK "comment" }`.
Styles (`classDef`, `class A,B name`, `style A fill:…`, and `:::name` after an entity's
name or alias, in a block's head or a relationship) go through the flowcharts' one
`flow/style.StyleSheet`, so an entity takes its author's colours as a class or node does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import DiagramError
from ..flow.style import KEYWORDS as STYLE_KEYWORDS
from ..flow.style import PLAIN, Look, StyleSheet
from ..mermaid import MAX_EDGES, MAX_NODES, clean_label

_LEAST = {"o": "zero", "|": "one"}
_MOST = {"|": "one", "{": "many", "}": "many"}
_KEYS = ("PK", "FK", "UK")
# mermaid's cardinalities in words (`A one or more to zero or one B`) → (least, most)
_WORDS = {
    **dict.fromkeys(("one or zero", "zero or one"), ("zero", "one")),
    **dict.fromkeys(("one or more", "one or many", "many(1)", "1+"), ("one", "many")),
    **dict.fromkeys(("zero or more", "zero or many", "many(0)", "0+"), ("zero", "many")),
    **dict.fromkeys(("only one", "1"), ("one", "one")),
}
_SKIPPED = ("title",)
_SKIPPED_PREFIXES = ("accTitle", "accDescr")
_DIRECTIONS = {"TB": "TB", "TD": "TB", "BT": "BT", "LR": "LR", "RL": "RL"}
_NOT_IN_NAMES = set(" \t{}[]:|")


@dataclass(frozen=True, slots=True)
class Attribute:
    """One row of an entity's table: its type, name, keys (`PK, FK`) and comment."""

    type: str
    name: str
    keys: str = ""
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Entity:
    id: str
    label: str
    attributes: tuple[Attribute, ...] = ()
    look: Look = PLAIN  # the author's `classDef`/`class`/`style`/`:::` colours


@dataclass(frozen=True, slots=True)
class Link:
    """A relationship: each end's cardinality as (least, most): ("zero", "many") is `o{`."""

    source: str
    target: str
    source_end: tuple[str, str]
    target_end: tuple[str, str]
    dashed: bool = False
    label: str = ""


@dataclass(frozen=True, slots=True)
class ErDiagram:
    direction: str
    entities: tuple[Entity, ...]
    links: tuple[Link, ...]

    def labels(self) -> list[str]:
        """Every text drawn, in order: the figure's alt text."""
        out: list[str] = []
        for entity in self.entities:
            out.append(entity.label)
            for a in entity.attributes:
                out.append(" ".join(t for t in (a.type, a.name, a.keys, a.comment) if t))
        return out + [link.label for link in self.links if link.label]


@dataclass
class _Draft:
    label: str
    attributes: list[Attribute] = field(default_factory=list)


class _Reader:
    """The state of one pass: entities so far and the open entity block."""

    def __init__(self) -> None:
        self.entities: dict[str, _Draft] = {}
        self.links: list[Link] = []
        self.direction = "TB"
        self.body: _Draft | None = None
        self.rows = 0
        self.styles = StyleSheet()

    def entity(self, text: str) -> str:
        """`NAME`, `NAME["Alias"]`, either with `:::a,b` after it: the entity met (its
        classes taken), its id."""
        named, styled, classes = text.partition(":::")
        if styled and not classes.strip():
            raise DiagramError(f"`:::` without a class name: {text[:40]!r}")
        name, alias = _name_and_alias(named)
        self.meet(name, alias)
        ident = _entity_name(name)
        if styled:
            self.styles.add_classes([ident], classes.strip())
        return ident

    def meet(self, name: str, alias: str = "") -> _Draft:
        ident = _entity_name(name)
        if ident not in self.entities:
            if len(self.entities) >= MAX_NODES:
                raise DiagramError(f"more than {MAX_NODES} entities")
            self.entities[ident] = _Draft(clean_label(ident))
        if alias:
            self.entities[ident].label = clean_label(alias)
        return self.entities[ident]

    def line(self, text: str) -> None:
        if not text:
            return
        if self.body is not None:
            if text == "}":
                self.body = None
            else:
                self.attribute(self.body, text)
            return
        word = text.split()[0]
        if word == "direction":
            self.direction = _DIRECTIONS.get(text[len(word) :].strip().upper(), "")
            if not self.direction:
                raise DiagramError(f"unknown direction {text[:40]!r}")
        elif word in _SKIPPED or word.startswith(_SKIPPED_PREFIXES):
            return
        elif word in STYLE_KEYWORDS and word != "linkStyle":
            self.styles.take(text)
        elif _link_at(_at_label(text)[0]) >= 0:
            self.relationship(text)
        elif " to " in _at_label(text)[0]:
            self.worded(text)
        elif "{" in text:
            self.block(text)
        else:
            self.entity(text)

    def block(self, text: str) -> None:
        """`NAME["Alias"] {`, its rows perhaps on the same line up to `}`."""
        head, _, body = text.partition("{")
        draft = self.entities[self.entity(head)]
        inside, closed, after = body.partition("}")
        if after.strip():
            raise DiagramError(f"cannot read {text[:40]!r}")
        if inside.strip():
            self.attribute(draft, inside)
        self.body = None if closed else draft

    def attribute(self, draft: _Draft, text: str) -> None:
        """`type name [PK, FK] ["comment"]`."""
        text, quote, comment = text.strip().partition('"')
        if quote and not comment.rstrip().endswith('"'):
            raise DiagramError(f"unclosed comment in {text[:40]!r}")
        words = text.replace(",", " ").split()
        if len(words) < 2 or any(word not in _KEYS for word in words[2:]):
            raise DiagramError(f"cannot read attribute {text[:40]!r}: type name [PK|FK|UK]")
        self.rows += 1
        if self.rows > MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} attributes")
        keys = ", ".join(words[2:])
        shown = clean_label(comment.rstrip().removesuffix('"'))
        draft.attributes.append(
            Attribute(clean_label(words[0]), clean_label(words[1]), keys, shown)
        )

    def worded(self, text: str) -> None:
        """`A one or more optionally to zero or one B : label`: the cardinalities in words."""
        left, label = _at_label(text)
        words = left.split()
        to = words.index("to")
        optional = to > 0 and words[to - 1] == "optionally"
        ends = (" ".join(words[1 : to - optional]), " ".join(words[to + 1 : -1]))
        if len(words) < 4 or any(end not in _WORDS for end in ends):
            raise DiagramError(f"cannot read relationship {text[:40]!r}")
        source, target = self.entity(words[0]), self.entity(words[-1])
        self.links.append(
            Link(source, target, _WORDS[ends[0]], _WORDS[ends[1]], optional, clean_label(label))
        )
        if len(self.links) > MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} relationships")

    def relationship(self, text: str) -> None:
        left, label = _at_label(text)
        at = _link_at(left)
        source, spelled, target = left[: at - 2], left[at - 2 : at + 4], left[at + 4 :]
        ends = _cardinality(spelled[:2][::-1]), _cardinality(spelled[4:])
        if not target.strip():
            raise DiagramError(f"relationship without its second entity: {text[:40]!r}")
        self.links.append(
            Link(
                self.entity(source),
                self.entity(target),
                *ends,
                dashed=spelled[2] == ".",
                label=clean_label(label),
            )
        )
        if len(self.links) > MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} relationships")


def parse_er_diagram(lines: list[str]) -> ErDiagram:
    """The entity-relationship diagram of the statements after `erDiagram`."""
    reader = _Reader()
    for raw in lines[1:]:
        reader.line(raw.strip())
    if reader.body is not None:
        raise DiagramError("an entity block without its `}`")
    if not reader.entities:
        raise DiagramError("ER diagram without entities")
    look = reader.styles.node_look
    entities = tuple(
        Entity(ident, d.label, tuple(d.attributes), look(ident))
        for ident, d in reader.entities.items()
    )
    return ErDiagram(reader.direction, entities, tuple(reader.links))


def _link_at(text: str) -> int:
    """Where the line of the first relationship spelling (`||--o{`) starts, or -1: one pass
    over the text, each place looked at once."""
    for index in range(2, len(text) - 3):
        if text[index] in "-." and _spelling_ok(text[index - 2 : index + 4]):
            return index
    return -1


def _spelling_ok(spelled: str) -> bool:
    return (
        len(spelled) == 6
        and spelled[0] in "|}"
        and spelled[1] in "o|"
        and spelled[2:4] in ("--", "..")
        and spelled[4] in "o|"
        and spelled[5] in "|{"
    )


def _cardinality(outer_then_inner: str) -> tuple[str, str]:
    """Two characters read from the line outward → (least, most)."""
    return _LEAST[outer_then_inner[0]], _MOST[outer_then_inner[1]]


def _at_label(text: str) -> tuple[str, str]:
    """A relationship's line cut at its label's colon (a `:::style` is not one): what is
    before it and the label ("" if none)."""
    at = text.find(":")
    while at >= 0 and text.startswith(":::", at):
        at = text.find(":", at + 3)
    return (text, "") if at < 0 else (text[:at], text[at + 1 :])


def _name_and_alias(text: str) -> tuple[str, str]:
    """`NAME`, `NAME[Alias]` or `NAME["Alias"]` → the name and the alias ("" if none)."""
    name, bracket, alias = text.strip().partition("[")
    if bracket and not alias.rstrip().endswith("]"):
        raise DiagramError(f"cannot read entity {text[:40]!r}")
    return name, alias.rstrip().removesuffix("]")


def _entity_name(name: str) -> str:
    """An entity name as written (quoted names may hold spaces) → its id."""
    name = name.strip()
    quoted = len(name) >= 2 and name[0] == name[-1] == '"'
    if quoted:
        name = name[1:-1].strip()
    forbidden = _NOT_IN_NAMES - {" "} if quoted else _NOT_IN_NAMES
    if not name or '"' in name or any(c in forbidden for c in name):
        raise DiagramError(f"not an entity name: {name[:40]!r}")
    return name
