"""What a laid-out card draws in glyphs: its runs, found through the groups, layers and
cached layers that hold them, and the text rows of a post (ornaments left out)."""

from __future__ import annotations

from collections.abc import Iterator

from inkcard import layout
from inkcard.layout.base.boxes import Cached, GlyphRun, Group, Item, Layer, Page, Row


def glyph_runs(items: tuple[Item, ...]) -> Iterator[GlyphRun]:
    for item in items:
        if isinstance(item, GlyphRun):
            yield item
        elif isinstance(item, Group | Layer | Cached):
            yield from glyph_runs(item.items)


def drawn_glyphs(row: Row) -> int:
    """How many glyphs the row draws (a mark drawn but not written counts here)."""
    return sum(len(run.glyphs) for run in glyph_runs(row.items))


def text_rows(md: str, theme: layout.Theme, fonts: layout.FontBook, width: int = 440) -> list[Row]:
    """The rows of a post's cards that carry its text, without a theme's ornaments."""
    pages: list[Page] = layout.layout_pages(md, theme, fonts, layout.RenderOptions(width=width))
    return [p.row for page in pages for p in page.rows if p.row.text and not p.row.decorative]
