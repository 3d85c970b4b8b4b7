"""Mermaid `quadrantChart` and `xychart-beta` source → chart records (laid out in `charts`).

A quadrant chart is four named quadrants and points in the unit square; an xy chart is
bars and lines over categories (or a numeric x range) against a value axis. Both are read
line by line with `str.partition`/`split` (no pattern sees the source), and bounded before
any layout: `MAX_POINTS` points, `MAX_SERIES` series of at most `MAX_VALUES` values. A
label is at most `MAX_LABEL` characters (`clean_label`). A point's styling is drawn as
mermaid-js draws it (`PointLook`): `radius:`, `color:` (its fill), `stroke-color:` and
`stroke-width:` after its coordinates, and a `classDef` named with `:::class`, the point's
own values over its class's; colours are read as a flowchart's are
(`flow.style.opaque_colour`), and a value no browser would take is dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ...errors import DiagramError
from ..flow.style import opaque_colour
from ..mermaid import clean_label

MAX_POINTS = 60  # points of one quadrant chart: more cannot all be named legibly
MAX_SERIES = 8  # bar and line series of one xy chart: one colour role each
MAX_VALUES = 100  # values of one series, and categories of the x axis
MAX_MAGNITUDE = 1e15  # a value's size past which an axis's ticks cannot be told apart
MAX_RADIUS = 15.0  # px: the largest dot an author's `radius:` draws (a larger one hides names)
MAX_STROKE = 8.0  # px: the widest ring an author's `stroke-width:` draws
MAX_CLASSES = 100  # classDefs of one quadrant chart
_POINT_STYLES = ("radius", "color", "stroke-color", "stroke-width")
_SKIPPED = ("accTitle", "accDescr")


@dataclass(frozen=True, slots=True)
class PointLook:
    """What an author set on a quadrant point's dot; None: the theme's."""

    radius: float | None = None  # px
    fill: str | None = None  # `color:`, #rrggbb
    stroke: str | None = None  # `stroke-color:`, #rrggbb
    stroke_width: float | None = None  # px

    def over(self, base: PointLook) -> PointLook:
        """This look with `base`'s values where this one sets none."""
        return PointLook(
            base.radius if self.radius is None else self.radius,
            base.fill if self.fill is None else self.fill,
            base.stroke if self.stroke is None else self.stroke,
            base.stroke_width if self.stroke_width is None else self.stroke_width,
        )


@dataclass(frozen=True, slots=True)
class QuadrantPoint:
    label: str
    x: float  # 0..1, left to right
    y: float  # 0..1, bottom to top
    look: PointLook = PointLook()


@dataclass(frozen=True, slots=True)
class Quadrant:
    title: str
    x_axis: tuple[str, str]  # (low end, high end); "" where not given
    y_axis: tuple[str, str]
    quadrants: tuple[str, str, str, str]  # quadrant-1 (top right) .. quadrant-4 (bottom right)
    points: tuple[QuadrantPoint, ...]

    def labels(self) -> list[str]:
        texts = [self.title, *self.x_axis, *self.y_axis, *self.quadrants]
        return [t for t in texts if t] + [p.label for p in self.points if p.label]


@dataclass(frozen=True, slots=True)
class Series:
    kind: str  # bar, line
    title: str
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class XYChart:
    title: str
    horizontal: bool
    x_title: str
    categories: tuple[str, ...]  # empty: a numeric x axis from x_range
    x_range: tuple[float, float] | None  # the numeric x axis's ends (None: 1..n)
    y_title: str
    y_range: tuple[float, float] | None  # None: from the data
    series: tuple[Series, ...]

    def labels(self) -> list[str]:
        texts = [self.title, self.x_title, self.y_title, *self.categories]
        return [t for t in texts if t] + [s.title for s in self.series if s.title]


