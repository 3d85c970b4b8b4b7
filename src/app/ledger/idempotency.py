"""``Idempotency-Key``: a retried request gets the first answer and is charged once.

One row per (API key, Idempotency-Key) in the service database (``app.ledger.database``, table
``idempotency``). ``claim`` runs before any work: no row → a ``running`` row is written and
the request proceeds; a ``done`` row with the same request fingerprint → its stored answer
is replayed; the same key with another fingerprint → 422 ``idempotency_key_reused``; a
``running`` row → 409 ``idempotency_key_in_use``. A success writes its answer with
``record`` inside the credit commit's transaction (charge and answer are saved together); a
failure ``forget``s the row, so a retry really runs again (failures cost nothing).

A request without the header gets an *implicit* key, ``implicit_key(operation, fingerprint)``:
an identical request of the same API key (same operation, same normalised body, same account)
is a retry of it. Its answer is kept for ``RETRY_WINDOW_SECONDS`` only, and the key cannot
collide with a header's (it starts with a tab, which a header's key may not hold).

A ``running`` row names the process that runs it (``owner``): when that process is provably
gone (crash, ``kill -9``) the row is dropped at once with its holds (``app.ledger.owners``),
else it expires with the request's credit hold; ``done`` rows are kept for
``INKCARD_IDEMPOTENCY_HOURS`` (header) or the retry window (implicit). Expired rows are
deleted by the next claim.
"""

from __future__ import annotations

import hashlib
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from inkcard.app.errors import (
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    InvalidIdempotencyKey,
)
from inkcard.app.ledger.database import open_store
from inkcard.app.ledger.engine import Tx

HEADER = "idempotency-key"
MAX_KEY_CHARS = 255
RETRY_AFTER_SECONDS = 5
RETRY_WINDOW_SECONDS = 600.0
"""How long an answer stays replayable to an identical request sent without the header: a
client's timeout (60 s at most, as the original API's) and a few backed-off retries fit well
inside it, and a run on purpose ten minutes later is a new, charged run."""
_IMPLICIT = "\timplicit:"
_PACKED = b"\x00zlib:"
"""Marks a stored answer kept compressed (an answer is JSON, which never starts with NUL).
Article HTML with its inline CSS shrinks about 200 times: a key's answers of the retry window
take little room in the database."""


def check_key(value: str) -> str:
    """The header's value if it is 1..255 printable ASCII characters.

    Raises:
        InvalidIdempotencyKey: Empty, too long, or other characters.
    """
    if not 0 < len(value) <= MAX_KEY_CHARS or not all(" " <= c <= "~" for c in value):
        raise InvalidIdempotencyKey(
            f"Idempotency-Key must be 1 to {MAX_KEY_CHARS} printable ASCII characters"
        )
    return value


