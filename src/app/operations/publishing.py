"""A publishing call (convert-and-draft, newspic-draft) → its JSON answer, paid on the one path.

What the platform calls share on top of ``app.operations.paid``: the retry key is claimed even
for a free call (a retry must never make a second draft), its fingerprint holds the account
(the secret hashed), the key must have the publishing minimum balance, a retry waits up to
the article deadline, and the answer is sent as the JSON bytes its claim keeps (a replay as it
was kept, or as the operation rebuilds it for this request).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import NamedTuple

import msgspec

from inkcard.app.articles.wechat import Credentials
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.ledger.idempotency import Replay, fingerprint
from inkcard.app.operations.paid import PaidCall, pay
from inkcard.app.prices import Prices, credits
from inkcard.app.services import Services


class ArticleAnswer(NamedTuple):
    """A paid platform call's answer: its JSON body and status, and what it cost.

    ``replayed``: the stored answer to an earlier request with the same Idempotency-Key,
    charged then, not now (``cost`` is 0).
    """

    body: bytes
    status: int = 200
    cost: int = 0
    replayed: bool = False


class PlatformCall(NamedTuple):
    """Who asks a publishing operation for what, and how the ledger names it."""

    key: KeyInfo
    operation: str  # in the ledger and the metrics
    print_: str  # the request's fingerprint: what decides its answer
    idem_key: str | None
    request_id: str | None
    refusal: Callable[[int], str]  # the 402 message for a balance
    kept: Callable[[msgspec.Struct], bytes] | None = None
    """The answer as its retry claim keeps it (None: its JSON as sent)."""
    replayed: Callable[[bytes], Awaitable[bytes]] | None = None
    """A kept answer as this request answers it (None: as it was kept)."""


def short_of_minimum(operation: str, priced: str, prices: Prices) -> Callable[[int], str]:
    """The 402 message of the publishing `operation` for a key's balance: the minimum every
    publishing call needs, and what this one costs (`priced`)."""

    def message(balance: int) -> str:
        return (
            f"{operation} needs a balance of at least {credits(prices.publishing_minimum)}"
            f" ({priced}); the key's balance is {balance}"
        )

    return message


def request_fingerprint(body: msgspec.Struct, creds: Credentials | None) -> str:
    """What decides the answer: the normalised body and the account (its secret hashed)."""
    account = b"" if creds is None else creds.appid.encode()
    secret = b"" if creds is None else hashlib.sha256(creds.secret.encode()).digest()
    return fingerprint(msgspec.json.encode(body), account, secret)


class _Encoded(NamedTuple):
    body: bytes  # the answer's JSON, as sent
    kept: bytes  # what the retry claim keeps


async def pay_platform(
    services: Services,
    call: PlatformCall,
    work: Callable[[], Awaitable[msgspec.Struct]],
    price: int,
    gone: asyncio.Event | None = None,
) -> ArticleAnswer:
    """``work()``'s answer, charged ``price`` once; a retry gets it again, charged nothing."""

    async def run() -> _Encoded:
        answer = await work()
        body = msgspec.json.encode(answer)
        return _Encoded(body, body if call.kept is None else call.kept(answer))

    paid = await pay(
        services,
        PaidCall(
            call.key,
            call.operation,
            price,
            call.print_,
            run,
            keep=lambda encoded: encoded.kept,
            wait=services.settings.article_timeout,
            idem_key=call.idem_key,
            request_id=call.request_id,
            minimum=services.settings.prices.publishing_minimum,
            refusal=call.refusal,
            claim_when_free=True,
        ),
        gone,
    )
    if isinstance(paid, Replay):
        body = paid.body if call.replayed is None else await call.replayed(paid.body)
        return ArticleAnswer(body, paid.status, replayed=True)
    return ArticleAnswer(paid.answer.body, cost=paid.cost)
