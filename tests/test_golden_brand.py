"""Golden branded cards: one post with the shared brand kit (tests/brandassets.py: fonts,
logo, byline, footer line and QR image, watermark, page numbers) in six themes, light and
dark, framed and plain, first and last card, compared as `test_golden` compares cards
(`--update-golden` rewrites them). The marks sit in each theme's footer band, clear of the
text; the body and headings are in the kit's Courier Prime, the Chinese in the theme's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from inkcard import layout, themes
from inkcard.layout.covers import WECHAT_COVER_SIZE
from tests import pngcodec
from tests.brandassets import POST, engine_kit
from tests.conftest import GOLDEN_CHANGES
from tests.test_golden import OUTPUT, SCALE, mismatch, write_output

BRANDED = Path(__file__).parent / "golden" / "brand"
THEMES = ("apple-notes", "brandA", "cyberpunk", "japanese-magazine", "pop-art", "watercolor")


@pytest.mark.parametrize("theme", THEMES)
def test_golden_branded_cards(fonts, request, theme: str) -> None:
    options = layout.RenderOptions(scale=SCALE, split="autoSplit", brand=engine_kit())
    files = layout.render(POST, themes.load(theme), fonts, options)
    assert len(files) >= 2, "the post splits, so the cards carry page numbers"
    problems: list[str] = []
    for page, png in (("p1", files[0]), ("last", files[-1])):
        path = BRANDED / f"{theme}__{page}.png"
        actual = pngcodec.decode(png)
        expected = pngcodec.decode(path.read_bytes()) if path.exists() else None
        reason = "no golden file" if expected is None else mismatch(actual, expected)
        if reason is None:
            continue
        if request.config.getoption("--update-golden"):
            BRANDED.mkdir(parents=True, exist_ok=True)
            changes = request.config.stash[GOLDEN_CHANGES]
            changes.append(("changed" if path.exists() else "added", f"brand/{path.name}"))
            path.write_bytes(pngcodec.encode(actual))
        else:
            write_output(path, actual)
            problems.append(f"{path.name}: {reason}")
    assert not problems, "; ".join(problems) + f" (actual images in {OUTPUT})"


def test_a_wechat_cover_keeps_the_marks_in_its_centred_square(fonts) -> None:
    """The platform's square crop shows the marks, and the layouts' blocks beside the square
    stay clear of them (apple-notes draws a red block at the left)."""
    width, height = WECHAT_COVER_SIZE
    options = layout.RenderOptions(width=width, height=height, scale=1, brand=engine_kit())
    rendered = layout.render_covers(
        "普通人也能学会的 AI 写作方法",
        ("AI",),
        themes.load("apple-notes"),
        fonts,
        options,
        count=4,
        wechat=True,
    )
    for png in rendered.files:
        pixels = pngcodec.decode(png)[..., :3].astype(int)
        orange = np.argwhere(np.abs(pixels - [228, 87, 46]).sum(axis=-1) < 40)
        assert len(orange) > 50, "the logo is drawn"
        left = (width - height) / 2
        assert left <= orange[:, 1].min() and orange[:, 1].max() <= left + height


@pytest.mark.parametrize("theme", ["brandC", "apple-notes"])
def test_the_kits_marks_read_on_the_band_they_sit_in(theme: str) -> None:
    """brandC puts its white page number on the purple header: the kit's byline and footer
    line, drawn in the number's colour in the footer band on the white panel, vanished.
    Where the number is elsewhere the marks take the body's colour."""
    from inkcard.layout.pages.marks import brandmarks
    from inkcard.layout.style.resolver import contrast, resolve

    styles = resolve(themes.load(theme), None)
    number = styles["page_number"]
    look = brandmarks._look(styles)
    expected = styles["body"].color if number.position == "top" else number.color
    assert look.color == expected
    if number.position == "top":
        assert contrast(look.color, 0xFFFFFFFF) >= 4.5  # brandC's panel is white


STAR = (255, 46, 99)  # pop-art's star (`primary` in the default mode)
LOGO = (228, 87, 46)  # the kit's orange logo


def _box(pixels: np.ndarray, colour: tuple[int, int, int]) -> tuple[int, int, int, int]:
    """(top, left, bottom, right) of the pixels within a small distance of `colour`."""
    found = np.argwhere(np.abs(pixels - colour).sum(axis=-1) < 30)
    assert len(found) > 50, f"{colour} is drawn"
    (top, left), (bottom, right) = found.min(axis=0), found.max(axis=0)
    return int(top), int(left), int(bottom), int(right)


def test_the_kits_marks_keep_clear_of_pop_arts_corner_star(fonts) -> None:
    """pop-art draws a star over the bottom-left corner of its panel: the kit's logo sat
    under it. The marks now start right of the star, the footer line with them."""
    options = layout.RenderOptions(scale=1, split="autoSplit", brand=engine_kit())
    for png in layout.render(POST, themes.load("pop-art"), fonts, options)[:2]:
        pixels = pngcodec.decode(png)[..., :3].astype(int)
        band = pixels[-pixels.shape[0] // 4 :]
        star, logo = _box(band, STAR), _box(band, LOGO)
        assert logo[1] > star[3] + 2, f"the logo {logo} meets the star {star}"
