"""A paid call's retry: the same answer again, charged once.

Every paid call claims a key in the idempotency store before any work: the caller's
``Idempotency-Key`` if it sent one, else the implicit key of the request itself (operation,
normalised body, account), kept for ``RETRY_WINDOW_SECONDS``. A finished answer is recorded in
the transaction that charges it; a later identical request gets it back (a replay, charged
nothing), and a failed or abandoned call lets go of its key, so a retry really runs.

An identical request that arrives while the first still runs (a client that timed out and
retried before the server saw it leave) waits for the first and then gets its answer; with an
explicit key that is 409 ``idempotency_key_in_use`` at once, as before.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass

from inkcard.app.errors import ClientClosedRequest, DatabaseBusy, IdempotencyKeyInUse
from inkcard.app.ledger.charge import to_the_end
from inkcard.app.ledger.engine import Tx
from inkcard.app.ledger.idempotency import IdempotencyStore, Replay, check_key, implicit_key, pack
from inkcard.app.operations.disconnect import GONE_MESSAGE

log = logging.getLogger("inkcard.operations")

POLL_SECONDS = 0.5
"""How often a retry waiting for an identical request in flight looks for its answer."""


@dataclass(frozen=True, slots=True)
class Claim:
    """This call holds ``idem_key``: it records its answer, or forgets the key on failure."""

    store: IdempotencyStore
    key_id: int
    idem_key: str

    async def recorder(self, answer: bytes) -> Callable[[Tx], None]:
        """What keeps ``answer`` in the credit commit's transaction (compressed beforehand, in
        a thread: an article's HTML may be megabytes)."""
        packed = await asyncio.to_thread(pack, answer)
        return functools.partial(
            self.store.record, key_id=self.key_id, idem_key=self.idem_key, status=200, body=packed
        )

    async def forget(self) -> None:
        """Let go of the key after a failure, so a retry runs again (even when cancelled)."""
        try:
            await asyncio.shield(asyncio.to_thread(self.store.forget, self.key_id, self.idem_key))
        except DatabaseBusy:
            log.warning("idempotency claim left to expire: the database is busy")


async def claim(
    store: IdempotencyStore,
    key_id: int,
    operation: str,
    print_: str,
    header: str | None,
    *,
    wait: float,
    gone: asyncio.Event | None = None,
) -> Claim | Replay:
    """This call's claim, or the stored answer to an earlier identical call.

    Args:
        print_: The request's fingerprint (what decides its answer).
        header: The ``Idempotency-Key`` sent, if any.
        wait: Seconds an implicit retry waits for an identical call in flight.
        gone: Set when the client went away (then a waiting retry stops waiting).

    Raises:
        InvalidIdempotencyKey, IdempotencyKeyReused, IdempotencyKeyInUse: As the store says;
            ``IdempotencyKeyInUse`` without a header only after ``wait`` seconds.
    """
    if header is not None:
        return await _claim_once(store, key_id, check_key(header), print_)
    idem_key = implicit_key(operation, print_)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while True:
        try:
            return await _claim_once(store, key_id, idem_key, print_)
        except IdempotencyKeyInUse:
            if loop.time() + POLL_SECONDS > deadline:
                raise
        if gone is not None and gone.is_set():
            raise ClientClosedRequest(GONE_MESSAGE)
        await asyncio.sleep(POLL_SECONDS)


async def _claim_once(
    store: IdempotencyStore, key_id: int, idem_key: str, print_: str
) -> Claim | Replay:
    """One claim, run to its end even if the call is cancelled meanwhile: a claim made for
    a call that is gone is let go of at once (else it would hold the key until it expired)."""
    claiming = asyncio.ensure_future(asyncio.to_thread(store.claim, key_id, idem_key, print_))
    held = Claim(store, key_id, idem_key)
    if await to_the_end(claiming):
        if claiming.exception() is None and claiming.result() is None:
            await held.forget()
        raise asyncio.CancelledError
    replay = claiming.result()
    return held if replay is None else replay
