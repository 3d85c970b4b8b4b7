"""A block quote or fenced code block + its box → `Part`: the blocks drawn on a panel.

A quote's blocks sit inside its padding and bar, in its colour, italic and letter
spacing (too deep to indent, they join the parent's). A code block is highlighted line by
line, each source line at least one row, never justified or hyphenated; a line that wraps
goes on under its own indent behind a wrap mark.
"""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import pairwise

from ..base.boxes import Row
from ..parse.code import highlight
from ..parse.codelines import wrap
from ..parse.doc import CodeBlock, Quote
from ..style.schema import Style
from ..style.spanstyle import Span, SpanStyle
from ..text.inline import layout_text
from ..text.linebox import Metrics, TextLine
from ..text.shape import shape
from .figures import in_a_slide, label_floor, shrunk_label
from .parts import (
    Ctx,
    Layouter,
    Part,
    advance,
    indent,
    inset,
    line_row,
    new_frame,
)


def quote(flow: Layouter, block: Quote, ctx: Ctx) -> Part:
    style = flow.styles["quote"]
    _, right, _, left = style.padding
    if indent(ctx, left, right) is ctx:  # too deep to indent: its blocks join the parent's
        return flow.stack(block.blocks, ctx)
    inner = replace(
        inset(ctx, style, new_frame(flow, "quote", ctx, bar=True)),
        color=style.color,
        italic=style.italic,
        tight=False,
        letter_spacing=style.letter_spacing or ctx.letter_spacing,
    )
    rows = flow.stack(block.blocks, inner).rows
    if len(rows) <= WHOLE_QUOTE:  # a pull quote split 2 | 2 reads as two quotes
        rows = tuple(replace(row, keep_with_next=True) for row in rows[:-1]) + rows[-1:]
    return Part(rows, style.margin_top, style.margin_bottom)


WHOLE_QUOTE = 4  # rows: a quote this short moves whole to the next card rather than split


def code(flow: Layouter, block: CodeBlock, ctx: Ctx) -> Part:
    style = flow.styles["code_block"]
    frame = new_frame(flow, "code_block", ctx)
    inner = inset(ctx, style, frame)
    least = math.inf if in_a_slide(flow, ctx) else shrunk_label(flow, ctx)
    style, note = _code_style(flow, block, style, inner.width, least)
    metrics = flow.metrics(style)
    rows: list[Row] = []
    line_ends: set[int] = set()  # the last row of each source line (it may wrap)
    palette = flow.styles.palette
    mark = flow.looks.code(style, palette.get("code_comment", style.color))
    for tokens in highlight(block.code, block.lang, palette, style.color):
        spans = [Span(text, flow.looks.code(style, color)) for text, color in tokens]
        lines = _source_line(flow, spans, inner.x, inner.width, metrics, mark) if spans else []
        made = [line_row(line, inner) for line in lines] or [
            # an empty source line still takes a line
            Row(height=metrics.height, items=(), frames=inner.frames, baseline=metrics.baseline)
        ]
        flow.spend(made)
        source = "".join(span.text for span in spans).rstrip()
        if not source.strip():
            # a blank line ends the card it falls at, never opens the next one under its
            # "···" mark (the asyncio tutorial's continued code slides did)
            line_ends.discard(len(rows) - 1)
        rows.extend(made)
        if not source.endswith(_OPENERS):  # never split right after `try:` or `{`
            line_ends.add(len(rows) - 1)
    if note and rows:
        rows[0] = replace(rows[0], note=note)
    return Part(tuple(_kept_whole(rows, line_ends)), style.margin_top, style.margin_bottom)


# A plain-text block whose lines are set in columns (an ASCII table, a board, a tree drawn
# with box-drawing characters) reads only while its lines stay whole: one wrapped line throws
# every column after it out of line. Such a block too wide for its panel is set smaller to
# fit, as a figure is (to `figures.label_floor`, labels kept 10 px); past that it wraps as
# any code does, and says so.
_PLAIN_LANGS = frozenset({"", "text", "txt", "plain", "plaintext", "ascii", "none"})
_BOX_DRAWING = range(0x2500, 0x2580)
COLUMNS_SMALLER = "a text block set smaller to keep its columns"
COLUMNS_WRAPPED = "a text block's columns wrapped: too wide to keep"


