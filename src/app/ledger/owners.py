"""This process on the service database → the owner named on its holds and running claims;
the holds and claims of owners provably gone → released at once.

A process that serves paid calls takes a name at start (``host:pid:boot``, the last part new
at every start) and keeps a *liveness lock* under that name for its whole life (SQLite: an
``flock`` on a file beside the database; PostgreSQL: a session advisory lock on a connection
of its own). The kernel or the database lets go of that lock the moment the process dies,
``kill -9`` included, and never while it lives. Every hold and ``running`` claim it writes
carries its name.

At start, and at each hold sweep, a process looks at the owners named on open holds and
claims (and, SQLite, at the lock files): an owner whose lock it can take is gone, so its
holds are refunded and its claims dropped, at once, by whichever process took the lock first.
An owner whose lock is held is alive, whatever its clock or its load says: two live replicas
never release each other's holds. An owner that cannot be told (no lock file, a row written
before owners existed, a machine that vanished with its PostgreSQL session still open) is
left to the hold's deadline, as every hold was before. ``docs/decisions/service.md``, "Holds
of a process that died".
"""

from __future__ import annotations

import logging
import os
import socket
import string
import uuid
from typing import NamedTuple

from inkcard.app.ledger.credits import Credits
from inkcard.app.ledger.engine import Liveness
from inkcard.app.ledger.idempotency import IdempotencyStore

log = logging.getLogger("inkcard.ledger")

_HOST_CHARACTERS = frozenset(string.ascii_letters + string.digits + ".-")


def owner_name() -> str:
    """A new name for this process: ``host:pid:boot`` (``boot`` is random, new at each
    start, so a pid the system reuses never makes a new process look like a dead one)."""
    host = "".join(c if c in _HOST_CHARACTERS else "-" for c in socket.gethostname())
    return f"{host[:63] or 'host'}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


class Owner:
    """This process's name and its liveness lock on the service database."""

    def __init__(self, credits: Credits, name: str):
        self.name = name
        self._liveness: Liveness = credits.store.liveness(name)

    def start(self) -> None:
        """Take the liveness lock: before any hold or claim is written under the name."""
        self._liveness.keep()

    def renew(self) -> bool:
        """True if the lock is still held (else it was lost with its connection and is held
        again now)."""
        return self._liveness.renew()

    def close(self) -> None:
        """Let go of the lock at a clean exit."""
        self._liveness.close()


class Settled(NamedTuple):
    """What ``release_gone_owners`` gave back."""

    owners: int
    holds: int
    claims: int


def release_gone_owners(credits: Credits, idempotency: IdempotencyStore, me: str | None) -> Settled:
    """Refund the holds and drop the running claims of every owner but ``me`` that is
    provably gone. Each owner is settled while its lock is held here, so two processes
    starting together settle it once (the other sees the lock taken and leaves it).

    Raises:
        DatabaseBusy: The database stayed locked (what is left waits for the next sweep).
    """
    named = set(credits.owners_holding())
    named.update(idempotency.owners_running())
    named.update(credits.store.known_owners())
    named.discard(me or "")
    owners = holds = claims = 0
    for owner in sorted(named):
        with credits.store.if_gone(owner) as gone:
            if not gone:
                continue
            owners += 1
            holds += credits.release_owned(owner)
            claims += idempotency.forget_owned(owner)
    if holds or claims:
        log.warning(
            "released %d credit holds and %d running claims of %d processes that died",
            holds,
            claims,
            owners,
        )
    return Settled(owners, holds, claims)
