"""Gantt charts, timelines and user journeys: read as mermaid-js reads them (dates, durations,
`after`, excluded weekends, continuation lines, scores), refused with a one-line reason when
malformed or too large, and drawn with no label over another label or a grid line, every
label in the drawing's text and in the article's SVG."""

from __future__ import annotations

import itertools
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from inkcard import layout
from inkcard.layout.diagrams import diagram_svg
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.diagrams.timecharts.timefmt import (
    duration_after,
    format_date,
    format_tokens,
    parse_date,
)
from inkcard.layout.errors import DiagramError

CASES = sorted((Path(__file__).parents[1] / "cases" / "mermaid").glob("4[0-9]-*.md"))
FENCE = re.compile(r"```mermaid\n(.*?)```", re.S)
SOURCES = {case.stem: FENCE.search(case.read_text()).group(1) for case in CASES}

GANTT = """gantt
    title Release
    dateFormat YYYY-MM-DD
    excludes weekends
    section Build
    Design      :done, des, 2025-03-03, 3d
    Code        :crit, active, code, after des, 5d
    Review      :after code, 2d
    section Ship
    Launch      :milestone, launch, after code, 0d
    Write notes :2025-03-10, 2025-03-12
"""


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def box(label: Label) -> tuple[float, float, float, float]:
    w = label.text.width
    left = label.x - w / 2 if label.align == "center" else label.x
    return left, label.y, left + w, label.y + label.text.height


def apart(a: tuple[float, ...], b: tuple[float, ...], slack: float = 0.5) -> bool:
    return (
        a[2] <= b[0] + slack or b[2] <= a[0] + slack or a[3] <= b[1] + slack or b[3] <= a[1] + slack
    )


def bounds(mark: Mark) -> tuple[float, float, float, float]:
    xs = [float(op[-2]) for op in mark.ops if len(op) >= 3]
    ys = [float(op[-1]) for op in mark.ops if len(op) >= 3]
    return min(xs) - 0.5, min(ys) - 0.5, max(xs) + 0.5, max(ys) + 0.5


def labels(drawing: Drawing) -> list[Label]:
    return [item for item in drawing.items if isinstance(item, Label)]


# Parsing


def test_a_gantt_reads_dates_durations_after_and_skips_weekends() -> None:
    chart = parse_diagram(GANTT)
    design, code, review, launch, notes = chart.tasks
    assert design.start == datetime(2025, 3, 3) and design.end == datetime(2025, 3, 6)
    assert code.start == design.end  # Thursday + 5 working days: over the weekend
    assert code.end == datetime(2025, 3, 13)
    assert review.start == code.end and launch.start == code.end
    assert notes.end == datetime(2025, 3, 12)  # a date, not a duration: not moved
    assert {"crit", "active"} <= code.tags and "milestone" in launch.tags
    assert chart.sections == ("Build", "Ship") and chart.title == "Release"
    assert chart.excluded == ((datetime(2025, 3, 8), datetime(2025, 3, 10)),)  # one weekend


def test_a_task_may_start_after_one_written_below_it() -> None:
    chart = parse_diagram(
        "gantt\n dateFormat YYYY-MM-DD\n late :after early, 1d\n early :early, 2025-01-01, 2d\n"
    )
    assert chart.tasks[0].start == datetime(2025, 1, 3)


@pytest.mark.parametrize(
    ("fmt", "text", "expected"),
    [
        ("YYYY-MM-DD", "2024-02-29", datetime(2024, 2, 29)),
        ("YYYY-MM-DD HH:mm", "2024-02-29 13:05", datetime(2024, 2, 29, 13, 5)),
        ("DD/MM/YYYY", "05/11/2023", datetime(2023, 11, 5)),
        ("MMM D, YYYY", "Mar 7, 2021", datetime(2021, 3, 7)),
        ("HH:mm", "09:30", datetime(1970, 1, 1, 9, 30)),
        ("X", "86400", datetime(1970, 1, 2)),
        ("YYYY-MM-DD", "2024-03-01T08:00", datetime(2024, 3, 1, 8)),  # the ISO fallback
    ],
)
def test_dates_are_read_in_their_date_format(fmt: str, text: str, expected: datetime) -> None:
    assert parse_date(text, format_tokens(fmt)) == expected


