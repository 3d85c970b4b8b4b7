"""A handler's view of its client going away: an event set on the ASGI ``http.disconnect``.

Litestar does not cancel a handler whose client has closed the connection, and uvicorn only
says so through ``receive``. So once a paid route has read its whole body, a task waits on
``receive`` (which then answers nothing but ``http.disconnect``) and sets the event the
operations race their work against (``app.operations.disconnect``). The MCP mount hands the
SDK a ``receive`` that does the same once the SDK has read the body (``DisconnectWatch``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Request
from litestar.types import Receive, ReceiveMessage


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


class DisconnectWatch:
    """``receive`` for an ASGI app that reads its body itself (the MCP SDK): the body's
    messages pass through; from the last one on, a task waits on the server's ``receive``
    and sets ``gone`` on ``http.disconnect``. A later call of the app's own waits for
    ``gone`` and answers ``http.disconnect``, as the server would."""

    def __init__(self, receive: Receive):
        self._receive = receive
        self.gone = asyncio.Event()
        self._watcher: asyncio.Future[None] | None = None

    async def receive(self) -> ReceiveMessage:
        if self._watcher is not None:
            await self.gone.wait()
            return {"type": "http.disconnect"}
        message = await self._receive()
        if message["type"] == "http.disconnect":
            self.gone.set()
        elif not message.get("more_body", False):
            self._watcher = asyncio.ensure_future(self._watch())
        return message

    async def _watch(self) -> None:
        try:
            while (await self._receive())["type"] != "http.disconnect":
                pass
        except Exception:  # a server whose receive fails after the body: no signal, no harm
            return
        self.gone.set()

    def close(self) -> None:
        """Stop watching (the exchange is over)."""
        if self._watcher is not None:
            self._watcher.cancel()
