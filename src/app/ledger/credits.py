"""API keys' balances and the credit ledger in the service database (``app.ledger.database``:
SQLite or PostgreSQL).

Every change of a balance writes one ledger row in the same ``BEGIN IMMEDIATE`` transaction
(``app.ledger.movements``), so a key's balance always equals the sum of its ledger rows, and
two concurrent debits can never spend the same credit. The keys themselves, and what is stored
of them, are ``app.ledger.keys``.

A paid request *reserves* its cost: a debit row plus a ``holds`` row naming it, written in the
transaction that checks the balance (and the minimum balance some calls require: a check, not a
hold, so the ledger shows exactly what each call cost). Success *commits* (the hold row goes; the
debit stays), failure *releases* (a refund row gives the debit back and the hold row goes). A held
credit is already subtracted from the balance, so balance == ledger sum at every instant; holds only
say which debits are not final yet.
A hold names the process that wrote it (``owner``, ``app.ledger.owners``): when that process
is provably gone, ``release_owned`` gives its holds back at once; any other hold whose request
died is released by ``release_expired`` once its deadline has passed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from inkcard.app.errors import InsufficientCredits, plural
from inkcard.app.ledger.database import open_store
from inkcard.app.ledger.engine import Tx
from inkcard.app.ledger.keys import (
    PREFIX_CHARS,
    KeyInfo,
    KeyTable,
    UnknownKey,
    hash_key,
    looks_like_key,
)
from inkcard.app.ledger.movements import move, now

# The keys' names too: callers reach keys and credits through this module.
__all__ = [
    "HOLD_MARGIN",
    "PREFIX_CHARS",
    "Credits",
    "KeyInfo",
    "LedgerRow",
    "UnknownKey",
    "hash_key",
    "looks_like_key",
]

HOLD_MARGIN = 5.0
"""Seconds a hold outlives its request's deadline and one busy wait, before a sweep frees it."""


class LedgerRow(msgspec.Struct, frozen=True):
    """One credit movement."""

    id: int
    delta: int
    kind: str
    operation: str
    request_id: str | None
    created_at: str


