"""HTTP exchange → ``X-Request-Id`` header, one JSON access log line, the client's origin.

Pure ASGI (no Litestar): the middleware wraps the whole application, so 404s and errors get a
request id and a log line too. The operations record the caller's key prefix (never the key)
on the current ``app.logs.RequestInfo``.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any

from inkcard.app import logs
from inkcard.app.server.origin import Networks, request_origin

HEADER = b"x-request-id"
_VALID_ID = re.compile(rb"[A-Za-z0-9._:-]{1,128}")

access_log = logging.getLogger("inkcard.access")


def _incoming_id(scope: dict[str, Any]) -> str:
    for name, value in scope.get("headers", ()):
        if name == HEADER and _VALID_ID.fullmatch(value):
            return str(value.decode("ascii"))
    return uuid.uuid4().hex


class RequestLogMiddleware:
    """ASGI middleware: request id in, ``X-Request-Id`` out, one access log line per request."""

    def __init__(self, app: Any, proxies: Networks = ()):
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        info = logs.RequestInfo(_incoming_id(scope), origin=request_origin(scope, self.proxies))
        path = scope.get("path")  # as it came: a mounted app (/mcp) rewrites the scope's path
        token = logs.enter(info)
        status = 500
        started = time.perf_counter()

        async def send_with_id(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != HEADER]
                headers.append((HEADER, info.request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            access_log.info(
                "request",
                extra={
                    "http": {
                        "method": scope.get("method"),
                        "path": path,
                        "status": status,
                        "ms": round((time.perf_counter() - started) * 1000, 1),
                        "key": info.key,
                        **info.extra,
                    }
                },
            )
            logs.leave(token)
