"""A deck, and a set of portrait or square cards, takes a card more rather than open a card
with a section's short end.

The English habits at 1600x900: "5. Measure, lightly" ended slide 3 and its closing quote
opened slide 4, above "6. Forgive the bad days", at every zoom the ladder tried, in seven
decks (brandA, brandB, coil-notebook x4, nature; tenth look, the engine's own report
flagging it). The ladder's last resort (`endskept.kept_ends`) lays the deck out again
with a stranded end dearer than a slide (`breakprices.STRANDED_APART`) and keeps the first
zoom whose set has fewer faults, at most a slide more, and every slide before the last
full or ending its section.

A set of cards does the same at the type it settled on: the FAQ's warning note under Q1
opened card 2 of 4 above Q2 at 500x500 in 20 theme-modes (thirteenth look: "reads as Q2's
intro", rated 3 in 8), where five cards give the title a cover and each pair of questions
its card; a card more that leaves the last a stub is not taken.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page
from inkcard.layout.pages.breaks.breakrules import opens_section
from inkcard.layout.pages.quality import measure

CASES = Path(__file__).resolve().parents[2] / "cases"


def deck(
    post: str, theme: str, mode: str | None = None, size: tuple[int, int] = (1600, 900)
) -> list[Page]:
    text = (CASES / post).read_text("utf-8")
    width, height = size
    options = layout.RenderOptions(width=width, height=height, split="autoSplit", mode=mode)
    return layout.layout_pages(text, themes.load(theme), layout.FontBook.load(), options)


def card_of(pages: list[Page], start: str) -> int:
    """The index of the card holding the row that starts with `start`."""
    return next(
        index
        for index, page in enumerate(pages)
        for placed in page.rows
        if placed.row.text.startswith(start)
    )


@pytest.mark.parametrize(
    ("theme", "mode"),
    [("brandA", None), ("brandB", None), ("coil-notebook", "mint-mode"), ("nature", None)],
)
def test_each_section_of_the_habits_ends_on_its_own_slide(theme: str, mode: str | None) -> None:
    pages = deck("hard/15-english-focus.md", theme, mode)
    assert not any(page.fit is not None and page.fit.stranded for page in pages)
    for page in pages[1:]:
        # every later slide opens a section: none opens with the one before's end
        assert opens_section(page.rows[0].row), [p.row.text for p in page.rows[:1]]
    quote = [
        index
        for index, page in enumerate(pages)
        for placed in page.rows
        if placed.row.text.startswith("“You do not rise")
    ]
    measure_heads = [
        index
        for index, page in enumerate(pages)
        for placed in page.rows
        if placed.row.text.startswith("5. Measure")
    ]
    assert quote and measure_heads and set(quote) == set(measure_heads)
    assert len(pages) == 5


def test_a_slide_more_that_parts_an_opening_is_not_taken() -> None:
    """The release notes in minimalist open slide 2 with their third opening paragraph
    above "The release flow"; kept with it, the opening parts 1 | 2 over two slides each
    under 60 % full: the deck keeps four slides."""
    pages = deck("pagination/hard-figure-near-ends.md", "minimalist")
    assert len(pages) == 4
    fills = [quality.fill for quality in map(measure, pages) if quality is not None]
    assert min(fills[:-1]) > 0.85


@pytest.mark.parametrize(
    ("theme", "mode"),
    [("typewriter", None), ("nature", None), ("apple-notes", "light-mode"), ("brandB", None)],
)
def test_the_faq_s_warning_note_stays_with_its_question(theme: str, mode: str | None) -> None:
    pages = deck("hard/19-faq-subscription.md", theme, mode, (500, 500))
    assert not any(page.fit is not None and page.fit.stranded for page in pages)
    assert card_of(pages, "注意：") == card_of(pages, "Q1：")
    for page in pages[1:]:
        assert opens_section(page.rows[0].row), [p.row.text for p in page.rows[:1]]
    assert len(pages) == 5


@pytest.mark.parametrize("theme", ["darktech", "minimal", "traditional-chinese"])
def test_each_command_keeps_its_code_and_words_on_one_card(theme: str) -> None:
    """The five commands at 500x500 parted a paragraph or a command's code from its
    heading over two cards; each section now stands whole on a card."""
    pages = deck("pagination/hard-code-near-ends.md", theme, None, (500, 500))
    assert not any(page.fit is not None and page.fit.stranded for page in pages)
    for page in pages[1:]:
        assert opens_section(page.rows[0].row), [p.row.text for p in page.rows[:1]]


@pytest.mark.parametrize("theme", ["apple-notes", "business", "warm"])
def test_a_card_more_that_leaves_the_last_a_stub_is_not_taken(theme: str) -> None:
    """The long English essay at 500x500 opens a card with a section's end; kept with it,
    five cards leave the last 29-34 % full: the set keeps its four cards."""
    pages = deck("pagination/hard-long-english.md", theme, None, (500, 500))
    last = measure(pages[-1])
    assert len(pages) == 4
    assert last is not None and last.fill > 0.55
