"""An xy chart record + a label `Measure` → its `Drawing`: bars and lines over categories
against a value axis with round ticks, upright or (`horizontal`) lying.

The layout runs along two axes, whatever the orientation: the category axis (a band per
category, bars of several series side by side in it, a line's points at its middle) and the
value axis (ticks at 1, 2 or 5 x 10^k, faint gridlines). `_Frame.at` turns (category, value)
positions into x and y, so upright and lying charts share every step. Category names never
overprint one another: upright ones wrap into their band in at most two lines, and where a
band is too narrow for that, only every k-th category is named (as a dense month axis is
read). Unlike mermaid-js, a chart of several series has a legend, and bars start at zero.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

from ..marks import (
    LABEL_SIZE,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    circle_ops,
    finish,
    rect_ops,
)
from .mermaidcharts import XYChart
from .quadrant import box_of

UPRIGHT_LENGTH = 310.0  # px: the category axis of an upright chart, at most
BAND_MIN = 48.0  # px: ... at least this per category up to that length
VALUE_LENGTH = 220.0  # px: an upright chart's value axis; a lying chart's is `LYING_VALUE`
LYING_VALUE = 260.0
LYING_MAX = 440.0  # px: a lying chart's category axis, at most
LYING_NAMES = 96.0  # px: a lying chart's category names wrap at this width
TICKS = 7  # intervals between value ticks, at most
MAX_DECIMALS = 6
BAR_SHARE = 0.72  # of a band, its bars take
NAME_LINES = 2  # an upright category name wraps into at most this many lines
GAP = 6.0  # px between the plot and its tick and category names
NAME_GAP = 6.0  # px at least between two category names (less reads as one word in CJK)
TICK = 4.0  # px: a tick mark's length
DOT = 3.0  # px: a line's point marker
MARKER_BAND = 14.0  # px: a line's points get markers where categories are this far apart


@dataclass(frozen=True, slots=True)
class _Frame:
    """The plot's box: `band` px per category along the category axis, `length` px of value
    axis for `low`..`high`; lying charts run the categories down and the values across."""

    lying: bool
    band: float
    count: int
    length: float
    low: float
    high: float

    def along(self, value: float) -> float:
        share = (value - self.low) / (self.high - self.low)
        return share * self.length if self.lying else (1 - share) * self.length

    def at(self, category: float, value: float) -> tuple[float, float]:
        """The point at `category` bands along and `value` up (lying: across)."""
        c = category * self.band
        return (self.along(value), c) if self.lying else (c, self.along(value))

    @property
    def size(self) -> tuple[float, float]:
        c = self.count * self.band
        return (self.length, c) if self.lying else (c, self.length)


def layout_xychart(chart: XYChart, measure: Measure) -> Drawing:
    """Axes, gridlines, bars, lines, names, title and (several series) a legend."""
    count = len(chart.series[0].values)
    names = _category_names(chart, count)
    values = [v for s in chart.series for v in s.values]
    low, high, step = value_range(values, chart.y_range, any(s.kind == "bar" for s in chart.series))
    staggered = False
    if chart.horizontal:
        band, shown = _lying_bands(names, measure, chart)
        frame = _Frame(True, band, count, LYING_VALUE, low, high)
    else:
        length = min(UPRIGHT_LENGTH, max(160.0, count * BAND_MIN))
        shown, staggered = _upright_names(names, measure, length / count)
        if (len(shown) < count or staggered) and length < UPRIGHT_LENGTH:  # wider, first
            length = UPRIGHT_LENGTH
            shown, staggered = _upright_names(names, measure, length / count)
        frame = _Frame(False, length / count, count, VALUE_LENGTH, low, high)
    items: list[Mark | Label] = _grid(frame, measure, step)
    items += _series_marks(chart, frame)
    items += _category_labels(frame, shown, staggered)
    items += _titles(chart, frame, measure, items)
    return finish(items, "\n".join(chart.labels()))


def _category_names(chart: XYChart, count: int) -> list[str]:
    if chart.categories:
        return list(chart.categories)
    low, high = chart.x_range or (1.0, float(count))
    if count == 1:
        return [format_number(low, 2)]
    return [format_number(low + i * (high - low) / (count - 1), 2) for i in range(count)]


def value_range(
    values: list[float], given: tuple[float, float] | None, bars: bool
) -> tuple[float, float, float]:
    """The value axis's ends and its tick step (1, 2 or 5 x 10^k): the author's range
    widened to hold every value, or the values' own rounded out to whole steps (and to
    zero when there are bars: a bar's length is its value)."""
    low, high = min(values), max(values)
    if given:
        low, high = min(low, given[0]), max(high, given[1])
    elif bars:
        low, high = min(low, 0.0), max(high, 0.0)
    if high - low < 1e-9 * max(1.0, abs(high)):
        low, high = low - 1, high + 1
    step = nice_step(high - low)
    if not given:
        low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    return low, high, step


def nice_step(span: float) -> float:
    """The least round step (1, 2 or 5 x 10^k) that cuts `span` into at most `TICKS` parts."""
    raw = span / TICKS
    magnitude = 10.0 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw * 0.999)


