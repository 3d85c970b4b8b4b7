"""The decorations tied to one card's text (ruled lines on its baselines) or panels (one
per quote or code panel), laid out for each card; `cardface` builds the static ones once."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..base.boxes import Cached, FrameDecor, GlyphRun, Group, Item, Layer, Picture, Rect
from ..base.fonts import FontBook
from ..base.placing import Placement
from ..style.decorations import Decoration, is_static
from ..style.resolver import Styles
from .decor.clearance import Panel, text_boxes
from .decor.decorate import Context, build_parts, parts_of


def live_decorations(
    styles: Styles,
    fonts: FontBook,
    placement: Placement,
    page: Rect,
    content: Rect,
    top: float,
    chrome: tuple[Rect, ...] = (),
    panel: Panel | None = None,
) -> dict[str, list[Item]]:
    """Decorations tied to this card's text (ruled lines on its baselines) or panels
    (one per quote or code panel), by where they go in paint order; the rows start at
    `top`. An `avoid_text` ornament keeps off the rows and off `chrome`, the text the card
    sets outside them (`chrome_boxes`: its page number, a brand kit's byline and footer):
    watercolor's bottom-left bloom sat under a byline at 3.7:1. One the theme set inside
    its text `panel` stays inside it (`clearance.keep_off_text`)."""
    out: dict[str, list[Item]] = {"under": [], "over": [], "panel-under": [], "panel-over": []}
    live = [d for d in styles.decorations if not is_static(d)]
    if not live:
        return out
    baselines = tuple(
        top + p.y + p.row.baseline * p.scale
        for p in placement.rows
        if p.row.baseline and not p.row.figure
    )
    # a figure (a picture, a diagram, a display formula) is no line of text: ruled paper
    # stops at it, as a sketch pasted onto the page covers its rules
    figures = tuple(
        (top + p.y, top + p.y + p.row.height * p.scale) for p in placement.rows if p.row.figure
    )
    text = text_boxes(placement.rows, replace(content, y=top)) + chrome
    panels = _panel_boxes(placement, top)
    for parts in parts_of(live):
        deco = parts[0]
        on_card = deco.frame in ("card", "content")
        keep_off = text + panels if on_card else text  # one in a panel keeps off its text
        for frame in _frames_of(deco, placement, page, content, top):
            # one set in a quote's or code block's panel moves within that panel, not the
            # card: traditional-chinese's ” moved off a one-line quote hung outside its box
            room = page if on_card else frame
            context = Context(
                frame, styles.tokens, fonts, baselines, keep_off, room, panel, figures
            )
            slot = deco.layer if on_card else f"panel-{deco.layer}"
            out[slot].extend(build_parts(parts, context))
    return out


def _frames_of(
    deco: Decoration, placement: Placement, page: Rect, content: Rect, rows_top: float
) -> list[Rect]:
    if deco.frame in ("card", "content"):
        return [page if deco.frame == "card" else content]
    return [box for decor, box in _frame_boxes(placement, rows_top) if decor.role == deco.frame]


def _frame_boxes(placement: Placement, rows_top: float) -> list[tuple[FrameDecor, Rect]]:
    """Each container drawn on the card around rows (a quote's, a code block's panel, one
    set beside a table or in a column too), with its box on the card."""
    frames = list(placement.frames)
    for p in placement.rows:  # a quote set beside a table, or in a column
        frames.extend((frame, p.y + top, p.y + bottom) for frame, top, bottom in p.row.panels)
    return [
        (frame.decor, Rect(frame.decor.x, rows_top + top, frame.decor.width, bottom - top))
        for frame, top, bottom in frames
    ]


def _panel_boxes(placement: Placement, rows_top: float) -> tuple[Rect, ...]:
    """The boxes of the filled panels drawn around rows (a callout's, a code block's, a
    quote's): an ornament on the card keeps off them as off the text. Kept off the
    text only, art-deco's bottom-left fan sat under the git post's warning box at 500x500,
    its rays showing past the box's left edge."""
    return tuple(box for decor, box in _frame_boxes(placement, rows_top) if _drawn(decor))


def _drawn(decor: FrameDecor) -> bool:
    """Whether a frame is a filled box, which hides what is drawn under it (a heading's
    rule or a quote's bar alone hides nothing: art-deco's top-right fan keeps its place
    beside a heading whose rule spans the column)."""
    return decor.fill is not None


def chrome_boxes(items: list[Item]) -> tuple[Rect, ...]:
    """The boxes of the text and pictures among a card's chrome `items` (a page number, a
    brand kit's sign and footer lines, an AI label), each from an em above its baseline to
    a quarter under: what an `avoid_text` ornament keeps off besides the rows."""
    boxes: list[Rect] = []
    for item, dx, dy, scale in _leaves(items, 0.0, 0.0, 1.0):
        if isinstance(item, GlyphRun) and item.xs:
            size = item.size * scale
            left, right = dx + min(item.xs) * scale, dx + max(item.xs) * scale + size
            top, bottom = dy + min(item.ys) * scale - size, dy + max(item.ys) * scale + size / 4
            boxes.append(Rect(left, top, right - left, bottom - top))
        elif isinstance(item, Picture):
            r = item.rect
            left, top = dx + r.x * scale, dy + r.y * scale
            boxes.append(Rect(left, top, r.width * scale, r.height * scale))
    return tuple(boxes)


def _leaves(
    items: list[Item] | tuple[Item, ...], dx: float, dy: float, scale: float
) -> Iterator[tuple[Item, float, float, float]]:
    for item in items:
        if isinstance(item, Group):
            inner = (dx + item.dx * scale, dy + item.dy * scale, scale * item.scale)
            yield from _leaves(item.items, *inner)
        elif isinstance(item, Layer | Cached):
            yield from _leaves(item.items, dx, dy, scale)
        else:
            yield item, dx, dy, scale
