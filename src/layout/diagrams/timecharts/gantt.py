"""A gantt record + a label `Measure` → its `Drawing`: a row per task on a date axis.

Drawn for a portrait card: the plot is `PLOT_WIDTH` wide (a card's column at full size), a
section is a header row over its tasks (not mermaid-js's left column of names, which
would take a third of a phone's width), alternate sections on a panel band. Its wide form
(`wide`, for a slide's slot its height binds: under its heading) sets the sections' names
in a column left of a plot `WIDE_PLOT` times wider, as mermaid-js does, a row shorter a
section, its type larger and its rows tighter (`_WIDE`): on a 1600x900 slide the portrait
form stood too tall, was cut into two bands (the title and the first section on one slide,
the axis on the next) and rated 2/5. A task's name sits inside its bar when it fits, else
beside it (right, then left), else parted at a space into two lines inside its bar, else on
a line of its own above the bar: never cut. Colours say the status: a plain task a tint of
the accent, with a strip at its start when its name is beside it; `active` that tint with
the strip along its foot; `crit` a deeper tint of a series colour (two laid over each other);
`done` a grey tint; a milestone a diamond smaller than its name's letters. Every bar is
pale and its name in the text colour: the names tesseract lost were white on a saturated
bar (which its thresholding turns dark), in an outlined box (skipped as a graphic), or next
to a strip or a bar-tall diamond (read as a letter), and a pale bar with dark text reads
best on a phone in sunlight too. Excluded days (weekends) thicken the axis. The axis takes
the smallest step (minutes to years) whose labels do not touch, or the author's
`tickInterval` when its labels do not touch either.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ..marks import (
    LABEL_SIZE,
    MAX_LABEL_WIDTH,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    finish,
    rect_ops,
    tint,
)
from .mermaidgantt import Gantt, Task
from .timefmt import add_months, format_date

PLOT_WIDTH = 360.0  # px: the date axis, about a 440-px card's column
WIDE_PLOT = 1.25  # the wide form's plot, times PLOT_WIDTH: a slide's column less its names
GUTTER_GAP = 12.0  # px between the wide form's section names and the plot
ROW_GAP = 6.0  # px between task rows
NAME_GAP = 5.0  # px between a bar and the name beside it
# px a section's band (its panel) reaches past each end of the plot; a name beside its bar
# may run into it: darktech's and typewriter's mono 真题精读 2016-2023, 5 px too wide for
# either side of its bar, was parted into two lines inside it, a bar twice as tall as its
# neighbours' and its name set apart from theirs (tenth look, eight sets, four sizes).
BAND_EDGE = 6.0
# a milestone's diamond, as a share of a bar's height, and the room between it and its
# name: bar-tall and 5 px off, tesseract read the diamond as a letter and lost the name
# (灰度发布, 立项); smaller than a glyph and a letter-space further off, every milestone
# name of cases 40, 97 and 98 is read in each of its three modes
MILESTONE, MILESTONE_GAP = 0.55, 8.0
TICK_GAP = 14.0  # px at least between two axis labels
STRIP = 3.0  # px: the accent edge at a plain task's start
CRIT = "series1"
SHADED_DAY = 2.0  # px: excluded days are marked where a day is at least this wide


@dataclass(frozen=True, slots=True)
class _Form:
    """How a form sets its rows: the plot's width, the names' and axis labels' size, how
    much taller than its name's line a bar is, and the gap between task rows (px)."""

    plot: float
    size: float
    pad: float
    gap: float


_PORTRAIT = _Form(PLOT_WIDTH, SMALL_SIZE, 6.0, ROW_GAP)
# A slide's: its names at a node label's size in rows as tight as a bar around its name,
# on a plot that leaves the slide's width to the type. The exam plan under its heading on
# a 1600x900 slide is bound by the slide's height as much as by its width; at the portrait
# form's size, pads and gaps on a plot 1.5 times wider its names were 4.9-6.4 px on a
# 360-px phone over the 30 theme-modes (rated "5-6 px" in all 30), now 6.1-8.5.
_WIDE = _Form(PLOT_WIDTH * WIDE_PLOT, LABEL_SIZE, 2.0, 3.0)
# axis steps, smallest first: (unit, count, about how many seconds)
_STEPS = tuple(
    (unit, n, n * seconds)
    for unit, seconds, counts in (
        ("minute", 60, (1, 5, 10, 15, 30)),
        ("hour", 3600, (1, 2, 3, 6, 12)),
        ("day", 86400, (1, 2)),
        ("week", 604800, (1, 2)),
        ("month", 2629800, (1, 3, 6)),
        ("year", 31557600, (1, 2, 5, 10)),
    )
    for n in counts
)


