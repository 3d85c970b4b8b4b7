"""Inline colours and bare addresses on cards: CSS Color 4 spans draw in their colour,
never as markup; only http(s):// and www. addresses are links."""

from __future__ import annotations

import numpy as np
import pytest
import skia

from inkcard import layout

WIDTH, HEIGHT = 300, 400
TEXT = "绿色的字绿色的字绿色的字"


def _pixels(md: str, fonts: layout.FontBook, theme: layout.Theme) -> tuple[np.ndarray, str]:
    opts = layout.RenderOptions(width=WIDTH, height=HEIGHT, split="autoSplit", scale=1)
    rendered = layout.render_cards(md, theme, fonts, opts)
    image = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(rendered.files[0]))
    rgba = image.convert(alphaType=skia.kUnpremul_AlphaType, colorType=skia.kRGBA_8888_ColorType)
    return np.asarray(rgba)[..., :3].astype(int), " ".join(rendered.alt_texts)


@pytest.mark.parametrize(
    ("css", "rgb"),
    [
        ("color: hsl(120 50% 40%)", (51, 153, 51)),
        ("color: rgb(255 0 0)", (255, 0, 0)),
        ("color: rebeccapurple", (102, 51, 153)),
    ],
)
def test_a_coloured_span_draws_in_its_colour(
    fonts: layout.FontBook, apple_notes: layout.Theme, css: str, rgb: tuple[int, int, int]
) -> None:
    pixels, alt = _pixels(f'Some <span style="{css}">{TEXT}</span> here', fonts, apple_notes)
    near = np.abs(pixels - np.array(rgb)).sum(axis=2) < 24
    assert near.sum() > 50  # the glyphs are drawn in the colour
    assert "span" not in alt and "style" not in alt and "绿色的字" in alt


@pytest.mark.parametrize(
    ("text", "linked"),
    [
        ("Open README.md and bench.py", []),
        ("see example.com", []),
        ("ftp://example.com/a", []),
        ("mail a@example.com", []),
        ("see https://example.com/a now", ["https://example.com/a"]),
        ("see www.example.com now", ["www.example.com"]),
    ],
)
def test_cards_link_only_addresses(text: str, linked: list[str]) -> None:
    [paragraph] = layout.parse_post(text).blocks
    assert [t.text for t in paragraph.inlines if "link" in t.marks] == linked
