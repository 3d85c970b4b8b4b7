"""A list item's text stays on the card of the list nested under it: sub-points opening a
card read as orphans, their parent out of sight (issue 41, an oily-skin care post)."""

from __future__ import annotations

import pytest

from inkcard import layout, themes

LINE = "换季一到，脸就开始又油又干，这是我留下来的方案。"
ITEM = "**精华**：10%烟酰胺，薄薄一层，耐受了再每天用"
NESTED = (
    f"1. **洁面**：氨基酸洁面\n2. {ITEM}\n   - 刚开始隔天用\n   - 和维C分开用\n"
    "3. **保湿**：啫喱质地\n4. **防晒**：每天"
)


def parted(theme: str, size: tuple[int, int]) -> list[int]:
    """For 0-19 one-line paragraphs before the list, those whose cards put the item's text
    and its first sub-point on different cards."""
    width, height = size
    options = layout.RenderOptions(width=width, height=height, split="autoSplit")
    fonts = layout.FontBook.load()
    found = []
    for before in range(20):
        lead = "\n\n".join([LINE] * before)
        post = f"# 护肤清单\n\n{lead}\n\n{NESTED}\n\n{LINE}\n"
        pages = layout.layout_pages(post, themes.load(theme), fonts, options)
        texts = ["".join(p.row.text for p in page.rows) for page in pages]
        parent = next(i for i, text in enumerate(texts) if "薄薄一层" in text)
        child = next(i for i, text in enumerate(texts) if "刚开始隔天用" in text)
        if parent != child:
            found.append(before)
    return found


@pytest.mark.parametrize(
    ("theme", "size"), [("apple-notes", (440, 586)), ("glassmorphism", (440, 586))]
)
def test_an_items_text_keeps_with_its_nested_list(theme: str, size: tuple[int, int]) -> None:
    assert parted(theme, size) == []
