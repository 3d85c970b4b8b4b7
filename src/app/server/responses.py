"""``ApiError``s, Litestar's own HTTP errors and anything unexpected → the JSON error bodies.

Generate answers ``{"error": LABEL, "message": TEXT}``; convert-and-draft wraps the same in its
envelope, ``{"success": false, ..., "cost": 0}``.
"""

from __future__ import annotations

import logging
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException
from litestar.types import ExceptionHandlersMap

from inkcard.app.brands.kit import MAX_KIT_BODY_BYTES
from inkcard.app.errors import ApiError, InternalError

KIT_PATH = "/api/brands/"  # PUT takes up to MAX_KIT_BODY_BYTES

log = logging.getLogger("inkcard.errors")

_HTTP_LABELS = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    500: InternalError.label,
    503: "unavailable",
}


_MAX_ECHOED_PATH = 100


def _echo_path(path: str) -> str:
    """``path`` as a message may quote it: printable, and short however long the URL was."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in path[: _MAX_ECHOED_PATH + 1])
    if len(shown) > _MAX_ECHOED_PATH:
        return shown[:_MAX_ECHOED_PATH] + "…"
    return shown


def error_response(
    status: int, label: str, message: str, headers: dict[str, str] | None = None
) -> Response[Any]:
    """The one JSON error body every failure uses."""
    return Response(
        content={"error": label, "message": message},
        status_code=status,
        media_type=MediaType.JSON,
        headers=headers,
    )


def _api_error(_: Request[Any, Any, Any], exc: ApiError) -> Response[Any]:
    return error_response(exc.status, exc.label, exc.message, exc.headers)


def _http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    label = _HTTP_LABELS.get(status, "error")
    message = exc.detail or label.replace("_", " ")
    if status == 404:
        message = f"nothing at {_echo_path(request.url.path)}"  # never a server path
    elif status == 405:
        allowed = next((v for k, v in (exc.headers or {}).items() if k.lower() == "allow"), "")
        message = f"{request.method} is not allowed on {_echo_path(request.url.path)}"
        message += f" (allowed: {allowed})" if allowed else ""
    elif status == 413:
        limit = request.app.state.services.settings.max_body_bytes
        if request.url.path.startswith(KIT_PATH):  # a brand kit's body may be larger
            limit = max(limit, MAX_KIT_BODY_BYTES)
        message = f"request body must be at most {limit} bytes"
    elif status == 400 and "JSON" in message:
        label = "invalid_json"
    return error_response(status, label, message, dict(exc.headers or {}))


def _unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return error_response(500, InternalError.label, "the server failed to handle this request")


def exception_handlers() -> ExceptionHandlersMap:
    """Handlers for ``Litestar(exception_handlers=...)``."""
    return {ApiError: _api_error, HTTPException: _http_error, Exception: _unexpected}


def _as_article_error(response: Response[Any]) -> Response[Any]:
    """The same error in convert-and-draft's envelope: ``success`` false, ``cost`` 0."""
    body = dict(response.content)
    response.content = {"success": False, **body, "cost": 0}
    return response


def article_exception_handlers() -> ExceptionHandlersMap:
    """Route-level handlers for convert-and-draft: the shared mapping, in its envelope."""
    return {
        ApiError: lambda r, e: _as_article_error(_api_error(r, e)),
        HTTPException: lambda r, e: _as_article_error(_http_error(r, e)),
        Exception: lambda r, e: _as_article_error(_unexpected(r, e)),
    }