def test_durations_and_axis_formats() -> None:
    start = datetime(2025, 1, 31)
    assert duration_after(start, "1.5h") == start + timedelta(hours=1.5)
    assert duration_after(start, "2w") == start + timedelta(days=14)
    assert duration_after(start, "1M") == datetime(2025, 2, 28)  # the month's last day
    assert duration_after(start, "soon") is None
    assert format_date(datetime(2025, 3, 7, 14, 5), "%b %-d, %H:%M") == "Mar 7, 14:05"
    assert format_date(datetime(2025, 3, 7), "%Q") is None  # unknown: the default is used


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("gantt\n dateFormat YYYY-MM-DD\n", "without tasks"),
        ("gantt\n A :2025-13-45, 1d\n", "cannot read the date"),
        ("gantt\n A :a, 2025-01-01, 1d\n B :after zz, 1d\n", "no task with the id"),
        ("gantt\n A :a, after b, 1d\n B :b, after a, 1d\n", "never settled"),
        ("gantt\n A :1d\n", "first task needs a start"),
        ("gantt\n A :2025-01-05, 2025-01-01\n", "ends before it starts"),
        ("gantt\n A :2000-01-01, 2025-01-01\n", "spans more than"),
        ("gantt\n A :2025-01-01, 99999999999d\n", "out of range"),
        ("gantt\n A :9999-12-01, 20d\n", "between the years"),
        ("gantt\n excludes weekends\n" + " A :2025-01-01, 2000d\n" * 60, "too many task days"),
        ("gantt\n just words\n", "a task is"),
        ("gantt\n A : crit, a, b, c, d\n", "cannot read the task"),
        ("timeline\n : orphan event\n", "before any period"),
        ("timeline\n title only\n", "without periods"),
        ("journey\n Walk: seven: Me\n", "score"),
        ("journey\n Walk: 6: Me\n", "score"),
        ("journey\n Walk the dog\n", "a task is"),
        ("journey\n title only\n", "without tasks"),
    ],
)
def test_malformed_charts_are_refused_with_a_reason(source: str, reason: str) -> None:
    with pytest.raises(DiagramError, match=reason):
        parse_diagram(source)


def test_charts_are_held_to_the_node_limit() -> None:
    tasks = "".join(f" t{i} :2025-01-01, 1d\n" for i in range(201))
    with pytest.raises(DiagramError, match="more than 200"):
        parse_diagram("gantt\n" + tasks)
    with pytest.raises(DiagramError, match="more than 200"):
        parse_diagram("timeline\n" + "".join(f" {i} : e\n" for i in range(150)))
    with pytest.raises(DiagramError, match="more than 200"):
        parse_diagram("journey\n" + "".join(f" t{i}: 3: A\n" for i in range(201)))


def test_a_timeline_reads_continuations_and_colons_inside_a_period() -> None:
    chart = parse_diagram(
        "timeline\n title Day\n section Morning\n"
        " 09:30 : stand-up : mail\n  : coffee\n 12:00 : lunch\n"
    )
    assert [p.label for p in chart.periods] == ["09:30", "12:00"]
    assert chart.periods[0].events == ("stand-up", "mail", "coffee")
    assert chart.sections == ("Morning",) and chart.periods[0].section == 0


def test_a_journey_reads_scores_and_actors_in_order() -> None:
    chart = parse_diagram(SOURCES["44-journey-coffee"])
    assert chart.actors == ("我", "朋友", "小狗")
    assert [s.score for s in chart.steps] == [3, 4, 2, 5, 1, 4]
    assert chart.steps[-1].actors == ("我", "朋友", "小狗")


# Layout


@pytest.mark.parametrize("stem", sorted(SOURCES))
@pytest.mark.parametrize("upright", [False, True])
def test_no_label_overlaps_another_and_every_label_is_in_the_text(
    setter, stem: str, upright: bool
) -> None:
    drawing = draw_diagram(SOURCES[stem], setter.measure, upright)
    placed = labels(drawing)
    for a, b in itertools.combinations(placed, 2):
        assert apart(box(a), box(b)), (a.text.lines, b.text.lines)
    for label in parse_diagram(SOURCES[stem]).labels():
        assert label in drawing.text
    drawn = " ".join(" ".join(label.text.lines) for label in placed)
    for label in parse_diagram(SOURCES[stem]).labels():
        assert all(word in drawn for word in label.split()), label


