"""Pies → `Drawing`s (flowcharts are in drawing.py, mind maps in mindmap.py, sequence diagrams
in sequence.py).

A pie's slices go clockwise from twelve o'clock, with a legend of labels and shares (and,
with `showData`, values).
"""

from __future__ import annotations

import math

from .marks import (
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
    rect_ops,
)
from .mermaidkinds import Pie

# Pies

RADIUS = 90.0
SWATCH_GAP = 14.0  # px from a legend swatch to its label
ROW_PITCH = 22.0  # px from a one-line legend entry's top to the next one's


def _entry(pie: Pie, label: str, share: float, value: float, measure: Measure) -> Lines:
    """A legend entry: the slice's label and share (and, with `showData`, its value)."""
    shown = f"{value:g} · {share * 100:.1f}%" if pie.show_data else f"{share * 100:.1f}%"
    return measure(f"{label}  {shown}", SMALL_SIZE + 1, False, MAX_LABEL_WIDTH)


def layout_pie(pie: Pie, measure: Measure) -> Drawing:
    """The pie's slices clockwise from twelve o'clock, its legend to the right."""
    total = sum(value for _, value in pie.slices)
    items: list[Mark | Label] = []
    top = 0.0
    if pie.title:
        title = measure(pie.title, LABEL_SIZE + 1, True, 2 * RADIUS + 200)
        items.append(Label(title, RADIUS, 0.0))
        top = title.height + 10
    cx, cy = RADIUS, top + RADIUS
    angle = -math.pi / 2
    entries = [_entry(pie, label, value / total, value, measure) for label, value in pie.slices]
    pitches = [ROW_PITCH + e.height * (len(e.lines) - 1) / len(e.lines) for e in entries]
    legend_x, row_y = 2 * RADIUS + 24, cy - sum(pitches) / 2
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
        items.append(Mark(rect_ops(legend_x, row_y + 2, 12, 12, 2), None, role))
        items.append(Label(entries[i], legend_x + 12 + SWATCH_GAP, row_y, "text", "left"))
        row_y += pitches[i]  # a wrapped entry's row is as tall as its lines
    extra = [(cx - RADIUS, cy - RADIUS), (cx + RADIUS, cy + RADIUS)]
    return finish(items, "\n".join(pie.labels()), extra)
