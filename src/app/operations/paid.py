"""The skeleton every paid platform call shares (convert-and-draft, newspic-draft).

Claim the retry key (a replay returns at once), count the call against the key's limit, hold
the call's cost after checking the key has ``MIN_BALANCE`` credits (a check, not a hold: the
ledger shows one debit of the real cost), run the work (stopped if the client leaves), commit
with the answer recorded in the same transaction; any failure releases the hold and the claim.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, TypeVar

import msgspec

from app.articles.service import MIN_BALANCE
from app.articles.wechat import Credentials, PlatformError
from app.ledger.charge import charged
from app.ledger.credits import KeyInfo
from app.ledger.idempotency import Replay, fingerprint
from app.metrics import Metrics
from app.operations import retries
from app.operations.disconnect import unless_gone
from app.services import Services

T = TypeVar("T")


class ArticleAnswer(NamedTuple):
    """A paid platform call's answer: its JSON body and status, and what it cost.

    ``replayed``: the stored answer to an earlier request with the same Idempotency-Key,
    charged then, not now (``cost`` is 0).
    """

    body: bytes
    status: int = 200
    cost: int = 0
    replayed: bool = False


class PaidCall(NamedTuple):
    """Who asks, for what, and how the ledger names it."""

    key: KeyInfo
    operation: str  # in the ledger and the metrics
    print_: str  # the request's fingerprint: what decides its answer
    idem_key: str | None
    request_id: str | None
    refusal: Callable[[int], str]  # the 402 message for a balance
    kept: Callable[[Any], bytes] | None = None
    """The answer as its retry claim keeps it (None: its JSON as sent)."""
    replayed: Callable[[bytes], Awaitable[bytes]] | None = None
    """A kept answer as this request answers it (None: as it was kept)."""


def request_fingerprint(body: msgspec.Struct, creds: Credentials | None) -> str:
    """What decides the answer: the normalised body and the account (its secret hashed)."""
    account = b"" if creds is None else creds.appid.encode()
    secret = b"" if creds is None else hashlib.sha256(creds.secret.encode()).digest()
    return fingerprint(msgspec.json.encode(body), account, secret)


async def run_paid(
    services: Services,
    call: PaidCall,
    work: Callable[[], Awaitable[T]],
    cost: int,
    gone: asyncio.Event | None = None,
) -> ArticleAnswer:
    """``work()``'s answer, charged ``cost`` once; a retry gets it again, charged nothing."""
    held = await retries.claim(
        services.idempotency,
        call.key.id,
        call.operation,
        call.print_,
        call.idem_key,
        wait=services.settings.article_timeout,
        gone=gone,
    )
    if isinstance(held, Replay):
        body = held.body if call.replayed is None else await call.replayed(held.body)
        return ArticleAnswer(body, held.status, replayed=True)
    try:
        # after the claim: a replay is never limited
        await asyncio.to_thread(services.limits.admit, call.key.id)
        async with charged(
            services.credits,
            services.metrics,
            call.key,
            operation=call.operation,
            hold=cost,
            request_id=call.request_id,
            minimum=MIN_BALANCE,
            refusal=call.refusal,
        ) as charge:
            answer = await unless_gone(gone, counted(services.metrics, work()))
            encoded = msgspec.json.encode(answer)
            kept = encoded if call.kept is None else call.kept(answer)
            charge.also = await held.recorder(kept)
    except BaseException:
        await held.forget()
        raise
    return ArticleAnswer(encoded, cost=charge.cost)


async def counted(metrics: Metrics, work: Awaitable[T]) -> T:
    """``work``'s answer, with a platform failure counted by its label."""
    try:
        return await work
    except PlatformError as exc:
        metrics.platform_errors.labels(exc.label).inc()
        raise
