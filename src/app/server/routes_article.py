"""``POST /api/platform/convert-and-draft``: a thin handler over ``operations.convert_article``.

Errors use this operation's own envelope ``{"success": false, "error", "message", "cost": 0}``
(route-level exception handlers).
"""

from __future__ import annotations

from typing import Any

from litestar import MediaType, Request, Response, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler

from inkcard.app import logs, operations
from inkcard.app.articles.wechat import Credentials
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.ledger.idempotency import HEADER as IDEMPOTENCY_HEADER
from inkcard.app.operations.accounts import credentials_of
from inkcard.app.prices import Prices, credits
from inkcard.app.schema import (
    ArticleErrorBody,
    DraftPreviewResponse,
    DraftResponse,
    HtmlResponse,
    errors,
    parse_article,
)
from inkcard.app.server.disconnect import watching_disconnect
from inkcard.app.server.openapi import (
    API_KEY_SCHEME,
    ArticleOperation,
    article_error_body,
    error_responses,
)
from inkcard.app.server.responses import article_exception_handlers
from inkcard.app.server.routes_cards import authenticate, parsed_body
from inkcard.app.services import Services

PATH = "/api/platform/convert-and-draft"
APPID_HEADER = "platform-appid"
SECRET_HEADER = "platform-app-secret"
ACCOUNT_HEADER = "platform-account"
REPLAYED_HEADER = "Idempotent-Replayed"


def description(prices: Prices) -> str:
    """The operation's OpenAPI description, its prices read from ``prices``."""
    return f"""\
Markdown to WeChat article HTML with inline CSS ({credits(prices.html)}) or, with the headers
`Platform-Appid` and `Platform-App-Secret` (both or neither), or `Platform-Account` naming an
account the key stored, a draft in the account's draft box ({credits(prices.draft)}). A balance
under {prices.publishing_minimum} is refused (402) before any work; a failed call costs 0.
An optional `Idempotency-Key` header (1-255 printable ASCII characters, per API key) makes a
retry return the first answer (with `Idempotent-Replayed: true`) and charge once; the same
key with another request is 422 `idempotency_key_reused`, and while the first is still running
409 `idempotency_key_in_use`. Answers are kept for 24 hours (`INKCARD_IDEMPOTENCY_HOURS`).
Without the header, an identical request within 10 minutes is such a retry (replayed, free),
and a client that disconnects before its answer is ready is not charged. With `dryRun: true`
the draft's whole conversion and checks run, no platform is called (no headers needed) and the
answer is what the draft would hold: {credits(prices.dry_run)}. Answers carry `warnings` \
(code, message)."""


def platform_credentials(request: Request[Any, Any, Any]) -> Credentials | None:
    """Both platform headers → credentials; neither → None (HTML only).

    Raises:
        MissingPlatformCredentials: Only one of them (the secret is never echoed).
    """
    return operations.credentials_from(
        request.headers.get(APPID_HEADER, ""),
        request.headers.get(SECRET_HEADER, ""),
        ("Platform-Appid", "Platform-App-Secret"),
    )


async def platform_account(
    request: Request[Any, Any, Any], services: Services, key: KeyInfo
) -> Credentials | None:
    """The account the call names: both platform headers, or a stored account's name
    (``Platform-Account``); None when neither (app.operations.accounts)."""
    return await credentials_of(
        services,
        key,
        request.headers.get(APPID_HEADER, ""),
        request.headers.get(SECRET_HEADER, ""),
        request.headers.get(ACCOUNT_HEADER, ""),
    )


async def convert_and_draft(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> Response[HtmlResponse | DraftResponse | DraftPreviewResponse]:
    """Markdown → article HTML, or with platform credentials → a draft; each at its price."""
    key = await authenticate(request, services)
    body = await parsed_body(request, parse_article)
    creds = await platform_account(request, services, key)
    async with watching_disconnect(request) as gone:
        answer = await operations.convert_article(
            services,
            key,
            body,
            creds,
            request.headers.get(IDEMPOTENCY_HEADER),
            logs.current_id(),
            gone,
        )
    return paid_response(answer)


def paid_response(answer: operations.ArticleAnswer) -> Response[Any]:
    """A paid platform operation's answer as sent: its cost in the request's log line
    (not for a replay, which costs nothing), a replay marked. The encoded bytes are what an
    Idempotency-Key replay sends too."""
    info = logs.current()
    if info is not None and not answer.replayed:
        info.extra["cost"] = answer.cost
    return Response(
        answer.body,  # JSON bytes, sent as they are
        status_code=answer.status,
        media_type=MediaType.JSON,
        headers={REPLAYED_HEADER: "true"} if answer.replayed else None,
    )


def convert_and_draft_route(prices: Prices) -> HTTPRouteHandler:
    """The handler with its own error envelope and OpenAPI entry (which names ``prices``)."""
    return post(
        PATH,
        status_code=200,
        operation_class=ArticleOperation,
        summary="Markdown to WeChat article HTML, or a draft in the account's draft box",
        description=description(prices),
        security=[{API_KEY_SCHEME: []}],
        exception_handlers=article_exception_handlers(),
        responses=error_responses(ArticleErrorBody, errors.ARTICLE, article_error_body),
    )(convert_and_draft)