class Credits(KeyTable):
    """The key and ledger tables of one database. Safe to use from many threads and processes.

    Args:
        database: A SQLite file path or a ``postgresql://`` URL (``INKCARD_DATABASE``).
        busy_timeout: Seconds a statement waits for another writer's lock before it raises
            ``DatabaseBusy``.
        request_deadline: Seconds a paid request may run; its hold expires this long after the
            reservation, plus one busy wait and ``HOLD_MARGIN``.
        owner: The name of this process on its holds (``app.ledger.owners``), whose liveness
            lock it keeps; None: its holds wait for their deadline if it dies.
    """

    def __init__(
        self,
        database: str | Path,
        *,
        busy_timeout: float = 5.0,
        request_deadline: float = 55.0,
        owner: str | None = None,
    ):
        super().__init__(open_store(database, busy_timeout))
        self.busy_timeout = busy_timeout
        self.hold_seconds = request_deadline + busy_timeout + HOLD_MARGIN
        self.owner = owner

    def ensure_schema(self) -> None:
        """Create or migrate the tables (every table of the service database)."""
        self.store.migrate()

    def check_writable(self) -> None:
        """Raise unless a write transaction can start."""
        with self.store.write() as db:
            db.execute("SELECT count(*) FROM api_keys").fetchone()

    # Credits

    def grant(self, prefix: str, amount: int, request_id: str | None = None) -> KeyInfo:
        """Add ``amount`` credits to a key; raises ``UnknownKey``."""
        if amount <= 0:
            raise ValueError("amount must be positive")
        info = self.key_info(prefix)
        with self.store.write() as db:
            move(db, info.id, amount, "grant", "grant", request_id)
        return self.key_info(prefix)

    def reserve(
        self,
        key_id: int,
        cost: int,
        operation: str,
        request_id: str | None,
        *,
        minimum: int = 0,
    ) -> int | None:
        """Hold exactly ``cost`` credits for a request; return the hold id (None when cost is 0).

        ``minimum`` is a balance the key must have to call at all (``Prices.publishing_minimum``
        credits): a check made in the same statement as the debit, never a hold, so the ledger
        only ever shows what a call costs. The check and the debit are one conditional
        ``UPDATE`` in the write transaction, so concurrent calls see each other's holds: none
        can pass the check on credits another call already holds, and no balance goes below
        ``minimum - cost``.

        Raises:
            InsufficientCredits: The balance is below ``max(cost, minimum)``; nothing is written.
            DatabaseBusy: The database stayed locked; nothing is written.
        """
        needed = max(cost, minimum)
        if needed <= 0:
            return None
        with self.store.write() as db:
            row = db.execute(
                "UPDATE api_keys SET balance = balance - ?"
                " WHERE id = ? AND balance >= ? RETURNING balance",
                [cost, key_id, needed],
            ).fetchone()
            if row is None:
                (balance,) = db.execute(
                    "SELECT balance FROM api_keys WHERE id = ?", [key_id]
                ).fetchone()
                raise InsufficientCredits(_short_of(cost, needed, balance))
            if cost <= 0:
                return None  # only the minimum was checked: nothing to hold
            (debit_id,) = db.execute(
                "INSERT INTO ledger (key_id, delta, kind, operation, request_id, created_at)"
                " VALUES (?, ?, 'debit', ?, ?, ?) RETURNING id",
                [key_id, -cost, operation, request_id, now()],
            ).fetchone()
            db.execute(
                "INSERT INTO holds (debit_id, key_id, expires_at, owner) VALUES (?, ?, ?, ?)",
                [debit_id, key_id, time.time() + self.hold_seconds, self.owner],
            )
            return int(debit_id)

    def commit(
        self,
        hold_id: int,
        cost: int | None = None,
        *,
        also: Callable[[Tx], None] | None = None,
    ) -> bool:
        """Make a hold final, charging ``cost`` (at most the held amount; default all of it).

        ``also`` writes in the same transaction (the answer kept for an idempotency key), so
        a charge and its record are saved together or not at all. Returns False when the hold
        was already released (by a sweep past its deadline): then nothing is charged.
        """
        with self.store.write() as db:
            if also is not None:
                also(db)
            held = self._take_hold(db, hold_id)
            if held is None:
                return False
            key_id, amount, operation, request_id = held
            if cost is not None and not 0 <= cost <= amount:
                raise ValueError(f"cannot commit {cost} of a hold of {amount}")
            if cost is not None and cost < amount:
                move(db, key_id, amount - cost, "refund", operation, request_id, hold_id)
            return True

    def release(self, hold_id: int) -> bool:
        """Give a hold back with one refund row; False if it was already committed or released."""
        with self.store.write() as db:
            return self._release(db, hold_id)

    def release_expired(self) -> int:
        """Release every hold past its deadline (its request died or hung); return how many.

        Each hold is released in its own transaction, as ``release`` does: a sweep that held
        one hold's key row while waiting for the next hold could deadlock, on PostgreSQL's
        row locks, against a request committing that next hold (it locks the hold, then the
        key). A hold settled in between is skipped, as ``release`` reports.
        """
        with self.store.read() as db:
            expired = db.execute(
                "SELECT debit_id FROM holds WHERE expires_at < ? ORDER BY debit_id", [time.time()]
            ).fetchall()
        return sum(self.release(hold_id) for (hold_id,) in expired)

    def owners_holding(self) -> list[str]:
        """The named owners of open holds."""
        with self.store.read() as db:
            rows = db.execute(
                "SELECT DISTINCT owner FROM holds WHERE owner IS NOT NULL ORDER BY owner"
            ).fetchall()
        return [str(owner) for (owner,) in rows]

    def release_owned(self, owner: str) -> int:
        """Release every hold of ``owner`` (a process that is gone); return how many. Each in
        its own transaction, as ``release_expired`` does, for the same reason."""
        with self.store.read() as db:
            held = db.execute(
                "SELECT debit_id FROM holds WHERE owner = ? ORDER BY debit_id", [owner]
            ).fetchall()
        return sum(self.release(hold_id) for (hold_id,) in held)

    def open_holds(self) -> int:
        """Number of holds not yet committed or released."""
        with self.store.read() as db:
            return int(db.execute("SELECT count(*) FROM holds").fetchone()[0])

    def _release(self, db: Tx, hold_id: int) -> bool:
        held = self._take_hold(db, hold_id)
        if held is None:
            return False
        key_id, amount, operation, request_id = held
        move(db, key_id, amount, "refund", operation, request_id, hold_id)
        return True

    @staticmethod
    def _take_hold(db: Tx, hold_id: int) -> tuple[int, int, str, str | None] | None:
        """Delete a hold row; return (key id, held amount, operation, request id) of its debit."""
        row = db.execute(
            "DELETE FROM holds WHERE debit_id = ? RETURNING key_id", [hold_id]
        ).fetchone()
        if row is None:
            return None
        delta, operation, request_id = db.execute(
            "SELECT delta, operation, request_id FROM ledger WHERE id = ?", [hold_id]
        ).fetchone()
        return int(row[0]), -int(delta), str(operation), request_id

    def ledger(self, prefix: str, limit: int = 20) -> list[LedgerRow]:
        """A key's most recent ledger rows, newest first; raises ``UnknownKey``.

        A debit whose request has not finished yet is shown with kind ``hold``.
        """
        info = self.key_info(prefix)
        with self.store.read() as db:
            rows = db.execute(
                "SELECT id, delta,"
                " CASE WHEN id IN (SELECT debit_id FROM holds) THEN 'hold' ELSE kind END,"
                " operation, request_id, created_at FROM ledger"
                " WHERE key_id = ? ORDER BY id DESC LIMIT ?",
                [info.id, limit],
            ).fetchall()
        return [LedgerRow(*row) for row in rows]

    def ledger_sum(self, key_id: int) -> int:
        """Sum of a key's ledger deltas (equals its balance)."""
        with self.store.read() as db:
            return int(
                db.execute(
                    "SELECT coalesce(sum(delta), 0) FROM ledger WHERE key_id = ?", [key_id]
                ).fetchone()[0]
            )


def _short_of(cost: int, needed: int, balance: int) -> str:
    if needed > cost:
        return (
            f"this call needs a balance of at least {needed} credits;"
            f" the key's balance is {balance}"
        )
    return f"this call costs {plural(cost, 'credit')} and the key's balance is {balance}"
