"""Mermaid `timeline` and `journey` sources → their records (gantt charts are in `mermaidgantt`).

A timeline is periods (``2021 : event : event``, and ``: event`` lines that add to the
period above) in optional sections; a user journey is tasks (``Task: score: actor, actor``)
in sections, each scored 1 to 5 by the actors who did it. Both read one line at a time
with `str.partition` and `split` (no pattern sees user input), held to ``MAX_NODES``
periods and events or tasks. ``title`` is read, accessibility lines are skipped, anything
else is a `DiagramError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import DiagramError
from ..mermaid import MAX_NODES, clean_label

_SKIPPED = ("accTitle", "accDescr", "accTitle:", "accDescr:")


@dataclass(frozen=True, slots=True)
class Period:
    label: str
    section: int  # index into `Timeline.sections`; -1 before the first section
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Timeline:
    title: str
    sections: tuple[str, ...]
    periods: tuple[Period, ...]

    def labels(self) -> list[str]:
        out = ([self.title] if self.title else []) + list(self.sections)
        for period in self.periods:
            out.append(period.label)
            out.extend(period.events)
        return out


@dataclass(frozen=True, slots=True)
class Step:
    """A task of a user journey: its score (1 bad .. 5 good) and who did it."""

    label: str
    section: int  # index into `Journey.sections`; -1 before the first section
    score: int
    actors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Journey:
    title: str
    sections: tuple[str, ...]
    steps: tuple[Step, ...]
    actors: tuple[str, ...]  # in order of first appearance: the legend and series colours

    def labels(self) -> list[str]:
        head = ([self.title] if self.title else []) + list(self.sections)
        return head + [s.label for s in self.steps] + list(self.actors)


def _event_parts(text: str) -> list[str]:
    """A timeline line cut at each colon followed by a space (or ending it), as mermaid-js
    cuts it: ``10:30 : stand-up`` is the period ``10:30`` with one event."""
    parts, start = [], 0
    for i, char in enumerate(text):
        if char == ":" and (i + 1 == len(text) or text[i + 1].isspace()):
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _title_or_section(text: str, title: list[str], sections: list[str]) -> bool:
    """Reads a `title` or `section` line; False for any other."""
    word, _, rest = text.partition(" ")
    if word == "title":
        title[:] = [clean_label(rest)]
    elif word == "section":
        sections.append(clean_label(rest))
        if len(sections) > MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} sections")
    else:
        return word in _SKIPPED or word.startswith("accDescr")
    return True


def parse_timeline(lines: list[str]) -> Timeline:
    """The timeline of the source's statements (after its `timeline` line)."""
    title: list[str] = []
    sections: list[str] = []
    periods: list[tuple[str, int, list[str]]] = []
    count = 0
    for line in lines:
        text = line.strip()
        if _title_or_section(text, title, sections):
            continue
        parts = _event_parts(text)
        if parts[0]:
            periods.append((clean_label(parts[0]), len(sections) - 1, []))
        elif not periods:
            raise DiagramError(f"an event before any period: {text[:40]!r}")
        events = [clean_label(p) for p in parts[1:] if p]
        periods[-1][2].extend(events)
        count += 1 + len(events)
        if count > MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} periods and events")
    if not periods:
        raise DiagramError("timeline without periods")
    return Timeline(
        title[0] if title else "",
        tuple(sections),
        tuple(Period(label, section, tuple(events)) for label, section, events in periods),
    )


def parse_journey(lines: list[str]) -> Journey:
    """The user journey of the source's statements (after its `journey` line)."""
    title: list[str] = []
    sections: list[str] = []
    steps: list[Step] = []
    actors: dict[str, None] = {}
    for line in lines:
        text = line.strip()
        if _title_or_section(text, title, sections):
            continue
        label, colon, data = text.partition(":")
        score_text, _, who = data.partition(":")
        if not colon or not label.strip():
            raise DiagramError(f"cannot read {text[:40]!r}: a task is `name: score: actors`")
        score = _score(score_text.strip())
        names = tuple(dict.fromkeys(clean_label(n) for n in who.split(",") if n.strip()))
        actors.update(dict.fromkeys(names))
        steps.append(Step(clean_label(label), len(sections) - 1, score, names))
        if len(steps) > MAX_NODES or len(actors) > MAX_NODES:
            raise DiagramError(f"more than {MAX_NODES} tasks or actors")
    if not steps:
        raise DiagramError("user journey without tasks")
    return Journey(title[0] if title else "", tuple(sections), tuple(steps), tuple(actors))


def _score(text: str) -> int:
    """A task's score, a whole number 1 to 5 as mermaid-js's faces have it."""
    if not text.isdigit() or not 1 <= int(text) <= 5:
        raise DiagramError(f"a journey score is a whole number from 1 to 5, not {text[:10]!r}")
    return int(text)
