"""API keys and the credit ledger in SQLite (WAL, busy timeout, append-only ledger).

A key is ``ik_`` + 32 base62 characters. Only its SHA-256 and its first 8 characters (the
prefix shown in lists and logs) are stored. Every change of a balance writes one ledger row in
the same ``BEGIN IMMEDIATE`` transaction, so a key's balance always equals the sum of its
ledger rows, and two concurrent debits can never spend the same credit.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import string
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import sqlite_utils

from app.errors import InsufficientCredits, plural

KEY_PREFIX = "ik_"
KEY_LENGTH = 32
PREFIX_CHARS = 8
_ALPHABET = string.digits + string.ascii_letters

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id INTEGER PRIMARY KEY,
    prefix TEXT NOT NULL UNIQUE,
    key_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS ledger (
    id INTEGER PRIMARY KEY,
    key_id INTEGER NOT NULL REFERENCES api_keys(id),
    delta INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('grant', 'debit', 'refund')),
    operation TEXT NOT NULL,
    request_id TEXT,
    ref_debit_id INTEGER UNIQUE REFERENCES ledger(id),
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_key ON ledger(key_id);
CREATE TRIGGER IF NOT EXISTS ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
CREATE TRIGGER IF NOT EXISTS ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
"""


class KeyInfo(msgspec.Struct, frozen=True):
    """What is stored about a key (never the key itself)."""

    id: int
    prefix: str
    name: str
    balance: int
    created_at: str
    revoked_at: str | None


class LedgerRow(msgspec.Struct, frozen=True):
    """One credit movement."""

    id: int
    delta: int
    kind: str
    operation: str
    request_id: str | None
    created_at: str


class UnknownKey(LookupError):
    """No key has this prefix."""


def new_key() -> str:
    """A fresh random API key: ``ik_`` + 32 base62 characters (about 190 bits)."""
    return KEY_PREFIX + "".join(secrets.choice(_ALPHABET) for _ in range(KEY_LENGTH))


def hash_key(key: str) -> str:
    """Hex SHA-256 of a key: what the database keeps."""
    return hashlib.sha256(key.encode()).hexdigest()


