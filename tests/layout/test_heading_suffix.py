"""A heading's `suffix`: a mark laid out as the end of the heading's own text (nature's
h1 is followed by a 🌿), so it wraps with the last word, never starts a line alone, and
stays inside a heading's box. It is drawn, not written: the rows' text (the cards' alt
text) holds the post's words only, so the tests look for the mark's glyphs."""

from __future__ import annotations

from inkcard import layout, themes
from inkcard.layout.base.boxes import Row
from inkcard.layout.style.theme import decode_theme
from tests.glyphruns import drawn_glyphs, glyph_runs, text_rows

EMOJI_FACE = "NotoColorEmoji"


def draws_emoji(row: Row) -> bool:
    return any(run.face == EMOJI_FACE for run in glyph_runs(row.items))


def test_nature_h1_ends_in_a_leaf(fonts: layout.FontBook) -> None:
    rows = text_rows("# 清新自然的一天\n\n正文一段。", themes.load("nature"), fonts)
    assert draws_emoji(rows[0]) and rows[0].text == "清新自然的一天"
    assert not any(draws_emoji(row) for row in rows[1:])


def test_only_the_role_that_sets_it_gets_the_suffix(fonts: layout.FontBook) -> None:
    rows = text_rows("## A section\n\n### A subsection", themes.load("nature"), fonts)
    assert rows and not any(draws_emoji(row) for row in rows)


def test_the_suffix_wraps_with_the_last_word(fonts: layout.FontBook) -> None:
    title = "# Why small teams ship faster than large ones every single week"
    for width in (360, 440, 1080):
        rows = text_rows(title, themes.load("nature"), fonts, width)
        assert draws_emoji(rows[-1]), (width, [r.text for r in rows])
        assert not any(draws_emoji(row) for row in rows[:-1]), width
        assert rows[-1].text.strip(), (width, [r.text for r in rows])  # with its last word


def test_a_boxed_heading_keeps_its_suffix_inside_the_box(fonts: layout.FontBook) -> None:
    theme = decode_theme(
        'name = "t"\n[roles.h2]\nbackground = "#eeeeee"\nbackground_width = "text"\n'
        'padding = [4, 12, 4, 12]\nsuffix = "✦"\n'
    )
    rows = text_rows("## Boxed", theme, fonts)
    assert rows[0].text == "Boxed" and drawn_glyphs(rows[0]) > len("Boxed")  # the ✦ drawn too


def test_an_empty_heading_gets_no_lone_suffix(fonts: layout.FontBook) -> None:
    rows = text_rows("#\n\nbody", themes.load("nature"), fonts)
    assert not any(draws_emoji(row) for row in rows)
