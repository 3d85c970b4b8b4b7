"""Mermaid quadrant charts and xy charts: read as mermaid-js reads them, refused with a one-line
note where they would change meaning or pass a bound, and laid out so no name overprints
another name or a dot, ticks are round numbers and category names never run together."""

from __future__ import annotations

import html
import itertools
import re
from pathlib import Path

import pytest

from inkcard import layout
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.charts.mermaidcharts import (
    MAX_POINTS,
    MAX_RADIUS,
    MAX_SERIES,
    MAX_VALUES,
    PointLook,
    Quadrant,
    XYChart,
)
from inkcard.layout.diagrams.charts.quadrant import DOT, INSET, box_of
from inkcard.layout.diagrams.charts.xychart import format_number, nice_step, value_range
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.errors import DiagramError

CASES = sorted((Path(__file__).parents[1] / "cases" / "mermaid").glob("5[0-9]-*.md"))
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)
CHARTS = [FENCE.search(case.read_text()).group(1) for case in CASES]  # type: ignore[union-attr]

BACKLOG = """quadrantChart
    title "Backlog: value vs effort"
    x-axis Low effort --> High effort
    y-axis "Low value" --> "High value"
    quadrant-1 Big bets
    quadrant-2 Quick wins
    quadrant-3 Fill-ins
    quadrant-4 Money pits
    Dark mode: [0.2, 0.75]
    "Ratio: A": [0.5, 0.5]
    AI summaries:::hot: [0.85, 0.9] radius: 12, color: #ff3300
    classDef hot color: #ff0000
"""
SALES = """xychart-beta horizontal
    title "Sales, by quarter"
    x-axis "Quarter" [Q1, "Q2, late", Q3]
    y-axis Revenue 0 --> 100
    bar "2024" [10, 20, 30]
    line [+1.3, .6, -.34]
"""


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def labels(drawing: Drawing) -> list[Label]:
    return [item for item in drawing.items if isinstance(item, Label)]


def flat(text: str) -> str:
    return re.sub(r"\s", "", text)


def overlapping(drawing: Drawing) -> list[tuple[str, str]]:
    found = []
    for a, b in itertools.combinations(labels(drawing), 2):
        (l1, t1, r1, b1), (l2, t2, r2, b2) = box_of(a), box_of(b)
        if l1 < r2 - 0.5 and l2 < r1 - 0.5 and t1 < b2 - 0.5 and t2 < b1 - 0.5:
            found.append((" ".join(a.text.lines), " ".join(b.text.lines)))
    return found


# Parsing


def test_a_quadrant_chart_reads_axes_quadrants_and_points() -> None:
    chart = parse_diagram(BACKLOG)
    assert isinstance(chart, Quadrant)
    assert chart.title == "Backlog: value vs effort"
    assert chart.x_axis == ("Low effort", "High effort")
    assert chart.y_axis == ("Low value", "High value")
    assert chart.quadrants == ("Big bets", "Quick wins", "Fill-ins", "Money pits")
    assert [(p.label, p.x, p.y) for p in chart.points] == [
        ("Dark mode", 0.2, 0.75),
        ("Ratio: A", 0.5, 0.5),
        ("AI summaries", 0.85, 0.9),
    ]


def test_a_quadrant_axis_may_name_one_end() -> None:
    chart = parse_diagram("quadrantChart\n  x-axis Reach\n  A: [0, 1]")
    assert isinstance(chart, Quadrant)
    assert chart.x_axis == ("Reach", "") and chart.y_axis == ("", "")


def test_an_xy_chart_reads_categories_ranges_and_series() -> None:
    chart = parse_diagram(SALES)
    assert isinstance(chart, XYChart)
    assert chart.horizontal and chart.title == "Sales, by quarter"
    assert chart.x_title == "Quarter" and chart.categories == ("Q1", "Q2, late", "Q3")
    assert chart.y_title == "Revenue" and chart.y_range == (0.0, 100.0)
    assert [(s.kind, s.title, s.values) for s in chart.series] == [
        ("bar", "2024", (10.0, 20.0, 30.0)),
        ("line", "", (1.3, 0.6, -0.34)),
    ]


def test_an_xy_chart_may_have_a_numeric_x_axis_and_the_short_keyword() -> None:
    chart = parse_diagram('xychart\n  x-axis "Hour" 0 --> 24\n  y-axis "°C"\n  line [1, 2, 3]')
    assert isinstance(chart, XYChart)
    assert chart.x_range == (0.0, 24.0) and chart.x_title == "Hour" and not chart.categories
    assert chart.y_title == "°C" and chart.y_range is None and not chart.horizontal


