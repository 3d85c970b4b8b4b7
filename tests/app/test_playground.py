"""The playground at ``/``: its files over plain HTTP, and the page driven in headless Chromium.

The browser is Debian's ``chromium`` (``scripts/install.sh --test`` installs it), driven by
Playwright's Python package through ``executable_path``: no browser is downloaded. The service
is a real uvicorn on 127.0.0.1 with a temporary database; generating costs 1 credit, so the
402 message can be reached. Screenshots of every flow land in ``tests/_output/playground-*``.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Request, expect, sync_playwright

from inkcard.app.server.factory import create_app
from inkcard.app.settings import load_settings
from tests.app.apphelpers import free_port, png_size, running_server

CHROMIUM = "/usr/bin/chromium"
OUTPUT = Path(__file__).resolve().parents[1] / "_output"
FONTS = Path(__file__).resolve().parents[2] / "fonts"
THREE_PARTS = "# One\n\nfirst part\n\n---\n\n# Two\n\nsecond part\n\n---\n\n# Three\n\nthird part\n"
TIMEOUT_MS = 60_000  # a ceiling for a render on a busy machine, not a speed claim


@dataclass
class Service:
    base: str
    key: str
    empty_key: str  # a live key with no credits


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    root = tmp_path_factory.mktemp("playground")
    port = free_port()
    settings = load_settings(
        {},
        database=str(root / "inkcard.db"),
        storage_dir=str(root / "files"),
        bootstrap_key=False,
        port=port,
        generate_cost=1,
        log_level="WARNING",
    )
    app = create_app(settings)
    with running_server(app, port) as base:
        key, _ = app.state.services.credits.create_key("playground", 1000)
        empty, _ = app.state.services.credits.create_key("empty", 0)
        yield Service(base, key, empty)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    # The machine may have no CJK fonts; the repository's make the screenshots readable.
    root = tmp_path_factory.mktemp("fontconfig")
    conf = root / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><fontconfig>'
        '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
        f"<dir>{FONTS}</dir><cachedir>{root / 'cache'}</cachedir></fontconfig>",
        "utf-8",
    )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, env={"FONTCONFIG_FILE": str(conf)}
        )
        yield chromium
        chromium.close()


def open_page(
    browser: Browser, service: Service, width: int = 1280, height: int = 800
) -> tuple[Page, list[str]]:
    """The playground in a fresh context (empty storage); the list collects script errors."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, accept_downloads=True
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=service.base)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{service.base}/")
    return page, errors


@pytest.fixture
def page(browser: Browser, service: Service) -> Iterator[Page]:
    page, errors = open_page(browser, service)
    yield page
    page.context.close()
    assert errors == []


def generate_bodies(page: Page) -> list[dict[str, Any]]:
    """Collects the body of every generate request the page sends from now on."""
    bodies: list[dict[str, Any]] = []

    def record(request: Request) -> None:
        if request.url.endswith("/api/generate"):
            bodies.append(json.loads(request.post_data or "{}"))

    page.on("request", record)
    return bodies


def enter_key(page: Page, key: str) -> None:
    page.fill("#api-key", key)


def set_markdown(page: Page, text: str) -> None:
    page.fill("#markdown", text)


def cards_settled(
    page: Page, count: int, *, width: int = 880, other_than: list[str] | None = None
) -> list[str]:
    """Waits until ``count`` loaded cards of ``width`` PNG pixels show (and, if given, the
    first is not ``other_than``'s first); their URLs."""
    images = page.locator("#cards .card img")
    if other_than:
        expect(images.first).not_to_have_attribute("src", other_than[0])
    expect(images).to_have_count(count)
    for i in range(count):
        expect(images.nth(i)).to_have_js_property("naturalWidth", width)
    expect(page.locator("#cards")).not_to_have_class(re.compile("busy"))
    return [str(images.nth(i).get_attribute("src")) for i in range(count)]


def shoot(page: Page, name: str, *, full_page: bool = False) -> Path:
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / f"playground-{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


# ---- plain HTTP ---------------------------------------------------------------------------


