"""The decorations tied to one card's text (ruled lines on its baselines) or panels (one
per quote or code panel), laid out for each card; `cardface` builds the static ones once."""

from __future__ import annotations

from dataclasses import replace

from ..base.boxes import Item, Rect
from ..base.fonts import FontBook
from ..base.placing import Placement
from ..style.decorations import Decoration, is_static
from ..style.resolver import Styles
from .decorate import Context, build, text_boxes


def live_decorations(
    styles: Styles, fonts: FontBook, placement: Placement, page: Rect, content: Rect, top: float
) -> dict[str, list[Item]]:
    """Decorations tied to this card's text (ruled lines on its baselines) or panels
    (one per quote or code panel), by where they go in paint order; the rows start at
    `top`."""
    out: dict[str, list[Item]] = {"under": [], "over": [], "panel-under": [], "panel-over": []}
    live = [d for d in styles.decorations if not is_static(d)]
    if not live:
        return out
    baselines = tuple(
        top + p.y + p.row.baseline * p.scale for p in placement.rows if p.row.baseline
    )
    text = text_boxes(placement.rows, replace(content, y=top))
    for deco in live:
        for frame in _frames_of(deco, placement, page, content, top):
            context = Context(frame, styles.tokens, fonts, baselines, text, page)
            slot = deco.layer if deco.frame in ("card", "content") else f"panel-{deco.layer}"
            out[slot].extend(build(deco, context))
    return out


def _frames_of(
    deco: Decoration, placement: Placement, page: Rect, content: Rect, rows_top: float
) -> list[Rect]:
    if deco.frame in ("card", "content"):
        return [page if deco.frame == "card" else content]
    return [
        Rect(frame.decor.x, rows_top + top, frame.decor.width, bottom - top)
        for frame, top, bottom in placement.frames
        if frame.decor.role == deco.frame
    ]
