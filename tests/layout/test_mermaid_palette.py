"""Series colours (pie slices, mind-map branches) in every built-in theme and in articles:
eight in a row, all distinct, each at least 3:1 (WCAG) from the next, so two slices side by
side part by lightness as well as hue; `pie showData` puts each value in the legend."""

from __future__ import annotations

import itertools
import math

import pytest

from inkcard import layout, themes
from inkcard.layout.blocks.diagramink import colour
from inkcard.layout.diagrams.forms import draw_diagram
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label
from inkcard.layout.diagrams.palette import COUNT, series_colours
from inkcard.layout.diagrams.svg import PALETTE, Palette
from inkcard.layout.style.resolver import contrast, resolve

THEME_MODES = [(name, mode) for name in themes.names() for mode in themes.modes(name) or [None]]
NEIGHBOURS = 3.0  # WCAG 1.4.11: graphics against what touches them


def assert_series(colours: list[int]) -> None:
    assert len(set(colours)) == len(colours), [f"{c:08x}" for c in colours]
    for a, b in itertools.pairwise(colours):
        assert contrast(a, b) >= NEIGHBOURS, f"{a:08x} next to {b:08x}: {contrast(a, b):.2f}"


@pytest.mark.parametrize(("theme", "mode"), THEME_MODES)
def test_every_theme_gives_eight_distinct_series_each_apart_from_the_next(theme, mode) -> None:
    styles = resolve(themes.load(theme), mode)
    colours = [colour(styles, f"series{k}") for k in range(COUNT)]
    assert_series(colours)
    page = colour(styles, "page")
    assert max(contrast(c, page) for c in colours) >= NEIGHBOURS  # one tier stands out


# Two series colours of one lightness tier (every other slice) part by hue alone: at least
# this far apart in RGB. minimal's brown beside its grey was 17 (#4d4135, #424242), pop-art
# purple-mode's two soft ones 8.5 (made for the purple round its panel); 26 or more now.
SAME_TIER_APART = 25.0


@pytest.mark.parametrize(("theme", "mode"), THEME_MODES)
def test_series_of_one_tier_part_by_a_hue_that_shows(theme, mode) -> None:
    styles = resolve(themes.load(theme), mode)
    colours = [colour(styles, f"series{k}") for k in range(COUNT)]
    for k, here in enumerate(colours):
        for other in colours[k + 2 :: 2]:
            apart = math.dist(_channels(here), _channels(other))
            assert apart >= SAME_TIER_APART, f"{here:08x} and {other:08x}: {apart:.1f}"


def _channels(argb: int) -> tuple[int, int, int]:
    return (argb >> 16 & 0xFF, argb >> 8 & 0xFF, argb & 0xFF)


def test_the_themes_that_repeated_a_colour_now_do_not() -> None:
    """darktech's link, keyword and string were one cyan; minimalist's five blacks."""
    for theme in ("darktech", "minimalist", "typewriter"):
        styles = resolve(themes.load(theme), None)
        assert len({colour(styles, f"series{k}") for k in range(7)}) == 7


@pytest.mark.parametrize("accent", [None, "#07c160", "#3a7bd5", "#000000", "#e5484d"])
def test_article_series_lead_with_the_accent_hue_and_keep_apart(accent) -> None:
    palette = Palette(accent or PALETTE["accent"])
    colours = [int(palette.colour(f"series{k}")[1:], 16) | 0xFF000000 for k in range(COUNT)]
    assert_series(colours)


@pytest.mark.parametrize("page", [0xFFFFFFFF, 0xFF000000, 0xFF808080, 0xFF6A2FC0, 0xFFFDE041])
def test_any_page_and_no_theme_colours_still_give_a_series(page) -> None:
    assert_series(list(series_colours((), page)))
    assert_series(list(series_colours((0xFF000000,) * 8, page)))


def test_show_data_puts_each_value_in_the_legend(fonts: layout.FontBook) -> None:
    source = 'pie showData title 时间\n  "睡觉" : 8\n  "工作" : 7.5\n  "其他" : 8.5\n'
    drawing = draw_diagram(source, LabelSetter(fonts).measure)
    legend = [line for i in drawing.items if isinstance(i, Label) for line in i.text.lines]
    assert any("7.5" in line and line.endswith("%") for line in legend)
    plain = draw_diagram(source.replace("showData ", ""), LabelSetter(fonts).measure)
    assert not any(
        "7.5" in line for i in plain.items if isinstance(i, Label) for line in i.text.lines
    )


def test_a_modes_diagram_token_leads_its_charts() -> None:
    """coil-notebook's four modes share GitHub's link blue, and the exam plan's gantt and
    the git post's graph stayed blue on the pink, mint and yellow desks (ninth look). A
    mode's `diagram` token is its charts' accent and first series colour (the mode's ink,
    4.5:1 on the white page); a theme that names none keeps the link's colour."""
    accents = set()
    for mode in themes.modes("coil-notebook"):
        styles = resolve(themes.load("coil-notebook"), mode)
        ink = styles.palette["ink"]
        assert colour(styles, "accent") == ink
        assert contrast(ink, styles.palette["sheet"]) >= 4.5
        assert series_colours((ink,), 0xFFFFFFFF)[0] == colour(styles, "series0")
        accents.add(ink)
    assert len(accents) == 4
    plain = resolve(themes.load("minimal"), None)
    assert "diagram" not in plain.palette
    assert colour(plain, "accent") == plain.palette["link"]
