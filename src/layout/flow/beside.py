"""A small table and its note, side by side on a wide card (a 16:9 slide) → one row.

A slide's text box is about twice as wide as it is tall, and a narrow table stretched
across it leaves its columns far apart: a recipe's five-row table of ingredients, its
heading and its tip stacked under it were taller than a 1600x900 slide holds at a legible
zoom, so the tip opened the next slide alone, above the method (24 of 30 theme-modes;
issue 41, class 4). A designer sets such a note beside its table: the table keeps at least
half the width (`TABLE_SHARE`), the note takes the rest, and the two are one row that
moves whole. Only where the note ends the table's section (a heading, a rule or the end
follows), the table moves whole anyway (`SMALL_TABLE` rows) and fits `TABLE_SHARE` with
every cell on one line, the note laid out beside it is no taller than the table, and the
two stacked, the table's rows set tight, do not fit one card with its heading (where
they do, a source line reads better under its table, as the fund explainer's does).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.placing import place
from ..blocks.components import COLUMN_GAP, side_by_side
from ..blocks.figures import on_a_slide
from ..blocks.parts import Ctx, Layouter, Part
from ..blocks.tableflow import SMALL_TABLE, table_width
from ..parse.doc import Block, Callout, Heading, Quote, Rule, Table

TABLE_SHARE = (0.5, 0.68)  # the least and the most of the width a table beside a note takes
NOTES = (Quote, Callout)  # asides: a source line or a caption (a paragraph) reads under its table


def table_and_note(
    flow: Layouter, blocks: Sequence[Block], index: int, ctx: Ctx, kept: float
) -> Part | None:
    """`blocks[index]` (a table) with the note after it as one row; None where they stack.
    `kept`: the height of what keeps with the table (its heading)."""
    if not _wide(flow, ctx) or not _has_note(blocks, index):
        return None
    table = blocks[index]
    assert isinstance(table, Table)
    gap = flow.styles["body"].size * COLUMN_GAP
    least, most = (share * ctx.width for share in TABLE_SHARE)
    width = max(least, table_width(flow, table, ctx))  # measured: cheaper than laid out
    if width > most or _stack_fits(flow, blocks, index, ctx, kept):
        return None
    columns = [
        ((table,), ctx.x, width),
        ((blocks[index + 1],), ctx.x + width + gap, ctx.width - width - gap),
    ]
    made = side_by_side(flow, columns, ctx, None)  # a small table and one block
    if made is None or made[1][1] > made[1][0]:
        return None
    style = flow.styles["table"]  # the heading after it sets the larger margin between
    return Part((made[0],), style.margin_top, style.margin_bottom)


def _wide(flow: Layouter, ctx: Ctx) -> bool:
    """Whether `ctx` is the whole text box of a fixed-size card wider than tall."""
    limit = flow.max_row_height
    return limit is not None and not ctx.frames and not ctx.depth and on_a_slide(ctx.width, limit)


def _has_note(blocks: Sequence[Block], index: int) -> bool:
    """Whether a small table at `index` is followed by one note block that ends its section."""
    table = blocks[index]
    if not isinstance(table, Table) or len(table.rows) > SMALL_TABLE or index + 1 >= len(blocks):
        return False
    after = blocks[index + 2] if index + 2 < len(blocks) else None
    return isinstance(blocks[index + 1], NOTES) and (
        after is None or isinstance(after, Heading | Rule)
    )


def _stack_fits(flow: Layouter, blocks: Sequence[Block], index: int, ctx: Ctx, kept: float) -> bool:
    """Whether the table (its rows set tight) and its note under it fit one card with
    `kept` above them: a source line reads under its table, where there is room for it."""
    with flow.aside(None):  # measured, not the post's rows
        table, note = (flow.block(block, ctx) for block in blocks[index : index + 2])
    rows = [row.tight or row for row in table.rows]
    gap = max(table.bottom, note.top)
    height = place([*rows, *note.rows]).height + gap
    return flow.max_row_height is not None and kept + height <= flow.max_row_height
