"""A message to a participant that is then destroyed ends in its arrow's mark (a `-x`
cross, a head, barbs) and, under it, the lifeline's destroy cross: the two stand clear of
each other (measured on the drawing), not stacked into one blot."""

from __future__ import annotations

import pytest

from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Drawing, Label, Mark, mark_bounds

ROOM = 10.0  # px: the least clear room between an arrow's end mark and the destroy cross


def _source(arrow: str, sender_dies: bool = False) -> str:
    ends = ("O", "G") if sender_dies else ("G", "O")
    return "\n".join(
        [
            "sequenceDiagram",
            "participant G as 网关",
            "participant O as 旧订单服务",
            "G->>O: 读取订单",
            "destroy O",
            f"{ends[0]}{arrow}{ends[1]}: 下线旧服务",
            "G->>G: 自检",
        ]
    )


def _destroy_cross(drawing: Drawing) -> tuple[float, float, float, float]:
    crosses = [
        mark_bounds(i.ops)
        for i in drawing.items
        if isinstance(i, Mark) and i.stroke == "text" and i.width == 2.0 and len(i.ops) == 4
    ]
    assert len(crosses) == 1
    return crosses[0]


def _arrow_row(drawing: Drawing) -> float:
    label = next(i for i in drawing.items if isinstance(i, Label) and "下线旧服务" in i.text.lines)
    lines = [
        mark_bounds(i.ops)
        for i in drawing.items
        if isinstance(i, Mark) and i.stroke == "line" and len(i.ops) == 2
    ]
    return min(b[1] for b in lines if b[1] > label.y)  # the first line under its label


def _end_marks(drawing: Drawing, x: float, y: float) -> list[tuple[float, float, float, float]]:
    """The marks drawn about the point (x, y) other than the message's line."""
    out = []
    for item in drawing.items:
        if not isinstance(item, Mark) or item.stroke == "text" or len(item.ops) == 2:
            continue
        left, top, right, bottom = mark_bounds(item.ops)
        if left - 1 <= x <= right + 1 and top - 1 <= y <= bottom + 1:
            out.append((left, top, right, bottom))
    return out


@pytest.mark.parametrize("arrow", ["-x", "--x", "->>", "-)", "->"])
def test_the_destroy_cross_stands_clear_of_the_arrows_end(fonts, arrow: str) -> None:
    drawing = draw_diagram(_source(arrow), LabelSetter(fonts).measure)
    cross = _destroy_cross(drawing)
    x, y = (cross[0] + cross[2]) / 2, _arrow_row(drawing)
    ends = _end_marks(drawing, x, y) or [(x, y, x, y)]  # `->`: no mark, the line's end
    assert cross[1] - max(bottom for _, _, _, bottom in ends) >= ROOM


def test_a_destroyed_sender_keeps_the_room_too(fonts) -> None:
    drawing = draw_diagram(_source("-x", sender_dies=True), LabelSetter(fonts).measure)
    assert _destroy_cross(drawing)[1] - _arrow_row(drawing) >= ROOM


def test_a_frames_tag_is_drawn_over_an_activation_bar(fonts) -> None:
    source = "\n".join(
        [
            "sequenceDiagram",
            "participant S as Scheduler",
            "participant W as Worker",
            "participant T as Temp Store",
            "S->>+W: start",
            "loop every chunk",
            "W->>T: append chunk",
            "end",
            "W-->>-S: done",
        ]
    )
    drawing = draw_diagram(source, LabelSetter(fonts).measure)
    tag = next(
        k for k, i in enumerate(drawing.items) if isinstance(i, Label) and i.text.lines == ("loop",)
    )
    bars = [k for k, i in enumerate(drawing.items) if isinstance(i, Mark) and i.fill == "border"]
    assert bars and max(bars) < tag  # painted after the bar: its word whole
