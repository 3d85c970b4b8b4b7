"""POST /api/generate/cover and the generate_cover MCP tool: covers from a title, keywords in
the accent, bad fields refused with `cost` 0 (nothing charged), charged as generate."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import anyio
import numpy as np
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard import layout, themes
from inkcard.layout.covers import covers
from tests import pngcodec
from tests.app.apphelpers import files_path, png_size
from tests.app.conftest import shared_app
from tests.app.test_mcp import Http, http, text_of  # noqa: F401 (the fixture)

Client = TestClient[Litestar]
PATH = "/api/generate/cover"
TITLE = "普通人也能学会的 AI 写作方法：三步写出爆款笔记"
COST = 2


def post(client: Client, key: str, body: Any) -> Any:
    return client.post(PATH, json=body, headers={"x-api-key": key})


def download(client: Client, image: dict[str, str]) -> bytes:
    response = client.get(files_path(image["url"]))
    assert response.status_code == 200
    return response.content


def new_key_of(client: Client) -> tuple[str, str]:
    """A 100-credit key and its prefix (for its balance)."""
    key, info = client.app.state.services.credits.create_key("test", 100)
    return str(key), str(info.prefix)


def balance(client: Client, prefix: str) -> int:
    return int(client.app.state.services.credits.key_info(prefix).balance)


@pytest.fixture
def paid(make_client: Callable[..., Client]) -> Client:
    return make_client(generate_cost=COST)


def test_count_covers_are_distinct_pngs_stored_and_charged_once(paid: Client) -> None:
    key, prefix = new_key_of(paid)
    body = {"text": TITLE, "keywords": ["AI 写作", "爆款"], "count": 4, "theme": "brandA"}
    response = post(paid, key, body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["success"] is True and answer["cost"] == COST
    images = answer["images"]
    assert len(images) == 4
    pngs = [download(paid, image) for image in images]
    assert len({hashlib.sha256(png).hexdigest() for png in pngs}) == 4
    assert all(png_size(png) == (900 * 2, 383 * 2) for png in pngs)  # no size: WeChat's
    assert all(image["altText"] == TITLE for image in images)
    assert balance(paid, prefix) == 100 - COST
    again = post(paid, key, body)  # a retry within the window: the same covers, no charge
    assert again.status_code == 200 and again.json()["images"] == images
    assert balance(paid, prefix) == 100 - COST


def _accent_pixels(png: bytes, accent: int) -> int:
    pixels = pngcodec.decode(png)[..., :3].astype(int)
    rgb = np.array([(accent >> 16) & 0xFF, (accent >> 8) & 0xFF, accent & 0xFF])
    height = pixels.shape[0]
    title = pixels[int(height * 0.2) : int(height * 0.76)]  # the headline's title box
    return int((np.abs(title - rgb).sum(axis=-1) < 30).sum())


def test_keywords_in_the_title_are_drawn_in_the_themes_accent(client: Client, key: str) -> None:
    fonts = layout.FontBook.load(layout.DEFAULT_FONTS_DIR)
    accent = covers._design(TITLE, (), themes.load("brandA"), fonts, None, 440, 586).accent
    card = {"text": TITLE, "theme": "brandA", "width": 440, "height": 586}
    plain = post(client, key, card).json()["images"][0]
    marked = post(client, key, card | {"keywords": "AI 写作，爆款"})
    assert marked.status_code == 200, marked.text
    with_keywords = _accent_pixels(download(client, marked.json()["images"][0]), accent)
    without = _accent_pixels(download(client, plain), accent)
    assert with_keywords > 3 * without + 2_000, (with_keywords, without)


def _chrome_strip(png: bytes) -> np.ndarray:
    """The top-right strip of a scale-2 900 x 383 cover where apple-notes' Notes bar draws
    its share and more icons (above the side panel's dotted field)."""
    return pngcodec.decode(png)[16:64, 1600:1780, :3].astype(int)


@shared_app
def test_the_default_cover_is_wechats_without_app_chrome(client: Client, key: str) -> None:
    """No theme and no size: a 2.35:1 cover (900 x 383 at scale 2) whose top right is the
    page's colour; naming apple-notes brings its Notes bar back, at the same size."""
    default = post(client, key, {"text": TITLE})
    named = post(client, key, {"text": TITLE, "theme": "apple-notes"})
    assert default.status_code == named.status_code == 200, default.text
    plain, chrome = (download(client, r.json()["images"][0]) for r in (default, named))
    assert png_size(plain) == png_size(chrome) == (1800, 766)
    strip = _chrome_strip(plain)
    assert (np.abs(strip - strip[0, 0]).sum(axis=-1) > 60).sum() == 0  # one flat colour
    icons = _chrome_strip(chrome)
    assert (np.abs(icons - strip[0, 0]).sum(axis=-1) > 60).sum() > 100  # the icons' ink


@shared_app
def test_explicit_sizes_and_one_dimension_still_draw_cards(client: Client, key: str) -> None:
    for body, size in (
        ({"width": 440, "height": 586}, (880, 1172)),
        ({"width": 600}, (1200, 1172)),  # the other side: the card's
        ({"height": 400}, (880, 800)),
        ({"width": 900, "height": 383}, (1800, 766)),
    ):
        response = post(client, key, {"text": TITLE, "theme": "brandA", **body})
        assert response.status_code == 200, response.text
        assert png_size(download(client, response.json()["images"][0])) == size, body


BAD_BODIES = [
    ({}, "invalid_text"),
    ({"text": ""}, "invalid_text"),
    ({"text": "   "}, "invalid_text"),
    ({"text": "x" * 81}, "invalid_text"),
    ({"text": 5}, "invalid_text"),
    ({"text": "t", "count": 0}, "invalid_count"),
    ({"text": "t", "count": 5}, "invalid_count"),
    ({"text": "t", "count": 1.5}, "invalid_count"),
    ({"text": "t", "keywords": 3}, "invalid_keywords"),
    ({"text": "t", "keywords": ["a"] * 9}, "invalid_keywords"),
    ({"text": "t", "keywords": ["x" * 21]}, "invalid_keywords"),
    ({"text": "t", "keywords": "x" * 169}, "invalid_keywords"),
    ({"text": "t", "theme": "nope"}, "invalid_theme"),
    ({"text": "t", "theme": "pop-art", "themeMode": "nope"}, "invalid_theme_mode"),
    ({"text": "t", "width": 99}, "invalid_width"),
    ({"text": "t", "height": 4001}, "invalid_height"),
]


@shared_app(generate_cost=COST)
@pytest.mark.parametrize(("body", "label"), BAD_BODIES)
def test_bad_fields_are_400_with_cost_0_and_cost_nothing(
    client: Client, body: dict[str, Any], label: str
) -> None:
    key, prefix = new_key_of(client)
    response = post(client, key, body)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == label
    assert set(response.json()) == {"success", "error", "message", "cost"}
    assert response.json()["success"] is False and response.json()["cost"] == 0
    assert balance(client, prefix) == 100


def _failed_for_nothing(response: Any, status: int) -> None:
    assert response.status_code == status, response.text
    answer = response.json()
    assert answer["success"] is False and answer["cost"] == 0, answer
    assert answer["error"] and answer["message"]


@shared_app
def test_a_null_or_non_object_body_and_a_missing_key_are_refused(client: Client, key: str) -> None:
    _failed_for_nothing(client.post(PATH, content=b"[]", headers={"x-api-key": key}), 400)
    _failed_for_nothing(client.post(PATH, json={"text": "t"}), 401)


def test_a_key_without_credits_is_402_with_cost_0(make_client: Callable[..., Client]) -> None:
    client = make_client(generate_cost=COST)
    key, info = client.app.state.services.credits.create_key("test", COST - 1)
    _failed_for_nothing(post(client, str(key), {"text": "one more"}), 402)
    assert balance(client, str(info.prefix)) == COST - 1


@shared_app
def test_a_comma_separated_string_and_a_label_theme_are_accepted(client: Client, key: str) -> None:
    body = {"text": "三步写出爆款笔记", "keywords": "爆款, 笔记、小红书", "theme": "苹果备忘录"}
    response = post(client, key, body)
    assert response.status_code == 200, response.text
    assert response.json()["cost"] == 0  # a free server


@shared_app
def test_the_openapi_document_lists_the_endpoint(client: Client) -> None:
    doc = client.get("/schema/openapi.json").json()
    operation = doc["paths"][PATH]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert schema["required"] == ["text"]
    assert {"text", "keywords", "count", "theme", "themeMode", "width", "height"} <= set(
        schema["properties"]
    )
    assert {"200", "400", "401", "402"} <= set(operation["responses"])


def test_the_mcp_tool_draws_and_charges_like_the_route(http: Http) -> None:  # noqa: F811
    key, prefix = http.new_key()

    async def scenario() -> None:
        async with http.session(key) as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            assert tools["generate_cover"].input_schema["required"] == ["text"]
            result = await session.call_tool(
                "generate_cover", {"text": TITLE, "keywords": ["爆款"], "count": 2}
            )
            assert not result.is_error, result
            answer = text_of(result)
            assert len(answer["images"]) == 2 and answer["cost"] == 2
            bad = await session.call_tool("generate_cover", {"text": " "})
            assert bad.is_error and text_of(bad)["error"] == "invalid_text"

    anyio.run(scenario)
    assert http.credits.key_info(prefix).balance == 100 - 2
