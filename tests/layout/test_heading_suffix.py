"""A heading's `suffix`: a mark laid out as the end of the heading's own text (nature's
h1 is followed by a 🌿), so it wraps with the last word, never starts a line alone, and
stays inside a heading's box."""

from __future__ import annotations

import layout
import themes
from layout.boxes import Page, Row
from layout.style import decode_theme

LEAF = "🌿"


def text_rows(md: str, theme: layout.Theme, fonts: layout.FontBook, width: int = 440) -> list[Row]:
    options = layout.RenderOptions(width=width)
    pages: list[Page] = layout.layout_pages(md, theme, fonts, options)
    return [p.row for page in pages for p in page.rows if p.row.text and not p.row.decorative]


def test_nature_h1_ends_in_a_leaf(fonts: layout.FontBook) -> None:
    rows = text_rows("# 清新自然的一天\n\n正文一段。", themes.load("nature"), fonts)
    assert rows[0].text.rstrip().endswith(LEAF)
    assert not any(LEAF in row.text for row in rows[1:])


def test_only_the_role_that_sets_it_gets_the_suffix(fonts: layout.FontBook) -> None:
    rows = text_rows("## A section\n\n### A subsection", themes.load("nature"), fonts)
    assert rows and not any(LEAF in row.text for row in rows)


def test_the_suffix_wraps_with_the_last_word(fonts: layout.FontBook) -> None:
    title = "# Why small teams ship faster than large ones every single week"
    for width in (360, 440, 1080):
        rows = text_rows(title, themes.load("nature"), fonts, width)
        last = rows[-1].text.replace("\u00a0", " ").strip()
        assert last.endswith(LEAF), (width, [r.text for r in rows])
        assert last != LEAF, (width, [r.text for r in rows])


def test_a_boxed_heading_keeps_its_suffix_inside_the_box(fonts: layout.FontBook) -> None:
    theme = decode_theme(
        'name = "t"\n[roles.h2]\nbackground = "#eeeeee"\nbackground_width = "text"\n'
        'padding = [4, 12, 4, 12]\nsuffix = "✦"\n'
    )
    rows = text_rows("## Boxed", theme, fonts)
    assert rows[0].text.rstrip().endswith("✦")


def test_an_empty_heading_gets_no_lone_suffix(fonts: layout.FontBook) -> None:
    rows = text_rows("#\n\nbody", themes.load("nature"), fonts)
    assert not any(LEAF in row.text for row in rows)
