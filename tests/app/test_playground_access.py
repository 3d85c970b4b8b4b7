"""The playground as people with other means use it, in headless Chromium: keyboard only, a
390 px phone, a machine without CJK fonts, an axe-core audit; and the controls, limits and
downloads a user of the page meets (free renders, a 429 retried, theme clicks that cost
nothing, alt texts, format/scale/MDX/custom size, drafts, dated ZIP entries).

axe-core comes from npm: the set-up installs the pinned version into ``tests/_output/npm``
once (``npm install``), and the test evaluates it in the page. Screenshots land in
``tests/_output/playground-*``.
"""

from __future__ import annotations

import datetime
import io
import json
import re
import subprocess
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fontTools.ttLib import TTFont
from playwright.sync_api import Browser, Page, Request, Route, expect, sync_playwright

from inkcard.app.server.factory import create_app
from inkcard.app.settings import load_settings
from tests.app.apphelpers import free_port, running_server
from tests.app.test_playground import CHROMIUM, FONTS, OUTPUT, TIMEOUT_MS, cards_settled, shoot
from tests.fakewechat import FakeWeChat

AXE_VERSION = "4.14.1"
NPM_DIR = OUTPUT / "npm"
APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
PAID_PER_MINUTE = 2


@dataclass
class Service:
    base: str
    key: str
    platform: FakeWeChat
    new_key: Callable[[], str]  # a key of its own, with its own per-minute count


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """Free renders (the default), a paid limit low enough to reach, a fake platform."""
    root = tmp_path_factory.mktemp("playground-access")
    port = free_port()
    with FakeWeChat({APPID: SECRET}) as platform:
        settings = load_settings(
            {},
            database=str(root / "inkcard.db"),
            storage_dir=str(root / "files"),
            bootstrap_key=False,
            port=port,
            requests_per_minute=PAID_PER_MINUTE,
            wechat_api_base=platform.url,
            log_level="WARNING",
        )
        app = create_app(settings)
        with running_server(app, port) as base:
            credits = app.state.services.credits

            def new_key() -> str:
                return str(credits.create_key("access", 1000)[0])

            yield Service(base, new_key(), platform, new_key)


def fontconfig(root: Path, *, cjk: bool) -> dict[str, str]:
    """A fontconfig of the repository's fonts, or of one Latin face only (no CJK anywhere:
    not the system's, not ours)."""
    latin = root / "latin"
    latin.mkdir()
    (latin / "DejaVuSans.ttf").write_bytes((FONTS / "DejaVuSans.ttf").read_bytes())
    dirs = f"<dir>{FONTS}</dir>" if cjk else f"<dir>{latin}</dir>"
    system = '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>' if cjk else ""
    conf = root / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><fontconfig>{system}{dirs}'
        f"<cachedir>{root / 'cache'}</cachedir></fontconfig>",
        "utf-8",
    )
    return {"FONTCONFIG_FILE": str(conf)}


