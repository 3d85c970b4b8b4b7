"""A paragraph, heading or thematic break + its box → `Part`: the blocks of text lines.

Paragraphs keep their first and last two lines together; a display-math paragraph is
centred, set `DISPLAY_SCALE` times larger (as KaTeX sets math), and is a figure: it may be
drawn back at text size to end a slide, and ruled paper stops at it. A heading is its
lines (balanced, never hyphenated; a `prefix` mark joins its first word, a `suffix` mark
its last, each left out beside the author's own emoji), or with a background, bar or
padding a framed box (the column's width or its text's). A rule is a line of a share of
the width, solid or dashed, perhaps cut around an ornament in its middle.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import regex

from ..base.boxes import Frame, FrameDecor, Item, Row, Segment, shift
from ..parse.doc import Heading, Paragraph, Rule, Text
from ..parse.markdown import MATH_DISPLAY
from ..style.schema import Style
from ..style.spanstyle import Span
from ..text.breakpoints import measure_widths
from ..text.formula.mathtex import DISPLAY_SCALE
from ..text.linebreak import OPENING, PAUSES
from .figures import figure_floor, on_a_slide
from .marks import ORNAMENT_GAP, rule_segments
from .parts import Ctx, Layouter, Part, keep_ends_together, line_row

NO_BREAK_SPACE = "\u00a0"
_PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}")  # one character: no backtracking
FIT_MARGIN = 0.99  # a word set to its line's width exactly may still round over it
FIT_STEPS = 4  # measures of a heading whose longest word does not fit
# A title set in this many lines or more takes up to `TITLE_STEPS` smaller type where that
# saves it a line: pop-art's English title on a slide, HOW I GOT MY / MORNINGS BACK: / 6
# HABITS THAT STUCK, pushed half its lead onto the next slide (fourth look, 1600x900)
TITLE_LINES = 3
TITLE_STEPS = (0.95, 0.9)


def paragraph(flow: Layouter, block: Paragraph, ctx: Ctx) -> Part:
    style = flow.styles["body"]
    display = len(block.inlines) == 1 and MATH_DISPLAY in block.inlines[0].marks
    align = "center" if display else None
    lines = flow.text_lines(block.inlines, style, ctx, align=align, rows=True, phrases=flow.display)
    # Orphans and widows: the first two and the last two lines stay together.
    rows = keep_ends_together([line_row(line, ctx) for line in lines])
    if display:
        rows = [replace(row, min_scale=_display_floor(flow, ctx), figure=True) for row in rows]
    flow.spend(rows)
    margin = 0.0 if ctx.tight else style.margin_top
    return Part(tuple(rows), margin, 0.0 if ctx.tight else style.margin_bottom)


def _display_floor(flow: Layouter, ctx: Ctx) -> float:
    """The least share of its size a display formula (set `DISPLAY_SCALE` times its text)
    is drawn at to end a card: back at text size on a slide, where a deck whose last slide
    no longer held it stepped every slide's type down (traditional-chinese's fund deck);
    its own size on a card, where the page breaker drew it back in ten sets of the fund
    post at 440x586, rated down as "smaller than the body text", and a card ends by its
    gaps or a type step of 2 % instead."""
    full = flow.max_row_height
    if full and on_a_slide(ctx.width, full):
        return figure_floor(ctx, DISPLAY_SCALE, 1.0)
    return 1.0


def heading(flow: Layouter, block: Heading, ctx: Ctx) -> Part:
    role = f"h{block.level}"
    style = flow.styles[role]
    if style.background is not None or style.bar_width or any(style.padding):
        return boxed_heading(flow, block, role, ctx)
    inlines = with_marks(block, style)
    style = fitted_to_words(flow, inlines, style, ctx, ctx.width)
    style = fitted_to_lines(flow, inlines, style, replace(ctx, color=None), role)
    lines = flow.text_lines(inlines, style, replace(ctx, color=None), rows=True, heading=True)
    rows = _words_only(
        [line_row(line, ctx, keep=True) for line in lines], style.prefix, style.suffix
    )
    flow.spend(rows)
    return Part(tuple(rows), style.margin_top, style.margin_bottom)


def fitted_to_words(
    flow: Layouter, inlines: tuple[Text, ...], style: Style, ctx: Ctx, width: float
) -> Style:
    """The heading's style, set smaller when its longest word is wider than its line, down
    to the body's size: a word a heading cuts reads as two (art-deco's spaced capitals at
    440 px: MISUNDERSTOO / D). Measured again after each step: letter spacing set in px
    does not shrink with the type."""
    floor = flow.styles["body"].size
    for _ in range(FIT_STEPS):
        spans = [Span(t.text, flow.span_style(style, t.marks, ctx)) for t in inlines]
        longest = measure_widths(spans, flow.fonts).word
        if longest <= width or style.size <= floor:
            break
        style = replace(style, size=max(floor, style.size * width / longest * FIT_MARGIN))
    return style


def fitted_to_lines(
    flow: Layouter, inlines: tuple[Text, ...], style: Style, ctx: Ctx, role: str
) -> Style:
    """The title's style (`role` h1), set up to `TITLE_STEPS` smaller where its lines are
    `TITLE_LINES` or more and the smaller type saves one whose lines each end at a pause
    (a clause's colon, a bar, before an aside: `_at_pauses`): a designer shrinks a display
    title a little rather than let it run to a third line, but not into a line that ends
    on a small word (THE QUIET POWER OF / BEING MISUNDERSTOOD) or inside a phrase
    (Mornings Back: 6 / Habits)."""
    if role != "h1":
        return style
    count = len(flow.text_lines(inlines, style, ctx, heading=True))
    if count < TITLE_LINES:
        return style
    for step in TITLE_STEPS:
        smaller = replace(style, size=style.size * step, letter_spacing=style.letter_spacing * step)
        lines = flow.text_lines(inlines, smaller, ctx, heading=True)
        if len(lines) < count and _at_pauses([line.text for line in lines]):
            return smaller
    return style


def _at_pauses(lines: list[str]) -> bool:
    """Whether each line but the last ends at a pause: on a mark of `PAUSES`, or before an
    aside the next line opens (考研英语 60 天冲刺计划 / （附时间表）)."""
    return all(
        line.rstrip()[-1:] in PAUSES or after.lstrip()[:1] in OPENING
        for line, after in itertools.pairwise(lines)
    )


def _words_only(rows: list[Row], prefix: str, suffix: str) -> list[Row]:
    """The rows with the theme's heading marks left out of their text: they are drawn, but
    they are no words of the post (the cards' alt text and the page-break report read
    `text`)."""
    before, after = prefix + NO_BREAK_SPACE, NO_BREAK_SPACE + suffix
    if prefix and rows and rows[0].text.startswith(before):
        rows[0] = replace(rows[0], text=rows[0].text.removeprefix(before))
    if suffix and rows and rows[-1].text.endswith(after):
        rows[-1] = replace(rows[-1], text=rows[-1].text.removesuffix(after))
    return rows


def with_marks(block: Heading, style: Style) -> tuple[Text, ...]:
    """The heading's text between its `prefix` and `suffix`, each joined by a no-break
    space: the marks are part of the text, so they wrap and balance with it and never
    stand on a line alone. They take the heading's `marker_color` where it sets one. A
    mark is left out where the heading starts or ends with an emoji of its own: nature's 🌿
    after a title's 🔥 read as two ornaments, one too many (fourth look, 1080x1440)."""
    if not block.inlines:
        return block.inlines
    ink = frozenset() if style.marker_color is None else frozenset({f"color:{style.marker_color}"})
    text = "".join(t.text for t in block.inlines).strip().replace("\ufe0f", "")
    prefix = style.prefix if not _PICTOGRAPH.match(text[:1]) else ""
    suffix = style.suffix if not _PICTOGRAPH.match(text[-1:]) else ""
    before = (Text(prefix + NO_BREAK_SPACE, ink),) if prefix else ()
    after = (Text(NO_BREAK_SPACE + suffix, ink),) if suffix else ()
    return (*before, *block.inlines, *after)


def boxed_heading(flow: Layouter, block: Heading, role: str, ctx: Ctx) -> Part:
    """A heading in a frame: its box (the column's width or its text's) and bar, its
    lines moved in by the padding and the bar with its gap."""
    style = flow.styles[role]
    top, right, bottom, left = style.padding
    bar = style.bar_width + style.bar_gap if style.bar_width else 0.0
    left += bar if style.bar_side == "left" else 0.0
    top += bar if style.bar_side == "top" else 0.0
    bottom += bar if style.bar_side == "bottom" else 0.0
    inner = replace(ctx, x=ctx.x + left, width=max(1.0, ctx.width - left - right), color=None)
    inlines = with_marks(block, style)
    style = fitted_to_words(flow, inlines, style, inner, inner.width)
    style = fitted_to_lines(flow, inlines, style, inner, role)
    lines = flow.text_lines(inlines, style, inner, rows=True, heading=True)
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
    frame = Frame(flow.next_frame_id(), top, bottom, decor)
    framed = replace(ctx, frames=(*ctx.frames, frame))
    rows = [line_row(line, framed, keep=True) for line in lines]
    rows = _words_only(rows, style.prefix, style.suffix)
    flow.spend(rows)
    return Part(tuple(rows), style.margin_top, style.margin_bottom)


def rule(flow: Layouter, _: Rule, ctx: Ctx) -> Part:
    """A rule of `length` (a share of the width, centred), solid or dashed, perhaps
    cut around an ornament in its middle."""
    style = flow.styles["hr"]
    paint = style.border_color if style.border_color is not None else style.color
    dots = style.dash is not None and style.dash[0] == 0  # on 0: round dots
    line = Segment(0, 0, 0, 0, paint, style.border_width, style.dash, round_cap=dots)
    length = ctx.width * min(1.0, max(0.0, style.length))
    x = ctx.x + (ctx.width - length) / 2
    if not style.ornament:
        y = style.border_width / 2
        items: tuple[Item, ...] = rule_segments(x, length, y, None, line)
        row = Row(height=style.border_width, items=items, frames=ctx.frames, discardable=True)
        flow.spend((row,))
        return Part((row,), style.margin_top, style.margin_bottom)
    color = style.marker_color if style.marker_color is not None else style.color
    [text] = flow.text_lines(
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
        discardable=True,
    )
    flow.spend((row,))
    return Part((row,), style.margin_top, style.margin_bottom)
