"""A list + its box → `Part`: items indented, each first row carrying its marker.

Markers: bullets by depth (the theme's shape at the top level, a ring, a square), numbers
as text or as badges (a disc or rounded square; a number too wide for the indent widens
it, "10." as much as a badge), and task
checkboxes. A top-level list may sit on a panel of its own.
"""

from __future__ import annotations

from dataclasses import replace

from ..base.boxes import Fill, Frame, Group, Item, Rect, Row, Shape, Stroke
from ..parse.doc import ListBlock, ListItem, Text
from ..style.schema import Style
from ..text.linebox import TextLine
from .marks import BADGE_TEXT, badge, badge_width, bullet
from .parts import Ctx, Layouter, Part, indent, inset, new_frame
from .tiles import tiled_list

MARKER_RISE = 0.38  # list markers sit at the middle of CJK glyphs: 0.38 em above baseline
DIGIT_RISE = 0.36  # the middle of a badge's digits, in em above their baseline
BADGE_HEIGHT = 1.25  # a number badge is 1.25 em of body text tall unless `number_size` says


def list_block(flow: Layouter, block: ListBlock, ctx: Ctx) -> Part:
    tiles = tiled_list(flow, block, ctx)
    if tiles is not None:
        return tiles
    style = flow.styles["list"]
    if not ctx.depth and _has_panel(style):  # a top-level list in a panel
        ctx = inset(ctx, style, list_panel(flow, style, ctx))
    numbers = _plain_numbers(flow, block, ctx)
    inner = replace(
        indent(ctx, list_indent(flow, block, style, numbers)),
        depth=ctx.depth + 1,
        tight=block.tight,
    )
    rows: list[Row] = []
    item_ends: list[int] = []  # the index of each item's last row
    for number, item in enumerate(block.items, start=block.start):
        part = flow.tag(flow.stack(item.blocks, inner), "ListItem")
        if not part.rows:
            empty = Row(
                height=flow.metrics(flow.styles["body"]).height, items=(), frames=ctx.frames
            )
            flow.spend((empty,))
            part = Part((empty,))
        first = part.rows[0]
        marker = _marker(flow, block, item, number, first, inner, numbers.get(number))
        gap = style.item_gap if block.tight else max(style.item_gap, part.top)
        rows.append(replace(first, items=marker + first.items, gap=gap))
        rows.extend(part.rows[1:])
        item_ends.append(len(rows) - 1)
    _keep_two_items_together(rows, item_ends)
    margin = style.item_gap if ctx.depth else style.margin_top
    return Part(tuple(rows), margin, 0.0 if ctx.depth else style.margin_top)


def _keep_two_items_together(rows: list[Row], item_ends: list[int]) -> None:
    """A list split between cards keeps at least two items on each side: no break after
    its first item nor before its last (a list of two or three items moves whole, unless
    it is taller than a card)."""
    if len(item_ends) < 2:
        return
    for end in {item_ends[0], item_ends[-2]}:
        rows[end] = replace(rows[end], keep_with_next=True)


def _marker(
    flow: Layouter,
    block: ListBlock,
    item: ListItem,
    number: int,
    row: Row,
    ctx: Ctx,
    plain: TextLine | None,
) -> tuple[Item, ...]:
    """The marker of `item`, whose first row is `row`, left of `ctx` (the item's text
    box), in the list's indent; `plain`: its number set as text (`_plain_numbers`)."""
    style = flow.styles["list"]
    body = flow.styles["body"]
    baseline = row.baseline or flow.metrics(body).baseline
    mid = baseline - body.size * MARKER_RISE
    color = style.marker_color or body.color
    if item.checked is not None:
        return _checkbox(flow, item.checked, ctx.x - style.marker_gap, mid)
    if block.ordered and style.number_style != "plain":
        return number_badge(flow, number, ctx.x - style.marker_gap, mid)[0]
    if plain is not None:
        return (Group(plain.items, dx=ctx.x - style.marker_gap, dy=baseline - plain.baseline),)
    kind = (ctx.depth - 1) % 3
    if kind == 0 and style.marker_text:
        return _text_marker(flow, style, ctx.x - style.marker_gap, mid, color)
    r = style.marker_size / 2
    cx = ctx.x - style.marker_gap - r
    box = Rect(cx - r, mid - r, 2 * r, 2 * r)
    if kind == 1:
        return (Stroke(box, color, 1.0, radius=r),)
    if kind == 0 and style.marker_shape != "disc":
        return bullet(style.marker_shape, cx, mid, style.marker_size, color)
    return (Fill(box, color, radius=r if kind == 0 else 0.0),)


GLYPH_MID = 0.35  # the middle of a bullet glyph (★, ✦, 🍃), in em above its baseline


