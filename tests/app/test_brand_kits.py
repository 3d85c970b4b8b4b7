"""Brand kits over HTTP: saved per API key (SQLite and PostgreSQL), read, listed, deleted;
a bad font, an oversized logo or an unknown name refused with a 400 and nothing stored or
charged; and a kit named on generate, cover, newspic-draft and the MCP tools changes their
cards the same way (its marks in the footer band, its font on the text, in a PDF)."""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anyio
import httpx
import numpy as np
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests import pngcodec
from tests.app.apphelpers import files_path
from tests.app.conftest import both_engines
from tests.app.test_mcp import Http, http, text_of  # noqa: F401 (the fixture)
from tests.brandassets import BODY_FONT, BYLINE, POST, data_uri, kit_body, logo_png, noise_png

Client = TestClient[Litestar]
COST = 2


def new_key_of(client: Client, credits: int = 100) -> tuple[str, str]:
    key, info = client.app.state.services.credits.create_key("test", credits)
    return str(key), str(info.prefix)


def balance(client: Client, prefix: str) -> int:
    return int(client.app.state.services.credits.key_info(prefix).balance)


def put(client: Client, key: str, name: str, body: Any) -> Any:
    return client.put(f"/api/brands/{name}", json=body, headers={"x-api-key": key})


def get(client: Client, key: str, path: str) -> Any:
    return client.get(path, headers={"x-api-key": key})


def post(client: Client, key: str, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json=body, headers={"x-api-key": key})


def download(client: Client, image: dict[str, Any]) -> bytes:
    response = client.get(files_path(image["url"]))
    assert response.status_code == 200
    return response.content


@both_engines
def test_a_kit_is_saved_read_listed_and_deleted_per_key(make_client: Callable[..., Client]) -> None:
    client = make_client(warm=False)
    key, _ = new_key_of(client)
    other, _ = new_key_of(client)
    created = put(client, key, "studio", kit_body())
    assert created.status_code == 201, created.text
    info = created.json()
    assert info["name"] == "studio" and info["byline"] == BYLINE
    body_font = info["fonts"]["body"]
    assert body_font["family"] == "Courier Prime" and body_font["glyphs"] > 100
    assert body_font["latin"] == 1.0 and body_font["cjk"] == 0.0
    assert info["logo"]["width"] == 96 and info["footerImage"]["width"] == 126
    assert info["watermark"] == {"opacity": 0.1, "position": "center", "text": "INKCARD"}
    assert any("Chinese" in warning for warning in info["warnings"])
    read = get(client, key, "/api/brands/studio")
    assert read.status_code == 200 and read.json() == info
    replaced = put(client, key, "studio", kit_body(byline="@new"))
    assert replaced.status_code == 200 and replaced.json()["byline"] == "@new"
    assert put(client, key, "plain", {"byline": "x"}).status_code == 201
    listed = get(client, key, "/api/brands").json()["brands"]
    assert [kit["name"] for kit in listed] == ["plain", "studio"]
    assert get(client, other, "/api/brands").json() == {"brands": []}  # one key's kits
    assert get(client, other, "/api/brands/studio").status_code == 404
    assert client.delete("/api/brands/studio", headers={"x-api-key": other}).status_code == 404
    gone = client.delete("/api/brands/studio", headers={"x-api-key": key})
    assert gone.status_code == 204
    missing = get(client, key, "/api/brands/studio")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert get(client, key, "/api/brands").json()["brands"][0]["name"] == "plain"
    assert client.get("/api/brands").status_code == 401  # no key, no kits


