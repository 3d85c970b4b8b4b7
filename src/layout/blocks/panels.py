"""A block quote or fenced code block + its box → `Part`: the blocks drawn on a panel.

A quote's blocks sit inside its padding and bar, in its colour, italic and letter
spacing (too deep to indent, they join the parent's). A code block is highlighted line by
line, each source line at least one row, never justified or hyphenated.
"""

from __future__ import annotations

from dataclasses import replace

from ..base.boxes import Row
from ..parse.code import highlight
from ..parse.doc import CodeBlock, Quote
from ..style.spanstyle import Span
from ..text.inline import layout_text
from .parts import (
    Ctx,
    Layouter,
    Part,
    indent,
    inset,
    line_row,
    new_frame,
)


def quote(flow: Layouter, block: Quote, ctx: Ctx) -> Part:
    style = flow.styles["quote"]
    _, right, _, left = style.padding
    if indent(ctx, left, right) is ctx:  # too deep to indent: its blocks join the parent's
        return flow.stack(block.blocks, ctx)
    inner = replace(
        inset(ctx, style, new_frame(flow, "quote", ctx, bar=True)),
        color=style.color,
        italic=style.italic,
        tight=False,
        letter_spacing=style.letter_spacing or ctx.letter_spacing,
    )
    part = flow.stack(block.blocks, inner)
    return Part(part.rows, style.margin_top, style.margin_bottom)


def code(flow: Layouter, block: CodeBlock, ctx: Ctx) -> Part:
    style = flow.styles["code_block"]
    frame = new_frame(flow, "code_block", ctx)
    inner = inset(ctx, style, frame)
    metrics = flow.metrics(style)
    rows: list[Row] = []
    line_ends: set[int] = set()  # the last row of each source line (it may wrap)
    for tokens in highlight(block.code, block.lang, flow.styles.palette, style.color):
        spans = [Span(text, flow.looks.code(style, color)) for text, color in tokens]
        lines = (
            layout_text(
                spans, flow.fonts, x=inner.x, width=inner.width, metrics=metrics, prose=False
            )
            if spans
            else []
        )
        made = [line_row(line, inner) for line in lines] or [
            # an empty source line still takes a line
            Row(height=metrics.height, items=(), frames=inner.frames, baseline=metrics.baseline)
        ]
        flow.spend(made)
        rows.extend(made)
        line_ends.add(len(rows) - 1)
    return Part(tuple(_kept_whole(rows, line_ends)), style.margin_top, style.margin_bottom)


def _kept_whole(rows: list[Row], line_ends: set[int]) -> list[Row]:
    """A code block stays on one card: every row keeps with the next. The ends of its
    inner source lines are also `keep_soft`, the fallback breaks taken only when the block
    is taller than a card: it then breaks between source lines, never inside a wrapped
    one, and its first two and last two rows stay together."""
    last = len(rows) - 2
    return [
        replace(row, keep_with_next=i <= last, keep_soft=0 < i < last and i in line_ends)
        for i, row in enumerate(rows)
    ]
