"""Every CommonMark spec example and every corpus post lays out in every split mode:
no exception, no text outside its card, and no missing glyph (tofu) in the posts."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group, Item, Page
from tests.conftest import CORPUS, corpus_posts

EXAMPLES = json.loads((CORPUS / "commonmark-examples.json").read_text("utf-8"))
MODES = [("noSplit", False), ("autoSplit", False), ("hrSplit", False), ("noSplit", True)]


def glyph_origins(
    items: tuple[Item, ...], dx: float = 0.0, dy: float = 0.0, scale: float = 1.0
) -> Iterator[tuple[GlyphRun, float, float]]:
    """Every glyph's pen origin in card coordinates, through nested groups."""
    for item in items:
        if isinstance(item, Group):
            yield from glyph_origins(
                item.items, dx + item.dx * scale, dy + item.dy * scale, scale * item.scale
            )
        elif isinstance(item, GlyphRun):
            for x, y in zip(item.xs, item.ys, strict=False):
                yield item, dx + x * scale, dy + y * scale


def assert_text_inside(page: Page) -> None:
    for run, x, y in glyph_origins(page.items):
        assert 0 <= x <= page.width and 0 <= y <= page.height, (run, x, y)


@pytest.mark.parametrize(("split", "hidden"), MODES)
def test_commonmark_examples_lay_out(fonts, apple_notes, split: str, hidden: bool) -> None:
    options = layout.RenderOptions(split=split, overflow_hidden=hidden)
    for example in EXAMPLES:
        cards = layout.layout_pages(example["markdown"], apple_notes, fonts, options)
        assert cards, example["example"]
        for card in cards:
            assert_text_inside(card)
            if split == "autoSplit" or hidden:
                assert (card.width, card.height) == (440, 586)


THEME_MODES = [(name, mode) for name in themes.names() for mode in themes.modes(name) or [None]]


@pytest.mark.parametrize("post", corpus_posts(), ids=lambda p: p.stem)
@pytest.mark.parametrize(("theme", "mode"), THEME_MODES, ids=lambda v: str(v))
def test_posts_draw_no_tofu_and_stay_inside(fonts, post, theme: str, mode: str | None) -> None:
    """Every post in every theme and mode and every split mode."""
    for split, hidden in MODES:
        options = layout.RenderOptions(split=split, overflow_hidden=hidden, mode=mode)
        markdown = post.read_text("utf-8")
        for card in layout.layout_pages(markdown, themes.load(theme), fonts, options):
            assert_text_inside(card)
            missing = [run.face for run, _, _ in glyph_origins(card.items) if 0 in run.glyphs]
            assert not missing, f"tofu in {post.name} ({split}) from {set(missing)}"


def test_tofu_check_sees_a_character_no_font_has(fonts, apple_notes) -> None:
    # U+1E2FF (Wancho) is in no shipped font: the check above must be able to fail.
    [card] = layout.layout_pages("\U0001e2ff", apple_notes, fonts, layout.RenderOptions())
    assert any(0 in run.glyphs for run, _, _ in glyph_origins(card.items))


def test_commonmark_examples_draw(fonts, apple_notes) -> None:
    options = layout.RenderOptions(split="autoSplit", scale=0.25)
    for example in EXAMPLES:
        for png in layout.render(example["markdown"], apple_notes, fonts, options):
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 100, example["example"]
