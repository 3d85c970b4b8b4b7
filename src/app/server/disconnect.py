"""A handler's view of its client going away: an event set on the ASGI ``http.disconnect``.

Litestar does not cancel a handler whose client has closed the connection, and uvicorn only
says so through ``receive``. So once a paid route has read its whole body, a task waits on
``receive`` (which then answers nothing but ``http.disconnect``) and sets the event the
operations race their work against (``app.operations.disconnect``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Request


@asynccontextmanager
async def watching_disconnect(request: Request[Any, Any, Any]) -> AsyncIterator[asyncio.Event]:
    """An event set when the client disconnects while the block runs.

    Enter it only after the body has been read: the watch takes every message ``receive``
    gives from then on.
    """
    gone = asyncio.Event()

    async def watch() -> None:
        try:
            while (await request.receive())["type"] != "http.disconnect":
                pass  # no more body can come; anything else is not ours to read
        except Exception:  # a server whose receive fails after the body: no signal, no harm
            return
        gone.set()

    watcher = asyncio.ensure_future(watch())
    try:
        yield gone
    finally:
        watcher.cancel()