@pytest.fixture(scope="module")
def browsers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Browser]]:
    with sync_playwright() as playwright:
        launched = {
            name: playwright.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                env=fontconfig(tmp_path_factory.mktemp(name), cjk=name == "fonts"),
            )
            for name in ("fonts", "no-cjk")
        }
        yield launched
        for browser in launched.values():
            browser.close()


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, installed from npm into the test output folder once."""
    script = NPM_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        NPM_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--prefix", str(NPM_DIR), "--no-audit", "--no-fund",
             "--no-save", f"axe-core@{AXE_VERSION}"],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
    return script.read_text("utf-8")


def open_page(browser: Browser, service: Service, width: int = 1280) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 844}, accept_downloads=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{service.base}/")
    return page, errors


@pytest.fixture
def page(browsers: dict[str, Browser], service: Service) -> Iterator[Page]:
    page, errors = open_page(browsers["fonts"], service)
    yield page
    page.context.close()
    assert errors == []


def requests_to(page: Page, path: str) -> list[Request]:
    """Every request the page sends to ``path`` from now on."""
    sent: list[Request] = []
    page.on("request", lambda request: sent.append(request) if request.url.endswith(path) else 0)
    return sent


def body(request: Request) -> dict[str, Any]:
    return dict(json.loads(request.post_data or "{}"))


# ---- rate limits ---------------------------------------------------------------------------


def test_free_renders_are_not_counted_as_paid_calls(service: Service) -> None:
    headers = {"x-api-key": service.new_key()}
    for n in range(PAID_PER_MINUTE + 3):  # past the paid limit, each one a new render
        answer = httpx.post(
            f"{service.base}/api/generate", headers=headers, json={"markdown": f"# Free {n}"}
        )
        assert answer.status_code == 200, answer.text
    # paid calls on the same key still count
    statuses = [
        httpx.post(
            f"{service.base}/api/platform/convert-and-draft",
            headers=headers,
            json={"markdown": f"# Paid {n}"},
        ).status_code
        for n in range(2 * PAID_PER_MINUTE + 1)  # more than two windows' worth
    ]
    assert 429 in statuses
    assert set(statuses) == {200, 429}


def test_a_429_is_retried_once_after_retry_after_and_the_status_says_so(
    page: Page, service: Service
) -> None:
    refused: list[str] = []

    def first_refused(route: Route) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        route.fulfill(
            status=429,
            headers={"Retry-After": "2", "Content-Type": "application/json"},
            body=json.dumps({"error": "rate_limited", "message": "wait a little"}),
        )

    page.route("**/api/generate", first_refused)
    sent = requests_to(page, "/api/generate")
    page.fill("#api-key", service.key)
    expect(page.locator("#status")).to_have_text("Too many renders at once: retrying in 2 s…")
    cards_settled(page, 1)
    assert len(refused) == 1
    assert len(sent) == 2  # the refused one and its one retry
    expect(page.locator("#cards-error")).to_be_hidden()


# ---- article themes, alt texts, controls ----------------------------------------------------


def test_choosing_an_article_theme_converts_nothing(page: Page, service: Service) -> None:
    page.fill("#api-key", service.new_key())  # paid calls: a count of its own
    page.fill("#markdown", "# Theme choice\n\nWords.")
    converts = requests_to(page, "/api/platform/convert-and-draft")
    page.click("#tab-article")
    page.click('#article-themes [data-value="business"]')
    expect(page.locator("#article-status")).to_have_text(
        "business chosen: press Convert to see it (1 credit)."
    )
    page.click("#convert")
    expect(page.locator("#article-status")).to_contain_text("business · 1 credit")
    page.click('#article-themes [data-value="notebook"]')
    page.click('#article-themes [data-value="business"]')  # converted before: shown, free
    expect(page.locator("#article-status")).to_contain_text("Converted with business")
    assert len(converts) == 1


def test_card_images_carry_the_alt_text_the_api_returns(page: Page, service: Service) -> None:
    page.fill("#api-key", service.key)
    page.fill("#markdown", "# Alt heading\n\nA line of body text.")
    # The sample's cards may still be showing when the new ones are asked for: wait for
    # the new card itself, not for any one card.
    first = page.locator("#cards img").first
    expect(first).to_have_attribute("alt", re.compile("Alt heading"))
    cards_settled(page, 1)
    alt = str(first.get_attribute("alt"))
    assert "Alt heading" in alt
    assert "A line of body text." in alt


def test_format_scale_mdx_and_custom_size_controls(page: Page, service: Service) -> None:
    generates = requests_to(page, "/api/generate")
    page.fill("#api-key", service.key)
    page.fill("#markdown", "# Controls\n\nSome words.")
    cards_settled(page, 1)
    page.click('#scales [data-value="1"]')
    cards_settled(page, 1, width=440)
    page.click('#sizes [data-value="custom"]')
    page.fill("#custom-width", "300")
    page.fill("#custom-height", "400")
    cards_settled(page, 1, width=300)
    assert (body(generates[-1])["width"], body(generates[-1])["height"]) == (300, 400)
    page.click('#formats [data-value="jpeg"]')
    url = cards_settled(page, 1, width=300)[0]
    assert url.endswith((".jpeg", ".jpg"))
    assert httpx.get(url).content[:3] == b"\xff\xd8\xff"
    page.fill("#markdown", "# MDX\n\n<Callout>inside</Callout>")
    page.click("#mdx + .track")
    cards_settled(page, 1, width=300)
    assert body(generates[-1])["mdxMode"] is True
    page.click('#formats [data-value="pdf"]')
    link = page.locator("#cards a.pdf")
    expect(link).to_have_text("Open the PDF")
    assert httpx.get(str(link.get_attribute("href"))).content[:5] == b"%PDF-"
    expect(page.locator("#status")).to_have_text("1 PDF · 300 × 400")
    assert body(generates[-1]) | {"markdown": ""} == {
        "markdown": "", "theme": "apple-notes", "themeMode": "light-mode", "width": 300,
        "height": 400, "splitMode": "noSplit", "mdxMode": True, "scale": 1, "format": "pdf",
    }  # fmt: skip
    shoot(page, "controls")


def test_a_draft_with_credentials_typed_in_that_are_never_kept(
    page: Page, service: Service
) -> None:
    drafts = requests_to(page, "/api/platform/convert-and-draft")
    page.fill("#api-key", service.new_key())  # paid calls: a count of its own
    page.fill("#markdown", "# 草稿标题\n\n第一段正文。")
    page.click("#tab-article")
    page.click(".drafts:not(.article-css) summary")
    page.fill("#draft-appid", APPID)
    page.fill("#draft-secret", SECRET)
    page.click("#draft")
    status = page.locator("#article-status")
    expect(status).to_have_text(re.compile(r"^Draft created in the account's draft box: \S+ · 3"))
    assert drafts[-1].headers["platform-appid"] == APPID
    assert drafts[-1].headers["platform-app-secret"] == SECRET
    kept = page.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    assert SECRET not in kept
    assert APPID not in kept
    shoot(page, "draft")


def test_zip_entries_are_dated_when_the_archive_is_made(page: Page, service: Service) -> None:
    page.fill("#api-key", service.key)
    page.fill("#markdown", "# One\n\n---\n\n# Two")
    page.click('#splits [data-value="hrSplit"]')
    cards_settled(page, 2)
    with page.expect_download() as download:
        page.click("#download-zip")
    now = datetime.datetime.now()
    with zipfile.ZipFile(io.BytesIO(Path(download.value.path()).read_bytes())) as archive:
        assert archive.testzip() is None
        for info in archive.infolist():
            made = datetime.datetime(*info.date_time)
            assert abs((now - made).total_seconds()) < 3600, info.date_time


# ---- keyboard, contrast, focus --------------------------------------------------------------


def focused(page: Page) -> str:
    return str(
        page.evaluate("() => document.activeElement.id || document.activeElement.dataset.value")
    )


def test_keyboard_only_use(page: Page, service: Service) -> None:
    generates = requests_to(page, "/api/generate")
    page.fill("#api-key", service.key)
    cards_settled(page, 1)
    page.focus("#tab-cards")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tab-article")).to_be_focused()
    expect(page.locator("#article-panel")).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#cards-panel")).to_be_visible()
    # Each group is one Tab stop: Tab from the size group lands on the split group's choice.
    page.focus('#sizes [aria-checked="true"]')
    page.keyboard.press("ArrowRight")
    expect(page.locator('#sizes [data-value="square"]')).to_be_focused()
    expect(page.locator('#sizes [data-value="square"]')).to_have_attribute("aria-checked", "true")
    cards_settled(page, 1, width=1000)
    assert (body(generates[-1])["width"], body(generates[-1])["height"]) == (500, 500)
    page.keyboard.press("End")
    expect(page.locator('#sizes [data-value="custom"]')).to_be_focused()
    page.keyboard.press("Home")
    expect(page.locator('#sizes [data-value="xhs"]')).to_be_focused()
    page.keyboard.press("Tab")
    assert focused(page) == "noSplit"
    page.keyboard.press("ArrowRight")
    expect(page.locator('#splits [data-value="autoSplit"]')).to_have_attribute(
        "aria-checked", "true"
    )
    tab_stops = page.evaluate(
        "() => [...document.querySelectorAll('[role=radiogroup], [role=tablist]')].map("
        "g => [...g.querySelectorAll('[role=radio], [role=tab]')].filter(b => b.tabIndex === 0)"
        ".length)"
    )
    assert set(tab_stops) == {1}
    # The editor shows where the focus is.
    page.focus("#markdown")
    outline = page.evaluate(
        "() => { const s = getComputedStyle(document.getElementById('markdown'));"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert outline[0] != "none" and outline[1] >= 2
    shoot(page, "keyboard")


def contrast(page: Page, selector: str) -> float:
    """WCAG contrast of an element's text colour on its background colour."""
    return float(
        page.evaluate(
            """(selector) => {
                const style = getComputedStyle(document.querySelector(selector));
                const lum = (css) => {
                    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
                        const c = v / 255;
                        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
                    });
                    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
                };
                const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
                return (a + 0.05) / (b + 0.05);
            }""",
            selector,
        )
    )


