"""An image block + its box → `Part`: the picture (framed, perhaps tilted) and its caption.

Layout reads only the image's header: the row carries an `ImageRef`, and draw decodes. A
source with no readable image becomes a tinted placeholder with its alt text.

A figure at the top level may be drawn smaller by the page breaker, down to `FIGURE_FLOOR`
of its size, where that lets it end a card rather than leave the card half empty
(`pagebreaks`); its caption is a row of its own, kept with it and never scaled. A diagram
may also be drawn larger on a card it leaves mostly empty (`figure_ceiling`); a picture
is not (its pixels would show).
"""

from __future__ import annotations

from dataclasses import replace

from ..base.boxes import Fill, ImageRef, Item, Picture, Rect, Row, shift
from ..diagrams.marks import SHRUNK_LABEL
from ..limits import DEFAULT_WIDTH
from ..parse.doc import Image, Text
from ..style.schema import Style
from .marks import ImageFrame
from .parts import Ctx, Layouter, Part

PLACEHOLDER_RATIO = 0.5  # a missing image's placeholder is half as tall as it is wide
# The least share of its size a figure is drawn at to end a card: a diagram's 14 px labels
# stay near 10 px, a card's smallest text; a picture keeps half its area, still the figure
# the reader met in the text (docs/decisions/engine.md, "2026-12-03: figures drawn smaller
# to end a card; tile grids split between lines": 0.6 and 0.8 measured).
FIGURE_FLOOR = 0.7
LEGIBLE_LABEL = 10.0  # px: a diagram set to fit its measure keeps its labels this large
# A diagram on a card it leaves mostly empty may be drawn up to this share of its size
# (pages/breaks/grow.py), within the measure and its smallest label no larger than
# `GROWN_LABEL` of body text (an h3's size): three messages of a sequence alone in the top
# third of a card read as a card left empty (the mixed-diagram post's last card in 30
# theme-modes); once its labels were set at body size (f913e5ae) a body-size ceiling left
# it "small, floating mid-card, half the card empty" in every theme-mode at 440x586.
FIGURE_CEILING = 1.5
GROWN_LABEL = 1.25
SLIDE_WIDE = 1.4  # a card whose text box is this many times wider than tall is a slide
CAPTION_GAP = 0.5  # em of the caption's size between an image and its alt-text caption


def image(flow: Layouter, block: Image, ctx: Ctx, *, reserve: float = 0.0) -> Part:
    """An image at its natural size, at most the box width, its alt text as a caption
    under it in the image role's text style; on fixed-size cards the two are at most
    the card height, less a heading chain above them (`reserve`) that must share their
    card, when that leaves them at least half the card."""
    part = _image(flow, block, ctx, reserve)
    flow.spend(part.rows)
    return part


def _image(flow: Layouter, block: Image, ctx: Ctx, reserve: float) -> Part:
    style = flow.styles["image"]
    ref = flow.images.ref(block.src)
    if ref is None:
        return Part((_placeholder(flow, block, style, ctx),), style.margin_top, 0.0)
    natural = _requested_size(ref, block)
    caption = _caption(flow, block.alt, style, ctx)
    limit = flow.max_row_height
    if limit and reserve:
        reserve += style.margin_top
        limit = limit - reserve if reserve < limit / 2 else limit
    if limit:  # a long caption still leaves the image half the room; paginate scales
        limit = max(limit - caption[0], limit / 2)
    frame = _image_frame(style)
    if frame is not None:
        row = _framed_image(ref, natural, frame, ctx, limit or None)
    else:
        width = min(natural[0], ctx.width)
        height = natural[1] * width / natural[0]
        if limit and height > limit:
            width, height = width * limit / height, limit
        rect = Rect(ctx.x + (ctx.width - width) / 2, 0.0, width, height)
        picture = Picture(ref, rect, style.radius)
        row = Row(height=height, items=(picture,), frames=ctx.frames)
    row = replace(row, text=f"[{block.alt}]", min_scale=figure_floor(ctx), figure=True)
    if not caption[1]:
        return Part((row,), style.margin_top, 0.0)
    under = Row(height=caption[0], items=caption[1], frames=ctx.frames, figure=True)
    return Part((replace(row, keep_with_next=True), under), style.margin_top, 0.0)