def format_number(value: float, decimals: int) -> str:
    """`value` with at most `decimals` decimals, no trailing zeros, thousands grouped."""
    text = f"{value:,.{max(0, min(decimals, MAX_DECIMALS))}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _ticks(frame: _Frame, step: float) -> list[float]:
    first = math.ceil(frame.low / step - 1e-9)
    last = math.floor(frame.high / step + 1e-9)
    return [k * step for k in range(first, last + 1)]


def _grid(frame: _Frame, measure: Measure, step: float) -> list[Mark | Label]:
    """Faint gridlines and tick names at the value ticks; the two axis lines."""
    width, height = frame.size
    decimals = max(0, -math.floor(math.log10(step)))
    out: list[Mark | Label] = []
    last_end = -math.inf
    for value in _ticks(frame, step):
        text = measure(format_number(value, decimals), SMALL_SIZE, False, 200.0)
        if frame.lying:
            x = frame.along(value)
            out.append(Mark((("M", x, 0.0), ("L", x, height)), "border", None, 1.0))
            if x - text.width / 2 >= last_end + 4:  # tick names never touch
                out.append(Label(text, x, height + GAP, "muted"))
                last_end = x + text.width / 2
        else:
            y = frame.along(value)
            out.append(Mark((("M", 0.0, y), ("L", width, y)), "border", None, 1.0))
            out.append(Label(text, -GAP - text.width / 2, y - text.height / 2, "muted"))
    out.append(Mark((("M", 0.0, 0.0), ("L", 0.0, height), ("L", width, height)), "line", None, 1.2))
    if frame.low < 0 < frame.high:  # where bars start: firmer than a gridline
        start, end = frame.at(0, 0.0), frame.at(frame.count, 0.0)
        out.append(Mark((("M", *start), ("L", *end)), "line", None, 1.0))
    dx, dy = (-TICK, 0.0) if frame.lying else (0.0, TICK)
    marks: list[Op] = []
    for x, y in (frame.at(c + 0.5, frame.low) for c in range(frame.count)):
        marks += [("M", x, y), ("L", x + dx, y + dy)]
    out.append(Mark(tuple(marks), "line", None, 1.2))
    return out


def _series_marks(chart: XYChart, frame: _Frame) -> list[Mark | Label]:
    """Bars first (side by side in each band), then lines with a dot at each value (where
    the values are `MARKER_BAND` apart or more)."""
    bars = [(i, s) for i, s in enumerate(chart.series) if s.kind == "bar"]
    base = min(max(0.0, frame.low), frame.high)
    group = BAR_SHARE * frame.band
    thick = max(1.0, group / max(1, len(bars)))
    out: list[Mark | Label] = []
    for slot, (index, series) in enumerate(bars):
        for c, value in enumerate(series.values):
            start = c + 0.5 + (slot * thick - group / 2) / frame.band
            x0, y0 = frame.at(start, base)
            x1, y1 = frame.at(start + thick / frame.band, value)
            left, top = min(x0, x1), min(y0, y1)
            ops = rect_ops(left, top, max(abs(x1 - x0), 0.5), max(abs(y1 - y0), 0.5))
            out.append(Mark(ops, None, f"series{index}"))
    for index, series in enumerate(chart.series):
        if series.kind != "line":
            continue
        points = [frame.at(c + 0.5, v) for c, v in enumerate(series.values)]
        path = (("M", *points[0]), *(("L", *p) for p in points[1:]))
        out.append(Mark(path, f"series{index}", None, 2.0))
        if frame.band >= MARKER_BAND:  # denser, the dots would merge into a bead chain
            out.extend(Mark(circle_ops(x, y, DOT), None, f"series{index}") for x, y in points)
    return out


def _upright_names(
    names: list[str], measure: Measure, band: float
) -> tuple[dict[int, Lines], bool]:
    """Every category's name in its band in at most `NAME_LINES` lines; else every name on
    one line in two staggered rows (each then has two bands' room: a month axis keeps all
    twelve, where every other one was left out and OCR, like a reader, missed them); else
    every k-th name, for the least k whose names fit in k bands. True: staggered."""
    count = len(names)
    for k in range(1, count + 1):
        room = k * band - NAME_GAP
        shown = {i: measure(n, SMALL_SIZE, False, room) for i, n in enumerate(names) if i % k == 0}
        if all(_fits(names[i], t, room) for i, t in shown.items()):
            return shown, False
        if k == 1 and count > 2:
            wide = 2 * band - NAME_GAP
            rows = {i: measure(n, SMALL_SIZE, False, wide) for i, n in enumerate(names)}
            if all(len(t.lines) == 1 and _fits(names[i], t, wide) for i, t in rows.items()):
                return rows, True
    return {0: measure(names[0], SMALL_SIZE, False, count * band)}, False


def _fits(name: str, text: Lines, room: float) -> bool:
    """Whether a name set within `room` px keeps to `NAME_LINES` lines and whole words
    (a Latin word broken across lines, "ma / r", reads as two)."""
    return (
        text.width <= room + 0.5 and len(text.lines) <= NAME_LINES and not _breaks_word(name, text)
    )


