"""INKCARD_* environment variables → Settings."""

from __future__ import annotations

import pytest

from inkcard.app.settings import Settings, SettingsError, load_settings


def test_defaults_without_environment() -> None:
    settings = load_settings({"HOME": "/home/u"})
    home = "/home/u/.local/share/inkcard"
    assert settings == Settings(
        home=home, database=f"{home}/inkcard.db", storage_dir=f"{home}/files"
    )
    assert settings.database == "/home/u/.local/share/inkcard/inkcard.db"
    assert settings.storage == "local" and settings.storage_dir == f"{home}/files"
    assert settings.generate_cost == 0 and settings.bootstrap_key is True
    assert settings.files_url == "http://127.0.0.1:8000/files"


def test_environment_is_read_and_typed() -> None:
    settings = load_settings(
        {
            "INKCARD_PORT": "9000",
            "INKCARD_HOST": "0.0.0.0",
            "INKCARD_GENERATE_COST": "2",
            "INKCARD_BOOTSTRAP_KEY": "0",
            "INKCARD_TIMEOUT": "12.5",
            "OTHER": "ignored",
        }
    )
    assert settings.port == 9000 and settings.generate_cost == 2 and settings.timeout == 12.5
    assert settings.bootstrap_key is False
    assert settings.files_url == "http://127.0.0.1:9000/files"


def test_gcs_urls() -> None:
    gcs = load_settings({"INKCARD_STORAGE": "gcs", "INKCARD_GCS_BUCKET": "cards"})
    assert gcs.files_url == "https://storage.googleapis.com/cards"
    cdn = load_settings(
        {
            "INKCARD_STORAGE": "gcs",
            "INKCARD_GCS_BUCKET": "cards",
            "INKCARD_PUBLIC_URL": "https://cdn.x/",
        }
    )
    assert cdn.files_url == "https://cdn.x"


def test_an_operator_may_ask_for_smaller_pngs() -> None:
    assert load_settings({}).png_compression == "fast"
    assert load_settings({"INKCARD_PNG_COMPRESSION": "small"}).png_compression == "small"


@pytest.mark.parametrize(
    "env",
    [
        {"INKCARD_STORAGE": "s3"},
        {"INKCARD_STORAGE": "gcs"},
        {"INKCARD_PORT": "eighty"},
        {"INKCARD_PORT": "0"},
        {"INKCARD_BOOTSTRAP_KEY": "maybe"},
        {"INKCARD_GENERATE_COST": "-1"},
        {"INKCARD_TIMEOUT": "0"},
        {"INKCARD_PNG_COMPRESSION": "smallest"},
    ],
)
def test_bad_values_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(SettingsError, match="INKCARD"):
        load_settings(env)


def test_every_setting_is_documented_and_every_documented_setting_exists() -> None:
    """docs/configuration.md names each ``Settings`` field as its variable, and no other."""
    import re
    from pathlib import Path

    import msgspec

    from inkcard.app.settings import Settings

    doc = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
    documented = set(re.findall(r"^\| `(INKCARD_[A-Z0-9_]+)`", doc.read_text("utf-8"), re.M))
    fields = {"INKCARD_" + f.name.upper() for f in msgspec.structs.fields(Settings)}
    assert documented == fields
