"""One brand kit, every door, against a real ``inkcard serve`` (a subprocess on loopback, the
fake WeChat platform behind it): the kit is stored once with ``PUT /api/brands/studio``, then
the same post is drawn with it over HTTP (``/api/generate``), through the MCP tool
``generate_cards`` on the service's ``/mcp``, and by ``inkcard render --brand FILE`` (the same
kit as a JSON file, no service): the three give the same pixels, and differ from the
unbranded cards where the kit draws (its logo in the footer band). Its cover, its xhs-note
and its newspic draft (what the fake platform received) show the kit too.

The image post at the platform's limit: a kit with every image it can hold (logo, footer
image, image watermark, background) adds no upload, since its marks are drawn into the cards:
20 cards are 20 images, 21 are refused before any upload. An article with the same kit
uploads only the two images it shows (the logo and the footer image)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import numpy as np
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from inkcard.app.schema import NEWSPIC_IMAGE_LIMIT
from tests import pngcodec
from tests.app.servehelpers import Serve
from tests.app.test_mcp import images_of, text_of
from tests.brandassets import POST, data_uri, kit_body, logo_png, qr_png
from tests.fakewechat import FakeWeChat

APPID = "wx5f1d2c3b4a596870"
SECRET = "0123456789abcdef0123456789abcdef"
ACCOUNT = {"Platform-Appid": APPID, "Platform-App-Secret": SECRET}
FIELDS = {"markdown": POST, "theme": "brandA", "splitMode": "autoSplit", "scale": 1}
LOGO = (228, 87, 46)  # the kit's orange logo
ADD_MATERIAL = "/cgi-bin/material/add_material"
UPLOADIMG = "/cgi-bin/media/uploadimg"


@pytest.fixture
def platform() -> Iterator[FakeWeChat]:
    with FakeWeChat({APPID: SECRET}) as fake:
        yield fake


@pytest.fixture
def served(tmp_path: Path, platform: FakeWeChat) -> Iterator[Serve]:
    serve = Serve(
        tmp_path / "serve",
        INKCARD_GENERATE_COST="1",
        INKCARD_WECHAT_API_BASE=platform.url,
        INKCARD_WECHAT_TIMEOUT="5",
    )
    try:
        yield serve.start()
    finally:
        serve.stop()


def call(serve: Serve, method: str, path: str, key: str, body: Any, **headers: str) -> Any:
    response = httpx.request(
        method,
        serve.base + path,
        json=body,
        headers={"x-api-key": key, **headers},
        timeout=120,
    )
    assert response.status_code in (200, 201), response.text
    return response.json()


def files(serve: Serve, images: list[dict[str, Any]]) -> list[bytes]:
    """The stored cards, fetched from the service's /files (the URLs name the host asked)."""
    out = []
    for image in images:
        path = "/files/" + image["url"].split("/files/", 1)[1]
        got = httpx.get(serve.base + path, timeout=30)
        assert got.status_code == 200
        out.append(got.content)
    return out