def _breaks_word(name: str, text: Lines) -> bool:
    """Whether some line of `text` ends inside a word of `name` (not at a space, and
    between two letters of a script that puts spaces between its words)."""
    pos = 0
    for line in text.lines[:-1]:
        found = name.find(line, pos)
        if found < 0:
            return False  # not read back from the name: judged by width alone
        pos = found + len(line)
        if pos < len(name) and _inside_word(name[pos - 1], name[pos]):
            return True
    return False


def _inside_word(before: str, after: str) -> bool:
    return all(
        c.isalnum() and unicodedata.east_asian_width(c) not in ("W", "F") for c in (before, after)
    )


def _lying_bands(
    names: list[str], measure: Measure, chart: XYChart
) -> tuple[float, dict[int, Lines]]:
    """A lying chart's band (tall enough for its names and bars, within `LYING_MAX` in all)
    and the names shown: every k-th where the bands are too thin for all."""
    texts = [measure(n, SMALL_SIZE, False, LYING_NAMES) for n in names]
    bars = sum(s.kind == "bar" for s in chart.series)
    band = max(22.0, bars * 10.0 + 8, *(t.height + NAME_GAP for t in texts))
    band = min(band, LYING_MAX / len(names))
    k = 1
    while k < len(names) and any(t.height + NAME_GAP > k * band + 0.01 for t in texts[::k]):
        k += 1
    return band, {i: texts[i] for i in range(0, len(names), k)}


def _category_labels(
    frame: _Frame, shown: dict[int, Lines], staggered: bool = False
) -> list[Mark | Label]:
    """The names at their bands' middles, pulled inside the axis's ends, each kept only when
    clear of the one before it in its row (`staggered`: odd ones in a second row)."""
    height = frame.size[1]
    out: list[Mark | Label] = []
    ends = [-math.inf, -math.inf]
    below = max((t.height for t in shown.values()), default=0.0) + 2.0
    for index, text in sorted(shown.items()):
        row = index % 2 if staggered else 0
        middle = (index + 0.5) * frame.band
        extent = text.height if frame.lying else text.width
        start = min(max(middle - extent / 2, 0.0), frame.count * frame.band - extent)
        if start < ends[row] + NAME_GAP - 0.01:
            continue
        ends[row] = start + extent
        if frame.lying:
            out.append(Label(text, -GAP - TICK - text.width / 2, start))
        else:
            out.append(Label(text, start + extent / 2, height + GAP + 4 + row * below))
    return out


def _titles(
    chart: XYChart, frame: _Frame, measure: Measure, items: list[Mark | Label]
) -> list[Mark | Label]:
    """The axis titles (the left axis's above its names, the bottom axis's under its names),
    a legend under them when there are several series and some has a name (untitled ones
    are then called "bar 1", "line 1"), and the chart's title on top."""
    width, _ = frame.size
    boxes = [box_of(i) for i in items if isinstance(i, Label)]
    left = min([0.0, *(b[0] for b in boxes)])
    bottom = max([frame.size[1], *(b[3] for b in boxes)])
    left_title, bottom_title = (
        (chart.x_title, chart.y_title) if frame.lying else (chart.y_title, chart.x_title)
    )
    out: list[Mark | Label] = []
    top = -10.0
    if left_title:
        text = measure(left_title, SMALL_SIZE, True, width - left)
        top -= text.height
        out.append(Label(text, left, top, "text", "left"))
        top -= 6
    if bottom_title:
        text = measure(bottom_title, SMALL_SIZE, True, width)
        out.append(Label(text, width / 2, bottom + 6))
        bottom += 6 + text.height
    if len(chart.series) > 1 and any(s.title for s in chart.series):
        out += _legend(chart, measure, left, bottom + 10, width - left)
    if chart.title:
        text = measure(chart.title, LABEL_SIZE + 1, True, width - left)
        out.append(Label(text, (left + width) / 2, top - text.height - 4))
    return out


def _legend(
    chart: XYChart, measure: Measure, left: float, top: float, room: float
) -> list[Mark | Label]:
    """A swatch (a square for bars, a line with a dot for lines) and a name per series, in
    rows as wide as the chart."""
    out: list[Mark | Label] = []
    x, y, row = left, top, 0.0
    counts = {"bar": 0, "line": 0}
    for index, series in enumerate(chart.series):
        counts[series.kind] += 1
        name = series.title or f"{series.kind} {counts[series.kind]}"
        text = measure(name, SMALL_SIZE, False, room - 24)
        need = 22 + text.width
        if x > left and x + need > left + room:
            x, y, row = left, y + row + 4, 0.0
        middle, role = y + text.height / 2, f"series{index}"
        if series.kind == "bar":
            out.append(Mark(rect_ops(x, middle - 5, 10, 10, 2), None, role))
        else:
            out.append(Mark((("M", x - 2, middle), ("L", x + 12, middle)), role, None, 2.0))
            out.append(Mark(circle_ops(x + 5, middle, DOT), None, role))
        out.append(Label(text, x + 18, y, "text", "left"))
        x, row = x + need + 14, max(row, text.height)
    return out