def parse_quadrant(lines: list[str]) -> Quadrant:
    """quadrantChart: title, x-axis, y-axis, quadrant-1..4, `classDef`s and `Name: [x, y]`
    points."""
    title, x_axis, y_axis = "", ("", ""), ("", "")
    quadrants = ["", "", "", ""]
    points: list[tuple[QuadrantPoint, str]] = []  # each point and its class's name
    classes: dict[str, PointLook] = {}
    for line in lines[1:]:
        text = line.strip()
        word, _, rest = text.partition(" ")
        if word == "title":
            title = clean_label(rest)
        elif word == "x-axis":
            x_axis = _axis_ends(rest)
        elif word == "y-axis":
            y_axis = _axis_ends(rest)
        elif word in ("quadrant-1", "quadrant-2", "quadrant-3", "quadrant-4"):
            quadrants[int(word[-1]) - 1] = clean_label(rest)
        elif word == "classDef":
            name, _, styles = rest.strip().partition(" ")
            classes[name] = _point_look(styles)
            if len(classes) > MAX_CLASSES:
                raise DiagramError(f"more than {MAX_CLASSES} classDefs")
        elif word.rstrip(":") in _SKIPPED:
            continue
        else:
            points.append(_point(text))
            if len(points) > MAX_POINTS:
                raise DiagramError(f"more than {MAX_POINTS} points")
    q1, q2, q3, q4 = quadrants
    styled = tuple(
        replace(point, look=point.look.over(classes.get(name, PointLook())))
        for point, name in points
    )  # a classDef may come after the points that name it, as mermaid-js reads it
    return Quadrant(title, x_axis, y_axis, (q1, q2, q3, q4), styled)


def _axis_ends(rest: str) -> tuple[str, str]:
    low, arrow, high = rest.partition("-->")
    if arrow and not high.strip():
        raise DiagramError(f"axis without its high end: {rest[:40]!r}")
    return clean_label(low), clean_label(high)


def _point(text: str) -> tuple[QuadrantPoint, str]:
    """`Name: [0.3, 0.6]`, the name perhaps quoted or with `:::class`, styles after; and
    the class's name ("" for none)."""
    start = text.find('"', 1) + 1 if text.startswith('"') else 0
    opening = text.find("[", start)
    closing = text.find("]", opening)
    head = text[:opening].rstrip() if opening > 0 else ""
    if not head.endswith(":") or closing < 0:
        raise DiagramError(f"cannot read {text[:40]!r}")
    name, class_name = head[:-1], ""
    if ":::" in name[start:]:
        name, _, class_name = name.partition(":::") if not start else _class_after(name, start)
    values = text[opening + 1 : closing].split(",")
    if len(values) != 2:
        raise DiagramError(f"a point needs [x, y]: {text[:40]!r}")
    x, y = (_number(v) for v in values)
    if not (0 <= x <= 1 and 0 <= y <= 1):
        raise DiagramError(f"a point's x and y must be within 0..1: {text[:40]!r}")
    look = _point_look(text[closing + 1 :])
    return QuadrantPoint(clean_label(name), x, y, look), class_name.strip()


def _class_after(name: str, start: int) -> tuple[str, str, str]:
    """A quoted name's `:::class` split off after its closing quote."""
    at = name.index(":::", start)
    return name[:at], ":::", name[at + 3 :]


def _point_look(rest: str) -> PointLook:
    """`radius: 10, color: #ff3300, stroke-color: #333, stroke-width: 2px` → its look; an
    unknown style is refused, a value no browser would take dropped."""
    look = PointLook()
    for part in rest.split(","):
        key, _, value = part.partition(":")
        key, value = key.strip(), value.strip()
        if not part.strip():
            continue
        if key not in _POINT_STYLES:
            raise DiagramError(f"unknown point style {part.strip()[:30]!r}")
        if key == "radius":
            look = replace(look, radius=_px(value, MAX_RADIUS))
        elif key == "stroke-width":
            look = replace(look, stroke_width=_px(value, MAX_STROKE))
        elif key == "color":
            look = replace(look, fill=opaque_colour(value))
        else:
            look = replace(look, stroke=opaque_colour(value))
    return look


def _px(value: str, most: float) -> float | None:
    """A length in px (`10`, `5px`), at most `most`; None for anything else."""
    try:
        number = float(value.removesuffix("px").strip())
    except ValueError:
        return None
    return min(number, most) if math.isfinite(number) and number >= 0 else None


def _number(text: str) -> float:
    """A finite number as Mermaid writes it (`+1.3`, `.6`, `-.34`)."""
    try:
        value = float(text.strip())
    except ValueError:
        raise DiagramError(f"not a number: {text.strip()[:20]!r}") from None
    if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise DiagramError(f"a number out of range: {text.strip()[:20]!r}")
    return value


