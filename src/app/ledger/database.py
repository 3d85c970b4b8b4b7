"""The service database behind one interface: SQLite (a file path, the default) or PostgreSQL
(a ``postgresql://`` URL, psycopg 3 with a pool, in ``app.ledger.postgres``).

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

from pathlib import Path

from inkcard.app.ledger.engine import Store
from inkcard.app.ledger.sqlite import SqliteStore
from inkcard.app.settings import SettingsError

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(database: str | Path) -> bool:
    """True when ``database`` is a PostgreSQL URL rather than a SQLite path."""
    return str(database).startswith(POSTGRES_SCHEMES)


def open_store(database: str | Path, busy_timeout: float = 5.0) -> Store:
    """The store ``INKCARD_DATABASE`` names: a ``postgresql://`` URL or a SQLite file path."""
    if is_postgres(database):
        try:  # loads psycopg: PostgreSQL deployments only
            from inkcard.app.ledger.postgres import PostgresStore
        except ImportError as exc:
            raise SettingsError(
                "INKCARD_DATABASE=postgresql://… needs `pip install 'inkcard[postgres]'`"
                f" ({exc.name} is not installed)"
            ) from None

        return PostgresStore(str(database), busy_timeout)
    return SqliteStore(Path(database), busy_timeout)
