"""A stored account's AppSecret ↔ the sealed bytes the database keeps: Fernet, the door to
``cryptography``.

Fernet (AES-128-CBC with an HMAC-SHA-256 tag over a random IV, from the well-kept
``cryptography`` package) seals each secret under the server key of ``INKCARD_ACCOUNT_KEY``; a
copy of the database alone reveals no secret, and a row altered or sealed under another key
does not open. The setting may list several keys, comma-separated (``MultiFernet``): the first
seals, every one opens, so a key is rotated by putting the new one first. No cipher is written
here; this module only names the library's.
"""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from inkcard.app.errors import ApiError

SETTING = "INKCARD_ACCOUNT_KEY"


class AccountKeyMissing(ApiError):
    """The server has no account key: stored accounts can be neither written nor read (400)."""

    label = "account_key_missing"


class AccountUnreadable(ApiError):
    """A stored secret does not open under the server's keys (the key was changed) (500)."""

    status = 500
    label = "account_unreadable"


def new_key() -> str:
    """A fresh key for ``INKCARD_ACCOUNT_KEY`` (44 url-safe base64 characters)."""
    return Fernet.generate_key().decode()


class Sealer:
    """Seals and opens secrets under the keys of one ``INKCARD_ACCOUNT_KEY`` value."""

    def __init__(self, keys: str):
        self._fernet: MultiFernet | None = None
        listed = [key.strip() for key in keys.split(",") if key.strip()]
        if listed:  # the settings checked each key's shape at start
            self._fernet = MultiFernet([Fernet(key.encode()) for key in listed])

    @property
    def configured(self) -> bool:
        """True when a key is set."""
        return self._fernet is not None

    def ready(self, doing: str) -> MultiFernet:
        """The keys, for ``doing`` (named in the refusal).

        Raises:
            AccountKeyMissing: No key is set.
        """
        if self._fernet is None:
            raise AccountKeyMissing(
                f"{doing} needs the server setting {SETTING} (a Fernet key: 32 random bytes in"
                " url-safe base64, as `cryptography.fernet.Fernet.generate_key()` makes); it is"
                " not set on this server: send Platform-Appid and Platform-App-Secret instead"
            )
        return self._fernet

    def seal(self, secret: str) -> bytes:
        """``secret`` sealed under the first key.

        Raises:
            AccountKeyMissing: No key is set.
        """
        return self.ready("storing an account").encrypt(secret.encode())

    def open(self, sealed: bytes, name: str) -> str:
        """The secret in ``sealed`` (the row of account ``name``).

        Raises:
            AccountKeyMissing: No key is set.
            AccountUnreadable: No key of the setting opens it.
        """
        try:
            return self.ready("using a stored account").decrypt(sealed).decode()
        except InvalidToken:
            raise AccountUnreadable(
                f"the stored secret of account `{name}` does not open with {SETTING} (was the"
                " key changed? list the old key after the new one, or store the account again)"
            ) from None
