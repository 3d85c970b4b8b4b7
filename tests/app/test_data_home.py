"""One data directory for `serve`, `mcp` and the CLI, whatever the working directory; errors
about keys name the database they looked in (never a password)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inkcard.app.settings import database_shown, load_settings


def test_the_data_directory_follows_the_xdg_rule_and_inkcard_home() -> None:
    xdg = load_settings({"XDG_DATA_HOME": "/x/data", "HOME": "/home/u"})
    assert (xdg.home, xdg.database) == ("/x/data/inkcard", "/x/data/inkcard/inkcard.db")
    relative_xdg = load_settings({"XDG_DATA_HOME": "rel", "HOME": "/home/u"})
    assert relative_xdg.home == "/home/u/.local/share/inkcard"  # the spec ignores relative
    own = load_settings({"INKCARD_HOME": "/srv/ink", "HOME": "/home/u"})
    assert (own.database, own.storage_dir) == ("/srv/ink/inkcard.db", "/srv/ink/files")
    both = load_settings({"INKCARD_HOME": "/srv/ink", "INKCARD_DATABASE": "/db/k.db"})
    assert (both.database, both.storage_dir) == ("/db/k.db", "/srv/ink/files")


@pytest.mark.parametrize(
    ("database", "shown"),
    [
        ("/var/lib/inkcard.db", "/var/lib/inkcard.db"),
        ("postgresql://ink:s3cret@db:5432/ink", "postgresql://ink@db:5432/ink"),
        (
            "postgresql://ink:s3cret@[::1]/ink?sslmode=require",
            "postgresql://ink@[::1]/ink?sslmode=require",
        ),
        ("postgres://db/ink?password=s3cret&sslmode=off", "postgres://db/ink?sslmode=off"),
    ],
)
def test_the_database_is_named_without_its_password(database: str, shown: str) -> None:
    assert database_shown(database) == shown


def _inkcard(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INKCARD_", "XDG_"))}
    env["HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "inkcard.app.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_keys_made_in_one_folder_are_found_from_another(tmp_path: Path) -> None:
    home, here, there = tmp_path / "home", tmp_path / "a", tmp_path / "b"
    for folder in (home, here, there):
        folder.mkdir()
    made = _inkcard(here, home, "keys", "create", "--name", "n", "--credits", "3")
    assert made.returncode == 0, made.stderr
    prefix = made.stdout.strip()[:8]
    listed = _inkcard(there, home, "keys", "list")
    assert prefix in listed.stdout
    assert (home / ".local/share/inkcard/inkcard.db").is_file()
    assert not (here / "data").exists() and not (there / "data").exists()


def test_key_errors_name_the_database(tmp_path: Path) -> None:
    db = tmp_path / "home" / ".local/share/inkcard/inkcard.db"
    shown = _inkcard(tmp_path, tmp_path / "home", "credits", "show", "ik_zzzzz")
    assert shown.returncode == 1
    assert shown.stderr.strip() == (
        f"inkcard: no key has the prefix ik_zzzzz (database {db}; INKCARD_HOME or"
        " INKCARD_DATABASE choose another)"
    )
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "inkcard.db").write_bytes(b"")
    mcp = subprocess.run(
        [sys.executable, "-m", "inkcard.app.cli", "mcp", "--api-key", "ik_" + "x" * 32],
        cwd=tmp_path,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith(("INKCARD_", "XDG_"))},
            "HOME": str(tmp_path / "home"),
        },
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert mcp.returncode != 0
    assert f"invalid_api_key: the API key is unknown or has been revoked (database {db};" in (
        mcp.stderr
    )
    assert f"data/inkcard.db here is from an earlier version: INKCARD_HOME={tmp_path / 'data'}" in (
        mcp.stderr
    )