@pytest.mark.parametrize(
    "source",
    [
        "quadrantChart\n  A: [1.2, 0.5]",
        "quadrantChart\n  A: [-0.1, 0.5]",
        "quadrantChart\n  A: [0.5]",
        "quadrantChart\n  A [0.5, 0.5]",
        "quadrantChart\n  A: [0.5, 0.5] size: 3",
        "quadrantChart\n  A: [x, 0.5]",
        "quadrantChart\n  x-axis Low -->",
        "quadrantChart\n" + "\n".join(f"P{i}: [0.5, 0.5]" for i in range(MAX_POINTS + 1)),
        "xychart-beta",
        "xychart-beta sideways\n  bar [1]",
        "xychart-beta\n  x-axis [a, b]\n  bar [1, 2, 3]",
        "xychart-beta\n  bar [1, 2]\n  line [1]",
        "xychart-beta\n  bar [1, , 2]",
        "xychart-beta\n  bar [1, 2",
        "xychart-beta\n  bar [1, nan]",
        "xychart-beta\n  bar [1, 1e300]",
        "xychart-beta\n  bar 1, 2",
        "xychart-beta\n  y-axis 5 --> 5\n  bar [1]",
        "xychart-beta\n  y-axis [a, b]\n  bar [1, 2]",
        'xychart-beta\n  x-axis "open [a]\n  bar [1]',
        "xychart-beta\n  pie [1]",
        "xychart-beta\n" + "\n".join("bar [1]" for _ in range(MAX_SERIES + 1)),
        "xychart-beta\n  bar [" + ", ".join("1" for _ in range(MAX_VALUES + 1)) + "]",
        "xychart-beta\n  x-axis [" + ", ".join("a" for _ in range(MAX_VALUES + 1)) + "]\n  bar [1]",
    ],
)
def test_a_malformed_chart_is_refused_with_a_one_line_note(source: str) -> None:
    with pytest.raises(DiagramError) as caught:
        parse_diagram(source)
    assert "\n" not in str(caught.value) and str(caught.value)


# Axes


@pytest.mark.parametrize(
    ("span", "step"), [(10, 2), (7000, 1000), (1, 0.2), (0.03, 0.005), (60, 10), (480, 100)]
)
def test_ticks_are_one_two_or_five_times_a_power_of_ten(span: float, step: float) -> None:
    assert nice_step(span) == pytest.approx(step)


def test_the_value_axis_holds_the_data_and_bars_start_at_zero() -> None:
    assert value_range([12, 37], None, bars=True) == (0, 40, 10)
    assert value_range([-6, 26], None, bars=False) == (-10, 30, 5)
    low, high, _ = value_range([5000, 11000], (4000, 10000), bars=True)
    assert (low, high) == (4000, 11000)  # the author's range, widened to hold the data
    assert value_range([3, 3], None, bars=False)[:2] == (2, 4)


def test_numbers_are_grouped_and_lose_trailing_zeros() -> None:
    assert format_number(11000, 0) == "11,000"
    assert format_number(2.50, 2) == "2.5"
    assert format_number(-0.0, 1) == "0"


# Layout


@pytest.mark.parametrize("index", range(len(CHARTS)), ids=[c.stem for c in CASES])
def test_no_name_overprints_another_and_every_name_is_drawn(setter, index: int) -> None:
    drawing = draw_diagram(CHARTS[index], setter.measure)
    assert overlapping(drawing) == []
    chart = parse_diagram(CHARTS[index])
    drawn = {flat("".join(label.text.lines)) for label in labels(drawing)}
    categories = set(chart.categories) if isinstance(chart, XYChart) else set()
    for name in chart.labels():
        assert flat(name) in drawn or name in categories, name
        assert name in drawing.text


def test_the_cases_hold_two_charts_of_each_kind() -> None:
    kinds = [type(parse_diagram(source)) for source in CHARTS]
    assert kinds.count(Quadrant) >= 2 and kinds.count(XYChart) >= 2


@pytest.mark.parametrize("source", [c for c in CHARTS if c.startswith("quadrantChart")])
def test_a_point_name_sits_beside_its_own_dot_and_on_no_dot(setter, source: str) -> None:
    drawing = draw_diagram(source, setter.measure)
    dots = [bounds(m) for m in circles(drawing)]
    chart = parse_diagram(source)
    assert isinstance(chart, Quadrant) and len(dots) == len(chart.points)
    names = [label for label in labels(drawing) if label.text.size < 14]
    assert len(names) == len(chart.points)
    for label, (x0, y0, x1, y1) in zip(names, dots, strict=True):
        left, top, right, bottom = box_of(label)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        gap = max(left - cx, 0, cx - right), max(top - cy, 0, cy - bottom)
        radius = (x1 - x0) / 2
        assert (gap[0] ** 2 + gap[1] ** 2) ** 0.5 <= radius + 13  # beside its dot
        for d in dots:
            assert not (left < d[2] and d[0] < right and top < d[3] and d[1] < bottom)


