"""A gantt's bars are pale and every task's name is in the text colour: a name in light
ink on a saturated bar (`active`, `crit`), in an outlined bar or next to the accent strip
was what tesseract lost on cards (and reads worst on a phone in sunlight)."""

from __future__ import annotations

import pytest

from inkcard import layout
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import TINT, Label, Mark, mark_bounds

PLAN = """gantt
    dateFormat YYYY-MM-DD
    section 开发
    接口开发        :crit, active, api, 2025-03-10, 8d
    客户端开发      :active, app, 2025-03-10, 10d
    联调            :test, after api app, 3d
    回归测试        :crit, 2025-03-27, 6d
    section 发布
    灰度发布        :milestone, beta, after test, 0d
"""
NAMES = ("接口开发", "客户端开发", "联调", "回归测试")


@pytest.fixture(scope="module")
def drawing(fonts: layout.FontBook):
    return draw_diagram(PLAN, LabelSetter(fonts).measure)


def _under(drawing, label: Label) -> list[Mark]:
    x, y = label.x, label.y + label.text.height / 2
    out = []
    for item in drawing.items:
        if isinstance(item, Mark) and item.fill:
            left, top, right, bottom = mark_bounds(item.ops)
            if left <= x <= right and top <= y <= bottom:
                out.append(item)
    return out


def test_every_name_is_in_the_text_colour(drawing) -> None:
    names = {i.text.lines[0]: i for i in drawing.items if isinstance(i, Label)}
    assert all(names[name].color == "text" for name in NAMES)


def test_no_name_sits_on_a_saturated_or_outlined_bar(drawing) -> None:
    for item in drawing.items:
        if isinstance(item, Label) and item.text.lines[0] in NAMES:
            under = _under(drawing, item)
            assert under, item.text.lines  # inside its bar (each fits)
            assert all(m.fill == "page" or m.fill.startswith(TINT) for m in under)
            assert all(m.stroke is None for m in under)


def test_no_strip_stands_beside_a_name_inside_its_bar(drawing) -> None:
    strips = [
        mark_bounds(i.ops)
        for i in drawing.items
        if isinstance(i, Mark) and i.fill == "accent" and i.stroke is None
    ]
    upright = [(a, b, c, d) for a, b, c, d in strips if d - b > c - a]  # taller than wide
    for item in drawing.items:
        if isinstance(item, Label) and item.text.lines[0] in NAMES:
            top, bottom = item.y, item.y + item.text.height
            rows = [s for s in upright if s[1] < bottom and s[3] > top]
            assert not rows, item.text.lines


def test_a_sections_mark_is_in_its_plain_bars_colour(drawing) -> None:
    """The mark before a section's name is the accent its plain bars are a tint of: in each
    section's series colour over bars all of one colour it read as a key that keys nothing
    (the exam plan's 阅读, 写作, 模考, fourth look at 1600x900)."""
    sections = [
        i for i in drawing.items if isinstance(i, Label) and i.text.lines[0] in ("开发", "发布")
    ]
    assert len(sections) == 2
    for label in sections:
        marks = [
            item
            for item in drawing.items
            if isinstance(item, Mark)
            and mark_bounds(item.ops)[2] <= label.x
            and label.y <= mark_bounds(item.ops)[1] <= label.y + label.text.height
        ]
        assert [m.fill for m in marks] == ["accent"], label.text.lines
