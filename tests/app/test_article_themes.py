"""The article themes as a set: each styles every element, reads, differs from the others.

Twelve themes (issue 43): the five first ones and one per card family that had none, so a
writer's cards and article match. A theme is data (`src/themes/<name>/article.css`); these
tests hold every theme to the same structure, measure body text contrast from the inlined
CSS (over the theme's own panel where it has one: the dark themes), tell the themes apart,
and keep each theme's article for a rich sample as a golden (`--update-golden` rewrites
tests/golden/articles/; look at what changed).
"""

from __future__ import annotations

import difflib
import itertools
import re
from pathlib import Path

import pytest
from lxml import html as lxml_html

from inkcard import themes
from inkcard.app.articles.convert.brand import Brand, apply_brand, readable_on
from inkcard.app.articles.convert.html import draft_content, to_article
from inkcard.app.articles.convert.themecss import split_pseudo_rules
from inkcard.app.articles.drafts.draftbody import trim_content
from inkcard.app.schema import ARTICLE_THEMES
from inkcard.themes.contrast import ratio
from tests.app.test_article_details import colour, declared, luminance
from tests.conftest import GOLDEN_CHANGES

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "articles"
OUTPUT = Path(__file__).resolve().parents[1] / "_output" / "articles"
THEMES = sorted(ARTICLE_THEMES)
NEW = (
    "apple-notes",
    "art-deco",
    "cyberpunk",
    "darktech",
    "minimalist",
    "traditional-chinese",
    "warm",
)
DARK = ("art-deco", "cyberpunk", "darktech")
PIXEL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/"
    "HwAEAQH/qUeGmgAAAABJRU5ErkJggg=="
)
SAMPLE = f"""# 把 Markdown 排成公众号文章

正文有 **重点**、*强调*、~~删除~~、<mark>标记</mark>、`code`、[链接](https://example.com/a)、
<kbd>Ctrl</kbd> 和公式 $E = mc^2$，实测 21 毫秒[^1]。

## 列表与引用

- 一项
  - 嵌套
- [x] 完成
- [ ] 未完成

1. 第一
2. 第二

> 好的排版让读者忘记排版。

### 提示

> [!NOTE]
> 备注。

> [!TIP]
> 提示。

> [!IMPORTANT]
> 重要。

> [!WARNING]
> 警告。

> [!CAUTION]
> 注意。

#### 表格与代码

| 年份 | 营收 | 增长 |
|---|---:|---:|
| 2023 | 12,101.2 | 11.2% |
| 2024 | 12,345.6 | 11.6% |

```python
def f(x):
    return x + 1  # add
```

$$
\\int_0^1 x^2\\,dx = \\frac{{1}}{{3}}
$$

```mermaid
flowchart LR
  A[写作] --> B[发布]
```

<details>
<summary>细节</summary>

打开的面板。

</details>

![图]({PIXEL})

---

[^1]: 脚注。
"""

# What every theme's own article.css must style (the rest, shared by all, is in
# shared/article-common.css): the structure the first five themes share.
OWN_SELECTORS = (
    ".article",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "p",
    "strong",
    "em",
    "del",
    "s",  # markdown-it's ~~strikethrough~~
    "mark",
    ".link",
    ".fn-ref",
    "code",
    "pre",
    "pre code",
    ".tok-comment",
    ".tok-keyword",
    ".tok-string",
    ".tok-number",
    ".tok-type",
    ".tok-builtin",
    ".tok-function",
    "blockquote",
    "blockquote p",
    "ul",
    "li",
    "ul > li::before",
    "ol > li::before",
    "li.task-open::before",
    "li.task-done::before",
    "li.task-done",
    ".table-wrap",
    "table",
    "th",
    "td",
    ".table-cue",
    ".table-pin",
    "img",
    ".img-caption",
    "hr",
    ".refs",
    ".refs-title",
    ".refs-item",
    ".refs-num",
    ".refs-url",
    "section.alert",
)
# On a dark panel the shared light-page colours would not read: a dark theme restyles them.
DARK_SELECTORS = (
    *(f"section.alert.alert-{kind}" for kind in ("note", "tip", "important", "warning", "caution")),
    *(
        f"section.alert.alert-{kind} p.alert-title"
        for kind in ("note", "tip", "important", "warning", "caution")
    ),
    "section.details",
    "section.details-title",
    "kbd",
    "section.diagram",  # diagrams are drawn for a white page: a light plate
)
_RULE = re.compile(r"([^{}]+)\{[^{}]*\}")


