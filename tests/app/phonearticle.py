"""Articles as a phone shows them: each theme's HTML in headless Chromium, 375 px wide with
WeChat's 16 px side margins, photographed into tests/_output for a look, then handed to the
test to measure (the article browser tests share this one loop)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from playwright.sync_api import Browser, Page

from inkcard.app.articles.convert.html import to_article
from tests.app.test_playground import OUTPUT

PHONE_WIDTH = 375
WECHAT_MARGINS = "body { margin: 0 16px; }"


def at_phone_width(
    browser: Browser, article: str, themes: Iterable[str], shot: str, height: int = 800
) -> Iterator[tuple[str, Page]]:
    """Each of `themes` with `article` loaded in one page, photographed as
    `tests/_output/{shot}-{theme}.png`; the page is closed when the loop ends."""
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": height})
    page = context.new_page()
    OUTPUT.mkdir(exist_ok=True)
    try:
        for theme in themes:
            page.set_content(to_article(article, theme).html)
            page.add_style_tag(content=WECHAT_MARGINS)
            page.screenshot(path=OUTPUT / f"{shot}-{theme}.png", full_page=True)
            yield theme, page
    finally:
        context.close()
