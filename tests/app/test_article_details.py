"""Small article details a reader notices: code in heading pills, inline icons, code's letter
spacing, math's size beside the words, notebook's bold, and the table pass's estimates."""

from __future__ import annotations

import re

import pytest
from lxml import html as lxml_html

from inkcard.app.articles.convert.html import to_article
from inkcard.app.articles.convert.tables import char_em
from inkcard.app.articles.convert.units import NOWRAP
from inkcard.app.schema import ARTICLE_THEMES
from inkcard.themes.contrast import ratio

THEMES = sorted(ARTICLE_THEMES)  # every article theme, in the order themes.article_names gives
ICON = "https://img.example/icon.png"
BODY_SIZE = 16.0  # px: the themes' body text


def root_of(markdown: str, theme: str) -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(to_article(markdown, theme).html).find("body")[0]


def declared(style: str | None, name: str) -> str | None:
    """The value an inline style gives a property last (the one that wins)."""
    found = re.findall(rf"(?:^|;)\s*{name}\s*:\s*([^;]+)", style or "")
    return found[-1].strip() if found else None


def colour(value: str, under: tuple[float, float, float]) -> tuple[float, float, float]:
    """An opaque RGB of a `#rgb`, `#rrggbb`, `rgba(...)` or `transparent` value laid over
    `under`."""
    if value == "transparent":
        return under
    if re.fullmatch(r"#[0-9a-fA-F]{3}", value):
        value = "#" + "".join(c * 2 for c in value[1:])
    if value.startswith("#"):
        return tuple(int(value[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]
    r, g, b, *alpha = (float(v) for v in re.findall(r"[\d.]+", value))
    a = alpha[0] if alpha else 1.0
    return (r * a + under[0] * (1 - a), g * a + under[1] * (1 - a), b * a + under[2] * (1 - a))


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("theme", THEMES)
def test_inline_code_reads_at_4_5_to_1_in_heading_pills_and_text(theme: str) -> None:
    root = root_of("## 标题里有 `code` 代码\n\n### and `here`\n\nbody `code`\n", theme)
    for heading in root.iter("h2", "h3", "p"):
        code = next(heading.iter("code"))
        grounds = (declared(el.get("style"), "background-color") for el in heading.iterancestors())
        page = next((g for g in grounds if g), "#ffffff")  # a dark theme's panel, else white
        own = declared(heading.get("style"), "background-color") or "transparent"
        ground = colour(own, colour(page, (255,) * 3))
        panel = colour(declared(code.get("style"), "background-color") or "transparent", ground)
        text = colour(declared(code.get("style"), "color") or "#000000", panel)
        assert ratio(luminance(text), luminance(panel)) >= 4.5, (theme, heading.tag)


@pytest.mark.parametrize("theme", THEMES)
def test_an_icon_inside_a_sentence_stays_in_the_line(theme: str) -> None:
    sentence = f"点击 ![设置]({ICON}) 按钮，再 ![保存]({ICON}) 一下"
    root = root_of(f"{sentence}\n\n![a photo]({ICON})\n", theme)
    first, second = root.findall("p")
    icons = first.findall("img")
    assert len(icons) == 2 and first.text_content() == "点击  按钮，再  一下"
    for icon in icons:
        assert declared(icon.get("style"), "display") == "inline-block"
    photo = second.find("img")  # an image alone in its paragraph keeps its block and caption
    assert declared(photo.get("style"), "display") == "block"
    assert photo.getnext().text == "a photo"


@pytest.mark.parametrize("theme", THEMES)
def test_code_resets_the_bodys_letter_spacing(theme: str) -> None:
    root = root_of("text with `inline` code\n\n```python\nx = 1\n```\n", theme)
    assert declared(root.get("style"), "letter-spacing") not in (None, "0")
    for code in root.iter("code", "pre"):
        assert declared(code.get("style"), "letter-spacing") == "0", code.tag


def test_math_matches_the_height_of_the_words_around_it() -> None:
    """The formula `x` is as tall as the x of the phone's body fonts (0.52 em or more)."""
    root = root_of("the value $x$ here", "brandA")
    svg = next(root.iter("svg"))
    assert float(svg.get("height")) >= 0.52 * BODY_SIZE


def test_notebook_bold_is_not_a_spell_check_squiggle() -> None:
    strong = next(root_of("a **bold** word", "notebook").iter("strong"))
    assert "wavy" not in strong.get("style")
    assert declared(strong.get("style"), "font-weight") == "600"


def test_numbers_keep_their_units_and_widths_follow_character_classes() -> None:
    root = root_of("| a | b |\n|---|---|\n| 耗时 21 毫秒，内存 128 MB | 20% |\n", "brandA")
    glued = [span.text for span in root.iter("span") if span.get("style") == NOWRAP]
    assert glued == ["21 毫秒", "128 MB"]  # "20%" never breaks: no span needed
    assert char_em("毫") == 1.0 and char_em("M") > char_em("a") > char_em("i")


def test_numbers_keep_their_units_in_prose_and_code_stays_as_written() -> None:
    """Every paragraph, list item and heading, not only tables; a number alone, a longer
    word after it and code are left as they are."""
    root = root_of(
        "## 延迟 21 毫秒\n\n耗时21毫秒，内存 3.5 GB，价格 ¥ 25，或 ¥25，100 ms 内，"
        "3 apples，版本 v1.2 ms，`42 ms`\n\n- 共 8 个\n",
        "notebook",
    )
    glued = [span.text for span in root.iter("span") if span.get("style") == NOWRAP]
    assert glued == ["21 毫秒", "21毫秒", "3.5 GB", "¥ 25", "100 ms", "8 个"]


def test_a_wide_table_gets_its_cue_in_the_articles_language() -> None:
    wide = "| " + " | ".join(f"column {n}" for n in range(8)) + " |\n|" + "---|" * 8 + "\n"
    narrow = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    root = root_of(f"{narrow}\n{wide}", "business")
    cues = [s.text for s in root.iter("section") if s.text and "swipe" in s.text]
    assert cues == ["← swipe to see more →"]
    wide_table = list(root.iter("table"))[1]
    assert wide_table.getparent().getprevious().text == cues[0]  # the cue is the wide one's


def test_a_cell_spanning_columns_is_set_as_small_as_the_table_it_spans() -> None:
    figures = "<td>2019</td><td>12,101.2</td><td>11,456.7</td><td>644.5</td><td>11.2%</td>"
    table = (
        "<table><tr><td>年份</td><td>营收</td><td>成本</td><td>利润</td><td>增长</td></tr>"
        f"<tr>{figures}</tr><tr>{figures}</tr><tr><td colspan='5'>合计</td></tr></table>\n"
    )
    cells = list(root_of(table, "notebook").iter("td"))
    sizes = {declared(cell.get("style"), "font-size") for cell in cells}
    assert len(sizes) == 1 and sizes != {"14px"}, sizes
