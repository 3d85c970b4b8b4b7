"""`Doc` + styles + width → `Row`s: every block measured, in reading order.

This is the only stage that knows styles, shaping and line breaking together. Limits go
down (x and width of the box a block may fill), sized rows come back up. Margins between
siblings collapse (the larger wins); a container's first child sits right at its padding.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .blocks import (
    BADGE_TEXT,
    ORNAMENT_GAP,
    ImageFrame,
    badge,
    badge_width,
    bullet,
    rule_segments,
)
from .boxes import (
    Fill,
    Frame,
    FrameDecor,
    Group,
    ImageRef,
    Item,
    Picture,
    Rect,
    Row,
    Segment,
    Shape,
    Stroke,
)
from .code import highlight
from .fonts import FontBook
from .images import Images
from .inline import ContentWidths, Metrics, TextLine, layout_text, line_metrics, measure_widths
from .looks import BAD_MATH, Looks
from .markdown import (
    MATH,
    MATH_DISPLAY,
    Block,
    CodeBlock,
    Doc,
    Heading,
    Image,
    ListBlock,
    ListItem,
    Paragraph,
    Quote,
    Rule,
    Table,
    Text,
)
from .shape import Span, SpanStyle
from .style import Style, Styles
from .tables import TableBox, layout_table

MARKER_RISE = 0.38  # list markers sit at the middle of CJK glyphs: 0.38 em above baseline
DIGIT_RISE = 0.36  # the middle of a badge's digits, in em above their baseline
BADGE_HEIGHT = 1.25  # a number badge is 1.25 em of body text tall unless `number_size` says
PLACEHOLDER_RATIO = 0.5  # a missing image's placeholder is half as tall as it is wide
CAPTION_GAP = 0.5  # em of the caption's size between an image and its alt-text caption
SMALL_TABLE = 6  # a table of at most this many body rows moves whole to the next card
MIN_INNER_SHARE = 0.5  # containers stop indenting where their text would get less of the width
_MATH_KINDS = {MATH: "inline", MATH_DISPLAY: "display"}
_SPACES = re.compile(r"[ \t]+")


@dataclass(frozen=True, slots=True)
class Ctx:
    """The box a block may fill, and what it inherits from its containers."""

    x: float
    width: float
    frames: tuple[Frame, ...] = ()
    floor: float = 0.0  # a container indents only while its content keeps this width
    color: int | None = None
    italic: bool = False
    depth: int = 0
    tight: bool = False
    letter_spacing: float | None = None  # a quote's, over its text's own


@dataclass(frozen=True, slots=True)
class Part:
    """A block's rows and its outer margins."""

    rows: tuple[Row, ...]
    top: float = 0.0
    bottom: float = 0.0


