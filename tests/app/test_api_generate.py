"""POST /api/generate through Litestar's test client: defaults, split modes, sizes, caching."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard import themes
from tests.app.apphelpers import files_path, png_size, stored_files
from tests.app.conftest import both_engines, shared_app

pytestmark = both_engines

Client = TestClient[Litestar]
THREE_PARTS = "# One\n\nfirst part\n\n---\n\n# Two\n\nsecond part\n\n***\n\n# Three\n\nthird part\n"
LONG = "\n\n".join(
    f"Paragraph {i}. " + "The quick brown fox jumps over the lazy dog. " * 6 for i in range(30)
)
NAME = re.compile(r"screenshots/[0-9a-f]{32}-\d+\.png")
EXPLICIT_DEFAULTS: dict[str, Any] = {
    "markdown": "# Hello, Inkcard",
    "theme": "apple-notes",
    "themeMode": themes.modes("apple-notes")[0],
    "width": 440,
    "height": 586,
    "splitMode": "noSplit",
    "mdxMode": False,
    "overHiddenMode": False,
    "scale": 2,
}


def generate(client: Client, key: str, body: dict[str, Any] | None = None) -> list[dict[str, str]]:
    response = client.post(
        "/api/generate", json=body if body is not None else {}, headers={"x-api-key": key}
    )
    assert response.status_code == 200, response.text
    images: list[dict[str, str]] = response.json()["images"]
    return images


def download(client: Client, image: dict[str, str]) -> bytes:
    response = client.get(files_path(image["url"]))
    assert response.status_code == 200
    return response.content


@shared_app
def test_empty_body_makes_one_default_card(client: Client, key: str) -> None:
    response = client.post("/api/generate", content=b"", headers={"x-api-key": key})
    assert response.status_code == 200
    [image] = response.json()["images"]
    assert NAME.fullmatch(image["fileName"])
    # the URL names the host the client used (the test client's own)
    assert image["url"] == f"http://testserver.local/files/{image['fileName']}"
    assert png_size(download(client, image)) == (440 * 2, 586 * 2)


@shared_app
def test_explicit_defaults_equal_omitted_fields(client: Client, key: str) -> None:
    omitted = generate(client, key)
    explicit = generate(client, key, EXPLICIT_DEFAULTS)
    nulls = generate(client, key, dict.fromkeys(EXPLICIT_DEFAULTS))
    assert omitted == explicit == nulls


@shared_app
@pytest.mark.parametrize(
    ("field", "other"),
    [
        ("markdown", "# Another title"),
        ("themeMode", themes.modes("apple-notes")[-1]),
        ("width", 500),
        ("height", 700),
        ("splitMode", "autoSplit"),
        ("mdxMode", True),
        ("overHiddenMode", True),
        ("scale", 1),
    ],
)
def test_each_field_default(client: Client, key: str, field: str, other: Any) -> None:
    """Sending a field's default changes nothing; sending another value changes the files."""
    baseline = generate(client, key)
    assert generate(client, key, {field: EXPLICIT_DEFAULTS[field]}) == baseline
    assert generate(client, key, {field: other}) != baseline


@shared_app
def test_size_and_scale_set_pixel_size(client: Client, key: str) -> None:
    [image] = generate(client, key, {"width": 500, "height": 500, "scale": 1})
    assert png_size(download(client, image)) == (500, 500)
    [image] = generate(client, key, {"width": 595, "height": 842, "scale": 3})
    assert png_size(download(client, image)) == (595 * 3, 842 * 3)


@shared_app
def test_unknown_fields_are_refused_naming_the_field_meant(client: Client, key: str) -> None:
    for body, said in [
        ({"markdown": "# Extra", "foo": 1}, "unknown field `foo`; the fields read here are"),
        ({"Markdown": "x"}, "unknown field `Markdown`: did you mean `markdown`?"),
        ({"markdown": "# Extra", "nested": {"a": [1]}}, "unknown field `nested`"),
    ]:
        response = client.post("/api/generate", json=body, headers={"x-api-key": key})
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "unknown_field"
        assert response.json()["message"].startswith(said)


