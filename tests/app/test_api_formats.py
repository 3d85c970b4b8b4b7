"""POST /api/generate with `format` and `quality`, and every record's `altText`."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pypdf
import pytest
import skia
from litestar import Litestar
from litestar.testing import TestClient

from tests.app.apphelpers import files_path, new_key, stored_files
from tests.app.conftest import shared_app
from tests.conftest import corpus_posts
from tests.visible_text import squeeze, visible_text

Client = TestClient[Litestar]
TWO = "# One\n\nfirst part\n\n---\n\n# Two\n\nsecond part"
BODY: dict[str, Any] = {"markdown": TWO, "splitMode": "hrSplit", "scale": 1, "width": 300}


def balance(client: Client, key: str) -> int:
    return int(client.app.state.services.credits.authenticate(key).balance)


def generate(client: Client, key: str, **fields: Any) -> list[dict[str, str]]:
    response = client.post("/api/generate", json={**BODY, **fields}, headers={"x-api-key": key})
    assert response.status_code == 200, response.text
    images: list[dict[str, str]] = response.json()["images"]
    return images


def download(client: Client, image: dict[str, str]) -> tuple[bytes, str]:
    response = client.get(files_path(image["url"]))
    assert response.status_code == 200
    return response.content, response.headers["content-type"]


@shared_app
@pytest.mark.parametrize(
    ("fmt", "extension", "media_type"),
    [("png", "png", "image/png"), ("jpeg", "jpg", "image/jpeg"), ("webp", "webp", "image/webp")],
)
def test_image_formats_are_stored_and_served_as_themselves(
    client: Client, key: str, fmt: str, extension: str, media_type: str
) -> None:
    images = generate(client, key, format=fmt)
    assert len(images) == 2
    for image in images:
        assert image["fileName"].endswith("." + extension)
        data, served_as = download(client, image)
        assert served_as == media_type
        decoded = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(data))
        assert (decoded.width(), decoded.height()) == (300, 586)
    assert [image["altText"] for image in images] == ["One\nfirst part", "Two\nsecond part"]


@shared_app
def test_pdf_is_one_record_of_every_card(client: Client, key: str) -> None:
    [image] = generate(client, key, format="pdf")
    assert image["fileName"].endswith(".pdf")
    data, served_as = download(client, image)
    assert served_as == "application/pdf"
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2
    assert "firstpart" in squeeze(reader.pages[0].extract_text())
    assert "secondpart" in squeeze(reader.pages[1].extract_text())
    assert image["altText"] == "One\nfirst part\n\nTwo\nsecond part"


@shared_app
def test_each_format_and_quality_is_its_own_set(client: Client, key: str) -> None:
    names = {
        generate(client, key, format="jpeg", quality=quality)[0]["fileName"] for quality in (40, 90)
    } | {generate(client, key, format=fmt)[0]["fileName"] for fmt in ("png", "webp", "pdf")}
    assert len(names) == 5
    # quality means nothing to PNG: it does not make another set
    assert generate(client, key, quality=10) == generate(client, key)
    # and the default quality is the one an explicit 90 names
    assert generate(client, key, format="webp") == generate(client, key, format="webp", quality=90)


@shared_app
def test_lower_quality_is_smaller(client: Client, key: str) -> None:
    low = download(client, generate(client, key, format="jpeg", quality=10)[0])[0]
    high = download(client, generate(client, key, format="jpeg", quality=100)[0])[0]
    assert len(low) < len(high)


@pytest.mark.parametrize(
    ("fields", "label"),
    [
        ({"format": "gif"}, "invalid_format"),
        ({"format": "PNG"}, "invalid_format"),
        ({"format": 1}, "invalid_format"),
        ({"format": "jpeg", "quality": 0}, "invalid_quality"),
        ({"format": "jpeg", "quality": 101}, "invalid_quality"),
        ({"format": "webp", "quality": 50.5}, "invalid_quality"),
        ({"quality": "high"}, "invalid_quality"),
    ],
)
def test_bad_format_or_quality_is_400_and_costs_nothing(
    make_client: Callable[..., Client], tmp_path: Path, fields: dict[str, Any], label: str
) -> None:
    client = make_client(warm=False, generate_cost=1)  # refused before any drawing
    key = new_key(client, credits=5)
    response = client.post("/api/generate", json={**BODY, **fields}, headers={"x-api-key": key})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == label
    assert ("format" if label == "invalid_format" else "quality") in body["message"]
    assert balance(client, key) == 5
    assert stored_files(tmp_path / "files") == []


@shared_app
def test_a_whole_number_quality_may_be_written_as_a_float(client: Client, key: str) -> None:
    assert generate(client, key, format="jpeg", quality=70.0) == generate(
        client, key, format="jpeg", quality=70
    )


@shared_app
@pytest.mark.parametrize("post", corpus_posts(), ids=lambda p: p.stem)
def test_alt_text_of_every_corpus_post_is_its_visible_text(
    client: Client, key: str, post: Path
) -> None:
    markdown = post.read_text("utf-8")
    response = client.post(
        "/api/generate",
        json={"markdown": markdown, "splitMode": "autoSplit", "scale": 1},
        headers={"x-api-key": key},
    )
    assert response.status_code == 200, response.text
    alt = "".join(image["altText"] for image in response.json()["images"])
    assert squeeze(alt) == squeeze(visible_text(markdown))


@pytest.mark.parametrize(("file_format", "side"), [("webp", "16,383"), ("jpeg", "65,535")])
def test_a_card_taller_than_its_format_holds_is_400_before_drawing(
    client: Client, key: str, tmp_path: Path, file_format: str, side: str
) -> None:
    """WebP holds 16,383 px a side and JPEG 65,535: a taller card is refused after layout,
    before drawing (it was a 500 after the worker had drawn it), and costs nothing."""
    # A narrow card at scale 1 grows past both formats' sides while it stays under the
    # 102,400,000-pixel limit of one card.
    body = {"markdown": "a\n\n" * 3000, "format": file_format, "width": 300, "scale": 1}
    before = balance(client, key)
    response = client.post("/api/generate", json=body, headers={"x-api-key": key})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "card_too_large"
    assert f"{file_format} holds at most {side} pixels a side" in response.json()["message"]
    assert balance(client, key) == before
    assert stored_files(tmp_path / "files") == []
    as_png = client.post(
        "/api/generate", json={**body, "format": "png", "scale": 1}, headers={"x-api-key": key}
    )
    assert as_png.status_code == 200, as_png.text