def figure_floor(ctx: Ctx, drawn_at: float = 1.0, least: float = FIGURE_FLOOR) -> float:
    """The `min_scale` of a figure row in `ctx` already drawn at `drawn_at` of its own
    size: `least` (`FIGURE_FLOOR`, or a diagram's `label_floor`) of that size, at the top
    level only (a scaled row is centred on the card, which is not a container's centre)."""
    return 1.0 if ctx.frames else min(1.0, least / drawn_at)


def figure_ceiling(ctx: Ctx, width: float, smallest_label: float, body: float) -> float:
    """The `max_scale` of a diagram row in `ctx` drawn `width` wide, its smallest label
    `smallest_label` px: up to `FIGURE_CEILING`, the measure, and that label at
    `GROWN_LABEL` of `body` px; 1 in a container (a scaled row is centred on the card, not
    in its container)."""
    if ctx.frames or width <= 0:
        return 1.0
    largest = body * GROWN_LABEL / smallest_label
    return max(1.0, min(FIGURE_CEILING, ctx.width / width, largest))


def on_a_slide(width: float, height: float) -> bool:
    """Whether a text box `width` by `height` is a slide's (`SLIDE_WIDE`)."""
    return width >= SLIDE_WIDE * height


def shrunk_label(flow: Layouter, ctx: Ctx) -> float:
    """The least px a diagram shrunk to end a card keeps its smallest label at: a card's
    `SHRUNK_LABEL` (9 px on the phone), more on a card whose virtual width is wider than
    the default's, which a phone shows smaller (a 500x500 card: 12.2, where 11 read 7.9 px
    in 17 sets); a slide's `LEGIBLE_LABEL` (its virtual px are drawn zoomed, and at 11
    pop-art's mixed post left its title alone on a slide over the pie on the next). A code
    block set smaller to keep its lines whole stops there too (`panels.CODE_TIGHTEN`)."""
    if in_a_slide(flow, ctx):
        return LEGIBLE_LABEL
    return SHRUNK_LABEL * max(1.0, flow.card_width / DEFAULT_WIDTH)


def in_a_slide(flow: Layouter, ctx: Ctx) -> bool:
    """Whether the card's text box is a slide's (`figures.on_a_slide`)."""
    full = flow.max_row_height
    return bool(full and on_a_slide(ctx.width, full))


def label_floor(smallest_label: float, legible: float = LEGIBLE_LABEL) -> float:
    """The least share of its size a diagram whose smallest label is `smallest_label` px
    is drawn at: `FIGURE_FLOOR`, or more where that would set its labels under `legible`
    px (`LEGIBLE_LABEL`; to end a card, `SHRUNK_LABEL`: a sequence's 12-px messages at
    70 % were 8.4 px, 6.9 px on a phone, in a card that gained nothing a reader wanted)."""
    return max(FIGURE_FLOOR, min(1.0, legible / smallest_label))


def _caption(flow: Layouter, alt: str, style: Style, ctx: Ctx) -> tuple[float, tuple[Item, ...]]:
    """The alt text centred under an image (md2card's `.img-alt`): its height with the
    gap above it, and its items from the gap's top; nothing for an empty alt."""
    if not alt.strip():
        return 0.0, ()
    lines = flow.text_lines((Text(alt),), style, replace(ctx, color=style.color), align="center")
    gap = style.size * CAPTION_GAP
    items: list[Item] = []
    y = gap
    for line in lines:
        items.extend(shift(line.items, y))
        y += line.height
    return y, tuple(items)


def _framed_image(
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


def _placeholder(flow: Layouter, block: Image, style: Style, ctx: Ctx) -> Row:
    """A missing image: a tinted panel with a picture glyph and the alt text."""
    height = min(ctx.width * PLACEHOLDER_RATIO, flow.max_row_height or 1e9)
    label = block.alt or block.src.rsplit("/", 1)[-1][:60] or "image"
    lines = flow.text_lines(
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


def _requested_size(ref: ImageRef, block: Image) -> tuple[float, float]:
    """The size `![alt|WxH](src)` asked to show the image at (W alone keeps its aspect),
    else its natural size; it is then laid out as that natural size (at most the box width)."""
    if block.width is None:
        return float(ref.width), float(ref.height)
    height = block.height or max(1, round(ref.height * block.width / ref.width))
    return float(block.width), float(height)
