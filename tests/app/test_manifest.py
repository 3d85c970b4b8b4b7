"""A stored set is complete only when its manifest says so; /readyz proves storage by writing.

Local storage on a temporary folder and google-cloud-storage against gcp-storage-emulator.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gcp_storage_emulator.server import create_server
from google.cloud import storage as gcs
from litestar import Litestar
from litestar.testing import TestClient

from inkcard.app.errors import StorageError
from inkcard.app.storage import LocalStorage, StorageProbe
from tests.app.apphelpers import free_port, new_key, stored_files, wait_warm
from tests.app.dbhelpers import age_every_answer
from tests.app.test_api_errors import assert_error, post

Client = TestClient[Litestar]
BUCKET = "inkcard-manifest"
TWELVE = {
    "markdown": "\n\n---\n\n".join(f"# Part {i}" for i in range(1, 13)),
    "splitMode": "hrSplit",
}


def manifest_of(images: list[dict[str, str]]) -> str:
    return images[0]["fileName"].rsplit("-", 1)[0] + ".json"


def generate(client: Client, key: str, body: dict[str, Any]) -> list[dict[str, str]]:
    response = post(client, key, body)
    assert response.status_code == 200, response.text
    images: list[dict[str, str]] = response.json()["images"]
    return images


def balance(client: Client, key: str) -> int:
    return int(client.app.state.services.credits.authenticate(key).balance)


# Local storage ---------------------------------------------------------------


def test_manifest_lists_every_card_with_its_size(client: Client, key: str, tmp_path: Path) -> None:
    files = tmp_path / "files"
    images = generate(client, key, TWELVE)
    manifest = json.loads((files / manifest_of(images)).read_bytes())
    assert manifest == {
        "cards": [
            {
                "name": i["fileName"],
                "size": (files / i["fileName"]).stat().st_size,
                "alt": i["altText"],
                "quality": i["quality"],
            }
            for i in images
        ]
    }
    assert stored_files(files) == sorted([i["fileName"] for i in images] + [manifest_of(images)])


def test_a_set_missing_its_last_card_is_rendered_again(
    make_client: Callable[..., Client], tmp_path: Path
) -> None:
    # Regression: card 12 of 12 deleted was served as a complete 11-card answer.
    client = make_client(generate_cost=1)
    key = new_key(client, credits=5)
    first = generate(client, key, TWELVE)
    (tmp_path / "files" / first[11]["fileName"]).unlink()
    age_every_answer(client.app.state.services.idempotency)  # a later call, not a retry
    renders = client.app.state.services.cards.render_count
    assert generate(client, key, TWELVE) == first
    assert client.app.state.services.cards.render_count == renders + 1
    assert (tmp_path / "files" / first[11]["fileName"]).is_file()
    assert balance(client, key) == 3  # two complete answers, each charged once


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda card, manifest: manifest.unlink(), id="no-manifest"),
        pytest.param(lambda card, manifest: manifest.write_bytes(b"{not json"), id="bad-json"),
        pytest.param(lambda card, manifest: card.write_bytes(b"short"), id="wrong-size"),
    ],
)
def test_a_set_its_manifest_does_not_vouch_for_is_rendered_again(
    client: Client, key: str, tmp_path: Path, damage: Callable[[Path, Path], None]
) -> None:
    files = tmp_path / "files"
    first = generate(client, key, TWELVE)
    damage(files / first[0]["fileName"], files / manifest_of(first))
    renders = client.app.state.services.cards.render_count
    assert generate(client, key, TWELVE) == first
    assert client.app.state.services.cards.render_count == renders + 1
    again = generate(client, key, TWELVE)  # now whole again: served from storage
    assert again == first
    assert client.app.state.services.cards.render_count == renders + 1


def test_a_manifest_that_cannot_be_written_leaves_no_cards(
    make_client: Callable[..., Client], tmp_path: Path
) -> None:
    client = make_client(generate_cost=1)
    key = new_key(client, credits=5)
    files = tmp_path / "files"
    first = generate(client, key, {"markdown": "# probe"})
    shutil.rmtree(files / "screenshots")
    (files / manifest_of(first)).mkdir(parents=True)  # the manifest's name is now a folder
    age_every_answer(client.app.state.services.idempotency)  # a later call, not a retry
    assert_error(post(client, key, {"markdown": "# probe"}), 502, "storage_error")
    assert stored_files(files) == []
    assert balance(client, key) == 4


# Readiness ---------------------------------------------------------------------


def test_readyz_writes_and_deletes_a_probe(client: Client, tmp_path: Path) -> None:
    wait_warm(client)
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["storage"] == "writable"
    assert stored_files(tmp_path / "files") == []


def test_readyz_fails_when_card_writes_fail(client: Client, key: str, tmp_path: Path) -> None:
    # Regression: the root folder was writable, so /readyz said ready, but the card
    # folder was not. Tests run as root, so the folder is replaced by a file instead.
    (tmp_path / "files" / "screenshots").write_bytes(b"a file where the folder should be")
    assert_error(post(client, key, {}), 502, "storage_error")
    response = client.get("/readyz")
    assert_error(response, 503, "not_ready", "could not write screenshots/readyz-")


def test_probe_remembers_its_outcome_for_a_while(tmp_path: Path) -> None:
    root = tmp_path / "files"
    storage = LocalStorage(root, "http://127.0.0.1/files")
    remembering = StorageProbe(storage, "screenshots", seconds=3600)
    fresh = StorageProbe(storage, "screenshots", seconds=0)
    remembering.check()
    fresh.check()
    shutil.rmtree(root)
    root.write_bytes(b"storage is broken")
    remembering.check()  # the success is remembered
    with pytest.raises(StorageError):
        fresh.check()
    root.unlink()
    fresh.check()  # storage works again (put makes the folders)
    assert stored_files(root) == []


# Google Cloud Storage ----------------------------------------------------------


@pytest.fixture
def cloud(make_client: Callable[..., Client], monkeypatch: pytest.MonkeyPatch) -> Iterator[Client]:
    """An app on gcs storage against an in-memory emulator on a free 127.0.0.1 port."""
    port = free_port()
    server = create_server("127.0.0.1", port, in_memory=True, default_bucket=BUCKET)
    server.start()
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", f"http://127.0.0.1:{port}")
    try:
        yield make_client(storage="gcs", gcs_bucket=BUCKET, gcs_project="test", generate_cost=1)
    finally:
        server.stop()


def blobs() -> dict[str, Any]:
    return {b.name: b for b in gcs.Client(project="test").bucket(BUCKET).list_blobs()}


def test_gcs_manifest_is_written_with_the_cards(cloud: Client) -> None:
    images = generate(cloud, new_key(cloud), TWELVE)
    stored = blobs()
    assert sorted(stored) == sorted([i["fileName"] for i in images] + [manifest_of(images)])
    manifest = stored[manifest_of(images)]
    assert manifest.content_type == "application/json"
    cards = json.loads(manifest.download_as_bytes())["cards"]
    assert [(c["name"], c["size"]) for c in cards] == [
        (i["fileName"], stored[i["fileName"]].size) for i in images
    ]


def test_gcs_set_missing_a_card_is_rendered_again(cloud: Client) -> None:
    key = new_key(cloud, credits=5)
    first = generate(cloud, key, TWELVE)
    blobs()[first[11]["fileName"]].delete()
    age_every_answer(cloud.app.state.services.idempotency)  # a later call, not a retry
    renders = cloud.app.state.services.cards.render_count
    assert generate(cloud, key, TWELVE) == first
    assert cloud.app.state.services.cards.render_count == renders + 1
    assert first[11]["fileName"] in blobs()
    assert balance(cloud, key) == 3


def test_gcs_readyz_leaves_no_probe(cloud: Client) -> None:
    wait_warm(cloud)
    response = cloud.get("/readyz")
    assert response.status_code == 200, response.text
    assert blobs() == {}
