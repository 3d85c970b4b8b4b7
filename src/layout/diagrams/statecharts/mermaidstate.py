"""Mermaid `stateDiagram-v2` (and `stateDiagram`) source → a `StateChart` record.

We read states (`s1`, `state "Long name" as s1`, `s1 : description`), transitions (`a --> b :
label`), start and end (`[*]`, one of each per composite scope), composite states (`state X {
... }`, nested at most `MAX_NESTING` deep) with `--` concurrent regions, `<<fork>>`, `<<join>>`
and `<<choice>>`, notes (`note right of X : text`, or up to `end note`), and `direction`.
Styling (`classDef`, `class`, `style`, `:::name`) is read by the flowcharts' `StyleSheet`: a
state takes its author's colours as a flowchart's node does. Every line is read with
`str.partition`/`str.find`, no pattern: linear and bounded by `MAX_NODES` states and
`MAX_EDGES` transitions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import DiagramError
from ..flow.style import PLAIN, Look, StyleSheet
from ..mermaid import MAX_EDGES, MAX_NESTING, MAX_NODES, clean_label

START, END = "[*]start", "[*]end"  # a scope's start and end: f"{START}{scope}"
_DIRECTIONS = {"TB": "TB", "TD": "TB", "BT": "BT", "LR": "LR", "RL": "RL"}
_KINDS = {"<<fork>>": "fork", "<<join>>": "join", "<<choice>>": "choice"}
_SKIPPED = ("accTitle", "accDescr", "hide ", "scale ", "click ")


@dataclass(frozen=True, slots=True)
class State:
    """A state: `kind` is state, start, end, fork, join, choice or note (a floating note);
    `scope` is the region it is drawn in (`region_of`)."""

    id: str
    label: str
    kind: str = "state"
    scope: str = ""
    description: tuple[str, ...] = ()
    look: Look = PLAIN  # the author's `classDef`/`class`/`style`/`:::` colours


@dataclass(frozen=True, slots=True)
class Transition:
    source: str
    target: str
    label: str = ""


@dataclass(frozen=True, slots=True)
class StateNote:
    target: str
    side: str  # left, right
    label: str


@dataclass(frozen=True, slots=True)
class StateChart:
    direction: str
    states: tuple[State, ...]
    transitions: tuple[Transition, ...]
    notes: tuple[StateNote, ...] = ()
    regions: tuple[tuple[str, int], ...] = ()  # (composite id, its number of regions)
    directions: tuple[tuple[str, str], ...] = ()  # (composite id, its own direction)

    def labels(self) -> list[str]:
        """Every label drawn, in order: states and their descriptions, transitions, notes."""
        out: list[str] = []
        for state in self.states:
            if state.kind in ("state", "note", "composite"):
                out += [state.label, *state.description]
        return out + [t.label for t in self.transitions if t.label] + [n.label for n in self.notes]


def region_of(composite: str, index: int) -> str:
    """The scope key of a composite's `index`-th concurrent region ("" is the diagram)."""
    return f"{composite}\0{index}"


def parse_states(lines: list[str]) -> StateChart:
    """The state diagram of the source's statements (`mermaid.statements`), header first."""
    reader = _Reader()
    pending_note: list[str] | None = None
    for raw in lines[1:]:
        text = raw.strip()
        if pending_note is not None:
            if text == "end note":
                reader.note_end(pending_note)
                pending_note = None
            else:
                pending_note.append(text)
            continue
        if text.startswith("note "):
            pending_note = reader.note(text[5:].strip())
        else:
            reader.take(text)
    if pending_note is not None:
        raise DiagramError("note without its `end note`")
    if len(reader.stack) > 1:
        raise DiagramError("composite state without its closing `}`")
    if not reader.states:
        raise DiagramError("state diagram without states")
    return reader.chart()


@dataclass
class _Draft:
    label: str
    kind: str
    scope: str
    description: list[str] = field(default_factory=list)


