"""POST /api/platform/convert-and-draft end to end: a real uvicorn on 127.0.0.1, the fake WeChat
platform (tests/fakewechat.py) and a loopback image server, all over real HTTP."""

from __future__ import annotations

import base64
import gzip
import logging
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import jsonschema_rs
import pytest
import skia
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.articles.convert.html import to_article
from inkcard.app.articles.drafts.images import MAX_DRAFT_IMAGES
from inkcard.app.settings import Settings
from inkcard.layout.draw import imagecodec
from tests.app.apphelpers import LoopbackHttp, QuietHandler, free_port, png_size, running_server
from tests.app.conftest import both_engines, new_app
from tests.fakewechat import FakeWeChat
from tests.layout.test_imagecodec import drawing, encoded, gif, noise_png

pytestmark = both_engines

APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
PATH = "/api/platform/convert-and-draft"
PNG = encoded(drawing(320, 200), skia.EncodedImageFormat.kPNG)
WEBP = encoded(drawing(300, 180), skia.EncodedImageFormat.kWEBP)
COVER_JPEG = encoded(drawing(1200, 510), skia.EncodedImageFormat.kJPEG)
BIG_PNG = noise_png(800, 600)  # about 1.9 MB: over uploadimg's 1 MB
GIF = gif(120, 80)


class ImageServer(LoopbackHttp):
    """Serves fixed bytes at fixed paths on 127.0.0.1 (404 elsewhere); counts requests."""

    def __init__(self, files: dict[str, bytes]):
        self.files = files
        self.hits: dict[str, int] = {}
        owner = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server names the method
                owner.hits[self.path] = owner.hits.get(self.path, 0) + 1
                data = owner.files.get(self.path)
                self.send_response(200 if data is not None else 404)
                if self.path.startswith("/coded"):
                    self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(data or b"")))
                self.end_headers()
                self.wfile.write(data or b"")

        super().__init__(Handler)


