"""The key's stored WeChat accounts over HTTP: ``PUT``/``DELETE /api/platform/accounts/{name}``
and ``GET /api/platform/accounts``. A secret goes in once and never comes out: answers and log
lines name the account and its AppID only."""

from __future__ import annotations

from typing import Any

from litestar import Request, delete, get, put
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath

from inkcard.app.operations import accounts
from inkcard.app.schema import (
    AccountListResponse,
    AccountRequest,
    AccountResponse,
    ArticleErrorBody,
    platformerrors,
    request_schema,
)
from inkcard.app.schema.draftbox import parse_account
from inkcard.app.server.openapi import (
    API_KEY_SCHEME,
    JsonBodyOperation,
    article_error_body,
    error_responses,
)
from inkcard.app.server.platform.drafts import options_of
from inkcard.app.server.responses import article_exception_handlers
from inkcard.app.server.routes_cards import authenticate, parsed_body
from inkcard.app.services import Services

PATH = "/api/platform/accounts"


async def store_account(
    request: Request[Any, Any, Any], services: NamedDependency[Services], name: FromPath[str]
) -> AccountResponse:
    """Store or replace the key's account ``name``."""
    key = await authenticate(request, services)
    body = await parsed_body(request, parse_account)
    stored = await accounts.store_account(services, key, name, body)
    return accounts.stored_answer(stored, "the Platform-Account header of any platform call")


async def list_accounts(
    request: Request[Any, Any, Any], services: NamedDependency[Services]
) -> AccountListResponse:
    """The key's accounts, without secrets."""
    key = await authenticate(request, services)
    found = await accounts.list_accounts(services, key)
    return accounts.listed_answer(found)


async def delete_account(
    request: Request[Any, Any, Any], services: NamedDependency[Services], name: FromPath[str]
) -> AccountResponse:
    """Forget the key's account ``name``."""
    key = await authenticate(request, services)
    gone = await accounts.delete_account(services, key, name)
    return accounts.deleted_answer(gone)


class AccountOperation(JsonBodyOperation):
    """OpenAPI entry of PUT: the body is decoded by ``parse_account``."""

    request_schema = request_schema(AccountRequest, (), ("appid", "secret"))


def account_routes() -> list[HTTPRouteHandler]:
    """The stored accounts' routes."""
    common: dict[str, Any] = {
        "security": [{API_KEY_SCHEME: []}],
        "exception_handlers": article_exception_handlers(),
        "responses": error_responses(ArticleErrorBody, platformerrors.ACCOUNTS, article_error_body),
    }
    return [
        options_of(PATH + "/{name:str}", "DELETE, PUT"),
        put(
            PATH + "/{name:str}",
            status_code=200,
            operation_class=AccountOperation,
            summary="Store a WeChat account under a name",
            description="`appid` and `secret`; the secret is encrypted with the server's"
            " `INKCARD_ACCOUNT_KEY` (without it: 400 `account_key_missing`) and never shown or"
            " logged. Then any platform call may send `Platform-Account: <name>` instead of"
            " `Platform-Appid` and `Platform-App-Secret`. Free.",
            **common,
        )(store_account),
        get(
            PATH,
            summary="The key's stored accounts (names and AppIDs)",
            description="Never a secret. Free.",
            **common,
        )(list_accounts),
        delete(
            PATH + "/{name:str}",
            status_code=200,
            summary="Forget a stored account",
            description="404 `account_not_found` when the key has none of that name. Free.",
            **common,
        )(delete_account),
    ]
