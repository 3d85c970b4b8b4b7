"""HTTP exchange → ``X-Request-Id`` header and one JSON log line; request id on every log line.

Pure ASGI (no Litestar): the middleware wraps the whole application, so 404s and errors get a
request id and a log line too. Handlers record the caller's key prefix (never the key) on the
current ``RequestInfo``.
"""

from __future__ import annotations

import contextvars
import logging
import re
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import msgspec

HEADER = b"x-request-id"
_VALID_ID = re.compile(rb"[A-Za-z0-9._:-]{1,128}")

access_log = logging.getLogger("inkcard.access")


@dataclass
class RequestInfo:
    """What the access log line says about one request; handlers fill in ``key`` and ``extra``."""

    request_id: str
    key: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


_current: contextvars.ContextVar[RequestInfo | None] = contextvars.ContextVar(
    "inkcard_request", default=None
)


def current() -> RequestInfo | None:
    """The request being handled in this context, if any."""
    return _current.get()


def current_id() -> str | None:
    """The id of the request being handled in this context, if any."""
    info = _current.get()
    return info.request_id if info else None


def _incoming_id(scope: dict[str, Any]) -> str:
    for name, value in scope.get("headers", ()):
        if name == HEADER and _VALID_ID.fullmatch(value):
            return str(value.decode("ascii"))
    return uuid.uuid4().hex


class RequestLogMiddleware:
    """ASGI middleware: request id in, ``X-Request-Id`` out, one access log line per request."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        info = RequestInfo(_incoming_id(scope))
        path = scope.get("path")  # as it came: a mounted app (/mcp) rewrites the scope's path
        token = _current.set(info)
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
            _current.reset(token)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, request id, message, and ``http`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", None),
            "msg": record.getMessage(),
        }
        http = getattr(record, "http", None)
        if http:
            line.update(http)
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return msgspec.json.encode(line).decode()


class RequestIdFilter(logging.Filter):
    """Stamps the current request id on every record that passes through a handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_id()
        return True


class _JsonLinesHandler(logging.StreamHandler):  # type: ignore[type-arg]  # its stream type
    """Inkcard's own stderr handler, told apart so configuring twice adds none."""


def configure_logging(level: str) -> None:
    """Send ``inkcard.*`` logs to stderr as JSON lines (idempotent)."""
    logger = logging.getLogger("inkcard")
    logger.setLevel(level.upper())
    if any(isinstance(h, _JsonLinesHandler) for h in logger.handlers):
        return
    handler = _JsonLinesHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    logger.addHandler(handler)
