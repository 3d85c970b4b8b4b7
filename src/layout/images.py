"""Image source + supplied bytes → a decoded raster image and its size, or None.

`data:` URIs are decoded here; any other source must come in the `images` mapping the
caller fetched (the engine does no I/O). One render wraps its images in `Images`: each
distinct source is decoded at most once however often the Markdown names it, and its size
is read from the header (`skia.Codec` parses only the header) before anything is decoded,
so a decompression bomb or a pile of large images is refused without being decoded.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes

import skia

MAX_PIXELS = 40_000_000  # ~ a 7,000 x 5,700 photo; larger is a placeholder, not decoded
MAX_SIDE = 16_384


class ImagesTooLarge(Exception):
    """The distinct images of one render would decode to more pixels than its budget."""

    def __init__(self, pixels: int, limit: int) -> None:
        super().__init__(f"the images would decode to {pixels:,} pixels, more than {limit:,}")
        self.pixels = pixels
        self.limit = limit


@dataclass(frozen=True, slots=True)
class DecodedImage:
    image: Any
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class _Admitted:
    """An image whose header was read and whose pixels were counted, not yet decoded."""

    data: bytes
    width: int
    height: int


class Images(Mapping[str, bytes]):
    """The images of one render: the caller's bytes, each distinct source decoded once.

    ``max_pixels`` bounds width × height summed over the distinct images that would be
    decoded; it is checked from headers, so the image that would overrun it is never decoded.
    """

    def __init__(self, supplied: Mapping[str, bytes], max_pixels: int | None = None) -> None:
        self._supplied = supplied
        self._max_pixels = max_pixels
        self._admitted: dict[str, _Admitted | None] = {}
        self._decoded: dict[str, DecodedImage | None] = {}
        self.pixels = 0
        """Pixels of the distinct images admitted so far."""

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
            self._admit(src)

    def decoded(self, src: str) -> DecodedImage | None:
        """The decoded image `src` names (decoded on first use); None when missing or bad.

        Raises:
            ImagesTooLarge: Decoding this image would take the render over its budget.
        """
        if src not in self._decoded:
            admitted = self._admit(src)
            self._decoded[src] = _decode(admitted) if admitted else None
        return self._decoded[src]

    def _admit(self, src: str) -> _Admitted | None:
        if src in self._admitted:
            return self._admitted[src]
        data = _data_uri(src) if src.startswith("data:") else self._supplied.get(src)
        size = header_size(data) if data else None
        admitted = _Admitted(data, *size) if data and size and _fits(*size) else None
        if admitted is not None:
            pixels = self.pixels + admitted.width * admitted.height
            if self._max_pixels is not None and pixels > self._max_pixels:
                raise ImagesTooLarge(pixels, self._max_pixels)  # not recorded: stays refused
            self.pixels = pixels
        self._admitted[src] = admitted
        return admitted


def load(src: str, images: Mapping[str, bytes]) -> DecodedImage | None:
    """Decodes the image a Markdown source names; None when it is missing, bad or too big.

    Given the `Images` of a render (what `layout.render` hands down), the decode is shared
    with every other use of the same source in that render.
    """
    cache = images if isinstance(images, Images) else Images(images)
    return cache.decoded(src)


def decode(data: bytes) -> DecodedImage | None:
    """One image's bytes decoded; None when bad or over the size limits (read from the header)."""
    size = header_size(data)
    if size is None or not _fits(*size):
        return None
    return _decode(_Admitted(data, *size))


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


def _decode(admitted: _Admitted) -> DecodedImage | None:
    encoded = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(admitted.data))
    raster = encoded.makeRasterImage() if encoded is not None else None
    if raster is None:
        return None
    return DecodedImage(raster, admitted.width, admitted.height)


def _data_uri(src: str) -> bytes | None:
    header, _, payload = src.partition(",")
    try:
        if header.endswith(";base64"):
            return base64.b64decode(payload, validate=False)
        return unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
