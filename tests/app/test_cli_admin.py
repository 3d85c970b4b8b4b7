"""The ``inkcard keys`` and ``inkcard credits`` commands and the first-start key."""

from __future__ import annotations

from pathlib import Path

import pytest

from inkcard.app.cli.commands import bootstrap_key, main
from inkcard.app.ledger.credits import Credits
from inkcard.app.ledger.database import is_postgres
from inkcard.app.settings import load_settings
from tests.app.conftest import both_engines

pytestmark = both_engines


@pytest.fixture
def db(database: str, monkeypatch: pytest.MonkeyPatch) -> Credits:
    monkeypatch.setenv("INKCARD_DATABASE", database)
    return Credits(database)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_keys_create_list_revoke(db: Credits, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "keys", "create", "--name", "alice", "--credits", "5")
    key = out.strip()
    assert code == 0 and key.startswith("ik_") and len(key) == 35
    assert "not shown again" in err
    assert db.authenticate(key) is not None

    code, out, _ = run(capsys, "keys", "list")
    assert key[:8] in out and "alice" in out and "active" in out
    assert key not in out

    code, out, _ = run(capsys, "keys", "revoke", key[:8])
    assert code == 0 and "revoked" in out
    assert db.authenticate(key) is None


def test_credits_grant_and_show(db: Credits, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "keys", "create", "--name", "bob")
    prefix = out.strip()[:8]
    code, out, _ = run(capsys, "credits", "grant", prefix, "7")
    assert code == 0
    assert db.key_info(prefix).balance == 7
    code, out, _ = run(capsys, "credits", "show", prefix)
    assert code == 0 and "grant" in out and "+7" in out


def test_unknown_prefix_is_an_error(db: Credits, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "credits", "show", "ik_nope0")
    assert code == 1 and "ik_nope0" in err


def test_bad_setting_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("INKCARD_GENERATE_COST", "lots")
    code, _, err = run(capsys, "keys", "list")
    assert code == 2 and "INKCARD" in err


def test_bootstrap_key_only_on_an_empty_table(database: str) -> None:
    settings = load_settings({"INKCARD_DATABASE": database, "INKCARD_PORT": "9123"})
    credits = Credits(settings.database)
    credits.ensure_schema()
    notice = bootstrap_key(settings, credits)
    assert notice is not None
    [key] = [w for w in notice.split() if w.startswith("ik_")][:1]
    assert credits.authenticate(key).balance == 100
    assert f"curl -s http://127.0.0.1:9123/api/generate -H 'x-api-key: {key}'" in notice
    assert "INKCARD_BOOTSTRAP_KEY=0" in notice
    assert bootstrap_key(settings, credits) is None
    assert credits.key_count() == 1


def test_bootstrap_key_can_be_turned_off(database: str) -> None:
    settings = load_settings({"INKCARD_DATABASE": database, "INKCARD_BOOTSTRAP_KEY": "0"})
    credits = Credits(settings.database)
    credits.ensure_schema()
    assert bootstrap_key(settings, credits) is None
    assert credits.key_count() == 0


def test_whole_key_works_where_a_prefix_does(
    db: Credits, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "keys", "create", "--name", "carol", "--credits", "3")
    key = out.strip()
    code, out, _ = run(capsys, "credits", "grant", key, "2")
    assert code == 0 and db.key_info(key[:8]).balance == 5
    code, out, _ = run(capsys, "credits", "show", key)
    assert code == 0 and out.startswith(f"{key[:8]}         5  ")
    assert key not in out
    code, out, _ = run(capsys, "keys", "revoke", key)
    assert code == 0 and db.authenticate(key) is None


def test_negative_credits_are_refused(
    db: Credits, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["keys", "create", "--name", "dave", "--credits", "-5"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "inkcard keys create: error: argument --credits: -5 is not an integer between 0 and"
        " 1000000000; see inkcard keys create --help\n"
    )
    if is_postgres(database):
        assert db.key_count() == 0  # nothing was written
    else:
        assert not Path(database).exists()  # refused before the database was opened
