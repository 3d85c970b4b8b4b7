"""A table's note stays on the table's card and a pull quote is never split (autoSplit), in
real themes at three sizes.

A paragraph of one or two lines right under a table reads as its note whatever it opens
with: parted from the table by a card break it reads as stray text at the top of the next
card. The page breaker used to part "以上价格会随季节变化。" from its table at every size
(the post's first slide at 1600x900 ended on the table's last row).
"""

from __future__ import annotations

import pytest

from inkcard import layout, themes
from inkcard.layout.base.boxes import Page

PARA = (
    "成都的老街巷里藏着许多小吃店，早上七点就开门，一碗面只要十二元，"
    "配上一杯盖碗茶，坐在竹椅上看街上的人来人往。"
)
NOTE = "以上价格会随季节变化。"
VERSE = (
    "山不在高，有仙则名。",
    "水不在深，有龙则灵。",
    "斯是陋室，惟吾德馨。",
    "苔痕上阶绿，草色入帘青。",
)
QUOTES = ("> " + "\n> ".join(VERSE), "> " + "\n>\n> ".join(VERSE))  # four lines, four paragraphs


def table(rows: int) -> str:
    head = "| 项目 | 费用 | 说明 |\n|---|---|---|\n"
    return head + "".join(f"| 第{i}项 | {i * 10}元 | 说明文字{i} |\n" for i in range(rows))


def post(before: int, rows: int) -> str:
    lead = "\n\n".join([PARA] * before)
    return f"# 成都小吃\n\n{lead}\n\n{table(rows)}\n\n{NOTE}\n\n{PARA}\n\n{PARA}\n"


def parted(pages: list[Page]) -> bool:
    """Whether the note's card holds none of its table's rows."""
    for page in pages:
        texts = [placed.row.text for placed in page.rows]
        if NOTE in texts:
            return not any(placed.row.header is not None for placed in page.rows)
    raise AssertionError("the note is on no card")


@pytest.mark.parametrize("size", [(440, 586), (1600, 900), (500, 500)])
@pytest.mark.parametrize("theme_name", ["apple-notes", "pop-art"])
def test_a_short_paragraph_under_a_table_stays_with_it(
    fonts, theme_name: str, size: tuple[int, int]
) -> None:
    """Tables of 3 to 12 rows after 0 to 8 paragraphs: before, the note was parted from
    its table in six posts or more of these 36 in both themes at every size."""
    theme = themes.load(theme_name)
    options = layout.RenderOptions(width=size[0], height=size[1], split="autoSplit")
    found = []
    for before in range(9):
        for rows in (3, 5, 8, 12):
            if parted(layout.layout_pages(post(before, rows), theme, fonts, options)):
                found.append((before, rows))
    assert not found


@pytest.mark.parametrize("size", [(440, 586), (1600, 900), (500, 500)])
@pytest.mark.parametrize("theme_name", ["traditional-chinese", "apple-notes"])
def test_a_four_line_pull_quote_is_never_split(
    fonts, theme_name: str, size: tuple[int, int]
) -> None:
    """traditional-chinese's 1600x900 slide split four quoted paragraphs under the title 3 | 1:
    the title kept with the quote was taller than the slide, and a keep chain longer than a
    card broke anywhere. Now the title is a title card and the quote whole on the next."""
    theme = themes.load(theme_name)
    options = layout.RenderOptions(width=size[0], height=size[1], split="autoSplit")
    split = []
    for before in range(9):
        lead = "\n\n".join([PARA] * before)
        for n, quote in enumerate(QUOTES):
            md = f"# 陋室铭\n\n{lead}\n\n{quote}\n\n{PARA}\n\n{PARA}\n"
            for page in layout.layout_pages(md, theme, fonts, options):
                quoted = [
                    p for p in page.rows if p.row.source[:1] and p.row.source[0][0] == "Quote"
                ]
                if len(quoted) not in (0, 4):
                    split.append((before, n, len(quoted)))
    assert not split
