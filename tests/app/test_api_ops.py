"""Operations endpoints: health, readiness, themes, OpenAPI document and docs page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

from inkcard import themes
from inkcard.app.schema import ARTICLE_THEMES
from tests.app.apphelpers import wait_warm
from tests.app.conftest import shared_app

Client = TestClient[Litestar]
# The mode IDs the original API defines for generate; every other theme has none.
INTERFACE_MODES = {
    "apple-notes": ["light-mode", "dark-mode"],
    "coil-notebook": ["blue-mode", "pink-mode", "mint-mode", "yellow-mode"],
    "pop-art": ["default-mode", "pink-blue-mode", "mint-mode", "purple-mode"],
}


@shared_app
def test_healthz(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@shared_app
def test_readyz_when_everything_works(client: Client) -> None:
    wait_warm(client)
    response = client.get("/readyz")
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "ready"
    assert response.json()["renderers"] == "warm"


def test_readyz_reports_what_is_broken(make_client: Callable[..., Client], tmp_path: Path) -> None:
    client = make_client(warm=False)  # fonts and database: no render process is needed
    client.app.state.services.cards.fonts = None
    (tmp_path / "inkcard.db").unlink()
    (tmp_path / "inkcard.db").mkdir()  # the database path is now a folder: not writable
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["error"] == "not_ready"
    assert "fonts" in body["message"] and "database" in body["message"]


# The mode IDs the original API defines for generate; every other theme has none.
INTERFACE_MODES = {
    "apple-notes": ["light-mode", "dark-mode"],
    "coil-notebook": ["blue-mode", "pink-mode", "mint-mode", "yellow-mode"],
    "pop-art": ["default-mode", "pink-blue-mode", "mint-mode", "purple-mode"],
}


@shared_app
def test_themes_lists_every_card_theme_with_modes(client: Client) -> None:
    response = client.get("/api/themes")
    assert response.status_code == 200
    body = response.json()
    on_disk = sorted(path.parent.name for path in themes.THEMES_DIR.glob("*/card.toml"))
    assert [card["id"] for card in body["cards"]] == on_disk
    assert "apple-notes" in on_disk
    for card in body["cards"]:
        assert card["modes"] == INTERFACE_MODES.get(card["id"], []), card["id"]
    # brandA first: the default of convert-and-draft
    assert body["articles"] == list(ARTICLE_THEMES) and len(body["articles"]) >= 12


@shared_app
def test_openapi_document_describes_generate(client: Client) -> None:
    doc = client.get("/schema/openapi.json").json()
    operation = doc["paths"]["/api/generate"]["post"]
    fields = operation["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert set(fields) == {
        "markdown",
        "theme",
        "themeMode",
        "width",
        "height",
        "splitMode",
        "mdxMode",
        "overHiddenMode",
        "scale",
        "format",
        "quality",
        "fit",
        "aigc",
        "brand",
    }
    assert sorted(fields["format"]["anyOf"][0]["enum"]) == ["jpeg", "pdf", "png", "webp"]
    assert fields["quality"]["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 100}
    record = doc["components"]["schemas"]["ImageRecord"]
    assert sorted(record["required"]) == ["altText", "fileName", "url"]
    assert "reading order" in record["properties"]["altText"]["description"]
    assert fields["width"] == {
        "description": "Card width in CSS pixels (100..1600), rounded to a whole pixel.",
        "default": 440,
        "anyOf": [{"type": "number", "minimum": 100, "maximum": 1600}, {"type": "null"}],
    }
    assert fields["scale"]["anyOf"] == [
        {"type": "integer", "minimum": 1, "maximum": 4},
        {"type": "null"},
    ]
    assert all({"type": "null"} in field["anyOf"] for field in fields.values())
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    on_disk = sorted(path.parent.name for path in themes.THEMES_DIR.glob("*/card.toml"))
    assert body["anyOf"] == [theme_choice(name) for name in on_disk]
    assert body["anyOf"][0] == {  # the default theme: also when `theme` is absent
        "properties": {
            "theme": {"enum": ["apple-notes", "苹果备忘录", None]},
            "themeMode": {"enum": ["light-mode", "dark-mode", None]},
        }
    }
    assert {"200", "400", "401", "402", "413", "503", "504"} <= set(operation["responses"])
    assert operation["security"] == [{"apiKey": []}]
    assert doc["components"]["securitySchemes"]["apiKey"]["name"] == "x-api-key"
    assert {"/healthz", "/readyz", "/api/themes"} <= set(doc["paths"])


def theme_choice(name: str) -> dict[str, object]:
    """What the request schema says of one theme: its names (ID, label) and the modes it accepts."""
    names = [name, themes.load(name).label]
    properties: dict[str, object] = {"theme": {"enum": names}}
    if name == "apple-notes":
        properties["theme"] = {"enum": [*names, None]}
    if modes := INTERFACE_MODES.get(name):
        properties["themeMode"] = {"enum": [*modes, None]}
    return {"properties": properties} | ({} if name == "apple-notes" else {"required": ["theme"]})


@shared_app
def test_docs_page_is_served(client: Client) -> None:
    response = client.get("/schema")
    assert response.status_code == 200
    assert "text/html" in response.headers["content-type"]
    assert "<title>Inkcard</title>" in response.text
    assert "swagger" in response.text.lower()
