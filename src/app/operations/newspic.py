"""A ``NewspicRequest`` of an authenticated key → an image-post draft of its cards, charged
like an article draft (``app.prices``), on the publishing calls' paid path
(``app.operations.publishing``). Its retry claim keeps the cards' names, not their URLs
(``app.operations.answers``)."""

from __future__ import annotations

import asyncio
import functools

import msgspec

from inkcard.app.articles.newspic import newspic_draft, newspic_dry_run
from inkcard.app.articles.wechat import Credentials, PlatformTimeout
from inkcard.app.errors import RenderTimeout
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.operations.answers import body_with, images_of, kept_body, still_stored, with_urls
from inkcard.app.operations.disconnect import unless_gone
from inkcard.app.operations.generate import brand_kit
from inkcard.app.operations.publishing import (
    ArticleAnswer,
    PlatformCall,
    pay_platform,
    request_fingerprint,
    short_of_minimum,
)
from inkcard.app.schema import NewspicPreviewResponse, NewspicRequest, NewspicResponse
from inkcard.app.services import Services
from inkcard.layout.style import BrandKit

OPERATION = "newspic-draft"  # in the ledger and the metrics


async def create_newspic(
    services: Services,
    key: KeyInfo,
    body: NewspicRequest,
    creds: Credentials | None,
    idem_key: str | None,
    request_id: str | None,
    gone: asyncio.Event | None = None,
) -> ArticleAnswer:
    """The newspic-draft operation (HTTP, MCP alike): as ``convert_article`` with a draft;
    a dry run (``creds`` may be None) is charged like HTML only."""
    prices = services.settings.prices
    timeout = services.settings.article_timeout
    kit = await brand_kit(services, key, body.brand)  # an unknown name: 400, before any hold
    call = PlatformCall(
        key,
        OPERATION,
        request_fingerprint(body, creds),
        idem_key,
        request_id,
        short_of_minimum("newspic-draft", f"an image post costs {prices.newspic}", prices),
        kept=kept_body,
        replayed=functools.partial(_replayed, services, body, key, kit, gone),
    )
    price = prices.image_post(dry_run=body.dryRun)
    work = functools.partial(_run, services, body, creds, key.id, timeout, price, kit)
    return await pay_platform(services, call, work, price, gone)


async def _replayed(
    services: Services,
    body: NewspicRequest,
    key: KeyInfo,
    kit: BrandKit | None,
    gone: asyncio.Event | None,
    kept: bytes,
) -> bytes:
    """A replayed answer with this request's card URLs; its cards drawn again (free, nothing
    sent to the platform) when they are no longer all in storage."""
    answer = msgspec.json.decode(kept)  # ours, and small: a title, a text, 20 card names
    images = images_of(answer)
    if images is None:
        return kept
    cards = services.cards
    if await still_stored(cards.storage, images):
        return body_with(answer, with_urls(cards.storage, images))
    job = cards.prepare(body.cards(), kit)
    timeout = services.settings.article_timeout
    records = await unless_gone(gone, cards.generate(job, timeout=timeout, key=key.id))
    return body_with(answer, records)


async def _run(
    services: Services,
    body: NewspicRequest,
    creds: Credentials | None,
    key: object,
    seconds: float,
    price: int,
    kit: BrandKit | None,
) -> NewspicResponse | NewspicPreviewResponse:
    """The work under one deadline (its answer saying it costs ``price``): 504
    ``platform_timeout`` past it."""
    try:
        async with asyncio.timeout(seconds):
            if body.dryRun or creds is None:
                return await newspic_dry_run(
                    services.cards, services.articles.pool, body, key, seconds, price, kit
                )
            publisher = services.articles.publisher(creds)
            return await newspic_draft(
                services.cards, services.articles.pool, publisher, body, key, seconds, price, kit
            )
    except (TimeoutError, RenderTimeout):
        raise PlatformTimeout(
            f"creating the image post took longer than {seconds:g} s; nothing was charged"
        ) from None
