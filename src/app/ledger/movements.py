"""A key, an amount and why → one ledger row, the key's balance moved in the same transaction.

Every change of a balance goes through ``move``, inside the caller's write transaction, so a
key's balance always equals the sum of its ledger rows.
"""

from __future__ import annotations

from datetime import UTC, datetime

from inkcard.app.ledger.engine import Tx


def now() -> str:
    """The time a row is written, as ISO 8601 UTC to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def move(
    db: Tx,
    key_id: int,
    delta: int,
    kind: str,
    operation: str,
    request_id: str | None,
    ref_debit_id: int | None = None,
) -> int:
    """Write one ledger row of ``delta`` credits and move the balance with it; its id."""
    (row_id,) = db.execute(
        "INSERT INTO ledger"
        " (key_id, delta, kind, operation, request_id, ref_debit_id, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        [key_id, delta, kind, operation, request_id, ref_debit_id, now()],
    ).fetchone()
    db.execute("UPDATE api_keys SET balance = balance + ? WHERE id = ?", [delta, key_id])
    return int(row_id)
