"""A GFM `Table` → one `Row` per table row, cells wrapped inside column widths.

Column widths follow CSS automatic table layout: each column gets at least its widest
unbreakable word (min-content) and grows toward its unwrapped text (max-content) in
proportion to how much it wants; a table whose text fits on one line per cell is
stretched to the full width.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .boxes import Fill, Group, Item, Rect, Row, Segment
from .inline import layout_text, measure_widths
from .markdown import Table, Text
from .shape import Span
from .style import Style


def layout_table(table: Table, style: Style, ctx: Any, flow: Any) -> list[Row]:
    """Rows for the header and each body row; `flow` supplies spans and metrics."""
    head_style = replace(style, color=style.header_color or style.color)
    body_style = replace(style, weight=400)
    grid = [(head_style, table.header)] + [(body_style, row) for row in table.rows]
    spans = [[_spans(cell, st, ctx, flow) for cell in cells] for st, cells in grid]
    widths = column_widths(spans, style, ctx.width, flow.fonts)
    rows = []
    for index, ((cell_style, _), row_spans) in enumerate(zip(grid, spans, strict=False)):
        rows.append(_row(row_spans, cell_style, widths, table.aligns, ctx, flow, header=index == 0))
    return rows


def _spans(cell: tuple[Text, ...], style: Style, ctx: Any, flow: Any) -> list[Span]:
    return [
        Span(
            " ".join(t.text.split()) if t.text.strip() else " ",
            flow.span_style(style, t.marks, ctx),
        )
        for t in cell
        if t.text != "\n"
    ]


def column_widths(
    spans: list[list[list[Span]]], style: Style, width: float, fonts: Any
) -> list[float]:
    _, right, _, left = style.padding
    pad = left + right
    columns = len(spans[0])
    lows = [pad] * columns
    highs = [pad] * columns
    for row in spans:
        for col, cell in enumerate(row):
            low, high = measure_widths(cell, fonts)
            lows[col] = max(lows[col], low + pad)
            highs[col] = max(highs[col], high + pad)
    return distribute(lows, highs, width)


def distribute(lows: list[float], highs: list[float], width: float) -> list[float]:
    """Splits `width` between columns that want between lows[i] and highs[i]."""
    if sum(highs) <= width:
        return [h * width / sum(highs) for h in highs]
    if sum(lows) >= width:
        return [low * width / sum(lows) for low in lows]
    wants = [h - low for low, h in zip(lows, highs, strict=False)]
    spare = width - sum(lows)
    return [low + spare * w / sum(wants) for low, w in zip(lows, wants, strict=False)]


def _row(
    cells: list[list[Span]],
    style: Style,
    widths: list[float],
    aligns: tuple[str, ...],
    ctx: Any,
    flow: Any,
    *,
    header: bool,
) -> Row:
    top, right, bottom, left = style.padding
    metrics = flow.metrics(style)
    x = ctx.x
    content: list[Item] = []
    tallest = 0.0
    texts = []
    for cell, width, align in zip(cells, widths, aligns, strict=False):
        lines = layout_text(
            cell,
            flow.fonts,
            x=x + left,
            width=max(1.0, width - left - right),
            metrics=metrics,
            align=align,
        )
        y = top
        for line in lines:
            content.append(Group(line.items, dy=y))
            y += line.height
        tallest = max(tallest, y - top)
        texts.append(" ".join(line.text for line in lines))
        x += width
    height = max(tallest, metrics.height) + top + bottom
    chrome: list[Item] = []
    if header and style.header_background is not None:
        chrome.append(Fill(Rect(ctx.x, 0.0, ctx.width, height), style.header_background))
    if style.border_color is not None and style.border_width:
        y = height - style.border_width / 2
        chrome.append(
            Segment(ctx.x, y, ctx.x + ctx.width, y, style.border_color, style.border_width)
        )
    return Row(
        height=height,
        items=tuple(chrome + content),
        frames=ctx.frames,
        keep_with_next=header,
        text=" | ".join(texts),
        baseline=top + metrics.baseline,
    )
