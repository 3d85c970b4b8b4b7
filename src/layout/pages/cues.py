"""The cue a card break leaves on a code panel it cuts: three dots in the panel's bottom
padding on the card it leaves, and in its top padding on the card it continues on, so a
reader sees the block goes on (a book's "continued") rather than a block that ends.

Only code panels get one: a quote or a list reads on naturally, but a cut program looks
finished where it is not.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.boxes import Fill, Item, Rect
from ..base.placing import Placement

CUE_ROLE = "code_block"
DOTS = 3
DOT_RADIUS = 1.5
DOT_SPACING = 7.0  # centre to centre
CUE_ALPHA = 0x99  # of the code's own colour: present, but quieter than the code


def continuation_cues(placements: Sequence[Placement], color: int, dy: float) -> list[list[Item]]:
    """For each card, the dots of the code panels the breaks before and after it cut."""
    cues: list[list[Item]] = [[] for _ in placements]
    paint = (color & 0x00FFFFFF) | (CUE_ALPHA << 24)
    for index in range(len(placements) - 1):
        cut = _cut_panels(placements[index], placements[index + 1])
        for frame, _, bottom in placements[index].frames:
            if frame.id in cut:
                cues[index].extend(
                    _dots(
                        frame.decor.x, frame.decor.width, bottom - frame.pad_bottom / 2 + dy, paint
                    )
                )
        for frame, top, _ in placements[index + 1].frames:
            if frame.id in cut:
                cues[index + 1].extend(
                    _dots(frame.decor.x, frame.decor.width, top + frame.pad_top / 2 + dy, paint)
                )
    return cues


def _cut_panels(before: Placement, after: Placement) -> set[int]:
    """The code panels open on both sides of the break between two cards."""
    if not before.rows or not after.rows:
        return set()
    last = {f.id for f in before.rows[-1].row.frames if f.decor.role == CUE_ROLE}
    return last & {f.id for f in after.rows[0].row.frames}


def _dots(x: float, width: float, y: float, paint: int) -> list[Item]:
    """Three dots centred across the panel at height `y`."""
    left = x + width / 2 - DOT_SPACING * (DOTS - 1) / 2
    size = 2 * DOT_RADIUS
    return [
        Fill(
            Rect(left + n * DOT_SPACING - DOT_RADIUS, y - DOT_RADIUS, size, size), paint, DOT_RADIUS
        )
        for n in range(DOTS)
    ]
