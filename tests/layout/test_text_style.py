"""Heading boxes and bars, letter spacing, text transforms, glyph effects, highlights and
underlines: as layout numbers on the box font (one em = the font size; ascent 0.8 em) and
as pixels where they must land.

The card model: content box x 20, y 20, 400 px wide; body 16 px on 28 px lines (baseline
18.8); h1 24 px on 30 px lines, h2 20 px on 25 px lines.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inkcard import layout
from inkcard.layout.base.boxes import (
    Fill,
    Glow,
    GlyphRun,
    Group,
    Item,
    Layer,
    Page,
    Rect,
    Segment,
    Shape,
)
from inkcard.layout.draw.encode import rasterize
from inkcard.layout.draw.painter import Painter
from inkcard.layout.style.theme import ThemeError, decode_theme

HAN = "中"
RED, GREEN, YELLOW = 0xFFFF0000, 0xFF00FF00, 0xFFFFFF00


def theme(roles: str) -> layout.Theme:
    return decode_theme('name = "t"\n' + roles)


def pages(md: str, fonts: layout.FontBook, roles: str = "", **options: object) -> list[Page]:
    return layout.layout_pages(md, theme(roles), fonts, layout.RenderOptions(**options))


def placed(items: tuple[Item, ...], dx: float = 0.0, dy: float = 0.0) -> Iterator[Item]:
    """Leaf items, groups' offsets applied to Fills, Segments and glyph runs' xs."""
    for item in items:
        if isinstance(item, Group):
            yield from placed(item.items, dx + item.dx, dy + item.dy)
        elif isinstance(item, Layer):
            yield from placed(item.items, dx, dy)
        elif isinstance(item, Fill):
            r = item.rect
            yield Fill(Rect(r.x + dx, r.y + dy, r.width, r.height), item.color, item.radius)
        elif isinstance(item, Segment):
            yield Segment(
                item.x1 + dx,
                item.y1 + dy,
                item.x2 + dx,
                item.y2 + dy,
                item.color,
                item.width,
                item.dash,
                item.round_cap,
            )
        elif isinstance(item, GlyphRun):
            xs = tuple(round(x + dx, 3) for x in item.xs)
            ys = tuple(round(y + dy, 3) for y in item.ys)
            yield GlyphRun(item.face, item.size, item.glyphs, xs, ys, item.color, item.skew)
        else:
            yield item


def fills(page: Page, color: int) -> list[Rect]:
    return [i.rect for i in placed(page.items) if isinstance(i, Fill) and i.color == color]


def segments(page: Page) -> list[Segment]:
    return [i for i in placed(page.items) if isinstance(i, Segment)]


def row_ys(page: Page) -> list[float]:
    return [round(p.y, 2) for p in page.rows]


def first_xs(page: Page, row: int = 0) -> tuple[float, ...]:
    runs = [i for i in placed(page.rows[row].row.items) if isinstance(i, GlyphRun)]
    return runs[0].xs


def pixels(page: Page, fonts: layout.FontBook) -> list[list[list[int]]]:
    picture = Painter(fonts.typefaces()).record(page)
    return rasterize(picture, page.width, page.height, page.background, 1).tolist()


# Heading boxes --------------------------------------------------------------------------


def test_a_heading_box_spans_the_column_and_its_padding_moves_text_and_rows(box_fonts) -> None:
    roles = '[roles.h2]\nbackground = "#ff0000"\nradius = 6\npadding = [4, 10, 6, 12]\n'
    [page] = pages("## ab\n\nxy", box_fonts, roles)
    assert fills(page, RED) == [Rect(20.0, 20.0, 400.0, 35.0)]  # 4 + 25 + 6 tall
    assert row_ys(page) == [4.0, 51.0]  # the paragraph keeps its 16 px margin below the box
    assert first_xs(page)[0] == 32.0  # moved in by the left padding


def test_a_text_width_box_hugs_the_text_or_its_widest_line(box_fonts) -> None:
    roles = (
        '[roles.h2]\nbackground = "#ff0000"\npadding = [4, 10, 6, 12]\nbackground_width = "text"\n'
    )
    [page] = pages("## ab", box_fonts, roles)
    assert fills(page, RED) == [Rect(20.0, 20.0, 62.0, 35.0)]  # 12 + 40 + 10
    [page] = pages("## " + "a" * 15 + " bbbbb", box_fonts, roles)
    assert [p.row.text for p in page.rows] == ["a" * 15 + " ", "bbbbb"]
    assert fills(page, RED) == [Rect(20.0, 20.0, 322.0, 60.0)]  # the 300 px line + padding
    [page] = pages("## ab", box_fonts, roles + 'align = "center"\n')
    assert fills(page, RED) == [Rect(189.0, 20.0, 62.0, 35.0)]  # centred in the column


def test_no_box_knobs_leave_a_heading_unframed(box_fonts) -> None:
    [page] = pages("## ab\n\nxy", box_fonts)
    assert row_ys(page) == [0.0, 41.0]
    assert all(not p.row.frames for p in page.rows)


# Heading bars ---------------------------------------------------------------------------


def test_a_short_bottom_bar_sits_under_the_heading_past_its_gap(box_fonts) -> None:
    roles = (
        '[roles.h2]\nbar_side = "bottom"\nbar_width = 4\nbar_length = 40\nbar_gap = 6\n'
        'bar_color = "#00ff00"\n'
    )
    [page] = pages("## ab\n\nxy", box_fonts, roles)
    assert segments(page) == [Segment(20.0, 53.0, 60.0, 53.0, GREEN, 4.0)]
    assert row_ys(page) == [0.0, 51.0]  # 25 + 6 + 4, then the margin
    image = pixels(page, box_fonts)
    assert image[53][40] == [0, 255, 0]
    assert image[53][70] == [255, 255, 255]  # past its 40 px


def test_a_left_bar_moves_the_text_in_by_its_width_and_gap(box_fonts) -> None:
    [page] = pages("## ab", box_fonts, "[roles.h2]\nbar_width = 5\nbar_gap = 8\n")
    assert first_xs(page)[0] == 33.0
    assert segments(page) == [Segment(22.5, 20.0, 22.5, 45.0, 0xFF24292E, 5.0)]  # text colour


def test_a_top_bar_follows_the_heading_alignment(box_fonts) -> None:
    roles = (
        '[roles.h2]\nbar_side = "top"\nbar_width = 2\nbar_gap = 4\nbar_length = 60\n'
        'align = "center"\nbar_color = { kind = "linear", angle = 90, stops = ["#000", "#fff"] }\n'
    )
    [page] = pages("## ab", box_fonts, roles)
    [bar] = segments(page)
    assert (bar.x1, bar.y1, bar.x2, bar.y2) == (190.0, 21.0, 250.0, 21.0)
    assert row_ys(page) == [6.0]


# Letter spacing and text transforms -----------------------------------------------------


@pytest.mark.parametrize(("spacing", "per_line"), [(4, [20, 20, 20]), (-4, [33, 27])])
def test_letter_spacing_is_measured_by_line_breaking(box_fonts, spacing, per_line) -> None:
    [page] = pages(HAN * 60, box_fonts, f"[roles.body]\nletter_spacing = {spacing}\n")
    assert [len(p.row.text) for p in page.rows] == per_line
    assert first_xs(page)[:2] == (20.0, 20.0 + 16 + spacing)


def test_letter_spacing_of_a_quote_and_of_an_inline_role(box_fonts) -> None:
    [page] = pages("> " + HAN * 40, box_fonts, "[roles.quote]\nletter_spacing = 4\n")
    assert [len(p.row.text) for p in page.rows] == [18, 18, 4]  # 360 px / 20 px
    [page] = pages(f"**{HAN * 2}**{HAN}", box_fonts, "[roles.strong]\nletter_spacing = 4\n")
    runs = [i for i in placed(page.rows[0].row.items) if isinstance(i, GlyphRun)]
    assert [x for run in runs for x in run.xs] == [20.0, 40.0, 60.0]


def test_page_numbers_take_letter_spacing_and_text_transform(box_fonts) -> None:
    roles = '[roles.page_number]\nletter_spacing = 4\ntext_transform = "uppercase"\n'
    roles += 'format = "p{n}"\n'
    first, _ = pages("a\n\n---\n\nb", box_fonts, roles, split="hrSplit")
    [number] = [i for i in placed(first.items[-1:]) if isinstance(i, GlyphRun)]
    assert number.xs[1] - number.xs[0] == 16.0  # 12 px glyph + 4
    assert len(number.glyphs) == 2


def test_text_transform_changes_latin_case_only(box_fonts) -> None:
    upper = '[roles.h2]\ntext_transform = "uppercase"\n'
    [page] = pages("## chapter one", box_fonts, upper)
    assert page.rows[0].row.text == "CHAPTER ONE"
    [page] = pages("## chapter 一 one", box_fonts, upper)  # Latin beside CJK: as written
    assert page.rows[0].row.text == "chapter 一 one"
    [page] = pages("ABC", box_fonts, '[roles.body]\ntext_transform = "lowercase"\n')
    assert page.rows[0].row.text == "abc"


# Glyph effects --------------------------------------------------------------------------


def test_text_effects_wrap_the_glyphs_and_never_move_layout(box_fonts) -> None:
    md = "# ab\n\ntext " + HAN * 40
    plain = pages(md, box_fonts)[0]
    roles = '[roles.h1]\ntext_effects = [{ kind = "glow", blur = 6, color = "#ff0000" }]\n'
    [glowing] = pages(md, box_fonts, roles)
    assert row_ys(glowing) == row_ys(plain)
    [layer] = [i for i in glowing.rows[0].row.items if isinstance(i, Layer)]
    assert layer.effects == (Glow(6.0, RED),)
    assert all(isinstance(i, GlyphRun) for i in layer.items)


def test_a_hard_text_shadow_is_drawn_offset_from_the_glyphs(box_fonts) -> None:
    roles = (
        '[roles.h1]\ncolor = "#000000"\n'
        'text_effects = [{ kind = "shadow", dx = 3, dy = 3, blur = 0, color = "#ff0000" }]\n'
    )
    [page] = pages("# a", box_fonts, roles)
    image = pixels(page, box_fonts)
    # The glyph is the square x 20..44, y 23..47 (baseline 42.2); its shadow 3 px down right.
    assert image[30][30] == [0, 0, 0]
    assert image[48][45] == [255, 0, 0]
    assert image[21][21] == [255, 255, 255]


# Highlights -----------------------------------------------------------------------------


def test_a_marker_highlight_covers_the_lower_text_on_every_line_fragment(box_fonts) -> None:
    md = HAN * 20 + "**" + HAN * 10 + "**"
    roles = '[roles.strong]\nbackground = "#ffff00"\nbackground_height = 0.4\n'
    [page] = pages(md, box_fonts, roles)
    # Text box bottom: baseline 18.8 + 3.2 descent; 40% of the 16 px text above it.
    assert fills(page, YELLOW) == [
        Rect(340.0, 20.0 + 15.6, 80.0, pytest.approx(6.4)),
        Rect(20.0, 48.0 + 15.6, 80.0, pytest.approx(6.4)),
    ]


def test_a_line_highlight_fills_the_line_box_and_shows_around_the_text(box_fonts) -> None:
    roles = '[roles.strong]\nbackground = "#ffff00"\nradius = 3\n'
    [page] = pages("x **ab** y", box_fonts, roles)
    assert fills(page, YELLOW) == [Rect(52.0, 20.0, 32.0, 28.0)]
    image = pixels(page, box_fonts)
    assert image[22][60] == [255, 255, 0]  # above the glyph, inside the line box
    assert image[22][40] == [255, 255, 255]  # the space before the run is not highlighted


# Underlines -----------------------------------------------------------------------------


def test_link_underlines_follow_line_breaks(box_fonts) -> None:
    md = HAN * 24 + "[" + HAN * 5 + "](https://x.example)"
    roles = '[roles.link]\nunderline = "solid"\nunderline_color = "#00ff00"\nunderline_offset = 3\n'
    [page] = pages(md, box_fonts, roles)
    assert segments(page) == [
        Segment(404.0, 41.8, 420.0, 41.8, GREEN, 1.0),
        Segment(20.0, 69.8, 84.0, 69.8, GREEN, 1.0),
    ]


def test_underline_styles_dash_dot_and_wave(box_fonts) -> None:
    base = "[roles.em]\nunderline_width = 2\nunderline = "
    [page] = pages("*ab*", box_fonts, base + '"dashed"\n')
    [dashed] = segments(page)
    assert dashed.dash == (6.0, 4.0) and dashed.color == 0xFF24292E
    [page] = pages("*ab*", box_fonts, base + '"dotted"\n')
    [dotted] = segments(page)
    assert dotted.round_cap and dotted.dash == (pytest.approx(0.02), 6.0)
    [page] = pages("*ab*", box_fonts, base + '"wavy"\n')
    [wave] = [i for i in placed(page.items) if isinstance(i, Shape)]
    xs = [op[-2] for op in wave.ops]
    assert wave.stroke_width == 2.0 and xs[0] == 20.0 and xs[-1] == 52.0


# Theme files ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("knob", "field"),
    [
        ('bar_sid = "left"', "$.roles.h2"),
        ('text_effects = [{ kind = "blur" }]', "$.roles.h2.text_effects[0].kind"),
        ("background_height = 1.5", "$.roles.h2.background_height"),
        ('text_transform = "capitalize"', "$.roles.h2.text_transform"),
        ('underline = "double"', "$.roles.h2.underline"),
        ('background_width = "auto"', "$.roles.h2.background_width"),
    ],
)
def test_text_knob_typos_fail_at_load_with_the_field(knob, field) -> None:
    with pytest.raises(ThemeError, match=field.replace("$", r"\$").replace("[", r"\[")):
        decode_theme(f'name = "t"\n[roles.h2]\n{knob}\n', "t.toml")