@dataclass
class Service:
    base: str
    app: Litestar
    platform: FakeWeChat
    images: ImageServer

    def key(self, credits: int = 100) -> tuple[str, str]:
        key, info = self.app.state.services.credits.create_key("test", credits)
        return key, info.prefix

    def balance(self, prefix: str) -> int:
        return int(self.app.state.services.credits.key_info(prefix).balance)

    def post(
        self,
        key: str | None,
        body: Any,
        *,
        draft: bool = True,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        sent = {"x-api-key": key} if key else {}
        if draft:
            sent |= {"Platform-Appid": APPID, "Platform-App-Secret": SECRET}
        sent |= headers or {}
        content = body if isinstance(body, bytes) else httpx.Request("POST", "/", json=body).content
        return httpx.post(
            self.base + PATH,
            content=content,
            headers={"content-type": "application/json", **sent},
            timeout=60,
        )

    def stored(self, media_id: str) -> dict[str, Any]:
        """The draft's article as the platform returns it from draft/get."""
        with httpx.Client(base_url=self.platform.url) as http:
            token = http.post(
                "/cgi-bin/stable_token",
                json={"grant_type": "client_credential", "appid": APPID, "secret": SECRET},
            ).json()["access_token"]
            answer = http.post(
                "/cgi-bin/draft/get", params={"access_token": token}, json={"media_id": media_id}
            ).json()
        (article,) = answer["news_item"]
        return dict(article)


@pytest.fixture
def start(
    make_settings: Callable[..., Settings],
) -> Iterator[Callable[..., Service]]:
    """Start the service against a fresh fake platform and image server; ``warm=False``
    for a test whose cards and formulas are none (``tests.app.conftest.new_app``)."""
    stack: list[Any] = []

    def make(*, warm: bool = True, **overrides: Any) -> Service:
        platform = FakeWeChat({APPID: SECRET}).__enter__()
        stack.append(platform.__exit__)
        images = ImageServer(
            {"/a.png": PNG, "/b.webp": WEBP, "/c.gif": GIF, "/big.png": BIG_PNG,
             "/cover.jpg": COVER_JPEG, "/text.png": b"<html>not an image</html>",
             "/coded.png": gzip.compress(PNG)}
        )  # fmt: skip
        stack.append(lambda *_: images.close())
        port = free_port()
        options: dict[str, Any] = {"wechat_timeout": 5, **overrides}
        settings = make_settings(
            port=port,
            wechat_api_base=platform.url,
            allow_private_fetch=True,  # the image server is on loopback
            **options,
        )
        app = new_app(settings, warm=warm)
        server = running_server(app, port)
        base = server.__enter__()
        stack.append(server.__exit__)
        return Service(base, app, platform, images)

    yield make
    for close in reversed(stack):
        close(None, None, None)


@pytest.fixture
def service(start: Callable[..., Service]) -> Service:
    """The service for article HTML and drafts: no render process (they draw no card)."""
    return start(warm=False)


def srcs(content: str) -> list[str]:
    return re.findall(r'<img[^>]*\ssrc="([^"]*)"', content)


def hrefs(content: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', content)


def size_of(data: bytes) -> tuple[int, int]:
    info = imagecodec.probe(data)
    return info.width, info.height


def material_of(service: Service, article: dict[str, Any]) -> bytes:
    return service.platform.materials[article["thumb_media_id"]][1]


# HTML only


def test_html_only_costs_one_credit_and_uploads_nothing(service: Service) -> None:
    key, prefix = service.key(10)
    body = {"markdown": "# Hello\n\nSome **text** and ![pic](" + service.images.url("/a.png") + ")"}
    response = service.post(key, body, draft=False)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert set(answer) == {"success", "html", "cost", "warnings"}
    assert answer["success"] is True and answer["cost"] == 1
    assert answer["html"].startswith("<!DOCTYPE html>") and "<style" not in answer["html"]
    assert "font-weight" in answer["html"]  # brandA, the default, inlined
    assert service.balance(prefix) == 9
    assert not service.platform.hits and not service.images.hits
    rows = service.app.state.services.credits.ledger(prefix)
    assert [(row.kind, row.delta) for row in rows] == [("debit", -1), ("grant", 10)]


def test_html_only_in_another_theme_differs(service: Service) -> None:
    key, _ = service.key(10)
    html = {
        theme: service.post(key, {"markdown": "## Part", "theme": theme}, draft=False).json()[
            "html"
        ]
        for theme in ("brandA", "japanese-magazine")
    }
    assert html["brandA"] != html["japanese-magazine"]
    assert "color:#f03" in html["japanese-magazine"]  # premailer shortens #ff0033


# Drafts

MIXED = """# 早安，世界

Words in a paragraph, [an outside link](https://example.com/page) and
[an account article](https://mp.weixin.qq.com/s/abc).

![png]({a})

![webp]({b})

![gif]({c})

![big]({big})

![again]({a})

![inline](data:image/png;base64,{data})

```python
print("code counts")
```
"""


def test_draft_rehosts_every_image_once_and_stores_clean_html(service: Service) -> None:
    key, prefix = service.key(10)
    u = service.images.url
    markdown = MIXED.format(
        a=u("/a.png"), b=u("/b.webp"), c=u("/c.gif"), big=u("/big.png"),
        data=base64.b64encode(PNG).decode(),
    )  # fmt: skip
    response = service.post(key, {"markdown": markdown, "author": "Ink"})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["success"] is True and "created" in answer["message"]
    assert answer["data"]["cost"] == 3
    assert answer["data"]["wordCount"] == to_article(markdown).word_count
    assert service.balance(prefix) == 7
    # five distinct sources, but /a.png and the data: URI are the same bytes: four uploads
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == 4
    assert service.images.hits["/a.png"] == 1  # fetched once though named twice

    article = service.stored(answer["data"]["media_id"])
    content = article["content"]
    assert len(srcs(content)) == 6
    assert all(s.startswith("https://mmbiz.qpic.cn/") for s in srcs(content))
    assert all(h.startswith("https://mp.weixin.qq.com/") for h in hrefs(content))
    assert "<style" not in content and "class=" not in content and "<script" not in content
    assert "127.0.0.1" not in content and "data:" not in content
    assert content.startswith("<section")
    assert article["title"] == "早安，世界" and article["author"] == "Ink"
    assert article["digest"] == "Words in a paragraph, an outside link and an account article."
    assert "<h1" not in content  # the title's heading is the title, not shown twice
    uploaded = list(service.platform.images.values())
    assert all(imagecodec.sniff(d) in ("png", "jpeg") for d in uploaded)
    assert all(len(d) <= imagecodec.ARTICLE_IMAGE_BYTES for d in uploaded)
    # No coverImageUrl: the cover is the first image, re-encoded, cropped in its centre.
    assert size_of(material_of(service, article)) == (320, 200)
    assert article["pic_crop_235_1"] == "0_0.159574_1_0.840426"
    assert article["pic_crop_1_1"] == "0.1875_0_0.8125_1"


def test_cover_from_cover_image_url(service: Service) -> None:
    key, _ = service.key(10)
    body = {
        "markdown": "# Title\n\n![a](" + service.images.url("/a.png") + ")",
        "coverImageUrl": service.images.url("/cover.jpg"),
        "digest": "A summary.",
        "content_source_url": "https://example.com/original",
    }
    response = service.post(key, body)
    assert response.status_code == 200, response.text
    article = service.stored(response.json()["data"]["media_id"])
    assert size_of(material_of(service, article)) == (1200, 510)
    # within 1 % of 2.35:1, the feed shows it whole; the thumbnail is its centred square
    assert article["pic_crop_235_1"] == "0_0_1_1"
    assert article["pic_crop_1_1"] == "0.2875_0_0.7125_1"
    assert article["digest"] == "A summary."
    assert article["content_source_url"] == "https://example.com/original"


def test_cover_generated_when_there_is_no_image(service: Service) -> None:
    key, _ = service.key(10)
    title = "A title well over thirty-two characters long, so it is cut"
    response = service.post(key, {"markdown": "Just text.", "title": title, "theme": "business"})
    assert response.status_code == 200, response.text
    article = service.stored(response.json()["data"]["media_id"])
    assert article["title"] == title[:31] + "…"
    cover = material_of(service, article)
    assert png_size(cover) == (900, 383)
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == 0
    # the cover designer's: the title sits in the centred square the thumbnail shows
    assert article["pic_crop_235_1"] == "0_0_1_1"
    assert article["pic_crop_1_1"] == "0.287222_0_0.712778_1"


def test_title_is_the_first_line_without_a_heading(service: Service) -> None:
    key, _ = service.key(10)
    response = service.post(key, {"markdown": "First line here\nsecond line\n\nMore."})
    assert response.status_code == 200, response.text
    assert service.stored(response.json()["data"]["media_id"])["title"] == "First line here"


# Errors: the envelope, the label, the status, and nothing charged


def assert_error(response: httpx.Response, status: int, label: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is False and body["cost"] == 0 and body["error"] == label, body
    assert set(body) == {"success", "error", "message", "cost"}
    return dict(body)


def test_missing_and_invalid_api_keys(service: Service) -> None:
    assert_error(service.post(None, {}, draft=False), 401, "missing_api_key")
    assert_error(service.post("ik_" + "x" * 32, {}, draft=False), 401, "invalid_api_key")


BAD_BODIES: list[tuple[Any, int, str]] = [
    (b"[1]", 400, "invalid_json"),
    ({"theme": "pop-art"}, 400, "invalid_theme"),
    ({"markdown": 5}, 400, "invalid_markdown"),
    ({"author": "x" * 17}, 400, "invalid_author"),
    ({"digest": "x" * 129}, 400, "invalid_digest"),
    ({"coverImageUrl": "ftp://example.com/a.png"}, 400, "invalid_cover_image_url"),
    ({"coverImageUrl": "https://h10;|e0[y&"}, 400, "invalid_cover_image_url"),
    ({"content_source_url": "javascript:alert(1)"}, 400, "invalid_content_source_url"),
    ({"markdown": "x" * 100_001}, 413, "payload_too_large"),
]


@pytest.mark.parametrize(("body", "status", "label"), BAD_BODIES)
def test_bad_bodies_are_refused_free(service: Service, body: Any, status: int, label: str) -> None:
    key, prefix = service.key(10)
    for draft in (False, True):
        assert_error(service.post(key, body, draft=draft), status, label)
    assert service.balance(prefix) == 10
    assert not service.platform.hits


def test_one_platform_header_alone_is_refused(service: Service) -> None:
    key, prefix = service.key(10)
    for header in ({"Platform-Appid": APPID}, {"Platform-App-Secret": SECRET}):
        body = assert_error(
            service.post(key, {"markdown": "# x"}, draft=False, headers=header),
            400,
            "missing_platform_credentials",
        )
        assert SECRET not in body["message"]
    assert service.balance(prefix) == 10


def test_a_draft_of_nothing_is_refused(service: Service) -> None:
    key, prefix = service.key(10)
    assert_error(service.post(key, {"markdown": "  \n"}), 400, "empty_markdown")
    assert service.balance(prefix) == 10


def test_balance_of_two_is_402_before_any_work(service: Service) -> None:
    key, prefix = service.key(2)
    for draft in (False, True):
        body = assert_error(
            service.post(key, {"markdown": "# x"}, draft=draft), 402, "insufficient_credits"
        )
        assert "at least 3" in body["message"] and "balance is 2" in body["message"]
    assert service.balance(prefix) == 2
    assert not service.platform.hits


def test_exactly_three_credits_buy_one_draft(service: Service) -> None:
    key, prefix = service.key(3)
    assert service.post(key, {"markdown": "# x"}).status_code == 200
    assert service.balance(prefix) == 0
    assert_error(service.post(key, {"markdown": "# x"}, draft=False), 402, "insufficient_credits")


IMAGE_MARKDOWN = "# Pictures\n\n![a]({})"


def image_failure(service: Service, path: str) -> httpx.Response:
    key, prefix = service.key(10)
    url = service.images.url(path) if path.startswith("/") else path
    response = service.post(key, {"markdown": IMAGE_MARKDOWN.format(url)})
    assert service.balance(prefix) == 10
    return response


def test_images_that_cannot_be_used(service: Service) -> None:
    missing = assert_error(image_failure(service, "/missing.png"), 502, "image_upload_failed")
    assert "/missing.png" in missing["message"] and "404" in missing["message"]
    refused = assert_error(image_failure(service, "http://localhost/a.png"), 400, "invalid_image")
    assert "localhost" in refused["message"]
    not_image = assert_error(image_failure(service, "/text.png"), 400, "invalid_image")
    assert "/text.png" in not_image["message"]
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == 0  # nothing went up


def test_an_image_refused_at_its_headers_says_so(service: Service) -> None:
    """It was asked for and its headers read: the message may not say it was not fetched."""
    coded = assert_error(image_failure(service, "/coded.png"), 400, "invalid_image")
    assert "/coded.png" in coded["message"] and "Content-Encoding 'gzip'" in coded["message"]
    assert "refused at its headers" in coded["message"]
    assert "not fetched" not in coded["message"]
    assert service.images.hits["/coded.png"] == 1
    assert not service.platform.hits


UNUSABLE_IMAGES = [
    ("![gopher](gopher://127.0.0.1:70/_x)", "alt text “gopher”"),
    ("![bare](/etc/passwd)", "alt text “bare”"),
    ("![relative](pic.png)", "alt text “relative”"),
    ("![ftp](ftp://example.com/a.png)", "alt text “ftp”"),
    ('<img src="file:///etc/passwd" alt="file">', "alt text “file”"),
    ('<img src="data:image/svg+xml;base64,PHN2Zy8+">', "no alt text"),
    ("![empty]()", "alt text “empty”"),
]


@pytest.mark.parametrize(("image", "named"), UNUSABLE_IMAGES)
def test_an_image_without_a_usable_source_refuses_the_draft_free(
    service: Service, image: str, named: str
) -> None:
    """A draft cannot upload it, so it is a 400 naming the image (it was dropped, and the
    draft charged); an HTML-only article leaves it out."""
    key, prefix = service.key(10)
    markdown = f"# Pictures\n\n![fine]({service.images.url('/a.png')})\n\n{image}\n"
    body = assert_error(service.post(key, {"markdown": markdown}), 400, "invalid_image")
    assert f"image 2 ({named})" in body["message"]
    assert "http(s)" in body["message"]
    assert service.balance(prefix) == 10
    assert not service.platform.hits and not service.images.hits  # nothing fetched or sent
    html = service.post(key, {"markdown": markdown}, draft=False)
    assert html.status_code == 200, html.text
    assert len(srcs(html.json()["html"])) == 1  # the usable image only
    assert service.balance(prefix) == 9


def distinct_pngs(count: int) -> list[str]:
    return [
        "data:image/png;base64,"
        + base64.b64encode(encoded(drawing(8 + n, 8), skia.EncodedImageFormat.kPNG)).decode()
        for n in range(count)
    ]


def test_a_draft_holds_a_bounded_number_of_images(service: Service) -> None:
    key, prefix = service.key(10)
    many = "\n\n".join(
        f"![{n}]({uri})" for n, uri in enumerate(distinct_pngs(MAX_DRAFT_IMAGES + 1))
    )
    body = assert_error(service.post(key, {"markdown": "# Many\n\n" + many}), 400, "invalid_image")
    assert f"{MAX_DRAFT_IMAGES + 1} distinct images" in body["message"]
    assert f"at most {MAX_DRAFT_IMAGES}" in body["message"]
    assert service.balance(prefix) == 10
    assert not service.platform.hits  # not one upload
    enough = "\n\n".join(f"![{n}]({uri})" for n, uri in enumerate(distinct_pngs(MAX_DRAFT_IMAGES)))
    response = service.post(key, {"markdown": "# Enough\n\n" + enough})
    assert response.status_code == 200, response.text
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == MAX_DRAFT_IMAGES
    assert service.balance(prefix) == 7


PLATFORM_FAILURES: list[tuple[int, str, str, str]] = [
    (45009, "/cgi-bin/stable_token", "platform_rate_limited", "quota"),
    (40005, "/cgi-bin/media/uploadimg", "image_upload_failed", "a.png"),
    (-1, "/cgi-bin/draft/add", "platform_error", "-1"),
    (48001, "/cgi-bin/draft/add", "platform_error", "48001"),
    (45166, "/cgi-bin/draft/add", "platform_error", "45166"),
]


@pytest.mark.parametrize(("errcode", "path", "label", "named"), PLATFORM_FAILURES)
def test_platform_failures_charge_nothing(
    service: Service, errcode: int, path: str, label: str, named: str
) -> None:
    key, prefix = service.key(10)
    service.platform.force(errcode, path)
    markdown = IMAGE_MARKDOWN.format(service.images.url("/a.png"))
    body = assert_error(service.post(key, {"markdown": markdown}), 502, label)
    assert named in body["message"]
    assert service.balance(prefix) == 10
    assert service.app.state.services.credits.open_holds() == 0
    service.platform.clear()
    assert service.post(key, {"markdown": markdown}).status_code == 200  # and it recovers
    assert service.balance(prefix) == 7


def test_ip_not_whitelisted_names_the_address(service: Service) -> None:
    key, prefix = service.key(10)
    service.platform.allowed_ips = {"203.0.113.9"}
    body = assert_error(service.post(key, {"markdown": "# x"}), 502, "ip_not_whitelisted")
    assert "127.0.0.1" in body["message"] and "IP白名单" in body["message"]
    assert APPID in body["message"]
    assert service.balance(prefix) == 10


def test_wrong_secret_is_invalid_platform_credentials(service: Service) -> None:
    key, prefix = service.key(10)
    wrong = {"Platform-App-Secret": "f" * 32}
    body = assert_error(
        service.post(key, {"markdown": "# x"}, headers=wrong), 502, "invalid_platform_credentials"
    )
    assert "f" * 32 not in body["message"]
    assert service.balance(prefix) == 10


def test_a_silent_platform_is_504_platform_timeout(start: Callable[..., Service]) -> None:
    service = start(wechat_timeout=1)
    key, prefix = service.key(10)
    service.platform.stall("/cgi-bin/draft/add")
    body = assert_error(service.post(key, {"markdown": "# x"}), 504, "platform_timeout")
    assert "did not answer" in body["message"]
    assert service.balance(prefix) == 10


def test_the_whole_call_has_a_deadline(start: Callable[..., Service]) -> None:
    service = start(wechat_timeout=30, article_timeout=1)
    key, prefix = service.key(10)
    service.platform.stall("/cgi-bin/media/uploadimg")
    markdown = IMAGE_MARKDOWN.format(service.images.url("/a.png"))
    body = assert_error(service.post(key, {"markdown": markdown}), 504, "platform_timeout")
    assert "took longer than 1 s" in body["message"]
    assert service.balance(prefix) == 10
    assert service.app.state.services.credits.open_holds() == 0


# Idempotency-Key


def test_a_retried_idempotency_key_charges_once(service: Service) -> None:
    key, prefix = service.key(10)
    headers = {"Idempotency-Key": "order-42"}
    first = service.post(key, {"markdown": "# Once"}, headers=headers)
    second = service.post(key, {"markdown": "# Once"}, headers=headers)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert second.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert service.balance(prefix) == 7
    assert len(service.platform.drafts) == 1
    html = service.post(key, {"markdown": "# Once"}, draft=False, headers={"Idempotency-Key": "h"})
    again = service.post(key, {"markdown": "# Once"}, draft=False, headers={"Idempotency-Key": "h"})
    assert html.content == again.content and service.balance(prefix) == 6


def test_an_idempotency_key_belongs_to_one_request_of_one_api_key(service: Service) -> None:
    key, prefix = service.key(10)
    other, other_prefix = service.key(10)
    headers = {"Idempotency-Key": "same"}
    assert service.post(key, {"markdown": "# A"}, headers=headers).status_code == 200
    assert_error(
        service.post(key, {"markdown": "# B"}, headers=headers), 422, "idempotency_key_reused"
    )
    # Another API key may use the same string for its own request.
    assert service.post(other, {"markdown": "# B"}, headers=headers).status_code == 200
    assert (service.balance(prefix), service.balance(other_prefix)) == (7, 7)
    for bad in ("", "x" * 256):
        assert_error(
            service.post(key, {"markdown": "# A"}, headers={"Idempotency-Key": bad}),
            400,
            "invalid_idempotency_key",
        )


def test_a_failed_request_does_not_keep_its_idempotency_key(service: Service) -> None:
    key, prefix = service.key(10)
    headers = {"Idempotency-Key": "retry-me"}
    service.platform.force(-1, "/cgi-bin/draft/add", times=1)
    assert_error(service.post(key, {"markdown": "# x"}, headers=headers), 502, "platform_error")
    retried = service.post(key, {"markdown": "# x"}, headers=headers)
    assert retried.status_code == 200 and "idempotent-replayed" not in retried.headers
    assert service.balance(prefix) == 7


def test_a_key_in_flight_is_409(start: Callable[..., Service]) -> None:
    service = start(wechat_timeout=3)
    key, prefix = service.key(10)
    headers = {"Idempotency-Key": "slow"}
    service.platform.stall("/cgi-bin/draft/add")
    first: list[httpx.Response] = []
    worker = threading.Thread(
        target=lambda: first.append(service.post(key, {"markdown": "# x"}, headers=headers))
    )
    worker.start()
    while service.platform.hits["/cgi-bin/draft/add"] == 0:  # bounded by the 3 s timeout
        assert worker.is_alive(), first[0].text if first else "no answer"
        threading.Event().wait(0.02)
    assert_error(
        service.post(key, {"markdown": "# x"}, headers=headers), 409, "idempotency_key_in_use"
    )
    worker.join()
    assert_error(first[0], 504, "platform_timeout")
    assert service.balance(prefix) == 10


# Secrets


def test_secrets_and_tokens_never_reach_a_log_or_an_answer(
    start: Callable[..., Service], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    service = start(log_level="DEBUG")
    key, _ = service.key(20)
    answers = [
        service.post(key, {"markdown": "# A\n\n![a](" + service.images.url("/a.png") + ")"}).text,
        service.post(key, {"markdown": "# B"}, headers={"Platform-App-Secret": "e" * 32}).text,
    ]
    service.platform.expire_tokens()  # a refresh after 42001 logs its own lines
    answers.append(service.post(key, {"markdown": "# C"}).text)
    logged = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    assert "wechat" in logged  # the capture saw the client's lines
    tokens = list(service.platform.tokens)
    assert tokens
    for text in (logged, *answers):
        assert SECRET not in text and "e" * 32 not in text
        assert not any(token in text for token in tokens)
        assert key not in text


# The OpenAPI document and the service agree on the edges of the body.

ARTICLE_EDGES: list[tuple[Any, int]] = [
    ({"theme": None, "markdown": "# x"}, 200),
    (
        {"markdown": "# x", "coverImageUrl": "", "content_source_url": "https://example.com/x?a=1"},
        200,
    ),
    ({"markdown": "# x", "digest": "摘" * 128, "author": "作" * 16}, 200),
    ({"theme": None, "markdown": None}, 400),  # an article of nothing: empty_markdown
    ({"markdown": " \n"}, 400),
    ({"markdown": "# x", "colour": "red"}, 400),  # unknown_field
    ({"author": "x" * 17}, 400),
    ({"coverImageUrl": "http://a b/c.png"}, 400),
    ({"content_source_url": "https://example.com/" + "x" * 1010}, 400),
    ({"theme": "brandC"}, 400),
]


@pytest.mark.parametrize(("body", "status"), ARTICLE_EDGES)
def test_the_document_and_the_service_agree_on_article_bodies(
    client: TestClient[Litestar], key: str, body: Any, status: int
) -> None:
    doc = client.get("/schema/openapi.json").json()
    operation = doc["paths"][PATH]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert jsonschema_rs.Draft202012Validator(schema).is_valid(body) == (status == 200)
    response = client.post(PATH, json=body, headers={"x-api-key": key})
    assert response.status_code == status, response.text
    assert str(status) in operation["responses"]
    ref = operation["responses"]["400"]["content"]["application/json"]["schema"]["$ref"]
    error = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(error["required"]) == {"success", "error", "message", "cost"}
