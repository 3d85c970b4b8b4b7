"""A figure keeps what reads as its note, and stays legible when drawn smaller to end a card.

Post 09 (a pie, a funnel flowchart, a chat sequence) at 440x586: in darktech the page breaker
drew the flowchart and the sequence at 70 % to fit both on the second card, the sequence's
12-px messages at 8.4 px (6.9 px on a phone), while the first card stayed 38 % empty; and
where the post took three cards, "每一层大约流失 60%…", the funnel's one-line comment, opened
the third card above the sequence it was not about.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard import layout, themes
from inkcard.layout.pages.quality import PHONE_WIDTH, measure

POST = Path(__file__).resolve().parents[1] / "cases" / "hard" / "09-mixed-diagrams.md"
FUNNEL = (
    "```mermaid\nflowchart TD\n"
    + "".join(f"  S{k}[第{k}步] --> S{k + 1}[第{k + 1}步]\n" for k in range(5))
    + "```"
)
COMMENT = "每一层大约流失 60%，所以提升第一层的点击率最划算。"
LINE = "漏斗的每一层都要看。"  # a one-line paragraph: the funnel moves down a line at a time
FILL = "转化率要分层看，每一层的流失原因都不一样，解决办法也不一样，不能一概而论。"


def theme_modes() -> list[tuple[str, str | None]]:
    return [(name, mode) for name in themes.names() for mode in themes.modes(name) or [None]]


@pytest.mark.parametrize(("theme", "mode"), theme_modes())
def test_a_diagram_drawn_smaller_to_end_a_card_keeps_its_labels_legible(
    fonts, theme: str, mode: str | None
) -> None:
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", mode=mode)
    pages = layout.layout_pages(POST.read_text(), themes.load(theme), fonts, options)
    smallest = min(measure(page).smallest_text for page in pages)
    assert smallest >= 10.0 * PHONE_WIDTH / 440 - 0.05, (theme, mode, smallest)


def card_of(texts: list[str], needle: str) -> int:
    return next(i for i, text in enumerate(texts) if needle in text)


@pytest.mark.parametrize("theme", ["darktech", "warm", "japanese-magazine"])
def test_a_short_paragraph_under_a_diagram_shares_its_card(fonts, theme: str) -> None:
    parted = []
    rest = "\n\n".join([FILL] * 8)
    options = layout.RenderOptions(width=440, height=586, split="autoSplit")
    for before in range(20):
        lead = "\n\n".join([LINE] * before)
        md = f"# 转化漏斗\n\n{lead}\n\n{FUNNEL}\n\n{COMMENT}\n\n{rest}\n"
        pages = layout.layout_pages(md, themes.load(theme), fonts, options)
        texts = ["\n".join(p.row.text for p in page.rows) for page in pages]
        figure, comment = card_of(texts, "第5步"), card_of(texts, COMMENT[:8])
        if figure != comment and not measure(pages[figure]).broken_rules:
            parted.append(before)
    assert parted == []