BROKEN = {
    "not a font": ({"fonts": {"body": base64.b64encode(b"hello " * 100).decode()}}, "invalid_font"),
    "a cut font": (
        {"fonts": {"heading": base64.b64encode(BODY_FONT[:6000]).decode()}},
        "invalid_font",
    ),
    "not base64": ({"fonts": {"body": "%%%"}}, "invalid_font"),
    "an oversized logo": ({"logo": data_uri(noise_png(400, 400))}, "invalid_image"),
    "a logo too wide": (
        {"logo": data_uri(pngcodec.encode(np.zeros((4, 3000, 3), np.uint8)))},
        "invalid_image",
    ),
    "an unknown field": ({"bylin": "x"}, "unknown_field"),
    "an unknown nested field": ({"watermark": {"text": "x", "angle": 3}}, "invalid_watermark"),
    "an empty watermark": ({"watermark": {"opacity": 0.2}}, "invalid_watermark"),
    "a bad page number": ({"pageNumber": "N of M"}, "invalid_page_number"),
    "a long byline": ({"byline": "x" * 61}, "invalid_byline"),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_bad_kit_is_a_400_and_nothing_is_stored(
    make_client: Callable[..., Client], case: str
) -> None:
    client = make_client(warm=False)
    key, _ = new_key_of(client)
    changes, label = BROKEN[case]
    response = put(
        client, key, "studio", kit_body(**changes) if "unknown field" not in case else changes
    )
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["error"] == label and answer["message"]
    assert get(client, key, "/api/brands").json() == {"brands": []}


def test_a_bad_name_is_a_400(make_client: Callable[..., Client]) -> None:
    client = make_client(warm=False)
    key, _ = new_key_of(client)
    response = put(client, key, "a" * 41, {"byline": "x"})
    assert response.status_code == 400 and response.json()["error"] == "invalid_brand"


@pytest.fixture
def paid(make_client: Callable[..., Client]) -> Client:
    return make_client(generate_cost=COST)


def test_an_unknown_brand_is_a_400_and_nothing_is_charged(paid: Client) -> None:
    key, prefix = new_key_of(paid)
    refused = post(paid, key, "/api/generate", {"markdown": "# Hi", "brand": "nope"})
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_brand"
    cover = post(paid, key, "/api/generate/cover", {"text": "Hi", "brand": "nope"})
    assert cover.status_code == 400 and cover.json()["error"] == "invalid_brand"
    assert cover.json()["cost"] == 0
    assert balance(paid, prefix) == 100


def _band(png: bytes) -> Any:
    """The bottom sixth of a card: the footer band and what is above it."""
    pixels = pngcodec.decode(png)[..., :3].astype(int)
    return pixels[-pixels.shape[0] // 6 :]


def test_a_kit_changes_the_cards_of_generate_and_cover_alike(paid: Client) -> None:
    key, prefix = new_key_of(paid)
    assert put(paid, key, "studio", kit_body()).status_code == 201
    body = {"markdown": POST, "theme": "brandA", "splitMode": "autoSplit", "scale": 1}
    plain = post(paid, key, "/api/generate", body).json()["images"]
    branded = post(paid, key, "/api/generate", {**body, "brand": "studio"}).json()["images"]
    assert len(plain) >= 2 and len(branded) >= len(plain)  # the band takes room from the text
    plain_png, branded_png = download(paid, plain[0]), download(paid, branded[0])
    assert abs(_band(plain_png) - _band(branded_png)).sum() > 0
    orange = (abs(_band(branded_png) - [228, 87, 46]).sum(axis=-1) < 40).sum()
    assert orange > 50, "the logo is drawn in the footer band"
    assert (abs(_band(plain_png) - [228, 87, 46]).sum(axis=-1) < 40).sum() == 0
    assert branded[0]["fileName"] != plain[0]["fileName"]
    notes = branded[0]["quality"]["notes"]  # the post's Chinese is not in Courier Prime
    assert any("brand kit's font draws" in note and "品" in note for note in notes), notes
    assert not any("brand" in note for note in plain[0]["quality"]["notes"])
    again = post(paid, key, "/api/generate", {**body, "brand": "studio"}).json()["images"]
    assert again[0]["fileName"] == branded[0]["fileName"]  # the same kit names the same files
    put(paid, key, "studio", kit_body(byline="@someone else"))
    edited = post(paid, key, "/api/generate", {**body, "brand": "studio"}).json()["images"]
    assert edited[0]["fileName"] != branded[0]["fileName"]  # a changed kit draws new cards

    cover = {"text": "品牌封面 Brand cover", "theme": "brandA", "width": 440, "height": 586}
    plain_cover = post(paid, key, "/api/generate/cover", cover).json()["images"][0]
    branded_cover = post(paid, key, "/api/generate/cover", {**cover, "brand": "studio"})
    assert branded_cover.status_code == 200, branded_cover.text
    cover_png = download(paid, branded_cover.json()["images"][0])
    assert (abs(_band(cover_png) - [228, 87, 46]).sum(axis=-1) < 40).sum() > 50
    plain_cover_png = download(paid, plain_cover)
    assert (abs(_band(plain_cover_png) - [228, 87, 46]).sum(axis=-1) < 40).sum() == 0
    assert balance(paid, prefix) == 100 - 5 * COST  # kits cost nothing; cards what they cost


def test_the_kit_font_draws_the_text_and_is_embedded_in_the_pdf(paid: Client) -> None:
    key, _ = new_key_of(paid)
    assert (
        put(paid, key, "mono", {"fonts": {"body": kit_body()["fonts"]["body"]}}).status_code == 201
    )
    body = {"markdown": "# Title\n\nPlain words in the body.", "theme": "minimal", "format": "pdf"}
    plain = download(paid, post(paid, key, "/api/generate", body).json()["images"][0])
    branded = download(
        paid, post(paid, key, "/api/generate", {**body, "brand": "mono"}).json()["images"][0]
    )
    assert b"CourierPrime" in branded and b"CourierPrime" not in plain
    assert len(branded) < len(plain) + len(BODY_FONT)  # subset: not the whole 44 KB file
    png = {**body, "format": "png", "scale": 1}
    a = pngcodec.decode(download(paid, post(paid, key, "/api/generate", png).json()["images"][0]))
    b = pngcodec.decode(
        download(
            paid, post(paid, key, "/api/generate", {**png, "brand": "mono"}).json()["images"][0]
        )
    )
    assert a.shape == b.shape and (a != b).any()  # the body's glyph outlines differ


def test_the_mcp_tools_draw_the_kit_as_the_routes_do(http: Http) -> None:  # noqa: F811
    key, _ = http.new_key()
    headers = {"x-api-key": key}
    saved = httpx.put(f"{http.base}/api/brands/studio", json=kit_body(), headers=headers)
    assert saved.status_code == 201, saved.text
    body = {"markdown": POST, "theme": "brandA", "splitMode": "autoSplit", "scale": 1}
    routed = httpx.post(
        f"{http.base}/api/generate", json={**body, "brand": "studio"}, headers=headers, timeout=60
    ).json()["images"]
    cover = {"text": "品牌封面", "theme": "brandA", "brand": "studio"}
    routed_cover = httpx.post(
        f"{http.base}/api/generate/cover", json=cover, headers=headers, timeout=60
    ).json()["images"]

    async def scenario() -> None:
        async with http.session(key) as session:
            cards = await session.call_tool(
                "generate_cards", {**body, "brand": "studio", "includeImages": False}
            )
            assert not cards.is_error, cards
            names = [image["fileName"] for image in text_of(cards)["images"]]
            assert names == [image["fileName"] for image in routed]  # the same cards
            covers = await session.call_tool("generate_cover", cover)
            assert text_of(covers)["images"][0]["fileName"] == routed_cover[0]["fileName"]
            unknown = await session.call_tool("generate_cards", {**body, "brand": "nope"})
            assert unknown.is_error and text_of(unknown)["error"] == "invalid_brand"

    anyio.run(scenario)


def test_an_image_post_draws_the_kit_as_generate_does(paid: Client) -> None:
    key, _ = new_key_of(paid)
    assert put(paid, key, "studio", kit_body()).status_code == 201
    fields = {"markdown": POST, "theme": "cyberpunk", "splitMode": "autoSplit", "scale": 1}
    cards = post(paid, key, "/api/generate", {**fields, "brand": "studio"}).json()["images"]
    dry = post(
        paid, key, "/api/platform/newspic-draft", {**fields, "brand": "studio", "dryRun": True}
    )
    assert dry.status_code == 200, dry.text
    names = [image["fileName"] for image in dry.json()["data"]["images"]]
    assert names == [image["fileName"] for image in cards]  # the same branded cards
    unknown = post(
        paid, key, "/api/platform/newspic-draft", {**fields, "brand": "nope", "dryRun": True}
    )
    assert unknown.status_code == 400 and unknown.json()["error"] == "invalid_brand"
    assert unknown.json()["cost"] == 0


def test_a_kit_over_the_body_limit_is_a_413_that_says_its_limit(
    make_client: Callable[..., Client],
) -> None:
    client = make_client(warm=False)
    key, _ = new_key_of(client)
    small = put(client, key, "studio", {"byline": "x" * 2_000_000})  # over 1 MiB: a kit's room
    assert small.status_code == 400 and small.json()["error"] == "invalid_byline"
    huge = put(client, key, "studio", {"byline": "x" * (13 * 1024 * 1024)})
    assert huge.status_code == 413, huge.text
    assert huge.json()["message"] == f"request body must be at most {12 * 1024 * 1024} bytes"
    assert get(client, key, "/api/brands").json() == {"brands": []}


FILES = {"/logo.png": logo_png(), "/font.otf": BODY_FONT}


class _Files(BaseHTTPRequestHandler):
    """Serves the kit's files (``FILES``); anything else is 404."""

    def do_GET(self) -> None:
        data = FILES.get(self.path)
        self.send_response(200 if data else 404)
        self.send_header("Content-Length", str(len(data or b"")))
        self.end_headers()
        self.wfile.write(data or b"")

    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture
def files_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_logo_and_a_font_by_url_are_fetched_under_the_image_rules(
    make_client: Callable[..., Client], files_url: str
) -> None:
    urls = {"logo": f"{files_url}/logo.png", "fonts": {"body": f"{files_url}/font.otf"}}
    guarded = make_client(warm=False)  # loopback is a private address: refused
    key, _ = new_key_of(guarded)
    refused = put(guarded, key, "studio", urls)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_image"
    assert get(guarded, key, "/api/brands").json() == {"brands": []}
    open_ = make_client(warm=False, allow_private_fetch=True)
    key, _ = new_key_of(open_)
    saved = put(open_, key, "studio", urls)
    assert saved.status_code == 201, saved.text
    assert saved.json()["logo"]["width"] == 96
    assert saved.json()["fonts"]["body"]["family"] == "Courier Prime"
    missing = put(open_, key, "other", {"footerImage": f"{files_url}/qr.png"})
    assert missing.status_code == 400 and missing.json()["error"] == "invalid_image"