def looks_like_key(key: str) -> bool:
    """True if ``key`` has the shape of an Inkcard key."""
    body = key[len(KEY_PREFIX) :]
    return (
        key.startswith(KEY_PREFIX) and len(body) == KEY_LENGTH and all(c in _ALPHABET for c in body)
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Credits:
    """The key and ledger database at one path. Safe to use from many threads and processes."""

    def __init__(self, path: Path):
        self.path = path

    @contextmanager
    def _db(self) -> Iterator[sqlite_utils.Database]:
        conn = sqlite3.connect(
            self.path, timeout=5.0, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            yield sqlite_utils.Database(conn)
        finally:
            conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite_utils.Database]:
        """One ``BEGIN IMMEDIATE`` transaction: the write lock is taken before anything is read."""
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def ensure_schema(self) -> None:
        """Create the file, tables and triggers if missing, and switch the file to WAL."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._db() as db:
            db.enable_wal()
            db.conn.executescript(_SCHEMA)

    def check_writable(self) -> None:
        """Raise ``sqlite3.Error`` unless a write transaction can start."""
        with self._write() as db:
            db.execute("SELECT count(*) FROM api_keys").fetchone()

    # Keys

    def create_key(self, name: str, credits: int = 0) -> tuple[str, KeyInfo]:
        """Create a key holding ``credits``; return the full key (shown once) and its record."""
        if credits < 0:
            raise ValueError("credits must be 0 or more")
        for _ in range(10):
            key = new_key()
            try:
                with self._write() as db:
                    cur = db.execute(
                        "INSERT INTO api_keys (prefix, key_hash, name, balance, created_at)"
                        " VALUES (?, ?, ?, 0, ?)",
                        [key[:PREFIX_CHARS], hash_key(key), name, _now()],
                    )
                    key_id = int(cur.lastrowid or 0)
                    if credits:
                        self._move(db, key_id, credits, "grant", "create", None)
            except sqlite3.IntegrityError:
                continue  # prefix collision: draw again
            return key, self.key_info(key[:PREFIX_CHARS])
        raise RuntimeError("could not draw an unused key prefix")

    def key_count(self) -> int:
        """Number of keys ever created (revoked ones included)."""
        with self._db() as db:
            return int(db.execute("SELECT count(*) FROM api_keys").fetchone()[0])

    def list_keys(self) -> list[KeyInfo]:
        """Every key, oldest first."""
        with self._db() as db:
            rows = db.execute(f"SELECT {_KEY_COLUMNS} FROM api_keys ORDER BY id").fetchall()
        return [KeyInfo(*row) for row in rows]

    def key_info(self, prefix: str) -> KeyInfo:
        """The key with this prefix; raises ``UnknownKey``."""
        with self._db() as db:
            row = db.execute(
                f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE prefix = ?", [prefix]
            ).fetchone()
        if row is None:
            raise UnknownKey(prefix)
        return KeyInfo(*row)

    def revoke(self, prefix: str) -> KeyInfo:
        """Revoke a key (idempotent); raises ``UnknownKey``."""
        with self._write() as db:
            db.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND revoked_at IS NULL",
                [_now(), prefix],
            )
        return self.key_info(prefix)

    def authenticate(self, key: str) -> KeyInfo | None:
        """The live key record matching ``key``, or None. The hash comparison is constant-time."""
        if not looks_like_key(key):
            return None
        with self._db() as db:
            row = db.execute(
                f"SELECT {_KEY_COLUMNS}, key_hash FROM api_keys WHERE prefix = ?",
                [key[:PREFIX_CHARS]],
            ).fetchone()
        if row is None or not hmac.compare_digest(row[-1], hash_key(key)):
            return None
        info = KeyInfo(*row[:-1])
        return None if info.revoked_at else info

    # Credits

    def _move(
        self,
        db: sqlite_utils.Database,
        key_id: int,
        delta: int,
        kind: str,
        operation: str,
        request_id: str | None,
        ref_debit_id: int | None = None,
    ) -> int:
        cur = db.execute(
            "INSERT INTO ledger"
            " (key_id, delta, kind, operation, request_id, ref_debit_id, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [key_id, delta, kind, operation, request_id, ref_debit_id, _now()],
        )
        db.execute("UPDATE api_keys SET balance = balance + ? WHERE id = ?", [delta, key_id])
        return int(cur.lastrowid or 0)

    def grant(self, prefix: str, amount: int, request_id: str | None = None) -> KeyInfo:
        """Add ``amount`` credits to a key; raises ``UnknownKey``."""
        if amount <= 0:
            raise ValueError("amount must be positive")
        info = self.key_info(prefix)
        with self._write() as db:
            self._move(db, info.id, amount, "grant", "grant", request_id)
        return self.key_info(prefix)

    def charge(self, key_id: int, cost: int, operation: str, request_id: str | None) -> int | None:
        """Debit ``cost`` credits atomically and return the ledger row id (None when cost is 0).

        Raises:
            InsufficientCredits: The balance is below ``cost``; nothing is written.
        """
        if cost <= 0:
            return None
        with self._write() as db:
            row = db.execute(
                "UPDATE api_keys SET balance = balance - ?"
                " WHERE id = ? AND balance >= ? RETURNING balance",
                [cost, key_id, cost],
            ).fetchone()
            if row is None:
                raise InsufficientCredits(
                    f"this call costs {plural(cost, 'credit')} and the key's balance is lower"
                )
            cur = db.execute(
                "INSERT INTO ledger (key_id, delta, kind, operation, request_id, created_at)"
                " VALUES (?, ?, 'debit', ?, ?, ?)",
                [key_id, -cost, operation, request_id, _now()],
            )
            return int(cur.lastrowid or 0)

    def refund(self, debit_id: int, request_id: str | None) -> None:
        """Give back a debit, at most once (the ledger's unique ``ref_debit_id`` enforces it)."""
        with self._write() as db:
            row = db.execute(
                "SELECT key_id, delta, operation FROM ledger WHERE id = ? AND kind = 'debit'",
                [debit_id],
            ).fetchone()
            if row is None:
                raise ValueError(f"no debit {debit_id}")
            key_id, delta, operation = row
            self._move(db, key_id, -delta, "refund", operation, request_id, ref_debit_id=debit_id)

    def ledger(self, prefix: str, limit: int = 20) -> list[LedgerRow]:
        """A key's most recent ledger rows, newest first; raises ``UnknownKey``."""
        info = self.key_info(prefix)
        with self._db() as db:
            rows = db.execute(
                "SELECT id, delta, kind, operation, request_id, created_at FROM ledger"
                " WHERE key_id = ? ORDER BY id DESC LIMIT ?",
                [info.id, limit],
            ).fetchall()
        return [LedgerRow(*row) for row in rows]

    def ledger_sum(self, key_id: int) -> int:
        """Sum of a key's ledger deltas (equals its balance)."""
        with self._db() as db:
            return int(
                db.execute(
                    "SELECT coalesce(sum(delta), 0) FROM ledger WHERE key_id = ?", [key_id]
                ).fetchone()[0]
            )


_KEY_COLUMNS = "id, prefix, name, balance, created_at, revoked_at"
