"""A ``GenerateRequest`` of an authenticated key → its cards, stored, and the key charged."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec

from app.ledger.charge import charged
from app.ledger.credits import KeyInfo
from app.ledger.idempotency import Replay, fingerprint
from app.models import GenerateRequest, ImageRecord
from app.operations import retries
from app.operations.answers import KeptImage, kept_images, still_stored, with_urls
from app.operations.disconnect import unless_gone
from app.services import Services

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
    job = services.cards.prepare(body)
    settings = services.settings
    images, _ = await render_charged(
        services,
        key,
        OPERATION,
        msgspec.json.encode(body),
        lambda: services.cards.generate(job, timeout=settings.timeout, key=key.id),
        request_id,
        gone,
    )
    return images


async def render_charged(
    services: Services,
    key: KeyInfo,
    operation: str,
    spec: bytes,
    render: Callable[[], Coroutine[Any, Any, list[ImageRecord]]],
    request_id: str | None,
    gone: asyncio.Event | None,
) -> tuple[list[ImageRecord], int]:
    """``render()``'s stored images and what they cost, in ``generate_cards``' order and
    guarantees, for any operation priced as a generate call (``spec``: the normalised
    request, its retry fingerprint). A replayed retry costs 0: the first call's files with this
    request's URLs, drawn again if they are no longer all stored (``app.operations.answers``)."""
    cost = services.settings.generate_cost
    held: retries.Claim | None = None
    if cost > 0:  # a free call has nothing to charge twice: no claim
        found = await retries.claim(
            services.idempotency,
            key.id,
            operation,
            fingerprint(spec),
            None,
            wait=services.settings.timeout,
            gone=gone,
        )
        if isinstance(found, Replay):
            return await _replayed(services, found, render, gone), 0
        held = found
    try:
        if cost > 0:  # free: bounded by the key's renders in flight
            await asyncio.to_thread(services.limits.admit, key.id)
        async with charged(
            services.credits,
            services.metrics,
            key,
            operation=operation,
            hold=cost,
            request_id=request_id,
        ) as charge:
            images = await unless_gone(gone, render())
            if held is not None:
                charge.also = await held.recorder(msgspec.json.encode(kept_images(images)))
    except BaseException:
        if held is not None:
            await held.forget()
        raise
    return images, cost


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