@pytest.mark.parametrize("stem", ["40-gantt-launch", "41-gantt-dense"])
@pytest.mark.parametrize("wide", [False, True])
def test_gantt_grid_lines_never_cross_a_label_and_bars_keep_to_their_rows(
    setter, stem: str, wide: bool
) -> None:
    drawing = draw_diagram(SOURCES[stem], setter.measure, wide)
    grid = [m for m in drawing.items if isinstance(m, Mark) and m.stroke == "border"]
    assert grid
    segments = [
        (float(a[1]), float(a[2]), float(b[2]))
        for mark in grid
        for a, b in itertools.pairwise(mark.ops)
        if a[0] == "M" and b[0] == "L"
    ]
    last_grid = max(i for i, item in enumerate(drawing.items) if item in grid)
    grounds = [  # opaque shapes drawn over the grid: a chip, a bar's ground
        bounds(m)
        for m in drawing.items[last_grid:]
        if isinstance(m, Mark) and m.fill and not m.fill.startswith("tint:")
    ]
    for label in labels(drawing):
        left, top, right, bottom = box(label)
        if any(g[0] <= left and right <= g[2] and g[1] <= top and bottom <= g[3] for g in grounds):
            continue
        for x, y0, y1 in segments:
            assert not (left < x < right and y0 < bottom - 1 and y1 > top + 1), label.text.lines
    bars = [m for m in drawing.items if isinstance(m, Mark) and m.fill and m.stroke is None]
    rows = {}
    for mark in bars:
        ys = [float(op[-1]) for op in mark.ops if len(op) >= 3]
        rows.setdefault(round(min(ys), 1), []).append(mark)
    assert len(rows) >= 8


def test_axis_ticks_never_touch_and_take_a_step_from_the_span(setter) -> None:
    day = draw_diagram(SOURCES["41-gantt-dense"], setter.measure)
    ticks = [label for label in labels(day) if label.color == "muted"]
    assert len(ticks) >= 4 and all(":" in t.text.lines[0] for t in ticks)
    for a, b in itertools.pairwise(sorted(ticks, key=lambda t: t.x)):
        assert box(a)[2] + 10 <= box(b)[0]
    years = draw_diagram(
        "gantt\n dateFormat YYYY-MM-DD\n A :2015-01-01, 2024-06-01\n", setter.measure
    )
    marks = [t.text.lines[0] for t in labels(years) if t.color == "muted"]
    assert 3 <= len(marks) <= 12 and all(len(m) == 4 for m in marks)  # whole years


def test_a_long_timeline_turns_upright_on_a_portrait_card(fonts) -> None:
    post = "```mermaid\n" + SOURCES["43-timeline-web"] + "```\n"
    options = layout.RenderOptions(split="autoSplit", width=440, height=586, scale=1)
    pages = layout.layout_pages(post, layout_theme(), fonts, options)
    first = next(p.row for page in pages for p in page.rows if p.row.note)
    assert "upright" in first.note
    assert any("Mosaic" in p.row.text for page in pages for p in page.rows)


def layout_theme():
    from inkcard import themes

    return themes.load("apple-notes")


@pytest.mark.parametrize("stem", sorted(SOURCES))
def test_the_article_svg_holds_every_label(stem: str) -> None:
    svg = diagram_svg(SOURCES[stem])
    text = "".join(re.findall(r">([^<]*)</text>", svg))
    for label in parse_diagram(SOURCES[stem]).labels():
        for word in label.split():
            assert word.replace("&", "&amp;") in text, word