def test_the_primary_button_meets_4_5_to_1(page: Page) -> None:
    assert contrast(page, "#convert") >= 4.5
    assert contrast(page, "#curl-copy") >= 4.5


# ---- phones, fonts, audit --------------------------------------------------------------------


def test_at_390_px_the_article_theme_picker_fits(
    browsers: dict[str, Browser], service: Service
) -> None:
    page, errors = open_page(browsers["fonts"], service, width=390)
    page.fill("#api-key", service.key)
    page.click("#tab-article")
    picker = page.locator("#article-themes")
    from inkcard.app.schema.article import ARTICLE_THEMES

    expect(picker.locator("button")).to_have_count(len(ARTICLE_THEMES))
    for i in range(picker.locator("button").count()):
        box = picker.locator("button").nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, i
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
    assert page.evaluate(
        "() => { const p = document.getElementById('article-themes');"
        " return p.scrollWidth <= p.clientWidth; }"
    )
    shoot(page, "390-article", full_page=True)
    page.click("#tab-cards")
    cards_settled(page, 1)
    shoot(page, "390-cards", full_page=True)
    page.context.close()
    assert errors == []


def test_the_ui_font_is_a_small_subset_of_our_cjk_sans(service: Service) -> None:
    page = httpx.get(f"{service.base}/").text
    path = re.search(r'"(/static/ui-cjk\.woff\?v=\w+)"', page)
    assert path is not None
    font = httpx.get(f"{service.base}{path.group(1)}")
    assert font.status_code == 200
    assert font.headers["content-type"] == "font/woff"
    assert font.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert font.content[:4] == b"wOFF"
    assert len(font.content) < 100_000  # the whole face is 16 MB
    cmap = TTFont(io.BytesIO(font.content)).getBestCmap()
    for char in "小红书苹果备忘录":  # the page's own label, a card theme's label
        assert ord(char) in cmap
    again = httpx.get(
        f"{service.base}{path.group(1)}", headers={"If-None-Match": font.headers["etag"]}
    )
    assert again.status_code == 304


