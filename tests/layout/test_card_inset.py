"""An inset card: drawn inside the image on its surround, with its radius and its shadow,
and everything of the card (rows, page number) inside it."""

from __future__ import annotations

import numpy as np

from inkcard import layout
from inkcard.layout.pages.cardface import SURROUND, content_box
from inkcard.layout.style.resolver import resolve
from inkcard.layout.style.theme import decode_theme
from tests import pngcodec

FRAMED = """name = "framed"
[roles.card]
background = "#ffffff"
inset = 24
radius = 16
outer_background = "#d0d0d0"
effects = [{ kind = "shadow", dx = 0, dy = 8, blur = 12, color = "rgba(0,0,0,.4)" }]
"""
POST = "# Title\n\n" + "A line of text that wraps across the card. " * 30


def grey(pixels: np.ndarray, x: int, y: int) -> int:
    return int(pixels[y, x, :3].astype(int).mean())


def cards(theme_text: str, fonts: layout.FontBook) -> list[np.ndarray]:
    options = layout.RenderOptions(width=440, height=586, scale=1, split="autoSplit")
    pngs = layout.render(POST, decode_theme(theme_text), fonts, options)
    return [pngcodec.decode(png) for png in pngs]


def test_an_inset_card_is_drawn_rounded_on_its_surround_with_its_shadow(
    fonts: layout.FontBook,
) -> None:
    first = cards(FRAMED, fonts)[0]
    assert grey(first, 3, 3) == 0xD0, "the surround"
    assert grey(first, 410, 300) == 0xFF, "the card, right of its text"
    assert grey(first, 25, 300) == 0xFF and grey(first, 22, 300) < 0xD0, "the left edge"
    assert grey(first, 26, 26) < 0xFF, "the corner is rounded off"
    below, above = grey(first, 220, 586 - 24 + 8), grey(first, 220, 24 - 8)
    assert below < above <= 0xD0, "the shadow falls below the card"


def test_the_rows_and_the_page_number_stay_inside_the_inset_card(
    fonts: layout.FontBook,
) -> None:
    styles = resolve(decode_theme(FRAMED), None)
    box = content_box(styles, 440, 586)
    assert (box.x, box.y, box.right) == (44.0, 44.0, 396.0), "padding 20 inside an inset of 24"
    drawn = cards(FRAMED, fonts)
    assert len(drawn) > 1, "a page number is drawn"
    for pixels in drawn:
        dark = np.argwhere(pixels[..., :3].max(axis=-1) < 0x80)  # text
        assert dark[:, 1].min() >= 44 and dark[:, 1].max() <= 396
        assert dark[:, 0].min() >= 44 and dark[:, 0].max() <= 586 - 24 - 4


def test_a_card_without_inset_or_radius_fills_the_image(fonts: layout.FontBook) -> None:
    first = cards('name = "plain"\n[roles.card]\nbackground = "#fafafa"\n', fonts)[0]
    assert grey(first, 0, 0) == grey(first, 439, 585) == 0xFA
    assert SURROUND != 0xFFFAFAFA
