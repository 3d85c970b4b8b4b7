"""What a client is charged when it goes away, or retries, before it read its answer.

A real uvicorn on 127.0.0.1, raw sockets for the client that hangs up, the fake WeChat platform
(tests/fakewechat.py) slowed on one step and a loopback image server slowed likewise, so the
request is mid-work when its client leaves. Each case waits for the request's access log line
(it ends the request) before it reads the balance, which must equal the ledger's sum.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import skia
from litestar import Litestar

from inkcard.app.ledger.idempotency import RETRY_WINDOW_SECONDS
from inkcard.app.server.factory import create_app
from inkcard.app.settings import Settings
from tests.app.apphelpers import LoopbackHttp, QuietHandler, free_port, running_server
from tests.app.conftest import both_engines
from tests.app.dbhelpers import age_every_answer, table_rows
from tests.fakewechat import FakeWeChat
from tests.layout.test_imagecodec import drawing, encoded

pytestmark = both_engines

APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
ARTICLE = "/api/platform/convert-and-draft"
GENERATE = "/api/generate"
PNG = encoded(drawing(120, 80), skia.EncodedImageFormat.kPNG)
DELAY = 1.5  # seconds a slowed step takes: the client hangs up during it
SETTLED = 30.0  # generous bound for a request to end after its client left


class SlowImages(LoopbackHttp):
    """Serves one PNG at any path on 127.0.0.1 after ``delay`` seconds; counts requests."""

    def __init__(self, delay: float):
        self.hits = 0
        owner = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server names the method
                owner.hits += 1
                time.sleep(delay)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(PNG)))
                self.end_headers()
                self.wfile.write(PNG)

        super().__init__(Handler)


@dataclass
class Live:
    base: str
    port: int
    app: Litestar
    platform: FakeWeChat
    images: SlowImages
    caplog: pytest.LogCaptureFixture

    def key(self, credits: int = 30) -> tuple[str, str]:
        key, info = self.app.state.services.credits.create_key("test", credits)
        return key, info.prefix

    def balance(self, prefix: str) -> int:
        """The key's balance, checked against the sum of its ledger rows."""
        credits = self.app.state.services.credits
        info = credits.key_info(prefix)
        assert info.balance == credits.ledger_sum(info.id), "balance and ledger disagree"
        return int(info.balance)

    def open_holds(self) -> int:
        return int(self.app.state.services.credits.open_holds())

    def post(
        self, path: str, key: str, body: dict[str, Any], draft: bool = False
    ) -> httpx.Response:
        return httpx.post(self.base + path, json=body, headers=self.headers(key, draft), timeout=60)

    @staticmethod
    def headers(key: str, draft: bool) -> dict[str, str]:
        sent = {"x-api-key": key, "content-type": "application/json"}
        if draft:
            sent |= {"Platform-Appid": APPID, "Platform-App-Secret": SECRET}
        return sent

    def ended(self, path: str) -> int:
        """How many requests to ``path`` have ended (their access log lines)."""
        return sum(1 for r in self.caplog.records if getattr(r, "http", {}).get("path") == path)

    def hang_up_during(
        self, path: str, key: str, body: dict[str, Any], started: Callable[[], bool], draft: bool
    ) -> list[int]:
        """Send the request on a raw socket, close it once ``started()`` says the work is
        under way, and wait until the request has ended; return the statuses logged for it."""
        before = self.ended(path)
        content = json.dumps(body).encode()
        head = f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: {len(content)}\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in self.headers(key, draft).items())
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall(head.encode() + b"\r\n" + content)
            wait_for(started, "the work never started")
        wait_for(lambda: self.ended(path) > before, "the request never ended")
        return [
            r.http["status"]  # type: ignore[attr-defined]
            for r in self.caplog.records
            if getattr(r, "http", {}).get("path") == path
        ][before:]


def wait_for(condition: Callable[[], bool], failure: str, seconds: float = SETTLED) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.02)


@pytest.fixture
def live(
    make_settings: Callable[..., Settings], caplog: pytest.LogCaptureFixture
) -> Iterator[Live]:
    """The service with generate costing 2, against the fake platform and the slow images."""
    caplog.set_level("INFO", logger="inkcard.access")
    with FakeWeChat({APPID: SECRET}) as platform:
        images = SlowImages(DELAY)
        port = free_port()
        settings = make_settings(
            port=port,
            generate_cost=2,
            wechat_api_base=platform.url,
            wechat_timeout=10,
            allow_private_fetch=True,  # the image server is on loopback
        )
        app = create_app(settings)
        try:
            with running_server(app, port) as base:
                yield Live(base, port, app, platform, images, caplog)
        finally:
            images.close()


def image_post(live: Live, text: str) -> dict[str, Any]:
    return {"markdown": f"# {text}\n\n![a]({live.images.url('/' + text + '.png')})", "scale": 1}


# A client that hangs up before its answer is ready is not charged.


