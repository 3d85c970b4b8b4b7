"""A Mermaid `gantt` source → a `Gantt` record: sections of tasks with their start and end.

We read what people write: ``title``, ``dateFormat``, ``axisFormat``, ``tickInterval``,
``excludes`` (weekends, weekday names, dates: a task given a duration grows past them, as
mermaid-js does), ``inclusiveEndDates``, ``section``, and tasks
``name : [crit, active, done, milestone,] [id,] start | after a [b], end | duration | until a``.
``todayMarker``, ``topAxis``, ``displayMode``, ``weekday``, ``click`` and the accessibility
lines are read and ignored. A task may start after one written below it: starts are
resolved in passes, at most one per task (``MAX_NODES`` tasks: bounded). The chart's span is
held to `MAX_SPAN_DAYS`, so its axis stays small, and the days looked at to skip excluded
ones to `MAX_SKIP_STEPS` in all (counted steps: the same answer on every machine).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ...errors import DiagramError
from ..mermaid import MAX_NODES, clean_label
from .timefmt import duration_after, format_tokens, is_excluded, parse_date

MAX_SPAN_DAYS = 3660  # about ten years: a chart's first start to its last end
MAX_SKIP_STEPS = 64_000  # days looked at, over all tasks, for `excludes` (~0.1 s)
TAGS = ("active", "done", "crit", "milestone", "vert")
_IGNORED = ("todayMarker", "topAxis", "displayMode", "weekday", "weekend", "click", "accTitle")
_SETTINGS = ("title", "dateFormat", "axisFormat", "tickInterval", "excludes", "includes")
_TICK_UNITS = {"millisecond": 0.001, "second": 1, "minute": 60, "hour": 3600, "day": 86400}
_TICK_UNITS |= {"week": 604800, "month": 2629800}


@dataclass(frozen=True, slots=True)
class Task:
    name: str
    section: int  # index into `Gantt.sections`
    start: datetime
    end: datetime
    tags: frozenset[str]  # active, done, crit, milestone


@dataclass(frozen=True, slots=True)
class Gantt:
    title: str
    sections: tuple[str, ...]  # "" for the tasks above the first `section`
    tasks: tuple[Task, ...]
    axis_format: str = ""  # d3's `%` directives; "" for our default
    tick: timedelta | None = None  # `tickInterval`, the step the axis prefers
    excluded: tuple[tuple[datetime, datetime], ...] = ()  # runs of excluded days, shaded

    def labels(self) -> list[str]:
        head = [self.title] if self.title else []
        return head + [s for s in self.sections if s] + [t.name for t in self.tasks]


@dataclass
class _Draft:
    """A task as written, before its start and end are known."""

    name: str
    section: int
    tags: frozenset[str]
    id: str
    start: str  # "" = after the task above it
    end: str


def parse_gantt(lines: list[str]) -> Gantt:
    """The gantt chart of the source's statements (after its `gantt` line)."""
    settings: dict[str, str] = {"dateFormat": "YYYY-MM-DD"}
    sections: list[str] = [""]
    drafts: list[_Draft] = []
    skipping = False  # inside an `accDescr { ... }` block
    for line in lines:
        text = line.strip()
        word, _, rest = text.partition(" ")
        if skipping or word.rstrip(":{") == "accDescr":
            skipping = ("{" in text or skipping) and "}" not in text
        elif word == "inclusiveEndDates":
            settings[word] = "yes"
        elif word in _SETTINGS and rest.strip():
            settings[word] = rest.strip()
        elif word == "section":
            sections.append(clean_label(rest))
        elif word.rstrip(":") in _IGNORED:
            continue
        else:
            drafts.append(_draft(text, len(sections) - 1, len(drafts)))
            if len(drafts) > MAX_NODES:
                raise DiagramError(f"more than {MAX_NODES} tasks")
    if not drafts:
        raise DiagramError("gantt chart without tasks")
    resolver = _Resolver(drafts, settings)
    tasks = resolver.tasks()
    used = sorted({t.section for t in tasks})
    renumber = {old: new for new, old in enumerate(used)}
    tasks = [Task(t.name, renumber[t.section], t.start, t.end, t.tags) for t in tasks]
    return Gantt(
        clean_label(settings.get("title", "")),
        tuple(sections[i] for i in used),
        tuple(tasks),
        settings.get("axisFormat", ""),
        _tick(settings.get("tickInterval", "")),
        resolver.excluded_runs(min(t.start for t in tasks), max(t.end for t in tasks)),
    )


def _draft(text: str, section: int, index: int) -> _Draft:
    name, colon, data = text.partition(":")
    if not colon:
        raise DiagramError(f"cannot read {text[:40]!r}: a task is `name : start, end`")
    parts = [p.strip() for p in data.split(",")]
    tags = set()
    while len(parts) > 1 and parts[0] in TAGS:
        tags.add(parts.pop(0))
    if parts and parts[0] in TAGS:  # `name : milestone` alone
        tags.add(parts.pop(0))
    if len(parts) > 3 or not parts or not parts[-1]:
        raise DiagramError(f"cannot read the task {text[:40]!r}")
    ident = parts[0] if len(parts) == 3 else f"\0task{index}"
    start = parts[-2] if len(parts) >= 2 else ""
    if "vert" in tags:
        tags = (tags - {"vert"}) | {"milestone"}
    return _Draft(clean_label(name), section, frozenset(tags), ident, start, parts[-1])