def circles(drawing: Drawing) -> list[Mark]:
    """The drawing's dots (circles are drawn as arcs, the quadrants as lines)."""
    return [m for m in drawing.items if isinstance(m, Mark) and any(op[0] == "A" for op in m.ops)]


@pytest.mark.parametrize("source", [c for c in CHARTS if c.startswith("quadrantChart")])
def test_no_point_name_crosses_or_touches_the_quadrants_cross(setter, source: str) -> None:
    """A name over the white cross between the quadrants reads as two halves (case 51's
    "Custom themes" crossed it below its dot, 2 px from the line; case 50's 回复群消息 sat
    2 px from the square's edge): every name keeps `INSET` off the cross and the edge."""
    drawing = draw_diagram(source, setter.measure)
    tiles = [bounds(m) for m in drawing.items if isinstance(m, Mark) and m not in circles(drawing)]
    left, top = min(t[0] for t in tiles), min(t[1] for t in tiles)
    right, bottom = max(t[2] for t in tiles), max(t[3] for t in tiles)
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    names = [label for label in labels(drawing) if label.text.size < 14]
    for label in names:
        x0, y0, x1, y1 = box_of(label)
        if not top < y0 < bottom:
            continue  # an axis name, outside the square
        # the tiles stop half the cross's width inside the square's edge
        assert x0 >= left + INSET - 1.5 and x1 <= right - INSET + 1.5, label.text.lines
        assert not x0 - INSET + 0.5 < middle_x < x1 + INSET - 0.5, label.text.lines
        assert not y0 - INSET + 0.5 < middle_y < y1 + INSET - 0.5, label.text.lines


def test_a_point_is_drawn_as_its_author_styled_it(setter) -> None:
    """`radius:`, `color:`, `stroke-color:` and `stroke-width:` after a point, and a
    `classDef` it names with `:::` (defined before or after it), as mermaid-js draws
    them: the point's own values over its class's. A radius past `MAX_RADIUS` is drawn at
    it, a colour no browser takes is dropped (the theme's accent), an unknown style is
    refused. They were read and ignored: every dot the theme's accent at 5 px."""
    source = """quadrantChart
    Plain: [0.2, 0.2]
    Hot:::hot: [0.8, 0.8] radius: 12, color: #ff3300
    Ringed:::cool: [0.3, 0.7]
    Huge: [0.7, 0.3] radius: 40, color: nonsense
    classDef hot color: #ff0000, stroke-color: #111111, stroke-width: 2px
    classDef cool color: rgb(0 128 255), stroke-color: navy, stroke-width: 3px
"""
    chart = parse_diagram(source)
    assert isinstance(chart, Quadrant)
    looks = {p.label: p.look for p in chart.points}
    assert looks["Plain"] == PointLook()
    assert looks["Hot"] == PointLook(12.0, "#ff3300", "#111111", 2.0)
    assert looks["Ringed"] == PointLook(None, "#0080ff", "#000080", 3.0)
    assert looks["Huge"] == PointLook(MAX_RADIUS, None, None, None)
    dots = {round(bounds(m)[0]): m for m in circles(draw_diagram(source, setter.measure))}
    plain, ringed, huge, hot = (dots[x] for x in sorted(dots))
    assert plain.fill == "accent" and plain.stroke is None
    assert (bounds(plain)[2] - bounds(plain)[0]) / 2 == pytest.approx(DOT)
    assert hot.fill == "#ff3300" and hot.stroke == "#111111" and hot.width == 2.0
    assert (bounds(hot)[2] - bounds(hot)[0]) / 2 == pytest.approx(12.0)  # its ring half outside
    assert ringed.fill == "#0080ff" and ringed.stroke == "#000080"
    assert huge.fill == "accent" and (bounds(huge)[2] - bounds(huge)[0]) / 2 == MAX_RADIUS
    with pytest.raises(DiagramError, match="unknown point style"):
        parse_diagram("quadrantChart\n    A: [0.5, 0.5] shape: star")


