"""Monospace and typewriter themes in long Chinese: body text falls back to a CJK face
(a CJK font's glyphs, not the Latin face's) at no less than 15 px on lines at least 1.7
times as tall, so a long Chinese post reads like one, not like a terminal dump."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.style.resolver import resolve

POST = (Path(__file__).parents[1] / "cases" / "posts" / "04-long-article-zh.md").read_text()


@pytest.mark.parametrize("name", ["darktech", "typewriter"])
def test_long_chinese_reads_at_body_size(name: str, fonts: layout.FontBook) -> None:
    theme = themes.load(name)
    body = resolve(theme, None)["body"]
    assert body.size >= 15 and body.line_height >= 1.7
    assert "CJK" in fonts.cjk_face(body.family, bold=False).key  # a CJK face, not tofu
    pages = layout.layout_pages(POST, theme, fonts, layout.RenderOptions(split="autoSplit"))
    assert len(pages) <= 5  # a 15 px body still fits the article in a handful of cards
