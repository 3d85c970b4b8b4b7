"""A writer's own styling on an article: ``css``, ``codeTheme``, ``indent`` and ``justify``.

Each option changes the right elements' inline style and no other; the writer's CSS wins
over the theme's and the code theme's, and loses to a style written inline in the Markdown;
what the CSS may not do (``url(javascript:…)``, ``position: fixed``, ``@import``,
``behavior``, ``expression()``, ``::before``, ``:hover``) is named in the warnings and never
reaches the HTML; a sheet too large or an unknown code theme is a 400 that charges nothing.
Over HTTP, over MCP (stdio), and in Chromium at 375 px (``tests/_output/styling-*.png``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from lxml import html as lxml_html
from playwright.sync_api import Browser

from inkcard.app.articles.convert.html import to_article
from inkcard.app.articles.convert.style import Styling
from inkcard.app.schema import (
    ARTICLE_THEMES,
    CODE_THEMES,
    CSS_LIMIT,
    CSS_RULE_LIMIT,
    ArticleToolArguments,
    tool_schema,
)
from inkcard.layout.parse import clean_style
from inkcard.themes.codethemes import CODE_THEMES as CODE_THEME_COLOURS
from tests.app.test_convert_and_draft import Service, assert_error, service, start
from tests.app.test_mcp import Stdio, run, stdio, text_of
from tests.app.test_playground import OUTPUT, browser
from tests.conftest import GOLDEN_CHANGES

__all__ = ["browser", "service", "start", "stdio"]  # the fixtures, shared

PIXEL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQ"
    "GAhKmMIQAAAABJRU5ErkJggg=="
)
FIRST = (  # one line: the article keeps a Markdown line break as <br>
    "The first paragraph of the body runs long enough to wrap at a phone's width, twice at"
    " least, so that its first line and its justified edge can both be seen and measured."
)
POST = f"""\
# Title

{FIRST}

- an item of a list
- another item

> a quote's paragraph

![a picture]({PIXEL})

| a | b |
|---|---|
| 1 | 2 |

A second paragraph with <span style="color:#123456">a span styled inline</span>.

```python
def f(x):  # a comment
    return "text" + 1
```
"""


def body_of(html: str) -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(html).find("body")[0]


def effective(el: lxml_html.HtmlElement, prop: str) -> str | None:
    """The value of ``prop`` in the element's inline style that applies: the last one."""
    found = None
    for part in (el.get("style") or "").split(";"):
        name, _, value = part.partition(":")
        if name.strip() == prop:
            found = value.strip()
    return found


def paragraphs(html: str) -> dict[str, lxml_html.HtmlElement]:
    """The article's paragraphs by their first words."""
    return {" ".join(p.text_content().split()[:2]): p for p in body_of(html).iter("p")}


def test_indent_and_justify_set_the_bodys_paragraphs_only() -> None:
    plain = paragraphs(to_article(POST).html)
    styled = paragraphs(to_article(POST, styling=Styling(indent=True, justify=True)).html)
    body = ("The first", "A second")
    others = ("a quote's", "a picture")
    for key in body:
        assert effective(styled[key], "text-indent") == "2em"
        assert effective(styled[key], "text-align") == "justify"
        assert effective(plain[key], "text-indent") is None
    for key in others:  # a list's, a quote's, an image's paragraph: none of it
        assert effective(styled[key], "text-indent") is None, key
        assert effective(styled[key], "text-align") != "justify", key
    html = to_article(POST, styling=Styling(indent=True, justify=True)).html
    assert html.count("text-indent:2em") == html.count("text-align:justify") == len(body)
    only = paragraphs(to_article(POST, styling=Styling(justify=True)).html)
    assert effective(only["The first"], "text-indent") is None


