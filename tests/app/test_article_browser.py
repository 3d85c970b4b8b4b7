"""Articles in headless Chromium at a phone's width: tables and list markers as a reader sees them.

Each article theme renders tables of 3, 5 and 8 columns with long cells (CJK, Latin words,
numbers with units) and an ordered list past 100, in a 375 px viewport with WeChat's 16 px
margins. One browser serves the module (the playground tests' fixture); screenshots land
in ``tests/_output/article-<theme>.png``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from inkcard.app.articles.convert.tables import COMPACT_FONT, FLOOR_EM
from inkcard.app.schema import ARTICLE_THEMES
from tests.app.phonearticle import at_phone_width
from tests.app.test_playground import browser  # noqa: F401  # the module's browser

THEMES = sorted(ARTICLE_THEMES)  # every article theme, in the order themes.article_names gives

TABLES = """\
| 工具 | 说明 | 耗时 |
|---|---|---|
| wenyan | 一个把 Markdown 转成微信公众号文章的命令行工具，支持多种主题和代码高亮 | 21 毫秒 |
| doocs/md | 在线编辑器，可以复制到公众号，功能非常丰富 | 350 毫秒 |

| 名称 | 语言 | 内存 | 启动时间 | 备注 |
|---|---|---|---|---|
| wenyan | TypeScript | 128 MB | 21 毫秒 | 渲染速度很快但是主题比较少，适合喜欢命令行的作者 |
| doocs/md | JavaScript | 512 MB | 350 毫秒 | 功能丰富，支持图床、多种扩展和自定义样式 |
"""
EIGHT_COLUMNS = (
    "| Name | Language | Memory | Startup | Throughput | License | Maintainer | Notes |\n"
    "|---|---|---|---|---|---|---|---|\n"
    "| wenyan | TypeScript | 128 MB | 21 ms | 3,400 req/s | Apache-2.0 | caol64 "
    "| 支持多种主题，渲染速度很快 |\n"
    "| doocs/md | JavaScript | 512 MB | 350 ms | 1,200 req/s | WTFPL | doocs "
    "| an online editor with a copy button and many extensions |\n"
)
NESTED = (  # a table loses width to the quote or the list item that holds it
    "> | 项目 | 说明 | 耗时 |\n> |---|---|---|\n"
    "> | wenyan | 命令行工具，支持多种主题 | 21 毫秒 |\n\n"
    "- 列表里的表格\n\n  | 项目 | 说明 | 内存 |\n  |---|---|---|\n"
    "  | doocs/md | 在线编辑器，功能丰富 | 512 MB |\n"
)
FOUR_COLUMNS = (  # a little too wide at the theme's size: set smaller, it fits and wraps
    "| 时间段 | QPS | P50 延迟 | P99 延迟 |\n|---|---:|---:|---:|\n"
    "| 09:00–12:00 | 320 | 12 毫秒 | 45 毫秒 |\n| 20:00–22:00 | 1,250 | 38 毫秒 | 180 毫秒 |\n"
)
LONG_LIST = "\n".join(f"{n}. item {n}" for n in range(98, 103))
ARTICLE = f"# 表格\n\n{TABLES}\n{EIGHT_COLUMNS}\n{NESTED}\n{FOUR_COLUMNS}\n段落\n\n{LONG_LIST}\n"

# Per table: whether its wrapper scrolls, the cue before it, and per cell its widths and
# whether a word or a number with its unit was broken across lines.
MEASURE = """() => {
  const unbroken = /[A-Za-z]{2,}|\\d[\\d.,]*\\s?(毫秒|MB|ms|req\\/s)/g;
  const brokenRuns = (cell) => {
    const broken = [];
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(unbroken)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  };
  const lineCount = (cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  };
  return [...document.querySelectorAll("table")].map((table) => {
    const wrapper = table.parentElement;
    const cue = wrapper.previousElementSibling;
    const cueBox = cue ? cue.getBoundingClientRect() : null;
    return {
      scrolls: wrapper.scrollWidth > wrapper.clientWidth,
      wrapperOverflow: getComputedStyle(wrapper).overflowX,
      cue: cue && cue.tagName === "SECTION" && !cue.querySelector("table") ? cue.innerText : "",
      cueVisible: !!cueBox && cueBox.height > 0 && cueBox.right <= window.innerWidth,
      cells: [...table.querySelectorAll("td, th")].map((cell) => {
        const style = getComputedStyle(cell);
        const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
        return {
          text: cell.innerText,
          clips: cell.scrollWidth > cell.clientWidth,
          content: cell.clientWidth - padding,
          font: parseFloat(style.fontSize),
          broken: brokenRuns(cell),
          lines: lineCount(cell),
        };
      }),
    };
  });
}"""

# Per list marker: its text, whether it overflows its box, and on how many lines it sits.
MARKERS = """() => [...document.querySelectorAll("section")]
  .filter((row) => getComputedStyle(row).display === "flex")
  .map((row) => row.firstElementChild)
  .map((m) => {
    const range = document.createRange();
    range.selectNodeContents(m);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return {text: m.textContent, lines: tops.size,
            clips: m.scrollWidth > m.clientWidth + 1 || m.scrollHeight > m.clientHeight + 1};
  })"""


@pytest.fixture(scope="module")
def measured(browser: Browser) -> dict[str, dict[str, Any]]:  # noqa: F811  # the fixture imported above
    """Each theme's article rendered once: its tables' and list markers' measurements."""
    found = {}
    for theme, page in at_phone_width(browser, ARTICLE, THEMES, "article"):
        found[theme] = {"tables": page.evaluate(MEASURE), "markers": page.evaluate(MARKERS)}
    return found


