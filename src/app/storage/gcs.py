"""The ``gcs`` engine: objects in one Google Cloud Storage bucket, through google-cloud-storage.

This module is imported only when ``INKCARD_STORAGE=gcs`` (``pip install inkcard[gcs]``).
"""

from __future__ import annotations

from google.api_core import exceptions as gexc
from google.auth.exceptions import DefaultCredentialsError
from google.cloud import storage as gcs
from google.cloud.storage.retry import DEFAULT_RETRY

from inkcard.app.errors import StorageError
from inkcard.app.settings import SettingsError
from inkcard.app.storage.base import CACHE_CONTROL, StoredFile, check_name, probe_name

NO_CREDENTIALS = (
    "INKCARD_STORAGE=gcs found no Google credentials: set GOOGLE_APPLICATION_CREDENTIALS to a"
    " service account's key file, run on Google Cloud with a service account, or run"
    " `gcloud auth application-default login`"
)


class GCSStorage:
    """Objects in one Google Cloud Storage bucket, through google-cloud-storage."""

    TIMEOUT = (3.0, 10.0)  # connect, read seconds per call

    def __init__(self, bucket: str, base_url: str, project: str = "", retry_seconds: float = 10.0):
        self._retry = DEFAULT_RETRY.with_timeout(retry_seconds) if retry_seconds > 0 else None
        try:
            self._client = gcs.Client(project=project or None)
        except DefaultCredentialsError:
            raise SettingsError(NO_CREDENTIALS) from None
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
        except gexc.PreconditionFailed:
            return
        except Exception as exc:
            raise self._fail("write", name, exc) from None

    def read(self, name: str) -> bytes | None:
        try:
            data: bytes = self._bucket.blob(check_name(name)).download_as_bytes(
                timeout=self.TIMEOUT, retry=self._retry
            )
        except gexc.NotFound:
            return None
        except Exception as exc:
            raise self._fail("read", name, exc) from None
        return data

    def sizes(self, prefix: str) -> dict[str, int]:
        return {f.name: f.size for f in self.entries(prefix)}

    def entries(self, prefix: str) -> list[StoredFile]:
        try:
            blobs = self._client.list_blobs(
                self._bucket, prefix=prefix, timeout=self.TIMEOUT, retry=self._retry
            )
            return [StoredFile(b.name, int(b.size), b.updated.timestamp()) for b in blobs]
        except Exception as exc:
            raise self._fail("list", prefix, exc) from None

    def delete(self, name: str) -> None:
        try:
            self._bucket.blob(check_name(name)).delete(timeout=self.TIMEOUT, retry=self._retry)
        except gexc.NotFound:
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
