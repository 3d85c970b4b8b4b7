"""A GFM `Table` → one `Row` per table row, cells wrapped inside the column widths
`widths` gives (CSS automatic table layout, with a designer's preferences).

Words stay whole: in a cell a run of up to KEEP_WHOLE characters between spaces ("10月",
"指标", "1,250") is one word, and a longer run of Chinese keeps at least that many
characters a line. When the words do not fit, the table
is laid out at their widths and scaled down, but not below MIN_TEXT_SIZE; a table wider
than that is split into column groups, runs of consecutive columns that fit side by side
with their words whole, drawn one under another as tables of their own (same rows,
header row in each, a row-label first column repeated), so they paginate like any rows.
Only a column whose longest word alone is too wide for the card even at the smallest
scale has its words broken between characters, at full size, so no glyph leaves its cell.

Tables see text only through `TextMeasure`, which the flow implements.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol

from ...base.boxes import Frame, Group, Item, Rect, Row, Segment
from ...parse.doc import Table, Text
from ...style.schema import Style
from ...style.spanstyle import Span, SpanStyle
from ...text.breakpoints import ContentWidths
from ...text.linebox import Metrics, TextLine
from ..marks import corner_fill
from .widths import (
    EPSILON,
    ONE_LINE_SCALE,
    ColumnNeeds,
    column_groups,
    column_widths,
)

# A table is not scaled below 12 px text (14.4 px table text: scale 0.83); wider ones are
# split into column groups. 12 px is the floor Chinese-locale browsers long put on text.
MIN_TEXT_SIZE = 12.0
# Before a row wraps, its cells' side padding may shrink to this share (`_tight_sides`): the
# 18-city table (five columns, 20 px of padding each) was 31 px over 400 and wrapped a
# third of its rows; with 12 px a column every row is one line at full size.
TIGHT_SIDES = 0.6
COMFORT_EMS = 6.0  # in a column group, a column of long text gets six characters a line
TIGHT_PADDING = 0.4  # of a row's top and bottom padding kept where a card sets it tight
# A cell never breaks a run of up to 4 characters between spaces: "10月", "第一季度", "-12%".
KEEP_WHOLE = 4
_NUMBER = re.compile(r"[-+±−]?[$¥€£]?[\d.,]+%?")


class TextMeasure(Protocol):
    """The text services a table needs: how its runs look, how tall a line is, how text
    breaks inside a width, and how wide it is unbroken."""

    def span_style(self, base: Style, marks: frozenset[str]) -> SpanStyle: ...

    def metrics(self, style: Style) -> Metrics: ...

    def lines(
        self, spans: list[Span], *, x: float, width: float, metrics: Metrics, align: str, keep: int
    ) -> list[TextLine]: ...

    def widths(self, spans: list[Span], keep: int) -> ContentWidths: ...

    def spend(self, rows: Sequence[Row]) -> None:
        """Counts each row as it is made (the flow may stop a table too long for its cards)."""
        ...


@dataclass(frozen=True, slots=True)
class TableBox:
    """Where the table goes: its left edge, the width it may fill, the frames it sits in,
    and, for a table with an outline, a maker of the frame that draws it (one per table,
    so each column group gets its own)."""

    x: float
    width: float
    frames: tuple[Frame, ...] = ()
    outline: Callable[[], Frame] | None = None


class RowPlace(NamedTuple):
    """Where a row sits in its table: the header, a striped body row, the last row."""

    header: bool
    stripe: bool = False
    last: bool = False


class Sizing(NamedTuple):
    """The box a table fills and the smallest scale its text may take."""

    box: TableBox
    floor: float


def layout_table(table: Table, style: Style, box: TableBox, text: TextMeasure) -> list[Row]:
    """Rows for the header and each body row; a table too wide to read when scaled down
    comes as column groups, one under another, each an ordinary table with its header."""
    styles, spans = _cell_spans(table, style, text)
    needs = measure_columns(spans, style, text)
    floor = min(1.0, MIN_TEXT_SIZE / style.size)
    tight, needs = _tight_sides(style, needs, box.width, floor)
    if tight is not style:
        style = tight
        styles = [replace(st, padding=tight.padding) for st in styles]
    comfort = COMFORT_EMS * style.size + style.padding[1] + style.padding[3]
    labels = _has_row_labels(table)
    rows: list[Row] = []
    for index, group in enumerate(column_groups(needs, box.width, floor, comfort, labels)):
        framed = box if box.outline is None else replace(box, frames=(*box.frames, box.outline()))
        part = _table_rows(
            styles,
            [[row[col] for col in group] for row in spans],
            [table.aligns[col] for col in group],
            needs.pick(group),
            Sizing(framed, floor),
            text,
        )
        gap = max(style.margin_top, style.margin_bottom) if index else 0.0
        rows.append(replace(part[0], gap=gap))
        rows.extend(replace(body, header=part[0]) for body in part[1:])  # repeated on a new card
    return rows


def unwrapped_width(table: Table, style: Style, text: TextMeasure) -> float:
    """The width the table takes with every cell on one line, padding included."""
    return sum(measure_columns(_cell_spans(table, style, text)[1], style, text).lines)


def _cell_spans(
    table: Table, style: Style, text: TextMeasure
) -> tuple[list[Style], list[list[list[Span]]]]:
    """Each row's style (the header's, then the body's) and each cell's spans."""
    head_style = replace(style, color=style.header_color or style.color)
    body_style = replace(style, weight=400)
    styles = [head_style] + [body_style] * len(table.rows)
    cells = [table.header, *table.rows]
    spans = [
        [_spans(cell, st, text) for cell in row] for st, row in zip(styles, cells, strict=True)
    ]
    return styles, spans


def _tight_sides(
    style: Style, needs: ColumnNeeds, width: float, floor: float
) -> tuple[Style, ColumnNeeds]:
    """`style` with its cells' side padding down to `TIGHT_SIDES` of itself, and `needs`
    with it, where that sets every cell on one line (within `ONE_LINE_SCALE`) and the
    theme's own padding would wrap some or scale the table: a designer tightens a table's
    columns before breaking its rows or setting its text smaller. Else both as they are."""
    top, right, bottom, left = style.padding
    less = (right + left) * (1.0 - TIGHT_SIDES)  # a column's
    lines = sum(needs.lines)
    scale = max(floor, ONE_LINE_SCALE)
    if lines <= width + EPSILON or (lines - len(needs.lines) * less) * scale > width + EPSILON:
        return style, needs
    padding = (top, right * TIGHT_SIDES, bottom, left * TIGHT_SIDES)
    return replace(style, padding=padding), needs.less(less)


def _table_rows(
    styles: list[Style],
    spans: list[list[list[Span]]],
    aligns: list[str],
    needs: ColumnNeeds,
    sizing: Sizing,
    text: TextMeasure,
) -> list[Row]:
    """One table's rows (or one column group's), scaled down if it must."""
    box = sizing.box
    columns = column_widths(needs, box.width, sizing.floor)
    inner = replace(box, width=sum(columns.widths))
    rows = []
    for index, (cell_style, row_spans) in enumerate(zip(styles, spans, strict=True)):
        place = RowPlace(index == 0, index > 0 and index % 2 == 0, index == len(spans) - 1)
        row = _scaled(
            _row(row_spans, cell_style, columns.widths, aligns, inner, text, place),
            columns.scale,
            box.x,
        )
        text.spend((row,))
        rows.append(row)
    return rows


def _spans(cell: tuple[Text, ...], style: Style, text: TextMeasure) -> list[Span]:
    return [
        Span(" ".join(t.text.split()) if t.text.strip() else " ", text.span_style(style, t.marks))
        for t in cell
        if t.text != "\n"
    ]


def _has_row_labels(table: Table) -> bool:
    """Whether the first column names its rows: every body cell in it has text and none
    is a number (a column of figures is data, not a label)."""
    if len(table.header) < 2 or not table.rows:
        return False
    firsts = ["".join(t.text for t in row[0]).strip() for row in table.rows]
    return all(first and not _NUMBER.fullmatch(first) for first in firsts)


def measure_columns(spans: list[list[list[Span]]], style: Style, text: TextMeasure) -> ColumnNeeds:
    """Each column's widest character, longest word and unwrapped text, padding included
    (a cell like one measured before is not measured again: long tables repeat cells)."""
    _, right, _, left = style.padding
    pad = left + right
    columns = len(spans[0])
    glyphs, words, lines = [pad] * columns, [pad] * columns, [pad] * columns
    known: dict[tuple[Span, ...], ContentWidths] = {}
    for row in spans:
        for col, cell in enumerate(row):
            key = tuple(cell)
            measured = known.get(key)
            if measured is None:
                measured = known[key] = text.widths(cell, KEEP_WHOLE)
            glyphs[col] = max(glyphs[col], measured.glyph + pad)
            words[col] = max(words[col], measured.word + pad)
            lines[col] = max(lines[col], measured.line + pad)
    return ColumnNeeds(glyphs, words, lines)


def _row(
    cells: list[list[Span]],
    style: Style,
    widths: list[float],
    aligns: Sequence[str],
    box: TableBox,
    text: TextMeasure,
    place: RowPlace,
) -> Row:
    """One table row; each cell's lines are one group, cells left to right."""
    top, right, bottom, left = style.padding
    metrics = text.metrics(style)
    x = box.x
    content: list[Item] = []
    tallest = 0.0
    texts = []
    for cell, width, align in zip(cells, widths, aligns, strict=False):
        room = max(1.0, width - left - right)
        lines = text.lines(
            cell, x=x + left, width=room, metrics=metrics, align=align, keep=KEEP_WHOLE
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
    lines_height = max(tallest, metrics.height)  # the tallest cell's lines, one at least
    height = lines_height + top + bottom
    row = _assembled(style, box, widths, place, content, height, texts)
    # the same row with less padding: the page breaker sets a card's table rows so when
    # that lets the card end the table (a heading and its five rows, 9 px over a slide)
    pad = (1.0 - TIGHT_PADDING) * (top + bottom)
    lifted = (Group(tuple(content), dy=-(1.0 - TIGHT_PADDING) * top),)
    tight = _assembled(style, box, widths, place, lifted, height - pad, texts)
    # the last line's baseline, the one ruled paper rules under: a rule under a wrapped
    # cell's first line ran through the row, its second line hanging below (notebook's git
    # table, "整个提交 / 都不要了", tenth look)
    last = lines_height - metrics.height + metrics.baseline
    tight = replace(tight, baseline=top * TIGHT_PADDING + last)
    return replace(row, baseline=top + last, tight=tight)


def _assembled(
    style: Style,
    box: TableBox,
    widths: list[float],
    place: RowPlace,
    content: Sequence[Item],
    height: float,
    texts: list[str],
) -> Row:
    """A row of `height`: its chrome under the cells' `content`."""
    return Row(
        height=height,
        items=tuple(_chrome(style, box, widths, height, place) + list(content)),
        frames=box.frames,
        keep_with_next=place.header,
        text=" | ".join(texts),
    )


def _chrome(
    style: Style, box: TableBox, widths: list[float], height: float, place: RowPlace
) -> list[Item]:
    """A row's background (header, stripe) and rules: under the row (`grid` "rows"), round
    every cell ("full") or none. Inside an outline (drawn by the table's frame) fills and
    rules stop at its inner edge, the outer rules are the outline's, and fills round their
    corners to the outline's inner radius."""
    w = style.outline_width
    left, right = box.x + w, box.x + box.width - w
    items: list[Item] = []
    fill = style.header_background if place.header else None
    if place.stripe and style.stripe_background is not None:
        fill = style.stripe_background
    if fill is not None:
        rect = Rect(left, 0.0, box.width - 2 * w, height)
        radius = max(0.0, style.radius - w)
        items.append(corner_fill(rect, fill, radius, top=place.header, bottom=place.last))
    paint, width = style.border_color, style.border_width
    if paint is None or not width or style.grid == "none":
        return items
    y = height - width / 2
    if not (place.last and w):  # the outline closes the last row
        items.append(Segment(left, y, right, y, paint, width))
    if style.grid == "full":
        edges = [box.x + sum(widths[:i]) for i in range(1, len(widths))]
        if not w:  # no outline: the full grid draws the table's own edges
            edges = [box.x + width / 2, *edges, box.x + box.width - width / 2]
            if place.header:
                items.append(Segment(left, width / 2, right, width / 2, paint, width))
        items.extend(Segment(x, 0.0, x, height, paint, width) for x in edges)
    return items


def _scaled(row: Row, scale: float, left: float) -> Row:
    """A row of a table too wide for its box, shrunk about the box's left edge."""
    if scale == 1.0:
        return row
    return replace(
        row,
        height=row.height * scale,
        baseline=row.baseline * scale,
        items=(Group(row.items, dx=left * (1 - scale), scale=scale),),
        tight=None if row.tight is None else _scaled(row.tight, scale, left),
    )