class Flow:
    """Lays out documents for one theme mode, one font book and one set of images."""

    def __init__(
        self,
        styles: Styles,
        fonts: FontBook,
        images: Images,
        *,
        max_row_height: float | None = None,
    ) -> None:
        self.styles = styles
        self.fonts = fonts
        self.images = images
        self.max_row_height = max_row_height
        self._frame_ids = itertools.count(1)
        self.looks = Looks(styles)

    def doc(self, doc: Doc, *, x: float, width: float) -> list[Row]:
        return list(self.stack(doc.blocks, Ctx(x, width, floor=width * MIN_INNER_SHARE)).rows)

    def stack(self, blocks: tuple[Block, ...], ctx: Ctx) -> Part:
        """Blocks one under another, margins collapsed; the first block's gap is 0."""
        rows: list[Row] = []
        top = bottom = 0.0
        previous: Block | None = None  # the last block that made rows, and its first row
        first = 0
        for block in blocks:
            if isinstance(block, Image):
                part = self.image(block, ctx, reserve=_kept_height(rows, bottom))
            else:
                part = self.block(block, ctx)
            if not part.rows:
                continue
            if rows:
                _keep_joined(rows, previous, first, block)
            gap = max(bottom, part.top) if rows else 0.0
            top = top if rows else part.top
            previous, first = block, len(rows)
            rows.append(replace(part.rows[0], gap=gap))
            rows.extend(part.rows[1:])
            bottom = part.bottom
        if rows and not ctx.frames and not ctx.depth:  # the document's last section ends
            _keep_joined(rows, previous, first, None)
        return Part(tuple(rows), top, bottom)

    def block(self, block: Block, ctx: Ctx) -> Part:
        layout = _BLOCK_LAYOUTS.get(type(block))
        if layout is None:
            raise TypeError(f"unknown block {block!r}")
        return layout(self, block, ctx)

    # Text blocks ---------------------------------------------------------------

    def paragraph(self, block: Paragraph, ctx: Ctx) -> Part:
        style = self.styles["body"]
        display = len(block.inlines) == 1 and MATH_DISPLAY in block.inlines[0].marks
        lines = self.text_lines(block.inlines, style, ctx, align="center" if display else None)
        # Orphans and widows: the first two and the last two lines stay together.
        rows = keep_ends_together([self._line_row(line, ctx) for line in lines])
        margin = 0.0 if ctx.tight else style.margin_top
        return Part(tuple(rows), margin, 0.0 if ctx.tight else style.margin_bottom)

    def heading(self, block: Heading, ctx: Ctx) -> Part:
        role = f"h{block.level}"
        style = self.styles[role]
        if style.background is not None or style.bar_width or any(style.padding):
            return self.boxed_heading(block, role, ctx)
        lines = self.text_lines(block.inlines, style, replace(ctx, color=None))
        rows = [self._line_row(line, ctx, keep=True) for line in lines]
        return Part(tuple(rows), style.margin_top, style.margin_bottom)

    def boxed_heading(self, block: Heading, role: str, ctx: Ctx) -> Part:
        """A heading in a frame: its box (the column's width or its text's) and bar, its
        lines moved in by the padding and the bar with its gap."""
        style = self.styles[role]
        top, right, bottom, left = style.padding
        bar = style.bar_width + style.bar_gap if style.bar_width else 0.0
        left += bar if style.bar_side == "left" else 0.0
        top += bar if style.bar_side == "top" else 0.0
        bottom += bar if style.bar_side == "bottom" else 0.0
        inner = replace(ctx, x=ctx.x + left, width=max(1.0, ctx.width - left - right), color=None)
        lines = self.text_lines(block.inlines, style, inner)
        x, width = ctx.x, ctx.width
        if style.background_width == "text" and lines:
            start = min(line.left for line in lines)
            end = max(line.left + line.width for line in lines)
            x, width = start - left, end - start + left + right
        decor = FrameDecor(
            x=x,
            width=width,
            fill=style.background,
            radius=style.radius,
            bar_width=style.bar_width,
            bar_color=style.color if style.bar_color is None else style.bar_color,
            effects=style.effects,
            role=role,
            bar_side=style.bar_side,
            bar_length=style.bar_length,
            bar_align=style.align,
        )
        frame = Frame(next(self._frame_ids), top, bottom, decor)
        framed = replace(ctx, frames=(*ctx.frames, frame))
        rows = [self._line_row(line, framed, keep=True) for line in lines]
        return Part(tuple(rows), style.margin_top, style.margin_bottom)

    def text_lines(
        self,
        inlines: tuple[Text, ...],
        style: Style,
        ctx: Ctx,
        *,
        x: float | None = None,
        width: float | None = None,
        align: str | None = None,
    ) -> list[TextLine]:
        spans = [self._span(t, style, ctx) for t in inlines]
        return layout_text(
            spans,
            self.fonts,
            x=ctx.x if x is None else x,
            width=ctx.width if width is None else width,
            metrics=self.metrics(style),
            align=align or style.align,
        )

    def _span(self, text: Text, style: Style, ctx: Ctx) -> Span:
        """A run's span; LaTeX keeps its spaces and carries the look its source falls
        back to (inline code, thinly underlined in red) should it not typeset."""
        kinds = [_MATH_KINDS[m] for m in text.marks if m in _MATH_KINDS]
        if not kinds:
            return Span(_collapse(text.text), self.span_style(style, text.marks, ctx))
        marks = text.marks - frozenset(_MATH_KINDS)
        return Span(
            text.text,
            self.span_style(style, marks, ctx),
            math=kinds[0],
            fallback=self.span_style(style, marks | {BAD_MATH}, ctx),
        )

    def metrics(self, style: Style) -> Metrics:
        return line_metrics(self.fonts, style.family, style.bold, style.size, style.line_height)

    def span_style(self, base: Style, marks: frozenset[str], ctx: Ctx) -> SpanStyle:
        """The look of a run with `marks` in `base` text, as the containers of `ctx` tint it."""
        return self.looks.span(
            base, marks, color=ctx.color, italic=ctx.italic, letter_spacing=ctx.letter_spacing
        )

    def accent_pair(self) -> tuple[int, int]:
        return self.looks.accent_pair()

    def _line_row(self, line: TextLine, ctx: Ctx, *, keep: bool = False) -> Row:
        return Row(
            height=line.height,
            items=line.items,
            frames=ctx.frames,
            keep_with_next=keep,
            text=line.text,
            baseline=line.baseline,
            broken_word=line.broken_word,
        )

    # Containers ----------------------------------------------------------------

    def new_frame(self, role: str, ctx: Ctx, *, bar: bool = False) -> Frame:
        style = self.styles[role]
        top, _, bottom, _ = style.padding
        decor = FrameDecor(
            x=ctx.x,
            width=ctx.width,
            fill=style.background,
            radius=style.radius,
            bar_width=style.bar_width if bar else 0.0,
            bar_color=style.bar_color or 0,
            effects=style.effects,
            role=role,
        )
        return Frame(next(self._frame_ids), top, bottom, decor)

    def inset(self, ctx: Ctx, style: Style, frame: Frame) -> Ctx:
        _, right, _, left = style.padding
        return replace(
            ctx,
            x=ctx.x + left,
            width=max(1.0, ctx.width - left - right),
            frames=(*ctx.frames, frame),
        )

    def quote(self, block: Quote, ctx: Ctx) -> Part:
        style = self.styles["quote"]
        _, right, _, left = style.padding
        if indent(ctx, left, right) is ctx:  # too deep to indent: its blocks join the parent's
            return self.stack(block.blocks, ctx)
        inner = replace(
            self.inset(ctx, style, self.new_frame("quote", ctx, bar=True)),
            color=style.color,
            italic=style.italic,
            tight=False,
            letter_spacing=style.letter_spacing or ctx.letter_spacing,
        )
        part = self.stack(block.blocks, inner)
        return Part(part.rows, style.margin_top, style.margin_bottom)

    def code(self, block: CodeBlock, ctx: Ctx) -> Part:
        style = self.styles["code_block"]
        frame = self.new_frame("code_block", ctx)
        inner = self.inset(ctx, style, frame)
        metrics = self.metrics(style)
        rows: list[Row] = []
        for tokens in highlight(block.code, block.lang, self.styles.palette, style.color):
            spans = [Span(text, self.looks.code(style, color)) for text, color in tokens]
            lines = (
                layout_text(
                    spans, self.fonts, x=inner.x, width=inner.width, metrics=metrics, prose=False
                )
                if spans
                else []
            )
            if not lines:  # an empty source line still takes a line
                rows.append(
                    Row(
                        height=metrics.height,
                        items=(),
                        frames=inner.frames,
                        baseline=metrics.baseline,
                    )
                )
            rows.extend(self._line_row(line, inner) for line in lines)
        return Part(tuple(keep_ends_together(rows)), style.margin_top, style.margin_bottom)

    # Lists ---------------------------------------------------------------------

    def list(self, block: ListBlock, ctx: Ctx) -> Part:
        style = self.styles["list"]
        if not ctx.depth and _has_panel(style):  # a top-level list in a panel
            ctx = self.inset(ctx, style, self.list_panel(style, ctx))
        inner = replace(
            indent(ctx, self.list_indent(block, style)), depth=ctx.depth + 1, tight=block.tight
        )
        rows: list[Row] = []
        for number, item in enumerate(block.items, start=block.start):
            part = self.stack(item.blocks, inner)
            if not part.rows:
                part = Part(
                    (
                        Row(
                            height=self.metrics(self.styles["body"]).height,
                            items=(),
                            frames=ctx.frames,
                        ),
                    )
                )
            first = part.rows[0]
            marker = self.marker(block, item, number, first, inner)
            gap = style.item_gap if block.tight else max(style.item_gap, part.top)
            rows.append(replace(first, items=marker + first.items, gap=gap))
            rows.extend(part.rows[1:])
        margin = style.item_gap if ctx.depth else style.margin_top
        return Part(tuple(rows), margin, 0.0 if ctx.depth else style.margin_top)

    def marker(
        self, block: ListBlock, item: ListItem, number: int, row: Row, ctx: Ctx
    ) -> tuple[Item, ...]:
        style = self.styles["list"]
        body = self.styles["body"]
        baseline = row.baseline or self.metrics(body).baseline
        mid = baseline - body.size * MARKER_RISE
        color = style.marker_color or body.color
        if item.checked is not None:
            return self.checkbox(item.checked, ctx.x - style.marker_gap, mid)
        if block.ordered and style.number_style != "plain":
            return self.number_badge(number, ctx.x - style.marker_gap, mid)[0]
        if block.ordered:
            label = self.text_lines(
                (Text(f"{number}."),),
                body,
                replace(ctx, color=color),
                x=ctx.x - style.indent,
                width=max(1.0, style.indent - style.marker_gap),
                align="right",
            )
            return tuple(
                i for line in label[:1] for i in shift(line.items, baseline - line.baseline)
            )
        r = style.marker_size / 2
        cx = ctx.x - style.marker_gap - r
        box = Rect(cx - r, mid - r, 2 * r, 2 * r)
        kind = (ctx.depth - 1) % 3
        if kind == 1:
            return (Stroke(box, color, 1.0, radius=r),)
        if kind == 0 and style.marker_shape != "disc":
            return bullet(style.marker_shape, cx, mid, style.marker_size, color)
        return (Fill(box, color, radius=r if kind == 0 else 0.0),)

    def list_panel(self, style: Style, ctx: Ctx) -> Frame:
        """The panel behind a top-level list: its background, radius, border and effects."""
        frame = self.new_frame("list", ctx)
        width = style.border_width
        decor = replace(frame.decor, border_color=style.border_color, border_width=width)
        return replace(frame, decor=decor)

    def list_indent(self, block: ListBlock, style: Style) -> float:
        """The list's indent; number badges widen it so the widest badge and its gap fit."""
        if not block.ordered or style.number_style == "plain" or not block.items:
            return style.indent
        last = block.start + len(block.items) - 1
        widest = max(self.number_badge(n, 0.0, 0.0)[1] for n in {block.start, last})
        return max(style.indent, widest + style.marker_gap)

    def number_badge(self, number: int, right: float, mid: float) -> tuple[tuple[Item, ...], float]:
        """A list number on a disc or rounded square whose right edge is at `right`,
        centred on `mid`; and the badge's width."""
        style = self.styles["list"]
        body = self.styles["body"]
        height = style.number_size or body.size * BADGE_HEIGHT
        look = replace(body, size=height * BADGE_TEXT, weight=700, line_height=1.0)
        color = style.number_color if style.number_color is not None else 0xFFFFFFFF
        [line] = self.text_lines(
            (Text(str(number)),), look, Ctx(0.0, 1e4, color=color), align="left"
        )[:1]
        width = badge_width(line.width, height)
        rect = Rect(right - width, mid - height / 2, width, height)
        paint = style.number_background
        if paint is None:
            paint = style.marker_color if style.marker_color is not None else body.color
        dx = rect.x + (width - line.width) / 2
        digits = Group(line.items, dx=dx, dy=mid + look.size * DIGIT_RISE - line.baseline)
        return (badge(rect, paint, style.number_style == "disc"), digits), width

    def checkbox(self, checked: bool, right: float, mid: float) -> tuple[Item, ...]:
        task = self.styles["task"]
        size = task.marker_size
        box = Rect(right - size, mid - size / 2, size, size)
        color = task.marker_color or task.color
        ring = Stroke(
            Rect(
                box.x + task.border_width / 2,
                box.y + task.border_width / 2,
                size - task.border_width,
                size - task.border_width,
            ),
            color,
            task.border_width,
            radius=size / 2,
        )
        if not checked:
            return (ring,)
        tick = (
            ("M", box.x + size * 0.28, box.y + size * 0.52),
            ("L", box.x + size * 0.44, box.y + size * 0.68),
            ("L", box.x + size * 0.74, box.y + size * 0.36),
        )
        return (
            Fill(box, color, radius=size / 2),
            Shape(tick, stroke=task.color, fill=None, stroke_width=max(1.5, size / 9)),
        )

    # Tables, images, rules -----------------------------------------------------

    def table(self, block: Table, ctx: Ctx) -> Part:
        style = self.styles["table"]
        outline = (lambda: self.table_outline(style, ctx)) if style.outline_width else None
        box = TableBox(ctx.x, ctx.width, ctx.frames, outline)
        rows = keep_small_table(
            layout_table(block, style, box, _TextIn(self, ctx)), self.max_row_height
        )
        return Part(tuple(rows), style.margin_top, style.margin_bottom)

    def table_outline(self, style: Style, ctx: Ctx) -> Frame:
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
        return Frame(next(self._frame_ids), w / 2, w / 2, decor)

    def image(self, block: Image, ctx: Ctx, *, reserve: float = 0.0) -> Part:
        """An image at its natural size, at most the box width, its alt text as a caption
        under it in the image role's text style; on fixed-size cards the two are at most
        the card height, less a heading chain above them (`reserve`) that must share their
        card, when that leaves them at least half the card. Only the image's header is
        read: the row carries an `ImageRef`, and draw decodes."""
        style = self.styles["image"]
        ref = self.images.ref(block.src)
        if ref is None:
            return Part((self.placeholder(block, style, ctx),), style.margin_top, 0.0)
        natural = _requested_size(ref, block)
        caption = self.caption(block.alt, style, ctx)
        limit = self.max_row_height
        if limit and reserve:
            reserve += style.margin_top
            limit = limit - reserve if reserve < limit / 2 else limit
        if limit:  # a long caption still leaves the image half the room; paginate scales
            limit = max(limit - caption[0], limit / 2)
        frame = _image_frame(style)
        if frame is not None:
            row = self.framed_image(ref, natural, frame, ctx, limit or None)
        else:
            width = min(natural[0], ctx.width)
            height = natural[1] * width / natural[0]
            if limit and height > limit:
                width, height = width * limit / height, limit
            rect = Rect(ctx.x + (ctx.width - width) / 2, 0.0, width, height)
            picture = Picture(ref, rect, style.radius)
            row = Row(height=height, items=(picture,), frames=ctx.frames)
        if caption[1]:
            items = (*row.items, *shift(caption[1], row.height))
            row = replace(row, height=row.height + caption[0], items=items)
        return Part((replace(row, text=f"[{block.alt}]"),), style.margin_top, 0.0)

    def caption(self, alt: str, style: Style, ctx: Ctx) -> tuple[float, tuple[Item, ...]]:
        """The alt text centred under an image (md2card's `.img-alt`): its height with the
        gap above it, and its items from the gap's top; nothing for an empty alt."""
        if not alt.strip():
            return 0.0, ()
        lines = self.text_lines(
            (Text(alt),), style, replace(ctx, color=style.color), align="center"
        )
        gap = style.size * CAPTION_GAP
        items: list[Item] = []
        y = gap
        for line in lines:
            items.extend(shift(line.items, y))
            y += line.height
        return y, tuple(items)

    def framed_image(
        self,
        ref: ImageRef,
        natural: tuple[float, float],
        frame: ImageFrame,
        ctx: Ctx,
        limit: float | None,
    ) -> Row:
        """An image of `natural` size in its mat and border, perhaps tilted: scaled so the
        tilted frame's bounding box fits the box width (and `limit`), and the row as tall
        as that box."""
        scale = frame.fit(*natural, ctx.width, limit)
        width, height = natural[0] * scale, natural[1] * scale
        _, box_height = frame.bounds(width, height)
        top, _, _, left = frame.padding
        extra_w, extra_h = frame.extra
        x = ctx.x + (ctx.width - width - extra_w) / 2 + left + frame.border_width
        y = (box_height - height - extra_h) / 2 + top + frame.border_width
        items = frame.items(ref, Rect(x, y, width, height))
        return Row(height=box_height, items=items, frames=ctx.frames)

    def placeholder(self, block: Image, style: Style, ctx: Ctx) -> Row:
        """A missing image: a tinted panel with a picture glyph and the alt text."""
        height = min(ctx.width * PLACEHOLDER_RATIO, self.max_row_height or 1e9)
        label = block.alt or block.src.rsplit("/", 1)[-1][:60] or "image"
        lines = self.text_lines(
            (Text(f"🖼 {label}"),),
            style,
            replace(ctx, color=style.color),
            x=ctx.x + 12,
            width=ctx.width - 24,
            align="center",
        )
        text_height = sum(line.height for line in lines)
        top = max(0.0, (height - text_height) / 2)
        items: list[Item] = [
            Fill(Rect(ctx.x, 0.0, ctx.width, height), style.background or 0, style.radius)
        ]
        y = top
        for line in lines:
            if y + line.height > height:
                break
            items.extend(shift(line.items, y))
            y += line.height
        return Row(height=height, items=tuple(items), frames=ctx.frames, text=f"[{block.alt}]")

    def rule(self, _: Rule, ctx: Ctx) -> Part:
        """A rule of `length` (a share of the width, centred), solid or dashed, perhaps
        cut around an ornament in its middle."""
        style = self.styles["hr"]
        paint = style.border_color if style.border_color is not None else style.color
        dots = style.dash is not None and style.dash[0] == 0  # on 0: round dots
        line = Segment(0, 0, 0, 0, paint, style.border_width, style.dash, round_cap=dots)
        length = ctx.width * min(1.0, max(0.0, style.length))
        x = ctx.x + (ctx.width - length) / 2
        if not style.ornament:
            y = style.border_width / 2
            items: tuple[Item, ...] = rule_segments(x, length, y, None, line)
            row = Row(height=style.border_width, items=items, frames=ctx.frames)
            return Part((row,), style.margin_top, style.margin_bottom)
        color = style.marker_color if style.marker_color is not None else style.color
        [text] = self.text_lines(
            (Text(style.ornament),), style, replace(ctx, color=color), align="center"
        )[:1]
        height = max(text.height, style.border_width)
        left = ctx.x + (ctx.width - text.width) / 2 - style.size * ORNAMENT_GAP
        right = ctx.x + (ctx.width + text.width) / 2 + style.size * ORNAMENT_GAP
        rules = rule_segments(x, length, height / 2, (left, right), line)
        ornament = shift(text.items, (height - text.height) / 2)
        row = Row(
            height=height,
            items=(*rules, *ornament),
            frames=ctx.frames,
            text=text.text,
            decorative=True,
        )
        return Part((row,), style.margin_top, style.margin_bottom)


