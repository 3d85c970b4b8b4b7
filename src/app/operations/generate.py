"""A ``GenerateRequest`` of an authenticated key → its cards, stored, and the key charged."""

from __future__ import annotations

import asyncio

from app.ledger.charge import charged
from app.ledger.credits import KeyInfo
from app.models import GenerateRequest, ImageRecord
from app.services import Services

OPERATION = "generate"  # in the ledger and the metrics


async def generate_cards(
    services: Services, key: KeyInfo, body: GenerateRequest, request_id: str | None
) -> list[ImageRecord]:
    """The generate operation (HTTP, MCP alike).

    Order: validate, count the call against the key's per-minute limit, reserve the cost, then
    find-or-render; success commits the hold, any failure releases it (a crash leaves it to
    the expiry sweep).
    """
    settings = services.settings
    job = services.cards.prepare(body)
    await asyncio.to_thread(services.limits.admit, key.id)
    async with charged(
        services.credits,
        services.metrics,
        key,
        operation=OPERATION,
        hold=settings.generate_cost,
        request_id=request_id,
    ):
        return await services.cards.generate(job, timeout=settings.timeout, key=key.id)
