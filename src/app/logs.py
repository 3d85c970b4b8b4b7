"""Log records → JSON lines carrying the current request's id; the request's ``RequestInfo``.

``RequestInfo`` is what the access log line says about one request. The HTTP middleware
(``app.server.requestlog``) opens one per request; the operations fill in the caller's key
prefix (never the key) and extras, whichever adapter (HTTP, MCP) called them.
"""

from __future__ import annotations

import contextvars
import logging
import sys
from dataclasses import dataclass, field
from typing import Any

import msgspec


@dataclass
class RequestInfo:
    """What the access log line says about one request; handlers fill in ``key`` and ``extra``."""

    request_id: str
    key: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    origin: str | None = None
    """``scheme://host[:port]`` the client reached the service at (checked), for the URLs of
    stored files in the answer; None when the request named no usable host."""


_current: contextvars.ContextVar[RequestInfo | None] = contextvars.ContextVar(
    "inkcard_request", default=None
)


def current() -> RequestInfo | None:
    """The request being handled in this context, if any."""
    return _current.get()


def enter(info: RequestInfo) -> contextvars.Token[RequestInfo | None]:
    """Make ``info`` the current request of this context until ``leave``."""
    return _current.set(info)


def leave(token: contextvars.Token[RequestInfo | None]) -> None:
    """End the request ``enter`` began."""
    _current.reset(token)


def current_origin() -> str | None:
    """Where the client of the request being handled reached the service, if known."""
    info = _current.get()
    return info.origin if info else None


def current_id() -> str | None:
    """The id of the request being handled in this context, if any."""
    info = _current.get()
    return info.request_id if info else None


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
    """Send logs to stderr as JSON lines: ``inkcard.*`` at ``level``, other libraries'
    warnings and errors (idempotent).

    The one handler sits on the root logger, where every logger's records arrive. A root
    logger with a handler is also what keeps ``logging.basicConfig`` from ever adding a plain
    one: the module functions ``logging.debug`` and friends call it, and libraries use them
    (the math typesetter's font code does, in the middle of a request), which once gave
    every access-log line a plain duplicate.
    """
    logging.getLogger("inkcard").setLevel(level.upper())
    root = logging.getLogger()
    if any(isinstance(h, _JsonLinesHandler) for h in root.handlers):
        return
    handler = _JsonLinesHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    root.addHandler(handler)
