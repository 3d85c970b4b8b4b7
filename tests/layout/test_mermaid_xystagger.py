"""An upright xy chart whose category names do not fit their bands one by one sets them in
two staggered rows, each name whole on one line, rather than naming only every other
category: tesseract missed six of the month axis's twelve names because they were never
drawn (benchmarks/bench_diagram_ocr.py), and so would a reader."""

from __future__ import annotations

import itertools

from inkcard import layout
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label

MONTHS = ["一月", "二月", "三月", "四月", "五月", "六月"]
MONTHS += ["七月", "八月", "九月", "十月", "十一月", "十二月"]
SOURCE = (
    "xychart-beta\n  x-axis ["
    + ", ".join(f'"{m}"' for m in MONTHS)
    + "]\n  bar [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n"
)


def _names(fonts: layout.FontBook) -> dict[str, Label]:
    drawing = draw_diagram(SOURCE, LabelSetter(fonts).measure)
    return {i.text.lines[0]: i for i in drawing.items if isinstance(i, Label)}


def test_every_month_is_named_on_one_line(fonts) -> None:
    names = _names(fonts)
    for month in MONTHS:
        assert month in names, month
        assert len(names[month].text.lines) == 1


def test_the_rows_alternate_and_no_two_names_in_a_row_touch(fonts) -> None:
    names = _names(fonts)
    first = {names[m].y for m in MONTHS[::2]}
    second = {names[m].y for m in MONTHS[1::2]}
    assert len(first) == 1 and len(second) == 1 and second.pop() > first.pop()
    for row in (MONTHS[::2], MONTHS[1::2]):
        for a, b in itertools.pairwise(row):
            right = names[a].x + names[a].text.width / 2
            assert right < names[b].x - names[b].text.width / 2, (a, b)


def test_names_that_fit_their_bands_stay_in_one_row(fonts) -> None:
    source = "xychart-beta\n  x-axis [a, b, c]\n  bar [1, 2, 3]\n"
    drawing = draw_diagram(source, LabelSetter(fonts).measure)
    rows = {i.y for i in drawing.items if isinstance(i, Label) and i.text.lines[0] in "abc"}
    assert len(rows) == 1
