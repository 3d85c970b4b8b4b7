"""A marked run (em, strong) drawn on its role's own panel, a heading's chip or a quote's
box, keeps a colour that reads there (`style.looks.Looks._legible_on_panel`)."""

from __future__ import annotations

from inkcard import layout, themes
from inkcard.layout.pages.quality import Quality, measure

CHIP = '[roles.h2]\nbackground = "#ffab40"\ncolor = "#311b92"\n'
HEADING = "## 3. *Atomic Habits* by James Clear\n\n一段正文，讲这本书为什么值得读。"


def _theme(extra: str) -> layout.Theme:
    return layout.decode_theme('name = "t"\n' + extra)


def _quality(
    fonts: layout.FontBook, post: str, theme: layout.Theme, mode: str | None = None
) -> Quality:
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", scale=1, mode=mode)
    (page,) = layout.layout_pages(post, theme, fonts, options)
    quality = measure(page)
    assert quality is not None
    return quality


def test_an_em_the_colour_of_its_heading_chip_takes_the_heading_ink(fonts) -> None:
    # The theme's em is the chip's own amber: drawn as set, the title vanishes (1:1).
    quality = _quality(fonts, HEADING, _theme(CHIP + '[roles.em]\ncolor = "#ffab40"\n'))
    assert quality.lowest_contrast >= 3.0


def test_a_strong_colour_that_reads_on_the_chip_is_kept(fonts) -> None:
    post = "## 3. **Atomic Habits** by James Clear"
    readable = _theme(CHIP + '[roles.strong]\ncolor = "#000000"\n')
    kept = _quality(fonts, post, readable)
    plain = _quality(fonts, post, _theme(CHIP))
    # black on amber reads better than the heading's own ink: the report sees no lower ratio
    assert kept.lowest_contrast == plain.lowest_contrast


def test_pop_art_purple_mode_keeps_an_em_title_readable(fonts) -> None:
    theme = themes.load_one("pop-art")
    quality = _quality(fonts, HEADING, theme, "purple-mode")
    assert quality.lowest_contrast >= 3.0
