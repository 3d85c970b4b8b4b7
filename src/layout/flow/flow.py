"""`Doc` + styles + width → `Row`s: every block measured, in reading order.

This is the only stage that knows styles, shaping and line breaking together. Limits go
down (x and width of the box a block may fill), sized rows come back up. Margins between
siblings collapse (the larger wins); a container's first child sits right at its padding.

`Flow` stacks blocks and dispatches each to its layout by block type (`BLOCK_LAYOUTS`):
functions in textblocks, panels, lists, figures and tableflow, which call back only
through `flowparts.Layouter` for text and nested blocks.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from ..base.boxes import Row
from ..base.fonts import FontBook
from ..base.images import Images
from ..base.records import replaced
from ..blocks.callouts import callout
from ..blocks.components import COMPONENT_LAYOUTS
from ..blocks.fences import diagram, fenced, is_diagram
from ..blocks.figures import image
from ..blocks.lists import list_block
from ..blocks.notes import notes
from ..blocks.panels import quote
from ..blocks.parts import MIN_INNER_SHARE, BlockLayout, Ctx, Part
from ..blocks.tableflow import table
from ..blocks.textblocks import heading, paragraph, rule
from ..limits import DEFAULT_WIDTH
from ..parse.doc import (
    Block,
    Callout,
    CodeBlock,
    Doc,
    Heading,
    Image,
    ListBlock,
    Notes,
    Paragraph,
    Quote,
    Rule,
    Table,
    Text,
)
from ..parse.markdown import MATH, MATH_DISPLAY
from ..style.looks import BAD_MATH, Looks
from ..style.resolver import Styles
from ..style.schema import Style
from ..style.spanstyle import Span, SpanStyle
from ..text.formula.mathtex import DISPLAY_SCALE, MathBudget
from ..text.inline import layout_text
from ..text.linebox import Metrics, TextLine, line_metrics
from .beside import table_and_note
from .budget import ContentBudget
from .keeps import is_figure, keep_joined, run_in_marked
from .shares import SHARE_IDS, Premade, layable_apart

if TYPE_CHECKING:  # the diagram engine: imported on a post's first diagram
    from ..diagrams.fit import DiagramBudget

_MATH_KINDS = {MATH: "inline", MATH_DISPLAY: "display"}
_SPACES = re.compile(r"[ \t]+")

# One entry per block kind: a new kind of block is a function and a line here.
BLOCK_LAYOUTS: Mapping[type, BlockLayout] = {
    Paragraph: paragraph,
    Heading: heading,
    ListBlock: list_block,
    Quote: quote,
    CodeBlock: fenced,
    Table: table,
    Image: image,
    Rule: rule,
    Callout: callout,
    Notes: notes,
}


class Flow:
    """Lays out documents for one theme mode, one font book and one set of images."""

    layouts: ClassVar[Mapping[type, BlockLayout]] = BLOCK_LAYOUTS

    def __init__(
        self,
        styles: Styles,
        fonts: FontBook,
        images: Images,
        *,
        max_row_height: float | None = None,
        card_width: float = DEFAULT_WIDTH,
        display: bool = False,
    ) -> None:
        self.styles = styles
        self.fonts = fonts
        self.images = images
        self.max_row_height = max_row_height
        self.card_width = card_width  # the card's virtual width: a phone shows it 360 px wide
        # a cover's lead is display type: broken between phrases, as a title is, in even lines
        # (the exam plan's "55 分冲 / 到 75 分" split 冲到 on 14 covers at 440 px)
        self.display = display
        self.budget: ContentBudget | None = None  # set by the caller to stop early
        self.looks = Looks(styles)
        self.math = MathBudget()  # one flow lays out one post
        self._diagrams: DiagramBudget | None = None  # made on the post's first diagram
        self._frame_ids = itertools.count(1)
        self._block_ids = itertools.count(1)
        # the top-level blocks each laid-out block's rows come from (their `Row.source[0]`),
        # as [first, end) of the post's blocks: a table and the note set beside it are two
        self.blocks_of: dict[tuple[str, int], tuple[int, int]] = {}

    @property
    def diagrams(self) -> DiagramBudget:
        """The post's allowance of diagrams, made (and the diagram engine imported, ~40
        modules) on its first diagram: a card without one never loads them."""
        if self._diagrams is None:
            from ..diagrams.fit import DiagramBudget

            self._diagrams = DiagramBudget()
        return self._diagrams

    def doc(self, doc: Doc, *, x: float, width: float, premade: Premade | None = None) -> list[Row]:
        """The post's rows; with `premade`, the parts another process laid out are taken
        where this flow would have made them (shares.py)."""
        return list(self.stack(doc.blocks, _column(x, width), premade).rows)

    def share(self, doc: Doc, *, x: float, width: float, start: int) -> list[Part | None]:
        """The parts `doc(doc, x=x, width=width)` makes of the top-level blocks from `start`
        on, each that `layable_apart` allows (else None), their ids from `SHARE_IDS` on:
        the second share of a post laid out in two."""
        self._block_ids = itertools.count(SHARE_IDS)
        self._frame_ids = itertools.count(SHARE_IDS)
        column = _column(x, width)
        return [
            self.block(block, column) if layable_apart(block) else None
            for block in doc.blocks[start:]
        ]

    def stack(self, blocks: tuple[Block, ...], ctx: Ctx, premade: Premade | None = None) -> Part:
        """Blocks one under another, margins collapsed; the first block's gap is 0."""
        rows: list[Row] = []
        top = bottom = 0.0
        previous: Block | None = None  # the last block that made rows, and its first row
        first = 0
        lone: Row | None = None  # a one-line block after a heading, as it was before kept
        skip = -1  # the note set beside its table
        for index, block in enumerate(blocks):
            if index == skip:
                continue
            made = None if premade is None else premade(index)
            paired = None
            if isinstance(block, Table):
                paired = table_and_note(self, blocks, index, ctx, _kept_height(rows, bottom))
            if paired is not None:
                part, skip = self.tag(paired, "Table"), index + 1
            elif made is not None:
                part = made
                self.spend(made.rows)  # counted here, as if made here
            elif isinstance(block, Image):
                reserve = _kept_height(rows, bottom)
                part = self.tag(image(self, block, ctx, reserve=reserve), "Image")
            elif isinstance(block, CodeBlock) and is_diagram(block):
                part = self.tag(diagram(self, block, ctx, _kept_height(rows, bottom)), "CodeBlock")
            else:
                part = self.block(block, ctx)
            if not part.rows:
                continue
            if not ctx.frames and not ctx.depth and part.rows[0].source:
                end = index + 2 if paired is not None else index + 1
                self.blocks_of[part.rows[0].source[0]] = (index, end)
                part = run_in_marked(block, part)
            if rows:
                if lone is not None and isinstance(block, Heading | Rule):
                    rows[-1] = lone  # its section is that one line: nothing to keep it with
                keep_joined(rows, previous, first, block, len(part.rows), ctx.depth > 0)
            gap = max(bottom, part.top) if rows else 0.0
            top = top if rows else part.top
            after_heading = isinstance(previous, Heading)
            previous, first = block, len(rows)
            rows.append(replaced(part.rows[0], gap=gap))
            rows.extend(part.rows[1:])
            lone = rows[-1] if after_heading and len(part.rows) == 1 else None
            if lone is not None and (is_figure(block) or paired is not None):
                lone = None  # a figure is a whole, not a first line: a card may end under it
            if lone is not None:  # a heading keeps two lines of what follows it
                rows[-1] = replace(lone, keep_with_next=True)
            bottom = part.bottom
        if rows and not ctx.frames and not ctx.depth:  # the document's last section ends
            keep_joined(rows, previous, first, None)
        return Part(tuple(rows), top, bottom)

    def block(self, block: Block, ctx: Ctx) -> Part:
        layout = self.layouts.get(type(block))
        if layout is None:
            raise TypeError(f"unknown block {block!r}")
        return self.tag(layout(self, block, ctx), type(block).__name__)

    def tag(self, part: Part, kind: str) -> Part:
        """`part` with its rows named as coming from one more block of `kind`."""
        return Part(_tagged(part.rows, (kind, next(self._block_ids))), part.top, part.bottom)

    def spend(self, rows: Sequence[Row]) -> None:
        """Counts rows as they are made, placed as they are: the `budget` (if any) stops
        the layout as soon as they are sure to break a limit."""
        if self.budget is not None:
            self.budget.spend(rows)

    @contextmanager
    def aside(self, allowed: float | None) -> Iterator[None]:
        """Rows made inside are measured and made into others (see `ContentBudget.aside`)."""
        if self.budget is None:
            yield
            return
        self.budget.aside(allowed)
        try:
            yield
        finally:
            self.budget.restore()

    def next_frame_id(self) -> int:
        """A new panel's id, unique within this flow (rows of one panel share it)."""
        return next(self._frame_ids)

    def text_lines(
        self,
        inlines: tuple[Text, ...],
        style: Style,
        ctx: Ctx,
        *,
        x: float | None = None,
        width: float | None = None,
        align: str | None = None,
        rows: bool = False,
        heading: bool = False,
        phrases: bool = False,
    ) -> list[TextLine]:
        """The lines of `inlines`; with `rows` (they become rows as they are), the budget
        may refuse them once broken, before they are positioned; a `heading`'s lines are
        balanced and never hyphenated, and `phrases` (a cover's lead) break where a
        heading's do."""
        spans = [self._span(t, style, ctx) for t in inlines]
        metrics = self.metrics(style)
        budget = self.budget if rows else None
        return layout_text(
            spans,
            self.fonts,
            x=ctx.x if x is None else x,
            width=ctx.width if width is None else width,
            metrics=metrics,
            align=align or style.align,
            heading=heading,
            phrases=phrases,
            broken=None if budget is None else lambda count: budget.expect(count, metrics.height),
        )

    def _span(self, text: Text, style: Style, ctx: Ctx) -> Span:
        """A run's span; LaTeX keeps its spaces and carries the look its source falls
        back to (inline code, thinly underlined in red) should it not typeset, or should
        the post's math budget be spent."""
        # the dict's order, not the marks' (a set's order follows PYTHONHASHSEED)
        kinds = [kind for mark, kind in _MATH_KINDS.items() if mark in text.marks]
        if not kinds:
            return Span(_collapse(text.text), self.span_style(style, text.marks, ctx))
        marks = text.marks - frozenset(_MATH_KINDS)
        look = self.span_style(style, marks, ctx)
        fallback = self.span_style(style, marks | {BAD_MATH}, ctx)
        if kinds[0] == "display":
            look = replace(look, size=look.size * DISPLAY_SCALE)
        if not self.math.typesets(text.text, look.size, kinds[0] == "display"):
            return Span(text.text, fallback)
        return Span(text.text, look, math=kinds[0], fallback=fallback)

    def metrics(self, style: Style) -> Metrics:
        return line_metrics(self.fonts, style.family, style.bold, style.size, style.line_height)

    def span_style(self, base: Style, marks: frozenset[str], ctx: Ctx) -> SpanStyle:
        """The look of a run with `marks` in `base` text, as the containers of `ctx` tint it."""
        return self.looks.span(
            base, marks, color=ctx.color, italic=ctx.italic, letter_spacing=ctx.letter_spacing
        )


