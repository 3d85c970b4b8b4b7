"""A GFM table + its box → `Part`: tables.rows's rows, with the flow's text services.

The adapter between the flow and tables.rows: the table sees text only through `TextIn`
(its `TextMeasure`), which inherits the colour and italic of the containers it sits in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import msgspec

from ..base.boxes import Frame, FrameDecor, Row
from ..parse.doc import Table
from ..style.schema import Style
from ..style.spanstyle import Span, SpanStyle
from ..text.breakpoints import ContentWidths, measure_widths
from ..text.inline import layout_text
from ..text.linebox import Metrics, TextLine
from .parts import Ctx, Layouter, Part
from .tables.rows import TableBox, layout_table, unwrapped_width

SMALL_TABLE = 6  # a table of at most this many body rows moves whole to the next card


def table(flow: Layouter, block: Table, ctx: Ctx) -> Part:
    style = flow.styles["table"]
    outline = (lambda: _table_outline(flow, style, ctx)) if style.outline_width else None
    box = TableBox(ctx.x, ctx.width, ctx.frames, outline)
    rows = keep_small_table(layout_table(block, style, box, TextIn(flow, ctx)), flow.max_row_height)
    return Part(tuple(rows), style.margin_top, style.margin_bottom)


def table_width(flow: Layouter, block: Table, ctx: Ctx) -> float:
    """The width `table` lays out to in `ctx` with every cell on one line."""
    return unwrapped_width(block, flow.styles["table"], TextIn(flow, ctx))


def _table_outline(flow: Layouter, style: Style, ctx: Ctx) -> Frame:
    """The frame that draws a table's outline on every card it spans: a stroke just
    inside the box, its outer corners at `radius`; its padding keeps rows off it."""
    w = style.outline_width
    paint = style.outline_color if style.outline_color is not None else style.border_color
    decor = FrameDecor(
        x=ctx.x + w / 2,
        width=ctx.width - w,
        radius=max(0.0, style.radius - w / 2),
        border_color=paint if paint is not None else style.color,
        border_width=w,
        role="table",
    )
    return Frame(flow.next_frame_id(), w / 2, w / 2, decor)


def keep_small_table(rows: list[Row], limit: float | None) -> list[Row]:
    """On fixed-size cards, a table of at most SMALL_TABLE body rows that fits one card
    moves whole: every row but the last keeps with the next."""
    bodies = sum(1 for row in rows if row.header is not None)
    height = sum(row.height + row.gap for row in rows)
    if limit is None or bodies > SMALL_TABLE or height > limit:
        return rows
    return [replace(row, keep_with_next=True) for row in rows[:-1]] + rows[-1:]


class TextIn(msgspec.Struct, frozen=True):
    """The flow's text services for a table in `ctx`, whose colour and italic it inherits
    (the `tables.TextMeasure` a table sees)."""

    flow: Layouter
    ctx: Ctx

    def span_style(self, base: Style, marks: frozenset[str]) -> SpanStyle:
        return self.flow.span_style(base, marks, self.ctx)

    def metrics(self, style: Style) -> Metrics:
        return self.flow.metrics(style)

    def lines(
        self, spans: list[Span], *, x: float, width: float, metrics: Metrics, align: str, keep: int
    ) -> list[TextLine]:
        fonts = self.flow.fonts
        return layout_text(spans, fonts, x=x, width=width, metrics=metrics, align=align, keep=keep)

    def widths(self, spans: list[Span], keep: int) -> ContentWidths:
        return measure_widths(spans, self.flow.fonts, keep)

    def spend(self, rows: Sequence[Row]) -> None:
        self.flow.spend(rows)