# One entry per block kind: a new kind of block is a method and a line here.
_BLOCK_LAYOUTS: dict[type, Callable[[Flow, Any, Ctx], Part]] = {
    Paragraph: Flow.paragraph,
    Heading: Flow.heading,
    ListBlock: Flow.list,
    Quote: Flow.quote,
    CodeBlock: Flow.code,
    Table: Flow.table,
    Image: Flow.image,
    Rule: Flow.rule,
}


@dataclass(frozen=True, slots=True)
class _TextIn:
    """The flow's text services for a table in `ctx`, whose colour and italic it inherits
    (the `tables.TextMeasure` a table sees)."""

    flow: Flow
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


def indent(ctx: Ctx, left: float, right: float = 0.0) -> Ctx:
    """The box inside a container's indents; `ctx` itself when indenting would leave its
    content less than `ctx.floor` (deeply nested quotes and lists keep a readable width)."""
    width = ctx.width - left - right
    if width < ctx.floor:
        return ctx
    return replace(ctx, x=ctx.x + left, width=max(1.0, width))


def _has_panel(style: Style) -> bool:
    """Whether a list role draws a panel behind top-level lists."""
    return style.background is not None or bool(style.border_width) or any(style.padding)


def _image_frame(style: Style) -> ImageFrame | None:
    """The frame the image role puts around pictures; None for a plain rounded picture."""
    if not (any(style.padding) or style.border_width or style.effects or style.rotate):
        return None
    return ImageFrame(
        padding=style.padding,
        mat=style.background,
        border=style.border_color,
        border_width=style.border_width if style.border_color is not None else 0.0,
        radius=style.radius,
        effects=style.effects,
        rotate=style.rotate,
    )