@pytest.mark.parametrize("theme", THEMES)
def test_no_table_cell_clips_or_breaks_a_word_or_a_number_from_its_unit(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    for table in measured[theme]["tables"]:
        for cell in table["cells"]:
            assert not cell["clips"], (theme, cell["text"])
            assert cell["broken"] == [], (theme, cell["text"])


@pytest.mark.parametrize("theme", THEMES)
def test_no_cell_wraps_in_a_column_narrower_than_four_cjk_characters(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    """A column may be as narrow as its cells ("年份", "2019"), but one whose text wraps
    keeps four CJK characters a line."""
    for table in measured[theme]["tables"]:
        for cell in table["cells"]:
            if cell["lines"] > 1:
                assert cell["content"] >= FLOOR_EM * cell["font"] - 1, (theme, cell)


@pytest.mark.parametrize("theme", THEMES)
def test_a_narrow_table_wraps_and_a_wide_one_scrolls_under_its_cue(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    three, five, eight, *nested, _four = measured[theme]["tables"]
    assert not three["scrolls"] and three["cue"] == ""
    for wide in (five, eight):
        assert wide["scrolls"] and wide["wrapperOverflow"] == "auto"
        assert "滑动" in wide["cue"] and wide["cueVisible"]
    for table in nested:  # either fits, or scrolls under its cue
        assert not table["scrolls"] or ("滑动" in table["cue"] and table["cueVisible"])


@pytest.mark.parametrize("theme", THEMES)
def test_list_markers_fit_three_digits(measured: dict[str, dict[str, Any]], theme: str) -> None:
    markers = [m for m in measured[theme]["markers"] if m["text"].rstrip(".").isdigit()]
    assert [m["text"].rstrip(".") for m in markers] == ["98", "99", "100", "101", "102"]
    for marker in markers:
        assert not marker["clips"], (theme, marker)
        assert marker["lines"] == 1, (theme, marker)


@pytest.mark.parametrize("theme", THEMES)
def test_a_table_a_little_too_wide_is_set_smaller_rather_than_scrolled(
    measured: dict[str, dict[str, Any]], theme: str
) -> None:
    """Four short columns of figures fit the phone as the peers' tables do: set tighter
    (padding, then a pixel or two smaller, never under 12 px) rather than scrolled."""
    four = measured[theme]["tables"][-1]
    assert not four["scrolls"] and four["cue"] == "", theme
    assert all(COMPACT_FONT <= cell["font"] <= 14 for cell in four["cells"]), theme
