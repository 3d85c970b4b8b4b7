"""The bucket storage engines for real, one suite for both: ``gcs`` (google-cloud-storage
against gcp-storage-emulator) and ``s3`` (boto3 against moto's S3 server), each on loopback."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.app.apphelpers import files_path, free_port, new_key
from tests.app.conftest import GCS_BUCKET, S3_BUCKET

Client = TestClient[Litestar]
THREE_PARTS = "# One\n\nfirst\n\n---\n\n# Two\n\nsecond\n\n---\n\n# Three\n\nthird\n"


@dataclass
class StoredObject:
    data: bytes
    content_type: str
    cache_control: str


@dataclass
class Bucket:
    """One engine's bucket, seen through its own client library (not through ours)."""

    settings: dict[str, Any]  # the INKCARD_* overrides that point the service at it
    default_base: str  # the files' URL base without INKCARD_PUBLIC_URL
    names: Callable[[], list[str]]
    get: Callable[[str], StoredObject]
    unreachable: Callable[[pytest.MonkeyPatch], dict[str, Any]]  # overrides: nothing listens


def gcs_bucket(request: pytest.FixtureRequest) -> Bucket:
    from google.cloud import storage as gcs

    request.getfixturevalue("emulator")
    bucket = gcs.Client(project="test").bucket(GCS_BUCKET)  # anonymous, as the emulator wants

    def get(name: str) -> StoredObject:
        blob = bucket.get_blob(name)
        assert blob is not None
        content_type, cache_control = blob.content_type, blob.cache_control  # before download
        return StoredObject(blob.download_as_bytes(), content_type, cache_control)

    def unreachable(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
        monkeypatch.setenv("STORAGE_EMULATOR_HOST", f"http://127.0.0.1:{free_port()}")
        return {"storage": "gcs", "gcs_bucket": GCS_BUCKET, "gcs_retry_seconds": 0.5}

    return Bucket(
        settings={"storage": "gcs", "gcs_bucket": GCS_BUCKET, "gcs_project": "test"},
        default_base=f"https://storage.googleapis.com/{GCS_BUCKET}",
        names=lambda: [b.name for b in bucket.list_blobs()],
        get=get,
        unreachable=unreachable,
    )


def s3_bucket(request: pytest.FixtureRequest) -> Bucket:
    import boto3

    endpoint = request.getfixturevalue("s3")
    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")

    def names() -> list[str]:
        listing = client.list_objects_v2(Bucket=S3_BUCKET)
        return [item["Key"] for item in listing.get("Contents", [])]

    def get(name: str) -> StoredObject:
        answer = client.get_object(Bucket=S3_BUCKET, Key=name)
        return StoredObject(answer["Body"].read(), answer["ContentType"], answer["CacheControl"])

    def unreachable(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
        nowhere = f"http://127.0.0.1:{free_port()}"
        return {"storage": "s3", "s3_bucket": S3_BUCKET, "s3_endpoint": nowhere}

    return Bucket(
        settings={"storage": "s3", "s3_bucket": S3_BUCKET, "s3_endpoint": endpoint},
        default_base=f"{endpoint}/{S3_BUCKET}",  # path-style on an endpoint of its own
        names=names,
        get=get,
        unreachable=unreachable,
    )


@pytest.fixture(params=["gcs", "s3"])
def bucket(request: pytest.FixtureRequest) -> Bucket:
    """Each bucket engine in turn, its server running on loopback."""
    return gcs_bucket(request) if request.param == "gcs" else s3_bucket(request)


def test_cards_round_trip_through_the_bucket(
    bucket: Bucket, make_client: Callable[..., Client]
) -> None:
    local = make_client()
    cloud = make_client(**bucket.settings, storage_dir="/nonexistent")
    body = {"markdown": THREE_PARTS, "splitMode": "hrSplit"}
    key = new_key(cloud)
    response = cloud.post("/api/generate", json=body, headers={"x-api-key": key})
    assert response.status_code == 200, response.text
    images = response.json()["images"]
    assert len(images) == 3
    for image in images:
        assert image["url"] == f"{bucket.default_base}/{image['fileName']}"
    manifest = images[0]["fileName"].rsplit("-", 1)[0] + ".json"
    names = [i["fileName"] for i in images] + [manifest]
    assert sorted(bucket.names()) == sorted(names)

    expected = local.post("/api/generate", json=body, headers={"x-api-key": new_key(local)}).json()[
        "images"
    ]
    assert [i["fileName"] for i in expected] == [i["fileName"] for i in images]
    for image, same in zip(images, expected, strict=True):
        stored = bucket.get(image["fileName"])
        assert stored.content_type == "image/png"
        assert stored.cache_control == "public, max-age=31536000, immutable"
        assert stored.data == local.get(files_path(same["url"])).content


def test_repeated_request_is_served_from_the_bucket(
    bucket: Bucket, make_client: Callable[..., Client]
) -> None:
    cloud = make_client(**bucket.settings, public_url="https://cdn.example.com/cards")
    key = new_key(cloud)
    body: dict[str, Any] = {"markdown": "# Cached in the cloud"}
    first = cloud.post("/api/generate", json=body, headers={"x-api-key": key}).json()["images"]
    renders = cloud.app.state.services.cards.render_count
    second = cloud.post("/api/generate", json=body, headers={"x-api-key": key}).json()["images"]
    assert second == first
    assert first[0]["url"] == "https://cdn.example.com/cards/" + first[0]["fileName"]
    assert cloud.app.state.services.cards.render_count == renders


def test_failed_request_leaves_the_bucket_empty(
    bucket: Bucket, make_client: Callable[..., Client]
) -> None:
    cloud = make_client(**bucket.settings)
    key = new_key(cloud)
    too_many = "\n\n---\n\n".join(f"part {i}" for i in range(51))
    response = cloud.post(
        "/api/generate",
        json={"markdown": too_many, "splitMode": "hrSplit"},
        headers={"x-api-key": key},
    )
    assert response.json()["error"] == "too_many_pages"
    assert bucket.names() == []


def test_unreachable_bucket_is_502_and_not_ready(
    bucket: Bucket, make_client: Callable[..., Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    cloud = make_client(**bucket.unreachable(monkeypatch))
    response = cloud.post("/api/generate", json={}, headers={"x-api-key": new_key(cloud)})
    assert response.status_code == 502
    assert response.json()["error"] == "storage_error"
    ready = cloud.get("/readyz")
    assert ready.status_code == 503
    assert "bucket" in ready.json()["message"]
