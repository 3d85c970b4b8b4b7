"""An edge label's chip sits on its own line, also where the edge runs back against the
layers (flow/chips.py): `D -- 修正 --> C` drew the line turning above the chip, which hung
under it as a label of nothing."""

from __future__ import annotations

import itertools

import pytest

from inkcard import layout
from inkcard.layout.diagrams.flow.chips import chip_on_line, turns_back, without_spike
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark, tint

LOOP = """flowchart TB
  A[課題を作る] --> B[ブランチを切る]
  B --> C[実装する]
  C --> D{レビュー}
  D -- 修正 --> C
  D -- 承認 --> E[マージ]
  E --> F[リリース]
"""

# The route layering gave `D -- 修正 --> C`: down to the label's vertex and back up.
ROUTED = [
    (60, 239), (60, 265), (60, 274), (184, 292), (184, 301), (184, 314),
    (184, 301), (184, 292), (184, 274), (184, 265), (184, 213), (184, 204), (128, 186),
]  # fmt: skip


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def test_a_route_that_goes_to_its_label_and_back_loses_the_spike_and_its_notch() -> None:
    assert turns_back(ROUTED, 5)
    assert not turns_back(ROUTED, 2)
    line = without_spike(ROUTED, 5)
    assert (184, 314) not in line and (184, 292) not in line
    assert line[:4] == [(60, 239), (60, 265), (60, 274), (184, 274)]
    assert not any(turns_back(line, i) for i in range(1, len(line) - 1))


def test_the_chip_goes_on_the_longest_run_clear_of_boxes() -> None:
    line = without_spike(ROUTED, 5)
    assert chip_on_line(line, (42, 25), []) == (122, 274)  # the longest run: across
    under_d = [(0, 213, 120, 265)]  # D's box: the chip there would touch it
    assert chip_on_line(line, (42, 25), under_d) == (184, 239)
    assert chip_on_line(line, (42, 25), [(0, 0, 400, 400)]) is None


def _on_a_line(x: float, y: float, lines: list[Mark]) -> bool:
    for mark in lines:
        points = [(float(op[-2]), float(op[-1])) for op in mark.ops if len(op) >= 3]  # type: ignore[arg-type]
        for (ax, ay), (bx, by) in itertools.pairwise(points):
            inside = (
                min(ax, bx) - 1 <= x <= max(ax, bx) + 1 and min(ay, by) - 1 <= y <= max(ay, by) + 1
            )
            if inside and abs((bx - ax) * (y - ay) - (by - ay) * (x - ax)) <= 1.0 * max(
                1.0, abs(bx - ax) + abs(by - ay)
            ):
                return True
    return False


def test_every_edge_label_of_a_loop_back_sits_on_a_drawn_line(setter: LabelSetter) -> None:
    drawing = draw_diagram(LOOP, setter.measure)
    lines = [item for item in drawing.items if isinstance(item, Mark) and item.fill is None]
    chips = [item for item in drawing.items if isinstance(item, Mark) and item.fill == tint("line")]
    labels = {"".join(item.text.lines): item for item in drawing.items if isinstance(item, Label)}
    assert len(chips) == 2 and {"修正", "承認"} <= set(labels)
    for text in ("修正", "承認"):
        label = labels[text]
        centre_y = label.y + label.text.height / 2
        assert _on_a_line(label.x, centre_y, lines), text
