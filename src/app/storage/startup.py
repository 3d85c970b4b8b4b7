"""Settings and their storage → proved usable before a process starts serving, or one
``SettingsError`` line naming the variables to fix; a warning when the files' URLs do not
answer them.

``inkcard serve`` runs this before it prints anything, ``inkcard mcp`` before its tools
open: a bucket that cannot be reached or refuses writes, or a storage folder that cannot be
written, stops the start (exit 2) rather than failing every request after it.
"""

from __future__ import annotations

from inkcard.app.errors import StorageError
from inkcard.app.settings import Settings, SettingsError
from inkcard.app.storage.base import Storage
from inkcard.app.storage.publicread import UnreadableUrls

WHAT_TO_CHECK = {
    "local": "set INKCARD_STORAGE_DIR (or INKCARD_HOME) to a folder this user can write",
    "gcs": "check INKCARD_GCS_BUCKET, INKCARD_GCS_PROJECT and the Google credentials",
    "s3": "check INKCARD_S3_BUCKET, INKCARD_S3_ENDPOINT, INKCARD_S3_REGION and the AWS credentials",
}
"""Storage engine → the settings a failed start-up probe points at."""


def prove_storage(settings: Settings, storage: Storage, folder: str) -> str | None:
    """Write and delete a probe object in ``folder`` (and, for a bucket whose URLs are its
    own, fetch it at its URL). Blocking: call it from a thread in an event loop.

    Returns:
        A warning when the files are stored but their URLs do not answer them; else None.

    Raises:
        SettingsError: The storage cannot be written or reached (one line, the settings
            to check named).
    """
    try:
        storage.check(folder)
    except UnreadableUrls as exc:
        return f"INKCARD_STORAGE={settings.storage}: {exc.message}"
    except StorageError as exc:
        raise SettingsError(
            f"{_where(settings)} cannot store files: {exc.message};"
            f" {WHAT_TO_CHECK[settings.storage]}"
        ) from None
    return None


def _where(settings: Settings) -> str:
    """The setting that names where files go: the folder of local storage, else the engine."""
    if settings.storage == "local":
        return f"INKCARD_STORAGE_DIR={settings.storage_dir}"
    return f"INKCARD_STORAGE={settings.storage}"
