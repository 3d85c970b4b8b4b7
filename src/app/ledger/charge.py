"""A paid call's credits: held before the work, committed on success, released on failure.

Every paid operation runs its work inside ``charged(...)``; this is the one place that
reserves, commits and releases credits. A request cancelled while its work runs (its client
went away) releases its hold: it is not charged. Once the work has finished, the commit runs
to its end even if the request is cancelled meanwhile, so a finished answer is charged and
kept (for a retry to replay) exactly once, and never both committed and released. A hold the
database was too busy to release is left to the expiry sweep (``app.services``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from inkcard.app.errors import DatabaseBusy, InsufficientCredits
from inkcard.app.ledger.credits import Credits, KeyInfo
from inkcard.app.ledger.engine import Tx
from inkcard.app.metrics import Metrics

log = logging.getLogger("inkcard.ledger")


@dataclass
class Charge:
    """What the work inside ``charged`` decides about its own bill before it ends.

    ``cost`` starts at the amount held (the call's price) and may be lowered if the work turns
    out cheaper (the rest is refunded); ``also`` runs in the commit's transaction (an idempotent
    answer stored with its charge).
    """

    operation: str
    held: int
    cost: int
    also: Callable[[Tx], None] | None = None


@asynccontextmanager
async def charged(
    credits: Credits,
    metrics: Metrics,
    key: KeyInfo,
    *,
    operation: str,
    hold: int,
    request_id: str | None,
    minimum: int = 0,
    refusal: Callable[[int], str] | None = None,
) -> AsyncIterator[Charge]:
    """Hold ``hold`` credits of ``key`` (the call's cost) around the work of the ``with`` block.

    Args:
        minimum: The balance the key needs to call at all: checked with the hold, not held.
        refusal: The 402 message for a balance under ``max(hold, minimum)``, given that balance.

    Raises:
        InsufficientCredits: The balance is under ``max(hold, minimum)`` (nothing is written).
    """
    try:
        hold_id = await asyncio.to_thread(
            functools.partial(credits.reserve, minimum=minimum),
            key.id,
            hold,
            operation,
            request_id,
        )
    except InsufficientCredits:
        if refusal is None:
            raise
        balance = (await asyncio.to_thread(credits.key_info, key.prefix)).balance
        raise InsufficientCredits(refusal(balance)) from None
    charge = Charge(operation=operation, held=hold, cost=hold)
    try:
        yield charge
    except BaseException:
        if hold_id is not None and await _release(credits, hold_id):
            metrics.refunded(operation, hold)
        raise
    if hold_id is None:
        return
    committing = asyncio.ensure_future(
        asyncio.to_thread(credits.commit, hold_id, charge.cost, also=charge.also)
    )
    cancelled = await to_the_end(committing)
    try:
        committed = committing.result()
    except BaseException:
        if await _release(credits, hold_id):  # the commit was not written: give it all back
            metrics.refunded(operation, hold)
        raise
    if committed:
        metrics.debited(operation, charge.cost)
    else:
        log.warning("hold %s expired before the call finished; it is not charged", hold_id)
    if cancelled:
        raise asyncio.CancelledError


async def to_the_end(job: asyncio.Future[Any]) -> bool:
    """Wait until ``job`` is done, even through cancellation; True if the waiting task was
    cancelled meanwhile (the caller decides whether to go on cancelled or not)."""
    cancelled = False
    while not job.done():
        try:
            await asyncio.wait([job])
        except asyncio.CancelledError:
            cancelled = True
    return cancelled


async def _release(credits: Credits, hold_id: int) -> bool:
    """Give a failed call's hold back (True); if the database is busy, the expiry sweep will."""
    try:
        return bool(await asyncio.shield(asyncio.to_thread(credits.release, hold_id)))
    except DatabaseBusy:
        log.warning("hold %s left to the expiry sweep: the database is busy", hold_id)
        return False
