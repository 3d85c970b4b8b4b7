"""A paid call's work raced against its client going away.

The HTTP routes hand the operations an ``asyncio.Event`` that is set when the client closes the
connection (``app.server.disconnect``); the MCP tools and the CLI hand none. Work whose client
is gone is cancelled inside ``charged``, so its hold is released: the call is not charged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from inkcard.app.errors import ClientClosedRequest
from inkcard.app.ledger.charge import to_the_end

T = TypeVar("T")

GONE_MESSAGE = "the client closed the connection before the answer was ready; nothing was charged"


async def unless_gone(gone: asyncio.Event | None, work: Coroutine[Any, Any, T]) -> T:
    """``work``'s answer, or ``ClientClosedRequest`` once ``gone`` is set before it is ready.

    The work is cancelled then, and awaited until it has stopped (what it holds is let go). A
    step that must not stop half-way (the platform's draft call) may still finish it: then its
    answer is returned, to be charged and kept for a retry like any finished answer.
    """
    if gone is None:
        return await work
    task = asyncio.ensure_future(work)
    watch = asyncio.ensure_future(gone.wait())
    try:
        await asyncio.wait([task, watch], return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        task.cancel()
        await to_the_end(task)
        raise
    finally:
        watch.cancel()
    if not task.done():
        task.cancel()
        if await to_the_end(task):
            raise asyncio.CancelledError
        if task.cancelled():
            raise ClientClosedRequest(GONE_MESSAGE)
    return task.result()