@pytest.mark.parametrize("name", CODE_THEMES)
def test_a_code_theme_colours_the_code_blocks_and_nothing_else(name: str) -> None:
    colours = CODE_THEME_COLOURS[name]
    plain = body_of(to_article(POST).html)
    root = body_of(to_article(POST, styling=Styling(code_theme=name)).html)
    [pre] = root.iter("pre")
    assert effective(pre, "background") == colours.background
    assert effective(pre, "color") == colours.text
    spans = {" ".join(s.text_content().split()): s for s in pre.iter("span")}
    assert effective(spans["def"], "color") == colours.keyword
    assert effective(spans['"text"'], "color") == colours.string
    assert effective(spans["# a comment"], "color") == colours.comment
    assert effective(spans["1"], "color") == colours.number
    [plain_pre] = plain.iter("pre")
    assert effective(plain_pre, "background") is None
    # everything outside the code block is as the theme has it
    for a, b in zip(
        plain.iter("p", "h1", "blockquote", "td"),
        root.iter("p", "h1", "blockquote", "td"),
        strict=True,
    ):
        assert a.get("style") == b.get("style")


GOLDEN_CODE = Path(__file__).resolve().parents[1] / "golden" / "code-themes"
CODE = """\
```python
@dataclass
class Card:
    \"\"\"A card.\"\"\"
    title: str = "标题"  # 注释
    def render(self, size: int = 16) -> bytes:
        return len(self.title) * 2 + size
```

```js
const add = (a, b) => a + b; // sum
console.log(add(1, 2.5), "done");
```
"""


@pytest.mark.parametrize("name", CODE_THEMES)
def test_each_code_theme_matches_its_golden(name: str, request: pytest.FixtureRequest) -> None:
    """The code blocks' HTML in brandA with the theme (tests/golden/code-themes/<name>.html;
    the screenshots of docs/articles-styling.md were taken of it)."""
    root = body_of(to_article(CODE, styling=Styling(code_theme=name)).html)
    actual = "\n".join(lxml_html.tostring(pre, encoding="unicode") for pre in root.iter("pre"))
    path = GOLDEN_CODE / f"{name}.html"
    if request.config.getoption("--update-golden"):
        if not path.exists() or path.read_text("utf-8") != actual + "\n":
            verdict = "changed" if path.exists() else "added"
            GOLDEN_CODE.mkdir(parents=True, exist_ok=True)
            path.write_text(actual + "\n", "utf-8")
            request.config.stash[GOLDEN_CHANGES].append((verdict, f"code-themes/{path.name}"))
        return
    assert path.exists(), f"no golden {path.name}: after looking, --update-golden"
    assert actual + "\n" == path.read_text("utf-8"), f"{path.name} differs"


@pytest.mark.parametrize("name", CODE_THEMES)
def test_a_styled_element_names_each_property_once(name: str) -> None:
    """The theme's token colour, then the code theme's, read ``color:#fa2c19;color:#1c01ce``:
    the HTML keeps only the declaration that wins."""
    root = body_of(to_article(CODE, styling=Styling(code_theme=name, indent=True)).html)
    for el in root.iter():
        names = [d.split(":", 1)[0].strip() for d in (el.get("style") or "").split(";") if d]
        assert len(names) == len(set(names)), (el.tag, el.get("style"))


def test_the_code_themes_are_at_least_eight_and_distinct() -> None:
    assert len(CODE_THEMES) >= 8
    looks = {(c.background, c.keyword, c.string) for c in CODE_THEME_COLOURS.values()}
    assert len(looks) == len(CODE_THEMES)