class _Axis:
    """Where a moment falls on the plot, and the ticks the axis shows."""

    def __init__(self, chart: Gantt, measure: Measure, width: float, size: float) -> None:
        self.width = width
        self.first = min(t.start for t in chart.tasks)
        last = max(t.end for t in chart.tasks)
        self.seconds = max((last - self.first).total_seconds(), 3600.0)
        self.last = self.first + timedelta(seconds=self.seconds)
        self.ticks: list[tuple[float, Lines]] = []
        preferred = chart.tick.total_seconds() if chart.tick else 0.0
        for unit, n, seconds in _STEPS:
            if seconds < preferred or self.seconds / seconds > 80:
                continue
            fmt = self._format(chart.axis_format, unit)
            ticks = [(self.x(t), measure(_text(t, fmt), size, False, 200)) for t in
                     self._moments(unit, n)]  # fmt: skip
            if _apart(ticks):
                self.ticks = ticks
                break

    def x(self, moment: datetime) -> float:
        return (moment - self.first).total_seconds() / self.seconds * self.width

    def _format(self, asked: str, unit: str) -> str:
        if asked and format_date(self.first, asked) is not None:
            return asked
        if unit in ("minute", "hour"):
            return "%H:%M" if self.seconds <= 86400 else "%m-%d %H:%M"
        return {"month": "%Y-%m", "year": "%Y"}.get(unit, "%m-%d")

    def _moments(self, unit: str, n: int) -> list[datetime]:
        """The tick moments from the first whole `n` units on, to the chart's end."""
        start = self.first.replace(second=0, microsecond=0)
        if unit == "minute":
            moment = start.replace(minute=start.minute - start.minute % n)
        elif unit == "hour":
            moment = start.replace(minute=0, hour=start.hour - start.hour % n)
        elif unit in ("day", "week"):
            moment = start.replace(minute=0, hour=0)
            if unit == "week":
                moment -= timedelta(days=moment.weekday())  # Mondays
        elif unit == "month":
            moment = start.replace(minute=0, hour=0, day=1)
            moment = add_months(moment, -((moment.month - 1) % n))
        else:
            moment = datetime(max(1, start.year - start.year % n), 1, 1)
        out: list[datetime] = []
        while moment <= self.last:
            if moment >= self.first:
                out.append(moment)
            moment = _next(moment, unit, n)
        return out


def _next(moment: datetime, unit: str, n: int) -> datetime:
    if unit in ("month", "year"):
        return add_months(moment, n * (12 if unit == "year" else 1))
    size = {"minute": 60, "hour": 3600, "day": 86400, "week": 604800}[unit]
    return moment + timedelta(seconds=n * size)


def _text(moment: datetime, fmt: str) -> str:
    return format_date(moment, fmt) or moment.date().isoformat()


def _apart(ticks: list[tuple[float, Lines]]) -> bool:
    """Whether neighbouring tick labels, centred on their ticks, keep `TICK_GAP` apart."""
    return all(
        b[0] - a[0] >= (a[1].width + b[1].width) / 2 + TICK_GAP
        for a, b in itertools.pairwise(ticks)
    )


