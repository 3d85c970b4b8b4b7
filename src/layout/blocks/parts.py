"""A block's box (`Ctx`) → its rows and margins (`Part`): what every block layout shares.

Block layouts are functions `(flow, block, ctx) -> Part` in modules of their own
(textblocks, panels, lists, figures, tableflow, components); `flow.Flow` dispatches to
them by block type. They call back into the flow only through `Layouter`, so none of
them imports flow.py, and the helpers here (frames, indents, rows of lines) are written
once for all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from ..base.boxes import Frame, FrameDecor, Row
from ..base.fonts import FontBook
from ..base.images import Images
from ..parse.doc import Block, Text
from ..style.looks import Looks
from ..style.resolver import Styles
from ..style.schema import Style
from ..style.spanstyle import Span, SpanStyle
from ..text.linebox import Metrics, TextLine
from ..text.shape import shape

if TYPE_CHECKING:  # the diagram engine loads on a post's first diagram (blocks.fences)
    from ..diagrams.fit import DiagramBudget

MIN_INNER_SHARE = 0.5  # containers stop indenting where their text would get less of the width


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


class Part(msgspec.Struct, frozen=True):
    """A block's rows and its outer margins."""

    rows: tuple[Row, ...]
    top: float = 0.0
    bottom: float = 0.0


class Layouter(Protocol):
    """What a block layout may ask of the flow that calls it."""

    styles: Styles
    fonts: FontBook
    images: Images
    looks: Looks
    max_row_height: float | None
    card_width: float  # the card's virtual width (type zoomed out): 440 on the default card
    display: bool  # a cover's rows: its paragraphs (the lead) break as its headings do

    @property
    def diagrams(self) -> DiagramBudget: ...

    def stack(self, blocks: tuple[Block, ...], ctx: Ctx) -> Part: ...

    def block(self, block: Block, ctx: Ctx) -> Part: ...

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
    ) -> list[TextLine]: ...

    def metrics(self, style: Style) -> Metrics: ...

    def span_style(self, base: Style, marks: frozenset[str], ctx: Ctx) -> SpanStyle: ...

    def next_frame_id(self) -> int: ...

    def tag(self, part: Part, kind: str) -> Part: ...

    def spend(self, rows: Sequence[Row]) -> None:
        """Every layout hands each row it makes here once (the flow may stop early)."""
        ...

    def aside(self, allowed: float | None) -> AbstractContextManager[None]:
        """Rows made inside will be made into other rows (see `budget.ContentBudget`)."""
        ...


def advance(flow: Layouter, text: str, style: SpanStyle) -> float:
    """The px `text` takes set on one line in `style` (0 for none)."""
    if not text:
        return 0.0
    return sum(cluster.width for cluster in shape([Span(text, style)], flow.fonts))


def line_row(line: TextLine, ctx: Ctx, *, keep: bool = False) -> Row:
    """A row of one line of text inside the frames of `ctx`."""
    return Row(
        height=line.height,
        items=line.items,
        frames=ctx.frames,
        keep_with_next=keep,
        text=line.text,
        baseline=line.baseline,
        broken_word=line.broken_word,
        stretch=line.stretch,
    )


def new_frame(flow: Layouter, role: str, ctx: Ctx, *, bar: bool = False) -> Frame:
    """The panel of a container role across `ctx`: its fill, radius, effects and (with
    `bar`) its bar, its padding above and below its content."""
    style = flow.styles[role]
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
    return Frame(flow.next_frame_id(), top, bottom, decor)


def inset(ctx: Ctx, style: Style, frame: Frame) -> Ctx:
    """The box inside `frame`: `ctx` less the role's left and right padding."""
    _, right, _, left = style.padding
    return replace(
        ctx,
        x=ctx.x + left,
        width=max(1.0, ctx.width - left - right),
        frames=(*ctx.frames, frame),
    )


def indent(ctx: Ctx, left: float, right: float = 0.0) -> Ctx:
    """The box inside a container's indents; `ctx` itself when indenting would leave its
    content less than `ctx.floor` (deeply nested quotes and lists keep a readable width)."""
    width = ctx.width - left - right
    if width < ctx.floor:
        return ctx
    return replace(ctx, x=ctx.x + left, width=max(1.0, width))


def keep_ends_together(rows: list[Row]) -> list[Row]:
    """No orphans or widows: the first two and the last two lines stay on one card, so a
    split leaves at least two lines on each side and a paragraph of three lines moves
    whole (it split 1 + 2 or 2 + 1 to save a large gap before)."""
    last = len(rows) - 2
    return [
        replace(row, keep_with_next=True) if len(rows) > 1 and i in (0, last) else row
        for i, row in enumerate(rows)
    ]


class Overfull(Exception):
    """Rows laid out aside (see `ContentBudget.aside`) went past the height asked of them."""


BlockLayout = Callable[[Layouter, Any, Ctx], Part]  # (flow, block, ctx) → its part
