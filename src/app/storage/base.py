"""What every storage engine shares: safe object names, the ``Storage`` protocol, listings."""

from __future__ import annotations

import re
import uuid
from typing import NamedTuple, Protocol

CACHE_CONTROL = "public, max-age=31536000, immutable"
_NAME = re.compile(r"^[a-z]+/[A-Za-z0-9_-]{1,100}\.(png|jpg|webp|pdf|json)$")


def check_name(name: str) -> str:
    """Return ``name`` if it is a safe object name, else raise ``ValueError``."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"unsafe storage name: {name!r}")
    return name


class StoredFile(NamedTuple):
    """One stored object: its name, size in bytes, and when it was last written (epoch s)."""

    name: str
    size: int
    modified: float


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
        """Public URL of ``name``; empty when nothing serves the files (local storage under
        ``inkcard mcp`` without ``INKCARD_PUBLIC_URL``)."""

    def check(self, folder: str) -> None:
        """Write and delete a probe object in ``folder``; raise ``StorageError`` if either fails."""


def probe_name(folder: str) -> str:
    """A fresh object name in ``folder`` that no card name can equal (cards start with hex)."""
    return check_name(f"{folder}/readyz-{uuid.uuid4().hex}.json")
