"""Every storage engine keeps one contract, and `inkcard storage prune` works on each: local on
a temporary folder, gcs against gcp-storage-emulator, s3 against moto's S3 server (loopback)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from inkcard.app.cli import main
from inkcard.app.settings import Settings, SettingsError, load_settings
from inkcard.app.storage import LocalStorage, make_storage
from inkcard.app.storage.prune import DAY_SECONDS, prune, set_of
from tests.app.conftest import GCS_BUCKET, S3_BUCKET

DAY = DAY_SECONDS
CARDS = ("screenshots", "covers")


@pytest.fixture(params=["local", "gcs", "s3"])
def engine_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The ``INKCARD_*`` variables of each engine in turn, its server running on loopback."""
    if request.param == "gcs":
        request.getfixturevalue("emulator")
        return {"INKCARD_STORAGE": "gcs", "INKCARD_GCS_BUCKET": GCS_BUCKET}
    if request.param == "s3":
        endpoint = request.getfixturevalue("s3")
        return {
            "INKCARD_STORAGE": "s3",
            "INKCARD_S3_BUCKET": S3_BUCKET,
            "INKCARD_S3_ENDPOINT": endpoint,
        }
    return {"INKCARD_STORAGE": "local", "INKCARD_STORAGE_DIR": str(tmp_path / "files")}


@pytest.fixture
def storage(engine_env: dict[str, str]) -> Any:
    return make_storage(load_settings(engine_env))


def put_set(storage: Any, digest: str, cards: int, manifest: bool = True) -> int:
    """Store a set the way the card service does; return its bytes."""
    total = 0
    for n in range(1, cards + 1):
        data = f"card {n} of {digest}".encode()
        storage.put(f"screenshots/{digest}-{n}.png", data, "image/png")
        total += len(data)
    if manifest:
        storage.put(f"screenshots/{digest}.json", b"{}", "application/json")
        total += 2
    return total


def test_every_engine_keeps_the_contract(storage: Any) -> None:
    storage.put("screenshots/ab12-1.png", b"one", "image/png")
    storage.put("screenshots/ab12-1.png", b"one", "image/png")  # the same name again is fine
    storage.put("screenshots/ab12-2.png", b"second", "image/png")
    storage.put("covers/cd34-1.png", b"cover", "image/png")
    assert storage.read("screenshots/ab12-2.png") == b"second"
    assert storage.read("screenshots/nothing-1.png") is None
    assert storage.sizes("screenshots/ab12-") == {
        "screenshots/ab12-1.png": 3,
        "screenshots/ab12-2.png": 6,
    }
    entries = storage.entries("screenshots/")
    assert sorted(e.name for e in entries) == ["screenshots/ab12-1.png", "screenshots/ab12-2.png"]
    assert all(abs(e.modified - time.time()) < 600 for e in entries)
    assert storage.url("covers/cd34-1.png").endswith("/covers/cd34-1.png")
    storage.delete("screenshots/ab12-1.png")
    storage.delete("screenshots/ab12-1.png")  # already gone: not an error
    assert storage.read("screenshots/ab12-1.png") is None
    storage.check("screenshots")  # writes and deletes a probe
    assert set(storage.sizes("screenshots/")) == {"screenshots/ab12-2.png"}
    with pytest.raises(ValueError, match="unsafe"):
        storage.put("../etc/passwd", b"x", "image/png")


def test_prune_removes_sets_older_than_the_cutoff_on_every_engine(storage: Any) -> None:
    size = put_set(storage, "aa11", 3) + put_set(storage, "bb22", 1)
    storage.put("covers/cc33-1.png", b"cover", "image/png")
    later = time.time() + 2 * DAY  # two days on, everything stored now is two days old

    kept = prune(storage, CARDS, older_than_days=3, now=later)
    assert kept.count == 0 and kept.bytes == 0

    dry = prune(storage, CARDS, older_than_days=1, dry_run=True, now=later)
    assert dry.count == 7 and dry.bytes == size + 5
    assert len(storage.entries("screenshots/")) == 6  # a dry run deletes nothing

    done = prune(storage, CARDS, older_than_days=1, now=later)
    assert sorted(done.names) == sorted(dry.names)
    # a manifest goes before its cards: a request meanwhile renders again, never trusts it
    assert done.names.index("screenshots/aa11.json") < done.names.index("screenshots/aa11-1.png")
    assert storage.entries("screenshots/") == [] and storage.entries("covers/") == []


