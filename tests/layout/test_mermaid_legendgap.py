"""A pie's legend keeps its labels clear of their swatches: with 6 px between, tesseract
read a dark swatch and a short CJK name as one Latin word ("BRS" for 家务) and lost the
name; at `SWATCH_GAP` it reads each."""

from __future__ import annotations

import itertools

from inkcard import layout
from inkcard.layout.diagrams.charts.pie import SWATCH_GAP
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Lines, Mark, mark_bounds

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


def test_a_wrapped_legend_entry_takes_the_room_of_its_lines(fonts: layout.FontBook) -> None:
    """In the 343-px article column the legend's entries wrap to two lines: each row is as
    tall as its lines, so no entry is printed over the next (case 10 overprinted them)."""
    setter = LabelSetter(fonts)

    def narrow(text: str, size: float, bold: bool, most: float) -> Lines:
        return setter.measure(text, size, bold, min(most, 60.0))  # forces a wrap

    pie = 'pie showData title Visitors\n  "Search" : 4200\n  "Social" : 2600\n  "Email" : 400\n'
    drawing = draw_diagram(pie, narrow)
    entries = [i for i in drawing.items if isinstance(i, Label) and i.align == "left"]
    assert len(entries) == 3 and all(len(e.text.lines) > 1 for e in entries)
    for above, below in itertools.pairwise(entries):
        assert above.y + above.text.height <= below.y