def _tick(text: str) -> timedelta | None:
    """`tickInterval` (``1day``, ``2week``, ``6hour``): the step, or None."""
    digits = len(text) - len(text.lstrip("0123456789"))
    unit = text[digits:].strip()
    if not digits or unit not in _TICK_UNITS:
        return None
    return timedelta(seconds=int(text[:digits]) * _TICK_UNITS[unit])


class _Resolver:
    """Starts and ends of the drafts, in passes: each pass settles every task whose
    references are settled; a pass that settles none means a loop or an unknown id."""

    def __init__(self, drafts: list[_Draft], settings: dict[str, str]) -> None:
        self.drafts = drafts
        self.tokens = format_tokens(settings["dateFormat"].strip("\"'"))
        excluded = settings.get("excludes", "").lower().replace(",", " ").split()
        self.excludes = frozenset(excluded)
        self.inclusive = "inclusiveEndDates" in settings
        self.ids = {d.id: i for i, d in enumerate(drafts)}
        self.spans: dict[int, tuple[datetime, datetime]] = {}
        self.skip_steps = 0

    def tasks(self) -> list[Task]:
        pending = list(range(len(self.drafts)))
        while pending:
            left = [i for i in pending if not self._settle(i)]
            if len(left) == len(pending):
                draft = self.drafts[left[0]]
                raise DiagramError(f"task {draft.name[:30]!r} starts after a task never settled")
            pending = left
        first = min(s for s, _ in self.spans.values())
        last = max(e for _, e in self.spans.values())
        if first.year < 2 or last.year > 9997:  # the axis steps a year either way
            raise DiagramError("gantt dates must fall between the years 2 and 9997")
        if last - first > timedelta(days=MAX_SPAN_DAYS):
            raise DiagramError(f"gantt chart spans more than {MAX_SPAN_DAYS:,} days")
        out = []
        for i, d in enumerate(self.drafts):
            start, end = self.spans[i]
            out.append(Task(d.name, d.section, start, end, d.tags))
        return out

    def excluded_runs(
        self, first: datetime, last: datetime
    ) -> tuple[tuple[datetime, datetime], ...]:
        """The excluded days from `first` to `last` (at most `MAX_SPAN_DAYS`), as runs of
        whole days (a weekend is one run)."""
        runs: list[tuple[datetime, datetime]] = []
        day = first.replace(hour=0, minute=0, second=0, microsecond=0)
        while self.excludes and day < last:
            after = day + timedelta(days=1)
            if is_excluded(day, self.excludes):
                if runs and runs[-1][1] == day:
                    runs[-1] = (runs[-1][0], after)
                else:
                    runs.append((day, after))
            day = after
        return tuple(runs)

    def _settle(self, index: int) -> bool:
        draft = self.drafts[index]
        start = self._start(index, draft.start)
        if start is None:
            return False
        end = self._end(draft, start)
        if end is None:
            return False
        if end < start:
            raise DiagramError(f"task {draft.name[:30]!r} ends before it starts")
        self.spans[index] = (start, end)
        return True

    def _start(self, index: int, text: str) -> datetime | None:
        if not text:
            if index == 0:
                raise DiagramError("the first task needs a start date")
            return self.spans[index - 1][1] if index - 1 in self.spans else None
        if text.startswith("after "):
            ends = [self._known(ident, 1) for ident in text[6:].split()]
            return None if None in ends else max(e for e in ends if e)
        return parse_date(text, self.tokens)

    def _end(self, draft: _Draft, start: datetime) -> datetime | None:
        text = draft.end
        if text.startswith("until "):
            starts = [self._known(ident, 0) for ident in text[6:].split()]
            return None if None in starts else min(s for s in starts if s)
        moved = duration_after(start, text)
        if moved is None:
            end = parse_date(text, self.tokens)
            return end + timedelta(days=1) if self.inclusive else end
        return self._past_excluded(start, moved) if self.excludes else moved

    def _known(self, ident: str, which: int) -> datetime | None:
        if ident not in self.ids:
            raise DiagramError(f"no task with the id {ident[:30]!r}")
        span = self.spans.get(self.ids[ident])
        return span[which] if span else None

    def _past_excluded(self, start: datetime, end: datetime) -> datetime:
        """The end moved a day later for each excluded day from `start` on (mermaid-js's
        rule): a task of 5d over a weekend ends after 7 days."""
        day, steps = start, 0
        while day < end:
            if is_excluded(day, self.excludes):
                end += timedelta(days=1)
            day += timedelta(days=1)
            steps += 1
            if steps > MAX_SPAN_DAYS:
                raise DiagramError(f"gantt chart spans more than {MAX_SPAN_DAYS:,} days")
        self.skip_steps += steps
        if self.skip_steps > MAX_SKIP_STEPS:
            raise DiagramError("too many task days to skip excluded days in: shorten the tasks")
        return end
