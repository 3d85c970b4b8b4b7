"""A display formula stays on one card with the paragraph that names its symbols ("其中 S_k
是第 k 期的净值", "where S_k is …"): at 1600x900 cyberpunk, darktech and glassmorphism ended
a slide on the fund post's formula and opened the next with 其中, naming symbols out of
sight. A formula followed by any other paragraph may still end a card."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page
from inkcard.layout.pages.quality import measure

FORMULA = "$$\n\\text{平均成本} = \\frac{\\sum_{k=1}^{n} P_k}{\\sum_{k=1}^{n} P_k / S_k}\n$$"
FILL = "定投的核心是用时间换平均成本，跌的时候买到更多份额，涨的时候买到更少份额。"
LINE = "每月定投一次。"  # a one-line paragraph: the formula moves down a line at a time
LEGENDS = (
    "其中 S_k 是第 k 期的净值。这就是所谓的“调和平均”：净值低的时候买到的份额更多。",
    "where S_k is the price paid in period k, so that a month when the price is low buys more"
    " shares than a month when it is high.",
)


def cards(md: str, theme: str, size: tuple[int, int]) -> list[tuple[str, tuple[str, ...]]]:
    """The plain text of each card of `md` (a row a line) and the rules its end breaks."""
    width, height = size
    options = layout.RenderOptions(width=width, height=height, split="autoSplit")
    pages = layout.layout_pages(md, themes.load(theme), layout.FontBook.load(), options)
    return [("\n".join(p.row.text for p in page.rows), _broken(page)) for page in pages]


def _broken(page: Page) -> tuple[str, ...]:
    quality = measure(page)
    return quality.broken_rules if quality else ()


def parted(theme: str, size: tuple[int, int], after: str) -> list[int]:
    """For 0-23 one-line paragraphs before the formula, those whose cards part it from
    `after`."""
    found = []
    rest = "\n\n".join([FILL] * 6)
    for before in range(24):
        lead = "\n\n".join([LINE] * before)
        texts = cards(f"# 平均成本\n\n{lead}\n\n{FORMULA}\n\n{after}\n\n{rest}\n", theme, size)
        formula = next(i for i, (text, _) in enumerate(texts) if "\\frac" in text)
        opening = next(i for i, (text, _) in enumerate(texts) if after[:8] in text)
        if formula != opening and not texts[formula][1]:  # not where every set breaks a rule
            found.append(before)
    return found


@pytest.mark.parametrize("legend", LEGENDS)
@pytest.mark.parametrize(
    ("theme", "size"), [("cyberpunk", (1600, 900)), ("apple-notes", (440, 586))]
)
def test_a_formula_and_its_legend_share_a_card(
    theme: str, size: tuple[int, int], legend: str
) -> None:
    assert parted(theme, size, legend) == []


def test_a_formula_before_an_ordinary_paragraph_may_end_a_card() -> None:
    assert parted("apple-notes", (440, 586), "这个公式说明，分批买入时，" + FILL) != []


FUND = Path(__file__).parents[1] / "cases" / "hard" / "03-fund-explainer.md"


@pytest.mark.parametrize("theme", ["cyberpunk", "darktech", "glassmorphism"])
def test_the_fund_posts_formula_keeps_its_legend_on_a_slide(theme: str) -> None:
    texts = cards(FUND.read_text("utf-8"), theme, (1600, 900))
    formula = next(i for i, (text, _) in enumerate(texts) if "\\frac" in text)
    assert "其中" in texts[formula][0], f"slide {formula + 1} ends on the formula"
