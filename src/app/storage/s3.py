"""The ``s3`` engine: objects in one bucket of any S3-compatible service, through boto3.

AWS S3, MinIO, Cloudflare R2, Aliyun OSS and Tencent COS all speak the S3 API; an empty
endpoint means AWS. Credentials come from boto3's usual chain (``AWS_ACCESS_KEY_ID`` and
``AWS_SECRET_ACCESS_KEY``, a profile, an instance role) and never reach a log: errors name
only the bucket, the object and the kind of failure.
This module is imported only when ``INKCARD_STORAGE=s3`` (``pip install inkcard[s3]``).
"""

from __future__ import annotations

from typing import Any, Literal

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from inkcard.app.errors import StorageError
from inkcard.app.storage.base import CACHE_CONTROL, StoredFile, check_name, probe_name
from inkcard.app.storage.publicread import check_public_read

CONNECT_SECONDS = 3.0
READ_SECONDS = 10.0
ATTEMPTS = 3  # botocore's standard retry mode: transient errors and throttling, with backoff
_MISSING = {"NoSuchKey", "404", "NotFound"}
Addressing = Literal["auto", "path", "virtual"]
PUBLIC_READ_ADVICE = (
    "let everyone read the bucket's objects (a bucket policy allowing s3:GetObject to"
    ' "*"), or set INKCARD_PUBLIC_URL to a CDN that serves them'
)


def _client(endpoint: str, region: str, addressing: Addressing, attempts: int) -> Any:
    config = Config(
        connect_timeout=CONNECT_SECONDS,
        read_timeout=READ_SECONDS,
        retries={"max_attempts": attempts, "mode": "standard"},
        s3={"addressing_style": addressing},
    )
    return boto3.session.Session().client(
        "s3", endpoint_url=endpoint or None, region_name=region or None, config=config
    )


class S3Storage:
    """Objects in one S3 bucket. A put replaces whatever is there: names are
    content-addressed, so the same name always carries the same bytes, and an S3 put is
    atomic (readers see the old object or the new one, never part of one)."""

    def __init__(
        self,
        bucket: str,
        base_url: str,
        endpoint: str = "",
        region: str = "",
        addressing: Addressing = "auto",
        probe_urls: bool = False,
    ):
        """``probe_urls``: ``check`` also fetches the probe object at its URL, which is the
        bucket's own (no ``INKCARD_PUBLIC_URL``: a CDN in front may read a private bucket)."""
        self.bucket = bucket
        self.base_url = base_url.rstrip("/")
        self.probe_urls = probe_urls
        self._client = _client(endpoint, region, addressing, ATTEMPTS)
        # Readiness should answer within a probe's timeout, not after backoff.
        self._probe_client = _client(endpoint, region, addressing, 1)

    def _fail(self, action: str, name: str, exc: Exception) -> StorageError:
        return StorageError(f"could not {action} {name} in the bucket ({_reason(exc)})")

    def put(self, name: str, data: bytes, content_type: str) -> None:
        try:
            self._client.put_object(
                Bucket=self.bucket,
                Key=check_name(name),
                Body=data,
                ContentType=content_type,
                CacheControl=CACHE_CONTROL,
            )
        except (BotoCoreError, ClientError) as exc:
            raise self._fail("write", name, exc) from None

    def read(self, name: str) -> bytes | None:
        try:
            answer = self._client.get_object(Bucket=self.bucket, Key=check_name(name))
            data: bytes = answer["Body"].read()
        except ClientError as exc:
            if _code(exc) in _MISSING:
                return None
            raise self._fail("read", name, exc) from None
        except BotoCoreError as exc:
            raise self._fail("read", name, exc) from None
        return data

    def sizes(self, prefix: str) -> dict[str, int]:
        return {f.name: f.size for f in self.entries(prefix)}

    def entries(self, prefix: str) -> list[StoredFile]:
        found: list[StoredFile] = []
        try:
            pages = self._client.get_paginator("list_objects_v2")
            for page in pages.paginate(Bucket=self.bucket, Prefix=prefix):
                for item in page.get("Contents", []):
                    modified = item["LastModified"].timestamp()
                    found.append(StoredFile(item["Key"], int(item["Size"]), modified))
        except (BotoCoreError, ClientError) as exc:
            raise self._fail("list", prefix, exc) from None
        return found

    def delete(self, name: str) -> None:
        try:  # S3 answers a delete of a missing key with success
            self._client.delete_object(Bucket=self.bucket, Key=check_name(name))
        except (BotoCoreError, ClientError) as exc:
            raise self._fail("delete", name, exc) from None

    def url(self, name: str) -> str:
        return f"{self.base_url}/{check_name(name)}"

    def check(self, folder: str) -> None:
        """Write, (``probe_urls``) fetch at its public URL, and delete a probe object.

        Raises:
            StorageError: The bucket refused the write or the delete, or cannot be reached.
            UnreadableUrls: The object was stored but its URL does not answer it.
        """
        name = probe_name(folder)
        try:
            self._probe_client.put_object(
                Bucket=self.bucket, Key=name, Body=b"{}", ContentType="application/json"
            )
            try:
                if self.probe_urls:
                    check_public_read(self.url(name), PUBLIC_READ_ADVICE)
            finally:
                self._probe_client.delete_object(Bucket=self.bucket, Key=name)
        except (BotoCoreError, ClientError) as exc:
            raise StorageError(f"bucket {self.bucket} is not writable ({_reason(exc)})") from None


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _reason(exc: Exception) -> str:
    """The kind of failure: the S3 error code (AccessDenied, NoSuchBucket) or the exception's
    class, never its message (which may quote request details)."""
    if isinstance(exc, ClientError) and _code(exc):
        return _code(exc)
    return type(exc).__name__
