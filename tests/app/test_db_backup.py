"""`inkcard db backup PATH`: a consistent copy of the SQLite database taken while writers
keep writing, which a service then runs on; PostgreSQL is pointed at pg_dump."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from inkcard.app.cli.commands import main
from inkcard.app.ledger.credits import Credits
from inkcard.app.ledger.database import is_postgres
from tests.app.conftest import both_engines

pytestmark = both_engines


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_backup_taken_under_writes_is_consistent_and_restores(
    database: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("INKCARD_DATABASE", database)
    credits = Credits(database)
    credits.ensure_schema()
    key, info = credits.create_key("busy", 1000)
    target = tmp_path / "backup" / "inkcard.db"
    target.parent.mkdir()
    if is_postgres(database):
        code, _, err = run(capsys, "db", "backup", str(target))
        assert code == 2 and "pg_dump" in err and not target.exists()
        return

    stop = threading.Event()

    def spend() -> None:  # a live service: debits land while the copy is taken
        while not stop.is_set():
            hold = credits.reserve(info.id, 1, "generate", None)
            assert hold is not None and credits.commit(hold)

    writer = threading.Thread(target=spend)
    writer.start()
    try:
        code, out, err = run(capsys, "db", "backup", str(target))
    finally:
        stop.set()
        writer.join()
    assert code == 0, err
    assert f"to {target}" in out
    assert [p.name for p in target.parent.iterdir()] == ["inkcard.db"]  # one whole file

    restored = Credits(target)
    restored.ensure_schema()  # a service starting on the restored copy
    kept = restored.authenticate(key)
    assert kept is not None
    assert kept.balance == restored.ledger_sum(kept.id)  # a consistent instant
    assert 0 < kept.balance <= 1000

    again, _, err = run(capsys, "db", "backup", str(target))
    assert again == 2 and "already exists" in err  # a backup is never overwritten
