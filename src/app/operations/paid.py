"""A paid call of any operation → its answer, charged once: the one paid path.

Every paid operation (generate, cover, convert-and-draft, newspic-draft) runs its work through
``pay``, which takes these steps in this order:

1. **claim** the call's retry key (``app.operations.retries``): an identical call, or one with
   the same ``Idempotency-Key``, gets the stored answer back (a ``Replay``, which the operation
   answers its own way, charged nothing);
2. **limit**: count the call against the key's per-minute limit (after the claim: a replay is
   never limited);
3. **hold** its price, checking the key has the operation's minimum balance too (a check, not
   a hold: the ledger shows one debit of the real price; ``app.ledger.charge``);
4. **run** the work, stopped if the client goes away (``app.operations.disconnect``), a
   platform failure counted by its label;
5. **commit** the hold with the answer recorded for a retry, in one transaction;
6. **undo** on any failure: the hold released, the claim forgotten, so a retry really runs.

What differs between operations is data on the ``PaidCall``: the price, the minimum balance
and its 402 message, the retry's wait and key, what the claim keeps of the answer, and
whether a free call is claimed at all (a card call is not: it has nothing to charge twice; a
platform call is, so that a retry never makes a second draft).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from inkcard.app.articles.wechat import PlatformError
from inkcard.app.ledger.charge import charged
from inkcard.app.ledger.credits import KeyInfo
from inkcard.app.ledger.idempotency import Replay
from inkcard.app.metrics import Metrics
from inkcard.app.operations import retries
from inkcard.app.operations.disconnect import unless_gone
from inkcard.app.services import Services

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PaidCall(Generic[T]):
    """One call of a paid operation: who asks, what it costs, its work and its retry."""

    key: KeyInfo
    operation: str
    """In the ledger and the metrics: generate, cover, convert-and-draft, newspic-draft."""
    price: int
    """The credits held before the work and committed after it (``app.prices``)."""
    print_: str
    """The request's fingerprint: what decides its answer (its implicit retry key)."""
    run: Callable[[], Awaitable[T]]
    """The work, started once the price is held."""
    keep: Callable[[T], bytes]
    """The answer as its retry claim keeps it (JSON; stored files by name, never by URL)."""
    wait: float
    """Seconds an identical retry waits for this call while it still runs."""
    idem_key: str | None = None
    """The ``Idempotency-Key`` sent, if any."""
    request_id: str | None = None
    minimum: int = 0
    """The balance the key needs to call at all (checked with the hold, not held)."""
    refusal: Callable[[int], str] | None = None
    """The 402 message for a balance under the price or the minimum, given that balance."""
    claim_when_free: bool = False
    """Claim the retry key of a call that costs nothing too (and count it against the limit)."""


class Paid(NamedTuple, Generic[T]):
    """A paid call's fresh answer and the credits it cost."""

    answer: T
    cost: int


async def pay(
    services: Services, call: PaidCall[T], gone: asyncio.Event | None = None
) -> Paid[T] | Replay:
    """``call.run()``'s answer, charged ``call.price`` once; or the stored answer of an
    earlier identical call (a ``Replay``, charged nothing). ``gone`` is set when the client
    goes away: unfinished work is then stopped and not charged.

    Raises:
        InsufficientCredits: 402, before any work (nothing written).
        RateLimited: 429, before any work (the claim let go).
        IdempotencyKeyInUse, IdempotencyKeyReused, InvalidIdempotencyKey: As the claim says.
    """
    held: retries.Claim | None = None
    if call.price > 0 or call.claim_when_free:
        found = await retries.claim(
            services.idempotency,
            call.key.id,
            call.operation,
            call.print_,
            call.idem_key,
            wait=call.wait,
            gone=gone,
        )
        if isinstance(found, Replay):
            return found
        held = found
    try:
        if held is not None:  # an unclaimed free call is bounded by its renders in flight
            await asyncio.to_thread(services.limits.admit, call.key.id)
        async with charged(
            services.credits,
            services.metrics,
            call.key,
            operation=call.operation,
            hold=call.price,
            request_id=call.request_id,
            minimum=call.minimum,
            refusal=call.refusal,
        ) as charge:
            answer = await unless_gone(gone, counted(services.metrics, call.run()))
            if held is not None:
                charge.also = await held.recorder(call.keep(answer))
    except BaseException:
        if held is not None:
            await held.forget()
        raise
    return Paid(answer, charge.cost)


async def counted(metrics: Metrics, work: Awaitable[T]) -> T:
    """``work``'s answer, with a platform failure counted by its label."""
    try:
        return await work
    except PlatformError as exc:
        metrics.platform_errors.labels(exc.label).inc()
        raise
