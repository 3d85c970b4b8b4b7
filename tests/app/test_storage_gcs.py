"""The gcs storage back end for real: google-cloud-storage against gcp-storage-emulator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from google.cloud import storage as gcs
from litestar import Litestar
from litestar.testing import TestClient

from tests.app.apphelpers import files_path, free_port, new_key
from tests.app.conftest import GCS_BUCKET

Client = TestClient[Litestar]
THREE_PARTS = "# One\n\nfirst\n\n---\n\n# Two\n\nsecond\n\n---\n\n# Three\n\nthird\n"


@pytest.fixture
def bucket(emulator: str) -> gcs.Bucket:
    """The test bucket, through the real client (anonymous, as against the emulator)."""
    return gcs.Client(project="test").bucket(GCS_BUCKET)


def test_cards_round_trip_through_the_bucket(
    emulator: str, bucket: gcs.Bucket, make_client: Callable[..., Client]
) -> None:
    local = make_client()
    cloud = make_client(
        storage="gcs", gcs_bucket=GCS_BUCKET, gcs_project="test", storage_dir="/nonexistent"
    )
    body = {"markdown": THREE_PARTS, "splitMode": "hrSplit"}
    key = new_key(cloud)
    response = cloud.post("/api/generate", json=body, headers={"x-api-key": key})
    assert response.status_code == 200, response.text
    images = response.json()["images"]
    assert len(images) == 3
    for image in images:
        assert image["url"] == f"https://storage.googleapis.com/{GCS_BUCKET}/{image['fileName']}"
    manifest = images[0]["fileName"].rsplit("-", 1)[0] + ".json"
    names = [i["fileName"] for i in images] + [manifest]
    assert sorted(b.name for b in bucket.list_blobs()) == sorted(names)

    expected = local.post("/api/generate", json=body, headers={"x-api-key": new_key(local)}).json()[
        "images"
    ]
    assert [i["fileName"] for i in expected] == [i["fileName"] for i in images]
    for image, same in zip(images, expected, strict=True):
        blob = bucket.get_blob(image["fileName"])
        assert blob is not None
        assert blob.content_type == "image/png"
        assert blob.cache_control == "public, max-age=31536000, immutable"
        assert blob.download_as_bytes() == local.get(files_path(same["url"])).content


def test_repeated_request_is_served_from_the_bucket(
    emulator: str, bucket: gcs.Bucket, make_client: Callable[..., Client]
) -> None:
    cloud = make_client(
        storage="gcs", gcs_bucket=GCS_BUCKET, public_url="https://cdn.example.com/cards"
    )
    key = new_key(cloud)
    body: dict[str, Any] = {"markdown": "# Cached in the cloud"}
    first = cloud.post("/api/generate", json=body, headers={"x-api-key": key}).json()["images"]
    renders = cloud.app.state.services.cards.render_count
    second = cloud.post("/api/generate", json=body, headers={"x-api-key": key}).json()["images"]
    assert second == first
    assert first[0]["url"] == "https://cdn.example.com/cards/" + first[0]["fileName"]
    assert cloud.app.state.services.cards.render_count == renders


def test_failed_request_leaves_the_bucket_empty(
    emulator: str, bucket: gcs.Bucket, make_client: Callable[..., Client]
) -> None:
    cloud = make_client(storage="gcs", gcs_bucket=GCS_BUCKET)
    key = new_key(cloud)
    too_many = "\n\n---\n\n".join(f"part {i}" for i in range(51))
    response = cloud.post(
        "/api/generate",
        json={"markdown": too_many, "splitMode": "hrSplit"},
        headers={"x-api-key": key},
    )
    assert response.json()["error"] == "too_many_pages"
    assert list(bucket.list_blobs()) == []


def test_unreachable_bucket_is_502_and_not_ready(
    make_client: Callable[..., Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(
        "STORAGE_EMULATOR_HOST", f"http://127.0.0.1:{free_port()}"
    )  # nothing listens there
    cloud = make_client(storage="gcs", gcs_bucket=GCS_BUCKET, gcs_retry_seconds=0.5)
    response = cloud.post("/api/generate", json={}, headers={"x-api-key": new_key(cloud)})
    assert response.status_code == 502
    assert response.json()["error"] == "storage_error"
    ready = cloud.get("/readyz")
    assert ready.status_code == 503
    assert "bucket" in ready.json()["message"]
