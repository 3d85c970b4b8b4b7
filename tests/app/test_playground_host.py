"""The playground opened by a host name (not 127.0.0.1) shows its cards: their URLs name the
host the browser used. Chromium resolves ``cards.test`` to 127.0.0.1 itself, so no other
machine or resolver is involved."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
OUTPUT = Path(__file__).resolve().parents[1] / "_output"
HOST = "cards.test"


def test_cards_show_when_the_page_is_opened_by_host_name(
    serve: Callable[..., tuple[str, Any]],
) -> None:
    base, app = serve(host="0.0.0.0")  # as in the container: no public URL set
    key, _ = app.state.services.credits.create_key("host", 10)
    port = base.rpartition(":")[2]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
        )
        try:
            page = browser.new_page()
            page.set_default_timeout(60_000)
            page.goto(f"http://{HOST}:{port}/")
            page.fill("#api-key", key)
            card = page.locator("#cards .card img").first
            expect(card).to_have_js_property("naturalWidth", 880)
            assert str(card.get_attribute("src")).startswith(f"http://{HOST}:{port}/files/")
            OUTPUT.mkdir(exist_ok=True)
            page.screenshot(path=str(OUTPUT / "playground-by-host-name.png"))
        finally:
            browser.close()
