"""A callout (mdxMode `<Callout>` or a GitHub alert) + its box → `Part`.

The theme's quote panel look (padding, radius, effects, background) tinted with the kind's colour, a
bar in that colour and a title line in it. The colours are palette tokens
(`callout_note` … `callout_caution`, style.py), so a theme may name its own; an mdx `info`
callout takes the theme's accent.
"""

from __future__ import annotations

from dataclasses import replace

from ..base.boxes import Frame, FrameDecor
from ..parse.doc import Callout, Text
from ..style.spanstyle import BOLD_WEIGHT
from .parts import Ctx, Layouter, Part, line_row

CALLOUT_TINT = 0x1F000000  # the panel: the callout's colour at 12% over the card
CALLOUT_BAR = 4.0  # px
CALLOUT_PAD = 12.0  # px, at least, on each side of a callout's content
# Callout kinds: (palette token of the colour, icon); None: the theme's accent. The mdx
# kinds share the alert kinds' colours (danger is caution's).
CALLOUT_KINDS: dict[str, tuple[str | None, str]] = {
    "info": (None, "ℹ️"),
    "note": ("callout_note", "ℹ️"),
    "tip": ("callout_tip", "💡"),
    "important": ("callout_important", "❗"),
    "warning": ("callout_warning", "⚠️"),
    "caution": ("callout_caution", "⛔"),
    "danger": ("callout_caution", "⛔"),
}


def callout_color(flow: Layouter, kind: str) -> int:
    """The colour of a callout of `kind`: its bar, its title and (faint) its panel."""
    token = CALLOUT_KINDS.get(kind, CALLOUT_KINDS["info"])[0]
    return flow.looks.accent_pair()[0] if token is None else flow.styles.palette[token]


def _tint(paint: int, ground: object) -> int:
    """The panel: the kind's colour at `CALLOUT_TINT` over the quote's background when that
    is a colour (a dark theme's shaded quote keeps a light title legible), else alone."""
    tint = (paint & 0xFFFFFF) | CALLOUT_TINT
    if not isinstance(ground, int) or not ground >> 24:
        return tint
    top, under = (CALLOUT_TINT >> 24) / 255, (ground >> 24) / 255 * (1 - (CALLOUT_TINT >> 24) / 255)
    alpha = top + under
    channels = [
        round(((paint >> s & 0xFF) * top + (ground >> s & 0xFF) * under) / alpha) << s
        for s in (16, 8, 0)
    ]
    return round(alpha * 255) << 24 | channels[0] | channels[1] | channels[2]


def callout(flow: Layouter, block: Callout, ctx: Ctx) -> Part:
    quote = flow.styles["quote"]
    paint = callout_color(flow, block.kind)
    top, right, bottom, left = (max(CALLOUT_PAD, p) for p in quote.padding)
    decor = FrameDecor(
        x=ctx.x,
        width=ctx.width,
        fill=_tint(paint, quote.background),
        radius=max(quote.radius, flow.styles["list"].radius),
        bar_width=CALLOUT_BAR,
        bar_color=paint,
        effects=quote.effects,
        role="callout",
    )
    frame = Frame(flow.next_frame_id(), top, bottom, decor)
    inner = replace(
        ctx,
        x=ctx.x + left + CALLOUT_BAR,
        width=max(1.0, ctx.width - left - right - CALLOUT_BAR),
        frames=(*ctx.frames, frame),
        floor=0.0,
    )
    title = block.title or block.kind.capitalize()
    if block.icon:
        title = f"{CALLOUT_KINDS.get(block.kind, CALLOUT_KINDS['info'])[1]} {title}"
    # Bold in the kind's colour, whatever colour the theme gives bold text.
    style = replace(flow.styles["body"], weight=max(BOLD_WEIGHT, flow.styles["body"].weight))
    lines = flow.text_lines((Text(title),), style, replace(inner, color=paint), rows=True)
    rows = [line_row(line, inner, keep=True) for line in lines]
    flow.spend(rows)
    body = flow.stack(block.blocks, inner)
    if body.rows:
        rows.append(replace(body.rows[0], gap=flow.styles["body"].size * 0.4))
        rows.extend(body.rows[1:])
    return Part(tuple(rows), quote.margin_top, quote.margin_bottom)
