"""ASGI guards around the application: HEAD answered as GET, a deadline on reading the body.

Pure ASGI (no Litestar), like ``requestlog``: they wrap the whole application, so every route,
the 404s and the static pages get the same treatment.
"""

from __future__ import annotations

import asyncio
from typing import Any

from inkcard.app.errors import RequestTimeout, plural

_CLOSE = (b"connection", b"close")


class HeadAsGet:
    """A HEAD request runs the GET route and sends its status and headers without the body.

    Routes are declared once, as GET; the headers (``content-length`` included) are those the
    GET would send, as HTTP asks of HEAD.
    """

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_without_body(message: Any) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)


def _announces_body(scope: Any) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() != b"0"):
            return True
    return False


class BodyDeadline:
    """The whole request body must arrive within ``seconds`` of the request line and headers.

    A client that trickles its body (slowloris) gets 408 ``request_timeout`` once the time is
    up. Any answer sent before the body was read to its end closes the connection, since the
    rest of that body would otherwise be read as the next request or hold the socket open.
    """

    def __init__(self, app: Any, seconds: float):
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not _announces_body(scope):
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        body_done = False

        async def receive_before_deadline() -> Any:
            nonlocal body_done
            if body_done:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise RequestTimeout(
                    f"the request body did not arrive within {plural(self.seconds, 'second')}"
                ) from None
            body_done = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def send_closing_if_unread(message: Any) -> None:
            if message["type"] == "http.response.start" and not body_done:
                message = {**message, "headers": [*message.get("headers", ()), _CLOSE]}
            await send(message)

        await self.app(scope, receive_before_deadline, send_closing_if_unread)
