"""A ``GenerateRequest`` of an authenticated key → its cards, stored, and the key charged."""

from __future__ import annotations

import asyncio

import msgspec

from app.ledger.charge import charged
from app.ledger.credits import KeyInfo
from app.ledger.idempotency import Replay, fingerprint
from app.models import GenerateRequest, ImageRecord
from app.operations import retries
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
    settings = services.settings
    job = services.cards.prepare(body)
    held: retries.Claim | None = None
    if settings.generate_cost > 0:  # a free call has nothing to charge twice: no claim
        found = await retries.claim(
            services.idempotency,
            key.id,
            OPERATION,
            fingerprint(msgspec.json.encode(body)),
            None,
            wait=settings.timeout,
            gone=gone,
        )
        if isinstance(found, Replay):
            return msgspec.json.decode(found.body, type=list[ImageRecord])
        held = found
    try:
        if settings.generate_cost > 0:  # free: bounded by the key's renders in flight
            await asyncio.to_thread(services.limits.admit, key.id)
        async with charged(
            services.credits,
            services.metrics,
            key,
            operation=OPERATION,
            hold=settings.generate_cost,
            request_id=request_id,
        ) as charge:
            work = services.cards.generate(job, timeout=settings.timeout, key=key.id)
            images = await unless_gone(gone, work)
            if held is not None:
                charge.also = await held.recorder(msgspec.json.encode(images))
    except BaseException:
        if held is not None:
            await held.forget()
        raise
    return images