def test_without_system_cjk_fonts_the_labels_use_the_served_font(
    browsers: dict[str, Browser], service: Service
) -> None:
    page, errors = open_page(browsers["no-cjk"], service)
    label = page.locator('#sizes [data-value="xhs"]')
    expect(label).to_have_text("小红书 3:4")
    expect(page.locator("#theme-label")).to_have_text("苹果备忘录")
    served: list[str] = page.evaluate(
        """async () => {
            await document.fonts.ready;
            await document.fonts.load('13px "Inkcard UI CJK"', '小红书');
            await document.fonts.load('bold 14px "Inkcard UI CJK"', '苹果备忘录');
            return [...document.fonts].filter((f) => f.family.includes('Inkcard UI CJK'))
                .map((f) => f.status);
        }"""
    )
    assert served == ["loaded"]
    # As laid out in the page: each CJK glyph of our sans is one em wide; a missing glyph's
    # box (tofu) is narrower. The checked size is semibold, the theme label bold.
    widths = page.evaluate(
        """() => [['#sizes button', 3], ['#theme-label', 5]].map(([selector, n]) => {
            const element = document.querySelector(selector);
            const range = document.createRange();
            range.setStart(element.firstChild, 0);
            range.setEnd(element.firstChild, n);
            return range.getBoundingClientRect().width / n
                / parseFloat(getComputedStyle(element).fontSize);
        })"""
    )
    assert widths == [pytest.approx(1, abs=0.02)] * 2
    shoot(page, "no-cjk-fonts")
    page.context.close()
    assert errors == []


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_serious_violations(
    browsers: dict[str, Browser], service: Service, axe_source: str, width: int
) -> None:
    page, errors = open_page(browsers["fonts"], service, width=width)
    page.fill("#api-key", service.key)
    cards_settled(page, 1)
    page.evaluate(axe_source)  # through the debugger protocol: the page's CSP still holds
    for tab in ("cards", "article"):
        page.click(f"#tab-{tab}")
        result = page.evaluate("async () => await axe.run(document)")
        serious = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]])
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], (tab, serious)
    page.context.close()
    assert errors == []
