"""A pie's legend keeps its labels clear of their swatches: with 6 px between, tesseract
read a dark swatch and a short CJK name as one Latin word ("BRS" for 家务) and lost the
name; at `SWATCH_GAP` it reads each."""

from __future__ import annotations

from inkcard import layout
from inkcard.layout.diagrams.fit import draw_diagram
from inkcard.layout.diagrams.kinds import SWATCH_GAP
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark, mark_bounds

PIE = 'pie title 一周\n  "睡觉" : 56\n  "家务" : 8\n  "娱乐" : 12\n'


def test_each_legend_label_starts_a_clear_gap_after_its_swatch(fonts: layout.FontBook) -> None:
    drawing = draw_diagram(PIE, LabelSetter(fonts).measure)
    swatches = [
        mark_bounds(i.ops)
        for i in drawing.items
        if isinstance(i, Mark) and i.stroke is None and i.fill
    ]
    entries = [i for i in drawing.items if isinstance(i, Label) and i.align == "left"]
    assert len(swatches) == len(entries) == 3
    for (_, _, right, _), entry in zip(swatches, entries, strict=True):
        assert entry.x - right >= SWATCH_GAP >= 12