def bounds(mark: Mark) -> tuple[float, float, float, float]:
    xs = [float(op[-2]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    ys = [float(op[-1]) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
    return min(xs), min(ys), max(xs), max(ys)


def test_points_in_one_place_still_get_their_names_clear_of_each_other(setter) -> None:
    source = "quadrantChart\n" + "\n".join(f"Point {i}: [0.5, 0.5]" for i in range(4))
    drawing = draw_diagram(source, setter.measure)
    assert overlapping(drawing) == [] and not drawing.note


@pytest.mark.parametrize("spread", [True, False], ids=["scattered", "one-spot"])
def test_a_crowded_quadrant_chart_numbers_its_dots_and_names_them_below(
    setter, spread: bool
) -> None:
    points = [
        ((i * 37) % 100 / 100, (i * 61) % 100 / 100) if spread else (0.5, 0.5)
        for i in range(MAX_POINTS)
    ]
    source = "quadrantChart\n" + "\n".join(
        f"Point {i}: [{x}, {y}]" for i, (x, y) in enumerate(points)
    )
    drawing = draw_diagram(source, setter.measure)
    assert overlapping(drawing) == [] and "numbered" in drawing.note
    texts = {" ".join(label.text.lines) for label in labels(drawing)}
    assert "1  Point 0" in texts and f"{MAX_POINTS}  Point {MAX_POINTS - 1}" in texts


def test_a_dense_month_axis_names_every_month_in_two_rows_rather_than_run_them_together(
    setter,
) -> None:
    months = [
        "一月",
        "二月",
        "三月",
        "四月",
        "五月",
        "六月",
        "七月",
        "八月",
        "九月",
        "十月",
        "十一月",
        "十二月",
    ]
    source = f"xychart-beta\n  x-axis [{', '.join(months)}]\n  bar [{', '.join('1' * 12)}]"
    names = [
        flat("".join(label.text.lines)) for label in labels(draw_diagram(source, setter.measure))
    ]
    shown = [m for m in months if m in names]
    assert shown == months  # in two staggered rows (test_mermaid_xystagger.py)
    assert overlapping(draw_diagram(source, setter.measure)) == []


def test_a_long_category_axis_is_thinned_and_every_bar_drawn(setter) -> None:
    count = MAX_VALUES
    source = (
        f"xychart-beta\n  x-axis [{', '.join(f'week {i}' for i in range(count))}]\n"
        f"  bar [{', '.join(str(i) for i in range(count))}]\n"
        f"  bar [{', '.join(str(count - i) for i in range(count))}]"
    )
    drawing = draw_diagram(source, setter.measure)
    assert overlapping(drawing) == []
    bars = [m for m in drawing.items if isinstance(m, Mark) and m.fill in ("series0", "series1")]
    assert len(bars) == 2 * count


def test_a_legend_names_several_series_only_when_they_have_names(setter) -> None:
    named = draw_diagram("xychart-beta\n  bar [1, 2]\n  line Target [2, 1]", setter.measure)
    assert {"bar 1", "Target"} <= {" ".join(label.text.lines) for label in labels(named)}
    unnamed = draw_diagram("xychart-beta\n  bar [1, 2]\n  line [2, 1]", setter.measure)
    assert "bar 1" not in {" ".join(label.text.lines) for label in labels(unnamed)}


def test_bars_stand_on_zero_and_stay_in_the_plot(setter) -> None:
    drawing = draw_diagram("xychart-beta\n  bar [3, -2, 5]", setter.measure)
    bars = [bounds(m) for m in drawing.items if isinstance(m, Mark) and m.fill == "series0"]
    bottoms = sorted({round(b[3], 1) for b in bars})
    tops = sorted({round(b[1], 1) for b in bars})
    assert len(bars) == 3 and len(set(bottoms) & set(tops)) == 1  # the negative bar hangs from 0


@pytest.mark.parametrize("source", [BACKLOG, SALES, *CHARTS])
def test_the_article_svg_holds_every_name(source: str) -> None:
    svg = diagram_svg(source)
    text = flat(html.unescape("".join(re.findall(r">([^<]*)</text>", svg))))
    chart = parse_diagram(source)
    categories = set(chart.categories) if isinstance(chart, XYChart) else set()
    for name in chart.labels():
        assert flat(name) in text or name in categories, name


def test_few_long_category_names_wrap_at_their_spaces_never_inside_a_word(setter) -> None:
    source = (
        'xychart-beta\n  x-axis ["North America", "South America", Europe, "East Asia", Oceania]'
        "\n  bar [120, 34, 150, 420, 26]"
    )
    drawn = {label.text.lines for label in labels(draw_diagram(source, setter.measure))}
    assert ("North", "America") in drawn and ("Oceania",) in drawn  # every name, whole words
    months = "xychart-beta\n  x-axis [jan, feb, mar, apr, may, jun, jul, aug, sep, oct, nov, dec]"
    drawn = {
        label.text.lines
        for label in labels(
            draw_diagram(months + "\n  bar [" + ", ".join("1" * 12) + "]", setter.measure)
        )
    }
    assert all(len(lines) == 1 for lines in drawn)  # never "ma / y"
