"""The engine-neutral face of the service database: transactions, locks, the ``Store`` base.

``read()`` and ``write()`` of a ``Store`` hand out a ``Tx`` whose ``execute`` takes ``?``
placeholders on both engines, so the SQL above this package is one text. A write that waits
past the busy timeout for a lock raises ``DatabaseBusy``; a refused constraint raises
``StoreConflict``. The engines are ``app.ledger.sqlite`` and ``app.ledger.postgres``;
``app.ledger.database.open_store`` picks one.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from inkcard.app.errors import DatabaseBusy

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


class FetchLock(ABC):
    """A lock every process and replica on the database shares (one fetch of a token at a time)."""

    @abstractmethod
    def acquire(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the lock; True when it is held."""

    @abstractmethod
    def release(self) -> None:
        """Give the lock back (only after a successful ``acquire``)."""


class Liveness(ABC):
    """One process's proof of life on the database: a lock it takes at start and holds until
    it ends. The kernel (a file lock) or the database (a session's advisory lock) lets go of it
    the moment the process dies, ``kill -9`` included, so another process that can take it
    knows for certain that its owner is gone (``Store.if_gone``)."""

    @abstractmethod
    def keep(self) -> None:
        """Take the lock, for the rest of this process's life (or until ``close``)."""

    @abstractmethod
    def renew(self) -> bool:
        """True if the lock is still held; else it is taken again and False is returned."""

    @abstractmethod
    def close(self) -> None:
        """Let go of the lock (a clean exit: nothing of this owner is left in flight)."""


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

    def backup(self, target: Path) -> None:
        """Copy the whole database, consistent, to the file ``target`` while it is in use.

        Raises:
            NotImplementedError: The engine has its own tools (PostgreSQL: ``pg_dump``).
        """
        raise NotImplementedError(f"{self.engine} databases are backed up with their own tools")

    @abstractmethod
    def fetch_lock(self, name: str) -> FetchLock:
        """The shared lock called ``name``."""

    @abstractmethod
    def liveness(self, owner: str) -> Liveness:
        """The proof of life of the process named ``owner`` (``keep`` takes it)."""

    @abstractmethod
    def if_gone(self, owner: str) -> AbstractContextManager[bool]:
        """True inside the block when the process named ``owner`` is provably gone: its
        liveness lock was taken here, and stays taken through the block. False when it lives,
        or when it cannot be told (then what it left waits for its deadline)."""

    def known_owners(self) -> list[str]:
        """Owners this store can name besides those on rows (SQLite: every lock file)."""
        return []
