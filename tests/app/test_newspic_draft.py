"""POST /api/platform/newspic-draft end to end: a real uvicorn on 127.0.0.1 and the fake WeChat
platform (tests/fakewechat.py), over real HTTP."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from inkcard.app.schema import NEWSPIC_IMAGE_LIMIT
from inkcard.layout.draw import imagecodec
from tests.app.test_convert_and_draft import APPID, SECRET, Service, start
from tests.app.test_mcp import Stdio, assert_tool_error, run, stdio, text_of

__all__ = ["start", "stdio"]  # fixtures shared with the convert-and-draft, MCP tests


@pytest.fixture
def service(start: Callable[..., Service]) -> Service:
    """The service with its render process: a newspic draft draws its cards."""
    return start()


PATH = "/api/platform/newspic-draft"
THREE_PARTS = (
    "# Autumn in Kyoto\n\nMaple leaves. They turn red in November.\n\n---\n\nPart two"
    "\n\n---\n\nPart three"
)


def post(service: Service, key: str, body: Any, **headers: str) -> httpx.Response:
    sent = {"x-api-key": key, "Platform-Appid": APPID, "Platform-App-Secret": SECRET}
    return httpx.post(service.base + PATH, json=body, headers=sent | headers, timeout=60)


def test_a_newspic_draft_holds_the_cards_in_order(service: Service) -> None:
    key, prefix = service.key(10)
    body = {"markdown": THREE_PARTS, "splitMode": "hrSplit", "scale": 1}
    answer = post(service, key, body)
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["cost"] == 3 and service.balance(prefix) == 7
    assert len(data["images"]) == 3
    (article,) = service.platform.draft(data["media_id"])
    assert article["article_type"] == "newspic"
    assert article["title"] == "Autumn in Kyoto"
    assert article["content"] == "Maple leaves. They turn red in November."
    ids = [image["image_media_id"] for image in article["image_info"]["image_list"]]
    sent = [service.platform.materials[media_id][1] for media_id in ids]
    cards = [httpx.get(record["url"]).content for record in data["images"]]
    assert sent == cards  # each card as it was stored, in card order, the first the cover


def test_title_and_description_are_the_requests_or_the_front_matters(service: Service) -> None:
    key, _ = service.key(10)
    markdown = "---\ntitle: From the front matter\ndescription: Its words\n---\n# Heading\n\nText."
    answer = post(service, key, {"markdown": markdown, "scale": 1})
    (article,) = service.platform.draft(answer.json()["data"]["media_id"])
    assert (article["title"], article["content"]) == ("From the front matter", "Its words")
    answer = post(
        service, key, {"markdown": markdown, "scale": 1, "title": "Given", "description": "Mine"}
    )
    (article,) = service.platform.draft(answer.json()["data"]["media_id"])
    assert (article["title"], article["content"]) == ("Given", "Mine")


def test_more_cards_than_the_platform_takes_is_refused_uncharged(service: Service) -> None:
    key, prefix = service.key(10)
    parts = "\n\n---\n\n".join(f"Part {n}" for n in range(NEWSPIC_IMAGE_LIMIT + 1))
    answer = post(service, key, {"markdown": parts, "splitMode": "hrSplit", "scale": 1})
    assert answer.status_code == 400
    body = answer.json()
    assert body["error"] == "too_many_cards" and body["cost"] == 0
    assert "21 cards" in body["message"]
    assert service.balance(prefix) == 10
    assert service.platform.hits["/cgi-bin/material/add_material"] == 0


def test_an_image_post_needs_the_account(service: Service) -> None:
    key, prefix = service.key(10)
    answer = httpx.post(service.base + PATH, json={"markdown": "# Hi"}, headers={"x-api-key": key})
    assert answer.status_code == 400
    assert answer.json()["error"] == "missing_platform_credentials"
    assert service.balance(prefix) == 10


def test_cards_are_png_of_the_card_size(service: Service) -> None:
    key, _ = service.key(10)
    answer = post(service, key, {"markdown": "# One", "scale": 1, "width": 400, "height": 500})
    (article,) = service.platform.draft(answer.json()["data"]["media_id"])
    (image,) = article["image_info"]["image_list"]
    info = imagecodec.probe(service.platform.materials[image["image_media_id"]][1])
    assert (info.width, info.height) == (400, 500)


def test_the_mcp_tool_makes_the_same_image_post(stdio: Stdio) -> None:
    async def scenario() -> None:
        async with stdio.session() as session:
            made = await session.call_tool(
                "create_newspic_draft",
                {"markdown": THREE_PARTS, "splitMode": "hrSplit", "scale": 1}
                | {"platformAppid": APPID, "platformAppSecret": SECRET},
            )
            unsent = await session.call_tool("create_newspic_draft", {"markdown": "# x"})
        data = text_of(made)["data"]
        (article,) = stdio.platform.draft(data["media_id"])
        assert article["article_type"] == "newspic"
        assert len(article["image_info"]["image_list"]) == len(data["images"]) == 3
        assert_tool_error(unsent, "missing_platform_credentials")

    run(scenario)
    assert stdio.balance() == 100 - 3
