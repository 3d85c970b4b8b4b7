"""A card its diagrams leave mostly empty → those diagrams drawn larger.

The page breaker draws a figure smaller to end a card (`squeeze.py`). The opposite card
is one whose diagram could not join the card before and stands with most of the card
empty under it: a sequence of three messages in the top third of the mixed-diagram post's
last card, its labels smaller than the text (30 theme-modes; issue 41, class 3). Such a
card (its rows filling under `ROOMY` of it, nothing on it drawn smaller) draws its diagrams
larger, each by the same share, up to each one's `Row.max_scale` (`figures.figure_ceiling`)
and until the card is `FULL`. The breaks do not move: every card keeps its rows.
"""

from __future__ import annotations

from dataclasses import replace

from ...base.boxes import Row
from ...base.placing import place

ROOMY = 0.7  # a card filled less than this by its rows may draw its diagrams larger
FULL = 0.8  # and fills at most this once they are


def grown(page: list[Row], height: float) -> list[Row]:
    """`page` (the rows of a card `height` tall) with its diagrams drawn larger where
    they leave it under `ROOMY` full, the quality report told so."""
    figures = sum(row.height for row in page if row.max_scale > 1.0)
    if not figures or any(row.scale != 1.0 for row in page):
        return page
    used = place(page).height
    if used >= ROOMY * height:
        return page
    share = 1.0 + (FULL * height - used) / figures
    return [_larger(row, min(share, row.max_scale)) if row.max_scale > 1.0 else row for row in page]


def _larger(row: Row, scale: float) -> Row:
    said = f"figure drawn at {scale:.0%} of its size to fill the card"
    return replace(row, scale=scale, note="; ".join(filter(None, (row.note, said))))
