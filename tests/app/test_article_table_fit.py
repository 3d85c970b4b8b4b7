"""Articles in headless Chromium at 375 px: tables that fit, tables that scroll, numbers with units.

Every article theme (``ARTICLE_THEMES``), with WeChat's 16 px margins: a plain five-column
table of figures fits its column without a sideways scroll (issue 43 item 1: it was 390–524
px in a 333 px column), a nine-column one that cannot fit scrolls under the theme's cue with
its first column set apart, and "21 毫秒", "3.5 GB", "100 ms" and "¥25" stay on one line
even where the line would break between number and unit (item 6). Screenshots land in
``tests/_output/article-fit-<theme>.png``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from inkcard.app.schema import ARTICLE_THEMES
from tests.app.phonearticle import at_phone_width
from tests.app.test_playground import browser  # noqa: F401  # the module's browser

FIGURES = (  # issue 43's table: years and figures, short headers
    "| 年份 | 营收 | 成本 | 利润 | 增长 |\n|---|---:|---:|---:|---:|\n"
    + "".join(
        f"| {year} | {rev} | {cost} | {profit} | {growth} |\n"
        for year, rev, cost, profit, growth in (
            (2019, "1,234.5", "987.6", "246.9", "12.3%"),
            (2020, "1,456.7", "1,102.3", "354.4", "18.0%"),
            (2021, "1,678.9", "1,234.5", "444.4", "-15.3%"),
            (2022, "1,890.1", "1,345.6", "544.5", "12.6%"),
            (2023, "12,101.2", "11,456.7", "644.5", "11.2%"),
            (2024, "12,345.6", "11,567.8", "777.8", "11.6%"),
        )
    )
)
FIGURES_LONG_HEADERS = (  # the same shape with headers that must wrap, never be shortened
    "| 指标 | 营业收入（万元） | 营业成本（万元） | 净利润（万元） | 同比增长率 |\n"
    "|---|---:|---:|---:|---:|\n"
    "| 第一季度 | 1,234.5 | 987.6 | 246.9 | 12.3% |\n"
    "| 第二季度 | 1,456.7 | 1,102.3 | 354.4 | 18.0% |\n"
)
NINE_COLUMNS = (  # cannot fit a phone at any size
    "| 项目 | 说明 | 语言 | 许可证 | 维护者 | 主题数量 | 插件支持 | 渲染速度 | 备注 |\n"
    "|---|---|---|---|---|---|---|---|---|\n"
    "| wenyan | 命令行工具，支持多种主题 | TypeScript | Apache-2.0 | caol64 | 十二个主题 "
    "| 支持自定义插件 | 每篇二十一毫秒 | 适合喜欢命令行的作者 |\n"
    "| doocs/md | 在线编辑器，功能丰富 | JavaScript | WTFPL | doocs | 二十多个主题 "
    "| 支持多种扩展 | 每篇三百五十毫秒 | 可以直接复制到公众号 |\n"
)
QUOTED = "\n".join(f"> {line}" for line in FIGURES.splitlines())  # narrower columns
LISTED = "- 列表里的表格\n\n" + "\n".join(f"  {line}" for line in FIGURES.splitlines())
UNITS = ("21 毫秒", "3.5 GB", "100 ms", "¥25")
# Each sample after 0–24 CJK characters: one of them puts the line's end inside it.
FILLER = "这是一段用来把数字推到行尾的文字而且还要再长一点才够"
PARAGRAPHS = "".join(f"{FILLER[:n]}耗时{unit}，然后继续。\n\n" for unit in UNITS for n in range(25))
FITTING = (FIGURES, FIGURES_LONG_HEADERS, QUOTED, LISTED)
ARTICLE = "# 表格\n\n" + "\n\n".join(FITTING) + f"\n\n{NINE_COLUMNS}\n{PARAGRAPHS}"

TABLES = """() => [...document.querySelectorAll("table")].map((table) => {
  const wrapper = table.parentElement;
  const cue = wrapper.previousElementSibling;
  const cueBox = cue ? cue.getBoundingClientRect() : null;
  const rows = [...table.querySelectorAll("tr")].filter((r) => r.querySelector("td"));
  const colour = (cell) => getComputedStyle(cell).backgroundColor;
  const squeezed = (cell) => {  // wraps in less than four CJK characters a line
    const style = getComputedStyle(cell);
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const content = cell.clientWidth - padding;
    const range = document.createRange();
    range.selectNodeContents(cell);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    const em = parseFloat(style.fontSize) + (parseFloat(style.letterSpacing) || 0);
    return lines > 1 && content < 4 * em - 0.5;
  };
  const orphan = (th) => {  // a wrapped header whose last line is one character
    const text = th.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE || text.data.length < 2) return false;
    const top = (i) => {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      return Math.round(range.getBoundingClientRect().top);
    };
    return top(text.data.length - 1) !== top(text.data.length - 2);
  };
  return {
    tableWidth: table.scrollWidth,
    orphans: [...table.querySelectorAll("th")].filter(orphan).map((th) => th.innerText),
    wrapperScroll: wrapper.scrollWidth,
    wrapperWidth: wrapper.clientWidth,
    cue: cue && !cue.querySelector("table") ? cue.innerText : "",
    cueVisible: !!cueBox && cueBox.height > 0 && cueBox.right <= window.innerWidth,
    cueColour: cue ? getComputedStyle(cue).color : "",
    bodyColour: getComputedStyle(document.querySelector("p")).color,
    firstApart: rows.every((r) => colour(r.cells[0]) !== colour(r.cells[1])),
    headers: [...table.querySelectorAll("th")].map((th) => th.innerText.replace(/\\s/g, "")),
    clips: [...table.querySelectorAll("td, th")].some((c) => c.scrollWidth > c.clientWidth),
    squeezed: [...table.querySelectorAll("td, th")].filter(squeezed).map((c) => c.innerText),
  };
})"""

# Per paragraph: whether the sample (number and unit) sits on one line.
ONE_LINE = """(samples) => [...document.querySelectorAll("p")].flatMap((p) => {
  const text = p.textContent;
  const sample = samples.find((s) => text.includes(s));
  if (!sample) return [];
  let start = text.indexOf(sample), end = start + sample.length, seen = 0;
  const range = document.createRange();
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = node.data.length;
    if (start >= seen && start <= seen + length) range.setStart(node, start - seen);
    if (end >= seen && end <= seen + length) { range.setEnd(node, end - seen); break; }
    seen += length;
  }
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return [{sample, oneLine: tops.size === 1}];
})"""
# The same paragraphs with the no-wrap spans undone: shows the article puts breaks there.
UNGLUED = "span { white-space: normal !important; }"


@pytest.fixture(scope="module")
def measured(browser: Browser) -> dict[str, dict[str, Any]]:  # noqa: F811  # the fixture imported above
    """Each theme's article rendered once at 375 px; its tables and its samples measured,
    then the samples again without their no-wrap spans."""
    found = {}
    for theme, page in at_phone_width(browser, ARTICLE, ARTICLE_THEMES, "article-fit"):
        tables = page.evaluate(TABLES)
        glued = page.evaluate(ONE_LINE, list(UNITS))
        page.add_style_tag(content=UNGLUED)
        unglued = page.evaluate(ONE_LINE, list(UNITS))
        found[theme] = {"tables": tables, "glued": glued, "unglued": unglued}
    return found


@pytest.mark.parametrize("theme", ARTICLE_THEMES)
def test_a_five_column_table_of_figures_fits_the_phone(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    """Also inside a quote and a list item, whose columns are narrower."""
    for table in measured[theme]["tables"][: len(FITTING)]:
        assert table["tableWidth"] <= table["wrapperWidth"], (theme, table)
        assert table["wrapperScroll"] <= table["wrapperWidth"], (theme, table)
        assert "滑动" not in table["cue"] and not table["clips"], (theme, table)
        assert table["squeezed"] == [] and table["orphans"] == [], (theme, table)
    long_headers = measured[theme]["tables"][1]["headers"]
    assert long_headers == [
        "指标",
        "营业收入（万元）",
        "营业成本（万元）",
        "净利润（万元）",
        "同比增长率",
    ]


@pytest.mark.parametrize("theme", ARTICLE_THEMES)
def test_a_table_that_cannot_fit_scrolls_under_a_cue_with_its_first_column_apart(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    nine = measured[theme]["tables"][len(FITTING)]
    assert nine["wrapperScroll"] > nine["wrapperWidth"], theme
    assert "滑动" in nine["cue"] and nine["cueVisible"], (theme, nine)
    assert nine["cueColour"] != nine["bodyColour"], (theme, nine)  # the theme's muted colour
    assert nine["firstApart"], theme
    assert not nine["clips"], theme


@pytest.mark.parametrize("theme", ARTICLE_THEMES)
def test_a_number_and_its_unit_stay_on_one_line(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    glued = measured[theme]["glued"]
    assert len(glued) == len(UNITS) * 25, theme
    assert [s for s in glued if not s["oneLine"]] == [], theme
    # Without the spans the same paragraphs break inside each sample that has a space.
    broken = {s["sample"] for s in measured[theme]["unglued"] if not s["oneLine"]}
    assert broken == {"21 毫秒", "3.5 GB", "100 ms"}, theme
