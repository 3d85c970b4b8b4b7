"""A post's block tree → a Xiaohongshu note's plain text and its #话题 hashtags
(``app.articles.xhs.text``): no Markdown mark left, the app's line conventions, hashtags
found by a character scan that stays linear on hostile input."""

from __future__ import annotations

import time

import pytest

from inkcard import layout
from inkcard.app.articles.xhs.note import note_of
from inkcard.app.articles.xhs.text import hashtags, length, only_hashtags, plain_text
from inkcard.app.schema import XhsNoteRequest


def body(markdown: str, mdx: bool = False) -> str:
    return plain_text(layout.parse_post(markdown, mdx).blocks)


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("#话题 和 #旅行#", ["话题", "旅行"]),
        ("#话题#美食#", ["话题", "美食"]),
        ("学了#Python#真开心", ["Python"]),
        ("C# 和 F#", []),
        ("见 https://a.com/x#part 与 &#123;", []),
        ("排名 #1 与 #2024年度", ["2024年度"]),
        ("#旅行✈️ #snake_case", ["旅行", "snake_case"]),
        ("# 标题式 # ##", []),
        ("#" + "长" * 31, []),
    ],
)
def test_hashtags_are_scanned_by_their_characters(text: str, tags: list[str]) -> None:
    assert hashtags(text) == tags


def test_a_tag_line_is_only_hashtags() -> None:
    assert only_hashtags("#a #b# #c#d#")
    assert not only_hashtags("#a 和 #b")
    assert not only_hashtags("C# #b")
    assert not only_hashtags("")
    assert not only_hashtags("## #")


def _seconds(text: str) -> float:
    start = time.perf_counter()
    hashtags(text)
    only_hashtags(text)
    return time.perf_counter() - start


def test_hostile_hashtag_input_is_linear() -> None:
    """Each hostile input costs about what a plain tag line of its length does, timed beside
    it (a scan that went back over its input, or a replace per tag, costs seconds here)."""
    size = 200_000
    plain = _seconds(("#字 " * size)[:size])
    for hostile in ("#" * size, "#a" * (size // 2), "#" + "字" * size, "a#" * (size // 2)):
        assert _seconds(hostile) < 10 * plain + 0.05, hostile[:10]


def test_length_counts_graphemes() -> None:
    assert length("小红书ABC") == 6
    assert length("👍🏽👨‍👩‍👧🇨🇳") == 3  # skin tone, a ZWJ family, a flag: one each
    assert length("e\u0301") == 1  # a letter and its combining accent


def test_blocks_take_the_apps_line_conventions() -> None:
    text = body(
        "## 小标题\n\n一段 *斜体* ~~删除~~ [链接](https://a.b) ![图](x.png) 结束\n\n"
        "- [ ] 待办\n- [x] 完成\n\n"
        "3. 三\n4. 四\n\n"
        "| 名 | 值 |\n|---|---|\n| a | 1 |\n\n"
        "***\n\n"
        "11. 十一\n"
    )
    assert text == (
        "小标题\n\n一段 斜体 删除 链接 结束\n\n⬜ 待办\n✅ 完成\n\n3️⃣ 三\n4️⃣ 四\n\n"
        "名 · 值\na · 1\n\n11. 十一"
    )


def test_mdx_components_read_as_text() -> None:
    text = body(
        '<Callout type="tip" title="提示">\n\n先做 **一件事**\n\n</Callout>\n\n'
        '<Steps>\n<Step title="准备">\n\n备料\n\n</Step>\n</Steps>\n\n'
        '<Quote author="鲁迅">\n\n其实地上本没有路\n\n</Quote>\n',
        mdx=True,
    )
    assert "提示\n先做 一件事" in text
    assert "1️⃣ 准备\n备料" in text
    assert "其实地上本没有路\n—— 鲁迅" in text
    assert "<" not in text and "**" not in text


def test_a_note_without_a_title_has_its_first_line_on_the_cover() -> None:
    line = "Just a long first paragraph without any heading at all, about things 🎉 that matter."
    request = XhsNoteRequest(markdown=line)
    text = note_of(request, layout.parse_post(request.markdown))
    assert text.note.title == "" and text.note.body == line
    assert text.cover_title == "Just a long first paragraph without any…"  # a word kept whole
    emoji = XhsNoteRequest(markdown="👨‍👩‍👧" * 50)
    cut = note_of(emoji, layout.parse_post(emoji.markdown)).cover_title
    assert cut == "👨‍👩‍👧" * 39 + "…"  # never half an emoji


def test_only_a_paragraph_of_its_own_is_the_tag_line() -> None:
    request = XhsNoteRequest(markdown="- #清单 #待办\n- 买菜\n\n#生活 #日常")
    note = note_of(request, layout.parse_post(request.markdown)).note
    assert note.tags == ["清单", "待办", "生活", "日常"]
    assert note.body == "• #清单 #待办\n• 买菜"  # the list item stays; the last line left
