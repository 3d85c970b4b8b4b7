"""On a wide card a small table's tip sits beside it (`flow.beside`), and a deck's last
slide does not hold a section's end alone (`zoom._tail_last`).

The recipe's heading, five-row table and tip were taller than a 1600x900 slide at every
legible zoom, so the tip opened the method's slide in 24 of 30 theme-modes; a source
line (a paragraph) still reads under its table, and portrait cards stack as before.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import PlacedRow, Rect
from inkcard.layout.base.placing import Placement
from inkcard.layout.pages.breaks.breakrules import opens_section
from inkcard.layout.pages.layers import live_decorations
from inkcard.layout.pages.quality import measure
from inkcard.layout.pages.zoom import SPARSE
from inkcard.layout.style.resolver import resolve

CASES = Path(__file__).resolve().parents[1] / "cases"
RECIPE = (CASES / "rated" / "recipe-tip.md").read_text(encoding="utf-8")
TIP = "小贴士"
SLIDE = {"width": 1600, "height": 900, "split": "autoSplit"}


def _pages(fonts, post: str, theme_mode: str, **size) -> list[layout.Page]:
    name, _, mode = theme_mode.partition("/")
    options = layout.RenderOptions(**(size or SLIDE), mode=mode or None)
    return layout.layout_pages(post, themes.load(name), fonts, options)


@pytest.mark.parametrize("theme_mode", ["apple-notes/light-mode", "art-deco/", "cyberpunk/"])
def test_a_slides_tip_sits_beside_its_table(fonts, theme_mode: str) -> None:
    """One row holds the table and the tip: no slide opens with the tip (on the base the
    tip opened slide 3 above 做法 in apple-notes and art-deco; cyberpunk split the table
    3 | 2 to carry it)."""
    pages = _pages(fonts, RECIPE, theme_mode)
    rows = [placed.row for page in pages for placed in page.rows]
    joined = [row for row in rows if TIP in row.text]
    assert len(joined) == 1 and "牛腩" in joined[0].text and "生抽" in joined[0].text
    assert not any(page.fit is not None and page.fit.stranded for page in pages)


def test_every_slide_set_keeps_the_recipes_tip_with_its_table(fonts) -> None:
    stranded = []
    for name in themes.names():
        for mode in themes.modes(name) or [None]:
            pages = _pages(fonts, RECIPE, f"{name}/{mode or ''}")
            if any(page.fit is not None and page.fit.stranded for page in pages):
                stranded.append(f"{name}/{mode or ''}")
    assert stranded == []


def test_portrait_cards_stack_the_tip_under_its_table(fonts) -> None:
    pages = _pages(
        fonts, RECIPE, "apple-notes/light-mode", width=440, height=586, split="autoSplit"
    )
    rows = [placed.row for page in pages for placed in page.rows]
    assert next(row for row in rows if TIP in row.text).text.startswith(TIP)


def test_a_source_line_stays_under_its_table(fonts) -> None:
    """A paragraph after a table is its caption or source: under it, on its own row."""
    post = RECIPE.replace("> 小贴士", "小贴士")
    rows = [
        placed.row for page in _pages(fonts, post, "apple-notes/light-mode") for placed in page.rows
    ]
    assert next(row for row in rows if TIP in row.text).text.startswith(TIP)


def test_the_tips_quote_keeps_its_panels_ornament(fonts) -> None:
    """art-deco draws a quote mark in each quote's panel: beside the table the quote is
    inside one row, which names its panels (`Row.panels`) for the ornament to find."""
    page = next(
        page
        for page in _pages(fonts, RECIPE, "art-deco/")
        if any(TIP in placed.row.text for placed in page.rows)
    )
    row = next(placed.row for placed in page.rows if TIP in placed.row.text)
    assert any(frame.decor.role == "quote" for frame, _, _ in row.panels)
    styles = resolve(themes.load("art-deco"), None)
    card = Rect(0, 0, 400, 300)

    def ornaments(rows: tuple[PlacedRow, ...]) -> int:
        drawn = live_decorations(styles, fonts, Placement(rows, 300.0, ()), card, card, 0.0)
        return len(drawn["panel-under"]) + len(drawn["panel-over"])

    bare = tuple(replace(p, row=replace(p.row, panels=())) for p in page.rows)
    assert ornaments(page.rows) > ornaments(bare) == 0


@pytest.mark.parametrize(
    ("post", "theme_mode"),
    [
        ("hard/05-english-essay.md", "notebook/"),
        ("posts/02-python-tips-mixed.md", "glassmorphism/"),
        ("posts/03-english-notes.md", "notebook/"),
    ],
)
def test_no_last_slide_holds_a_sections_end_alone(fonts, post: str, theme_mode: str) -> None:
    """The essay's last paragraph sat alone on a sixth slide (32 % full), the tips' closing
    quote and link on a fifth (37 %), the reading notes' task list on a fifth (53 %): a
    zoom a rung smaller gives each section its slides (six, five and five became four,
    three and three)."""
    pages = _pages(fonts, (CASES / post).read_text(encoding="utf-8"), theme_mode)
    last = measure(pages[-1])
    assert last is not None
    assert last.fill >= SPARSE or opens_section(pages[-1].rows[0].row), (len(pages), last.fill)
