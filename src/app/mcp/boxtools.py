"""The draft box's, publishing's and the stored accounts' MCP tools → the operations their HTTP
routes call (``app.operations.draftbox``, ``app.operations.accounts``), never a second
implementation: the same checks, prices, refusals and answers.

Each runner gets the authenticated key and the tool's arguments (already checked against the
tool's names) and returns the answer its HTTP route sends. The arguments are read as the
routes read theirs: ``offset`` and ``count`` by ``page_bounds``, ids by the operations'
``check_id``, the publish and account bodies by ``parse_publish`` and ``parse_account``. The
account comes from ``app.mcp.account``; a secret is only ever passed on, never answered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import msgspec

from inkcard.app.articles.wechat import Credentials
from inkcard.app.errors import InvalidField, MissingPlatformCredentials
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.mcp.account import Connection, credentials, idempotency_key_of, pop_account
from inkcard.app.operations import accounts, draftbox
from inkcard.app.schema.draftbox import parse_account, parse_publish
from inkcard.app.services import Services


class BoxCaller(Connection, Protocol):
    """Who calls (an MCP ``Caller``): the connection's account, and the call's hang-up."""

    @property
    def gone(self) -> asyncio.Event | None: ...


Run = Callable[[Services, KeyInfo, BoxCaller, dict[str, Any], str], Awaitable[Any]]


async def _account(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any]
) -> Credentials:
    """The tool's account; the draft box needs one."""
    _, sent = pop_account(arguments)
    creds = await credentials(services, key, caller, sent)
    if creds is None:
        raise MissingPlatformCredentials(
            "the draft box is the account's: send platformAppid and platformAppSecret, or"
            " account naming a stored account, or configure one on the connection"
        )
    return creds


def _number(arguments: dict[str, Any], name: str) -> str | None:
    """A page bound as ``page_bounds`` reads it from the query (None: not sent)."""
    value = arguments.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        return "-"  # not a whole number: page_bounds refuses it with its own words
    return str(value)


_MEDIA_ID = "invalid_mediaid"  # draftbox.check_id's label for a mediaId


def _text(arguments: dict[str, Any], name: str, label: str) -> str:
    """A string argument (an id, a name) for the operation's own check; "" when not sent,
    which that check refuses."""
    value = arguments.get(name, "")
    if not isinstance(value, str):
        raise InvalidField(f"{name} must be a string", label=label)
    return value


async def list_drafts(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any], _: str
) -> Any:
    """``list_drafts``: a page of the draft box (free)."""
    creds = await _account(services, key, caller, arguments)
    offset, count = draftbox.page_bounds(_number(arguments, "offset"), _number(arguments, "count"))
    return await draftbox.list_drafts(services, creds, offset, count)


async def get_draft(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any], _: str
) -> Any:
    """``get_draft``: one draft with its HTML (free)."""
    creds = await _account(services, key, caller, arguments)
    return await draftbox.get_draft(services, creds, _text(arguments, "mediaId", _MEDIA_ID))


async def delete_draft(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any], _: str
) -> Any:
    """``delete_draft``: one draft gone (free)."""
    creds = await _account(services, key, caller, arguments)
    return await draftbox.delete_draft(services, creds, _text(arguments, "mediaId", _MEDIA_ID))


async def publish_draft(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any], call_id: str
) -> Any:
    """``publish_draft``: the draft submitted, at a draft's price, answered as the route."""
    rest, sent = pop_account(arguments)
    idem_key = idempotency_key_of(rest)
    body = await asyncio.to_thread(parse_publish, msgspec.json.encode(rest))
    creds = await credentials(services, key, caller, sent)
    if creds is None:
        raise MissingPlatformCredentials(
            "publishing is the account's: send platformAppid and platformAppSecret, or account"
            " naming a stored account, or configure one on the connection"
        )
    answer = await draftbox.publish_draft(
        services, key, body, creds, idem_key, call_id, caller.gone
    )
    return msgspec.json.decode(answer.body)


async def get_publish_status(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any], _: str
) -> Any:
    """``get_publish_status``: where a publish job is (free)."""
    creds = await _account(services, key, caller, arguments)
    publish_id = _text(arguments, "publishId", "invalid_publishid")
    return await draftbox.publish_status(services, creds, publish_id)


async def store_account(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any], _: str
) -> Any:
    """``store_platform_account``: stored, answered without the secret (free)."""
    rest = dict(arguments)
    name = _text(rest, "name", "invalid_account")
    rest.pop("name", None)
    body = await asyncio.to_thread(parse_account, msgspec.json.encode(rest))
    stored = await accounts.store_account(services, key, name, body)
    naming = "the account argument of any platform tool (or the Platform-Account header over HTTP)"
    return accounts.stored_answer(stored, naming)


async def list_accounts(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any], _: str
) -> Any:
    """``list_platform_accounts``: names and AppIDs, never a secret (free)."""
    found = await accounts.list_accounts(services, key)
    return accounts.listed_answer(found)


async def delete_account(
    services: Services, key: KeyInfo, caller: BoxCaller, arguments: dict[str, Any], _: str
) -> Any:
    """``delete_platform_account``: forgotten (free)."""
    gone = await accounts.delete_account(services, key, _text(arguments, "name", "invalid_account"))
    return accounts.deleted_answer(gone)


RUNS: dict[str, Run] = {
    "list_drafts": list_drafts,
    "get_draft": get_draft,
    "delete_draft": delete_draft,
    "publish_draft": publish_draft,
    "get_publish_status": get_publish_status,
    "store_platform_account": store_account,
    "list_platform_accounts": list_accounts,
    "delete_platform_account": delete_account,
}
"""Each tool of ``app.mcp.boxlisting`` and what runs it."""
