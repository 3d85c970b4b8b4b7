"""A paid call's stored files in its answer ↔ what its retry claim keeps: their names, never
their URLs.

A retry claim (implicit, or an ``Idempotency-Key``) keeps the answer with each stored file as
its name and alt text only. Every answer, the first and each replay, gets its URLs from the
storage in the request in hand (``Storage.url``: the configured public URL, the bucket, else
the host this request reached), so one request's ``Host`` never reaches another's answer. A
replay whose files are no longer all in storage (deleted, pruned) is not handed out: the
caller draws them again, charged nothing (the first call paid for this answer).
``docs/decisions/service.md``, "Answers stick to the request that made them".
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import msgspec

from inkcard.app.schema import CardQuality, ImageRecord
from inkcard.app.storage import Storage


class KeptImage(msgspec.Struct, frozen=True, rename="camel"):
    """One stored file as a retry claim keeps it, in ``ImageRecord``'s JSON names (an answer
    kept before carries a ``url`` too, which is ignored)."""

    file_name: str
    alt_text: str
    quality: CardQuality | None = None


def kept_images(images: Iterable[ImageRecord]) -> list[KeptImage]:
    """``images`` without their URLs."""
    return [KeptImage(image.fileName, image.altText, image.quality) for image in images]


def with_urls(storage: Storage, kept: Iterable[KeptImage]) -> list[ImageRecord]:
    """``kept`` with the URLs of this request (call it in the request's context)."""
    return [ImageRecord(storage.url(k.file_name), k.file_name, k.alt_text, k.quality) for k in kept]


async def still_stored(storage: Storage, kept: list[KeptImage]) -> bool:
    """True when every file of ``kept`` is in storage (one listing per set, in a thread)."""
    return await asyncio.to_thread(_all_stored, storage, [k.file_name for k in kept])


def _all_stored(storage: Storage, names: list[str]) -> bool:
    by_set: dict[str, set[str]] = {}
    for name in names:
        head, dash, _ = name.rpartition("-")  # screenshots/<digest>-<n>.png: one set
        by_set.setdefault(head + dash if dash else name, set()).add(name)
    return all(wanted <= storage.sizes(prefix).keys() for prefix, wanted in by_set.items())


# A platform answer (newspic's) holds its cards in data.images.


def kept_body(answer: msgspec.Struct) -> bytes:
    """A platform answer as its claim keeps it: JSON, its ``data.images`` without URLs."""
    plain: dict[str, Any] = msgspec.to_builtins(answer)
    data = plain.get("data")
    if isinstance(data, dict) and "images" in data:
        images = msgspec.convert(data["images"], list[KeptImage])
        data["images"] = msgspec.to_builtins(images)
    return msgspec.json.encode(plain)


def images_of(body: dict[str, Any]) -> list[KeptImage] | None:
    """The stored files of a kept platform answer (decoded), None when it has none."""
    data = body.get("data")
    if not isinstance(data, dict) or "images" not in data:
        return None
    return msgspec.convert(data["images"], list[KeptImage])


def body_with(body: dict[str, Any], images: list[ImageRecord]) -> bytes:
    """A kept platform answer (decoded) with these images, as JSON."""
    body["data"]["images"] = msgspec.to_builtins(images)
    return msgspec.json.encode(body)