def layout_gantt(chart: Gantt, measure: Measure, wide: bool = False) -> Drawing:
    """The chart in its portrait form, or (`wide`) its wide one: the module's forms."""
    form = _WIDE if wide else _PORTRAIT
    axis = _Axis(chart, measure, form.plot, form.size)
    bar_h = measure("Ag", form.size, False, 100).height + form.pad
    items: list[Mark | Label] = []
    bands: list[Mark | Label] = []  # alternate sections' panels, under the grid
    grid: list[tuple[float, float]] = []  # the rows' spans the grid lines cross
    most = MAX_LABEL_WIDTH if wide else PLOT_WIDTH - 12  # a column's, or a row's own
    names = [measure(name, form.size, True, most) for name in chart.sections]
    gutter = max((n.width for n in names), default=0.0) + 10 + GUTTER_GAP if wide else 0.0
    y = 0.0
    if chart.title:
        title = measure(chart.title, LABEL_SIZE + 1, True, axis.width + gutter)
        items.append(Label(title, (axis.width - gutter) / 2, 0.0))
        y = title.height + 10
    for index, name in enumerate(chart.sections):
        tasks = [t for t in chart.tasks if t.section == index]
        ground = "panel" if index % 2 else "page"
        top = y
        if name and wide:
            _section_mark(items, names[index], index, -gutter, y)
        elif name:
            y = _section_mark(items, names[index], index, 0.0, y) + 8
        body = y
        for task in tasks:
            y = _task(items, measure, axis, task, (y, bar_h, form.size), ground) + form.gap
        y = max(y, top + names[index].height + 8) if wide and name else y
        grid.append((body, y))
        if ground == "panel":
            panel = rect_ops(
                -BAND_EDGE - gutter, top, axis.width + 2 * BAND_EDGE + gutter, y - top, 4
            )
            bands.append(Mark(panel, None, "panel"))
        y += 2
    lines = _axis_marks(axis, grid, y) + _excluded(chart, axis, y)
    drawn = bands + lines + items + _tick_labels(axis, y)
    return replace(finish(drawn, "\n".join(chart.labels())), tall=not wide)


def _section_mark(items: list[Mark | Label], text: Lines, index: int, x: float, y: float) -> float:
    """A section's name from (`x`, `y`) after a short bar in the accent, the plain bars'
    colour: on a row of its own, or in the wide form's column; where its row ends. (A mark
    in each section's series colour over bars all of the accent read as a key that keys
    nothing: the exam plan's 阅读, 写作, 模考; the critical bars keep a series colour.)"""
    items.append(Mark(rect_ops(x, y + 6, 4, text.height - 4, 2), None, "accent"))
    items.append(Label(text, x + 10, y + 4, "text", "left"))
    return y + text.height


def _task(
    items: list[Mark | Label],
    measure: Measure,
    axis: _Axis,
    task: Task,
    row_at: tuple[float, float, float],
    ground: str,
) -> float:
    """A task's bar (or diamond) and name from `y` (`row_at`: with the bar's height and
    the name's size); where the row ends."""
    y, bar_h, size = row_at
    text = measure(task.name, size, False, min(axis.width, MAX_LABEL_WIDTH * 1.6))
    x0, x1 = axis.x(task.start), axis.x(task.end)
    milestone = "milestone" in task.tags
    if milestone:
        x0, x1 = x0 - MILESTONE * bar_h / 2, x0 + MILESTONE * bar_h / 2
    elif x1 - x0 < 2:
        x1 = x0 + 2
    fill, deep = _roles(task.tags)
    inside = not milestone and len(text.lines) == 1 and text.width + 12 <= x1 - x0
    beside = _beside(x0, x1, text.width, MILESTONE_GAP if milestone else NAME_GAP, axis.width)
    if not (inside or milestone or beside is not None):
        wrapped = _in_two_lines(measure, task.name, size, x1 - x0)
        if wrapped is not None:  # the bar a line taller, its name inside
            bar_h += wrapped.height - text.height
            text, inside = wrapped, True
    if inside or beside is not None:
        row = max(bar_h, text.height)
        bar_y = y + (row - bar_h) / 2
        text_y = y + (row - text.height) / 2
    else:  # a line of its own above the bar
        row = text.height + 2 + bar_h
        bar_y, text_y = y + text.height + 2, y
    left = beside if beside is not None else min(max(x0, 0.0), axis.width - text.width)
    if milestone:
        mid, half, middle = (x0 + x1) / 2, (x1 - x0) / 2, bar_y + bar_h / 2
        diamond: tuple[Op, ...] = (
            ("M", mid, middle - half),
            ("L", x1, middle),
            ("L", mid, middle + half),
            ("L", x0, middle),
            ("Z",),
        )
        items.append(Mark(diamond, None, CRIT if "crit" in task.tags else "accent"))
    else:
        bar = rect_ops(x0, bar_y, x1 - x0, bar_h, 3)
        if fill.startswith("tint:"):  # a see-through tint: over the band, not the grid
            items.append(Mark(bar, None, "page"))
            items.extend([Mark(bar, None, ground)] if ground != "page" else [])
        items.extend([Mark(bar, None, fill)] * (2 if deep else 1))
        if "active" in task.tags and "crit" not in task.tags:
            foot = rect_ops(x0, bar_y + bar_h - STRIP, x1 - x0, STRIP, 1.5)
            items.append(Mark(foot, None, "accent"))
        elif fill == tint("accent") and x1 - x0 > 3 * STRIP and not inside:
            items.append(Mark(rect_ops(x0, bar_y, STRIP, bar_h, 1.5), None, "accent"))
    if inside:
        items.append(Label(text, (x0 + x1) / 2, text_y, "text"))
        return y + row
    chip = rect_ops(left - 2, text_y, text.width + 4, text.height, 2)
    items.append(Mark(chip, None, "page"))  # over the grid lines, as the band's ground
    if ground != "page":
        items.append(Mark(chip, None, ground))
    items.append(Label(text, left, text_y, "text", "left"))
    return y + row


