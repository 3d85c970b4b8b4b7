"""A writer's raw HTML and links as WeChat can show them: `<details>` an open titled panel,
`<kbd>` a key cap, a link whose address went to the references an emphasised word with its
number, bare addresses listed too, and a highlighter gradient with a solid colour under it.
The tree in every theme, then headless Chromium at 375 px (screenshots in tests/_output/)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from lxml import html as lxml_html
from playwright.sync_api import Browser

from inkcard import themes
from inkcard.app.articles.convert.html import to_article
from tests.app.test_playground import OUTPUT, browser  # noqa: F401  # the module's browser

THEMES = ["brandA", "brandB", "business", "japanese-magazine", "notebook"]
DETAILS = (
    "<details>\n<summary>点击展开：实现细节</summary>\n\n里面的 **正文**。\n\n- 一\n- 二\n\n"
    "</details>\n"
)
KEYS = "按 <kbd>Ctrl</kbd> + <kbd>C</kbd> 复制。\n"
LINKS = (
    "参见 [官方文档](https://docs.example.com/guide)，或访问 https://example.com/a 与"
    ' www.example.org，邮件 <a href="mailto:a@b.com">a@b.com</a>，'
    "[公众号文章](https://mp.weixin.qq.com/s/abc)。\n"
)


def root_of(markdown: str, theme: str = "brandA") -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(to_article(markdown, theme).html).find("body")[0]


def declared(style: str | None, name: str) -> str | None:
    """The value an inline style gives a property last (the one that wins)."""
    found = re.findall(rf"(?:^|;)\s*{name}\s*:\s*([^;]+)", style or "")
    return found[-1].strip() if found else None


def primary(theme: str) -> str:
    found = re.search(r"--primary:\s*(#[0-9a-fA-F]{6})", themes.article_css(theme))
    assert found is not None
    return found.group(1).lower()


def short_hex(colour: str) -> set[str]:
    """`#rrggbb` and the `#rgb` premailer may write for it."""
    c = colour.lower()
    short = f"#{c[1]}{c[3]}{c[5]}" if c[1] == c[2] and c[3] == c[4] and c[5] == c[6] else c
    return {c, short}


# <details>


@pytest.mark.parametrize("theme", THEMES)
def test_details_is_an_open_panel_titled_by_its_summary(theme: str) -> None:
    root = root_of(DETAILS, theme)
    assert root.find(".//details") is None and root.find(".//summary") is None
    (panel,) = [s for s in root.iter("section") if len(s) and "点击展开" in s[0].text_content()][
        -1:
    ]
    title = panel[0]
    assert title.tag == "section" and title.text_content().endswith("点击展开：实现细节")
    assert title.text_content().startswith("▾")  # open, as a browser marks an open one
    assert "正文" in panel.text_content() and "二" in panel.text_content()
    style = panel.get("style")
    assert declared(style, "border") or declared(style, "border-top")
    assert declared(style, "background-color")
    if theme != "japanese-magazine":  # its panel's title is black ink, its marker red
        assert declared(title.get("style"), "color") in short_hex(primary(theme))
    assert declared(title.get("style"), "font-weight") == "700"


def test_a_details_without_summary_gets_the_browsers_word_and_stray_summaries_are_words() -> None:
    assert root_of("<details>\n\nbody\n\n</details>\n")[0][0].text_content().endswith("Details")
    assert root_of("<details>\n\n正文\n\n</details>\n")[0][0].text_content().endswith("详情")
    stray = root_of("a <summary>lonely</summary> b\n")
    assert stray.find(".//summary") is None and "lonely" in stray.text_content()


def test_a_summary_after_text_still_titles_the_panel_and_nothing_is_lost() -> None:
    panel = root_of("<details>before<summary>T</summary>after</details>\n")[0]
    assert panel[0].text_content().endswith("T")
    assert panel.text_content().endswith("Tbeforeafter")


# <kbd>


@pytest.mark.parametrize("theme", THEMES)
def test_kbd_is_a_key_cap(theme: str) -> None:
    kbd = next(root_of(KEYS, theme).iter("kbd"))
    style = kbd.get("style")
    assert "1px solid" in (declared(style, "border") or "")
    assert declared(style, "border-radius") == "4px"
    assert declared(style, "background-color") == "#f6f8fa"
    assert "monospace" in (declared(style, "font-family") or "")
    assert declared(style, "padding") == "0 6px"


# links and references


@pytest.mark.parametrize("theme", THEMES)
def test_a_link_sent_to_the_references_reads_as_an_emphasised_word(theme: str) -> None:
    paragraph = root_of(LINKS, theme).find(".//p")
    word = next(s for s in paragraph.iter("span") if s.text_content() == "官方文档")
    style = word.get("style")
    assert declared(style, "color") == "inherit" and declared(style, "border-bottom") == "0"
    assert declared(style, "font-weight") == "600"
    mark = word.getnext()
    assert mark.tag == "sup" and mark.text == "[1]"
    mail = next(s for s in paragraph.iter("span") if s.text_content() == "a@b.com")
    assert mail.get("style") is None  # opens nothing: plain words
    wechat = next(a for a in paragraph.iter("a"))
    assert wechat.get("href") == "https://mp.weixin.qq.com/s/abc"  # a real link, its look


def test_bare_addresses_in_prose_are_listed_too() -> None:
    article = to_article(LINKS)
    root = lxml_html.document_fromstring(article.html).find("body")[0]
    marks = [sup.text for sup in root.find(".//p").iter("sup")]
    assert marks == ["[1]", "[2]", "[3]"]
    listed = [item.text_content() for item in root[-1][1:]]
    assert listed == [
        "[1]官方文档: https://docs.example.com/guide",
        "[2]https://example.com/a",
        "[3]http://www.example.org",
    ]
    assert article.linked == 3
    assert root.text_content().count("https://example.com/a") == 2  # the prose, the list


@pytest.mark.parametrize(
    ("markdown", "prose", "listed"),
    [
        ("访问https://example.com/a获取更多。", "访问https://example.com/a[1]获取更多。",
         "https://example.com/a"),
        ("见 www.example.org/x，再见", "见 www.example.org/x[1]，再见", "http://www.example.org/x"),
        ("(see https://a.com/b).", "(see https://a.com/b[1]).", "https://a.com/b"),
        ("地址 <https://a.com/路径> 完", "地址 https://a.com/路径[1] 完", "https://a.com/路径"),
        ("[链接](https://a.com/路径?q=%20)", "链接[1]", "链接: https://a.com/路径?q=%20"),
    ],
)  # fmt: skip
def test_a_bare_address_ends_where_chinese_begins_and_is_listed_readably(
    markdown: str, prose: str, listed: str
) -> None:
    root = root_of(markdown)
    assert root[0].text_content() == prose
    assert [item.text_content() for item in root[-1][1:]] == [f"[1]{listed}"]


# the highlighter's fallback


@pytest.mark.parametrize("theme", ["brandA", "japanese-magazine", "notebook"])
def test_a_highlighter_gradient_has_a_solid_colour_under_it(theme: str) -> None:
    style = next(root_of("a **bold** word", theme).iter("strong")).get("style")
    assert "linear-gradient" in (declared(style, "background-image") or "")
    assert (declared(style, "background-color") or "").startswith("rgba(")
    assert style.index("background-color") < style.index("background-image")


# in a browser at a phone's width

SAMPLE = f"# 标题\n\n{KEYS}\n{DETAILS}\n{LINKS}\n这是 **加粗的重点** 文字。\n"
MEASURE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const css = (el) => getComputedStyle(el);
  const panel = [...document.querySelectorAll("section")]
    .filter((s) => s.firstElementChild && s.firstElementChild.textContent.includes("点击展开"))
    .pop();
  const item = [...panel.querySelectorAll("section")].find((s) => s.textContent === "二");
  const kbd = document.querySelector("kbd");
  const word = [...document.querySelectorAll("p span")].find((s) => s.textContent === "官方文档");
  const strong = document.querySelector("strong");
  return {
    column: box(document.body.firstElementChild).right,
    panel: { left: box(panel).left, right: box(panel).right, border: css(panel).borderTopWidth },
    titleColour: css(panel.firstElementChild).color,
    itemHeight: item ? box(item).height : 0,
    kbd: { border: css(kbd).borderTopWidth, radius: css(kbd).borderTopLeftRadius,
           font: css(kbd).fontFamily, height: box(kbd).height },
    word: { colour: css(word).color, paragraph: css(word.parentElement).color,
            line: css(word).borderBottomStyle, decoration: css(word).textDecorationLine,
            weight: css(word).fontWeight },
    strong: css(strong).backgroundColor,
    scrolls: document.documentElement.scrollWidth > window.innerWidth,
  };
}"""


