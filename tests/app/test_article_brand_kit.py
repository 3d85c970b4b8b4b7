"""A brand kit on convert-and-draft over real HTTP: the article signs off with the kit's
logo, byline, footer line and footer image after its references and before the AI label;
an unknown kit is a 400 with nothing charged; a draft against the fake WeChat platform
uploads the kit's images once each (a second draft reuses them) and never makes the logo
its cover."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import anyio
import httpx
import pytest

from tests.app.conftest import both_engines
from tests.app.test_convert_and_draft import Service, size_of, srcs, start  # noqa: F401
from tests.app.test_mcp import Http, http, text_of  # noqa: F401 (the fixture)
from tests.brandassets import BYLINE, FOOTER, kit_body, logo_png, qr_png

pytestmark = both_engines

ARTICLE = "# 品牌文章\n\n第一段正文，见 [资料](https://example.com/a)。\n\n## 小节\n\n第二段正文。"
LOGO = base64.b64encode(logo_png()).decode()
QR = base64.b64encode(qr_png()).decode()


@pytest.fixture
def service(start: Callable[..., Service]) -> Service:  # noqa: F811 (start: the fixture)
    """The service and the fake platform; no render process (an article draws no card)."""
    return start(warm=False)


def save_kit(service: Service, key: str, name: str = "studio", **changes: Any) -> None:
    response = httpx.put(
        f"{service.base}/api/brands/{name}",
        json=kit_body(**changes),
        headers={"x-api-key": key},
        timeout=60,
    )
    assert response.status_code == 201, response.text


def test_the_article_signs_off_with_the_kit(service: Service) -> None:
    key, prefix = service.key(10)
    save_kit(service, key)
    body = {"markdown": ARTICLE, "theme": "darktech", "aigc": True}
    plain = service.post(key, body, draft=False).json()["html"]
    answer = service.post(key, {**body, "brand": "studio"}, draft=False).json()
    html = answer["html"]
    assert answer["cost"] == 1 and service.balance(prefix) == 8
    assert BYLINE not in plain and LOGO not in plain
    assert BYLINE in html and FOOTER in html
    images = srcs(html)
    assert images == [f"data:image/png;base64,{LOGO}", f"data:image/png;base64,{QR}"]
    # after the references, before the AI label, in the theme's colour (darktech's #00e6ff)
    assert html.index("参考资料") < html.index(LOGO) < html.index(BYLINE) < html.index(FOOTER)
    assert html.index(FOOTER) < html.index(QR) < html.index("内容由AI生成")
    assert 'color:#00e6ff; letter-spacing:0.5px">' + BYLINE in html
    assert "max-height:40px" in html and "width:120px" in html  # a mark; a QR code to scan


def test_a_kit_of_text_only_adds_no_image(service: Service) -> None:
    key, _ = service.key(10)
    save_kit(service, key, logo=None, footerImage=None)
    html = service.post(key, {"markdown": ARTICLE, "brand": "studio"}, draft=False).json()["html"]
    assert BYLINE in html and FOOTER in html and srcs(html) == []


def test_an_unknown_brand_is_a_400_before_any_charge(service: Service) -> None:
    key, prefix = service.key(10)
    for draft in (False, True):
        response = service.post(key, {"markdown": ARTICLE, "brand": "nope"}, draft=draft)
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "invalid_brand" and response.json()["cost"] == 0
    bad = service.post(key, {"markdown": ARTICLE, "brand": "no such name"}, draft=False)
    assert bad.status_code == 400 and bad.json()["cost"] == 0
    assert service.balance(prefix) == 10
    assert not service.platform.hits


def test_a_draft_uploads_the_kits_images_once_and_draws_its_cover(service: Service) -> None:
    key, _ = service.key(100)
    save_kit(service, key)
    body = {"markdown": ARTICLE, "brand": "studio"}
    dry = service.post(key, {**body, "dryRun": True}, draft=False)
    assert dry.status_code == 200, dry.text
    data = dry.json()["data"]
    assert [image["status"] for image in data["images"]] == ["ready", "ready"]
    assert data["cover"] == "generated"  # the logo is not the article's cover
    assert not service.platform.hits

    first = service.post(key, body)
    assert first.status_code == 200, first.text
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == 2  # the logo and the QR code
    uploaded = sorted(size_of(data) for data in service.platform.images.values())
    assert uploaded == [(96, 96), (126, 126)]  # each once, at its own size
    content = service.stored(first.json()["data"]["media_id"])["content"]
    assert BYLINE in content and len(srcs(content)) == 2
    assert all(src.startswith("https://mmbiz.qpic.cn/") for src in srcs(content))  # rehosted

    again = service.post(key, {**body, "title": "第二篇"})  # the account has both: none sent
    assert again.status_code == 200, again.text
    assert service.platform.hits["/cgi-bin/media/uploadimg"] == 2
    assert [image["status"] for image in again.json()["data"]["images"]] == ["reused"] * 2


def test_the_mcp_tool_signs_the_article_as_the_route_does(http: Http) -> None:  # noqa: F811
    key, prefix = http.new_key()
    headers = {"x-api-key": key}
    saved = httpx.put(f"{http.base}/api/brands/studio", json=kit_body(), headers=headers)
    assert saved.status_code == 201, saved.text
    body = {"markdown": ARTICLE, "theme": "notebook", "brand": "studio"}
    routed = httpx.post(
        f"{http.base}/api/platform/convert-and-draft", json=body, headers=headers, timeout=60
    ).json()["html"]

    async def scenario() -> None:
        async with http.session(key) as session:
            html = await session.call_tool("convert_article", body)
            assert not html.is_error, html
            assert text_of(html)["html"] == routed  # the same signed article
            unknown = await session.call_tool("convert_article", {**body, "brand": "nope"})
            assert unknown.is_error and text_of(unknown)["error"] == "invalid_brand"

    anyio.run(scenario)
    assert BYLINE in routed and LOGO in routed
    # the tool's call is the route's again (a retry: not charged twice); the unknown kit: nothing
    assert http.credits.key_info(prefix).balance == 99
