"""``POST /api/platform/newspic-draft``: a thin handler over ``operations.create_newspic``,
with convert-and-draft's headers, error envelope and replay header."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler

from inkcard import themes
from inkcard.app import logs, operations
from inkcard.app.errors import MissingPlatformCredentials
from inkcard.app.ledger.idempotency import HEADER as IDEMPOTENCY_HEADER
from inkcard.app.prices import Prices, credits
from inkcard.app.schema import (
    NEWSPIC_IMAGE_LIMIT,
    ArticleErrorBody,
    NewspicPreviewResponse,
    NewspicRequest,
    NewspicResponse,
    errors,
    parse_newspic,
    request_schema,
)
from inkcard.app.server.disconnect import watching_disconnect
from inkcard.app.server.openapi import (
    API_KEY_SCHEME,
    NewspicOperation,
    article_error_body,
    error_responses,
)
from inkcard.app.server.responses import article_exception_handlers
from inkcard.app.server.routes_article import paid_response, platform_account
from inkcard.app.server.routes_cards import authenticate, parsed_body
from inkcard.app.services import Services

PATH = "/api/platform/newspic-draft"


def description(prices: Prices) -> str:
    """The operation's OpenAPI description, its prices read from ``prices``."""
    return f"""\
Markdown drawn as cards (the generate body; splitMode autoSplit unless given) and posted as a
WeChat image post (小绿书, newspic) in the account's draft box: each card uploaded as a
permanent image in order, the first the cover, at most {NEWSPIC_IMAGE_LIMIT} (more: 400
`too_many_cards`, nothing uploaded). Needs `Platform-Appid` and `Platform-App-Secret` (or
`Platform-Account`, a stored account); costs
{credits(prices.newspic)}, a failed call 0; `Idempotency-Key`, replays and errors as \
convert-and-draft. With
`dryRun: true` the cards are drawn and stored (their URLs answered, as generate's) and checked,
no platform is called and no account needed: {credits(prices.dry_run)}. Answers carry \
`warnings`."""


async def newspic_draft(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> Response[NewspicResponse | NewspicPreviewResponse]:
    """Markdown → cards → an image-post draft, at its price."""
    key = await authenticate(request, services)
    body = await parsed_body(request, parse_newspic)
    creds = await platform_account(request, services, key)
    if creds is None and not body.dryRun:
        raise MissingPlatformCredentials(
            "an image post needs the account: send Platform-Appid and Platform-App-Secret,"
            " or Platform-Account naming a stored account"
        )
    async with watching_disconnect(request) as gone:
        answer = await operations.create_newspic(
            services,
            key,
            body,
            creds,
            request.headers.get(IDEMPOTENCY_HEADER),
            logs.current_id(),
            gone,
        )
    return paid_response(answer)


def newspic_draft_route(catalogue: themes.Catalogue, prices: Prices) -> HTTPRouteHandler:
    """The handler with convert-and-draft's error envelope and its own OpenAPI entry."""
    operation = type(
        "NewspicOperation",
        (NewspicOperation,),
        {"request_schema": request_schema(NewspicRequest, catalogue.accepted_names())},
    )
    return post(
        PATH,
        status_code=200,
        operation_class=operation,
        summary="Markdown to cards, posted as a WeChat image post (newspic) draft",
        description=description(prices),
        security=[{API_KEY_SCHEME: []}],
        exception_handlers=article_exception_handlers(),
        responses=error_responses(ArticleErrorBody, errors.NEWSPIC, article_error_body),
    )(newspic_draft)
