"""The post's footnotes (`Notes`) + its box → `Part`: a small block after the last content.

A hairline in the theme's rule colour, the label (注释 or Notes) and each note after its
number `[n]`, as the references are numbered in the text. The notes are in the caption's
size (the image role's) and the body's colour (muted small print fails contrast on some
themes' paper); a note keeps its
first two and last two lines together, and the label stays with the first note. In a split
post they close its last card, never one card's own notes.
"""

from __future__ import annotations

from dataclasses import replace

from ..base.boxes import Row, Segment
from ..parse.doc import Notes, Text
from .marks import rule_segments
from .parts import Ctx, Layouter, Part, keep_ends_together, line_row

NOTE_GAP = 0.3  # em of the notes' size between two notes
LABEL_GAP = 0.6  # em between the hairline and the label


def notes(flow: Layouter, block: Notes, ctx: Ctx) -> Part:
    if not block.notes:
        return Part(())
    body, caption, hr = flow.styles["body"], flow.styles["image"], flow.styles["hr"]
    style = replace(body, size=caption.size, align="left")
    plain = replace(ctx, color=None, italic=False)
    paint = hr.border_color if hr.border_color is not None else hr.color
    line = Segment(0, 0, 0, 0, paint, hr.border_width, None)
    y = hr.border_width / 2
    rows = [
        Row(
            height=hr.border_width,
            items=rule_segments(ctx.x, ctx.width, y, None, line),
            frames=ctx.frames,
            keep_with_next=True,
        )
    ]
    label = flow.text_lines((Text(block.label, frozenset({"strong"})),), style, plain)
    for text_line in label:
        rows.append(replace(line_row(text_line, ctx, keep=True), gap=style.size * LABEL_GAP))
    for number, note in enumerate(block.notes, start=1):
        lines = flow.text_lines((Text(f"[{number}] "), *note), style, plain, rows=True)
        made = keep_ends_together([line_row(text_line, ctx) for text_line in lines])
        if made:
            made[0] = replace(made[0], gap=style.size * NOTE_GAP)
        rows.extend(made)
    flow.spend(rows)
    return Part(tuple(rows), body.margin_top * 2, body.margin_bottom)