@pytest.mark.parametrize("stem", sorted(SOURCES))
@pytest.mark.parametrize("upright", [False, True])
def test_cards_and_bars_under_labels_are_disjoint_and_hold_their_label(setter, stem, upright):
    """The shape a label is drawn on (the last filled one under its middle: a bar, an event
    card, a task card) holds all of it, and no two such shapes overlap."""
    drawing = draw_diagram(SOURCES[stem], setter.measure, upright)
    filled: list[tuple[float, float, float, float]] = []
    grounds = set()
    for item in drawing.items:
        if isinstance(item, Mark):
            if item.fill and item.fill not in ("page", "panel", "line"):
                filled.append(bounds(item))
            continue
        x0, y0, x1, y1 = box(item)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        under = [b for b in filled if b[0] <= mx <= b[2] and b[1] <= my <= b[3]]
        if under:
            left, top, right, bottom = under[-1]
            assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom, item.text
            grounds.add(under[-1])
    assert len(grounds) >= 3 or stem == "41-gantt-dense"  # its names all sit beside bars
    for a, b in itertools.combinations(grounds, 2):
        shrunk = [(g[0] + 1, g[1] + 1, g[2] - 1, g[3] - 1) for g in (a, b)]
        assert apart(*shrunk), (a, b)


def test_a_journey_as_written_sets_each_face_at_its_score_height(setter) -> None:
    """Side by side, as mermaid-js draws it (a slide keeps it): a higher score, a higher
    face; a portrait card gets the row per task form (`upright`)."""
    chart = parse_diagram(SOURCES["45-journey-checkout"])
    wide = draw_diagram(SOURCES["45-journey-checkout"], setter.measure)
    rows = draw_diagram(SOURCES["45-journey-checkout"], setter.measure, upright=True)
    assert wide.across and wide.width > 2 * wide.height and rows.height > rows.width
    rings = [m for m in wide.items if isinstance(m, Mark) and m.fill == "page" and m.stroke]
    heights = [bounds(m)[1] for m in rings]
    scores = [s.score for s in chart.steps]
    for (ya, sa), (yb, sb) in itertools.combinations(zip(heights, scores, strict=True), 2):
        assert (ya < yb) == (sa > sb) or sa == sb


def test_a_narrowed_timeline_keeps_its_title_on_one_line(setter) -> None:
    """`fit.draw_to_fit` may wrap a shrinking diagram's labels at 7 em: the events wrap,
    the title (as wide as the columns) stays whole, and every word of it is set."""
    source = "timeline\n title History of Social Media Platform\n 2002 : LinkedIn\n"
    source += " 2004 : Facebook : Google\n 2005 : YouTube\n 2006 : Twitter\n"

    def narrow(text: str, size: float, bold: bool, width: float):
        return setter.measure(text, size, bold, min(width, 7 * size))

    drawing = draw_diagram(source, narrow)
    [title] = [label for label in labels(drawing) if "History" in label.text.lines[0]]
    assert title.text.lines == ("History of Social Media Platform",)
    assert title.text.width >= setter.measure(title.text.lines[0], 15, True, 999).width


EXAM_GANTT = """gantt
  title 60 天冲刺
  dateFormat YYYY-MM-DD
  section 阅读
  真题精读 2010-2015 :a1, 2026-10-01, 20d
  真题精读 2016-2023 :a2, after a1, 20d
  section 写作
  整理模板 :b1, 2026-10-10, 10d
  每周两篇 :b2, after b1, 30d
  section 模考
  全真模考 :c1, 2026-11-20, 10d
"""


def test_a_gantt_on_a_slide_is_drawn_whole_with_its_sections_beside_it(fonts) -> None:
    """Under a heading on a 1600x900 slide the portrait gantt (a section a header row)
    stood too tall: cut into two bands, the title and the first section on one slide, the
    other sections and the axis on the next, in 24 of 30 theme-modes (rated 2/5). Its wide
    form (section names in a column left of a wider plot) is one figure on one slide; on a
    portrait card it stays as it was."""
    from inkcard import themes

    post = f"## 时间安排\n\n```mermaid\n{EXAM_GANTT}```\n"
    for name in ("apple-notes", "business", "coil-notebook", "minimalist"):
        slide = layout.RenderOptions(width=1600, height=900, split="autoSplit")
        pages = layout.layout_pages(post, themes.load(name), fonts, slide)
        assert len(pages) == 1, name
        (figure,) = [p.row for p in pages[0].rows if p.row.figure]
        assert "sections set beside" in figure.note and "band" not in figure.note, name
    card = layout.RenderOptions(width=440, height=586, split="autoSplit")
    (page,) = layout.layout_pages(post, themes.load("apple-notes"), fonts, card)
    assert all(not p.row.note for p in page.rows)  # the portrait form, as written
    setter = LabelSetter(fonts)
    wide, portrait = (draw_diagram(EXAM_GANTT, setter.measure, up) for up in (True, False))
    assert wide.width > 1.3 * portrait.width and wide.height < 0.75 * portrait.height


