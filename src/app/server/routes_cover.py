"""``POST /api/generate/cover``: a thin handler over ``operations.generate_cover``, with
generate's key and pricing. Its answers carry ``success`` and ``cost``, so its errors do too:
the publishing calls' envelope, ``{"success": false, "error", "message", "cost": 0}`` (a
failed call charges nothing)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from litestar import Request, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import OpenAPIMediaType, RequestBody

from inkcard import themes
from inkcard.app import logs, operations
from inkcard.app.schema import (
    ArticleErrorBody,
    CoverRequest,
    CoverResponse,
    errors,
    json_schema,
    parse_cover,
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
from inkcard.layout.covers import COVER_LAYOUTS, MAX_COVERS

PATH = "/api/generate/cover"
DESCRIPTION = f"""\
Covers drawn from a title, no Markdown and no AI: `count` (1..{MAX_COVERS}) covers, each
in another layout ({", ".join(COVER_LAYOUTS)}), in the card theme's page, type and
colours, the title as large as it fits and the keywords in the theme's accent. `text` is
required. Without `width` and `height` each is a WeChat article cover, 900 x 383 (2.35:1), the
whole title inside the centred square the platform crops at 1:1; without `theme`, apple-notes'
colours without its Notes bar (name apple-notes for the bar). Each cover is a PNG at scale 2,
stored like generate's cards. Costs what a generate
call costs, whatever `count`; a failed call nothing: its error says `"cost": 0`."""


def cover_request_schema(catalogue: themes.Catalogue) -> dict[str, Any]:
    """The body's schema as ``parse_cover`` decides it: generate's themes and modes, every
    field nullable (the default) but ``text``, which is required and never null."""
    schema = themed_request_schema(CoverRequest, catalogue)
    text = json_schema(CoverRequest)["properties"]["text"]
    text.pop("default", None)
    schema["properties"]["text"] = text
    schema["required"] = ["text"]
    return schema


@dataclass
class CoverOperation(JsonBodyOperation):
    """OpenAPI entry of the cover route; each app's subclass sets ``request_schema``."""

    request_schema: ClassVar[dict[str, Any]] = {}

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            # Litestar writes a plain dict schema as given; it is not a litestar Schema object.
            content={"application/json": OpenAPIMediaType(schema=self.request_schema)},  # type: ignore[arg-type]
            description=(
                "text is required; every other field is optional; a field not listed here is"
                " 400 unknown_field; null means the default."
            ),
            required=True,
        )


async def generate_cover(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> CoverResponse:
    """A title and keywords → cover PNGs in a card theme, stored; their URLs."""
    key = await authenticate(request, services)
    body = await parsed_body(request, parse_cover)
    async with watching_disconnect(request) as gone:
        images, cost = await operations.generate_cover(services, key, body, logs.current_id(), gone)
    info = logs.current()
    if info is not None:
        info.extra["images"] = len(images)
    return CoverResponse(success=True, images=images, cost=cost)


def cover_route(catalogue: themes.Catalogue) -> HTTPRouteHandler:
    """The cover handler, documented with the request schema of ``catalogue``."""
    operation = type(
        "CoverOperation", (CoverOperation,), {"request_schema": cover_request_schema(catalogue)}
    )
    return post(
        PATH,
        status_code=200,
        operation_class=operation,
        summary="A title to cover images",
        description=DESCRIPTION,
        security=[{API_KEY_SCHEME: []}],
        exception_handlers=article_exception_handlers(),
        responses=error_responses(ArticleErrorBody, errors.COVER, article_error_body),
    )(generate_cover)
