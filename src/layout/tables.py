"""A GFM `Table` → one `Row` per table row, cells wrapped inside column widths.

Column widths follow CSS automatic table layout: each column gets at least its widest
unbreakable word (min-content) and grows toward its unwrapped text (max-content) in
proportion to how much it wants; a table whose text fits on one line per cell is
stretched to the full width. When even the words do not fit, words break anywhere and a
column shrinks down to its widest single character; a table wider than that at its
narrowest is laid out at that width and scaled down to fit, so no glyph ever leaves its
cell.

Tables see text only through `TextMeasure`, which the flow implements.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol

from .boxes import Fill, Frame, Group, Item, Rect, Row, Segment
from .inline import ContentWidths, Metrics, TextLine
from .markdown import Table, Text
from .shape import Span, SpanStyle
from .style import Style

EPSILON = 1e-6  # px: a sum of shares that rounds past the width still fits


class TextMeasure(Protocol):
    """The text services a table needs: how its runs look, how tall a line is, how text
    breaks inside a width, and how wide it is unbroken."""

    def span_style(self, base: Style, marks: frozenset[str]) -> SpanStyle: ...

    def metrics(self, style: Style) -> Metrics: ...

    def lines(
        self, spans: list[Span], *, x: float, width: float, metrics: Metrics, align: str
    ) -> list[TextLine]: ...

    def widths(self, spans: list[Span]) -> ContentWidths: ...


@dataclass(frozen=True, slots=True)
class TableBox:
    """Where the table goes: its left edge, the width it may fill, the frames it sits in."""

    x: float
    width: float
    frames: tuple[Frame, ...] = ()


class Columns(NamedTuple):
    """Column widths at layout size, and the scale that brings their sum into the box."""

    widths: list[float]
    scale: float


def layout_table(table: Table, style: Style, box: TableBox, text: TextMeasure) -> list[Row]:
    """Rows for the header and each body row."""
    head_style = replace(style, color=style.header_color or style.color)
    body_style = replace(style, weight=400)
    grid = [(head_style, table.header)] + [(body_style, row) for row in table.rows]
    spans = [[_spans(cell, st, text) for cell in cells] for st, cells in grid]
    columns = column_widths(spans, style, box.width, text)
    inner = replace(box, width=sum(columns.widths))
    rows = []
    for index, ((cell_style, _), row_spans) in enumerate(zip(grid, spans, strict=True)):
        row = _row(row_spans, cell_style, columns.widths, table.aligns, inner, text, index == 0)
        rows.append(_scaled(row, columns.scale, box.x))
    return rows


def _spans(cell: tuple[Text, ...], style: Style, text: TextMeasure) -> list[Span]:
    return [
        Span(" ".join(t.text.split()) if t.text.strip() else " ", text.span_style(style, t.marks))
        for t in cell
        if t.text != "\n"
    ]


def column_widths(
    spans: list[list[list[Span]]], style: Style, width: float, text: TextMeasure
) -> Columns:
    """Each column's width; their sum is `width`, or more when `scale` is below 1."""
    _, right, _, left = style.padding
    pad = left + right
    columns = len(spans[0])
    glyphs, words, lines = [pad] * columns, [pad] * columns, [pad] * columns
    for row in spans:
        for col, cell in enumerate(row):
            measured = text.widths(cell)
            glyphs[col] = max(glyphs[col], measured.glyph + pad)
            words[col] = max(words[col], measured.word + pad)
            lines[col] = max(lines[col], measured.line + pad)
    widths = distribute(glyphs, words, lines, width)
    total = sum(widths)
    return Columns(widths, width / total if total > width + EPSILON else 1.0)


def distribute(
    glyphs: list[float], words: list[float], lines: list[float], width: float
) -> list[float]:
    """Splits `width` between columns that need at least glyphs[i] (their widest character),
    would rather not go below words[i] and want at most lines[i]; below the sum of
    `glyphs` the columns keep those widths and the table is scaled."""
    if sum(lines) <= width:
        return [w * width / sum(lines) for w in lines]
    if sum(words) <= width:
        return _between(words, lines, width)
    if sum(glyphs) < width:
        return _between(glyphs, words, width)
    return list(glyphs)


def _between(lows: list[float], highs: list[float], width: float) -> list[float]:
    """From `lows`, the spare width shared in proportion to how much more each wants."""
    wants = [high - low for low, high in zip(lows, highs, strict=True)]
    spare = width - sum(lows)
    return [low + spare * want / sum(wants) for low, want in zip(lows, wants, strict=True)]


def _row(
    cells: list[list[Span]],
    style: Style,
    widths: list[float],
    aligns: tuple[str, ...],
    box: TableBox,
    text: TextMeasure,
    header: bool,
) -> Row:
    """One table row; each cell's lines are one group, cells left to right."""
    top, right, bottom, left = style.padding
    metrics = text.metrics(style)
    x = box.x
    content: list[Item] = []
    tallest = 0.0
    texts = []
    for cell, width, align in zip(cells, widths, aligns, strict=False):
        lines = text.lines(
            cell, x=x + left, width=max(1.0, width - left - right), metrics=metrics, align=align
        )
        y = top
        placed: list[Item] = []
        for line in lines:
            placed.append(Group(line.items, dy=y))
            y += line.height
        content.append(Group(tuple(placed)))
        tallest = max(tallest, y - top)
        texts.append(" ".join(line.text for line in lines))
        x += width
    height = max(tallest, metrics.height) + top + bottom
    chrome: list[Item] = []
    if header and style.header_background is not None:
        chrome.append(Fill(Rect(box.x, 0.0, box.width, height), style.header_background))
    if style.border_color is not None and style.border_width:
        y = height - style.border_width / 2
        chrome.append(
            Segment(box.x, y, box.x + box.width, y, style.border_color, style.border_width)
        )
    return Row(
        height=height,
        items=tuple(chrome + content),
        frames=box.frames,
        keep_with_next=header,
        text=" | ".join(texts),
        baseline=top + metrics.baseline,
    )


def _scaled(row: Row, scale: float, left: float) -> Row:
    """A row of a table too wide for its box, shrunk about the box's left edge."""
    if scale == 1.0:
        return row
    return replace(
        row,
        height=row.height * scale,
        baseline=row.baseline * scale,
        items=(Group(row.items, dx=left * (1 - scale), scale=scale),),
    )
