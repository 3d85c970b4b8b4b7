"""The service database behind one interface: SQLite (a file path, the default) or PostgreSQL
(a ``postgresql://`` URL, psycopg 3 with a pool, in ``app.store_pg``).

Credits, idempotency keys, platform tokens and request windows all go through a ``Store``:
``read()`` and ``write()`` hand out a ``Tx`` whose ``execute`` takes ``?`` placeholders on both
engines, so the SQL above this module is one text. A write that waits past the busy timeout
for a lock (SQLite's write lock, a PostgreSQL row lock, a full pool) raises ``DatabaseBusy``;
a refused constraint raises ``StoreConflict``. ``migrate()`` applies the numbered migrations
not yet recorded in ``schema_migrations``, under a lock, so replicas starting together apply
each one once.

psycopg is imported only when a PostgreSQL URL is opened: the SQLite path never loads it.
"""

from __future__ import annotations

import fcntl
import math
import os
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import sqlite_utils

from app.errors import DatabaseBusy

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
LOCK_POLL_SECONDS = 0.05


class Cursor(Protocol):
    """What a statement returns on both engines."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Tx(Protocol):
    """One connection inside a transaction (or autocommit, for reads)."""

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor: ...


class StoreConflict(Exception):
    """A unique, foreign-key or check constraint refused a write (the transaction rolled back)."""


class Migration:
    """One numbered schema step: its statements for each engine."""

    def __init__(self, version: int, name: str, sqlite: Sequence[str], postgres: Sequence[str]):
        self.version = version
        self.name = name
        self.sqlite = tuple(sqlite)
        self.postgres = tuple(postgres)


MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations"
    " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)


def apply_migrations(tx: Tx, engine: str) -> list[int]:
    """Run the migrations ``schema_migrations`` lacks, in order; return the versions applied.

    The caller holds the migration lock and the transaction.
    """
    from app.migrations import MIGRATIONS  # the schema's text is data, kept apart

    tx.execute(MIGRATIONS_TABLE)
    done = {int(v) for (v,) in tx.execute("SELECT version FROM schema_migrations").fetchall()}
    applied = []
    for migration in MIGRATIONS:
        if migration.version in done:
            continue
        for statement in migration.sqlite if engine == "sqlite" else migration.postgres:
            tx.execute(statement)
        tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            [migration.version, migration.name, datetime.now(UTC).isoformat()],
        )
        applied.append(migration.version)
    return applied


class FetchLock(ABC):
    """A lock every process and replica on the database shares (one fetch of a token at a time)."""

    @abstractmethod
    def acquire(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the lock; True when it is held."""

    @abstractmethod
    def release(self) -> None:
        """Give the lock back (only after a successful ``acquire``)."""


class Store(ABC):
    """The database of the service, whichever engine holds it."""

    engine: str
    for_update: str
    """Suffix that locks the rows a SELECT read until the transaction ends (empty in SQLite,
    where a write transaction already holds the whole file)."""

    def __init__(self, busy_timeout: float):
        self.busy_timeout = busy_timeout

    def busy(self) -> DatabaseBusy:
        """The 503 a write gets when it waited ``busy_timeout`` for a lock."""
        return DatabaseBusy(
            f"the database stayed locked for {self.busy_timeout:g} s; nothing was charged,"
            " try again",
            headers={"Retry-After": str(max(1, math.ceil(self.busy_timeout)))},
        )

    @abstractmethod
    def read(self) -> Any:
        """Context manager: a ``Tx`` for reads (each statement sees committed data)."""

    @abstractmethod
    def write(self) -> Any:
        """Context manager: a ``Tx`` in one transaction, committed on exit, rolled back on error."""

    @abstractmethod
    def migrate(self) -> list[int]:
        """Create or update the schema; return the migration versions this call applied."""

    @abstractmethod
    def fetch_lock(self, name: str) -> FetchLock:
        """The shared lock called ``name``."""


class _SqliteTx:
    def __init__(self, db: sqlite_utils.Database):
        self.db = db

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        return self.db.execute(sql, list(params))


class SqliteStore(Store):
    """One SQLite file in WAL mode, through sqlite-utils (the design's SQLite door); writers
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


def is_postgres(database: str | Path) -> bool:
    """True when ``database`` is a PostgreSQL URL rather than a SQLite path."""
    return str(database).startswith(POSTGRES_SCHEMES)


def open_store(database: str | Path, busy_timeout: float = 5.0) -> Store:
    """The store ``INKCARD_DATABASE`` names: a ``postgresql://`` URL or a SQLite file path."""
    if is_postgres(database):
        from app.store_pg import PostgresStore  # loads psycopg: PostgreSQL deployments only

        return PostgresStore(str(database), busy_timeout)
    return SqliteStore(Path(database), busy_timeout)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """True for SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
