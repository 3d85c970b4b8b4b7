"""An image's source → refused from its URL alone, or its bytes when it is a ``data:`` URI.

Only http and https URLs are fetched: one with control characters, credentials, no host or
a local name is refused before any connection. ``data:`` URIs are decoded, not fetched,
under the same size limit as a download. Every refusal is a ``FetchError`` whose message is
safe to show the caller (``describe`` cuts a long source short).
"""

from __future__ import annotations

import base64
import binascii
from urllib.parse import unquote_to_bytes, urlsplit

REFUSED_NAMES = ("localhost", "metadata.google.internal", "metadata.tencentyun.com")


class FetchError(Exception):
    """An image could not be fetched; ``str()`` is safe to show the caller."""

    def __init__(self, source: str, reason: str):
        super().__init__(f"image {describe(source)} {reason}")
        self.source = source
        self.reason = reason


class FetchRefused(FetchError):
    """The image's address, scheme, port, coding or size is not allowed; the message says
    how far the fetch got (most are refused before a connection or at the headers)."""


def describe(source: str) -> str:
    """The image's source, cut short enough for a message (data: URIs can be megabytes)."""
    return source if len(source) <= 100 else source[:97] + "..."


def host_of(source: str) -> str:
    """The host of a URL, for logs (its path and query may carry the caller's tokens)."""
    try:
        return urlsplit(source).hostname or "(no host)"
    except ValueError:
        return "(malformed URL)"


def check_url(source: str) -> None:
    """Refuse what can be refused from the URL alone (scheme, credentials, local names).

    Raises:
        FetchRefused: The URL may not be fetched.
    """
    if any(c in source for c in "\x00\r\n\t "):
        raise FetchRefused(source, "has control characters or spaces in its URL")
    try:
        parts = urlsplit(source)
        parts.port  # noqa: B018 -- parsing the port raises on out-of-range values
    except ValueError:
        raise FetchRefused(source, "has a malformed URL") from None
    if parts.scheme not in ("http", "https"):
        raise FetchRefused(source, "is not an http or https URL")
    if parts.username is not None or parts.password is not None:
        raise FetchRefused(source, "has credentials in its URL")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise FetchRefused(source, "has no host in its URL")
    if host in REFUSED_NAMES or host.endswith(".localhost"):
        raise FetchRefused(source, "names a local host")


def is_data_uri(source: str) -> bool:
    return source[:5].lower() == "data:"


def decode_data_uri(source: str, max_bytes: int) -> bytes:
    """The bytes of a ``data:`` URI (base64 or percent-encoded).

    Raises:
        FetchRefused: The decoded bytes would exceed ``max_bytes``.
        FetchError: The URI is malformed.
    """
    header, comma, payload = source.partition(",")
    if not comma:
        raise FetchError(source, "is a data: URI without a comma")
    is_base64 = header.lower().endswith(";base64")
    estimate = len(payload) * 3 // 4 if is_base64 else len(payload) // 3
    if estimate > max_bytes:
        raise FetchRefused(source, f"is larger than {max_bytes} bytes")
    try:
        data = (
            base64.b64decode(unquote_to_bytes(payload), validate=False)
            if is_base64
            else (unquote_to_bytes(payload))
        )
    except (binascii.Error, ValueError):
        raise FetchError(source, "is a data: URI whose base64 is damaged") from None
    if len(data) > max_bytes:
        raise FetchRefused(source, f"is larger than {max_bytes} bytes")
    if not data:
        raise FetchError(source, "is an empty data: URI")
    return data
