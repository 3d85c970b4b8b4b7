"""The SQLite engine of the service database (the default): sqlite-utils over one file.

Writes take SQLite's write lock (``BEGIN IMMEDIATE``); the migration lock, the shared fetch
locks and each process's liveness lock are files beside the database (``flock``), so every
process on the machine shares them. A liveness lock is ``<database>.owners/<owner>``, locked
by its process for its whole life: the kernel drops an ``flock`` when its process dies, so a
file another process can lock names an owner that is gone.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import string
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from inkcard.app.errors import DatabaseBusy
from inkcard.app.ledger.engine import (
    LOCK_POLL_SECONDS,
    Cursor,
    FetchLock,
    Liveness,
    Store,
    StoreConflict,
    Tx,
)
from inkcard.app.ledger.migrations import apply_migrations


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
        self._switch_to_wal()
        with self.write() as tx:
            return apply_migrations(tx, self.engine)

    def _switch_to_wal(self) -> None:
        """Turn a new file to WAL, retrying until ``busy_timeout``: when replicas start together,
        two connections can each hold a read lock while asking for the write lock the switch
        needs, and SQLite answers that deadlock with an immediate SQLITE_BUSY, without waiting."""
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                with self.read() as tx:
                    tx.execute("PRAGMA journal_mode = WAL")
                return
            except DatabaseBusy:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(LOCK_POLL_SECONDS)

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

    @property
    def _owners(self) -> Path:
        return self.path.with_name(self.path.name + ".owners")

    def liveness(self, owner: str) -> Liveness:
        if not _usable_name(owner):
            raise ValueError(f"an owner name must be a file name: {owner!r}")
        return _OwnerFile(self._owners, owner)

    @contextmanager
    def if_gone(self, owner: str) -> Iterator[bool]:
        """The owner's file locked here: gone. No file (never made here, or already handled
        by another process) or a name that cannot be a file: it cannot be told."""
        path = self._owners / owner
        try:
            fd = os.open(path, os.O_RDWR) if _usable_name(owner) else -1
        except FileNotFoundError:
            fd = -1
        if fd < 0:
            yield False
            return
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                locked = False  # alive, or another process is settling it right now
            else:
                locked = True
            yield locked
            if locked:
                path.unlink(missing_ok=True)  # what it left is settled: nothing more to prove
        finally:
            os.close(fd)

    def known_owners(self) -> list[str]:
        """Every owner with a lock file, live or not (a dead one with nothing left in flight
        still has its file until a process proves it gone and removes it)."""
        try:
            return sorted(p.name for p in self._owners.iterdir() if _usable_name(p.name))
        except FileNotFoundError:
            return []


_NAME_CHARACTERS = frozenset(string.ascii_letters + string.digits + ".-_:")


def _usable_name(owner: str) -> bool:
    """True when ``owner`` is a plain file name (no path, not hidden: temp files start with .)."""
    return 0 < len(owner) <= 128 and owner[0] != "." and set(owner) <= _NAME_CHARACTERS


class _OwnerFile(Liveness):
    """``<folder>/<owner>``, locked by its process from ``keep`` until it ends or ``close``s."""

    def __init__(self, folder: Path, owner: str):
        self.path = folder / owner
        self.fd = -1

    def keep(self) -> None:
        # Locked under a temporary name, then renamed: a file is never seen unlocked by
        # another process's ``if_gone`` while its owner lives.
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name("." + self.path.name)
        fd = os.open(partial, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.replace(partial, self.path)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    def renew(self) -> bool:
        return self.fd >= 0  # an flock lasts as long as its descriptor: nothing to renew

    def close(self) -> None:
        if self.fd >= 0:
            self.path.unlink(missing_ok=True)  # still locked: no one can mistake it for gone
            os.close(self.fd)
            self.fd = -1


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
    """True for SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock; and for
    SQLITE_PROTOCOL ("locking protocol"), which a WAL connection gives after losing the
    race for the shared-memory index for seconds (a writer stopped or killed mid-commit,
    as the crash-recovery test's SIGSTOP does): transient, a 503 to retry, not a 500."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_PROTOCOL)
