"""Platform access tokens, cached in the service database so every worker and replica shares
them, and fetched by one of them at a time (``fetch_lock``).

A cached token is found under a *slot*: an HMAC of the AppID keyed with the AppSecret. A
caller who knows only an AppID cannot compute the slot, a changed secret lands in a new slot,
and the secret itself is never stored (128-bit AppSecrets make the HMAC unguessable).

Tokens are secrets too, so the row holds them sealed: XOR with an HMAC-SHA-256 keystream
(counter mode over a random 16-byte nonce) under a key derived from the AppSecret, followed
by an HMAC-SHA-256 tag over nonce and ciphertext (encrypt-then-MAC). Only a caller holding
the AppSecret can open a row; a copy of the database file alone reveals neither secrets nor
tokens. The standard library suffices for this, so no cryptography dependency is added.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from pathlib import Path

from inkcard.app.ledger.database import open_store
from inkcard.app.ledger.engine import FetchLock

REFRESH_MARGIN = 300.0  # refetch this long before the platform's expiry (it rotates 5 min early)
_NONCE = 16
_TAG = 32
_CONTEXT = b"inkcard platform access token v1\x00"


class _Keys:
    """Everything derived from one (AppID, AppSecret) pair."""

    def __init__(self, appid: str, secret: str):
        master = hmac.digest(secret.encode(), _CONTEXT + appid.encode(), "sha256")
        self.slot = hmac.digest(master, b"slot", "sha256").hex()
        self.encrypt = hmac.digest(master, b"encrypt", "sha256")
        self.authenticate = hmac.digest(master, b"authenticate", "sha256")


def _keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    blocks = (
        hmac.digest(key, nonce + counter.to_bytes(4, "big"), "sha256")
        for counter in range(-(-length // 32))
    )
    return b"".join(blocks)[:length]


def seal(keys: _Keys, token: str) -> bytes:
    """nonce ‖ tag ‖ ciphertext of ``token``."""
    plain = token.encode()
    nonce = secrets.token_bytes(_NONCE)
    cipher = bytes(
        a ^ b for a, b in zip(plain, _keystream(keys.encrypt, nonce, len(plain)), strict=True)
    )
    tag = hmac.digest(keys.authenticate, nonce + cipher, "sha256")
    return nonce + tag + cipher


def unseal(keys: _Keys, sealed: bytes) -> str | None:
    """The token in ``sealed``, or None when the tag does not match (tampered or other key)."""
    nonce, tag, cipher = sealed[:_NONCE], sealed[_NONCE : _NONCE + _TAG], sealed[_NONCE + _TAG :]
    expected = hmac.digest(keys.authenticate, nonce + cipher, "sha256")
    if len(nonce) != _NONCE or not hmac.compare_digest(tag, expected):
        return None
    plain = bytes(
        a ^ b for a, b in zip(cipher, _keystream(keys.encrypt, nonce, len(cipher)), strict=True)
    )
    return plain.decode(errors="replace")


class TokenCache:
    """Sealed access tokens in the ``platform_tokens`` table of the service database."""

    def __init__(
        self,
        database: str | Path,
        *,
        margin: float = REFRESH_MARGIN,
        clock: Callable[[], float] = time.time,
    ):
        self.store = open_store(database)
        self.margin = margin
        self.clock = clock
        self.store.migrate()

    def get(self, appid: str, secret: str) -> str | None:
        """The cached token for this AppID and secret, unless it is (nearly) expired."""
        keys = _Keys(appid, secret)
        with self.store.read() as db:
            row = db.execute(
                "SELECT sealed, usable_until FROM platform_tokens WHERE slot = ?", [keys.slot]
            ).fetchone()
        if row is None or row[1] <= self.clock():
            return None
        return unseal(keys, bytes(row[0]))

    def fetch_lock(self, appid: str, secret: str) -> FetchLock:
        """The lock one fetch of this account's token holds, shared by every process on the
        database: the others wait on it, then find the token it cached."""
        return self.store.fetch_lock("platform-token:" + _Keys(appid, secret).slot)

    def put(self, appid: str, secret: str, token: str, expires_in: float) -> None:
        """Cache ``token``, valid for ``expires_in`` seconds from now; prunes expired rows."""
        keys = _Keys(appid, secret)
        now = self.clock()
        usable_until = now + expires_in - min(self.margin, expires_in / 2)
        with self.store.write() as db:
            db.execute("DELETE FROM platform_tokens WHERE usable_until <= ?", [now])
            db.execute(
                "INSERT INTO platform_tokens (slot, sealed, usable_until) VALUES (?, ?, ?)"
                " ON CONFLICT (slot) DO UPDATE"
                " SET sealed = excluded.sealed, usable_until = excluded.usable_until",
                [keys.slot, seal(keys, token), usable_until],
            )

    def drop(self, appid: str, secret: str, token: str) -> None:
        """Forget ``token`` if it is still the cached one (another worker may have replaced it)."""
        keys = _Keys(appid, secret)
        with self.store.write() as db:
            row = db.execute(
                "SELECT sealed FROM platform_tokens WHERE slot = ?" + self.store.for_update,
                [keys.slot],
            ).fetchone()
            if row is not None and unseal(keys, bytes(row[0])) in (token, None):
                db.execute("DELETE FROM platform_tokens WHERE slot = ?", [keys.slot])
