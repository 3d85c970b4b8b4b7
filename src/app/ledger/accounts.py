"""An API key's WeChat accounts, stored by name → the AppID and AppSecret a platform call uses.

A key stores an account once (``PUT /api/platform/accounts/{name}``) and later names it instead
of sending the AppID and AppSecret with every call. The ``platform_accounts`` table keeps the
AppID in clear (it is public: it is in every article link) and the AppSecret only sealed under
the server's ``INKCARD_ACCOUNT_KEY`` (``app.ledger.sealing``); nothing here logs, returns or
puts a secret in an error. Each key sees only its own accounts.
"""

from __future__ import annotations

import msgspec

from inkcard.app.ledger.engine import Store
from inkcard.app.ledger.movements import now
from inkcard.app.ledger.sealing import Sealer


class StoredAccount(msgspec.Struct, frozen=True):
    """What may be shown of a stored account: never its secret."""

    name: str
    appid: str
    updated_at: str


class AccountBook:
    """The ``platform_accounts`` table of one database, sealed with one server key."""

    def __init__(self, store: Store, sealer: Sealer):
        self.store = store
        self.sealer = sealer

    def put(self, key_id: int, name: str, appid: str, secret: str) -> StoredAccount:
        """Store (or replace) account ``name`` of key ``key_id``.

        Raises:
            AccountKeyMissing: The server has no ``INKCARD_ACCOUNT_KEY``; nothing is stored.
        """
        sealed = self.sealer.seal(secret)
        stamp = now()
        with self.store.write() as db:
            db.execute(
                "INSERT INTO platform_accounts (key_id, name, appid, sealed_secret, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (key_id, name) DO UPDATE"
                " SET appid = excluded.appid, sealed_secret = excluded.sealed_secret,"
                " updated_at = excluded.updated_at",
                [key_id, name, appid, sealed, stamp],
            )
        return StoredAccount(name, appid, stamp)

    def list(self, key_id: int) -> list[StoredAccount]:
        """The key's accounts by name."""
        with self.store.read() as db:
            rows = db.execute(
                "SELECT name, appid, updated_at FROM platform_accounts WHERE key_id = ?"
                " ORDER BY name",
                [key_id],
            ).fetchall()
        return [StoredAccount(*row) for row in rows]

    def credentials(self, key_id: int, name: str) -> tuple[str, str] | None:
        """The AppID and the opened AppSecret of the key's account ``name``; None if it has
        none of that name.

        Raises:
            AccountKeyMissing: The server has no key to open it with.
            AccountUnreadable: The secret does not open with the server's keys.
        """
        self.sealer.ready("using a stored account")  # before the lookup: none can be used
        with self.store.read() as db:
            row = db.execute(
                "SELECT appid, sealed_secret FROM platform_accounts WHERE key_id = ? AND name = ?",
                [key_id, name],
            ).fetchone()
        if row is None:
            return None
        return str(row[0]), self.sealer.open(bytes(row[1]), name)

    def delete(self, key_id: int, name: str) -> bool:
        """Forget the key's account ``name``; False when it had none of that name."""
        with self.store.write() as db:
            gone = db.execute(
                "DELETE FROM platform_accounts WHERE key_id = ? AND name = ? RETURNING name",
                [key_id, name],
            ).fetchone()
        return gone is not None