def _keep_joined(rows: list[Row], previous: Block | None, first: int, block: Block | None) -> None:
    """Keeps the break before `block` (None: the end of the document) where a designer
    would: a paragraph ending in a colon stays with the block it introduces; a one-line
    paragraph that ends a section (a heading or a rule follows) stays with the block
    before it."""
    if block is not None and _is_lead_in(previous):
        rows[-1] = replace(rows[-1], keep_with_next=True)
    ends_section = block is None or isinstance(block, Heading | Rule)
    if ends_section and isinstance(previous, Paragraph) and 0 < first == len(rows) - 1:
        rows[first - 1] = replace(rows[first - 1], keep_with_next=True)


def _is_lead_in(block: Block | None) -> bool:
    """A paragraph that introduces what follows: its text ends in a colon."""
    if not isinstance(block, Paragraph):
        return False
    text = "".join(t.text for t in block.inlines).rstrip()
    return text.endswith((":", "："))


def _kept_height(rows: list[Row], margin: float) -> float:
    """Height of the rows at the end of `rows` that must share a card with what follows
    (a heading and its lines), plus the margin after them; 0 when there are none."""
    height = 0.0
    for row in reversed(rows):
        if not row.keep_with_next:
            break
        height += row.height + row.gap
    return height + margin if height else 0.0


