"""Custom themes through the HTTP API: a service started with ``themes_dir`` pointing at a
folder of native and CSS themes (tests/cases/custom-themes), broken files included."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests import pngcodec
from tests.app.apphelpers import files_path, new_key
from tests.conftest import CORPUS

Client = TestClient[Litestar]
CASES = CORPUS / "custom-themes"


@pytest.fixture(scope="module")
def custom_themes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("custom")
    for path in CASES.glob("*"):
        shutil.copy(path, folder)
    return folder


@pytest.fixture
def client(shared_apps: Callable[..., Client], custom_themes: Path) -> Client:
    """The module's app on the custom themes: its tests only draw and read."""
    return shared_apps(themes_dir=str(custom_themes))


def corner(client: Client, theme: str) -> tuple[int, int, int]:
    """The RGB of the first card's top-left pixel in ``theme``."""
    body = {
        "markdown": "# Custom\n\nText.",
        "theme": theme,
        "width": 200,
        "height": 200,
        "scale": 1,
    }
    response = client.post("/api/generate", json=body, headers={"x-api-key": new_key(client)})
    assert response.status_code == 200, response.text
    png = client.get(files_path(response.json()["images"][0]["url"])).content
    pixels: np.ndarray = pngcodec.decode(png)
    r, g, b = (int(v) for v in pixels[1, 1, :3])
    return r, g, b


def test_a_css_theme_is_drawn_by_its_class_name(client: Client) -> None:
    r, g, b = corner(client, "ocean")
    assert abs(r - 0xE0) <= 3 and abs(g - 0xF2) <= 3 and abs(b - 0xFE) <= 3  # gradient start


def test_a_native_theme_file_is_drawn_by_its_name(client: Client) -> None:
    assert corner(client, "plum") == (0xF3, 0xE8, 0xFF)


def test_a_custom_theme_replaces_the_builtin_of_its_name(client: Client) -> None:
    assert corner(client, "apple-notes") == (0xFD, 0xE0, 0x47)


def test_builtins_still_work_and_broken_themes_are_unknown(client: Client) -> None:
    corner(client, "pop-art")
    key = new_key(client)
    for name in ("broken-syntax", "broken-typo", "broken-not-toml"):
        response = client.post("/api/generate", json={"theme": name}, headers={"x-api-key": key})
        assert response.status_code == 400
        assert response.json()["error"] == "invalid_theme"
        assert "ocean" in response.json()["message"]


def test_the_theme_list_has_the_custom_themes(client: Client) -> None:
    listed = {t["id"]: t["modes"] for t in client.get("/api/themes").json()["cards"]}
    assert listed["ocean"] == [] and listed["plum"] == []
    assert listed["apple-notes"] == [], "the override has no modes"
    assert "coil-notebook" in listed
