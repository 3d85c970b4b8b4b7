"""A theme → the colour its text sits on: the last opaque sheet drawn across the card
(brandC's white sheet on its purple, pop-art's white panel on its yellow, a notebook's
page), else the card's background. Covers choose their inks against it, and a diagram's
"page" (a pie's seams, a chip's ground, the series colours' tiers) is that colour, not the
purple or yellow round the sheet."""

from __future__ import annotations

from .decorations import Box, is_static
from .paint import base_color, resolve_paint
from .resolver import Styles

OPAQUE = 0xE0  # a sheet at least this opaque hides what is under it


def text_ground(styles: Styles) -> int:
    """The ARGB colour text sits on: the last opaque static sheet drawn across the frame (a
    rect with an inset) where the theme has one, else the card's background (its first
    stop, for a gradient)."""
    for deco in reversed(styles.decorations):
        spec = deco.fill if isinstance(deco, Box) and deco.inset is not None else None
        fill = resolve_paint(spec, styles.tokens) if spec is not None else None
        if isinstance(fill, int) and fill >> 24 >= OPAQUE and is_static(deco):
            return fill  # (a pattern's lines or a glass tint lets the background show)
    return base_color(styles["card"].background)
