"""The SQLite engine of the service database (the default): sqlite-utils over one file.

Writes take SQLite's write lock (``BEGIN IMMEDIATE``); the migration lock and the shared fetch
locks are files beside the database (``flock``), so every process on the machine shares them.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from app.ledger.engine import LOCK_POLL_SECONDS, Cursor, FetchLock, Store, StoreConflict, Tx
from app.ledger.migrations import apply_migrations


class _SqliteTx:
    def __init__(self, db: sqlite_utils.Database):
        self.db = db

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        return self.db.execute(sql, list(params))


class SqliteStore(Store):
    """One SQLite file in WAL mode, through sqlite-utils (the one SQLite door); writers
    take the file's lock with ``BEGIN IMMEDIATE``."""

    engine = "sqlite"
    for_update = ""

    def __init__(self, path: Path, busy_timeout: float = 5.0):
        super().__init__(busy_timeout)
        self.path = path

    @contextmanager
    def read(self) -> Iterator[Tx]:
        conn = sqlite3.connect(
            self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            yield _SqliteTx(sqlite_utils.Database(conn))
        except sqlite3.IntegrityError as exc:
            raise StoreConflict(str(exc)) from None
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise self.busy() from None
            raise
        finally:
            conn.close()

    @contextmanager
    def write(self) -> Iterator[Tx]:
        """``BEGIN IMMEDIATE``: the write lock is taken before anything is read."""
        with self.read() as tx:
            tx.execute("BEGIN IMMEDIATE")
            try:
                yield tx
            except BaseException:
                tx.execute("ROLLBACK")
                raise
            tx.execute("COMMIT")

    def migrate(self) -> list[int]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.read() as tx:
            tx.execute("PRAGMA journal_mode = WAL")
        with self.write() as tx:
            return apply_migrations(tx, self.engine)

    def backup(self, target: Path) -> None:
        """SQLite's online backup into ``target`` (a new file, renamed into place when whole):
        a consistent copy while the service keeps reading and writing."""
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        source = sqlite3.connect(self.path, timeout=self.busy_timeout)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            finally:
                copy.close()
        except sqlite3.OperationalError as exc:
            partial.unlink(missing_ok=True)
            if _is_busy(exc):
                raise self.busy() from None
            raise
        finally:
            source.close()
        partial.replace(target)

    def fetch_lock(self, name: str) -> FetchLock:
        # One machine holds a SQLite file, so a lock file beside it reaches every process; the
        # database's own write lock would stall every credit write for the whole fetch.
        return _FileLock(self.path.with_name(self.path.name + ".fetch-lock"))


class _FileLock(FetchLock):
    def __init__(self, path: Path):
        self.path = path
        self.fd = -1

    def acquire(self, timeout: float) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(self.fd)
                    self.fd = -1
                    return False
                time.sleep(LOCK_POLL_SECONDS)

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the descriptor drops its flock
            self.fd = -1


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """True for SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
