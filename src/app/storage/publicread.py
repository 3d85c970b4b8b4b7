"""A stored object's public URL → whether anyone can read it: the bucket engines' check that
the URLs the service hands out answer, made while their probe object exists.

Only the storage's own object URL is fetched (built from the settings, never from a
request): no redirect is followed, no proxy from the environment used, a few bytes read.
"""

from __future__ import annotations

import httpx

from inkcard.app.errors import StorageError

CONNECT_SECONDS = 3.0
READ_SECONDS = 5.0
DENIED = (401, 403)


class UnreadableUrls(StorageError):
    """The files are stored, but their URLs do not answer them to everyone: ``/readyz`` is
    not ready, and ``inkcard serve`` warns at start-up (it still starts: a bucket policy can
    be fixed while it runs, and readiness follows)."""


def check_public_read(url: str, advice: str) -> None:
    """Fetch ``url`` as a browser without credentials would.

    Raises:
        UnreadableUrls: It answers anything but 2xx, or not at all; the message says what it
            answered and ``advice`` (what to set).
    """
    timeout = httpx.Timeout(READ_SECONDS, connect=CONNECT_SECONDS)
    try:
        with (
            httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client,
            client.stream("GET", url) as answer,
        ):
            status = answer.status_code
    except httpx.HTTPError as exc:
        raise UnreadableUrls(
            f"the files' URLs cannot be reached ({type(exc).__name__}): {advice}"
        ) from None
    if status in DENIED:
        raise UnreadableUrls(
            f"the files are stored but their URLs answer {status}: they are not publicly"
            f" readable; {advice}"
        )
    if not 200 <= status < 300:
        raise UnreadableUrls(f"the files are stored but their URLs answer {status}; {advice}")
