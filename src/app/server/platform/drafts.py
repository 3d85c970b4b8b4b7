"""The draft box and publishing over HTTP: the account from the platform headers or a stored
account's name, then ``app.operations.draftbox``. Reads and deletes are free; a publish is paid
like a draft and answered as convert-and-draft answers (replays, ``Idempotent-Replayed``)."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, delete, get, post, route
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath

from inkcard.app import logs
from inkcard.app.articles.wechat import Credentials
from inkcard.app.errors import MissingPlatformCredentials
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.ledger.idempotency import HEADER as IDEMPOTENCY_HEADER
from inkcard.app.operations import draftbox
from inkcard.app.prices import Prices, credits
from inkcard.app.schema import (
    ArticleErrorBody,
    DraftDeleteResponse,
    DraftGetResponse,
    DraftListResponse,
    PublishRequest,
    PublishResponse,
    PublishStatusResponse,
    platformerrors,
    request_schema,
)
from inkcard.app.schema.draftbox import PAGE_LIMIT, parse_publish
from inkcard.app.server.disconnect import watching_disconnect
from inkcard.app.server.openapi import (
    API_KEY_SCHEME,
    JsonBodyOperation,
    article_error_body,
    error_responses,
)
from inkcard.app.server.responses import article_exception_handlers
from inkcard.app.server.routes_article import paid_response, platform_account
from inkcard.app.server.routes_cards import authenticate, parsed_body
from inkcard.app.services import Services

DRAFTS = "/api/platform/drafts"
PUBLISH = "/api/platform/publish"
_ACCOUNT = (
    "The account: `Platform-Appid` and `Platform-App-Secret`, or `Platform-Account` naming an"
    " account the key stored (PUT /api/platform/accounts/{name})."
)


async def _account(request: Request[Any, Any, Any], services: Services) -> Credentials:
    """The key's account for this call; one is required."""
    key = await authenticate(request, services)
    return await _required(request, services, key)


async def _required(
    request: Request[Any, Any, Any], services: Services, key: KeyInfo
) -> Credentials:
    creds = await platform_account(request, services, key)
    if creds is None:
        raise MissingPlatformCredentials(
            "the draft box is the account's: send Platform-Appid and Platform-App-Secret, or"
            " Platform-Account naming a stored account"
        )
    return creds


async def list_drafts(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> DraftListResponse:
    """A page of the account's drafts."""
    creds = await _account(request, services)
    offset, count = draftbox.page_bounds(
        request.query_params.get("offset"), request.query_params.get("count")
    )
    return await draftbox.list_drafts(services, creds, offset, count)


async def read_draft(
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    mediaId: FromPath[str],  # noqa: N803 -- the documented path name
) -> DraftGetResponse:
    """One draft with its HTML."""
    creds = await _account(request, services)
    return await draftbox.get_draft(services, creds, mediaId)


async def delete_draft(
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    mediaId: FromPath[str],  # noqa: N803 -- the documented path name
) -> DraftDeleteResponse:
    """Delete one draft."""
    creds = await _account(request, services)
    return await draftbox.delete_draft(services, creds, mediaId)


async def publish(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> Response[PublishResponse]:
    """Publish a draft, at a draft's price."""
    key = await authenticate(request, services)
    body = await parsed_body(request, parse_publish)
    creds = await _required(request, services, key)
    async with watching_disconnect(request) as gone:
        answer = await draftbox.publish_draft(
            services,
            key,
            body,
            creds,
            request.headers.get(IDEMPOTENCY_HEADER),
            logs.current_id(),
            gone,
        )
    return paid_response(answer)


async def publish_status(
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    publishId: FromPath[str],  # noqa: N803 -- the documented path name
) -> PublishStatusResponse:
    """Where a publish job is."""
    creds = await _account(request, services)
    return await draftbox.publish_status(services, creds, publishId)


def options_of(path: str, methods: str) -> HTTPRouteHandler:
    """``OPTIONS`` of a path two handlers share, answering every method: Litestar (2.25) builds
    its own from the first handler registered only, and its ``Allow`` then lacks the other.
    Registered before them, it is the path's one OPTIONS handler."""

    async def options() -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": f"{methods}, OPTIONS"})

    return route(path, http_method="OPTIONS", include_in_schema=False)(options)


class PublishOperation(JsonBodyOperation):
    """OpenAPI entry of publish: the body is decoded by ``parse_publish``."""

    request_schema = request_schema(PublishRequest, (), ("draftMediaId",))


def draft_box_routes(prices: Prices) -> list[HTTPRouteHandler]:
    """The draft box's routes and publishing's, documented with ``prices``."""
    common: dict[str, Any] = {
        "security": [{API_KEY_SCHEME: []}],
        "exception_handlers": article_exception_handlers(),
        "responses": error_responses(
            ArticleErrorBody, platformerrors.DRAFT_BOX, article_error_body
        ),
    }
    free = f"Free ({credits(prices.draft_box)}). {_ACCOUNT}"
    return [
        options_of(DRAFTS + "/{mediaId:str}", "DELETE, GET"),
        get(
            DRAFTS,
            summary="A page of the account's draft box, newest first",
            description=f"Query `offset` (from 0) and `count` (1-{PAGE_LIMIT}, default"
            f" {PAGE_LIMIT}): the platform's draft/batchget, without the HTML. {free}",
            **common,
        )(list_drafts),
        get(
            DRAFTS + "/{mediaId:str}",
            summary="One draft of the account, with its HTML",
            description=f"The platform's draft/get. {free}",
            **common,
        )(read_draft),
        delete(
            DRAFTS + "/{mediaId:str}",
            status_code=200,
            summary="Delete one draft of the account",
            description=f"The platform's draft/delete; 404 when it has no such draft. {free}",
            **common,
        )(delete_draft),
        post(
            PUBLISH,
            status_code=200,
            operation_class=PublishOperation,
            summary="Publish a draft of the account",
            description=f"The platform's freepublish/submit: the draft leaves the draft box and"
            f" publishing runs on; ask `GET {PUBLISH}/{{publishId}}` for its state. Verified"
            " accounts only: the platform refuses others (48001: 403"
            " `platform_api_unauthorized`, the message says what to do). Costs"
            f" {credits(prices.publish)} (a balance of {prices.publishing_minimum} needed), a"
            " failed call 0; `Idempotency-Key` and replays as convert-and-draft. " + _ACCOUNT,
            security=[{API_KEY_SCHEME: []}],
            exception_handlers=article_exception_handlers(),
            responses=error_responses(ArticleErrorBody, platformerrors.PUBLISH, article_error_body),
        )(publish),
        get(
            PUBLISH + "/{publishId:str}",
            summary="Where a publish job is, in plain words",
            description="The platform's freepublish/get: `status` published, publishing,"
            " original_check_failed, failed, rejected, deleted or banned, the public links once"
            f" published. {free}",
            **common,
        )(publish_status),
    ]