def test_the_writers_css_wins_over_the_theme_and_the_code_theme() -> None:
    css = (
        "h1 { color: #aa0000; font-size: 30px }\n"
        "blockquote p, td { color: rgb(0 0 170); }\n"
        "pre { background: #fafafa; border-radius: 0 }\n"
        ".tok-keyword { color: #00aa00 }\n"
        "p { line-height: 2 }\n"
        "span { color: #999999 }\n"
    )
    root = body_of(to_article(POST, styling=Styling(css=css, code_theme="monokai")).html)
    [h1] = root.iter("h1")
    assert (effective(h1, "color"), effective(h1, "font-size")) == ("#aa0000", "30px")
    quote = next(p for p in root.iter("p") if "quote" in p.text_content())
    assert effective(quote, "color") == "#0000aa"
    assert all(effective(td, "color") == "#0000aa" for td in root.iter("td"))
    [pre] = root.iter("pre")
    assert effective(pre, "background") == "#fafafa"  # over monokai's #272822
    keyword = next(s for s in pre.iter("span") if s.text_content() == "def")
    assert effective(keyword, "color") == "#00aa00"
    assert all(effective(p, "line-height") == "2" for p in root.iter("p"))
    inline = next(s for s in root.iter("span") if s.text_content() == "a span styled inline")
    assert effective(inline, "color") == "#123456"  # written inline in the Markdown: it wins
    plain_h1 = next(body_of(to_article(POST).html).iter("h1"))
    assert effective(plain_h1, "color") != "#aa0000"


HOSTILE = """\
@import url(https://evil.example/x.css);
@media screen { p { color: red } }
p { background: url(javascript:alert(1)); position: fixed; color: #222222 }
h2 { behavior: url(x.htc); color: expression(alert(1)); top: 0 }
a::before { color: red }
a:hover { color: red }
img { background-image: url("https://tracker.example/p.gif"); border-radius: 12px }
svg|a, [ns|href] { color: red }
"""


def test_refused_css_is_listed_and_never_reaches_the_html() -> None:
    article = to_article(
        "# Hi\n\n## Part\n\ntext [a](https://x.example)", styling=Styling(css=HOSTILE)
    )
    refused = "\n".join(article.refused_css)
    for part in ("@import", "@media", "position", "behavior", "expression", "top", "::before",
                 ":hover", "background-image", "background", "svg|a", "[ns|href]"):  # fmt: skip
        assert part in refused, part
    html = article.html.lower()
    for bad in ("javascript", "evil.example", "tracker.example", "expression", "behavior",
                "position:fixed", "x.htc", "url("):  # fmt: skip
        assert bad not in html, bad
    p = next(p for p in body_of(article.html).iter("p"))
    assert effective(p, "color") == "#222222"  # the rule's allowed declaration still applies


def test_a_bad_url_token_is_refused_in_any_inline_style() -> None:
    # tinycss2 reads url(javascript:alert(1)) as a bad-url token, once serialised "url([bad url])"
    assert clean_style("background:url(javascript:alert(1));color:red") == "color:#ff0000"


def test_the_options_over_http_and_the_warnings(service: Service) -> None:
    key, prefix = service.key(10)
    body = {
        "markdown": POST,
        "css": HOSTILE,
        "codeTheme": "dracula",
        "indent": True,
        "justify": True,
    }
    response = service.post(key, body, draft=False)
    assert response.status_code == 200, response.text
    answer = response.json()
    refused = [w["message"] for w in answer["warnings"] if w["code"] == "css_refused"]
    assert any("@import" in m for m in refused) and any("position" in m for m in refused)
    html = answer["html"]
    assert "#282a36" in html and "text-indent:2em" in html and "javascript" not in html
    assert service.balance(prefix) == 10 - answer["cost"]
    themes = httpx.get(service.base + "/api/themes", timeout=30).json()
    assert themes["codeThemes"] == list(CODE_THEMES) and themes["articles"]


BAD: list[tuple[dict[str, Any], str, str]] = [
    ({"css": "p{}" + " " * CSS_LIMIT}, "invalid_css", "20,000"),
    ({"css": "p{color:red}" * (CSS_RULE_LIMIT + 1)}, "invalid_css", "200 rules"),
    ({"css": 5}, "invalid_css", "CSS"),
    ({"codeTheme": "solarised"}, "invalid_code_theme", "solarized-light"),
    ({"indent": "yes"}, "invalid_indent", "true or false"),
    ({"justify": 1}, "invalid_justify", "true or false"),
    ({"codetheme": "nord"}, "unknown_field", "codeTheme"),
]


