"""Object names and bytes → stored files with public URLs (local disk or Google Cloud Storage).

Names are made by the service (``screenshots/<hex>-<n>.png``, or ``.jpg``, ``.webp``, ``.pdf``),
never by users; both back ends still refuse anything that does not look like one.
``google.cloud.storage`` is imported only when the ``gcs`` back end is built, so local use
needs no Google libraries or credentials.
Readiness is proved the way cards are stored: a probe object is written and deleted.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from app import logs
from app.errors import StorageError
from app.settings import Settings

CACHE_CONTROL = "public, max-age=31536000, immutable"
_NAME = re.compile(r"^[a-z]+/[A-Za-z0-9_-]{1,100}\.(png|jpg|webp|pdf|json)$")
_TMP_PREFIX = ".tmp-"


def check_name(name: str) -> str:
    """Return ``name`` if it is a safe object name, else raise ``ValueError``."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"unsafe storage name: {name!r}")
    return name


class Storage(Protocol):
    """Where card files live. Every method may raise ``StorageError``."""

    def put(self, name: str, data: bytes, content_type: str) -> None:
        """Store ``data`` under ``name`` atomically (readers see all of it or nothing)."""

    def read(self, name: str) -> bytes | None:
        """The bytes stored under ``name``, or None when there is no such object."""

    def sizes(self, prefix: str) -> dict[str, int]:
        """Names that start with ``prefix``, with their sizes in bytes."""

    def delete(self, name: str) -> None:
        """Remove ``name``; a missing name is not an error."""

    def url(self, name: str) -> str:
        """Public URL of ``name``."""

    def check(self, folder: str) -> None:
        """Write and delete a probe object in ``folder``; raise ``StorageError`` if either fails."""


class LocalStorage:
    """Files under one directory, written with temp file + fsync + rename."""

    def __init__(self, root: Path, base_url: str | Callable[[], str]):
        """``base_url``: the files' base URL, or a function that tells it for the current
        request (the files follow the host the client used)."""
        self.root = root.resolve()
        self._base_url = base_url

    def _path(self, name: str) -> Path:
        path = (self.root / check_name(name)).resolve()
        if not path.is_relative_to(self.root):
            raise ValueError(f"unsafe storage name: {name!r}")
        return path

    def put(self, name: str, data: bytes, content_type: str) -> None:
        path = self._path(name)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_TMP_PREFIX)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            _fsync_dir(path.parent)
        except OSError as exc:
            raise StorageError(f"could not write {name} ({exc.strerror})") from None

    def read(self, name: str) -> bytes | None:
        try:
            return self._path(name).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StorageError(f"could not read {name} ({exc.strerror})") from None

    def sizes(self, prefix: str) -> dict[str, int]:
        folder, _, start = prefix.rpartition("/")
        directory = self.root / folder
        if not directory.is_dir():
            return {}
        found: dict[str, int] = {}
        for path in directory.iterdir():
            if path.name.startswith(start):
                try:
                    found[f"{folder}/{path.name}"] = path.stat().st_size
                except FileNotFoundError:  # deleted while listing
                    continue
        return found

    def delete(self, name: str) -> None:
        try:
            self._path(name).unlink(missing_ok=True)
        except OSError as exc:
            raise StorageError(f"could not delete {name} ({exc.strerror})") from None

    def url(self, name: str) -> str:
        base = self._base_url if isinstance(self._base_url, str) else self._base_url()
        return f"{base.rstrip('/')}/{check_name(name)}"

    def check(self, folder: str) -> None:
        name = probe_name(folder)
        self.put(name, b"{}", "application/json")
        self.delete(name)

    def sweep_temp_files(self, older_than: float = 3600.0) -> int:
        """Delete temp files a crashed writer left behind; return how many."""
        cutoff = time.time() - older_than
        removed = 0
        for tmp in self.root.rglob(_TMP_PREFIX + "*"):
            try:
                if tmp.stat().st_mtime < cutoff:
                    tmp.unlink()
                    removed += 1
            except OSError:
                continue
        return removed


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class GCSStorage:
    """Objects in one Google Cloud Storage bucket, through google-cloud-storage."""

    TIMEOUT = (3.0, 10.0)  # connect, read seconds per call

    def __init__(self, bucket: str, base_url: str, project: str = "", retry_seconds: float = 10.0):
        from google.api_core import exceptions as gexc
        from google.cloud import storage as gcs
        from google.cloud.storage.retry import DEFAULT_RETRY

        self._gexc = gexc
        self._retry = DEFAULT_RETRY.with_timeout(retry_seconds) if retry_seconds > 0 else None
        self._client = gcs.Client(project=project or None)
        self._bucket = self._client.bucket(bucket)
        self.base_url = base_url.rstrip("/")

    def _fail(self, action: str, name: str, exc: Exception) -> StorageError:
        return StorageError(f"could not {action} {name} in the bucket ({type(exc).__name__})")

    def put(self, name: str, data: bytes, content_type: str) -> None:
        blob = self._bucket.blob(check_name(name))
        blob.cache_control = CACHE_CONTROL
        try:
            # Create-only: names are content-addressed, so an existing object is already right.
            blob.upload_from_string(
                data,
                content_type=content_type,
                if_generation_match=0,
                timeout=self.TIMEOUT,
                retry=self._retry,
            )
        except self._gexc.PreconditionFailed:
            return
        except Exception as exc:
            raise self._fail("write", name, exc) from None

    def read(self, name: str) -> bytes | None:
        try:
            data: bytes = self._bucket.blob(check_name(name)).download_as_bytes(
                timeout=self.TIMEOUT, retry=self._retry
            )
        except self._gexc.NotFound:
            return None
        except Exception as exc:
            raise self._fail("read", name, exc) from None
        return data

    def sizes(self, prefix: str) -> dict[str, int]:
        try:
            blobs = self._client.list_blobs(
                self._bucket, prefix=prefix, timeout=self.TIMEOUT, retry=self._retry
            )
            return {b.name: int(b.size) for b in blobs}
        except Exception as exc:
            raise self._fail("list", prefix, exc) from None

    def delete(self, name: str) -> None:
        try:
            self._bucket.blob(check_name(name)).delete(timeout=self.TIMEOUT, retry=self._retry)
        except self._gexc.NotFound:
            return
        except Exception as exc:
            raise self._fail("delete", name, exc) from None

    def url(self, name: str) -> str:
        return f"{self.base_url}/{check_name(name)}"

    def check(self, folder: str) -> None:
        # No retries: readiness should answer within a probe's timeout, not after backoff.
        blob = self._bucket.blob(probe_name(folder))
        try:
            blob.upload_from_string(
                b"{}", content_type="application/json", timeout=self.TIMEOUT, retry=None
            )
            blob.delete(timeout=self.TIMEOUT, retry=None)
        except Exception as exc:
            raise StorageError(
                f"bucket {self._bucket.name} is not writable ({type(exc).__name__})"
            ) from None


def probe_name(folder: str) -> str:
    """A fresh object name in ``folder`` that no card name can equal (cards start with hex)."""
    return check_name(f"{folder}/readyz-{uuid.uuid4().hex}.json")


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


def make_storage(settings: Settings) -> LocalStorage | GCSStorage:
    """Build the storage back end the settings name."""
    if settings.storage == "gcs":
        return GCSStorage(
            settings.gcs_bucket,
            settings.files_url,
            settings.gcs_project,
            settings.gcs_retry_seconds,
        )
    return LocalStorage(
        Path(settings.storage_dir), lambda: settings.files_url_for(logs.current_origin())
    )
