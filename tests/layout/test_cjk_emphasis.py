"""Emphasis in CJK text follows CommonMark's CJK-friendly amendment, on cards and in
articles, and changes nothing CommonMark's own examples say."""

from __future__ import annotations

import json

import pytest
from markdown_it import MarkdownIt

from inkcard.app.articles.convert.html import _PARSER as ARTICLE_PARSER
from inkcard.layout.parse.cjkemphasis import cjk_friendly, is_cjk
from inkcard.layout.parse.mdparser import markdown_parser
from tests.conftest import CORPUS

CARD_PARSER = markdown_parser()

# Each was literal asterisks under plain CommonMark: a run beside punctuation needs a space
# or punctuation on its other side, and Chinese, Japanese and Korean put none there.
WRITTEN_THIS_WAY = [
    ("大约**￥280**：洁面", "大约<strong>￥280</strong>：洁面"),
    ("这是**“重点”**内容", "这是<strong>“重点”</strong>内容"),
    ("**先修屏障。**再谈控油", "<strong>先修屏障。</strong>再谈控油"),
    ("强调**这个`code`**吗", "强调<strong>这个<code>code</code></strong>吗"),
    ("これは**「重要」**です。", "これは<strong>「重要」</strong>です。"),
    ("**이 용어(This term)**를 강조", "<strong>이 용어(This term)</strong>를 강조"),
    ("~~删掉。~~然后", "<s>删掉。</s>然后"),
    ("用*“斜体”*写", "用<em>“斜体”</em>写"),
]


@pytest.mark.parametrize(("source", "html"), WRITTEN_THIS_WAY)
@pytest.mark.parametrize("parser", [CARD_PARSER, ARTICLE_PARSER], ids=["card", "article"])
def test_cjk_emphasis_is_emphasis(parser: MarkdownIt, source: str, html: str) -> None:
    assert parser.render(source).strip() == f"<p>{html}</p>"


def test_underscore_inside_words_stays_a_letter() -> None:
    assert "<em>" not in CARD_PARSER.render("snake_case_name 和 变量_名_")


def test_the_amendments_cjk_characters() -> None:
    assert is_cjk("中") and is_cjk("。") and is_cjk("￥") and is_cjk("한")
    # East Asian Width A (curly quotes), an emoji shown as one, and Latin are not
    assert not is_cjk("“") and not is_cjk("✨") and not is_cjk("a")


def test_commonmark_examples_unchanged() -> None:
    """Every example of the spec renders the same with and without the amendment: none of
    them puts a CJK character beside a run."""
    plain = MarkdownIt("commonmark").enable("strikethrough")
    amended = MarkdownIt("commonmark").enable("strikethrough").use(cjk_friendly)
    examples = json.loads((CORPUS / "commonmark-examples.json").read_text("utf-8"))
    differ = [
        e["example"]
        for e in examples
        if plain.render(e["markdown"]) != amended.render(e["markdown"])
    ]
    assert differ == []
    assert len(examples) > 600
