"""Image source + supplied bytes → a decoded raster image and its size, or None.

`data:` URIs are decoded here; any other source must come in the `images` mapping the
caller fetched (the engine does no I/O). The pixel count is read from the header before
decoding, so a decompression bomb is refused without being decoded.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes

import skia

MAX_PIXELS = 40_000_000  # ~ a 7,000 x 5,700 photo; larger is refused, not decoded
MAX_SIDE = 16_384


@dataclass(frozen=True, slots=True)
class DecodedImage:
    image: Any
    width: int
    height: int


def load(src: str, images: Mapping[str, bytes]) -> DecodedImage | None:
    """Decodes the image a Markdown source names; None when it is missing or bad."""
    data = _data_uri(src) if src.startswith("data:") else images.get(src)
    return decode(data) if data else None


def decode(data: bytes) -> DecodedImage | None:
    try:
        codec = skia.Codec.MakeFromData(skia.Data.MakeWithCopy(data))
    except RuntimeError:
        return None
    info = codec.getInfo()
    width, height = info.width(), info.height()
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE) or width * height > MAX_PIXELS:
        return None
    encoded = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(data))
    raster = encoded.makeRasterImage() if encoded is not None else None
    return DecodedImage(raster, width, height) if raster is not None else None


def _data_uri(src: str) -> bytes | None:
    header, _, payload = src.partition(",")
    try:
        if header.endswith(";base64"):
            return base64.b64decode(payload, validate=False)
        return unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
