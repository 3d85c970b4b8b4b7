"""An mdxMode component block + its box → `Part`.

Each is drawn with the theme's own knobs, so it looks native:

- Columns: each column is laid out in its share of the width (gaps between), placed on
  its own, and the columns become one row as tall as the tallest. On fixed-size cards
  (autoSplit) a columns block taller than a card is laid out as stacked columns instead:
  each column's blocks at the full width, one column after the other, so they flow from
  card to card and nothing is lost or shrunk.
- Callout: laid out by callouts.py (GitHub alerts use it outside mdxMode too).
- Quote with author: the theme's quote, its author signed below, right-aligned.
- Steps: the theme's list number badges beside each step's title and content.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..base.boxes import Frame, Group, Item, Row, rows_text
from ..base.placing import frame_items, place
from ..parse.doc import Block, Cited, Columns, Paragraph, Quote, Steps, Text
from .lists import MARKER_RISE, number_badge
from .panels import quote
from .parts import MIN_INNER_SHARE, BlockLayout, Ctx, Layouter, Overfull, Part, line_row

COLUMN_GAP = 1.0  # between columns, in em of body text


def columns(flow: Layouter, block: Columns, ctx: Ctx) -> Part:
    body = flow.styles["body"]
    count = len(block.columns)
    if not count:
        return Part(())
    gap = body.size * COLUMN_GAP
    width = max(1.0, (ctx.width - gap * (count - 1)) / count)
    boxes = [
        (blocks, ctx.x + index * (width + gap), width) for index, blocks in enumerate(block.columns)
    ]
    made = side_by_side(flow, boxes, ctx, flow.max_row_height)
    if made is None:
        return flow.stack(tuple(b for blocks in block.columns for b in blocks), ctx)
    return Part((made[0],), body.margin_top, body.margin_bottom)


Column = tuple[tuple[Block, ...], float, float]  # its blocks, its x and its width


def side_by_side(
    flow: Layouter, columns: Sequence[Column], ctx: Ctx, allowed: float | None
) -> tuple[Row, list[float]] | None:
    """Columns of blocks, each laid out in its own box and placed on its own, as one row
    as tall as the tallest, and each column's height; None where one is taller than
    `allowed` while laid out, or the row, its table rows set tight, taller than a card
    (the caller stacks them instead). The row's `tight` is it with its table rows set
    tight, for the page breaker to fit a card with (squeeze.py)."""
    laid: list[tuple[Row, ...]] = []
    try:
        for blocks, x, width in columns:
            with flow.aside(allowed):  # a column too tall stops being laid out here
                column = Ctx(x, width, floor=width * MIN_INNER_SHARE, color=ctx.color)
                column = replace(column, italic=ctx.italic, letter_spacing=ctx.letter_spacing)
                laid.append(flow.stack(blocks, column).rows)
    except Overfull:
        return None
    row, heights = _joined(laid, ctx, tight=False)
    if any(r.tight is not None for rows in laid for r in rows):
        row = replace(row, tight=_joined(laid, ctx, tight=True)[0])
    if flow.max_row_height is not None and (row.tight or row).height > flow.max_row_height:
        return None
    flow.spend((row,))
    return row, heights


def _joined(laid: list[tuple[Row, ...]], ctx: Ctx, *, tight: bool) -> tuple[Row, list[float]]:
    """Each column's rows placed from the row's top (with `tight`, table rows set tight),
    as one row, and each column's height."""
    items: list[Item] = []
    texts: list[str] = []
    heights: list[float] = []
    panels: list[tuple[Frame, float, float]] = []
    for rows in laid:
        placement = place([(row.tight or row) if tight else row for row in rows])
        panels.extend(placement.frames)
        items.extend(frame_items(placement, 0.0, 0.0))
        items.extend(Group(p.row.items, dy=p.y) for p in placement.rows if p.row.items)
        texts.append(rows_text(p.row for p in placement.rows))
        heights.append(placement.height)
    height = max(heights, default=0.0)
    text = "\n".join(texts)
    row = Row(height=height, items=tuple(items), frames=ctx.frames, text=text, panels=tuple(panels))
    return row, heights


def cited(flow: Layouter, block: Cited, ctx: Ctx) -> Part:
    part = quote(flow, Quote(block.blocks), ctx)  # the theme's quote, signed inside it
    if not block.author or not part.rows:
        return part
    frames = part.rows[-1].frames
    style = flow.styles["body"]
    x, width = ctx.x, ctx.width
    if len(frames) > len(ctx.frames):  # inside the quote's panel, within its padding
        _, right, _, left = flow.styles["quote"].padding
        decor = frames[-1].decor
        x, width = decor.x + left, max(1.0, decor.width - left - right)
    sign = Ctx(x, width, frames=frames, color=flow.looks.accent_pair()[0])
    lines = flow.text_lines((Text(f"— {block.author}"),), style, sign, align="right")
    rows = [line_row(line, sign) for line in lines]
    flow.spend(rows)
    if rows:
        rows[0] = replace(rows[0], gap=style.size * 0.4)
        rows = [replace(part.rows[-1], keep_with_next=True), *rows]
    return Part((*part.rows[:-1], *rows), part.top, part.bottom)


def steps(flow: Layouter, block: Steps, ctx: Ctx) -> Part:
    listing = flow.styles["list"]
    body = flow.styles["body"]
    if not block.steps:
        return Part(())
    widest = number_badge(flow, len(block.steps), 0.0, 0.0)[1]
    indent = widest + listing.marker_gap
    inner = replace(ctx, x=ctx.x + indent, width=max(1.0, ctx.width - indent), depth=1)
    rows: list[Row] = []
    for number, step in enumerate(block.steps, start=1):
        blocks: tuple[Block, ...] = step.blocks
        if step.title:
            blocks = (Paragraph((Text(step.title, frozenset({"strong"})),)), *blocks)
        part = flow.stack(blocks, replace(inner, tight=True))
        first = part.rows[0] if part.rows else _empty_row(flow, ctx)
        if not part.rows:
            flow.spend((first,))
        baseline = first.baseline or flow.metrics(body).baseline
        mid = baseline - body.size * MARKER_RISE
        badge = number_badge(flow, number, ctx.x + widest, mid)[0]
        gap = listing.item_gap + (body.size * 0.5 if rows else 0.0)
        keep = first.keep_with_next or len(part.rows) > 1  # a number stays with its text
        rows.append(replace(first, items=badge + first.items, gap=gap, keep_with_next=keep))
        rows.extend(part.rows[1:])
    return Part(tuple(rows), listing.margin_top, listing.margin_top)


def _empty_row(flow: Layouter, ctx: Ctx) -> Row:
    metrics = flow.metrics(flow.styles["body"])
    return Row(height=metrics.height, items=(), frames=ctx.frames, baseline=metrics.baseline)


COMPONENT_LAYOUTS: Mapping[type, BlockLayout] = {
    Columns: columns,
    Cited: cited,
    Steps: steps,
}