def keep_ends_together(rows: list[Row]) -> list[Row]:
    """No orphans or widows: the first two and the last two lines stay on one card. Three
    lines only discourage a break (`keep_soft`): they may split 1 + 2 or 2 + 1 rather than
    leave a large gap."""
    last = len(rows) - 2
    soft = len(rows) == 3
    return [
        replace(row, keep_with_next=not soft, keep_soft=soft)
        if len(rows) > 1 and i in (0, last)
        else row
        for i, row in enumerate(rows)
    ]


def keep_small_table(rows: list[Row], limit: float | None) -> list[Row]:
    """On fixed-size cards, a table of at most SMALL_TABLE body rows that fits one card
    moves whole: every row but the last keeps with the next."""
    bodies = sum(1 for row in rows if row.header is not None)
    height = sum(row.height + row.gap for row in rows)
    if limit is None or bodies > SMALL_TABLE or height > limit:
        return rows
    return [replace(row, keep_with_next=True) for row in rows[:-1]] + rows[-1:]


def _collapse(text: str) -> str:
    """CSS `white-space: normal`: each run of spaces and tabs becomes one space."""
    return _SPACES.sub(" ", text)


def shift(items: tuple[Item, ...], dy: float) -> tuple[Item, ...]:
    """Moves items down by `dy` (a line placed inside a taller row)."""
    return (Group(items, dy=dy),) if dy else items


def _requested_size(ref: ImageRef, block: Image) -> tuple[float, float]:
    """The size `![alt|WxH](src)` asked to show the image at (W alone keeps its aspect),
    else its natural size; it is then laid out as that natural size (at most the box width)."""
    if block.width is None:
        return float(ref.width), float(ref.height)
    height = block.height or max(1, round(ref.height * block.width / ref.width))
    return float(block.width), float(height)
