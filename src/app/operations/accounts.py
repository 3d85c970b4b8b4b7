"""An API key's stored WeChat accounts → stored, listed, forgotten; and the account a platform
call names → its credentials.

Every platform call (convert-and-draft, newspic-draft, the draft box, publishing) takes the
account either as the AppID and AppSecret headers or as the name of an account the key stored
(``Platform-Account``), never both: ``credentials_of`` decides which, or refuses. A stored
secret leaves the database only opened in memory for the call (``app.ledger.accounts``).
"""

from __future__ import annotations

import asyncio
import logging

from inkcard.app.articles.wechat import Credentials
from inkcard.app.errors import ApiError, NotFound, shown_name
from inkcard.app.ledger.accounts import StoredAccount
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.operations.article import credentials_from
from inkcard.app.schema import AccountInfo, AccountListResponse, AccountRequest, AccountResponse
from inkcard.app.schema.draftbox import check_account_name
from inkcard.app.services import Services

log = logging.getLogger("inkcard.accounts")

HEADERS = ("Platform-Appid", "Platform-App-Secret")
ACCOUNT_HEADER = "Platform-Account"


class AccountNotFound(NotFound):
    """The key stored no account of the name a call gives (404)."""

    label = "account_not_found"


class ConflictingAccount(ApiError):
    """A call names a stored account and sends the AppID or AppSecret headers too (400)."""

    label = "conflicting_platform_credentials"


def _info(account: StoredAccount) -> AccountInfo:
    return AccountInfo(name=account.name, appid=account.appid, updated_at=account.updated_at)


async def store_account(
    services: Services, key: KeyInfo, name: str, body: AccountRequest
) -> AccountInfo:
    """Store (or replace) the key's account ``name``; the secret sealed, never shown again.

    Raises:
        InvalidField: The name is not an account name.
        AccountKeyMissing: The server has no ``INKCARD_ACCOUNT_KEY`` (400).
    """
    name = check_account_name(name)
    stored = await asyncio.to_thread(services.accounts.put, key.id, name, body.appid, body.secret)
    log.info("platform account %s stored for key %s (appid %s)", name, key.prefix, body.appid)
    return _info(stored)


async def list_accounts(services: Services, key: KeyInfo) -> list[AccountInfo]:
    """The key's stored accounts by name (no secrets)."""
    return [_info(account) for account in await asyncio.to_thread(services.accounts.list, key.id)]


async def delete_account(services: Services, key: KeyInfo, name: str) -> AccountInfo:
    """Forget the key's account ``name``.

    Raises:
        AccountNotFound: The key has no account of that name (404).
    """
    name = check_account_name(name)
    accounts = {account.name: account for account in await list_accounts(services, key)}
    if name not in accounts or not await asyncio.to_thread(services.accounts.delete, key.id, name):
        raise _not_found(name)
    log.info("platform account %s deleted for key %s", name, key.prefix)
    return accounts[name]


def stored_answer(stored: AccountInfo, naming: str) -> AccountResponse:
    """The answer to storing an account, over HTTP and MCP alike; `naming` says how a call
    names it through that door (a header, a tool argument)."""
    message = f"account `{stored.name}` (AppID {stored.appid}) stored; name it in {naming}"
    return AccountResponse(success=True, message=message, data=stored)


def listed_answer(found: list[AccountInfo]) -> AccountListResponse:
    """The answer listing the key's accounts (no secrets)."""
    return AccountListResponse(success=True, message=f"{len(found)} stored account(s)", data=found)


def deleted_answer(gone: AccountInfo) -> AccountResponse:
    """The answer to forgetting an account."""
    return AccountResponse(success=True, message=f"account `{gone.name}` deleted", data=gone)


def _not_found(name: str) -> AccountNotFound:
    return AccountNotFound(
        f"this API key has no stored account `{shown_name(name)}`: store it with"
        " PUT /api/platform/accounts/{name} (appid, secret); GET /api/platform/accounts lists"
        " the key's accounts"
    )


async def credentials_of(
    services: Services,
    key: KeyInfo,
    appid: str,
    secret: str,
    account: str,
    names: tuple[str, str, str] = (ACCOUNT_HEADER, *HEADERS),
) -> Credentials | None:
    """The account a platform call names: the AppID and AppSecret headers (both or neither),
    or the stored account ``account``; None when it names none. ``names`` are what the
    caller calls the account, the AppID and the AppSecret in refusals (an MCP tool: its
    arguments).

    Raises:
        ConflictingAccount: ``account`` and a header both given (400).
        MissingPlatformCredentials: Only one of the two headers (400).
        InvalidField: ``account`` is not an account name (400).
        AccountNotFound: The key stored no such account (404).
        AccountKeyMissing: The server has no key to open it (400).
    """
    account = account.strip()
    if not account:
        return credentials_from(appid, secret, names[1:])
    if appid.strip() or secret.strip():
        raise ConflictingAccount(
            f"send either {names[0]} (a stored account) or {names[1]} and {names[2]}, not both"
        )
    name = check_account_name(account)
    found = await asyncio.to_thread(services.accounts.credentials, key.id, name)
    if found is None:
        raise _not_found(name)
    return Credentials(*found)