def logo_pixels(png: bytes) -> int:
    """How many pixels of the kit's logo colour the card's bottom fifth (its band) has."""
    pixels = pngcodec.decode(png)[..., :3].astype(int)
    band = pixels[-pixels.shape[0] // 5 :]
    return int((np.abs(band - LOGO).sum(axis=-1) < 40).sum())


def mcp_cards(serve: Serve, key: str, arguments: dict[str, Any]) -> list[bytes]:
    """``generate_cards`` on the service's /mcp: the PNG cards it answers with inline."""
    out: list[bytes] = []

    async def scenario() -> None:
        client = httpx2.AsyncClient(headers={"x-api-key": key}, timeout=120)
        async with (
            client,
            streamable_http_client(f"{serve.base}/mcp", http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            result = await session.call_tool("generate_cards", arguments)
            assert not result.is_error, text_of(result)
            out.extend(images_of(result))

    anyio.run(scenario)
    return out


def cli(tmp_path: Path, kit: dict[str, Any], command: str) -> list[Path]:
    """``inkcard COMMAND post.md --brand studio.json`` (``render`` or ``xhs-note``): the
    same post, the kit as a file, no service; the PNG files it wrote, cards in order."""
    (tmp_path / "post.md").write_text(POST, "utf-8")
    (tmp_path / "studio.json").write_text(json.dumps(kit), "utf-8")
    out = tmp_path / command
    flags = ["--theme", "brandA", "--split", "autoSplit", "--scale", "1"]
    post, brand = str(tmp_path / "post.md"), str(tmp_path / "studio.json")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "inkcard.app.cli",
            command,
            post,
            "-o",
            str(out),
            *flags,
            "--brand",
            brand,
        ],
        env=dict(os.environ),
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode()
    cards = [path for path in out.glob("*.png") if path.stem[-1].isdigit()]
    return sorted(cards, key=lambda path: int(path.stem.rsplit("-", 1)[-1]))


def read(paths: list[Path]) -> list[bytes]:
    return [path.read_bytes() for path in paths]


def test_one_kit_draws_the_same_cards_over_http_mcp_and_the_cli(
    served: Serve, platform: FakeWeChat, tmp_path: Path
) -> None:
    key, _ = served.key(100)
    kit = kit_body()
    call(served, "PUT", "/api/brands/studio", key, kit)  # stored once
    branded = call(served, "POST", "/api/generate", key, {**FIELDS, "brand": "studio"})
    http = files(served, branded["images"])
    plain = files(served, call(served, "POST", "/api/generate", key, FIELDS)["images"])
    assert len(http) >= 2, "the post splits: page numbers and the sign line share the band"

    # The same pixels through every door: PNG bytes may differ (zlib), pixels may not.
    mcp = mcp_cards(served, key, {**FIELDS, "brand": "studio"})
    assert pngcodec.same_cards(mcp, http)
    assert pngcodec.same_cards(read(cli(tmp_path, kit, "render")), http)

    # ...and not the unbranded cards: the kit's logo is in every card's band, only there.
    assert not pngcodec.same_cards(plain, http)
    assert all(logo_pixels(card) > 50 for card in http)
    assert all(logo_pixels(card) == 0 for card in plain)

    # The cover, the xhs-note and the image post carry the kit as well.
    cover = {"text": "品牌封面", "theme": "brandA", "width": 440, "height": 586}
    [plain_cover] = files(served, call(served, "POST", "/api/generate/cover", key, cover)["images"])
    [kit_cover] = files(
        served,
        call(served, "POST", "/api/generate/cover", key, {**cover, "brand": "studio"})["images"],
    )
    assert logo_pixels(kit_cover) > 50 and logo_pixels(plain_cover) == 0

    note = call(served, "POST", "/api/platform/xhs-note", key, {**FIELDS, "brand": "studio"})
    assert pngcodec.same_cards(files(served, note["images"]), http)  # generate's, branded
    [note_cover] = files(served, [note["cover"]])
    assert logo_pixels(note_cover) > 50
    written = cli(tmp_path, kit, "xhs-note")  # the command draws the same note, kit and all
    assert pngcodec.same_cards(read(written), http)
    assert pngcodec.same_cards([(written[0].parent / "cover.png").read_bytes()], [note_cover])

    newspic = call(
        served,
        "POST",
        "/api/platform/newspic-draft",
        key,
        {**FIELDS, "brand": "studio"},
        **ACCOUNT,
    )["data"]
    (article,) = platform.draft(newspic["media_id"])
    ids = [image["image_media_id"] for image in article["image_info"]["image_list"]]
    sent = [platform.materials[media_id][1] for media_id in ids]
    assert pngcodec.same_cards(sent, http)  # what the platform holds is the branded cards
    assert platform.hits[ADD_MATERIAL] == len(http)


def full_kit() -> dict[str, Any]:
    """A kit with every image it can hold: logo, footer image, image watermark, background."""
    rng = np.random.default_rng(11)
    paper = rng.integers(232, 256, (64, 64, 3), dtype=np.uint8)  # a light, grainy paper
    background = pngcodec.encode(np.dstack([paper, np.full((64, 64), 255, np.uint8)]))
    return kit_body(
        watermark={"image": data_uri(logo_png(48)), "opacity": 0.2, "position": "bottom-right"},
        background=data_uri(background),
        backgroundFit="tile",
    )


def test_a_kit_adds_no_image_to_an_image_post_at_the_platforms_limit(
    served: Serve, platform: FakeWeChat
) -> None:
    key, prefix = served.key(100)
    call(served, "PUT", "/api/brands/full", key, full_kit())
    parts = "\n\n---\n\n".join(f"# Part {n}\n\nA short card." for n in range(NEWSPIC_IMAGE_LIMIT))
    body = {"markdown": parts, "splitMode": "hrSplit", "scale": 1, "brand": "full"}
    data = call(served, "POST", "/api/platform/newspic-draft", key, body, **ACCOUNT)["data"]
    (article,) = platform.draft(data["media_id"])
    listed = article["image_info"]["image_list"]
    assert len(data["images"]) == len(listed) == NEWSPIC_IMAGE_LIMIT
    assert platform.hits[ADD_MATERIAL] == NEWSPIC_IMAGE_LIMIT  # one upload a card, no more
    assert platform.hits[UPLOADIMG] == 0
    sent = [platform.materials[image["image_media_id"]][1] for image in listed]
    assert all(logo_pixels(card) > 50 for card in sent), "each card carries the kit"
    assert logo_png() not in sent and qr_png() not in sent

    charged = served.balance(prefix)
    over = "\n\n---\n\n".join(f"Part {n}" for n in range(NEWSPIC_IMAGE_LIMIT + 1))
    refused = httpx.post(
        served.base + "/api/platform/newspic-draft",
        json={**body, "markdown": over},
        headers={"x-api-key": key, **ACCOUNT},
        timeout=120,
    )
    assert refused.status_code == 400 and refused.json()["error"] == "too_many_cards"
    assert refused.json()["cost"] == 0
    assert platform.hits[ADD_MATERIAL] == NEWSPIC_IMAGE_LIMIT  # nothing more was uploaded
    assert served.balance(prefix) == charged

    # An article with the same kit uploads what it shows: the logo and the footer image;
    # the background and the image watermark have no place in an article.
    article_body = {"markdown": "# 品牌文章\n\n正文。", "theme": "brandA", "brand": "full"}
    call(served, "POST", "/api/platform/convert-and-draft", key, article_body, **ACCOUNT)
    assert platform.hits[UPLOADIMG] == 2
