"""The service's domain errors: each ``ApiError`` carries its HTTP status, label and message.

Services raise them without touching Litestar (so the CLI's key and credit commands load no
HTTP framework); ``app.server.responses`` turns them into the documented JSON error bodies.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

NAME_SHOWN = 40  # characters of an unknown name a message repeats; a name may be any string
NAME_COMPARED = 64  # longer names are like none of ours (and difflib's cost grows with them)


def plural(count: float, noun: str) -> str:
    """``1 card``, ``3 cards``, ``0.5 seconds``: a count with its noun, in messages."""
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


def _folded(name: str) -> str:
    """``name`` for comparing: ``split_mode``, ``Split-Mode`` and ``splitMode`` are alike."""
    return name.lower().replace("_", "").replace("-", "")


def nearest_name(name: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The name of ``known`` that ``name`` was probably meant to be: one that differs only in
    case, ``_`` and ``-``, else the closest by ``difflib`` at least ``cutoff`` alike (on the
    folded names); None when none is."""
    if len(name) > NAME_COMPARED:
        return None
    by_fold: dict[str, str] = {}
    for candidate in known:
        by_fold.setdefault(_folded(candidate), candidate)
    folded = _folded(name)
    if folded in by_fold:
        return by_fold[folded]
    close = difflib.get_close_matches(folded, list(by_fold), n=1, cutoff=cutoff)
    return by_fold[close[0]] if close else None


def shown_name(name: str) -> str:
    """``name`` as a message repeats it: printable, at most ``NAME_SHOWN`` characters."""
    cut = name[:NAME_SHOWN]
    text = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in cut)
    return text + ("…" if len(name) > NAME_SHOWN else "")


class UnknownField(InvalidField):
    """A request names a field (or an MCP argument, a front matter key) its operation does not
    read: 400, the name and the one it probably meant, never a silent default."""

    label = "unknown_field"

    @classmethod
    def naming(
        cls,
        name: str,
        known: Iterable[str],
        what: str = "field",
        hint: str | None = None,
        meant: str | None = None,
    ) -> UnknownField:
        """The error for ``name``: ``hint``, else the field ``meant`` (another name for it),
        else the nearest of ``known``, else all of them."""
        known = list(known)
        said = f"unknown {what} `{shown_name(name)}`"
        near = meant if meant in known else nearest_name(name, known)
        if hint:
            return cls(f"{said}: {hint}")
        if near is not None:
            return cls(f"{said}: did you mean `{near}`?")
        listed = ", ".join(f"`{candidate}`" for candidate in known) or "none"
        return cls(f"{said}; the {what}s read here are {listed}")


class EmptyMarkdown(InvalidField):
    """The Markdown holds nothing to draw or convert: empty, only whitespace, or only its
    front matter (400; nothing is charged)."""

    label = "empty_markdown"


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


class ClientClosedRequest(ApiError):
    """The client closed the connection before its answer was ready (499, logged, never sent:
    nobody is there to read it). Its call is not charged."""

    status = 499
    label = "client_closed_request"


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


class InvalidMdx(ApiError):
    """With ``mdxMode``, the Markdown uses an expression, import/export, an unknown
    component or nests components wrongly; the message names the line (400)."""

    label = "invalid_mdx"


class RateLimited(ApiError):
    """The API key already has as many renders in flight as it may (429, ``Retry-After``)."""

    status = 429
    label = "rate_limited"


class RenderFailed(ApiError):
    """The card engine failed (500)."""

    status = 500
    label = "render_failed"


class InternalError(ApiError):
    """Anything unexpected: logged, and answered without a trace (500)."""

    status = 500
    label = "internal_error"


class StorageError(ApiError):
    """Writing to or reading from storage failed (502)."""

    status = 502
    label = "storage_error"


class NotReady(ApiError):
    """A dependency the service needs is not usable (503, from ``GET /readyz``)."""

    status = 503
    label = "not_ready"


class NotStarted(ApiError):
    """An MCP call arrived before the service's lifespan opened its resources (503)."""

    status = 503
    label = "unavailable"


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