def test_the_page_loads_without_a_key_and_names_versioned_assets(service: Service) -> None:
    page = httpx.get(f"{service.base}/")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["cache-control"] == "public, max-age=300"
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert '<textarea id="markdown"' in page.text
    assets = re.findall(r'"/static/([\w.-]+)\?v=(\w+)"', page.text)
    assert {name for name, _ in assets} == {
        "playground.css",
        "playground.js",
        "controls.js",
        "zip.js",
        "icon.svg",
        "ui-cjk.woff",
    }
    for name, version in assets:
        # ui-cjk.woff is cut on its first request (about a second; httpx's default 5 s ran
        # out once under CI and a benchmark sharing two cores)
        asset = httpx.get(f"{service.base}/static/{name}", params={"v": version}, timeout=60)
        assert asset.status_code == 200
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        if name != "ui-cjk.woff":  # the font's tag is known before it is cut; its ETag after
            assert asset.headers["etag"].strip('"').startswith(version)
        assert asset.content  # not an empty body
    js = httpx.get(f"{service.base}/static/playground.js")
    assert js.headers["content-type"].startswith("text/javascript")
    assert js.headers["cache-control"] == "public, no-cache"  # no version: revalidate


def test_a_client_holding_the_tag_gets_304(service: Service) -> None:
    for path in ("/", "/static/playground.css"):
        first = httpx.get(f"{service.base}{path}")
        again = httpx.get(f"{service.base}{path}", headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304, path
        assert again.content == b""
        assert again.headers["etag"] == first.headers["etag"]
        stale = httpx.get(f"{service.base}{path}", headers={"If-None-Match": '"other"'})
        assert stale.status_code == 200
        head = httpx.head(f"{service.base}{path}")
        assert head.status_code == 200
        assert head.headers["etag"] == first.headers["etag"]


def test_unknown_static_names_are_404_in_the_error_shape(service: Service) -> None:
    for name in ("nope.js", "..%2Fmain.py", "index.html"):
        response = httpx.get(f"{service.base}/static/{name}")
        assert response.status_code == 404, name
        assert response.json()["error"] == "not_found"


def test_the_page_routes_stay_out_of_the_api_document(service: Service) -> None:
    paths = httpx.get(f"{service.base}/schema/openapi.json").json()["paths"]
    assert "/" not in paths
    assert not [p for p in paths if p.startswith("/static")]
    assert "/api/generate" in paths


# ---- in the browser -----------------------------------------------------------------------


def test_typing_markdown_shows_a_card_and_identical_requests_are_sent_once(
    page: Page, service: Service
) -> None:
    bodies = generate_bodies(page)
    enter_key(page, service.key)
    first = cards_settled(page, 1)
    set_markdown(page, "")
    page.locator("#markdown").press_sequentially("# Typed by a person", delay=15)
    typed = cards_settled(page, 1, other_than=first)
    assert bodies[-1]["markdown"] == "# Typed by a person"
    # the limit comes from the server (app.schema.MAX_MARKDOWN_CHARS) with the page
    expect(page.locator("#char-count")).to_have_text("19 / 100,000 characters")
    assert len(bodies) < 1 + len("# Typed by a person") // 2  # debounced, not one per key
    shoot(page, "typed")
    # Back and forth between modes: the light card's request is answered from the page's cache.
    page.click('.mode[data-mode="dark-mode"]')
    cards_settled(page, 1, other_than=typed)
    sent = len(bodies)
    page.click('.mode[data-mode="light-mode"]')
    assert cards_settled(page, 1) == typed
    assert len(bodies) == sent


def test_switching_theme_size_and_split_mode(page: Page, service: Service) -> None:
    bodies = generate_bodies(page)
    enter_key(page, service.key)
    cards_settled(page, 1)
    page.click("#theme-button")
    tile = page.locator('.theme-tile[data-theme="coil-notebook"]')
    expect(tile.locator("img")).to_have_js_property("naturalWidth", 220)  # its preview shows
    shoot(page, "themes")
    tile.click()
    expect(page.locator("#theme-dialog")).not_to_be_visible()
    expect(page.locator("#modes .mode")).to_have_count(4)
    cards_settled(page, 1)
    assert bodies[-1]["theme"] == "coil-notebook"
    assert bodies[-1]["themeMode"] == page.locator(".mode").first.get_attribute("data-mode")

    set_markdown(page, THREE_PARTS)
    page.click('#splits [data-value="hrSplit"]')
    three = cards_settled(page, 3)
    assert bodies[-1]["splitMode"] == "hrSplit"
    assert len(set(three)) == 3

    set_markdown(page, "# Long\n\n" + "A sentence that fills the card. " * 120)
    page.click('#sizes [data-value="square"]')
    page.click('#splits [data-value="autoSplit"]')
    squares = cards_settled(page, page_count(page), width=1000)
    assert len(squares) >= 2
    for i in range(len(squares)):
        expect(page.locator("#cards img").nth(i)).to_have_js_property("naturalHeight", 1000)
    assert (bodies[-1]["width"], bodies[-1]["height"]) == (500, 500)
    shoot(page, "auto-split")

    page.click("#overflow + .track")
    page.click('#splits [data-value="noSplit"]')
    cut = cards_settled(page, 1, width=1000)
    expect(page.locator("#cards img").first).to_have_js_property("naturalHeight", 1000)
    assert bodies[-1]["overHiddenMode"] is True
    assert cut != squares[:1]


def page_count(page: Page) -> int:
    """How many cards the page says it shows, once it says so."""
    status = page.locator("#status")
    expect(status).to_have_text(re.compile(r"^\d+ cards? · 500 × 500$"))
    return int(str(status.text_content()).split()[0])


def test_download_all_as_zip_and_one_card(page: Page, service: Service) -> None:
    enter_key(page, service.key)
    set_markdown(page, THREE_PARTS)
    page.click('#splits [data-value="hrSplit"]')
    urls = cards_settled(page, 3)
    stored = [httpx.get(url).content for url in urls]

    with page.expect_download() as download:
        page.click("#download-zip")
    assert download.value.suggested_filename == "inkcard-apple-notes.zip"
    data = Path(download.value.path()).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None  # every CRC-32 matches
        names = archive.namelist()
        assert names == [f"inkcard-apple-notes-{n}.png" for n in (1, 2, 3)]
        pngs = [archive.read(name) for name in names]
        assert all(info.compress_type == zipfile.ZIP_STORED for info in archive.infolist())
    assert pngs == stored
    for png in pngs:
        width, height = png_size(png)
        assert width == 880
        assert height >= 1172

    with page.expect_download() as one:
        page.locator("#cards figure").nth(1).get_by_role("button", name="Download PNG").click()
    assert one.value.suggested_filename == "inkcard-apple-notes-2.png"
    assert Path(one.value.path()).read_bytes() == stored[1]


def test_bad_keys_and_refusals_show_clear_messages(page: Page, service: Service) -> None:
    bodies = generate_bodies(page)
    error = page.locator("#cards-error")
    expect(error).to_contain_text("Add your API key")  # no key yet: nothing is sent
    assert bodies == []

    enter_key(page, "ik_not_a_real_key")
    expect(error).to_contain_text("This API key was not accepted")
    expect(error).to_contain_text("the API key is unknown or has been revoked")
    expect(error).to_contain_text("401 invalid_api_key")
    shoot(page, "bad-key")

    enter_key(page, service.empty_key)
    expect(error).to_contain_text("Not enough credits")
    expect(error).to_contain_text("402 insufficient_credits")

    enter_key(page, service.key)
    cards_settled(page, 1)
    expect(error).to_be_hidden()
    set_markdown(page, "\n\n---\n\n".join(f"part {n}" for n in range(60)))
    page.click('#splits [data-value="hrSplit"]')
    expect(error).to_contain_text("The request was refused")
    expect(error).to_contain_text("400 too_many_pages")


def test_copy_as_curl_shows_the_exact_request(page: Page, service: Service) -> None:
    enter_key(page, service.key)
    set_markdown(page, "# It's 'quoted'\n\nand \"double\" too")
    page.click('#sizes [data-value="a4"]')
    shown = cards_settled(page, 1, width=1190)
    page.click("#cards-curl")
    command = str(page.locator("#curl-text").text_content())
    page.click("#curl-copy")
    expect(page.locator("#curl-copied")).to_have_text("Copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == command
    # Run what it shows (as a shell would split it): the same cards come back.
    words = shlex.split(command.replace("\\\n", " "))
    assert words[:2] == ["curl", "-s"]
    assert words[3:-2:2] == ["-H", "-H"]
    assert words[-2] == "-d"
    headers = dict(h.split(": ", 1) for h in words[4:-2:2])
    assert headers["x-api-key"] == service.key
    answer = httpx.post(words[2], headers=headers, content=words[-1].encode())
    assert answer.status_code == 200
    assert [image["url"] for image in answer.json()["images"]] == shown
    assert json.loads(words[-1])["width"] == 595


def test_the_article_tab_previews_html_and_copies_rich_text(page: Page, service: Service) -> None:
    enter_key(page, service.key)
    set_markdown(page, "# 标题在这里\n\n正文第一段，**重点**。\n\n## 小节\n\n最后一段。")
    page.click("#tab-article")
    expect(page.locator("#article-panel")).to_be_visible()
    expect(page.locator("#cards-panel")).to_be_hidden()
    page.click('#article-themes [data-value="notebook"]')
    page.click("#convert")
    frame = page.frame_locator("#article-frame")
    expect(frame.locator("h1")).to_have_text("标题在这里")
    expect(frame.locator("p").last).to_have_text("最后一段。")
    expect(page.locator("#article-status")).to_contain_text("notebook · 1 credit")
    box = page.locator("#article-frame").bounding_box()
    assert box is not None
    assert 360 <= box["width"] <= 380  # a phone's width
    content_height = page.evaluate(
        "() => document.getElementById('article-frame').contentDocument.body.scrollHeight"
    )
    assert box["height"] >= content_height  # the whole article shows, no inner scrollbar
    shoot(page, "article")

    page.click("#copy-rich")
    expect(page.locator("#toast")).to_contain_text("Copied")
    copied = page.evaluate(
        """async () => {
            const [item] = await navigator.clipboard.read();
            return await (await item.getType("text/html")).text();
        }"""
    )
    assert "标题在这里" in copied
    assert "style=" in copied  # inline styles travel with the text
    assert "<script" not in copied


def test_the_article_tab_lists_the_answers_warnings(page: Page, service: Service) -> None:
    enter_key(page, service.key)
    set_markdown(page, "# Links\n\nRead [the guide](https://example.com/guide) first.")
    page.click("#tab-article")
    page.click("#convert")
    warnings = page.locator("#article-warnings")
    expect(warnings).to_be_visible()
    expect(warnings.locator("li")).to_have_count(1)
    expect(warnings.locator("li code")).to_have_text("links_to_references")
    expect(warnings).to_contain_text("moved to the references at the end")
    shoot(page, "article-warnings")
    set_markdown(page, "# No links\n\nPlain words.")
    page.click("#convert")
    expect(page.frame_locator("#article-frame").locator("h1")).to_have_text("No links")
    expect(warnings).to_be_hidden()


def test_key_and_choices_survive_a_reload(page: Page, service: Service) -> None:
    enter_key(page, service.key)
    cards_settled(page, 1)
    page.click('.mode[data-mode="dark-mode"]')
    page.click('#sizes [data-value="poster"]')
    set_markdown(page, "# Kept")
    cards_settled(page, 1)
    page.reload()
    expect(page.locator("#api-key")).to_have_value(service.key)
    expect(page.locator("#markdown")).to_have_value("# Kept")
    expect(page.locator('.mode[data-mode="dark-mode"]')).to_have_attribute("aria-checked", "true")
    expect(page.locator('#sizes [data-value="poster"]')).to_have_attribute("aria-checked", "true")
    cards_settled(page, 1)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_page_fits_desktop_and_phone_widths(
    browser: Browser, service: Service, width: int, height: int
) -> None:
    page, errors = open_page(browser, service, width, height)
    enter_key(page, service.key)
    cards_settled(page, 1)
    scroll_width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert scroll_width <= width  # nothing sticks out sideways
    editor = page.locator("#markdown").bounding_box()
    cards = page.locator("#cards").bounding_box()
    assert editor is not None and cards is not None
    if width < 820:  # stacked: the editor above the cards, both full width
        assert editor["y"] + editor["height"] <= cards["y"]
        assert cards["width"] == width
    else:  # side by side
        assert editor["x"] + editor["width"] <= cards["x"]
        assert editor["y"] < cards["y"] + cards["height"]
    shoot(page, f"{width}x{height}", full_page=width < 820)
    page.context.close()
    assert errors == []
