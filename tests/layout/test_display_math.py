"""A display formula is set `DISPLAY_SCALE` times its paragraph's size, as KaTeX sets math,
and may be drawn back at text size to end a card (blocks/textblocks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page, PlacedRow
from inkcard.layout.flow import flow as flow_module
from inkcard.layout.text.formula.mathtex import DISPLAY_SCALE

FUND = Path(__file__).resolve().parents[1] / "cases" / "hard" / "03-fund-explainer.md"


def _pages(name: str, width: int, height: int) -> list[Page]:
    options = layout.RenderOptions(width=width, height=height, split="autoSplit")
    return layout.layout_pages(
        FUND.read_text("utf-8"), themes.load(name), layout.FontBook.load(), options
    )


def _formula(pages: list[Page]) -> PlacedRow:
    [row] = [p for page in pages for p in page.rows if p.row.text.startswith("平均成本 = ")]
    return row


@pytest.mark.parametrize("name", ["minimal", "warm", "darktech"])
def test_a_display_formula_is_set_larger_than_its_text(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At text size the fund post's fraction of sums read as a footnote on a slide (30
    theme-modes at 1600x900): KaTeX sets math at 1.21 em, and so is a display formula."""
    larger = _formula(_pages(name, 440, 586)).row.height
    monkeypatch.setattr(flow_module, "DISPLAY_SCALE", 1.0)
    at_text_size = _formula(_pages(name, 440, 586)).row.height
    assert larger / at_text_size == pytest.approx(DISPLAY_SCALE, rel=0.08)


def test_a_larger_formula_does_not_cost_a_slide_deck_its_type(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """traditional-chinese at 1600x900: set larger, the formula, its note and the closing
    quote no longer fit the last slide, and the deck's zoom stepped down (its title card
    72 % → 47 % full, every slide's type smaller): the formula ends its card at text size
    instead (a figure's floor), the deck's zoom as before."""
    pages = _pages("traditional-chinese", 1600, 900)
    monkeypatch.setattr(flow_module, "DISPLAY_SCALE", 1.0)
    before = _pages("traditional-chinese", 1600, 900)
    assert len(pages) == len(before)
    assert [p.fit.zoom for p in pages if p.fit] == [p.fit.zoom for p in before if p.fit]
    formula = _formula(pages)
    assert 1 / DISPLAY_SCALE - 1e-6 <= formula.scale <= 1.0


@pytest.mark.parametrize(
    ("name", "mode"),
    [("coil-notebook", "blue-mode"), ("pop-art", "default-mode"), ("minimal", None)],
)
def test_a_display_formula_keeps_its_size_on_a_card(name: str, mode: str | None) -> None:
    """Drawn back at text size to end card 2 of the fund post at 440x586, it read "smaller
    than the body text" (ten sets rated 4/5): on a portrait card it keeps its size."""
    options = layout.RenderOptions(split="autoSplit", mode=mode)
    post = FUND.read_text("utf-8")
    pages = layout.layout_pages(post, themes.load(name), layout.FontBook.load(), options)
    formula = _formula(pages)
    assert formula.scale == 1.0 and formula.row.min_scale == 1.0
    assert len(pages) == 2