@shared_app
def test_no_split_is_one_card_at_least_the_height(client: Client, key: str) -> None:
    [short] = generate(client, key, {"markdown": THREE_PARTS, "splitMode": "noSplit", "scale": 1})
    assert png_size(download(client, short)) == (440, 586)
    [tall] = generate(client, key, {"markdown": LONG, "splitMode": "noSplit", "scale": 1})
    width, height = png_size(download(client, tall))
    assert width == 440 and height > 586


@shared_app
def test_hr_split_makes_one_card_per_part(client: Client, key: str) -> None:
    images = generate(client, key, {"markdown": THREE_PARTS, "splitMode": "hrSplit"})
    assert len(images) == 3
    assert [i["fileName"][-6:] for i in images] == ["-1.png", "-2.png", "-3.png"]
    assert (
        len(generate(client, key, {"markdown": "a\n\n---\n\n---\n\nb", "splitMode": "hrSplit"}))
        == 2
    )
    assert len(generate(client, key, {"markdown": "no breaks here", "splitMode": "hrSplit"})) == 1


@shared_app
def test_auto_split_makes_full_size_cards(client: Client, key: str) -> None:
    images = generate(client, key, {"markdown": LONG, "splitMode": "autoSplit", "scale": 1})
    assert len(images) > 1
    assert {png_size(download(client, i)) for i in images} == {(440, 586)}


@shared_app
def test_over_hidden_mode_cuts_to_the_card_height(client: Client, key: str) -> None:
    [image] = generate(client, key, {"markdown": LONG, "overHiddenMode": True, "scale": 1})
    assert png_size(download(client, image)) == (440, 586)


def test_repeated_request_returns_same_urls_without_rendering(
    client: Client, key: str, tmp_path: Path
) -> None:
    cards = client.app.state.services.cards
    body = {"markdown": THREE_PARTS, "splitMode": "hrSplit"}
    first = generate(client, key, body)
    renders = cards.render_count
    files = {
        p: (tmp_path / "files" / p).stat().st_mtime_ns for p in stored_files(tmp_path / "files")
    }
    second = generate(client, key, body)
    assert second == first
    assert cards.render_count == renders
    assert {
        p: (tmp_path / "files" / p).stat().st_mtime_ns for p in stored_files(tmp_path / "files")
    } == files


def test_a_missing_first_card_means_render_again(client: Client, key: str, tmp_path: Path) -> None:
    body = {"markdown": THREE_PARTS, "splitMode": "hrSplit"}
    first = generate(client, key, body)
    (tmp_path / "files" / first[0]["fileName"]).unlink()
    renders = client.app.state.services.cards.render_count
    assert generate(client, key, body) == first
    assert client.app.state.services.cards.render_count == renders + 1
    manifest = first[0]["fileName"].rsplit("-", 1)[0] + ".json"
    assert stored_files(tmp_path / "files") == sorted([i["fileName"] for i in first] + [manifest])


@shared_app
def test_files_are_served_with_type_and_cache_headers(client: Client, key: str) -> None:
    [image] = generate(client, key)
    response = client.get(files_path(image["url"]))
    assert response.headers["content-type"] == "image/png"
    assert "max-age=31536000" in response.headers["cache-control"]
    assert "immutable" in response.headers["cache-control"]
    assert client.get("/files/screenshots/../../inkcard.db").status_code == 404
    missing = client.get("/files/screenshots/none.png")
    assert missing.status_code == 404
    assert str(client.app.state.services.settings.storage_dir) not in missing.text


def test_public_url_setting_sets_the_url_base(make_client: Callable[..., Client]) -> None:
    client = make_client(public_url="https://cards.example.com/f/")
    key = client.app.state.services.credits.create_key("t", 1)[0]
    [image] = generate(client, key)
    assert image["url"] == "https://cards.example.com/f/" + image["fileName"]