# A code block whose widest line runs past its panel by at most this share is set that much
# smaller rather than wrapped: a one-line command broken under a » mark "although it nearly
# fits" (the git post's `git commit --amend -m "…"` in brandC, notebook and coil-notebook at
# 440x586, eleventh look). Code wider still wraps at the theme's size, and so does code a
# phone would show too small set smaller (`figures.shrunk_label`: 9 px on a phone), and a
# slide's: its wide measure seldom wraps a line, and its deck is paged by zoom, where a
# block a few per cent smaller turned the tips post's three slides into five, its closing
# quote alone on the last (test_table_beside_note).
CODE_TIGHTEN = 0.1


def _code_style(
    flow: Layouter, block: CodeBlock, style: Style, width: float, least: float
) -> tuple[Style, str]:
    """The code style a block is set in, and the note its first row carries: smaller for a
    column-set plain-text block wider than `width`, while that keeps it legible, and for
    any block at most `CODE_TIGHTEN` wider, its type no smaller than `least` px (what a
    phone shows legibly: `figures.shrunk_label`)."""
    look = flow.looks.code(style, style.color)
    widest = max(advance(flow, line.rstrip(), look) for line in block.code.split("\n"))
    if widest <= width:
        return style, ""
    scale = width / widest
    if scale >= 1 / (1 + CODE_TIGHTEN) and style.size * scale >= least:
        return replace(style, size=style.size * scale), ""
    if not _in_columns(block):
        return style, ""
    if scale < label_floor(style.size):
        return style, COLUMNS_WRAPPED
    return replace(style, size=style.size * scale), COLUMNS_SMALLER


def _in_columns(block: CodeBlock) -> bool:
    """A plain-text block drawn with box-drawing characters, or set in columns: a line
    with two words at least that open after a gap of two spaces or more at the same places
    as another line's (a code line's `  # comment` is one such word, not a column)."""
    if block.lang.lower() not in _PLAIN_LANGS:
        return False
    if any(ord(char) in _BOX_DRAWING for char in block.code):
        return True
    starts = [_after_gaps(line) for line in block.code.split("\n")]
    seen: dict[int, int] = {}
    for found in starts:
        for at in found:
            seen[at] = seen.get(at, 0) + 1
    shared = {at for at, lines in seen.items() if lines >= 2}
    return any(len(found & shared) >= 2 for found in starts)


def _after_gaps(line: str) -> set[int]:
    """Where each word of `line` starts that follows a gap of two spaces or more (its
    indent aside)."""
    first = len(line) - len(line.lstrip(" "))
    return {i for i in range(first + 2, len(line)) if line[i] != " " and line[i - 2 : i] == "  "}


# A wrapped source line goes on under its own indent plus one step, which this mark fills
# (in the comment colour): Python's indentation still reads right, and a reader sees a wrap,
# not a new line. The no-break space keeps the mark on the text it leads.
WRAP_MARK = "\u00bb\u00a0"  # », which every code face has (vim's showbreak)
_OPENERS = (":", "{", "(", "[")  # a source line ending so opens a block: never split after it


