"""A card's text stops half a line above its page number, unless that costs a card.

nature and art-deco (notebook, pop-art too) set their page number in a footer band 4-6 px
taller than the number's own line: a full card's last line sat on "— 4/4 —" and a list
box on "2/3" (tenth look, 500x500). The breaker now cuts the cards `folio_air` px short
of the content box's foot (half a body line pitch above the number's line), and gives
the air up only where the whole box makes fewer cards, breaks fewer rules, parts fewer
blocks or gives up no spacing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page, Row
from inkcard.layout.pages.breaks.pagebreaks import paged
from inkcard.layout.pages.cardface import FOLIO_AIR, folio_air
from inkcard.layout.style.resolver import resolve

CASES = Path(__file__).resolve().parents[2] / "cases"
SQUARE = layout.RenderOptions(width=500, height=500, split="autoSplit")


def cards(post: str, theme: str, options: layout.RenderOptions = SQUARE) -> list[Page]:
    text = (CASES / post).read_text("utf-8")
    return layout.layout_pages(text, themes.load(theme), layout.FontBook.load(), options)


def foot_gap(page: Page) -> float:
    """How far above its content box's foot a card's last row ends (virtual px)."""
    assert page.fit is not None
    bottom = max(placed.y + placed.row.height * placed.scale for placed in page.rows)
    return page.fit.room - page.fit.offset - bottom


@pytest.mark.parametrize("theme", ["nature", "art-deco"])
def test_a_full_card_keeps_half_a_line_off_its_page_number(theme: str) -> None:
    styles = resolve(themes.load(theme), None)
    air = folio_air(styles)
    body = styles["body"]
    assert air > 3.0  # the theme's band alone leaves the number under the text
    assert air == pytest.approx(
        1.25 * styles["page_number"].size
        + FOLIO_AIR * body.size * body.line_height
        - styles["card"].footer_height
    )
    pages = cards("hard/15-english-focus.md", theme)
    assert len(pages) > 1
    assert min(foot_gap(page) for page in pages) >= air - 0.5


def test_a_theme_whose_band_holds_the_air_gives_none() -> None:
    assert folio_air(resolve(themes.load("apple-notes"), "light-mode")) == 0.0
    assert folio_air(resolve(themes.load("brandC"), None)) == 0.0  # its number stands at the top


def test_the_air_is_given_up_where_it_saves_a_card() -> None:
    """The tomato beef noodles at 500x500 in nature: two full cards; kept short of the
    number they were three, the last two half empty."""
    pages = cards("rated/recipe-tip.md", "nature")
    assert len(pages) == 2
    assert min(foot_gap(page) for page in pages) < folio_air(resolve(themes.load("nature"), None))


def lines(n: int) -> list[Row]:
    return [Row(40.0, (), text=f"line {i}") for i in range(n)]


def test_the_breaker_takes_the_shorter_cards_only_at_no_cost() -> None:
    """40-px rows on 200-px cards with 10 px of air: eight make five and three on whole
    cards (the first 200 px tall), four and four kept under the air; nine take two cards
    only as five and four, so the air is given up."""
    assert [len(page) for page in paged(lines(8), 200.0).pages] == [5, 3]
    assert [len(page) for page in paged(lines(8), 200.0, air=10.0).pages] == [4, 4]
    nine = paged(lines(9), 200.0, air=10.0).pages
    assert [len(page) for page in nine] == [5, 4]
    assert [len(page) for page in paged(lines(10), 400.0, air=10.0).pages] == [10]
