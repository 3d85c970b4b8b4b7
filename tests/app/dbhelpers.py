"""Reach into the service database the way a stuck writer or an old request would, on either
engine (the service's own code never needs to know which)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from inkcard.app.ledger.credits import Credits
from inkcard.app.ledger.database import is_postgres
from inkcard.app.ledger.idempotency import IdempotencyStore


def age_every_hold(credits: Credits) -> None:
    """Move every hold's deadline into the past, as if its request had died long ago."""
    with credits.store.write() as db:
        db.execute("UPDATE holds SET expires_at = 0")


@contextmanager
def write_locked(database: str) -> Iterator[None]:
    """Hold off every writer from another connection, as a stuck writer would; readers pass."""
    if is_postgres(database):
        import psycopg

        with psycopg.connect(database) as conn:  # one transaction until the block ends
            conn.execute("LOCK TABLE api_keys, ledger, holds IN EXCLUSIVE MODE")
            yield
            conn.rollback()
        return
    conn = sqlite3.connect(database, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def table_rows(database: str, sql: str) -> list[tuple[object, ...]]:
    """Rows of a query, read outside the service's own objects."""
    credits = Credits(database)
    with credits.store.read() as db:
        return [tuple(row) for row in db.execute(sql).fetchall()]


def age_every_answer(store: IdempotencyStore) -> None:
    """Expire every kept answer (``Idempotency-Key`` or retry window), as if long past."""
    with store.store.write() as db:
        db.execute("UPDATE idempotency SET expires_at = 0")
