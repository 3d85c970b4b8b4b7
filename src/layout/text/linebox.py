"""A face, a size and a line height → the line box (`Metrics`); and `TextLine`, a line set in one.

Baselines follow CSS half-leading: a line box is `size * line_height` tall and the primary
face's ascent + descent sit centred in it. inline.py sets lines in a block's box (growing it
for larger inline text); lineitems.py paints them relative to it.
"""

from __future__ import annotations

from ..base.boxes import Item
from ..base.fonts import FontBook
from ..base.records import bulk_record


@bulk_record
class TextLine:
    """One laid-out line: items positioned with y relative to the line's top."""

    height: float
    baseline: float
    width: float
    items: tuple[Item, ...]
    text: str
    left: float = 0.0  # where the line's text starts (after alignment)
    broken_word: bool = False  # the line ends in a hyphen of its own inside a word
    stretch: float = 0.0  # em justification added to its widest CJK gap (0: not spread)


@bulk_record
class Metrics:
    """The line box of a block: its height and where the baseline sits in it."""

    height: float
    baseline: float
    size: float = 0.0  # the text size they are for; larger inline text grows a line (0: never)


def line_metrics(
    fonts: FontBook, family: str, bold: bool, size: float, line_height: float
) -> Metrics:
    face = fonts.chain(family, bold)[0]
    box = size * line_height
    content = (face.ascent + face.descent) * size
    return Metrics(box, (box - content) / 2 + face.ascent * size, size)
