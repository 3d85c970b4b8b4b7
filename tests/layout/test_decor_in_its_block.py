"""An `avoid_text` ornament the theme set in a quote's (or code block's) panel moves within
that panel or is left out: traditional-chinese's pale ” in a one-line quote's corner,
moved off the quote's line, hung outside the box against the card's frame (fourth look:
the reading notes at 440x586, 500x500 and 1080x1440)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group, Item, Layer

POST = (Path(__file__).resolve().parents[1] / "cases" / "hard" / "13-reading-notes.md").read_text(
    "utf-8"
)
MARK_SIZE = 44.0  # the theme's ” (its `size`)


def _marks(items: tuple[Item, ...], dx: float = 0.0) -> list[tuple[float, float]]:
    """The left and right of each glyph of the mark's size the card draws outside its rows,
    on the virtual card its rows are laid out on (a larger card draws it in one group,
    scaled, as `_marks` leaves it)."""
    found: list[tuple[float, float]] = []
    for item in items:
        if isinstance(item, Group):
            found += _marks(item.items, dx + item.dx)
        elif isinstance(item, Layer):
            found += _marks(item.items, dx)
        elif isinstance(item, GlyphRun) and abs(item.size - MARK_SIZE) < 0.5:
            found.append((min(item.xs) + dx, min(item.xs) + dx + item.size / 2))
    return found


@pytest.mark.parametrize(("width", "height"), [(440, 586), (500, 500), (1080, 1440)])
def test_a_quotes_mark_never_hangs_outside_its_box(
    fonts: layout.FontBook, width: int, height: int
) -> None:
    theme = themes.load("traditional-chinese")
    options = layout.RenderOptions(width=width, height=height, split="autoSplit")
    quotes = drawn = 0
    for page in layout.layout_pages(POST, theme, fonts, options):
        frames = {p.row.frames[0] for p in page.rows if p.row.source[:1] and p.row.frames}
        quoted = [f for f in frames if f.decor.role == "quote"]
        quotes += len(quoted)
        marks = _marks(page.items)
        drawn += len(marks)
        for left, right in marks:
            assert any(f.decor.x <= left and right <= f.decor.x + f.decor.width for f in quoted)
    assert quotes >= 2 and drawn >= 1  # a quote whose last line leaves room keeps its mark
