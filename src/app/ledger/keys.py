"""An API key → what is stored of it (a hash and a prefix), and the table of keys it lives in.

A key is ``ik_`` + 32 base62 characters. Only its SHA-256 and its first 8 characters (the
prefix shown in lists and logs) are stored. ``KeyTable`` creates, lists, looks up, revokes
and authenticates keys in the service database (``app.ledger.database``); ``Credits``
(``app.ledger.credits``) adds their balances and holds.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string

import msgspec

from inkcard.app.ledger.engine import Store, StoreConflict
from inkcard.app.ledger.movements import move, now

KEY_PREFIX = "ik_"
KEY_LENGTH = 32
PREFIX_CHARS = 8
_ALPHABET = string.digits + string.ascii_letters
_KEY_COLUMNS = "id, prefix, name, balance, created_at, revoked_at"


class KeyInfo(msgspec.Struct, frozen=True):
    """What is stored about a key (never the key itself)."""

    id: int
    prefix: str
    name: str
    balance: int
    created_at: str
    revoked_at: str | None


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


class KeyTable:
    """The ``api_keys`` table of one database. Safe to use from many threads and processes."""

    def __init__(self, store: Store):
        self.store = store

    def create_key(self, name: str, credits: int = 0) -> tuple[str, KeyInfo]:
        """Create a key holding ``credits``; return the full key (shown once) and its record."""
        if credits < 0:
            raise ValueError("credits must be 0 or more")
        for _ in range(10):
            key = new_key()
            try:
                with self.store.write() as db:
                    (key_id,) = db.execute(
                        "INSERT INTO api_keys (prefix, key_hash, name, balance, created_at)"
                        " VALUES (?, ?, ?, 0, ?) RETURNING id",
                        [key[:PREFIX_CHARS], hash_key(key), name, now()],
                    ).fetchone()
                    if credits:
                        move(db, key_id, credits, "grant", "create", None)
            except StoreConflict:
                continue  # prefix collision: draw again
            return key, self.key_info(key[:PREFIX_CHARS])
        raise RuntimeError("could not draw an unused key prefix")

    def key_count(self) -> int:
        """Number of keys ever created (revoked ones included)."""
        with self.store.read() as db:
            return int(db.execute("SELECT count(*) FROM api_keys").fetchone()[0])

    def list_keys(self) -> list[KeyInfo]:
        """Every key, oldest first."""
        with self.store.read() as db:
            rows = db.execute(f"SELECT {_KEY_COLUMNS} FROM api_keys ORDER BY id").fetchall()
        return [KeyInfo(*row) for row in rows]

    def key_info(self, prefix: str) -> KeyInfo:
        """The key with this prefix; raises ``UnknownKey``."""
        with self.store.read() as db:
            row = db.execute(
                f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE prefix = ?", [prefix]
            ).fetchone()
        if row is None:
            raise UnknownKey(prefix)
        return KeyInfo(*row)

    def revoke(self, prefix: str) -> KeyInfo:
        """Revoke a key (idempotent); raises ``UnknownKey``."""
        with self.store.write() as db:
            db.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND revoked_at IS NULL",
                [now(), prefix],
            )
        return self.key_info(prefix)

    def authenticate(self, key: str) -> KeyInfo | None:
        """The live key record matching ``key``, or None. The hash comparison is constant-time."""
        if not looks_like_key(key):
            return None
        with self.store.read() as db:
            row = db.execute(
                f"SELECT {_KEY_COLUMNS}, key_hash FROM api_keys WHERE prefix = ?",
                [key[:PREFIX_CHARS]],
            ).fetchone()
        if row is None or not hmac.compare_digest(row[-1], hash_key(key)):
            return None
        info = KeyInfo(*row[:-1])
        return None if info.revoked_at else info