def test_a_generate_whose_client_hangs_up_is_not_charged(live: Live) -> None:
    key, prefix = live.key()
    statuses = live.hang_up_during(
        GENERATE, key, image_post(live, "gone"), lambda: live.images.hits > 0, draft=False
    )
    assert statuses == [499]
    assert live.balance(prefix) == 30 and live.open_holds() == 0
    # The next identical request is a new run, charged once.
    again = live.post(GENERATE, key, image_post(live, "gone"))
    assert again.status_code == 200, again.text
    assert live.balance(prefix) == 28


def test_a_draft_whose_client_hangs_up_before_the_platform_made_it_is_not_charged(
    live: Live,
) -> None:
    key, prefix = live.key()
    live.platform.slow("/cgi-bin/material/add_material", DELAY)  # the cover, before the draft
    statuses = live.hang_up_during(
        ARTICLE,
        key,
        {"markdown": "# Gone before the draft"},
        lambda: live.platform.hits["/cgi-bin/material/add_material"] > 0,
        draft=True,
    )
    assert statuses == [499]
    assert live.balance(prefix) == 30 and live.open_holds() == 0
    time.sleep(DELAY + 0.5)  # past the platform's slow answer: no draft follows it
    assert live.platform.hits["/cgi-bin/draft/add"] == 0 and not live.platform.drafts
    assert live.balance(prefix) == 30


def test_a_draft_the_platform_was_making_is_charged_once_and_replayed(live: Live) -> None:
    key, prefix = live.key()
    live.platform.slow("/cgi-bin/draft/add", DELAY)
    body = {"markdown": "# Made while the client left"}
    statuses = live.hang_up_during(
        ARTICLE, key, body, lambda: live.platform.hits["/cgi-bin/draft/add"] > 0, draft=True
    )
    assert statuses == [200]  # the platform said yes: real work, charged (the answer is lost)
    assert live.balance(prefix) == 27 and len(live.platform.drafts) == 1
    retry = live.post(ARTICLE, key, body, draft=True)
    assert retry.status_code == 200, retry.text
    assert retry.headers["idempotent-replayed"] == "true"
    (media_id,) = live.platform.drafts
    assert retry.json()["data"]["media_id"] == media_id
    assert live.balance(prefix) == 27 and len(live.platform.drafts) == 1


# A client that timed out and retries pays once.


def test_a_generate_retried_after_a_timeout_is_charged_once(live: Live) -> None:
    key, prefix = live.key()
    body = image_post(live, "retried")
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(live.base + GENERATE, json=body, headers=live.headers(key, False), timeout=0.5)
    retry = live.post(GENERATE, key, body)
    assert retry.status_code == 200, retry.text
    wait_for(lambda: live.ended(GENERATE) == 2, "the first request never ended")
    assert live.balance(prefix) == 28 and live.open_holds() == 0


def test_a_retry_while_the_first_still_runs_waits_for_its_answer(live: Live) -> None:
    key, prefix = live.key()
    body = image_post(live, "twice")
    answers: list[httpx.Response] = []
    first = threading.Thread(target=lambda: answers.append(live.post(GENERATE, key, body)))
    first.start()
    wait_for(lambda: live.images.hits > 0, "the first request never fetched its image")
    second = live.post(GENERATE, key, body)
    first.join()
    assert [answers[0].status_code, second.status_code] == [200, 200], second.text
    assert second.json() == answers[0].json()
    assert live.balance(prefix) == 28 and live.images.hits == 1


def test_an_identical_call_in_the_window_is_replayed_free_and_a_new_one_is_charged(
    live: Live, database: str
) -> None:
    key, prefix = live.key()
    html = {"markdown": "# Same text, twice on purpose\n\n" + "- an item of a long list\n" * 300}
    first, second = (live.post(ARTICLE, key, html) for _ in range(2))
    assert first.content == second.content and second.headers["idempotent-replayed"] == "true"
    assert live.balance(prefix) == 29
    ((kept,),) = table_rows(database, "SELECT length(answer) FROM idempotency")
    assert int(kept) < len(first.content) / 10  # type: ignore[call-overload]  # compressed
    cards = {"markdown": "# Same card", "scale": 1}
    first, second = (live.post(GENERATE, key, cards) for _ in range(2))
    assert first.json() == second.json() and live.balance(prefix) == 27
    other = live.post(GENERATE, key, {**cards, "markdown": "# Another card"})
    assert other.status_code == 200 and live.balance(prefix) == 25
    # Answers are kept for the retry window only, and no longer than that.
    ((expires,),) = table_rows(database, "SELECT max(expires_at) FROM idempotency")
    assert 0 < float(expires) - time.time() <= RETRY_WINDOW_SECONDS  # type: ignore[arg-type]
    age_every_answer(live.app.state.services.idempotency)
    again = live.post(GENERATE, key, cards)
    assert again.json() == first.json() and live.balance(prefix) == 23
