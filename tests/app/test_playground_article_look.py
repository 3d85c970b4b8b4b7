"""The playground's article look: code theme, indent, justify and the writer's own CSS go
with the conversion, show in the phone preview, and survive a reload; refused CSS is listed
under the preview like any warning. Real Chromium on the real page (tests/_output/)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.app.test_playground import (
    Service,
    browser,
    enter_key,
    page,
    service,
    set_markdown,
    shoot,
)

__all__ = ["browser", "page", "service"]  # the playground's fixtures, shared

TEXT = (
    "# 样式\n\n正文的第一段足够长，可以在手机宽度上折成好几行，这样首行缩进和两端对齐都看得见。\n\n"
    "```python\ndef f(x):  # 注释\n    return 1\n```\n"
)


def test_the_article_look_reaches_the_preview_and_survives_a_reload(
    page: Page, service: Service
) -> None:
    enter_key(page, service.key)
    set_markdown(page, TEXT)
    page.click("#tab-article")
    page.select_option("#code-theme", "dracula")
    page.click("label:has(#article-indent) .track")
    page.click("label:has(#article-justify) .track")
    page.click(".article-css summary")
    page.fill("#article-css", "h1 { color: #aa0000 }\np { position: fixed }")
    page.click("#convert")
    frame = page.frame_locator("#article-frame")
    expect(frame.locator("h1")).to_have_css("color", "rgb(170, 0, 0)")
    first = frame.locator("p").first
    expect(first).to_have_css("text-indent", "32px")
    expect(first).to_have_css("text-align", "justify")
    expect(first).not_to_have_css("position", "fixed")
    expect(frame.locator("pre")).to_have_css("background-color", "rgb(40, 42, 54)")
    warnings = page.locator("#article-warnings")
    expect(warnings.locator("li code")).to_have_text("css_refused")
    expect(warnings).to_contain_text("position")
    shoot(page, "article-look", full_page=True)
    page.reload()
    expect(page.locator("#code-theme")).to_have_value("dracula")
    expect(page.locator("#article-indent")).to_be_checked()
    expect(page.locator("#article-justify")).to_be_checked()
    expect(page.locator("#article-css")).to_have_value(
        "h1 { color: #aa0000 }\np { position: fixed }"
    )