def rgb(colour: str) -> str:
    return "rgb({}, {}, {})".format(*(int(colour[i : i + 2], 16) for i in (1, 3, 5)))


@pytest.mark.parametrize("theme", THEMES)
def test_panels_keys_and_reference_words_at_375_px(browser: Browser, theme: str) -> None:  # noqa: F811
    page = browser.new_page(viewport={"width": 375, "height": 1000})
    html = to_article(SAMPLE, theme).html.replace(
        "<head>", "<head><style>body{margin:0 16px}</style>"
    )
    page.set_content(html)
    found: dict[str, Any] = page.evaluate(MEASURE)
    page.screenshot(path=str(OUTPUT / f"article-raw-html-{theme}.png"), full_page=True)
    page.close()
    assert not found["scrolls"]
    assert found["panel"]["left"] >= 16 and found["panel"]["right"] <= 375 - 16 + 0.5
    assert found["panel"]["border"] != "0px"
    if theme != "japanese-magazine":
        assert found["titleColour"] == rgb(primary(theme))
    assert found["itemHeight"] > 10  # open: its body is laid out, not folded away
    assert found["kbd"]["border"] == "1px" and found["kbd"]["radius"] == "4px"
    assert "Menlo" in found["kbd"]["font"] and found["kbd"]["height"] < 30
    word = found["word"]
    assert word["colour"] == word["paragraph"] and word["line"] == "none"
    assert word["decoration"] == "none" and word["weight"] == "600"
    if theme in ("brandA", "japanese-magazine", "notebook"):
        assert found["strong"] != "rgba(0, 0, 0, 0)"
