"""An edge back into a decision comes in at the diamond's side, not at the tip its branches
leave from (case 01: `D --> B` after `B -->|没有| D` ended among the branches' starts, three
lines on one point; mermaid-js brings it in on the lower face)."""

from __future__ import annotations

import math

import pytest

from inkcard import layout
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark, mark_bounds

PUBLISH = """graph {direction}
A[打开小红书] --> B{{有没有选题?}}
B -- 有 --> C([写大纲])
B -->|没有| D((刷灵感))
D --> B
C --> E(拍照配图) ==> F[发布笔记]
"""


def _drawing(fonts: layout.FontBook, direction: str) -> Drawing:
    source = PUBLISH.format(direction=direction)
    return draw_to_fit(DiagramBudget(), source, LabelSetter(fonts).measure, 2000.0, 2000.0)


def _diamond(drawing: Drawing) -> tuple[float, float, float, float]:
    label = next(i for i in drawing.items if isinstance(i, Label) and "选题" in i.text.lines[0])
    x = label.x
    y = label.y + label.text.height / 2
    return next(
        mark_bounds(m.ops)
        for m in drawing.items
        if isinstance(m, Mark) and m.fill and _holds(mark_bounds(m.ops), x, y)
    )


def _holds(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    return box[0] < x < box[2] and box[1] < y < box[3] and box[2] - box[0] > 40


def _arrow_tips(drawing: Drawing) -> list[tuple[float, float]]:
    tips = []
    for item in drawing.items:
        if isinstance(item, Mark) and item.fill == "line" and len(item.ops) == 4:
            _, x, y = item.ops[0]
            tips.append((float(x), float(y)))  # type: ignore[arg-type]
    return tips


@pytest.mark.parametrize(("direction", "axis"), [("TD", 1), ("LR", 0)])
def test_an_edge_back_into_a_diamond_meets_a_side_face(fonts, direction: str, axis: int) -> None:
    drawing = _drawing(fonts, direction)
    left, top, right, bottom = _diamond(drawing)
    centre = ((left + right) / 2, (top + bottom) / 2)
    far_tip = (centre[0], bottom) if axis == 1 else (right, centre[1])
    tips = _arrow_tips(drawing)
    into = [t for t in tips if left - 12 <= t[0] <= right + 12 and top - 12 <= t[1] <= bottom + 12]
    back = [t for t in into if (t[axis] - centre[axis]) > 1]  # the one from past the diamond
    assert len(back) == 1, into
    # away from the tip the branches leave from: a quarter of the diamond across, on its face
    across = 1 - axis
    half = (right - left, bottom - top)[across] / 2
    assert abs(back[0][across] - centre[across]) > 0.4 * half, (back, far_tip)
    assert math.dist(back[0], far_tip) > 10
