"""`GET /api/themes` lists every card theme with a preview per mode; the previews are served
by the service itself (no key), rendered once, and revalidated with their ETag."""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from inkcard import themes
from inkcard.app.cards import gallery
from inkcard.app.server.factory import create_app
from inkcard.app.settings import Settings
from tests import pngcodec
from tests.app.apphelpers import free_port, running_server
from tests.app.conftest import shared_app

Client = TestClient[Litestar]
PREVIEW_SIZE = (440 * gallery.PREVIEW_SCALE, math.ceil(586 * gallery.PREVIEW_SCALE))  # 220 x 293


def test_every_theme_mode_has_a_working_preview_through_a_real_server(
    make_settings: Callable[..., Settings],
) -> None:
    port = free_port()
    app = create_app(make_settings(port=port, log_level="WARNING"))
    with running_server(app, port) as base, httpx.Client(base_url=base) as http:
        listing = http.get("/api/themes").json()  # no x-api-key: the list and previews are public
        cards = listing["cards"]
        assert [card["id"] for card in cards] == themes.names()
        bodies: dict[str, bytes] = {}
        for card in cards:
            theme = themes.load(card["id"])
            assert card["label"] == theme.label and card["label"]
            assert card["description"] == theme.description and card["description"]
            assert card["modes"] == themes.modes(card["id"])
            urls = list(card["previews"].values()) or [card["preview"]]
            assert list(card["previews"]) == card["modes"]
            assert card["preview"] == urls[0]  # the default mode's
            for url in urls:
                response = http.get(url)
                assert response.status_code == 200, url
                assert response.headers["content-type"] == "image/png"
                pixels = pngcodec.decode(response.content)
                assert (pixels.shape[1], pixels.shape[0]) == PREVIEW_SIZE
                bodies[url] = response.content
        assert len(bodies) == len(gallery.variants(themes.builtin()))
        assert len(set(bodies.values())) == len(bodies), "two theme-modes share a preview"
        # the preview is the gallery's sample card, at preview scale
        variant = gallery.Variant("apple-notes", "dark-mode")
        sample = gallery.render_sample(
            themes.builtin(), app.state.services.cards.fonts, variant, 0.5
        )
        assert bodies["/api/previews/apple-notes-dark-mode.png"] == sample
    from inkcard.app.schema.article import ARTICLE_THEMES

    assert listing["articles"] == list(ARTICLE_THEMES) and len(ARTICLE_THEMES) >= 12


@shared_app
def test_previews_carry_an_etag_and_answer_304_to_it(client: Client) -> None:
    url = "/api/previews/pop-art-mint-mode.png"
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["etag"]
    assert etag.startswith('"') and len(etag) == 34
    cache = {part.strip() for part in first.headers["cache-control"].split(",")}
    assert cache == {"public", "max-age=86400"}
    again = client.get(url)
    assert again.content == first.content and again.headers["etag"] == etag
    for header in (etag, f'"x", W/{etag}', "*"):
        not_modified = client.get(url, headers={"if-none-match": header})
        assert not_modified.status_code == 304, header
        assert not_modified.content == b""
        assert not_modified.headers["etag"] == etag
    assert client.get(url, headers={"if-none-match": '"other"'}).status_code == 200
    head = client.head(url)
    assert head.status_code == 200 and head.headers["etag"] == etag and head.content == b""
    other = client.get("/api/previews/pop-art-purple-mode.png").headers["etag"]
    assert other != etag


@shared_app
@pytest.mark.parametrize(
    "name",
    [
        "nope.png",
        "apple-notes.png",  # a theme with modes has no mode-less preview
        "brandA-dark-mode.png",  # a theme without modes has no mode previews
        "apple-notes-sepia-mode.png",
        "apple-notes-light-mode",
        "..%2F..%2Fetc%2Fpasswd",
    ],
)
def test_unknown_previews_are_404_in_the_error_shape(client: Client, name: str) -> None:
    response = client.get(f"/api/previews/{name}")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    assert set(response.json()) == {"error", "message"}


def test_the_etag_follows_the_theme_file(
    make_client: Callable[..., Client], tmp_path: Path
) -> None:
    folder = tmp_path / "themes"
    shutil.copytree(themes.THEMES_DIR / "brandB", folder / "brandB")
    first = make_client(themes_dir=str(folder)).get("/api/previews/brandB.png")
    toml = folder / "brandB" / "card.toml"
    toml.write_text(toml.read_text("utf-8") + "\n# edited\n", "utf-8")
    second = make_client(themes_dir=str(folder)).get("/api/previews/brandB.png")
    assert first.status_code == second.status_code == 200
    assert first.headers["etag"] != second.headers["etag"]
    assert first.content == second.content  # a comment changes no pixel, but the file changed


def test_preview_names_never_collide(tmp_path: Path) -> None:
    for folder, text in {
        "a": 'name = "a"\nmodes = ["b"]\n',
        "a-b": 'name = "a-b"\n',
    }.items():
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "card.toml").write_text(text, "utf-8")
    previews = gallery.Previews(themes.Catalogue(tmp_path))
    assert previews.name("a", "b") == "a-b.png"
    assert previews.name("a-b", None) == "a-b-2.png"
    assert set(previews.variants) == {"a-b.png", "a-b-2.png"}


@shared_app
def test_the_document_lists_every_preview(client: Client) -> None:
    doc = client.get("/schema/openapi.json").json()
    operation = doc["paths"]["/api/previews/{name}"]["get"]
    [parameter] = operation["parameters"]
    names = [f"{v.name}.png" for v in gallery.variants(themes.builtin())]
    assert parameter["schema"]["enum"] == names
    assert "image/png" in operation["responses"]["200"]["content"]
    assert {"304", "404"} <= set(operation["responses"])
    assert "security" not in operation
