"""Images on cards: layout carries a plain `ImageRef` (pages pickle and draw the same in
another process's hands), images take the theme's radius, scale down to the content width
but never up, and in autoSplit an image taller than a card shrinks to fit one card whole.

The plain theme's content box is 400 px wide and 522 px tall on a 440x586 card.
"""

from __future__ import annotations

import base64
import pickle

import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import GlyphRun, Group, ImageRef, Item, Page, Picture, Rect
from inkcard.layout.draw.png import encode_rgb
from tests import pngcodec

RED, BLUE = (220, 30, 30), (30, 30, 220)


def banded_png(width: int, height: int) -> bytes:
    """Red above, blue below: a cropped or squashed drawing shows in the pixels."""
    pixels = np.empty((height, width, 3), np.uint8)
    pixels[: height // 2] = RED
    pixels[height // 2 :] = BLUE
    return encode_rgb(pixels)


def data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def placed_pictures(page: Page) -> list[tuple[Picture, Rect]]:
    """Every picture of a card with its rect on the card (groups' moves and scales applied)."""
    found: list[tuple[Picture, Rect]] = []
    for item, (dx, dy, scale) in leaves(page.items):
        if isinstance(item, Picture):
            r = item.rect
            rect = Rect(dx + r.x * scale, dy + r.y * scale, r.width * scale, r.height * scale)
            found.append((item, rect))
    return found


def captions(page: Page) -> list[tuple[GlyphRun, float]]:
    """Every glyph run of a card with its baseline's y on the card."""
    return [
        (item, dy + item.ys[0] * scale)
        for item, (_, dy, scale) in leaves(page.items)
        if isinstance(item, GlyphRun)
    ]


def leaves(
    items: tuple[Item, ...], dx: float = 0.0, dy: float = 0.0, scale: float = 1.0
) -> list[tuple[Item, tuple[float, float, float]]]:
    """Items that are not groups, each with the move and scale its groups apply."""
    out: list[tuple[Item, tuple[float, float, float]]] = []
    for item in items:
        if isinstance(item, Group):
            move = (dx + item.dx * scale, dy + item.dy * scale, scale * item.scale)
            out.extend(leaves(item.items, *move))
        else:
            out.append((item, (dx, dy, scale)))
    return out


def test_pages_with_images_pickle_and_draw_the_same(fonts: layout.FontBook) -> None:
    remote = banded_png(300, 200)
    md = (
        "# Pictures\n\n![remote](https://example.com/a.png)\n\n"
        f"![inline]({data_uri(banded_png(120, 90))})\n\n![broken](https://example.com/gone.png)\n"
    )
    theme = themes.load("dreamy")
    options = layout.RenderOptions(scale=1)
    supplied = {"https://example.com/a.png": remote}
    laid = layout.layout_cards(md, theme, fonts, options, supplied)
    refs = [picture.image for page in laid.pages for picture, _ in placed_pictures(page)]
    assert [(ref.width, ref.height) for ref in refs] == [(300, 200), (120, 90)]
    assert all(isinstance(ref, ImageRef) for ref in refs)
    assert set(laid.images) == {ref.key for ref in refs}
    assert laid.images[refs[0].key] == remote

    pages = pickle.loads(pickle.dumps(laid.pages))
    assert pages == laid.pages
    direct = layout.render_cards(md, theme, fonts, options, supplied)
    again = layout.draw_cards(pages, dict(laid.images), fonts, options)
    assert again.alt_texts == direct.alt_texts
    assert len(again.files) == len(direct.files) == 1
    drawn, expected = pngcodec.decode(again.files[0]), pngcodec.decode(direct.files[0])
    assert np.array_equal(drawn, expected)
    _, rect = placed_pictures(pages[0])[0]
    middle = drawn[int(rect.y + rect.height / 4), int(rect.x + rect.width / 2)]
    assert tuple(middle) == RED  # the image itself was drawn, not an empty box


def test_draw_without_the_bytes_leaves_the_picture_out(fonts: layout.FontBook) -> None:
    md = f"![pic]({data_uri(banded_png(120, 90))})\n"
    options = layout.RenderOptions(scale=1)
    laid = layout.layout_cards(md, layout.decode_theme('name = "plain"\n'), fonts, options)
    [(_, rect)] = placed_pictures(laid.pages[0])
    [png] = layout.draw_cards(laid.pages, {}, fonts, options).files
    pixel = pngcodec.decode(png)[int(rect.y + 10), int(rect.x + 10)]
    assert tuple(pixel) not in (RED, BLUE)


@pytest.mark.parametrize(("theme", "radius"), [("dreamy", 14.0), ("apple-notes", 0.0)])
def test_images_take_the_theme_radius(fonts: layout.FontBook, theme: str, radius: float) -> None:
    md = f"![pic]({data_uri(banded_png(200, 100))})\n"
    options = layout.RenderOptions(scale=1)
    [page] = layout.layout_pages(md, themes.load(theme), fonts, options)
    [(picture, rect)] = placed_pictures(page)
    assert picture.radius == radius
    [png] = layout.render(md, themes.load(theme), fonts, options)
    corner = tuple(pngcodec.decode(png)[int(rect.y), int(rect.x)])
    assert (corner == RED) is (radius == 0.0)  # a rounded corner is clipped away


@pytest.mark.parametrize(
    ("size", "drawn"),
    [
        ((40, 30), (40.0, 30.0)),  # a small image keeps its natural size: never blown up
        ((2000, 500), (400.0, 100.0)),  # a wide one scales to the content width, aspect kept
    ],
)
def test_images_scale_down_to_the_content_width_only(
    box_fonts: layout.FontBook,
    plain_theme: layout.Theme,
    size: tuple[int, int],
    drawn: tuple[float, float],
) -> None:
    md = f"![]({data_uri(banded_png(*size))})\n"
    [page] = layout.layout_pages(md, plain_theme, box_fonts, layout.RenderOptions())
    [(_, rect)] = placed_pictures(page)
    assert (rect.width, rect.height) == pytest.approx(drawn)
    assert rect.x + rect.width / 2 == pytest.approx(220.0)  # centred on the card


def test_autosplit_shrinks_an_image_taller_than_a_card_to_fit_one_card(
    box_fonts: layout.FontBook, plain_theme: layout.Theme
) -> None:
    md = "Before the picture.\n\n![A tall picture](tall.png)\n\nAfter the picture.\n"
    options = layout.RenderOptions(split="autoSplit", scale=1)
    images = {"tall.png": banded_png(400, 3000)}
    laid = layout.layout_cards(md, plain_theme, box_fonts, options, images)
    placed = [(n, rect) for n, page in enumerate(laid.pages) for _, rect in placed_pictures(page)]
    [(card, rect)] = placed  # drawn once, on one card
    assert all((page.width, page.height) == (440, 586) for page in laid.pages)
    assert rect.height <= 522 and rect.y >= 20
    [(_, baseline)] = [c for c in captions(laid.pages[card]) if c[0].size == 12.8]
    assert rect.y + rect.height < baseline <= 20 + 522  # its caption fits under it
    assert rect.width / rect.height == pytest.approx(400 / 3000)
    pixels = pngcodec.decode(
        layout.draw_cards(laid.pages, laid.images, box_fonts, options).files[card]
    )
    x = int(rect.x + rect.width / 2)
    assert tuple(pixels[int(rect.y + 2), x]) == RED  # its top ...
    assert tuple(pixels[int(rect.y + rect.height - 3), x]) == BLUE  # ... and its bottom are on it


def test_the_alt_text_is_a_caption_in_the_image_role_style(
    box_fonts: layout.FontBook, plain_theme: layout.Theme
) -> None:
    md = f"![A swatch]({data_uri(banded_png(100, 50))})\n\n![A swatch](missing.png)\n"
    [page] = layout.layout_pages(md, plain_theme, box_fonts, layout.RenderOptions())
    image_row, caption_row, placeholder_row = (placed.row for placed in page.rows)
    [(_, rect)] = placed_pictures(page)
    runs = captions(page)
    (caption, baseline), (placeholder_text, _) = runs[0], runs[-1]
    assert caption.size == 12.8  # the image role's caption size (md2card's .img-alt)
    assert caption.color == placeholder_text.color  # and its colour, as the placeholder's
    assert len(caption.glyphs) == len("A swatch")
    middle = (caption.xs[0] + caption.xs[-1] + 12.8) / 2  # box glyphs are 1 em wide
    assert middle == pytest.approx(rect.x + rect.width / 2, abs=0.5)  # centred under it
    assert baseline > rect.y + rect.height
    # the caption is a row of its own under the picture, kept with it and never scaled
    assert image_row.height == rect.height and image_row.keep_with_next
    assert caption_row.height > 12.8 and caption_row.min_scale == 1.0
    assert image_row.text == placeholder_row.text == "[A swatch]"  # alt text named once
    assert caption_row.text == ""


def test_no_alt_text_no_caption(box_fonts: layout.FontBook, plain_theme: layout.Theme) -> None:
    md = f"![]({data_uri(banded_png(100, 50))})\n"
    [page] = layout.layout_pages(md, plain_theme, box_fonts, layout.RenderOptions())
    assert captions(page) == []
    assert page.rows[0].row.height == 50
