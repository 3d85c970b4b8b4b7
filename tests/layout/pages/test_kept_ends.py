"""A deck takes a slide more rather than open a slide with a section's short end.

The English habits at 1600x900: "5. Measure, lightly" ended slide 3 and its closing quote
opened slide 4, above "6. Forgive the bad days", at every zoom the ladder tried, in seven
decks (brandA, brandB, coil-notebook x4, nature; tenth look, the engine's own report
flagging it). The ladder's last resort (`slidetype.kept_ends`) lays the deck out again
with a stranded end dearer than a slide (`breakprices.STRANDED_APART`) and keeps the first
zoom whose set has fewer faults, at most a slide more, and every slide before the last
full or ending its section.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page
from inkcard.layout.pages.breaks.breakrules import opens_section
from inkcard.layout.pages.quality import measure

CASES = Path(__file__).resolve().parents[2] / "cases"


def deck(post: str, theme: str, mode: str | None = None) -> list[Page]:
    text = (CASES / post).read_text("utf-8")
    options = layout.RenderOptions(width=1600, height=900, split="autoSplit", mode=mode)
    return layout.layout_pages(text, themes.load(theme), layout.FontBook.load(), options)


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
