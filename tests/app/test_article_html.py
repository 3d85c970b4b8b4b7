"""Markdown → WeChat article HTML: structure the editor keeps, themes, numbering, word count."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lxml import html as lxml_html

from inkcard import themes
from inkcard.app.articles.convert.brand import Brand, apply_brand
from inkcard.app.articles.convert.html import draft_content, rewrite_images, to_article
from inkcard.app.articles.convert.themecss import UnknownArticleTheme, split_pseudo_rules
from inkcard.app.schema import ARTICLE_THEMES

CASES = Path(__file__).resolve().parents[1] / "cases"
THEMES = sorted(ARTICLE_THEMES)  # every article theme, in the order themes.article_names gives
PIXEL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/"
    "HwAEAQH/qUeGmgAAAABJRU5ErkJggg=="
)
RICH = f"""# 标题 Title

Intro with **bold**, *em*, ~~gone~~, `inline` and a [site](https://example.com/a).

## Code

```python
def f(x):
    return x + 1  # add
```

> A quote.
>
> Second paragraph.

- [x] done
- [ ] open
- bullet
  - nested **deep**

3. three
4. four

| a | b |
|:--|--:|
| 1 | 2 |
| 3 | 4 |

![a cat](https://img.example/cat.png)

![]({PIXEL})

Note[^n] and [wx](https://mp.weixin.qq.com/s/abc) and [site again](https://example.com/a).

---

[^n]: The note, with [a link](https://example.org/ref).
"""

FORBIDDEN_TAGS = {"style", "script", "iframe", "link", "svg", "object", "embed", "form", "input"}


def parse(html: str) -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(html)


def article_root(html: str) -> lxml_html.HtmlElement:
    body = parse(html).find("body")
    assert len(body) == 1 and body[0].tag == "section"
    assert not (body.text or "").strip() and not (body[0].tail or "").strip()
    return body[0]


@pytest.mark.parametrize("theme", THEMES)
def test_only_inline_styles_and_one_section(theme: str) -> None:
    html = to_article(RICH, theme).html
    assert html.startswith("<!DOCTYPE html>")
    root = article_root(html)
    for el in parse(html).iter():
        if not isinstance(el.tag, str):
            continue
        assert el.tag not in FORBIDDEN_TAGS, el.tag
        for name in el.attrib:
            assert name not in ("class", "id") and not name.startswith("on"), (el.tag, name)
    assert "javascript:" not in html
    styled = ("h1", "h2", "p", "strong", "code", "pre", "blockquote", "table", "th", "td", "img")
    for tag in styled:
        found = list(root.iter(tag))
        assert found, tag
        for el in found:
            assert (el.get("style") or "").strip(), (theme, tag)
    assert "font-size:16px" in root.get("style", "")


def test_theme_values_reach_the_elements() -> None:
    root = article_root(to_article(RICH, "brandA").html)
    h2 = next(root.iter("h2"))
    assert "linear-gradient(135deg, #1677ff, #05d4cd)" in h2.get("style")
    root_b = article_root(to_article(RICH, "brandB").html)
    assert "#ff6a00" in next(root_b.iter("strong")).get("style")


def test_code_blocks_have_colours_breaks_and_no_break_spaces() -> None:
    html = to_article(RICH, "brandA").html
    code = next(c for c in article_root(html).iter("code") if c.getparent().tag == "pre")
    colours = {s.get("style") for s in code.iter("span")}
    assert any("color:" in c for c in colours) and len(colours) >= 3
    assert len(code.findall(".//br")) == 1  # two lines, no empty last line
    assert "\n" not in code.text_content()
    # indentation kept as no-break spaces, the keyword coloured
    assert re.search(r"<br>&nbsp;&nbsp;&nbsp;&nbsp;<span style=\"color:#06f\">return</span>", html)
    pre = code.getparent()
    assert "overflow-x:auto" in pre.get("style")


def test_links_become_numbered_references_and_footnotes_share_numbers() -> None:
    root = article_root(to_article(RICH, "brandA").html)
    marks = [s.text for s in root.iter("sup")]
    # site [1] (intro), the note [2], site again is the same address → [1]
    assert marks == ["[1]", "[2]", "[1]"]
    links = [a.get("href") for a in root.iter("a")]
    assert links == ["https://mp.weixin.qq.com/s/abc"]
    refs = root[-1]
    text = refs.text_content()
    assert text.startswith("参考资料")  # the article has Chinese in it
    assert "[1]site: https://example.com/a" in text
    assert "[2]The note, with a link (https://example.org/ref)." in text
    assert "↩" not in text


def test_latin_only_article_gets_an_english_references_heading() -> None:
    root = article_root(to_article("See [here](https://example.com).", "brandA").html)
    assert root[-1].text_content() == "References[1]here: https://example.com"


def test_bare_urls_are_listed_and_anchors_get_no_footnote() -> None:
    """A bare address is listed too (issue 43): the list is where every address is."""
    root = article_root(to_article("see https://example.com and [top](#top)", "brandA").html)
    assert [sup.text for sup in root.iter("sup")] == ["[1]"] and list(root.iter("a")) == []
    assert root.text_content().count("https://example.com") == 2


def test_tables_scroll_sideways_and_keep_alignment() -> None:
    root = article_root(to_article(RICH, "business").html)
    table = next(root.iter("table"))
    wrapper = table.getparent()
    assert wrapper.tag == "section"
    assert "overflow-x:auto" in wrapper.get("style") and "max-width:100%" in wrapper.get("style")
    cells = list(table.iter("td"))
    assert "text-align:left" in cells[0].get("style")
    assert "text-align:right" in cells[1].get("style")
    rows = table.findall("tbody/tr")
    assert "background-color" in rows[1].get("style", "") and not rows[0].get("style")


def test_lists_are_sections_with_text_markers() -> None:
    root = article_root(to_article(RICH, "brandA").html)
    assert not any(root.iter("ul", "ol", "li", "input"))
    rows = [s for s in root.iter("section") if "display:flex" in (s.get("style") or "")]
    markers = [(row[0].text or "") for row in rows]
    bodies = [" ".join(row[1].text_content().split()) for row in rows]
    assert bodies[:3] == ["done", "open", "bullet ◆nested deep"]
    assert markers[0] == "✓" and markers[1] == ""  # checked box, empty box
    assert markers[2] == markers[3] == "◆"
    assert markers[4:] == ["3", "4"]  # an ordered list keeps its start
    assert all("flex-shrink:0" in row[0].get("style") for row in rows)


def test_no_newlines_between_blocks() -> None:
    html = to_article(RICH, "brandA").html
    section = html[html.index("<body>") :]
    assert ">\n<" not in section


def test_images_fit_and_are_listed_in_order_once() -> None:
    article = to_article(RICH + "\n![again](https://img.example/cat.png)\n", "notebook")
    assert article.images == ("https://img.example/cat.png", PIXEL)
    root = article_root(article.html)
    for img in root.iter("img"):
        assert "max-width:100%" in img.get("style")
    caption = next(root.iter("img")).getnext()
    assert caption.text == "a cat" and "display:block" in caption.get("style")


def test_rewrite_images_and_draft_content() -> None:
    article = to_article(RICH, "brandA")
    mapping = {
        "https://img.example/cat.png": "https://mmbiz.qpic.cn/x/1",
        PIXEL: "https://mmbiz.qpic.cn/x/2",
    }
    rewritten = rewrite_images(article.html, mapping)
    sources = [img.get("src") for img in parse(rewritten).iter("img")]
    assert sources == ["https://mmbiz.qpic.cn/x/1", "https://mmbiz.qpic.cn/x/2"]
    assert (
        rewritten.replace("https://mmbiz.qpic.cn/x/1", "https://img.example/cat.png").replace(
            "https://mmbiz.qpic.cn/x/2", PIXEL
        )
        == article.html
    )
    content = draft_content(rewritten)
    assert content.startswith("<section") and content.endswith("</section>")
    assert "<body" not in content and "<title" not in content
    assert content == rewritten[rewritten.index("<body>") + 6 : rewritten.index("</body>")]


@pytest.mark.parametrize(
    ("markdown", "words"),
    [
        ("", 0),
        ("中文abc 123，def", 5),
        ("Hello, world! 你好。", 4),
        ("e.g. 3.14 — don't", 6),
        ("```\nfoo bar\n```", 2),
        ("看[链接文字](https://example.com/a/b)", 5),
        ("a[^1] b\n\n[^1]: c d", 4),
        ("ひらがな カタカナ 한국어", 11),
        ("**粗体** _斜体_ `code`", 5),
    ],
)
def test_word_count(markdown: str, words: int) -> None:
    assert to_article(markdown).word_count == words


@pytest.mark.parametrize(
    ("markdown", "title"),
    [
        ("intro line\n\n## The Heading\n\ntext", "The Heading"),
        ("# 一级 **标题**\n\nbody", "一级 标题"),
        ("first line\nsecond line", "first line"),
        ("\n\n  \n", ""),
    ],
)
def test_title(markdown: str, title: str) -> None:
    article = to_article(markdown)
    assert article.title == title
    assert parse(article.html).findtext(".//title") == title


def test_pseudo_elements_become_real_elements() -> None:
    root = article_root(to_article("> quoted\n\n```\ncode\n```", "brandA").html)
    quote = next(root.iter("blockquote"))
    assert quote[0].tag == "section" and quote[0].text == "“"
    assert "font-size:32px" in quote[0].get("style")
    pre = next(root.iter("pre"))
    assert pre[0].text == "●\xa0●\xa0●"


def test_split_pseudo_rules_keeps_the_cascade() -> None:
    css = (
        "p { color: red; }\n"
        'ul > li::before, li.x::after { content: "a" counter(list-item); color: blue; }'
    )
    plain, rules = split_pseudo_rules(css)
    assert plain.strip() == "p { color: red; }"
    assert [(r.where, r.specificity) for r in rules] == [
        ("before", (0, 0, 2)),
        ("after", (0, 1, 1)),
    ]
    assert dict(rules[0].declarations)["content"] == '"a" counter(list-item)'


def test_unknown_theme_names_the_valid_ones() -> None:
    with pytest.raises(UnknownArticleTheme) as raised:
        to_article("x", "nope")
    assert "brandA" in str(raised.value) and "japanese-magazine" in str(raised.value)


def test_the_article_themes_are_listed() -> None:
    assert themes.article_names() == THEMES


@pytest.mark.parametrize("theme", THEMES)
def test_theme_css_uses_only_what_premailer_applies(theme: str) -> None:
    css = apply_brand(themes.article_css(theme), Brand())  # its variables filled in
    for construct in (":not(", ":nth-child(", "var(", "@", ":first-child", ":last-child", ":hover"):
        assert construct not in css, construct
    assert not re.search(r"rgba?\(\s*\d+\s+\d+", css)  # space-separated rgb()
    assert css.count("{") == css.count("}")
    plain, pseudo = split_pseudo_rules(css)
    assert "::" not in plain and pseudo


def test_every_commonmark_example_converts() -> None:
    examples = json.loads((CASES / "commonmark-examples.json").read_text("utf-8"))
    assert len(examples) > 600
    for example in examples:
        article = to_article(example["markdown"], "japanese-magazine")
        article_root(article.html)
        assert "<script" not in article.html and " class=" not in article.html


def test_articles_join_an_editors_hard_wrapped_paragraph_as_cards_do() -> None:
    """Prose wrapped at 80 columns is one paragraph (`layout.parse.hardwraps`); a poem's
    lines stay lines (`breaks`, as md2card)."""
    prose = (
        "For two years I started every day by checking email in bed. By 9 a.m. my attention\n"
        "was already spent on other people's priorities. Here is what finally changed that:\n"
        "not willpower, but a few small, boring systems."
    )
    article = to_article(prose + "\n\n床前明月光\n疑是地上霜")
    assert article.html.count("<br") == 1  # the poem's, not the prose's two
    assert "my attention was already" in article.html