@dataclass
class _Reader:
    states: dict[str, _Draft] = field(default_factory=dict)
    transitions: list[Transition] = field(default_factory=list)
    notes: list[StateNote] = field(default_factory=list)
    stack: list[tuple[str, str]] = field(default_factory=lambda: [("", "")])  # (composite, scope)
    regions: dict[str, int] = field(default_factory=dict)
    directions: dict[str, str] = field(default_factory=lambda: {"": "TB"})
    note_head: tuple[str, str] = ("", "")
    styles: StyleSheet = field(default_factory=StyleSheet)

    def take(self, text: str) -> None:
        if text == "}":
            self._close()
        elif text == "--":
            self._divide()
        elif text.startswith("direction "):
            self._direction(text[len("direction ") :].strip())
        elif text.startswith("state "):
            self._state(text[len("state ") :].strip())
        elif "-->" in text:
            self._transition(text)
        elif text.startswith(_SKIPPED) or self.styles.take(text):
            return
        elif _plain(text):  # a state declared by its id alone
            self._meet(text)
        else:
            ident, colon, description = _at_colon(text)
            if not colon or not _plain(ident.strip()):
                raise DiagramError(f"cannot read {text[:40]!r}")
            self._meet(ident.strip()).description.append(clean_label(description))

    def chart(self) -> StateChart:
        states = tuple(
            State(i, d.label, d.kind, d.scope, tuple(d.description), self.styles.node_look(i))
            for i, d in self.states.items()
        )
        direction = self.directions.pop("")
        return StateChart(
            direction,
            states,
            tuple(self.transitions),
            tuple(self.notes),
            tuple((c, n + 1) for c, n in self.regions.items()),
            tuple(self.directions.items()),
        )

    def _meet(self, ident: str, label: str = "", kind: str = "state") -> _Draft:
        """The state `ident`, created in the current scope on first mention; `ident:::a,b`
        gives it classes a and b."""
        classes = ident.partition(":::")[2].strip()
        ident = _plain_id(ident)
        if classes:
            self.styles.add_classes([ident], classes)
        if ident not in self.states:
            if len(self.states) >= MAX_NODES:
                raise DiagramError(f"more than {MAX_NODES} states")
            self.states[ident] = _Draft(label or ident, kind, self.stack[-1][1])
        draft = self.states[ident]
        if label:
            draft.label = label
        if kind != "state":
            if draft.kind == "composite" or (draft.kind != "state" and draft.kind != kind):
                raise DiagramError(f"state {ident!r} declared as two kinds")
            draft.kind = kind
        return draft

    def _end_point(self, ident: str, start: bool) -> str:
        """`[*]` as the current scope's start or end state, else the state itself."""
        if ident.strip() != "[*]":
            if not _plain(ident):
                raise DiagramError(f"cannot read state {ident.strip()[:40]!r}")
            self._meet(ident)
            return _plain_id(ident)
        scope = self.stack[-1][1]
        key = (START if start else END) + scope
        if key not in self.states:
            if len(self.states) >= MAX_NODES:
                raise DiagramError(f"more than {MAX_NODES} states")
            self.states[key] = _Draft("", "start" if start else "end", scope)
        return key

    def _transition(self, text: str) -> None:
        left, _, right = text.partition("-->")
        target, _, label = _at_colon(right)
        if not left.strip() or not target.strip():
            raise DiagramError(f"transition without both ends: {text[:40]!r}")
        if len(self.transitions) >= MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} transitions")
        source = self._end_point(left, True)
        self.transitions.append(
            Transition(source, self._end_point(target, False), clean_label(label))
        )

    def _state(self, rest: str) -> None:
        """`state "Label" as id`, `state id <<fork>>`, `state id {`, `state id : text`."""
        opens = rest.endswith("{")
        rest = rest.removesuffix("{").strip()
        kind = "state"
        for marker, name in _KINDS.items():
            if rest.endswith(marker):
                kind, rest = name, rest.removesuffix(marker).strip()
        label = ""
        if rest.startswith('"'):
            close = rest.find('"', 1)
            before, _, ident = rest[close + 1 :].partition(" as ")
            if close < 0 or before.strip() or not ident.strip():
                raise DiagramError(f"cannot read state {rest[:40]!r}")
            label, rest = clean_label(rest[1:close]), ident.strip()
        else:
            ident, as_word, alias = rest.partition(" as ")
            if as_word:  # `state Long description as id`
                label, rest = clean_label(ident), alias.strip()
        ident, colon, description = _at_colon(rest)
        if not _plain(ident.strip()):
            raise DiagramError(f"cannot read state {rest[:40]!r}")
        draft = self._meet(ident.strip(), label, kind)
        if colon:
            draft.description.append(clean_label(description))
        if opens:
            self._open(_plain_id(ident))

    def _open(self, ident: str) -> None:
        if len(self.stack) > MAX_NESTING:
            raise DiagramError("composite states nested too deeply")
        if self.states[ident].kind not in ("state", "composite"):
            raise DiagramError(f"state {ident!r} declared as two kinds")
        self.states[ident].kind = "composite"
        self.stack.append((ident, region_of(ident, self.regions.setdefault(ident, 0))))

    def _close(self) -> None:
        if len(self.stack) < 2:
            raise DiagramError("`}` without a composite state")
        self.stack.pop()

    def _divide(self) -> None:
        composite = self.stack[-1][0]
        if not composite:
            raise DiagramError("`--` outside a composite state")
        self.regions[composite] += 1
        self.stack[-1] = (composite, region_of(composite, self.regions[composite]))

    def _direction(self, word: str) -> None:
        if word.upper() not in _DIRECTIONS:
            raise DiagramError(f"unknown direction {word!r}")
        self.directions[self.stack[-1][0]] = _DIRECTIONS[word.upper()]

    def note(self, rest: str) -> list[str] | None:
        """`right of X : text` (a note now: None) or `left of X` (the lines up to `end
        note` follow: an empty list to fill); `"text" as N` is a floating note."""
        if rest.startswith('"'):
            text, _, ident = rest[1:].partition('" as ')
            self._meet(ident.strip(), clean_label(text), "note")
            return None
        side, of_word, target = rest.partition(" of ")
        if side.strip() not in ("left", "right") or not of_word:
            raise DiagramError(f"cannot read note {rest[:40]!r}")
        target, colon, text = _at_colon(target)
        self._meet(target.strip())
        self.note_head = (side.strip(), _plain_id(target.strip()))
        if colon:
            self.note_end([text])
            return None
        return []

    def note_end(self, lines: list[str]) -> None:
        if len(self.notes) >= MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} notes")
        side, target = self.note_head
        self.notes.append(StateNote(target, side, clean_label("\n".join(lines))))


def _at_colon(text: str) -> tuple[str, str, str]:
    """`text` split at its first colon that is not part of a `:::class`."""
    at = text.find(":")
    while at >= 0 and text[at : at + 3] == ":::":
        at = text.find(":", at + 3)
    return (text, "", "") if at < 0 else (text[:at], ":", text[at + 1 :])


def _plain_id(ident: str) -> str:
    """An id without its `:::class` styling."""
    return ident.strip().partition(":::")[0].strip()


def _plain(ident: str) -> bool:
    """Whether `ident` reads as one state id: no spaces, quotes or brackets."""
    ident = _plain_id(ident)
    return bool(ident) and not any(c.isspace() or c in "\"'[]{}<>" for c in ident)
