"""An ``ArticleRequest`` of an authenticated key → article HTML or a WeChat draft, charged.

Credits (``app.prices``): a balance under the publishing minimum is a 402 before any work; the
call's price (HTML only, a draft, or a dry run) is held up front (the minimum balance is
checked, not held) and committed on success, with the answer kept for a retry
(``Idempotency-Key`` or an identical request, ``app.operations.retries``) in the same
transaction; any failure, a client gone before the answer was ready included, releases the
hold and the key's claim (``app.operations.paid``).
"""

from __future__ import annotations

import asyncio
import functools

from inkcard.app.articles.convert.signature import Signature, signature_of
from inkcard.app.articles.service import ArticleService
from inkcard.app.articles.wechat import Credentials, PlatformTimeout
from inkcard.app.errors import MissingPlatformCredentials, RenderTimeout
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.ledger.idempotency import fingerprint
from inkcard.app.operations.generate import brand_kit
from inkcard.app.operations.publishing import (
    ArticleAnswer,
    PlatformCall,
    pay_platform,
    request_fingerprint,
    short_of_minimum,
)
from inkcard.app.schema import ArticleRequest, DraftPreviewResponse, DraftResponse, HtmlResponse
from inkcard.app.services import Services

OPERATION = "convert-and-draft"  # in the ledger and the metrics

__all__ = ["OPERATION", "ArticleAnswer", "convert_article", "credentials_from"]


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

    Claim the retry key (a replay returns at once), check the balance is at least the
    publishing minimum and hold the price (HTML only, draft or dry run), convert or draft under
    the deadline, commit it with the answer recorded; any failure releases both. ``gone`` is
    set when the client goes away: unfinished work is then stopped and not charged.
    """
    prices = services.settings.prices
    timeout = services.settings.article_timeout
    refusal = short_of_minimum(
        "convert-and-draft", f"HTML only costs {prices.html}, a draft {prices.draft}", prices
    )
    kit = await brand_kit(services, key, body.brand)  # an unknown name: 400, before any hold
    spec = request_fingerprint(body, creds)
    if kit is not None:  # an edited kit is another request: a retry does not replay it
        spec = fingerprint(spec.encode(), kit.digest().encode())
    call = PlatformCall(key, OPERATION, spec, idem_key, request_id, refusal)
    price = prices.article(dry_run=body.dryRun, draft=creds is not None)
    signature = signature_of(kit)
    work = functools.partial(_run, services.articles, body, creds, key.id, timeout, signature)
    return await pay_platform(services, call, work, price, gone)


async def _run(
    service: ArticleService,
    body: ArticleRequest,
    creds: Credentials | None,
    key: object,
    seconds: float,
    signature: Signature,
) -> HtmlResponse | DraftResponse | DraftPreviewResponse:
    """The work under one deadline: 504 ``platform_timeout`` (draft) or ``timeout`` past it.
    A dry run calls no platform, credentials or not."""
    try:
        async with asyncio.timeout(seconds):
            if body.dryRun:
                return await service.dry_run(body, key, seconds, signature)
            if creds is None:
                return await service.html_only(body, key, seconds, signature)
            return await service.draft(body, creds, key, seconds, signature)
    except (TimeoutError, RenderTimeout):
        if creds is None or body.dryRun:
            raise RenderTimeout(f"converting took longer than {seconds:g} s") from None
        raise PlatformTimeout(
            f"creating the draft took longer than {seconds:g} s; nothing was charged"
        ) from None
