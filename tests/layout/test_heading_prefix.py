"""A heading's `prefix`: a mark laid out as the start of the heading's own text
(fairytale's h1 opens with a ✿), joined to the first word by a no-break space, so it never
ends a line alone. It is drawn, not written: the rows' text (the cards' alt text) holds the
post's words only, so the tests count the mark's glyphs."""

from __future__ import annotations

from inkcard import layout, themes
from inkcard.layout.style.theme import decode_theme
from tests.glyphruns import drawn_glyphs, glyph_runs, text_rows

FLOWER = "✿"


def flower_theme(role: str = "h2", boxed: bool = False) -> layout.Theme:
    box = 'background = "#eeeeee"\nbackground_width = "text"\npadding = [4, 12, 4, 12]\n'
    return decode_theme(f'name = "t"\n[roles.{role}]\n{box if boxed else ""}prefix = "{FLOWER}"\n')


def test_fairytale_h1_opens_with_a_flower(fonts: layout.FontBook) -> None:
    rows = text_rows("# Title\n\nBody.", themes.load("fairytale"), fonts)
    plain = text_rows("# Title\n\nBody.", layout.Theme(name="plain"), fonts)
    assert rows[0].text == "Title"  # the ✿ is drawn, not written
    assert drawn_glyphs(rows[0]) >= drawn_glyphs(plain[0]) + 2  # the flower and its space


def test_the_prefix_is_drawn_and_left_out_of_the_text(fonts: layout.FontBook) -> None:
    rows = text_rows("## Flower", flower_theme(), fonts)
    assert rows[0].text == "Flower" and drawn_glyphs(rows[0]) > len("Flower")


def test_only_the_role_that_sets_it_gets_the_prefix(fonts: layout.FontBook) -> None:
    rows = text_rows("### Other\n\nbody", flower_theme(), fonts)
    assert [drawn_glyphs(row) for row in rows] == [len("Other"), len("body")]


def test_the_prefix_wraps_with_the_first_word(fonts: layout.FontBook) -> None:
    title = "## Why small teams ship faster than large ones every single week"
    for width in (360, 440, 1080):
        rows = text_rows(title, flower_theme(), fonts, width)
        assert rows[0].text.startswith("Why"), (width, [r.text for r in rows])
        assert drawn_glyphs(rows[0]) == len(rows[0].text) + 2, width  # ✿ + no-break space


def test_a_boxed_heading_keeps_its_prefix_inside_the_box(fonts: layout.FontBook) -> None:
    rows = text_rows("## Boxed", flower_theme(boxed=True), fonts)
    assert rows[0].text == "Boxed" and drawn_glyphs(rows[0]) > len("Boxed")


def test_an_empty_heading_gets_no_lone_prefix(fonts: layout.FontBook) -> None:
    rows = text_rows("##\n\nbody", flower_theme(), fonts)
    assert [row.text for row in rows] == ["body"] and drawn_glyphs(rows[0]) == len("body")


def test_the_marks_take_the_headings_marker_color(fonts: layout.FontBook) -> None:
    """fairytale's ✿ is pink (the brief's flower) on its blue title: the heading's
    `marker_color` inks the prefix and suffix; the words keep the heading's colour."""
    theme = decode_theme(
        'name = "t"\n[roles.h2]\ncolor = "#2040c0"\nmarker_color = "#c03060"\n'
        f'prefix = "{FLOWER}"\nsuffix = "{FLOWER}"\n'
    )
    [row] = text_rows("## Flower", theme, fonts)
    colours = [run.color for run in glyph_runs(row.items) if run.glyphs]
    assert colours[0] == colours[-1] == 0xFFC03060
    assert 0xFF2040C0 in colours[1:-1]
    fairy = [
        run.color
        for run in glyph_runs(text_rows("# Title", themes.load("fairytale"), fonts)[0].items)
    ]
    assert fairy[0] != fairy[-1]