def fingerprint(*parts: bytes) -> str:
    """SHA-256 over the parts of a request that decide its answer, each length-prefixed."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def implicit_key(operation: str, print_: str) -> str:
    """The key of a request sent without ``Idempotency-Key``: its operation and fingerprint."""
    return f"{_IMPLICIT}{operation}:{print_}"


def is_implicit(idem_key: str) -> bool:
    """True for a key ``implicit_key`` made (never for a header's)."""
    return idem_key.startswith(_IMPLICIT)


def pack(answer: bytes) -> bytes:
    """``answer`` as ``record`` keeps it (compressed; run it off the event loop)."""
    return _PACKED + zlib.compress(answer, 6)


def _unpack(stored: bytes) -> bytes:
    return zlib.decompress(stored[len(_PACKED) :]) if stored.startswith(_PACKED) else stored


@dataclass(frozen=True, slots=True)
class Replay:
    """The stored answer of the first request with this key."""

    status: int
    body: bytes


class IdempotencyStore:
    """The ``idempotency`` table of the service database (the credit database).

    Args:
        database: A SQLite file path or a ``postgresql://`` URL.
        retention: Seconds a finished answer is kept.
        running: Seconds a ``running`` row stays claimed (the request's hold lifetime).
        busy_timeout: Seconds to wait for another writer's lock before ``DatabaseBusy``.
        owner: The name of this process on its ``running`` rows (as on its credit holds).
    """

    def __init__(
        self,
        database: str | Path,
        *,
        retention: float,
        running: float,
        busy_timeout: float,
        owner: str | None = None,
    ):
        self.store = open_store(database, busy_timeout)
        self.retention = retention
        self.running = running
        self.owner = owner

    def ensure_schema(self) -> None:
        """Create or migrate the service database's tables."""
        self.store.migrate()

    def claim(self, key_id: int, idem_key: str, print_: str) -> Replay | None:
        """None when this request is the first with ``idem_key`` (it is now ``running``).

        Raises:
            IdempotencyKeyReused: The key was used for a request with another fingerprint.
            IdempotencyKeyInUse: The first request with this key is still running.
        """
        now = time.time()
        with self.store.write() as db:
            db.execute("DELETE FROM idempotency WHERE expires_at < ?", [now])
            # The insert is the claim: of two requests racing on one key (two replicas), the
            # second waits for the first's row and then sees it.
            claimed = db.execute(
                "INSERT INTO idempotency"
                " (key_id, idem_key, fingerprint, state, expires_at, owner)"
                " VALUES (?, ?, ?, 'running', ?, ?)"
                " ON CONFLICT (key_id, idem_key) DO NOTHING RETURNING key_id",
                [key_id, idem_key, print_, now + self.running, self.owner],
            ).fetchone()
            if claimed is not None:
                return None
            row = db.execute(
                "SELECT fingerprint, state, status, answer FROM idempotency"
                " WHERE key_id = ? AND idem_key = ?",
                [key_id, idem_key],
            ).fetchone()
        if row is None:  # the first request failed and let go of the key a moment ago
            raise _in_use(idem_key, "just ended")
        stored_print, state, status, answer = row
        if stored_print != print_:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was already used for a different request (body, theme or"
                " platform account); use a new key for a new request"
            )
        if state == "running":
            raise _in_use(idem_key, "is still running")
        return Replay(int(status), _unpack(bytes(answer)))

    def record(self, conn: Tx, key_id: int, idem_key: str, status: int, body: bytes) -> None:
        """Store the answer (as it is, or as ``pack`` made it), inside the caller's
        transaction (the credit commit)."""
        keep = RETRY_WINDOW_SECONDS if is_implicit(idem_key) else self.retention
        conn.execute(
            "UPDATE idempotency SET state = 'done', status = ?, answer = ?, expires_at = ?"
            " WHERE key_id = ? AND idem_key = ?",
            [status, body, time.time() + keep, key_id, idem_key],
        )

    def forget(self, key_id: int, idem_key: str) -> None:
        """Drop a ``running`` claim after a failure, so a retry runs the request again."""
        with self.store.write() as db:
            db.execute(
                "DELETE FROM idempotency WHERE key_id = ? AND idem_key = ? AND state = 'running'",
                [key_id, idem_key],
            )

    def owners_running(self) -> list[str]:
        """The named owners of ``running`` rows."""
        with self.store.read() as db:
            rows = db.execute(
                "SELECT DISTINCT owner FROM idempotency"
                " WHERE state = 'running' AND owner IS NOT NULL ORDER BY owner"
            ).fetchall()
        return [str(owner) for (owner,) in rows]

    def forget_owned(self, owner: str) -> int:
        """Drop the ``running`` rows of ``owner`` (a process that is gone), so a retry runs
        again at once; return how many."""
        with self.store.write() as db:
            return len(
                db.execute(
                    "DELETE FROM idempotency WHERE owner = ? AND state = 'running'"
                    " RETURNING key_id",
                    [owner],
                ).fetchall()
            )


def _in_use(idem_key: str, what: str) -> IdempotencyKeyInUse:
    first = (
        "an identical request from this API key"
        if is_implicit(idem_key)
        else "the first request with this Idempotency-Key"
    )
    return IdempotencyKeyInUse(
        f"{first} {what}; retry shortly", headers={"Retry-After": str(RETRY_AFTER_SECONDS)}
    )
