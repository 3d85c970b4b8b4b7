"""Text effects (shadows, glows) belong to outline glyphs: a colour emoji in a heading with a
hard shadow is drawn without one, so no flat silhouette is stamped behind it."""

from __future__ import annotations

from collections.abc import Iterator

from inkcard import layout
from inkcard.layout.base.boxes import GlyphRun, Group, Item, Layer
from inkcard.layout.style.theme import decode_theme

SHADOWED_H1 = (
    'name = "t"\n[roles.h1]\n'
    'text_effects = [{ kind = "shadow", dx = 3, dy = 3, blur = 0, color = "#ff0000" }]\n'
)


def runs(items: tuple[Item, ...], in_layer: bool = False) -> Iterator[tuple[GlyphRun, bool]]:
    """Every glyph run, with whether it is drawn inside an effects layer."""
    for item in items:
        if isinstance(item, Group):
            yield from runs(item.items, in_layer)
        elif isinstance(item, Layer):
            yield from runs(item.items, in_layer or bool(item.effects))
        elif isinstance(item, GlyphRun):
            yield item, in_layer


def heading_runs(md: str, fonts: layout.FontBook) -> list[tuple[GlyphRun, bool]]:
    page = layout.layout_pages(md, decode_theme(SHADOWED_H1), fonts, layout.RenderOptions())[0]
    return list(runs(page.rows[0].row.items))


def test_an_emoji_in_a_shadowed_heading_gets_no_shadow(fonts: layout.FontBook) -> None:
    found = heading_runs("# Fast 🚀 wins", fonts)
    emoji = fonts.emoji.key
    assert [shadowed for run, shadowed in found if run.face == emoji] == [False]
    assert all(shadowed for run, shadowed in found if run.face != emoji)
    assert any(run.face != emoji for run, _ in found)


def test_a_heading_without_emoji_keeps_its_shadow_on_every_run(fonts: layout.FontBook) -> None:
    found = heading_runs("# 效率 Fast", fonts)
    assert found and all(shadowed for _, shadowed in found)
