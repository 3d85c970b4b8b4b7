"""``POST /api/platform/xhs-note``: a thin handler over ``operations.create_xhs_note``, with
generate's key and price. Its answers carry ``success`` and ``cost``, so its errors do too:
the publishing calls' envelope, ``{"success": false, "error", "message", "cost": 0}`` (a
failed call charges nothing)."""

from __future__ import annotations

from typing import Any

from litestar import Request, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler

from inkcard import themes
from inkcard.app import logs, operations
from inkcard.app.prices import Prices, credits
from inkcard.app.schema import (
    ArticleErrorBody,
    XhsNoteRequest,
    XhsNoteResponse,
    errors,
    parse_xhs_note,
)
from inkcard.app.server.disconnect import watching_disconnect
from inkcard.app.server.openapi import (
    API_KEY_SCHEME,
    JsonBodyOperation,
    article_error_body,
    error_responses,
    themed_request_schema,
)
from inkcard.app.server.responses import article_exception_handlers
from inkcard.app.server.routes_cards import authenticate, parsed_body
from inkcard.app.services import Services

PATH = "/api/platform/xhs-note"


def description(prices: Prices) -> str:
    """What the route does and costs (the price list in force)."""
    cost = credits(prices.xhs_note) if prices.xhs_note else "nothing on this server"
    return f"""\
A Xiaohongshu (小红书) note in one call: the generate fields (autoSplit by default, so every
card is 3:4 at the default 440 x 586) plus the note's `title` and `tags`. Answers the cards
(`images`, exactly what generate draws for the same fields), a `cover` card (the title in the
cards' theme and size), the `note` (`title`, plain-text `body`, `tags`: each from the field,
else the front matter, else the first heading and the post's #话题 hashtags), `warnings` for
each Xiaohongshu limit exceeded (title over 20 characters, body over 1,000, over 10 tags,
over 18 images with the cover; counted a grapheme a character) and `copy`, the text to paste.
Nothing is posted: the app posts. Costs what a generate call costs ({cost}); a failed call
nothing: its error says `"cost": 0`."""


async def create_xhs_note(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> XhsNoteResponse:
    """Markdown → a Xiaohongshu note: its cards, a cover, its text and its limit warnings."""
    key = await authenticate(request, services)
    body = await parsed_body(request, parse_xhs_note)
    async with watching_disconnect(request) as gone:
        answer = await operations.create_xhs_note(services, key, body, logs.current_id(), gone)
    info = logs.current()
    if info is not None:
        info.extra["images"] = len(answer.images) + 1
    return answer


def xhs_note_route(catalogue: themes.Catalogue, prices: Prices) -> HTTPRouteHandler:
    """The xhs-note handler, documented with the request schema of ``catalogue``."""
    operation = type(
        "XhsNoteOperation",
        (JsonBodyOperation,),
        {"request_schema": themed_request_schema(XhsNoteRequest, catalogue)},
    )
    return post(
        PATH,
        status_code=200,
        operation_class=operation,
        summary="Markdown to a Xiaohongshu note",
        description=description(prices),
        security=[{API_KEY_SCHEME: []}],
        exception_handlers=article_exception_handlers(),
        responses=error_responses(ArticleErrorBody, errors.XHS_NOTE, article_error_body),
    )(create_xhs_note)