def own_selectors(theme: str) -> set[str]:
    css = (themes.THEMES_DIR / theme / "article.css").read_text("utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)  # test code: theme files are small
    return {
        " ".join(s.split())
        for selectors in _RULE.findall(css)
        for s in selectors.split(",")
        if s.strip() != ":root"
    }


def article(theme: str) -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(to_article(SAMPLE, theme).html).find("body")[0]


def test_twelve_article_themes_one_per_card_family_that_had_none() -> None:
    assert len(ARTICLE_THEMES) >= 12 and len(set(ARTICLE_THEMES)) == len(ARTICLE_THEMES)
    assert sorted(ARTICLE_THEMES) == themes.article_names()
    cards = {p.parent.name for p in themes.THEMES_DIR.glob("*/card.toml")}
    assert set(NEW) <= cards  # each matches a card theme of the same name


@pytest.mark.parametrize("theme", THEMES)
def test_every_theme_styles_every_element(theme: str) -> None:
    missing = [s for s in OWN_SELECTORS if s not in own_selectors(theme)]
    assert not missing, (theme, missing)
    if theme in DARK:
        missing = [s for s in DARK_SELECTORS if s not in own_selectors(theme)]
        assert not missing, (theme, missing)


@pytest.mark.parametrize("theme", THEMES)
def test_every_element_of_a_rich_article_has_its_style(theme: str) -> None:
    root = article(theme)
    assert "font-size:16px" in root.get("style", "")
    tags = ("h1", "h2", "h3", "h4", "p", "strong", "em", "s", "mark", "code", "pre", "kbd")
    tags += ("blockquote", "table", "th", "td", "img", "hr", "section", "sup")
    for tag in tags:
        found = list(root.iter(tag))
        assert found, (theme, tag)
        assert all((el.get("style") or "").strip() for el in found), (theme, tag)
    sections = [el.get("style", "") for el in root.iter("section")]
    assert sum("border-left" in s for s in sections) >= 5  # the five alerts, at least
    assert len(list(root.iter("svg"))) >= 3  # two formulas and a diagram


def grounds(el: lxml_html.HtmlElement) -> list[tuple[float, float, float]]:
    """The opaque colours `el`'s text may lie on: the page (white) under each background
    from the outermost in, a gradient's stops each a possible ground."""
    found: list[tuple[float, float, float]] = [(255.0, 255.0, 255.0)]
    for node in reversed([el, *el.iterancestors()]):
        style = node.get("style")
        image = declared(style, "background-image") or ""
        stops = re.findall(r"#[0-9a-fA-F]{6}|rgba?\([^)]*\)", image)
        fill = declared(style, "background-color")
        layers = [fill] if fill else []
        if stops:
            found = [colour(stop, g) for stop in stops for g in found]
        elif layers:
            found = [colour(layers[0], g) for g in found]
    return found


def text_colour(el: lxml_html.HtmlElement) -> str:
    for node in [el, *el.iterancestors()]:
        value = declared(node.get("style"), "color")
        if value and value not in ("inherit", "currentColor"):
            return value
    return "#000000"


def worst_contrast(el: lxml_html.HtmlElement) -> float:
    return min(
        ratio(luminance(colour(text_colour(el), ground)), luminance(ground))
        for ground in grounds(el)
    )


@pytest.mark.parametrize("theme", THEMES)
def test_body_text_reads_at_4_5_to_1_on_its_ground(theme: str) -> None:
    """Paragraphs, list items, cells, quotes, alerts, panels and code, each against every
    ground under it (a dark theme's panel, a gradient's stops), from the inlined CSS."""
    root = article(theme)
    checked = 0
    for el in root.iter("p", "li", "td", "th", "code"):
        if not (el.text or "").strip() or el.getparent().tag == "sup":
            continue
        checked += 1
        assert worst_contrast(el) >= 4.5, (theme, el.tag, el.text, text_colour(el), grounds(el))
    assert checked >= 15


@pytest.mark.parametrize("theme", NEW)
def test_the_new_themes_headings_and_small_print_read_too(theme: str) -> None:
    """Headings at 3:1 (large text), captions, references and the alerts' titles at 4.5:1."""
    root = article(theme)
    for el in root.iter("h1", "h2", "h3", "h4"):
        assert worst_contrast(el) >= 3, (theme, el.tag)
    # words, not ornaments (a quote mark, a "##", a ❀ are drawn, not read)
    small = [el for el in root.iter("p", "section", "span") if re.search(r"\w\w", el.text or "")]
    for el in small:
        assert worst_contrast(el) >= 4.5, (theme, el.tag, el.text)


@pytest.mark.parametrize("theme", DARK)
def test_a_dark_theme_is_one_dark_panel_with_formulas_in_its_ink_and_diagrams_on_a_plate(
    theme: str,
) -> None:
    """WeChat shows an article on white (or recolours it in dark mode): the whole article
    is one dark panel; formulas (`currentColor`) take its light ink; a diagram, drawn for a
    white page, lies on a light plate."""
    root = article(theme)
    panel = colour(declared(root.get("style"), "background-color") or "#ffffff", (255,) * 3)
    assert luminance(panel) < 0.05
    assert luminance(colour(text_colour(root), panel)) > 0.4
    formula = next(
        svg for svg in root.iter("svg") if "currentColor" in lxml_html.tostring(svg).decode()
    )
    assert worst_contrast(formula.getparent()) >= 4.5
    diagram = next(svg for svg in root.iter("svg") if svg.getparent().tag == "section")
    plate = declared(diagram.getparent().get("style"), "background-color")
    assert plate and luminance(colour(plate, panel)) > 0.8, theme


@pytest.mark.parametrize("theme", THEMES)
def test_a_themes_head_ornament_leaves_the_drafts_title_heading_to_drop(theme: str) -> None:
    """A draft shows its title itself: the article's h1 goes, even under the theme's
    ornament (the Notes header, a frieze, a console label), which is a span, not text."""
    content = draft_content(to_article(SAMPLE, theme).html)
    assert "<h1" in content
    assert "<h1" not in trim_content(content, drop_heading=True, skipped=set())


KEY_ELEMENTS = ("h1", "h2", "h3", "blockquote", "pre", "th", "hr", "img", "strong", "code")


def looks(theme: str) -> dict[str, str]:
    root = article(theme)
    out = {"article": root.get("style", "")}
    for tag in KEY_ELEMENTS:
        out[tag] = next(root.iter(tag)).get("style", "")
    ordered = next(el for el in root.iter("section") if (el.text_content() or "").startswith("1"))
    out["ol-marker"] = ordered[0].get("style", "") if len(ordered) else ""
    return out


def test_the_themes_are_distinct() -> None:
    """Every two themes differ in most key elements' styles and in their palette: the
    body's colour, its ground and the first heading's colour."""
    seen = {theme: looks(theme) for theme in THEMES}
    palettes = {}
    for theme, style in seen.items():
        body = declared(style["article"], "color")
        ground = declared(style["article"], "background-color") or "#ffffff"
        palettes[theme] = (body, ground, declared(style["h2"], "color"))
    assert len(set(palettes.values())) == len(THEMES), palettes
    for a, b in itertools.combinations(THEMES, 2):
        same = [key for key in seen[a] if seen[a][key] == seen[b][key]]
        assert len(same) <= 2, (a, b, same)


@pytest.mark.parametrize("theme", THEMES)
def test_theme_css_is_flat_and_premailer_ready(theme: str) -> None:
    css = apply_brand(themes.article_css(theme), Brand())
    for construct in ("var(", "@", "position", "!important", "url(", "expression(", "{ code"):
        assert construct not in css, (theme, construct)
    plain, pseudo = split_pseudo_rules(css)
    assert "::" not in plain and pseudo


@pytest.mark.parametrize("theme", THEMES)
def test_golden_article(request: pytest.FixtureRequest, theme: str) -> None:
    """The sample's article HTML in each theme, as it was when last looked at."""
    actual = to_article(SAMPLE, theme).html.replace("><", ">\n<")  # a line a tag: readable diffs
    path = GOLDEN / f"{theme}.html"
    expected = path.read_text("utf-8") if path.exists() else None
    if actual == expected:
        return
    if request.config.getoption("--update-golden"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        verdict = "changed" if expected is not None else "added"
        request.config.stash[GOLDEN_CHANGES].append((verdict, f"articles/{path.name}"))
        path.write_text(actual, "utf-8")
        return
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / path.name).write_text(actual, "utf-8")
    diff = difflib.unified_diff(
        (expected or "").splitlines(), actual.splitlines(), lineterm="", n=0
    )
    first = "\n".join(itertools.islice(diff, 12))
    pytest.fail(f"{path.name} differs (actual in {OUTPUT}; --update-golden rewrites):\n{first}")


@pytest.mark.parametrize("colour", ["#000000", "#7b2d8e", "#0a3d62", "navy"])
@pytest.mark.parametrize("theme", DARK)
def test_a_brand_colour_on_a_dark_panel_is_lightened_to_read_there(theme: str, colour: str) -> None:
    ground = re.search(r"--ground:\s*(#[0-9a-f]{6})", themes.article_css(theme))
    assert ground, theme  # a dark theme declares its panel
    lifted = readable_on(colour, ground.group(1))
    panel = colour_of(ground.group(1))
    assert ratio(luminance(colour_of(lifted)), luminance(panel)) >= 4.5, (colour, lifted)
    css = apply_brand(themes.article_css(theme), Brand(colour))
    assert lifted in css and f"background-color: {ground.group(1)}" in css  # the panel stays


def colour_of(value: str) -> tuple[float, float, float]:
    return colour(value, (255.0, 255.0, 255.0))
