"""An API key as sent (header, MCP connection, environment) → the live key's ``KeyInfo``."""

from __future__ import annotations

import asyncio

from inkcard.app import logs
from inkcard.app.errors import InvalidApiKey, MissingApiKey
from inkcard.app.ledger.credits import Credits, KeyInfo


async def authenticate(credits: Credits, key: str, how_to_send: str) -> KeyInfo:
    """The live key ``key``; the current request's log line gets its prefix (never the key).

    Raises:
        MissingApiKey: ``key`` is empty (the message is ``how_to_send``).
        InvalidApiKey: Unknown or revoked key.
    """
    key = key.strip()
    if not key:
        raise MissingApiKey(how_to_send)
    info = await asyncio.to_thread(credits.authenticate, key)
    request_info = logs.current()
    if info is None:
        if request_info is not None:
            request_info.key = "invalid"
        raise InvalidApiKey("the API key is unknown or has been revoked")
    if request_info is not None:
        request_info.key = info.prefix
    return info
