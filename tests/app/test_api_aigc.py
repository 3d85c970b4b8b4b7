"""The `aigc` field over HTTP and the CLI: generate's and cover's files carry the standard's
record (read back by Pillow), an article's HTML its visible line; off by default, and an
object field we do not know is a 400 that costs nothing."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from PIL import Image

from tests.app.apphelpers import files_path
from tests.app.conftest import shared_app
from tests.app.test_convert_and_draft import (  # noqa: F401 (the fixtures)
    APPID,
    SECRET,
    Service,
    material_of,
    service,
    start,
)
from tests.app.test_mcp import Http, http, text_of  # noqa: F401 (the fixture)

Client = TestClient[Litestar]
POST = "# 春天的笔记\n\n窗外的樱花开了，风一吹就落满了整条小路。"


def _record(png: bytes) -> dict[str, str] | None:
    image = Image.open(io.BytesIO(png))
    image.load()  # the iTXt chunks after IDAT are read with the pixels
    text = image.info.get("AIGC")
    return None if text is None else json.loads(text)


def _files(client: Client, answer: Any) -> list[bytes]:
    assert answer.status_code == 200, answer.text
    out = []
    for image in answer.json()["images"]:
        response = client.get(files_path(image["url"]))
        assert response.status_code == 200
        out.append(response.content)
    return out


def _balance(client: Client, key: str) -> int:
    return int(client.app.state.services.credits.authenticate(key).balance)


@shared_app
def test_generate_labels_the_files_only_when_asked(client: Client, key: str) -> None:
    body = {"markdown": POST, "scale": 1}
    headers = {"x-api-key": key}
    [plain] = _files(client, client.post("/api/generate", json=body, headers=headers))
    assert _record(plain) is None
    asked = {**body, "aigc": {"producer": "Acme", "id": "n-7"}}
    answer = client.post("/api/generate", json=asked, headers=headers)
    [labelled] = _files(client, answer)
    record = _record(labelled)
    assert record is not None
    assert (record["Label"], record["ContentProducer"], record["ProduceID"]) == ("1", "Acme", "n-7")
    assert (
        answer.json()["images"][0]["altText"]
        == "春天的笔记\n窗外的樱花开了，风一吹就落满了整条小路。"
    )
    [again] = _files(
        client, client.post("/api/generate", json={**body, "aigc": True}, headers=headers)
    )
    assert _record(again) == {**record, "ContentProducer": "", "ProduceID": ""}


@shared_app
@pytest.mark.parametrize(
    "value", [{"producer": "Acme", "model": "x"}, "yes", {"producer": 7}, {"id": "x" * 201}]
)
def test_a_bad_aigc_is_400_and_costs_nothing(client: Client, key: str, value: Any) -> None:
    before = _balance(client, key)
    answer = client.post(
        "/api/generate", json={"markdown": POST, "aigc": value}, headers={"x-api-key": key}
    )
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "invalid_aigc"
    assert "producer and id" in answer.json()["message"]
    assert _balance(client, key) == before


@shared_app
def test_covers_carry_the_record(client: Client, key: str) -> None:
    body = {"text": "春天的笔记", "aigc": True}
    for sized in ({}, {"width": 440, "height": 586}):
        answer = client.post("/api/generate/cover", json=body | sized, headers={"x-api-key": key})
        [cover] = _files(client, answer)
        assert _record(cover) is not None


@shared_app
def test_an_article_ends_with_the_visible_line(client: Client, key: str) -> None:
    path, headers = "/api/platform/convert-and-draft", {"x-api-key": key}
    linked = "# Notes\n\nPlain English, [a source](https://example.com/a)."
    for markdown, line in ((POST, "内容由AI生成"), (linked, "AI-generated")):
        labelled = client.post(path, json={"markdown": markdown, "aigc": True}, headers=headers)
        assert labelled.status_code == 200, labelled.text
        assert (
            labelled.json()["html"].rstrip().endswith(f">{line}</section></section></body></html>")
        )
        plain = client.post(path, json={"markdown": markdown}, headers=headers)
        assert line not in plain.json()["html"]


def test_the_cli_flag_labels_the_cards(tmp_path: Path) -> None:
    source = tmp_path / "post.md"
    source.write_text(POST, encoding="utf-8")
    for flags, labelled in (([], False), (["--aigc"], True)):
        out = tmp_path / ("on" if labelled else "off")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "inkcard.app.cli",
                "render",
                str(source),
                "-o",
                str(out),
                *flags,
            ],
            check=True,
            capture_output=True,
        )
        [card] = sorted(out.glob("*.png"))
        assert (_record(card.read_bytes()) is not None) is labelled


def test_a_draft_ends_with_the_line_and_its_drawn_cover_is_labelled(service: Service) -> None:  # noqa: F811
    key, _ = service.key(10)
    body = {"markdown": "# 春天的笔记\n\n只有文字。", "aigc": {"producer": "Acme"}}
    response = service.post(key, body)
    assert response.status_code == 200, response.text
    article = service.stored(response.json()["data"]["media_id"])
    assert article["content"].endswith(">内容由AI生成</section></section>")
    record = _record(material_of(service, article))  # the cover drawn from the title
    assert record is not None and record["ContentProducer"] == "Acme"


@pytest.fixture
def drawing_service(start: Callable[..., Service]) -> Service:  # noqa: F811
    """The service with its render process: a newspic draft draws its cards."""
    return start()


def test_a_newspic_drafts_cards_are_labelled(drawing_service: Service) -> None:
    drawing = drawing_service
    key, _ = drawing.key(10)
    body = {
        "markdown": "# 春天的笔记\n\n樱花\n\n---\n\n第二张",
        "splitMode": "hrSplit",
        "aigc": True,
    }
    sent = {"x-api-key": key, "Platform-Appid": APPID, "Platform-App-Secret": SECRET}
    answer = httpx.post(
        drawing.base + "/api/platform/newspic-draft", json=body, headers=sent, timeout=60
    )
    assert answer.status_code == 200, answer.text
    (article,) = drawing.platform.draft(answer.json()["data"]["media_id"])
    ids = [image["image_media_id"] for image in article["image_info"]["image_list"]]
    assert len(ids) == 2
    for media_id in ids:  # each card as the platform received it
        assert _record(drawing.platform.materials[media_id][1]) is not None


def test_the_mcp_tool_labels_the_cards(http: Http) -> None:  # noqa: F811
    key, _ = http.new_key()

    async def scenario() -> list[dict[str, Any]]:
        async with http.session(key) as session:
            result = await session.call_tool(
                "generate_cards",
                {"markdown": POST, "aigc": {"producer": "Acme"}, "includeImages": False},
            )
            assert not result.is_error, result
            images: list[dict[str, Any]] = text_of(result)["images"]
            bad = await session.call_tool("generate_cards", {"aigc": {"who": "x"}})
            assert bad.is_error and text_of(bad)["error"] == "invalid_aigc"
            return images

    [image] = anyio.run(scenario)
    record = _record(httpx.get(image["url"]).content)
    assert record is not None and record["ContentProducer"] == "Acme"