def _source_line(
    flow: Layouter, spans: list[Span], x: float, width: float, metrics: Metrics, mark: SpanStyle
) -> list[TextLine]:
    """One source line's lines: the first at the panel's width, each wrap after it hanging
    under the line's indent and led by `WRAP_MARK`, broken where a reader parts the line
    (`codelines.wrap`) or, where no such set fits, filled greedily."""
    lines = layout_text(
        spans, flow.fonts, x=x, width=width, metrics=metrics, prose=False, code=True
    )
    if len(lines) == 1:
        return lines
    source = "".join(span.text for span in spans)
    indent = len(source) - len(source.lstrip(" "))
    hang = advance(flow, " " * indent, spans[0].style)
    if width - hang < width / 2:  # a deep indent leaves no room: wrap at the panel's edge
        hang = 0.0
    wrapped = _Wrapped(flow, metrics, mark, x + hang, width - hang)
    greedy = _greedy(wrapped, spans, lines[0])
    advances = _advances(flow, spans, source)
    rest = width - hang - advance(flow, WRAP_MARK, mark)
    starts = wrap(source, advances, width, rest, len(greedy)) if advances else None
    if starts is None:
        return greedy
    cuts = [0, *starts, len(source)]
    head = _between(spans, 0, cuts[1])
    pieces = [
        layout_text(head, flow.fonts, x=x, width=width, metrics=metrics, prose=False, code=True)
    ]
    pieces += [wrapped.lines(_between(spans, a, b)) for a, b in pairwise(cuts[1:])]
    # a set measured apart from its layout (a pair kerned across a cut) keeps the fill
    if any(len(piece) != 1 for piece in pieces):
        return greedy
    return [piece[0] for piece in pieces]


class _Wrapped:
    """How the wraps of one source line are set: hanging at `x`, `width` wide, behind the
    mark."""

    def __init__(
        self, flow: Layouter, metrics: Metrics, mark: SpanStyle, x: float, width: float
    ) -> None:
        self.flow, self.metrics, self.mark, self.x, self.width = flow, metrics, mark, x, width

    def lines(self, rest: list[Span]) -> list[TextLine]:
        """`rest` set behind the mark (the mark drawn, not in the lines' text: alt text)."""
        led = [Span(WRAP_MARK, self.mark), *rest]
        lines = layout_text(
            led,
            self.flow.fonts,
            x=self.x,
            width=self.width,
            metrics=self.metrics,
            prose=False,
            code=True,
        )
        return [replace(line, text=line.text.removeprefix(WRAP_MARK)) for line in lines]


def _greedy(wrapped: _Wrapped, spans: list[Span], first: TextLine) -> list[TextLine]:
    """The line filled greedily: each wrap takes what fits of the rest."""
    out = [first]
    rest = _after(spans, len(first.text))
    while rest:
        line = wrapped.lines(rest)[0]
        out.append(line)
        rest = _after(rest, max(1, len(line.text)))  # always moves on
    return out


def _advances(flow: Layouter, spans: list[Span], source: str) -> list[float] | None:
    """Each character's advance in `source` (a cluster's on its first character); None
    where the clusters do not spell `source` (a cased or substituted run)."""
    out: list[float] = []
    for cluster in shape(spans, flow.fonts):
        out.append(cluster.width)
        out.extend([0.0] * (len(cluster.text) - 1))
    return out if len(out) == len(source) else None


def _between(spans: list[Span], start: int, end: int) -> list[Span]:
    """The spans' text from character `start` to `end`, each piece in its own style."""
    out: list[Span] = []
    at = 0
    for span in spans:
        lo, hi = max(start, at), min(end, at + len(span.text))
        if lo < hi:
            out.append(replace(span, text=span.text[lo - at : hi - at]))
        at += len(span.text)
    return out


def _after(spans: list[Span], consumed: int) -> list[Span]:
    """`spans` without their first `consumed` characters and the spaces a line hung after
    them (the next line starts at its first visible character)."""
    out: list[Span] = []
    for span in spans:
        if consumed >= len(span.text):
            consumed -= len(span.text)
            continue
        out.append(replace(span, text=span.text[consumed:]) if consumed else span)
        consumed = 0
    while out and not out[0].text.strip(" "):
        out.pop(0)
    if out:
        out[0] = replace(out[0], text=out[0].text.lstrip(" "))
    return out


def _kept_whole(rows: list[Row], line_ends: set[int]) -> list[Row]:
    """A code block stays on one card: every row keeps with the next. The ends of its
    inner source lines are also `keep_soft`, the fallback breaks taken only when the block
    is taller than a card: it then breaks between source lines, never inside a wrapped
    one, and its first two and last two rows stay together."""
    last = len(rows) - 2
    return [
        replace(row, keep_with_next=i <= last, keep_soft=0 < i < last and i in line_ends)
        for i, row in enumerate(rows)
    ]
