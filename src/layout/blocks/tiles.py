"""A top-level bullet list as tiles → `Part`: each item on a panel of its own.

A theme turns tiles on by giving the `list_item` role a panel (a background or a border);
its padding, radius and effects shape each tile, its `margin_top` is the gap between
tiles and its `columns` how many sit side by side (glassmorphism's two-column grid of
glass tiles). Tiles carry no bullet: the panel marks the item.

Side by side, the tiles of one line are one row as tall as the tallest (a CSS grid
stretches its items the same way), so they move between cards together, and the grid may
break between any two lines: a list keeps two items on each side of a break, and a line
holds two tiles or more; only a last line of one tile, which spans the line, keeps with
the line above it.
Where a column would be too narrow to read or to hold an item's inline code whole, an item
would run over `MAX_TILE_LINES` lines in it, or a line of tiles is taller than a card, the
tiles stack one per line instead, each a container that can
continue on the next card like a quote.
Numbered lists and task lists keep their markers: a tile would hide the number or box.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..base.boxes import Frame, FrameDecor, Group, Item, Row, rows_text
from ..base.placing import Placement, frame_items, place
from ..parse.doc import ListBlock, ListItem, Paragraph
from ..style.schema import Style
from .parts import (
    MIN_INNER_SHARE,
    Ctx,
    Layouter,
    Overfull,
    Part,
    advance,
    inset,
    new_frame,
)

MIN_COLUMN_EMS = 7.0  # a tile's text column, in em of body text, before tiles stack
# A tile is read at a glance: an item that runs over this many lines in its column reads
# as a paragraph squeezed into a box, and the grid stacks (glassmorphism's reading notes
# at 440x586: two tiles of three lines each, 不 / 亏 parted across a line, ninth look
# rated 3: "use a single column").
MAX_TILE_LINES = 2


def tiled_list(flow: Layouter, block: ListBlock, ctx: Ctx) -> Part | None:
    """The list as tiles, or None where it keeps its markers (see the module notes)."""
    style = flow.styles["list_item"]
    if ctx.depth or block.ordered or not _has_tile(style) or not block.items:
        return None
    if any(item.checked is not None for item in block.items):
        return None
    outer = flow.styles["list"]
    rows = _side_by_side(flow, block.items, style, ctx) or _stacked(flow, block, style, ctx)
    return Part(tuple(rows), outer.margin_top, outer.margin_top)


def _has_tile(style: Style) -> bool:
    return style.background is not None or bool(style.border_width)


def _side_by_side(
    flow: Layouter, items: tuple[ListItem, ...], style: Style, ctx: Ctx
) -> list[Row] | None:
    """Lines of `columns` tiles, or None where they would not read (see module notes)."""
    count = min(style.columns, len(items))
    gap = style.margin_top
    width = (ctx.width - gap * (count - 1)) / count
    _, right, _, left = style.padding
    column = width - left - right
    if count < 2 or column < flow.styles["body"].size * MIN_COLUMN_EMS:
        return None
    if _code_wider_than(flow, items, column, ctx):
        return None
    rows: list[Row] = []
    try:
        with flow.aside(flow.max_row_height):
            for start in range(0, len(items), count):
                line = items[start : start + count]
                # a last tile alone spans the line, as a bento grid's does: at a column's
                # width it left the line's other half empty (glassmorphism's three-item
                # lists, seventh look, every size)
                wide = ctx.width if len(line) == 1 else width
                row = _tile_line(flow, line, style, ctx, wide)
                if row is None:
                    return None
                rows.append(replace(row, gap=gap if rows else 0.0))
    except Overfull:
        return None
    if flow.max_row_height is not None and any(r.height > flow.max_row_height for r in rows):
        return None
    flow.spend(rows)
    if len(items) % count == 1:  # a lone tile never opens a card
        rows[-2] = replace(rows[-2], keep_with_next=True)
    return rows


def _code_wider_than(flow: Layouter, items: tuple[ListItem, ...], width: float, ctx: Ctx) -> bool:
    """Whether an item's inline code is wider than `width`, a tile's column: it would break
    inside (glassmorphism's `await asyncio.` / `sleep()` in the asyncio tutorial's tiles),
    where stacked tiles give it the list's whole width."""
    body = flow.styles["body"]
    for item in items:
        for block in item.blocks:
            for text in block.inlines if isinstance(block, Paragraph) else ():
                if "inline_code" not in text.marks:
                    continue
                if advance(flow, text.text, flow.span_style(body, text.marks, ctx)) > width:
                    return True
    return False


def _tile_line(
    flow: Layouter, line: tuple[ListItem, ...], style: Style, ctx: Ctx, width: float
) -> Row | None:
    """One line of tiles: each item laid out in its column, the panels as tall as the
    tallest item; None where two or more share the line and a block of one runs over
    `MAX_TILE_LINES` lines (`_longest_text`)."""
    top, right, bottom, left = style.padding
    placements: list[tuple[float, Placement]] = []
    for index, item in enumerate(line):
        x = ctx.x + index * (width + style.margin_top)
        column = Ctx(
            x + left,
            max(1.0, width - left - right),
            floor=width * MIN_INNER_SHARE,
            color=ctx.color,
            italic=ctx.italic,
            depth=1,
            letter_spacing=ctx.letter_spacing,
        )
        placements.append((x, place(flow.stack(item.blocks, column).rows)))
    if len(line) > 1 and max(_longest_text(p) for _, p in placements) > MAX_TILE_LINES:
        return None
    height = top + max(p.height for _, p in placements) + bottom
    items: list[Item] = []
    texts: list[str] = []
    for x, placement in placements:
        panel = Frame(0, top, bottom, _decor(style, x, width))
        items.extend(frame_items(Placement((), height, ((panel, 0.0, height),)), 0.0, 0.0))
        items.extend(frame_items(placement, 0.0, top))
        items.extend(Group(p.row.items, dy=top + p.y) for p in placement.rows if p.row.items)
        texts.append(rows_text(p.row for p in placement.rows))
    return Row(height=height, items=tuple(items), frames=ctx.frames, text="\n".join(texts))


def _longest_text(placement: Placement) -> int:
    """How many lines the tile's longest block of text runs to (a nested list's items
    are blocks of their own: a heading item over two bullets is a tile still)."""
    lines = Counter(p.row.source for p in placement.rows if p.row.text)
    return max(lines.values(), default=0)


def _stacked(flow: Layouter, block: ListBlock, style: Style, ctx: Ctx) -> list[Row]:
    """One tile per line, each a container whose rows can break across cards."""
    rows: list[Row] = []
    for item in block.items:
        frame = new_frame(flow, "list_item", ctx)
        frame = replace(frame, decor=_decor(style, frame.decor.x, frame.decor.width))
        inner = replace(inset(ctx, style, frame), depth=ctx.depth + 1)
        part = flow.tag(flow.stack(item.blocks, inner), "ListItem")
        if not part.rows:
            continue
        first = replace(part.rows[0], gap=style.margin_top if rows else 0.0)
        rows.extend((first, *part.rows[1:]))
    return rows


def _decor(style: Style, x: float, width: float) -> FrameDecor:
    return FrameDecor(
        x=x,
        width=width,
        fill=style.background,
        radius=style.radius,
        border_color=style.border_color,
        border_width=style.border_width,
        effects=style.effects,
        role="list_item",
    )
