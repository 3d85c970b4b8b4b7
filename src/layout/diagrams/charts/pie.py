"""A Mermaid `pie` → its `Drawing`.

A pie's slices go clockwise from twelve o'clock, with a legend of labels and shares (and,
with `showData`, values) to its right; in its wide form the legend is set larger, for a
slot the pie's height bounds (a slide under its title: `fit.draw_to_fit`).
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..marks import (
    LABEL_SIZE,
    MAX_LABEL_WIDTH,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    circle_ops,
    finish,
    fit_scale,
    rect_ops,
)
from ..mermaidkinds import Pie

# Pies

RADIUS = 90.0
SWATCH_GAP = 14.0  # px from a legend swatch to its label
ROW_PITCH = 22.0  # px from a one-line legend entry's top to the next one's
# The wide form's legend and title, this many times their size (the swatches, gaps and
# pitch with them): four entries still stand within the pie's height. On a 1600x900 slide under
# its title the mixed post's legend read about 5 px on a 360-px phone in all 30 theme-modes.
WIDE_LEGEND = 1.6


def _entry(
    pie: Pie, label: str, share: float, value: float, measure: Measure, grow: float
) -> Lines:
    """A legend entry: the slice's label and share (and, with `showData`, its value), at
    `grow` times the legend's size."""
    shown = f"{value:g} · {share * 100:.1f}%" if pie.show_data else f"{share * 100:.1f}%"
    return measure(f"{label}  {shown}", (SMALL_SIZE + 1) * grow, False, MAX_LABEL_WIDTH * grow)


def layout_pie(pie: Pie, measure: Measure, wide: bool = False) -> Drawing:
    """The pie's slices clockwise from twelve o'clock, its legend to the right (`wide`:
    `WIDE_LEGEND` times larger)."""
    grow = WIDE_LEGEND if wide else 1.0
    swatch, gap = 12 * grow, SWATCH_GAP * grow
    total = sum(value for _, value in pie.slices)
    items: list[Mark | Label] = []
    entries = [
        _entry(pie, label, value / total, value, measure, grow) for label, value in pie.slices
    ]
    pitches = [ROW_PITCH * grow + e.height * (len(e.lines) - 1) / len(e.lines) for e in entries]
    legend_x = 2 * RADIUS + 24
    top = 0.0
    if pie.title:  # over the pie; in the wide form over pie and legend, as large as they are
        right = legend_x + swatch + gap + max((e.width for e in entries), default=0.0)
        middle = right / 2 if wide else RADIUS
        title = measure(pie.title, (LABEL_SIZE + 1) * grow, True, (2 * RADIUS + 200) * grow)
        items.append(Label(title, middle, 0.0))
        top = title.height + 10
    cx, cy = RADIUS, top + RADIUS
    angle = -math.pi / 2
    # the legend centred on the pie, never above its top (its title's row)
    row_y = max(top, cy - sum(pitches) / 2)
    # an odd count's third tier, on a light page the deepest, goes to the least area
    smallest = min(range(len(pie.slices)), key=lambda k: pie.slices[k][1])
    for i, (_, value) in enumerate(pie.slices):
        share = value / total
        sweep = 2 * math.pi * share
        role = f"series{i}/{len(pie.slices)}/{smallest}"  # a ring: its last touches its first
        if share >= 0.9999:
            items.append(Mark(circle_ops(cx, cy, RADIUS), "page", role, 1.5))
        elif share > 0:
            end = angle + sweep
            ops: tuple[Op, ...] = (
                ("M", cx, cy),
                ("L", cx + RADIUS * math.cos(angle), cy + RADIUS * math.sin(angle)),
                (
                    "A",
                    RADIUS,
                    RADIUS,
                    0,
                    1 if sweep > math.pi else 0,
                    1,
                    cx + RADIUS * math.cos(end),
                    cy + RADIUS * math.sin(end),
                ),
                ("Z",),
            )
            items.append(Mark(ops, "page", role, 1.5))
        angle += sweep
        items.append(Mark(rect_ops(legend_x, row_y + 2 * grow, swatch, swatch, 2), None, role))
        items.append(Label(entries[i], legend_x + swatch + gap, row_y, "text", "left"))
        row_y += pitches[i]  # a wrapped entry's row is as tall as its lines
    extra = [(cx - RADIUS, cy - RADIUS), (cx + RADIUS, cy + RADIUS)]
    drawing = finish(items, "\n".join(pie.labels()), extra)
    return drawing if wide else replace(drawing, legend=True)


# How much larger than its slot a drawing may grow where the slot's own scale is measured
# (the cap of 1 `fit_scale` puts on it would hide which form reads larger)
_SLOT = 100.0


def legend_gain(drawing: Drawing, wide: Drawing, width: float, height: float) -> float:
    """How many times larger `wide` (the pie's wide form) sets its smallest label than
    `drawing` in a `width` x `height` slot; 0 where the slot's width binds `drawing`: a
    portrait card keeps mermaid-js's legend."""
    if height * drawing.width >= width * drawing.height:
        return 0.0
    return _label_px(wide, width, height) / _label_px(drawing, width, height)


def _label_px(drawing: Drawing, width: float, height: float) -> float:
    """The px of the drawing's smallest label once it fits `width` x `height`."""
    smallest = min((i.text.size for i in drawing.items if isinstance(i, Label)), default=1.0)
    return smallest * fit_scale(drawing, width, height, _SLOT)
