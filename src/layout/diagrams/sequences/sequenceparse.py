"""A sequence diagram's statements → a `Sequence` record: participants (with their boxes) and
the events in order; laid out by `sequence`.

Read: `participant`/`actor` with `as` aliases, `create` and `destroy`, `box … end` groups,
every arrow (`->`, `-->`, `->>`, `-->>`, `-x`, `--x`, `-)`, `--)`, `<<->>`, `<<-->>`)
with `+`/`-` activation marks, `activate`/`deactivate`, `autonumber` (`off`, a start and a
step), notes (left of, right of, over one or two), the blocks loop, alt/else, opt,
par/and, critical/option, break and rect, and a `title`. The accessibility lines are skipped;
anything else that would change the meaning is a `DiagramError`. Bounded as every kind is
(`MAX_NODES` participants, `MAX_EDGES` events, `MAX_NESTING` blocks).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import DiagramError
from ..mermaid import MAX_EDGES, MAX_NESTING, MAX_NODES, clean_label
from ..mermaidlines import Message as MessageLine
from ..mermaidlines import message as message_line
from ..mermaidlines import note as note_line
from ..mermaidlines import participant as participant_line


@dataclass(frozen=True, slots=True)
class Participant:
    id: str
    label: str
    actor: bool = False
    created: bool = False  # `create participant`: its head is drawn where it is created
    box: int = -1  # the `box` group it is in (an index of `Sequence.boxes`), -1 for none


@dataclass(frozen=True, slots=True)
class Message:
    source: str
    target: str
    label: str
    dashed: bool = False
    arrow: str = "filled"  # filled, open (`->`), cross (`-x`), async (`-)`)
    both: bool = False  # `<<->>`: an arrowhead at each end
    activate: bool = False  # `->>+`: the target's activation starts here
    deactivate: bool = False  # `->>-`: the source's activation ends here
    number: int | None = None  # `autonumber`: the message's number


@dataclass(frozen=True, slots=True)
class Note:
    over: tuple[str, ...]  # one or two participant ids
    label: str
    side: str = "over"  # over, left, right


@dataclass(frozen=True, slots=True)
class Section:
    """A block's start (`loop`, `alt`, `opt`, `par`, `rect`, ...), its `else`/`and`/`option`
    or its `end`."""

    kind: str  # open, divider, close
    keyword: str = ""
    label: str = ""


@dataclass(frozen=True, slots=True)
class Lifeline:
    """`activate A`/`deactivate A` (`on`), or `destroy A` (kind "destroy"): what happens to
    a participant's lifeline at the next message."""

    who: str
    kind: str  # activate, deactivate, destroy
    label: str = ""


Event = Message | Note | Section | Lifeline


@dataclass(frozen=True, slots=True)
class Sequence:
    participants: tuple[Participant, ...]
    events: tuple[Event, ...]
    boxes: tuple[str, ...] = ()  # each `box`'s title ("" for none)
    title: str = ""

    def labels(self) -> list[str]:
        out = [self.title] if self.title else []
        out += [box for box in self.boxes if box] + [p.label for p in self.participants]
        return out + [event.label for event in self.events if event.label]


_OPENERS = ("loop", "alt", "opt", "par", "critical", "break", "rect")
_DIVIDERS = ("else", "and", "option")
_SKIPPED = ("accTitle", "accDescr", "links", "link", "properties", "details")
_HEADS = {">>": "filled", "->": "open", "-x": "cross", "-)": "async"}
# the CSS colour words a `box` may start with (its colour: the theme colours boxes)
_COLOURS = (
    "transparent aqua black blue fuchsia gray grey green lime maroon navy olive orange purple"
    " red silver teal white yellow pink brown gold cyan magenta violet indigo beige coral"
    " khaki lavender salmon tan wheat lightblue lightgreen lightgrey lightgray lightyellow"
    " lightpink aliceblue azure honeydew ivory mintcream linen snow whitesmoke"
)
_COLOUR_WORDS = frozenset(_COLOURS.split())


@dataclass
class _Reader:
    """The parse in progress: participants met so far, events, blocks open, numbering."""

    participants: dict[str, Participant]
    events: list[Event]
    boxes: list[str]
    depth: int = 0
    box: int = -1  # the box being read, -1 outside one
    number: int | None = None  # the next message's number while `autonumber` is on
    step: int = 1
    title: str = ""

    def meet(self, ident: str) -> str:
        ident = ident.strip()
        if ident not in self.participants:
            self.declare(ident, clean_label(ident), False, False)
        return ident

    def declare(self, ident: str, label: str, actor: bool, created: bool) -> None:
        if ident not in self.participants and len(self.participants) >= MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} participants")
        self.participants[ident] = Participant(ident, label, actor, created, self.box)


