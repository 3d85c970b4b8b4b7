"""A ``CoverRequest`` of an authenticated key → its covers, stored, and the key charged as
generate charges: ``Prices.cover``, a generate call's price, whatever ``count`` (a generate
call costs the same for one card or fifty)."""

from __future__ import annotations

import asyncio

import msgspec

from inkcard.app.cards.coverrequest import normalise_cover
from inkcard.app.cards.covers import draw_covers
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.operations.generate import brand_kit, render_paid
from inkcard.app.schema import CoverRequest, ImageRecord
from inkcard.app.services import Services

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
    cards = services.cards
    spec = normalise_cover(body, cards.catalogue.get)
    kit = await brand_kit(services, key, body.brand)
    return await render_paid(
        services,
        key,
        OPERATION,
        services.settings.prices.cover,
        msgspec.json.encode([spec, kit.digest() if kit else None]),
        lambda: draw_covers(cards, spec, timeout=services.settings.timeout, key=key.id, brand=kit),
        request_id,
        gone,
    )
