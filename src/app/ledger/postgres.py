"""The service database on PostgreSQL: psycopg 3, one connection pool per URL and process.

Transactions run at READ COMMITTED; every write statement that must see the latest row locks
it (``UPDATE … RETURNING``, ``DELETE … RETURNING``, ``INSERT … ON CONFLICT``, ``SELECT … FOR
UPDATE``), so a debit and its balance check stay one atomic step as in SQLite. A transaction
waits at most ``busy_timeout`` for a lock (``lock_timeout``) or a pooled connection; past it,
and on a serialization failure or deadlock, it raises ``DatabaseBusy`` with nothing written.

A process's liveness lock is a session advisory lock on a connection of its own (not the
pool's), held for the process's life: PostgreSQL lets go of it when that session ends, which a
killed process's closed socket ends at once. (A connection pooler in transaction mode between
the service and PostgreSQL would break session locks: connect directly or in session mode.)
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolTimeout

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

log = logging.getLogger("inkcard.ledger")

POOL_SIZE = 10
"""Connections one process keeps at most (its request threads share them)."""
MIGRATION_LOCK = 0x696E6B63  # "inkc": the advisory lock every replica's migration takes

_POOLS: dict[tuple[int, str], ConnectionPool] = {}
_POOLS_LOCK = threading.Lock()
OWNER_LOCK = "inkcard-owner:"  # + the owner's name: the key of its liveness lock
_TRY_LOCK = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))"
_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"
_BUSY = (
    psycopg.errors.LockNotAvailable,
    psycopg.errors.SerializationFailure,
    psycopg.errors.DeadlockDetected,
    PoolTimeout,
)


def _pool(url: str) -> ConnectionPool:
    """This process's pool for ``url`` (a forked child opens its own)."""
    key = (os.getpid(), url)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            pool = ConnectionPool(
                url, min_size=1, max_size=POOL_SIZE, kwargs={"autocommit": True}, open=True
            )
            _POOLS[key] = pool
        return pool


def close_pools(url: str | None = None) -> None:
    """Close this process's pools (for ``url`` only, when given)."""
    with _POOLS_LOCK:
        for key in [k for k in _POOLS if url is None or k[1] == url]:
            _POOLS.pop(key).close()


class _PgTx:
    def __init__(self, conn: psycopg.Connection[Any]):
        self.conn = conn

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        # Our SQL holds no literal "?" or "%": placeholders translate one for one.
        if params:
            return self.conn.execute(sql.replace("?", "%s"), list(params))
        return self.conn.execute(sql)


class PostgresStore(Store):
    """The tables in one PostgreSQL database."""

    engine = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, url: str, busy_timeout: float = 5.0):
        super().__init__(busy_timeout)
        self.url = url

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        try:
            with _pool(self.url).connection(timeout=self.busy_timeout) as conn:
                yield conn
        except _BUSY:
            raise self.busy() from None
        except psycopg.errors.IntegrityError as exc:
            raise StoreConflict(str(exc)) from None

    @contextmanager
    def read(self) -> Iterator[Tx]:
        with self._connection() as conn:
            yield _PgTx(conn)

    @contextmanager
    def write(self) -> Iterator[Tx]:
        with self._connection() as conn, conn.transaction():
            conn.execute(f"SET LOCAL lock_timeout = {max(1, round(self.busy_timeout * 1000))}")
            yield _PgTx(conn)

    def migrate(self) -> list[int]:
        with self.write() as tx:
            tx.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            return apply_migrations(tx, self.engine)

    def fetch_lock(self, name: str) -> FetchLock:
        return _AdvisoryLock(self.url, name)

    def liveness(self, owner: str) -> Liveness:
        return _OwnerSession(self.url, owner)

    @contextmanager
    def if_gone(self, owner: str) -> Iterator[bool]:
        """The owner's advisory lock taken on a pooled connection (another session than the
        owner's): its session has ended, so has its process."""
        with self._connection() as conn:
            if not _taken(conn, OWNER_LOCK + owner):
                yield False
                return
            try:
                yield True
            finally:
                conn.execute(_UNLOCK, [OWNER_LOCK + owner])


def _taken(conn: psycopg.Connection[Any], name: str) -> bool:
    """Take the session advisory lock ``name`` if it is free; True when taken."""
    row = conn.execute(_TRY_LOCK, [name]).fetchone()
    return bool(row is not None and row[0])


class _OwnerSession(Liveness):
    """The owner's advisory lock, held by a connection of its own for the process's life."""

    def __init__(self, url: str, owner: str):
        self.url = url
        self.owner = owner
        self._conn: psycopg.Connection[Any] | None = None

    def keep(self) -> None:
        conn = psycopg.connect(self.url, autocommit=True)
        try:
            taken = _taken(conn, OWNER_LOCK + self.owner)
        except BaseException:
            conn.close()
            raise
        if not taken:  # an owner's name is new at each start: only a bug could meet it
            conn.close()
            raise RuntimeError(f"the liveness lock of {self.owner} is held by another session")
        self._conn = conn

    def renew(self) -> bool:
        """A lost session (PostgreSQL restarted, a network cut, an idle timeout) lost the
        lock with it: take it again on a new connection, so this process counts as live."""
        try:
            if self._conn is not None and not self._conn.closed:
                self._conn.execute("SELECT 1")
                return True
        except psycopg.Error:
            pass
        log.warning("the liveness lock of %s was lost with its connection; taken again", self.owner)
        self.close()
        self.keep()
        return False

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()  # the session ends: PostgreSQL lets go of the lock


class _AdvisoryLock(FetchLock):
    """A session advisory lock, held on one pooled connection until ``release``."""

    def __init__(self, url: str, name: str):
        self.url = url
        self.name = name
        self._conn: psycopg.Connection[Any] | None = None

    def acquire(self, timeout: float) -> bool:
        pool = _pool(self.url)
        deadline = time.monotonic() + timeout
        conn = pool.getconn(timeout=timeout)
        try:
            while True:
                row = conn.execute(
                    "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [self.name]
                ).fetchone()
                if row is not None and row[0]:
                    self._conn = conn
                    return True
                if time.monotonic() >= deadline:
                    pool.putconn(conn)
                    return False
                time.sleep(LOCK_POLL_SECONDS)
        except BaseException:
            pool.putconn(conn)
            raise

    def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [self.name])
        finally:
            _pool(self.url).putconn(conn)