def _column(x: float, width: float) -> Ctx:
    """The box of a post's top-level blocks."""
    return Ctx(x, width, floor=width * MIN_INNER_SHARE)


def _kept_height(rows: list[Row], margin: float) -> float:
    """Height of the rows at the end of `rows` that must share a card with what follows
    (a heading and its lines), plus the margin after them; 0 when there are none."""
    height = 0.0
    for row in reversed(rows):
        if not row.keep_with_next:
            break
        height += row.height + row.gap
    return height + margin if height else 0.0


def _tagged(rows: tuple[Row, ...], tag: tuple[str, int]) -> tuple[Row, ...]:
    """`rows` with the block they come from named in their `source` (the page breaker
    finds paragraphs and code blocks by it, the page-break report every block); a body
    row's `header` stays the very header row it follows."""
    out: list[Row] = []
    new: dict[int, Row] = {}  # id of a row → its tagged copy
    for row in rows:
        header = None if row.header is None else new.get(id(row.header), row.header)
        out.append(replaced(row, source=(tag, *row.source), header=header))
        new[id(row)] = out[-1]
    return tuple(out)


def _collapse(text: str) -> str:
    """CSS `white-space: normal`: each run of spaces and tabs becomes one space."""
    return _SPACES.sub(" ", text)


class MdxFlow(Flow):
    """A `Flow` that also lays out the mdxMode component blocks."""

    layouts: ClassVar[Mapping[type, BlockLayout]] = {**BLOCK_LAYOUTS, **COMPONENT_LAYOUTS}
