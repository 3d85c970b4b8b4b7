"""Images an account already has on the platform, so the same image is never uploaded twice.

One row of the ``platform_media`` table per (AppID, SHA-256 of the bytes sent, kind): the
kind is ``article-image`` (an ``uploadimg`` URL for an article's body) or ``material`` (a
permanent image: a cover, an image post's card), and the row keeps what the platform answered
(the media_id, the URL). Nothing secret is stored: an AppID, a hash, the platform's ids and
public image URLs. The cache spans requests, workers and replicas (the service database).

Growth is bounded: an account keeps its ``PER_ACCOUNT`` most recently used rows, and a row
unused for ``MAX_AGE_DAYS`` goes (both pruned whenever a row is written). A row the platform
no longer honours (a material deleted from the library answers 40007 in a draft) is dropped
by the caller, who uploads the image again (``app.articles.wechat.placing``).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from inkcard.app.errors import DatabaseBusy
from inkcard.app.ledger.database import open_store

log = logging.getLogger("inkcard.wechat")

MediaKind = Literal["article-image", "material"]
PER_ACCOUNT = 2_000  # rows one account keeps (the most recently used)
MAX_AGE_DAYS = 90  # a row unused this long is dropped
_DAY = 86_400.0


def digest_of(data: bytes) -> str:
    """The hex SHA-256 of the bytes sent to the platform: the cache's key with the kind."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Hosted:
    """What the platform answered for one image: its media_id (materials) and its URL."""

    media_id: str
    url: str


class MediaCache:
    """The ``platform_media`` table of the service database.

    Args:
        database: A SQLite file path or a ``postgresql://`` URL.
        per_account: Rows one account keeps, the most recently used.
        max_age_days: Days after its last use a row is dropped.
        clock: Seconds since the epoch (tests move it).
    """

    def __init__(
        self,
        database: str | Path,
        *,
        per_account: int = PER_ACCOUNT,
        max_age_days: float = MAX_AGE_DAYS,
        clock: Callable[[], float] = time.time,
    ):
        self.store = open_store(database)
        self.per_account = per_account
        self.max_age = max_age_days * _DAY
        self.clock = clock
        self.store.migrate()

    def find(self, appid: str, digest: str, kind: MediaKind) -> Hosted | None:
        """The account's copy of the image, marked as used now; None when it has none."""
        with self.store.write() as db:
            row = db.execute(
                "UPDATE platform_media SET used_at = ?"
                " WHERE appid = ? AND digest = ? AND kind = ? AND used_at >= ?"
                " RETURNING media_id, url",
                [self.clock(), appid, digest, kind, self.clock() - self.max_age],
            ).fetchone()
        return None if row is None else Hosted(str(row[0]), str(row[1]))

    def put(self, appid: str, digest: str, kind: MediaKind, hosted: Hosted) -> None:
        """Remember an upload; prunes the account's rows past the bound and stale rows.

        A database too busy to take the row is logged, not raised: the upload it records
        was made, and the call that made it goes on (the next one uploads again).
        """
        now = self.clock()
        try:
            with self.store.write() as db:
                db.execute(
                    "INSERT INTO platform_media (appid, digest, kind, media_id, url, used_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (appid, digest, kind) DO UPDATE"
                    " SET media_id = excluded.media_id, url = excluded.url,"
                    " used_at = excluded.used_at",
                    [appid, digest, kind, hosted.media_id, hosted.url, now],
                )
                db.execute("DELETE FROM platform_media WHERE used_at < ?", [now - self.max_age])
                db.execute(
                    "DELETE FROM platform_media WHERE appid = ? AND used_at < ("
                    "SELECT used_at FROM platform_media WHERE appid = ?"
                    " ORDER BY used_at DESC LIMIT 1 OFFSET ?)",
                    [appid, appid, self.per_account - 1],
                )
        except DatabaseBusy:
            log.warning("the upload of an image for appid %s was not cached (database busy)", appid)

    def drop(self, appid: str, digest: str, kind: MediaKind) -> None:
        """Forget the account's copy (the platform refused it)."""
        with self.store.write() as db:
            db.execute(
                "DELETE FROM platform_media WHERE appid = ? AND digest = ? AND kind = ?",
                [appid, digest, kind],
            )
