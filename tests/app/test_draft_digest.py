"""The automatic digest and the trimmed content of a draft, on converted articles."""

from __future__ import annotations

from inkcard.app.articles.convert.html import draft_content, to_article
from inkcard.app.articles.drafts.draftbody import auto_digest, trim_content


def digest_of(markdown: str, theme: str = "brandA") -> str:
    converted = to_article(markdown, theme)
    content = trim_content(draft_content(converted.html), drop_heading=True, skipped=set())
    return auto_digest(content, converted.title)


def test_a_label_without_a_sentence_end_is_left_out() -> None:
    markdown = "# T\n\nFirst sentence here. Second one!\n\n**Task list for next year**\n\nLast."
    assert digest_of(markdown) == "First sentence here. Second one! Last."


def test_chinese_sentences_join_without_spaces() -> None:
    markdown = "# 标题\n\n第一句。\n\n25 分钟专注，5 分钟休息。"
    assert digest_of(markdown) == "第一句。25 分钟专注，5 分钟休息。"


def test_a_body_of_labels_only_still_has_a_digest() -> None:
    assert digest_of("# T\n\nJust a label") == "Just a label"


def test_no_paragraph_no_digest() -> None:
    assert digest_of("# T\n\n- a list\n- only\n\n> and a quote.") == ""


def test_the_masthead_ornament_does_not_keep_the_h1() -> None:
    converted = to_article("# 标题\n\n正文。", "japanese-magazine")
    content = trim_content(draft_content(converted.html), drop_heading=True, skipped=set())
    assert "<h1" not in content and "STYLE" in content


def test_an_h1_after_text_is_not_the_leading_one() -> None:
    converted = to_article("Intro.\n\n# Later", "brandA")
    content = trim_content(draft_content(converted.html), drop_heading=True, skipped=set())
    assert "<h1" in content
