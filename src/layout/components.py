"""Layout of the mdxMode components, drawn with the theme's own knobs so they look native.

- Columns: each column is laid out in its share of the width (gaps between), placed on
  its own, and the columns become one row as tall as the tallest. On fixed-size cards
  (autoSplit) a columns block taller than a card is laid out as stacked columns instead:
  each column's blocks at the full width, one column after the other, so they flow from
  card to card and nothing is lost or shrunk.
- Callout: the theme's quote panel look (padding, radius, effects) tinted with the
  callout's colour (info takes the theme's accent), a bar in that colour, a title line.
- Quote with author: the theme's quote, its author signed below, right-aligned.
- Steps: the theme's list number badges beside each step's title and content.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .boxes import Frame, FrameDecor, Group, Item, Row
from .flow import MARKER_RISE, MIN_INNER_SHARE, Ctx, Flow, Part
from .markdown import Block, Callout, Cited, Columns, Paragraph, Quote, Steps, Text
from .paginate import frame_items, place

COLUMN_GAP = 1.0  # between columns, in em of body text
CALLOUT_TINT = 0x1F000000  # the panel: the callout's colour at 12% over the card
CALLOUT_BAR = 4.0  # px
CALLOUT_PAD = 12.0  # px, at least, on each side of a callout's content
# Callout kinds: (colour, icon); info's colour is the theme's accent.
CALLOUT_KINDS: dict[str, tuple[int | None, str]] = {
    "info": (None, "ℹ️"),
    "tip": (0xFF16A34A, "💡"),
    "warning": (0xFFD97706, "⚠️"),
    "danger": (0xFFDC2626, "⛔"),
}


class MdxFlow(Flow):
    """A `Flow` that also lays out the mdxMode component blocks."""

    def block(self, block: Block, ctx: Ctx) -> Part:
        layout = _COMPONENT_LAYOUTS.get(type(block))
        return layout(self, block, ctx) if layout else super().block(block, ctx)

    def columns(self, block: Columns, ctx: Ctx) -> Part:
        body = self.styles["body"]
        count = len(block.columns)
        if not count:
            return Part(())
        gap = body.size * COLUMN_GAP
        width = max(1.0, (ctx.width - gap * (count - 1)) / count)
        items: list[Item] = []
        texts: list[str] = []
        height = 0.0
        for index, blocks in enumerate(block.columns):
            x = ctx.x + index * (width + gap)
            column = Ctx(x, width, floor=width * MIN_INNER_SHARE, color=ctx.color)
            column = replace(column, italic=ctx.italic, letter_spacing=ctx.letter_spacing)
            placement = place(self.stack(blocks, column).rows)
            items.extend(frame_items(placement, 0.0, 0.0))
            items.extend(Group(p.row.items, dy=p.y) for p in placement.rows if p.row.items)
            texts.extend(p.row.text for p in placement.rows if p.row.text)
            height = max(height, placement.height)
        if self.max_row_height is not None and height > self.max_row_height:
            return self.stack(tuple(b for blocks in block.columns for b in blocks), ctx)
        row = Row(height=height, items=tuple(items), frames=ctx.frames, text="\n".join(texts))
        return Part((row,), body.margin_top, body.margin_bottom)

    def callout(self, block: Callout, ctx: Ctx) -> Part:
        quote = self.styles["quote"]
        color, icon = CALLOUT_KINDS.get(block.kind, CALLOUT_KINDS["info"])
        paint = self.accent_pair()[0] if color is None else color
        top, right, bottom, left = (max(CALLOUT_PAD, p) for p in quote.padding)
        decor = FrameDecor(
            x=ctx.x,
            width=ctx.width,
            fill=(paint & 0xFFFFFF) | CALLOUT_TINT,
            radius=max(quote.radius, self.styles["list"].radius),
            bar_width=CALLOUT_BAR,
            bar_color=paint,
            effects=quote.effects,
            role="callout",
        )
        frame = Frame(next(self._frame_ids), top, bottom, decor)
        inner = replace(
            ctx,
            x=ctx.x + left + CALLOUT_BAR,
            width=max(1.0, ctx.width - left - right - CALLOUT_BAR),
            frames=(*ctx.frames, frame),
            floor=0.0,
        )
        title = f"{icon} {block.title or block.kind.capitalize()}"
        heading = Paragraph((Text(title, frozenset({"strong"})),))
        rows = list(self.stack((heading,), replace(inner, color=paint)).rows)
        body = self.stack(block.blocks, inner)
        if rows:
            rows[-1] = replace(rows[-1], keep_with_next=True)
        if body.rows:
            rows.append(replace(body.rows[0], gap=self.styles["body"].size * 0.4))
            rows.extend(body.rows[1:])
        return Part(tuple(rows), quote.margin_top, quote.margin_bottom)

    def cited(self, block: Cited, ctx: Ctx) -> Part:
        part = self.quote(Quote(block.blocks), ctx)  # the theme's quote, signed inside it
        if not block.author or not part.rows:
            return part
        frames = part.rows[-1].frames
        style = self.styles["body"]
        x, width = ctx.x, ctx.width
        if len(frames) > len(ctx.frames):  # inside the quote's panel, within its padding
            _, right, _, left = self.styles["quote"].padding
            decor = frames[-1].decor
            x, width = decor.x + left, max(1.0, decor.width - left - right)
        sign = Ctx(x, width, frames=frames, color=self.accent_pair()[0])
        lines = self.text_lines((Text(f"— {block.author}"),), style, sign, align="right")
        rows = [self._line_row(line, sign) for line in lines]
        if rows:
            rows[0] = replace(rows[0], gap=style.size * 0.4)
            rows = [replace(part.rows[-1], keep_with_next=True), *rows]
        return Part((*part.rows[:-1], *rows), part.top, part.bottom)

    def steps(self, block: Steps, ctx: Ctx) -> Part:
        listing = self.styles["list"]
        body = self.styles["body"]
        if not block.steps:
            return Part(())
        widest = self.number_badge(len(block.steps), 0.0, 0.0)[1]
        indent = widest + listing.marker_gap
        inner = replace(ctx, x=ctx.x + indent, width=max(1.0, ctx.width - indent), depth=1)
        rows: list[Row] = []
        for number, step in enumerate(block.steps, start=1):
            blocks: tuple[Block, ...] = step.blocks
            if step.title:
                blocks = (Paragraph((Text(step.title, frozenset({"strong"})),)), *blocks)
            part = self.stack(blocks, replace(inner, tight=True))
            first = part.rows[0] if part.rows else self._empty_row(ctx)
            baseline = first.baseline or self.metrics(body).baseline
            mid = baseline - body.size * MARKER_RISE
            badge = self.number_badge(number, ctx.x + widest, mid)[0]
            gap = listing.item_gap + (body.size * 0.5 if rows else 0.0)
            keep = first.keep_with_next or len(part.rows) > 1  # a number stays with its text
            rows.append(replace(first, items=badge + first.items, gap=gap, keep_with_next=keep))
            rows.extend(part.rows[1:])
        return Part(tuple(rows), listing.margin_top, listing.margin_top)

    def _empty_row(self, ctx: Ctx) -> Row:
        metrics = self.metrics(self.styles["body"])
        return Row(height=metrics.height, items=(), frames=ctx.frames, baseline=metrics.baseline)


_COMPONENT_LAYOUTS: dict[type, Callable[[MdxFlow, Any, Ctx], Part]] = {
    Columns: MdxFlow.columns,
    Callout: MdxFlow.callout,
    Cited: MdxFlow.cited,
    Steps: MdxFlow.steps,
}
