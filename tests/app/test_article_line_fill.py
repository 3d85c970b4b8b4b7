"""Lines that fill the column at 375 px: an address or inline code does not leave a gap.

A bare address (`https://example.com/a/long/path`) or a long piece of inline code cannot
break where a word would, so a browser moves it whole to the next line: a left-aligned
line ends early, and a justified one (cyberpunk, traditional-chinese) spreads its few
characters a third of an em apart ("更 多 细 节 见"). Side by side with wenyan and doocs/md
at 375 px (docs/decisions/articles-review-2026-12-03.md), ours were the only lines so
spread. Measured in headless Chromium per theme: how wide each CJK character is drawn
(justification widens the characters' advances), and where an address starts.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from inkcard.app.schema import ARTICLE_THEMES
from tests.app.phonearticle import at_phone_width
from tests.app.test_playground import browser  # noqa: F401  # the module's browser

THEMES = sorted(ARTICLE_THEMES)
ARTICLE = """\
# 行宽

更多细节见 https://example.com/notes/2026/line-breaking-in-wechat 和我们的讨论。

行内代码如 `to_article(markdown, theme="brandA")` 应该和正文区分开，但不能太抢眼。

> [!TIP]
> 先测量，再优化：用 `time.perf_counter()` 记录每个阶段。

- 内联：先用 `premailer.transform(html, allow_network=False)` 把样式写进每个元素
- 每篇文章的长度在 2,000 到 30,000 字之间
  - 解析：markdown-it-py，耗时约 3 毫秒

> [!WARNING]
> 超过 20 张图片时，接口会返回 45009 错误。

<details><summary>环境</summary>

2 核 CPU，4 GB 内存，Python 3.12，Chromium 130。

</details>
"""

# Per paragraph-like block: its text, its CJK characters' widest advance over the font
# size (letter-spacing taken off), and whether an address starts on the block's first line.
MEASURE = """() => {
  const cjk = /[\\u4e00-\\u9fff]/;
  const blocks = [...document.querySelectorAll("p, section")].filter((b) =>
    [...b.childNodes].some((n) => n.nodeType === 3 && cjk.test(n.data)));
  return blocks.map((block) => {
    const style = getComputedStyle(block);
    const font = parseFloat(style.fontSize);
    const spacing = parseFloat(style.letterSpacing) || 0;
    let widest = 0;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i + 1 < node.data.length; i++) {
        if (!cjk.test(node.data[i]) || !cjk.test(node.data[i + 1])) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 2);  // a pair on one line: the first one's advance
        const rects = [...range.getClientRects()];
        if (rects.length !== 1) continue;
        const one = document.createRange();
        one.setStart(node, i + 1);
        one.setEnd(node, i + 2);
        const second = one.getBoundingClientRect();
        widest = Math.max(widest, (second.left - rects[0].left - spacing) / font);
      }
    }
    const whole = document.createRange();
    whole.selectNodeContents(block);
    const firstTop = Math.round(whole.getClientRects()[0].top);
    const address = [...block.querySelectorAll("span")].find((s) =>
      s.textContent.startsWith("https://"));
    let addressOnFirstLine = null;
    if (address) {
      const start = document.createRange();
      start.setStart(address.firstChild, 0);
      start.setEnd(address.firstChild, 1);
      addressOnFirstLine = Math.abs(start.getBoundingClientRect().top - firstTop) < font / 2;
    }
    return {text: block.innerText.slice(0, 24), widest, addressOnFirstLine};
  });
}"""


@pytest.fixture(scope="module")
def measured(browser: Browser) -> dict[str, list[dict[str, Any]]]:  # noqa: F811  # the fixture imported above
    """Each theme's article rendered once at 375 px with WeChat's margins."""
    found = {}
    for theme, page in at_phone_width(browser, ARTICLE, THEMES, "article-line-fill"):
        found[theme] = page.evaluate(MEASURE)
    return found


@pytest.mark.parametrize("theme", THEMES)
def test_no_line_is_spread_around_an_address_or_inline_code(
    measured: dict[str, list[dict[str, Any]]], theme: str
) -> None:
    """A justified line may widen its characters a little; not to a third of an em. The
    justified themes set list items, quotes, alerts and panels ragged: their lines are short,
    and a number kept with its unit ("30,000 字") left too few characters to spread."""
    blocks = measured[theme]
    assert len(blocks) >= 8, (theme, blocks)
    for block in blocks:
        assert block["widest"] <= 1.2, (theme, block)


@pytest.mark.parametrize("theme", THEMES)
def test_a_bare_address_starts_on_the_line_of_the_words_before_it(
    measured: dict[str, list[dict[str, Any]]], theme: str
) -> None:
    found = [b for b in measured[theme] if b["addressOnFirstLine"] is not None]
    assert found and all(b["addressOnFirstLine"] for b in found), (theme, found)