def test_a_gantt_on_a_slide_sets_its_names_as_large_as_the_slide_holds(fonts) -> None:
    """The wide form is a slide's: its names at a node label's size in rows as tight as a
    bar around its name, on a plot that leaves the slide's width to its type. At a
    portrait card's size and rows (12-px names, 6-px pads and gaps) the exam plan's
    labels were 5.1-5.9 px on a 360-px phone in these themes (rated "5-6 px" in all 30
    theme-modes); now 6.7-8.5. The 16-task roadmap on a 440x586 card stays in its portrait
    form, cut into two bands at its labels' size (9.8 px on a phone), not drawn whole in
    the wide one at 8.1 (`fit._bands_instead`)."""
    from inkcard import themes
    from inkcard.layout.pages.quality import measure

    post = f"## 时间安排\n\n```mermaid\n{EXAM_GANTT}```\n"
    slide = layout.RenderOptions(width=1600, height=900, split="autoSplit")
    for name in ("apple-notes", "business", "coil-notebook", "minimalist"):
        (page,) = layout.layout_pages(post, themes.load(name), fonts, slide)
        quality = measure(page)
        assert quality is not None and quality.smallest_text >= 6.5, (name, quality.smallest_text)
    roadmap = (Path(__file__).parents[1] / "cases/mermaid/46-gantt-quarter.md").read_text()
    card = layout.RenderOptions(width=440, height=586, split="autoSplit")
    pages = layout.layout_pages(roadmap, themes.load("apple-notes"), fonts, card)
    notes = [p.row.note for page in pages for p in page.rows if p.row.note]
    assert len(pages) == 2 and "cut into 2 bands" in notes[0], notes


@pytest.mark.parametrize(
    ("wide", "name", "parted"),
    [
        (False, "真题精读 2016-2023", False),
        (True, "真题精读 2016-2023", False),
        (False, "真题精读 2016-2023 二刷", True),
    ],
)
def test_a_task_name_too_wide_for_its_bar_and_its_sides_wraps_inside_the_bar(
    fonts, wide: bool, name: str, parted: bool
) -> None:
    """In a mono face 真题精读 2016-2023 fits neither its bar nor either side of it by 5 px;
    set on a line above its bar it read as the row above's (darktech and typewriter at
    500 and 1080 px), parted into two lines inside its bar it stood apart from the names
    beside their bars (tenth look, eight sets). It may run `BAND_EDGE` past the plot's end,
    into its section's band, and sits beside its bar on one line; a name too wide for that
    too is parted at a space into two lines inside its bar, the bar a line taller: every
    task's name sits level with its bar."""
    from inkcard import themes
    from inkcard.layout.style.resolver import resolve

    family = resolve(themes.load("darktech"), None)["body"].family
    source = EXAM_GANTT.replace("真题精读 2016-2023", name)
    drawing = draw_diagram(source, LabelSetter(fonts, family).measure, wide)
    names = {task.name for task in parse_diagram(source).tasks}
    marks = [item for item in drawing.items if isinstance(item, Mark)]
    bars = [bounds(mark) for mark in marks if str(mark.fill).startswith("tint")]
    tasks = [label for label in labels(drawing) if " ".join(label.text.lines) in names]
    assert len(tasks) == len(names)
    for label in tasks:
        middle = (box(label)[1] + box(label)[3]) / 2
        assert any(top <= middle <= bottom for _, top, _, bottom in bars), label.text.lines
    assert any(len(label.text.lines) == 2 for label in tasks) == parted