def _text_marker(
    flow: Layouter, style: Style, right: float, mid: float, color: int
) -> tuple[Item, ...]:
    """The bullet `marker_text`, its right edge at `right`, centred on `mid`: on the
    number's badge (`marker_badge`), else as text `marker_size` px tall."""
    if style.marker_badge:
        return number_badge(flow, style.marker_text, right, mid, round_only=True)[0]
    body = flow.styles["body"]
    look = replace(body, size=style.marker_size or body.size, line_height=1.0, weight=400)
    line = _one_line(flow, style.marker_text, look, color)
    rise = mid + look.size * GLYPH_MID - line.baseline
    return (Group(line.items, dx=right - line.width, dy=rise, ornament=True),)


def number_text(style: Style, number: int, *, badge: bool = False) -> str:
    """`number` as the list's `number_format` writes it; on a badge, its digits alone."""
    form = style.number_format
    digits = f"{number:02d}" if form.startswith("01") else str(number)
    return digits if badge else digits + form.lstrip("01")


def list_panel(flow: Layouter, style: Style, ctx: Ctx) -> Frame:
    """The panel behind a top-level list: its background, radius, border and effects."""
    frame = new_frame(flow, "list", ctx)
    width = style.border_width
    decor = replace(frame.decor, border_color=style.border_color, border_width=width)
    return replace(frame, decor=decor)


def list_indent(
    flow: Layouter, block: ListBlock, style: Style, numbers: dict[int, TextLine]
) -> float:
    """The list's indent; a number too wide for it (a badge, or "10." in a theme whose
    indent holds "9.": `numbers`, `_plain_numbers`) widens it so the widest number and its
    gap fit: a browser would let the number spill into the margin, a card has no margin to
    spill into. A bullet on a badge (`marker_badge`: coil-notebook's ★ disc) widens it so
    too: in the 6 px indent of its list box the disc straddled the box's edge."""
    if not block.items or not (block.ordered or style.marker_badge):
        return style.indent
    if not block.ordered:
        widest = number_badge(flow, style.marker_text, 0.0, 0.0, round_only=True)[1]
    elif style.number_style == "plain":
        widest = max((line.width for line in numbers.values()), default=0.0)
    else:
        last = block.start + len(block.items) - 1
        widest = max(number_badge(flow, n, 0.0, 0.0)[1] for n in {block.start, last})
    return max(style.indent, widest + style.marker_gap)


def _plain_numbers(flow: Layouter, block: ListBlock, ctx: Ctx) -> dict[int, TextLine]:
    """An ordered list's numbers set as text ("7."), each on one line whatever its width
    (a number wrapped in a narrow box drew "1" for "10."), its right edge at x = 0; none
    for a list of bullets or badges. Laid out once: they set the indent and are drawn."""
    style = flow.styles["list"]
    if not block.ordered or style.number_style != "plain":
        return {}
    body = flow.styles["body"]
    look = replace(ctx, color=style.marker_color or body.color)
    numbers: dict[int, TextLine] = {}
    for number, item in enumerate(block.items, start=block.start):
        if item.checked is None:  # a task item draws its box
            text = (Text(number_text(style, number)),)
            lines = flow.text_lines(text, body, look, x=-_NO_WRAP, width=_NO_WRAP, align="right")
            numbers[number] = lines[0]
    return numbers


_NO_WRAP = 1e4  # px: a line box no list number fills


def number_badge(
    flow: Layouter, number: int | str, right: float, mid: float, *, round_only: bool = False
) -> tuple[tuple[Item, ...], float]:
    """A list number (or a bullet's text) on a disc or rounded square whose right edge is
    at `right`, centred on `mid`; and the badge's width. A number too wide widens it to a
    pill; with `round_only` (a bullet's ★, wider than a digit) it stays as wide as tall."""
    style = flow.styles["list"]
    body = flow.styles["body"]
    height = style.number_size or body.size * BADGE_HEIGHT
    look = replace(body, size=height * BADGE_TEXT, weight=700, line_height=1.0)
    color = style.number_color if style.number_color is not None else 0xFFFFFFFF
    label = number if isinstance(number, str) else number_text(style, number, badge=True)
    line = _one_line(flow, label, look, color)
    width = height if round_only else badge_width(line.width, height)
    rect = Rect(right - width, mid - height / 2, width, height)
    paint = style.number_background
    if paint is None:
        paint = style.marker_color if style.marker_color is not None else body.color
    dx = rect.x + (width - line.width) / 2
    rise = mid + look.size * DIGIT_RISE - line.baseline
    digits = Group(line.items, dx=dx, dy=rise, mark=True)  # read as the badge, not as words
    return (badge(rect, paint, style.number_style == "disc"), digits), width


def _one_line(flow: Layouter, text: str, look: Style, color: int) -> TextLine:
    """`text` set in `look` and `color` as one line from x = 0 (a marker, a badge's label)."""
    return flow.text_lines((Text(text),), look, Ctx(0.0, _NO_WRAP, color=color), align="left")[0]


def _checkbox(flow: Layouter, checked: bool, right: float, mid: float) -> tuple[Item, ...]:
    task = flow.styles["task"]
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


def _has_panel(style: Style) -> bool:
    """Whether a list role draws a panel behind top-level lists."""
    return style.background is not None or bool(style.border_width) or any(style.padding)