def parse_xychart(lines: list[str]) -> XYChart:
    """xychart-beta [horizontal]: title, x-axis, y-axis and `bar`/`line` series."""
    header = lines[0].split()
    if len(header) > 2 or header[1:] not in ([], ["vertical"], ["horizontal"]):
        raise DiagramError(f"cannot read {lines[0].strip()[:40]!r}")
    title = x_title = y_title = ""
    categories: tuple[str, ...] = ()
    x_range: tuple[float, float] | None = None
    y_range: tuple[float, float] | None = None
    series: list[Series] = []
    for line in lines[1:]:
        text = line.strip()
        word, _, rest = text.partition(" ")
        if word == "title":
            title = clean_label(rest)
        elif word == "x-axis":
            x_title, categories, x_range = _x_axis(rest.strip())
        elif word == "y-axis":
            y_title, y_categories, y_range = _x_axis(rest.strip())
            if y_categories:
                raise DiagramError("the y axis takes a range, not categories")
        elif word in ("bar", "line"):
            series.append(_series(word, rest.strip()))
            if len(series) > MAX_SERIES:
                raise DiagramError(f"more than {MAX_SERIES} series")
        elif word.rstrip(":") not in _SKIPPED:
            raise DiagramError(f"cannot read {text[:40]!r}")
    return _checked(
        XYChart(
            title,
            header[1:] == ["horizontal"],
            x_title,
            categories,
            x_range,
            y_title,
            y_range,
            tuple(series),
        )
    )


def _checked(chart: XYChart) -> XYChart:
    if not chart.series:
        raise DiagramError("xy chart without a bar or line")
    counts = {len(s.values) for s in chart.series}
    if chart.categories and counts != {len(chart.categories)}:
        raise DiagramError(f"{len(chart.categories)} categories, but series of {sorted(counts)}")
    if len(counts) > 1:
        raise DiagramError(f"series of different lengths: {sorted(counts)}")
    return chart


def _x_axis(rest: str) -> tuple[str, tuple[str, ...], tuple[float, float] | None]:
    """`"title" [a, b]`, `title min --> max`, `[a, b]`, `min --> max` or a bare title."""
    title, rest = _title(rest)
    if rest.startswith("["):
        return title, _categories(rest), None
    low, arrow, high = rest.partition("-->")
    if not arrow:
        return clean_label(f"{title} {rest}".strip()), (), None
    head, _, low = low.strip().rpartition(" ")
    bounds = (_number(low), _number(high))
    if bounds[0] >= bounds[1]:
        raise DiagramError(f"an axis range must grow: {rest[:40]!r}")
    return clean_label(f"{title} {head}".strip()), (), bounds


def _title(rest: str) -> tuple[str, str]:
    """A leading quoted title and what follows it; or ("", rest) when not quoted, unless a
    `[` follows an unquoted title."""
    if rest.startswith('"'):
        end = rest.find('"', 1)
        if end < 0:
            raise DiagramError(f"unclosed quote in {rest[:40]!r}")
        return clean_label(rest[1:end]), rest[end + 1 :].strip()
    if (bracket := rest.find("[")) > 0:
        return clean_label(rest[:bracket]), rest[bracket:]
    return "", rest


def _categories(rest: str) -> tuple[str, ...]:
    items = _bracketed(rest)
    if len(items) > MAX_VALUES:
        raise DiagramError(f"more than {MAX_VALUES} categories")
    return tuple(clean_label(item) for item in items)


def _series(kind: str, rest: str) -> Series:
    title, rest = _title(rest)
    if not rest.startswith("["):
        raise DiagramError(f"a {kind} needs [values]: {rest[:40]!r}")
    values = _bracketed(rest)
    if len(values) > MAX_VALUES:
        raise DiagramError(f"more than {MAX_VALUES} values in a {kind}")
    return Series(kind, title, tuple(_number(v) for v in values))


def _bracketed(rest: str) -> list[str]:
    """`[a, "b, c", d]` → its items, commas inside quotes kept; one pass."""
    if not rest.endswith("]"):
        raise DiagramError(f"a list must end with ']': {rest[-40:]!r}")
    items, current, quoted = [], [], False
    for char in rest[1:-1]:
        if char == '"':
            quoted = not quoted
            current.append(char)
        elif char == "," and not quoted:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    items.append("".join(current).strip())
    if quoted or any(not item for item in items):
        raise DiagramError(f"cannot read the list {rest[:40]!r}")
    return items