def test_prune_command_on_every_engine(
    engine_env: dict[str, str],
    storage: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in engine_env.items():
        monkeypatch.setenv(name, value)
    size = put_set(storage, "dd44", 2)
    time.sleep(0.01)

    assert main(["storage", "prune", "--older-than", "1"]) == 0
    assert capsys.readouterr().out.endswith(
        f"removed 0 files, 0 bytes, older than 1 days ({engine_env['INKCARD_STORAGE']} storage)\n"
    )
    assert main(["storage", "prune", "--older-than", "0", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "screenshots/dd44.json\n" in out and f"would remove 3 files, {size} bytes" in out
    assert len(storage.entries("screenshots/")) == 3
    assert main(["storage", "prune", "--older-than", "0"]) == 0
    assert f"removed 3 files, {size} bytes" in capsys.readouterr().out
    assert storage.entries("screenshots/") == []


def test_prune_keeps_a_set_while_any_of_its_files_is_new(tmp_path: Path) -> None:
    storage = LocalStorage(tmp_path, "http://127.0.0.1/files")
    put_set(storage, "ee55", 2)
    put_set(storage, "ff66", 2)
    old = time.time() - 10 * DAY
    for path in (tmp_path / "screenshots").iterdir():
        if path.name != "ee55-2.png":  # one card of ee55 was written again lately
            os.utime(path, (old, old))
    (tmp_path / "screenshots" / ".tmp-crashed").write_bytes(b"half")  # the sweeper's, not ours

    report = prune(storage, CARDS, older_than_days=7)
    assert sorted(report.names) == [
        "screenshots/ff66-1.png",
        "screenshots/ff66-2.png",
        "screenshots/ff66.json",
    ]
    assert sorted(p.name for p in (tmp_path / "screenshots").iterdir()) == [
        ".tmp-crashed",
        "ee55-1.png",
        "ee55-2.png",
        "ee55.json",
    ]
    assert set_of("covers/ab-12.png") == set_of("covers/ab-1.png") == "covers/ab"


def test_prune_command_refuses_a_bad_age_and_names_a_broken_bucket(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for bad in ("-1", "soon", "nan"):
        with pytest.raises(SystemExit) as exit_:
            main(["storage", "prune", "--older-than", bad])
        assert exit_.value.code == 2
        assert "is not a number of days" in capsys.readouterr().err
    monkeypatch.setenv("INKCARD_STORAGE", "s3")
    assert main(["storage", "prune", "--older-than", "1"]) == 2
    assert "INKCARD_STORAGE=s3 needs INKCARD_S3_BUCKET" in capsys.readouterr().err


def test_prune_command_reports_an_unreachable_bucket(
    s3: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.app.apphelpers import free_port

    monkeypatch.setenv("INKCARD_STORAGE", "s3")
    monkeypatch.setenv("INKCARD_S3_BUCKET", S3_BUCKET)
    monkeypatch.setenv("INKCARD_S3_ENDPOINT", f"http://127.0.0.1:{free_port()}")
    assert main(["storage", "prune", "--older-than", "1"]) == 1
    err = capsys.readouterr().err
    assert "could not list screenshots/ in the bucket" in err
    assert "inkcard-test-secret" not in err


@pytest.mark.parametrize(
    ("settings", "base"),
    [
        ({"s3_region": "eu-west-1"}, "https://cards.s3.eu-west-1.amazonaws.com"),
        ({}, "https://cards.s3.amazonaws.com"),
        ({"s3_endpoint": "http://127.0.0.1:9000/"}, "http://127.0.0.1:9000/cards"),
        (
            {"s3_endpoint": "https://oss-cn-hangzhou.aliyuncs.com", "s3_addressing": "virtual"},
            "https://cards.oss-cn-hangzhou.aliyuncs.com",
        ),
        (
            {"s3_endpoint": "https://x.example", "public_url": "https://cdn.example/c/"},
            "https://cdn.example/c",
        ),
    ],
)
def test_s3_files_url_is_the_buckets_object_url(settings: dict[str, str], base: str) -> None:
    assert load_settings({}, storage="s3", s3_bucket="cards", **settings).files_url == base


def test_a_missing_client_library_names_its_extra(tmp_path: Path) -> None:
    """With the engine's library absent, the command says which extra installs it."""
    cases = [
        ("boto3", {"INKCARD_STORAGE": "s3", "INKCARD_S3_BUCKET": "b"}, ["storage", "prune"],
         "INKCARD_STORAGE=s3 needs `pip install 'inkcard[s3]'` (boto3 is not installed)"),
        ("google.cloud.storage", {"INKCARD_STORAGE": "gcs", "INKCARD_GCS_BUCKET": "b"},
         ["storage", "prune"], "INKCARD_STORAGE=gcs needs `pip install 'inkcard[gcs]'`"),
        ("psycopg", {"INKCARD_DATABASE": "postgresql://u@127.0.0.1:1/x"}, ["keys", "list"],
         "INKCARD_DATABASE=postgresql://… needs `pip install 'inkcard[postgres]'`"),
    ]  # fmt: skip
    for missing, env, command, message in cases:
        argv = [*command, "--older-than", "1"] if command[0] == "storage" else command
        script = (
            f"import sys\nsys.modules[{missing!r}] = None\n"
            f"from inkcard.app.cli import main\nsys.exit(main({argv!r}))\n"
        )
        result = subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, **env, "INKCARD_STORAGE_DIR": str(tmp_path)},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 2, result.stderr
        assert message in result.stderr


def test_bucket_engines_need_their_bucket() -> None:
    with pytest.raises(SettingsError, match="INKCARD_STORAGE=s3 needs INKCARD_S3_BUCKET"):
        load_settings({"INKCARD_STORAGE": "s3"})
    settings: Settings = load_settings({"INKCARD_STORAGE": "s3", "INKCARD_S3_BUCKET": "b"})
    assert settings.s3_addressing == "auto"
