"""A platform tool's WeChat account: its arguments (``platformAppid`` and ``platformAppSecret``,
or ``account`` naming an account the key stored), else the connection's → credentials; and
its retry key (``idempotencyKey``), the other header a platform tool takes as an argument.

The same decision the HTTP routes make from ``Platform-Appid``, ``Platform-App-Secret`` and
``Platform-Account`` (``app.operations.accounts.credentials_of``), with the same refusals:
both ways at once is ``conflicting_platform_credentials``, an unknown name
``account_not_found``, no ``INKCARD_ACCOUNT_KEY`` ``account_key_missing``; each names the
arguments, never a secret. Arguments, when any is given, replace the connection's account
whole: an argument's AppID never pairs with the connection's secret.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from inkcard.app.articles.wechat import Credentials, InvalidPlatformCredentials
from inkcard.app.errors import InvalidField, InvalidIdempotencyKey
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.operations.accounts import AccountNotFound, credentials_of
from inkcard.app.services import Services

ARGUMENTS = ("account", "platformAppid", "platformAppSecret")
"""What a platform tool calls the stored account, the AppID and the AppSecret."""
HOW_TO_STORE = (
    " (over MCP: store_platform_account stores one, list_platform_accounts lists the key's)"
)


class Connection(Protocol):
    """The account a connection configured (an MCP ``Caller``): its AppID and AppSecret, or a
    stored account's name, and what the connection calls each."""

    @property
    def appid(self) -> str: ...
    @property
    def secret(self) -> str: ...
    @property
    def account(self) -> str: ...
    @property
    def credential_names(self) -> tuple[str, str]: ...
    @property
    def account_name(self) -> str: ...


class SentAccount(NamedTuple):
    """The account arguments a tool call sent (None: not sent)."""

    appid: Any = None
    secret: Any = None
    account: Any = None

    def empty(self) -> bool:
        """No account argument was sent: the connection's account applies."""
        return self.appid is None and self.secret is None and self.account is None


def pop_account(arguments: dict[str, Any]) -> tuple[dict[str, Any], SentAccount]:
    """The tool's other arguments, and the account arguments taken out of them."""
    rest = dict(arguments)
    sent = SentAccount(*(rest.pop(name, None) for name in ARGUMENTS[1:] + ARGUMENTS[:1]))
    return rest, sent


async def credentials(
    services: Services, key: KeyInfo, connection: Connection, sent: SentAccount
) -> Credentials | None:
    """The call's account: the arguments', else the connection's; None when neither names one.

    Raises:
        ApiError: As ``credentials_of`` (conflicting, missing half, unknown or malformed name,
            no account key), or an argument that is not a string.
    """
    try:
        if sent.empty():
            names = (connection.account_name, *connection.credential_names)
            return await credentials_of(
                services, key, connection.appid, connection.secret, connection.account, names
            )
        return await credentials_of(
            services,
            key,
            _string(sent.appid, InvalidPlatformCredentials.label),
            _string(sent.secret, InvalidPlatformCredentials.label),
            _string(sent.account, "invalid_account"),
            ARGUMENTS,
        )
    except AccountNotFound as exc:
        raise AccountNotFound(exc.message + HOW_TO_STORE) from None


def _string(value: Any, label: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidField(
            "account, platformAppid and platformAppSecret must be strings", label=label
        )
    return value


def idempotency_key_of(arguments: dict[str, Any]) -> str | None:
    """``idempotencyKey`` taken out of ``arguments`` (None: not sent).

    Raises:
        InvalidIdempotencyKey: It is not a string (its form is checked where it is used).
    """
    idem_key = arguments.pop("idempotencyKey", None)
    if idem_key is not None and not isinstance(idem_key, str):
        raise InvalidIdempotencyKey("idempotencyKey must be a string")
    return idem_key
