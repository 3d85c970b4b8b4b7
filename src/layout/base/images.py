"""Image sources → `ImageRef`s for layout (header only); refs + bytes → pixels for draw.

`data:` URIs are decoded here; any other source must come in the `images` mapping the
caller fetched (the engine does no I/O). Layout wraps one render's images in `Images`: it
reads each distinct source's size from its header (`skia.Codec` parses only the header),
holds their pixels to the render's budget and names each by the SHA-256 of its bytes, so
a decompression bomb or a pile of large images is refused without being decoded, and a
laid-out page carries no pixels. Draw gets the bytes by that key (`Images.blobs`) and
decodes each distinct image once per render in `Decoded`, checking the header again first.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import unquote_to_bytes

import skia

from ..errors import ImagesTooLarge
from .boxes import ImageRef

MAX_PIXELS = 40_000_000  # ~ a 7,000 x 5,700 photo; larger is a placeholder, not decoded
MAX_SIDE = 16_384


class Images(Mapping[str, bytes]):
    """The images of one render as layout sees them: the caller's bytes by source, each
    distinct source's header read once and named by an `ImageRef`; nothing is decoded.

    ``max_pixels`` bounds width × height summed over the distinct images (by content) the
    render would decode; the image that would overrun it raises `ImagesTooLarge`.
    """

    def __init__(self, supplied: Mapping[str, bytes], max_pixels: int | None = None) -> None:
        self._supplied = supplied
        self._budget = _Budget(max_pixels)
        self._refs: dict[str, ImageRef | None] = {}
        self._blobs: dict[str, bytes] = {}

    @property
    def pixels(self) -> int:
        """Pixels of the distinct images admitted so far."""
        return self._budget.pixels

    @property
    def blobs(self) -> dict[str, bytes]:
        """The bytes of every admitted image by `ImageRef.key`: what draw needs."""
        return dict(self._blobs)

    def __getitem__(self, src: str) -> bytes:
        return self._supplied[src]

    def __iter__(self) -> Iterator[str]:
        return iter(self._supplied)

    def __len__(self) -> int:
        return len(self._supplied)

    def admit(self, sources: Iterable[str]) -> None:
        """Read the header of every source and count its pixels, decoding nothing.

        Raises:
            ImagesTooLarge: The sources together are over the budget.
        """
        for src in sources:
            self.ref(src)

    def ref(self, src: str) -> ImageRef | None:
        """The image `src` names; None when it is missing, not an image or over the limits.

        Raises:
            ImagesTooLarge: This image would take the render over its budget.
        """
        if src in self._refs:
            return self._refs[src]
        data = _data_uri(src) if src.startswith("data:") else self._supplied.get(src)
        ref = image_ref(data) if data else None
        if ref is not None and data is not None:
            self._budget.count(ref)  # raises before recording: the source stays refused
            self._blobs[ref.key] = data
        self._refs[src] = ref
        return ref


class Decoded:
    """The decoded images of one render, for draw: each distinct key decoded on first use.

    The bytes' header must still declare the ref's size within the limits, and the pixels
    decoded stay within ``max_pixels``, both checked before decoding, so bytes that do not
    match what layout measured are never decoded.
    """

    def __init__(self, blobs: Mapping[str, bytes], max_pixels: int | None = None) -> None:
        self._blobs = blobs
        self._budget = _Budget(max_pixels)
        self._images: dict[str, Any] = {}

    def image(self, ref: ImageRef) -> Any:
        """The decoded raster `ref` names (animations: the first frame); None when its
        bytes are missing, damaged or not the image layout measured.

        Raises:
            ImagesTooLarge: Decoding it would take the render over its budget.
        """
        if ref.key not in self._images:
            data = self._blobs.get(ref.key)
            size = header_size(data) if data else None
            if data is None or size != (ref.width, ref.height) or not _fits(*size):
                self._images[ref.key] = None
            else:
                self._budget.count(ref)
                self._images[ref.key] = _decode(data)
        return self._images[ref.key]


class _Budget:
    """Pixels of distinct images (by key) against an optional limit."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.pixels = 0
        self._seen: set[str] = set()

    def count(self, ref: ImageRef) -> None:
        if ref.key in self._seen:
            return
        pixels = self.pixels + ref.width * ref.height
        if self.limit is not None and pixels > self.limit:
            raise ImagesTooLarge(pixels, self.limit)
        self.pixels = pixels
        self._seen.add(ref.key)


def image_ref(data: bytes) -> ImageRef | None:
    """The ref of one image's bytes; None when bad or over the size limits (from the header)."""
    size = header_size(data)
    if size is None or not _fits(*size):
        return None
    return ImageRef(hashlib.sha256(data).hexdigest(), *size)


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the image's header (PNG, JPEG, GIF, WebP, …); no pixel is decoded."""
    try:
        codec = skia.Codec.MakeFromData(skia.Data.MakeWithCopy(data))
    except RuntimeError:
        return None
    if codec is None:
        return None
    info = codec.getInfo()
    return info.width(), info.height()


def _fits(width: int, height: int) -> bool:
    return 0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE and width * height <= MAX_PIXELS


def _decode(data: bytes) -> Any:
    encoded = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(data))
    return encoded.makeRasterImage() if encoded is not None else None


def _data_uri(src: str) -> bytes | None:
    header, _, payload = src.partition(",")
    try:
        if header.endswith(";base64"):
            return base64.b64decode(payload, validate=False)
        return unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
