"""A ``CoverRequest`` of an authenticated key → its covers, stored, and the key charged as
generate charges: ``generate_cost`` a call, whatever ``count`` (a generate call costs the
same for one card or fifty)."""

from __future__ import annotations

import asyncio

import msgspec

from app.cards.coverrequest import CoverRequest, normalise_cover
from app.cards.covers import draw_covers
from app.ledger.charge import charged
from app.ledger.credits import KeyInfo
from app.ledger.idempotency import Replay, fingerprint
from app.models import ImageRecord
from app.operations import retries
from app.operations.disconnect import unless_gone
from app.services import Services

OPERATION = "cover"  # in the ledger and the metrics


async def generate_cover(
    services: Services,
    key: KeyInfo,
    body: CoverRequest,
    request_id: str | None,
    gone: asyncio.Event | None = None,
) -> tuple[list[ImageRecord], int]:
    """The cover operation (HTTP, MCP alike): the covers and the credits they cost.

    The order and guarantees are ``generate_cards``': validate; claim the retry key (an
    identical call within the retry window gets the first one's covers again, charged
    nothing); count a paid call against the key's per-minute limit; reserve, render and store,
    commit; any failure releases the hold and stores nothing.
    """
    settings = services.settings
    cards = services.cards
    spec = normalise_cover(body, cards.catalogue.get)
    cost = settings.generate_cost
    held: retries.Claim | None = None
    if cost > 0:  # a free call has nothing to charge twice: no claim
        found = await retries.claim(
            services.idempotency,
            key.id,
            OPERATION,
            fingerprint(msgspec.json.encode(spec)),
            None,
            wait=settings.timeout,
            gone=gone,
        )
        if isinstance(found, Replay):
            return msgspec.json.decode(found.body, type=list[ImageRecord]), 0
        held = found
    try:
        if cost > 0:  # a free render is bounded by the key's renders in flight instead
            await asyncio.to_thread(services.limits.admit, key.id)
        async with charged(
            services.credits,
            services.metrics,
            key,
            operation=OPERATION,
            hold=cost,
            request_id=request_id,
        ) as charge:
            work = draw_covers(cards, spec, timeout=settings.timeout, key=key.id)
            images = await unless_gone(gone, work)
            if held is not None:
                charge.also = await held.recorder(msgspec.json.encode(images))
    except BaseException:
        if held is not None:
            await held.forget()
        raise
    return images, cost