def parse_sequence(lines: list[str]) -> Sequence:
    """The statements after `sequenceDiagram` as a `Sequence`."""
    reader = _Reader({}, [], [])
    for line in lines:
        _statement(reader, line.strip())
        if len(reader.events) > MAX_EDGES:
            raise DiagramError(f"more than {MAX_EDGES} messages")
    if reader.depth or reader.box >= 0:
        raise DiagramError("block without its `end`")
    if not reader.participants:
        raise DiagramError("sequence diagram without participants")
    people = tuple(reader.participants.values())
    return Sequence(people, tuple(reader.events), tuple(reader.boxes), reader.title)


def _statement(reader: _Reader, text: str) -> None:
    word = text.split()[0]
    rest = text[len(word) :].strip()
    created = word == "create"
    if created:
        text, word = rest, rest.split()[0] if rest else ""
    if participant := participant_line(text):
        ident = participant.id.strip()
        label = clean_label(participant.label or ident)
        reader.declare(ident, label, participant.keyword == "actor", created)
    elif created:
        raise DiagramError(f"cannot read {('create ' + text)[:40]!r}")
    elif word == "box":
        _box(reader, rest)
    elif word in _OPENERS:
        reader.depth += 1
        if reader.depth > MAX_NESTING:
            raise DiagramError("blocks nested too deeply")
        reader.events.append(Section("open", word, "" if word == "rect" else clean_label(rest)))
    elif word in _DIVIDERS:
        reader.events.append(Section("divider", word, clean_label(rest)))
    elif text == "end":
        _end(reader)
    elif word in ("activate", "deactivate", "destroy") and rest:
        reader.events.append(Lifeline(reader.meet(rest), word))
    elif word in ("title", "title:"):
        reader.title = clean_label(rest.removeprefix(":"))
    elif word == "autonumber":
        _autonumber(reader, rest)
    elif note := note_line(text):
        who = tuple(reader.meet(w) for w in note.who.split(",")[:2])
        side = note.side.lower().split()[0]
        reader.events.append(Note(who, clean_label(note.text), side))
    elif message := message_line(text):
        reader.events.append(_message(reader, message, text))
    elif word not in _SKIPPED:
        raise DiagramError(f"cannot read {text[:40]!r}")


def _box(reader: _Reader, rest: str) -> None:
    """`box [colour] [title]`: the participants declared until its `end` are grouped."""
    if reader.box >= 0 or reader.depth:
        raise DiagramError("a `box` inside a box or a block")
    first = rest.split()[0] if rest else ""
    if first.lower() in _COLOUR_WORDS or first.startswith("#"):
        rest = rest[len(first) :].strip()
    elif first.lower().startswith(("rgb(", "rgba(", "hsl(", "hsla(")):
        close = rest.find(")")
        rest = rest[close + 1 :].strip() if close >= 0 else ""
    reader.boxes.append(clean_label(rest))
    reader.box = len(reader.boxes) - 1


def _end(reader: _Reader) -> None:
    if reader.depth:
        reader.depth -= 1
        reader.events.append(Section("close"))
    elif reader.box >= 0:
        reader.box = -1
    else:
        raise DiagramError("`end` without a block")


def _autonumber(reader: _Reader, rest: str) -> None:
    """`autonumber` [start [step]] turns numbering on, `autonumber off` off."""
    if rest == "off":
        reader.number = None
        return
    parts = rest.split()
    if len(parts) > 2 or not all(part.isdigit() and len(part) < 7 for part in parts):
        raise DiagramError(f"cannot read 'autonumber {rest[:30]}'")
    reader.number = int(parts[0]) if parts else 1
    reader.step = int(parts[1]) if len(parts) > 1 else 1


def _message(reader: _Reader, line: MessageLine, text: str) -> Message:
    """The message of a line `mermaidlines.message` read, with its activation mark (`+`
    or `-` after the arrow) and its number."""
    head = text[: text.find(":")]
    after = head[head.find(line.arrow, len(line.source)) + len(line.arrow) :].lstrip()
    source, target = reader.meet(line.source), reader.meet(line.target)
    number = reader.number
    if number is not None:
        reader.number = number + reader.step
    arrow = line.arrow.removeprefix("<<")
    return Message(
        source,
        target,
        clean_label(line.text),
        arrow.startswith("--"),
        _HEADS[arrow[-2:]],
        line.arrow.startswith("<<"),
        after.startswith("+"),
        after.startswith("-"),
        number,
    )
