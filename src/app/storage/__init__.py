"""Object names and bytes → stored files with public URLs: the local disk (``.local``), a Google
Cloud Storage bucket (``.gcs``) or an S3-compatible bucket (``.s3``); ``make_storage`` picks one.

Names are made by the service (``screenshots/<hex>-<n>.png``, or ``.jpg``, ``.webp``, ``.pdf``),
never by users; every back end still refuses anything that does not look like one.
A bucket engine's module, and so its client library, is imported only when that engine is
built, so local use needs neither the optional extras nor any cloud credentials.
Readiness is proved the way cards are stored: a probe object is written and deleted.
It imports only ``app.settings`` and ``app.errors`` of the service.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from inkcard.app import logs
from inkcard.app.errors import StorageError
from inkcard.app.settings import Settings, SettingsError
from inkcard.app.storage.base import CACHE_CONTROL, Storage, StoredFile, check_name, probe_name
from inkcard.app.storage.local import LocalStorage

if TYPE_CHECKING:
    from inkcard.app.storage.gcs import GCSStorage
    from inkcard.app.storage.s3 import S3Storage

__all__ = [
    "CACHE_CONTROL",
    "LocalStorage",
    "Storage",
    "StorageProbe",
    "StoredFile",
    "check_name",
    "has_file_urls",
    "make_storage",
    "probe_name",
]


class StorageProbe:
    """Proves storage by writing and deleting a probe object; remembers the outcome briefly.

    ``/readyz`` may be polled often; within ``seconds`` of a probe the last outcome is
    answered again (success, or the same ``StorageError``) without touching storage.
    """

    def __init__(self, storage: Storage, folder: str, seconds: float = 5.0):
        self._storage = storage
        self._folder = folder
        self._seconds = seconds
        self._lock = threading.Lock()
        self._until = 0.0
        self._problem: str | None = None

    def check(self) -> None:
        """Raise ``StorageError`` unless a probe object could be written and deleted."""
        with self._lock:
            if time.monotonic() < self._until:
                if self._problem is not None:
                    raise StorageError(self._problem)
                return
        problem: str | None = None
        try:
            self._storage.check(self._folder)
        except StorageError as exc:
            problem = exc.message
        with self._lock:
            self._until = time.monotonic() + self._seconds
            self._problem = problem
        if problem is not None:
            raise StorageError(problem)


EXTRAS = {"gcs": "gcs", "s3": "s3"}
"""Storage engine → the pip extra that installs its client library."""


def has_file_urls(settings: Settings, *, served: bool) -> bool:
    """Whether stored files have URLs that answer: a bucket has its own, ``INKCARD_PUBLIC_URL``
    names where they are served, or this process serves local files itself (``served``).
    ``inkcard mcp`` on stdio with local storage and no public URL has none: nothing there
    answers HTTP, and the service's address would be a guess."""
    return served or bool(settings.public_url) or settings.storage != "local"


def make_storage(
    settings: Settings, *, served: bool = True
) -> LocalStorage | GCSStorage | S3Storage:
    """Build the storage back end the settings name. ``served``: this process serves local
    files at ``/files`` (``inkcard serve``); without it (``inkcard mcp`` on stdio) local files
    have a URL only under ``INKCARD_PUBLIC_URL``.

    Raises:
        SettingsError: The engine's client library is not installed (naming the extra), or
            (gcs) no credentials were found.
    """
    try:
        if settings.storage == "gcs":
            from inkcard.app.storage.gcs import GCSStorage

            return GCSStorage(
                settings.gcs_bucket,
                settings.files_url,
                settings.gcs_project,
                settings.gcs_retry_seconds,
            )
        if settings.storage == "s3":
            from inkcard.app.storage.s3 import S3Storage

            return S3Storage(
                settings.s3_bucket,
                settings.files_url,
                settings.s3_endpoint,
                settings.s3_region,
                settings.s3_addressing,
                probe_urls=not settings.public_url,
            )
    except ImportError as exc:
        extra = EXTRAS[settings.storage]
        raise SettingsError(
            f"INKCARD_STORAGE={settings.storage} needs `pip install 'inkcard[{extra}]'`"
            f" ({exc.name} is not installed)"
        ) from None
    if not has_file_urls(settings, served=served):
        return LocalStorage(Path(settings.storage_dir), None)
    return LocalStorage(
        Path(settings.storage_dir), lambda: settings.files_url_for(logs.current_origin())
    )
