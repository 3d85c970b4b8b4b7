"""A ``GenerateRequest`` of an authenticated key → its cards, stored, and the key charged."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec

from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.ledger.idempotency import Replay, fingerprint
from inkcard.app.operations.answers import KeptImage, kept_images, still_stored, with_urls
from inkcard.app.operations.disconnect import unless_gone
from inkcard.app.operations.paid import PaidCall, pay
from inkcard.app.schema import GenerateRequest, ImageRecord
from inkcard.app.services import Services
from inkcard.layout.style import BrandKit

OPERATION = "generate"  # in the ledger and the metrics


async def generate_cards(
    services: Services,
    key: KeyInfo,
    body: GenerateRequest,
    request_id: str | None,
    gone: asyncio.Event | None = None,
) -> list[ImageRecord]:
    """The generate operation (HTTP, MCP alike).

    Order: validate; when the call costs credits, claim its retry key (an identical call
    within the retry window gets the first one's cards again, charged nothing); count a paid
    call against the key's per-minute limit, reserve the cost, then find-or-render; success
    commits the hold with the answer recorded, any failure releases it (a crash leaves it to
    the expiry sweep). ``gone`` is set when the client goes away: unfinished work is then
    stopped and not charged; cards already stored stay for a retry to find.
    """
    kit = await brand_kit(services, key, body.brand)
    job = services.cards.prepare(body, kit)
    settings = services.settings
    images, _ = await render_paid(
        services,
        key,
        OPERATION,
        settings.prices.generate,
        # an edited kit is another request: a retry of the same body does not replay it
        msgspec.json.encode([body, kit.digest()] if kit else body),
        lambda: services.cards.generate(job, timeout=settings.timeout, key=key.id),
        request_id,
        gone,
    )
    return images


async def brand_kit(services: Services, key: KeyInfo, name: str | None) -> BrandKit | None:
    """The key's brand kit called ``name`` (None: no brand asked for), read before any
    credit is held.

    Raises:
        InvalidField: ``invalid_brand``: the key has no kit of that name.
    """
    if name is None:
        return None
    return await asyncio.to_thread(services.brands.require, key.id, name)


async def render_paid(
    services: Services,
    key: KeyInfo,
    operation: str,
    price: int,
    spec: bytes,
    render: Callable[[], Coroutine[Any, Any, list[ImageRecord]]],
    request_id: str | None,
    gone: asyncio.Event | None,
) -> tuple[list[ImageRecord], int]:
    """``render()``'s stored images and what they cost, in ``generate_cards``' order and
    guarantees, for any operation that draws cards (``spec``: the normalised request, its retry
    fingerprint), on the one paid path (``app.operations.paid``). A free call claims no retry
    key. A replayed retry costs 0: the first call's files with this request's URLs, drawn again
    if they are no longer all stored (``app.operations.answers``)."""
    call = PaidCall(
        key,
        operation,
        price,
        fingerprint(spec),
        render,
        keep=lambda images: msgspec.json.encode(kept_images(images)),
        wait=services.settings.timeout,
        request_id=request_id,
    )
    paid = await pay(services, call, gone)
    if isinstance(paid, Replay):
        return await _replayed(services, paid, render, gone), 0
    return paid.answer, paid.cost


async def _replayed(
    services: Services,
    replay: Replay,
    render: Callable[[], Coroutine[Any, Any, list[ImageRecord]]],
    gone: asyncio.Event | None,
) -> list[ImageRecord]:
    """A retry's answer: the first call's files with this request's URLs; drawn again, free,
    when they are no longer all in storage (a replay never hands out a URL that is gone)."""
    kept = msgspec.json.decode(replay.body, type=list[KeptImage])
    if await still_stored(services.storage, kept):
        return with_urls(services.storage, kept)
    return await unless_gone(gone, render())
