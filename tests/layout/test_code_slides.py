"""Code, cells and captions a phone reads at every card size; code slides filled (issue 41).

At 1600x900 the asyncio tutorial's code read 7.8-8.6 px on a 360-px phone in art-deco and
traditional-chinese (its body 8.6-9.7 px), and art-deco and traditional-chinese set it on 7
slides, two of them 58-61 % full: a heading and two import lines. At 440x586 code set at
12.8 px read 10.5 px, md2card's own size, which the default card keeps (a card a phone
shows smaller, 500x500, has a floor: `zoom.phone_floor`). Now a slide sets its small text
at its body's size and its code lines 1.4 apart (`slidetype.slide_styles`), and a slide
that cuts a code block short under three quarters full is a fault the zoom ladder weighs
(`zoom.cut_short`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page
from inkcard.layout.pages.quality import PHONE_WIDTH, _post_runs, _runs, measure
from inkcard.layout.pages.zoom import CODE_FULL, cut_short

HARD = Path(__file__).resolve().parents[1] / "cases" / "hard"
ASYNCIO = (HARD / "02-asyncio-tutorial.md").read_text("utf-8")
FUND = (HARD / "03-fund-explainer.md").read_text("utf-8")
SLIDE = layout.RenderOptions(width=1600, height=900, split="autoSplit")
CARD = layout.RenderOptions(width=440, height=586, split="autoSplit")
THEMES = ("art-deco", "traditional-chinese", "typewriter", "darktech")


def pages(md: str, theme: str, options: layout.RenderOptions) -> list[Page]:
    return layout.layout_pages(md, themes.load(theme), layout.FontBook.load(), options)


def phone_px(page: Page, code: bool) -> list[float]:
    """The sizes of a card's code block text (`code`) or other text at a 360-px phone's
    width (typewriter sets its body in a mono face too)."""
    assert page.fit is not None
    scale = page.fit.zoom * PHONE_WIDTH / page.width
    runs = {id(run): size for run, size, _ in _post_runs(page)}
    sizes = []
    for placed in page.rows:
        block = placed.row.source[:1]
        if (bool(block) and block[0][0] == "CodeBlock") == code:
            sizes += [
                runs[id(run)] * scale
                for run, _, _ in _runs(placed.row.items, 1.0, False)
                if id(run) in runs
            ]
    return sizes


@pytest.mark.parametrize("theme", THEMES)
def test_code_on_a_slide_reads_what_its_body_reads(theme: str) -> None:
    """Each slide's code reads as large on the phone as the smallest of its body text,
    and at least 8.5 px (art-deco's thick frame holds its slides to a small zoom)."""
    cards = pages(ASYNCIO, theme, SLIDE)
    body = min(min(phone_px(page, code=False) or [99.0]) for page in cards)
    code = [min(sizes) for page in cards if (sizes := phone_px(page, code=True))]
    assert min(code) >= min(body, 16.0) - 0.05
    assert min(code) >= 8.5


@pytest.mark.parametrize("theme", ["typewriter", "traditional-chinese", "business"])
def test_no_code_slide_is_cut_short_half_empty(theme: str) -> None:
    """Typewriter's and traditional-chinese's second slide was a heading and two import
    lines, 56-58 % full; now no slide before the last that the code goes on from is under
    `CODE_FULL` (a smaller zoom of the ladder holds the function after them too)."""
    cards = pages(ASYNCIO, theme, SLIDE)
    assert cut_short(cards) == 0
    assert len(cards) <= 6
    fills = [measure(page).fill for page in cards[1:-1]]
    assert min(fills) >= 0.55, fills
    assert CODE_FULL == 0.75