@pytest.mark.parametrize(("extra", "label", "said"), BAD)
def test_bad_options_are_400_free(
    service: Service, extra: dict[str, Any], label: str, said: str
) -> None:
    key, prefix = service.key(10)
    body = assert_error(service.post(key, {"markdown": "# Hi", **extra}, draft=False), 400, label)
    assert said in body["message"]
    assert service.balance(prefix) == 10


def test_the_mcp_tool_takes_the_options(stdio: Stdio) -> None:
    properties = tool_schema(ArticleToolArguments, ARTICLE_THEMES)["properties"]
    assert properties["codeTheme"]["enum"] == ["", *CODE_THEMES]
    assert properties["css"]["maxLength"] == CSS_LIMIT
    assert properties["indent"]["type"] == properties["justify"]["type"] == "boolean"

    async def scenario() -> None:
        async with stdio.session() as session:
            styled = await session.call_tool(
                "convert_article",
                {
                    "markdown": POST,
                    "codeTheme": "nord",
                    "justify": True,
                    "css": "h1 { color: #aa0000 } p { position: fixed }",
                },
            )
            listed = await session.call_tool("list_themes", {})
        body = text_of(styled)
        assert body["success"] is True, body
        assert "#2e3440" in body["html"] and "text-align:justify" in body["html"]
        assert "#aa0000" in body["html"] and "fixed" not in body["html"]
        assert [w["code"] for w in body["warnings"]].count("css_refused") == 1
        assert text_of(listed)["codeThemes"] == list(CODE_THEMES)

    run(scenario)


PHONE = {"width": 375, "height": 900}
WECHAT_MARGINS = "body { margin: 0 16px; }"
LINES = """(p) => {
  const range = document.createRange();
  range.selectNodeContents(p);
  const box = p.getBoundingClientRect();
  const style = getComputedStyle(p);
  const rects = [...range.getClientRects()];
  const tops = [...new Set(rects.map((r) => Math.round(r.top)))].sort((a, b) => a - b);
  const line = (top) => rects.filter((r) => Math.round(r.top) === top);
  const edges = tops.map((top) => ({
    left: Math.min(...line(top).map((r) => r.left)) - box.left - parseFloat(style.paddingLeft),
    right: box.right - parseFloat(style.paddingRight) - Math.max(...line(top).map((r) => r.right)),
  }));
  return {edges, fontSize: parseFloat(style.fontSize)};
}"""


def _measure(browser: Browser, styling: Styling, name: str) -> dict[str, Any]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_content(to_article(POST, "brandA", styling=styling).html)
    page.add_style_tag(content=WECHAT_MARGINS)
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=OUTPUT / f"styling-{name}.png", full_page=True)
    first = page.locator("p", has_text="The first paragraph")
    measured: dict[str, Any] = first.evaluate(LINES)
    context.close()
    return measured


def test_indent_and_justify_in_chromium_at_375_px(browser: Browser) -> None:
    plain = _measure(browser, Styling(), "plain")
    styled = _measure(browser, Styling(indent=True, justify=True), "indent-justify")
    assert len(styled["edges"]) >= 3 and len(plain["edges"]) >= 3
    em = styled["fontSize"]
    # the first line starts 2em in, the next ones at the column's edge
    assert styled["edges"][0]["left"] == pytest.approx(2 * em, abs=1.5)
    assert styled["edges"][1]["left"] == pytest.approx(0, abs=1)
    assert plain["edges"][0]["left"] == pytest.approx(0, abs=1)
    # justified: every line but the last reaches the right edge; ragged without it
    assert all(e["right"] < 1.5 for e in styled["edges"][:-1]), styled
    assert any(e["right"] > 4 for e in plain["edges"][:-1])
