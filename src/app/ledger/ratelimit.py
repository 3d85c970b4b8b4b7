"""Per-key request limits that every worker and replica on one database shares.

``INKCARD_REQUESTS_PER_MINUTE`` paid calls per key in each fixed clock-minute window (the
window starts at a multiple of 60 s of Unix time). The count is one row per (key, window) in
the ``rate_windows`` table, raised by one ``INSERT … ON CONFLICT DO UPDATE … WHERE hits < limit``:
the check and the increment are one atomic statement on both engines, and a refused call
does not count. Rows of past windows are deleted by the key's next call.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

from inkcard.app.errors import RateLimited, plural
from inkcard.app.ledger.database import open_store

WINDOW_SECONDS = 60


class RequestLimit:
    """At most ``per_minute`` paid calls per key and clock minute (0: no limit).

    Args:
        database: A SQLite file path or a ``postgresql://`` URL.
        per_minute: Calls one key may start in one window.
        busy_timeout: Seconds to wait for another writer's lock before ``DatabaseBusy``.
        clock: Seconds since the epoch (tests move it).
    """

    def __init__(
        self,
        database: str | Path,
        per_minute: int,
        *,
        busy_timeout: float = 5.0,
        clock: Callable[[], float] = time.time,
    ):
        self.store = open_store(database, busy_timeout)
        self.per_minute = per_minute
        self.clock = clock

    def admit(self, key_id: int) -> None:
        """Count one call of ``key_id`` in the current window.

        Raises:
            RateLimited: The key used up this window; nothing is counted.
            DatabaseBusy: The database stayed locked; nothing is counted.
        """
        if self.per_minute <= 0:
            return
        now = self.clock()
        window = int(now // WINDOW_SECONDS) * WINDOW_SECONDS
        with self.store.write() as db:
            db.execute(
                "DELETE FROM rate_windows WHERE key_id = ? AND window_start < ?", [key_id, window]
            )
            counted = db.execute(
                "INSERT INTO rate_windows (key_id, window_start, hits) VALUES (?, ?, 1)"
                " ON CONFLICT (key_id, window_start) DO UPDATE"
                " SET hits = rate_windows.hits + 1 WHERE rate_windows.hits < ?"
                " RETURNING hits",
                [key_id, window, self.per_minute],
            ).fetchone()
        if counted is None:
            wait = max(1, math.ceil(window + WINDOW_SECONDS - now))
            raise RateLimited(
                f"this API key may start {plural(self.per_minute, 'paid call')} a minute and"
                f" has used them; retry in {plural(wait, 'second')}",
                headers={"Retry-After": str(wait)},
            )