def _in_two_lines(measure: Measure, name: str, size: float, bar: float) -> Lines | None:
    """A `name` that neither its bar (`bar` px wide) nor either side of it holds on one
    line, parted at a space into the two lines its bar holds, the narrowest such; None
    where none fits. Set on a line above its bar, a name read as the row above's:
    darktech's mono 真题精读 2016-2023 between the first task's bar and its own (the exam
    plan at 500 and 1080 px). At a space only: wrapped as a label is, it parted 2016- / 2023."""
    words = name.split(" ")
    parted = [
        measure(" ".join(words[:cut]) + "\n" + " ".join(words[cut:]), size, False, bar)
        for cut in range(1, len(words))
    ]
    fits = [lines for lines in parted if len(lines.lines) == 2 and lines.width + 12 <= bar]
    return min(fits, key=lambda lines: lines.width, default=None)


def _beside(x0: float, x1: float, width: float, gap: float, plot: float) -> float | None:
    """Where a name `width` wide starts `gap` beside its bar: right of it, else left of it;
    None when neither side of the plot (`plot` wide, and `BAND_EDGE` past its ends)
    holds it."""
    if x1 + gap + width <= plot + BAND_EDGE:
        return x1 + gap
    if x0 - gap - width >= -BAND_EDGE:
        return x0 - gap - width
    return None


def _roles(tags: frozenset[str]) -> tuple[str, bool]:
    """A bar's fill, and whether it is laid twice (deeper), by status."""
    crit = "crit" in tags
    if "done" in tags:
        return (tint(CRIT) if crit else tint("line")), False
    if crit:
        return tint(CRIT), True
    return tint("accent"), False


def _excluded(chart: Gantt, axis: _Axis, bottom: float) -> list[Mark | Label]:
    """The excluded days (`excludes weekends`) as a thicker stretch of the axis, where a
    day is at least `SHADED_DAY` px wide: mermaid-js shades them through the rows, which
    on a card reads as one more grey bar beside the `done` ones."""
    if not chart.excluded or axis.x(axis.first + timedelta(days=1)) < SHADED_DAY:
        return []
    out: list[Mark | Label] = []
    for start, end in chart.excluded:
        x0, x1 = max(axis.x(start), 0.0), min(axis.x(end), axis.width)
        out.append(Mark(rect_ops(x0, bottom - 4, x1 - x0, 4), None, "line"))
    return out


def _axis_marks(axis: _Axis, grid: list[tuple[float, float]], bottom: float) -> list[Mark | Label]:
    """The grid lines at the ticks through the sections' rows, and the axis line below."""
    out: list[Mark | Label] = []
    for x, _ in axis.ticks:
        ops: list[Op] = []
        for top, end in grid:
            ops += [("M", x, top), ("L", x, end)]
        ops += [("M", x, bottom), ("L", x, bottom + 5)]
        out.append(Mark(tuple(ops), "border", None, 1.0))
    out.append(Mark((("M", 0.0, bottom), ("L", axis.width, bottom)), "line", None, 1.0))
    return out


def _tick_labels(axis: _Axis, bottom: float) -> list[Mark | Label]:
    return [Label(text, x, bottom + 7, "muted") for x, text in axis.ticks]
