"""An ``ArticleRequest`` of an authenticated key → article HTML or a WeChat draft, charged.

Credits: a balance under 3 is a 402 before any work; 3 are reserved up front and 1 (HTML
only) or 3 (draft) committed on success, with the answer kept for a retry (``Idempotency-Key``
or an identical request, ``app.operations.retries``) in the same transaction; any failure, a
client gone before the answer was ready included, releases the hold and the key's claim.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable
from typing import NamedTuple, TypeVar

import msgspec

from app.articles.service import DRAFT_COST, HTML_COST, MIN_BALANCE, ArticleService
from app.articles.wechat import Credentials, PlatformError, PlatformTimeout
from app.errors import InvalidField, MissingPlatformCredentials, RenderTimeout
from app.ledger.charge import charged
from app.ledger.credits import KeyInfo
from app.ledger.idempotency import Replay, fingerprint
from app.metrics import Metrics
from app.models import ArticleRequest, DraftResponse, HtmlResponse, field_label
from app.operations import retries
from app.operations.disconnect import unless_gone
from app.services import Services

T = TypeVar("T")

OPERATION = "convert-and-draft"  # in the ledger and the metrics

__all__ = [
    "DRAFT_COST",
    "HTML_COST",
    "MIN_BALANCE",
    "OPERATION",
    "ArticleAnswer",
    "convert_article",
    "credentials_from",
]


class ArticleAnswer(NamedTuple):
    """A convert-and-draft answer: its JSON body and status, and what it cost.

    ``replayed``: the stored answer to an earlier request with the same Idempotency-Key,
    charged then, not now (``cost`` is 0).
    """

    body: bytes
    status: int = 200
    cost: int = 0
    replayed: bool = False


def credentials_from(appid: str, secret: str, names: tuple[str, str]) -> Credentials | None:
    """Both given → credentials; neither → None (HTML only); ``names`` say where they go.

    Raises:
        MissingPlatformCredentials: Only one of them (the secret is never echoed).
    """
    appid, secret = appid.strip(), secret.strip()
    if not appid and not secret:
        return None
    if not appid or not secret:
        missing = names[0] if not appid else names[1]
        raise MissingPlatformCredentials(
            f"{missing} is missing: send both {names[0]} and {names[1]} to create"
            " a draft, or neither for HTML only"
        )
    return Credentials(appid, secret)


def request_fingerprint(body: ArticleRequest, creds: Credentials | None) -> str:
    """What decides the answer: the normalised body and the account (its secret hashed)."""
    account = b"" if creds is None else creds.appid.encode()
    secret = b"" if creds is None else hashlib.sha256(creds.secret.encode()).digest()
    return fingerprint(msgspec.json.encode(body), account, secret)


def _short_of_credits(balance: int) -> str:
    return (
        f"convert-and-draft needs a balance of at least {MIN_BALANCE} credits (HTML only"
        f" costs {HTML_COST}, a draft {DRAFT_COST}); the key's balance is {balance}"
    )


async def convert_article(
    services: Services,
    key: KeyInfo,
    body: ArticleRequest,
    creds: Credentials | None,
    idem_key: str | None,
    request_id: str | None,
    gone: asyncio.Event | None = None,
) -> ArticleAnswer:
    """The convert-and-draft operation (HTTP, MCP alike).

    Claim the retry key (a replay returns at once), hold 3 credits, convert or draft under
    the deadline, commit 1 or 3 with the answer recorded; any failure releases both. ``gone``
    is set when the client goes away: unfinished work is then stopped and not charged.
    """
    if creds is not None and not body.markdown.strip():
        raise InvalidField(
            "markdown must not be empty when creating a draft", label=field_label("markdown")
        )
    timeout = services.settings.article_timeout
    held = await retries.claim(
        services.idempotency,
        key.id,
        OPERATION,
        request_fingerprint(body, creds),
        idem_key,
        wait=timeout,
        gone=gone,
    )
    if isinstance(held, Replay):
        return ArticleAnswer(held.body, held.status, replayed=True)
    try:
        # after the claim: a replay is never limited
        await asyncio.to_thread(services.limits.admit, key.id)
        async with charged(
            services.credits,
            services.metrics,
            key,
            operation=OPERATION,
            hold=MIN_BALANCE,
            request_id=request_id,
            refusal=_short_of_credits,
        ) as charge:
            work = _run(services.articles, body, creds, key.id, timeout)
            answer = await unless_gone(gone, _counted(services.metrics, work))
            encoded = msgspec.json.encode(answer)
            charge.cost = HTML_COST if creds is None else DRAFT_COST
            charge.also = await held.recorder(encoded)
    except BaseException:
        await held.forget()
        raise
    return ArticleAnswer(encoded, cost=charge.cost)


async def _run(
    service: ArticleService,
    body: ArticleRequest,
    creds: Credentials | None,
    key: object,
    seconds: float,
) -> HtmlResponse | DraftResponse:
    """The work under one deadline: 504 ``platform_timeout`` (draft) or ``timeout`` past it."""
    try:
        async with asyncio.timeout(seconds):
            if creds is None:
                return await service.html_only(body, key, seconds)
            return await service.draft(body, creds, key, seconds)
    except (TimeoutError, RenderTimeout):
        if creds is None:
            raise RenderTimeout(f"converting took longer than {seconds:g} s") from None
        raise PlatformTimeout(
            f"creating the draft took longer than {seconds:g} s; nothing was charged"
        ) from None


async def _counted(metrics: Metrics, work: Awaitable[T]) -> T:
    """``work``'s answer, with a platform failure counted by its label (a ``PlatformTimeout``
    that ``_run`` raises in place of a timeout is counted too)."""
    try:
        return await work
    except PlatformError as exc:
        metrics.platform_errors.labels(exc.label).inc()
        raise
