"""Domain errors → ``{"error": LABEL, "message": TEXT}`` HTTP responses.

Services raise ``ApiError`` subclasses (they never touch Litestar); ``exception_handlers()`` maps
them, Litestar's own HTTP errors and anything unexpected to the documented JSON error body.
"""

from __future__ import annotations

import logging
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException
from litestar.types import ExceptionHandlersMap

log = logging.getLogger("inkcard.errors")


def plural(count: float, noun: str) -> str:
    """``1 credit``, ``3 credits``, ``0.5 seconds``: a count with its noun, in messages."""
    number = f"{count:g}" if isinstance(count, float) else str(count)
    return f"{number} {noun}" + ("" if count == 1 else "s")


class ApiError(Exception):
    """An error a client sees: HTTP status, short label, human message, extra headers."""

    status: int = 400
    label: str = "bad_request"

    def __init__(
        self, message: str, *, label: str | None = None, headers: dict[str, str] | None = None
    ):
        super().__init__(message)
        self.message = message
        if label is not None:
            self.label = label
        self.headers = headers or {}


class InvalidField(ApiError):
    """A request field has the wrong type or an unaccepted value (400)."""


class InvalidJson(ApiError):
    """The body is not a JSON object (400)."""

    label = "invalid_json"


class MissingApiKey(ApiError):
    """No ``x-api-key`` header (401)."""

    status = 401
    label = "missing_api_key"


class InvalidApiKey(ApiError):
    """Unknown or revoked API key (401)."""

    status = 401
    label = "invalid_api_key"


class NotFound(ApiError):
    """Nothing is stored under the requested name (404)."""

    status = 404
    label = "not_found"


class RequestTimeout(ApiError):
    """The client took too long to send its request body (408; the connection is closed)."""

    status = 408
    label = "request_timeout"


class InsufficientCredits(ApiError):
    """The key's balance does not cover the call (402)."""

    status = 402
    label = "insufficient_credits"


class PayloadTooLarge(ApiError):
    """Body or Markdown over the limit (413)."""

    status = 413
    label = "payload_too_large"


class TooManyPages(ApiError):
    """The Markdown would make more cards than allowed (400)."""

    label = "too_many_pages"


class CardTooLarge(ApiError):
    """A card that grows with its content would exceed the pixel budget (400)."""

    label = "card_too_large"


class TooManyPixels(ApiError):
    """The cards of one request together would exceed the output pixel budget (400)."""

    label = "too_many_pixels"


class ImageTooLarge(ApiError):
    """The distinct images of one request would decode to more pixels than allowed (400)."""

    label = "image_too_large"


class RateLimited(ApiError):
    """The API key already has as many renders in flight as it may (429, ``Retry-After``)."""

    status = 429
    label = "rate_limited"


class RenderFailed(ApiError):
    """The card engine failed (500)."""

    status = 500
    label = "render_failed"


class StorageError(ApiError):
    """Writing to or reading from storage failed (502)."""

    status = 502
    label = "storage_error"


class Overloaded(ApiError):
    """The render queue is full (503, with ``Retry-After``)."""

    status = 503
    label = "overloaded"


class DatabaseBusy(ApiError):
    """The credit database stayed write-locked past the busy timeout (503, with ``Retry-After``)."""

    status = 503
    label = "busy"


class RenderTimeout(ApiError):
    """The request ran past its time limit (504)."""

    status = 504
    label = "timeout"


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
    500: "internal_error",
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
        limit = request.app.state.settings.max_body_bytes
        message = f"request body must be at most {limit} bytes"
    elif status == 400 and "JSON" in message:
        label = "invalid_json"
    return error_response(status, label, message, dict(exc.headers or {}))


def _unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return error_response(500, "internal_error", "the server failed to handle this request")


def exception_handlers() -> ExceptionHandlersMap:
    """Handlers for ``Litestar(exception_handlers=...)``."""
    return {ApiError: _api_error, HTTPException: _http_error, Exception: _unexpected}


# POST /api/platform/convert-and-draft: its own labels, and its own error envelope.


class MissingPlatformCredentials(ApiError):
    """Only one of ``Platform-Appid`` and ``Platform-App-Secret`` was sent (400)."""

    label = "missing_platform_credentials"


class InvalidImage(ApiError):
    """An image of the article (or the cover) may not be fetched or is not an image (400)."""

    label = "invalid_image"


class InvalidIdempotencyKey(ApiError):
    """The ``Idempotency-Key`` header is empty, too long or not printable ASCII (400)."""

    label = "invalid_idempotency_key"


class IdempotencyKeyInUse(ApiError):
    """A request with this ``Idempotency-Key`` is still running (409, ``Retry-After``)."""

    status = 409
    label = "idempotency_key_in_use"


class IdempotencyKeyReused(ApiError):
    """This ``Idempotency-Key`` was used for a different request (422)."""

    status = 422
    label = "idempotency_key_reused"


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
