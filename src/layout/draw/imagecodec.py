"""Encoded image bytes → JPEG or PNG bytes under a byte limit (pure bytes in, bytes out).

The WeChat platform takes only JPEG/PNG under 1 MB for images inside an article and at most
10 MB for the cover, so every image is re-encoded here: WebP, GIF (first frame), BMP and
oversize images are converted, never passed through (re-encoding also drops metadata such
as EXIF locations). The size is read from the header before anything is decoded, so a
decompression bomb (a few kilobytes that would decode to gigabytes) is refused unread.
"""

from __future__ import annotations

import math
from typing import Any, Final

import msgspec
import skia

from ..errors import ImageRejected as ImageRejected

MAX_SIDE: Final = 8192
MAX_PIXELS: Final = 40_000_000  # 160 MB as RGBA; larger is refused without decoding
MAX_FRAMES: Final = 200  # animations: only frame 0 is used, but huge frame counts are refused
MIN_SIDE: Final = 16  # downscaling stops here; an image that still does not fit is refused
JPEG_QUALITIES: Final = (88, 75)  # tried at each size before shrinking the pixels

ARTICLE_IMAGE_BYTES: Final = 1_000_000  # uploadimg: "under 1 MB"
COVER_IMAGE_BYTES: Final = 10_000_000  # add_material type=image: 10 MB

_SIGNATURES: Final = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"BM", "bmp"),
)


class ImageInfo(msgspec.Struct, frozen=True):
    """What the header says, read without decoding pixels."""

    format: str  # png, jpeg, gif, webp or bmp
    width: int
    height: int
    frames: int
    opaque: bool  # the header declares no alpha channel


class EncodedImage(msgspec.Struct, frozen=True):
    """Re-encoded image bytes ready for upload."""

    data: bytes
    format: str  # png or jpeg
    width: int
    height: int

    @property
    def extension(self) -> str:
        """File extension the platform expects in the upload's filename."""
        return "jpg" if self.format == "jpeg" else "png"


MEAN_SIDE = 16  # the image is averaged down to this many pixels a side (mipmapped)


def sniff(data: bytes) -> str | None:
    """The image format named by the magic bytes, or None (SVG and text are None)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    for signature, name in _SIGNATURES:
        if data.startswith(signature):
            return name
    return None


def probe(data: bytes) -> ImageInfo:
    """Format, size, frame count and opacity from the header alone.

    Raises:
        ImageRejected: Not PNG/JPEG/GIF/WebP/BMP, unreadable, or over the size limits.
    """
    kind = sniff(data)
    if kind is None:
        raise ImageRejected("not a PNG, JPEG, GIF, WebP or BMP image")
    codec = _codec(data)
    info = codec.getInfo()
    width, height = int(info.width()), int(info.height())
    if width <= 0 or height <= 0:
        raise ImageRejected("the image has no pixels")
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise ImageRejected(
            f"the image is {width}×{height} pixels; at most {MAX_SIDE} per side and"
            f" {MAX_PIXELS // 1_000_000} million in all are accepted"
        )
    frames = int(codec.getFrameCount())
    if frames > MAX_FRAMES:
        raise ImageRejected(f"the animation has {frames} frames; at most {MAX_FRAMES}")
    opaque = info.alphaType() == skia.AlphaType.kOpaque_AlphaType
    return ImageInfo(kind, width, height, max(frames, 1), opaque)


def fit(data: bytes, max_bytes: int) -> EncodedImage:
    """Re-encode ``data`` as JPEG (opaque) or PNG (with transparency) of at most ``max_bytes``.

    JPEG first steps down its quality; then the pixels shrink in proportion to the overshoot
    until the result fits.

    Raises:
        ImageRejected: ``probe`` refused the bytes, decoding failed, or even a
            ``MIN_SIDE``-pixel version does not fit.
    """
    info = probe(data)
    original = _decode(data)
    kind = "jpeg" if info.opaque or _every_pixel_opaque(original) else "png"
    qualities = JPEG_QUALITIES if kind == "jpeg" else (100,)
    width, height = info.width, info.height
    while True:
        image = original if width == info.width else _resize(original, width, height)
        for quality in qualities:
            encoded = _encode(image, kind, quality)
            if len(encoded) <= max_bytes:
                return EncodedImage(encoded, kind, width, height)
        if min(width, height) <= MIN_SIDE:
            raise ImageRejected(f"the image cannot be made smaller than {max_bytes} bytes")
        # Bytes grow roughly with the pixel count, so scale each side by the root of the overshoot.
        factor = min(0.9, 0.95 * math.sqrt(max_bytes / len(encoded)))
        width, height = _shrunk(width, height, factor)


def mean_colour(data: bytes) -> int:
    """The image's mean colour (opaque ARGB), transparent parts taken as white: what text
    drawn over it meets on average (a brand kit's background, checked for contrast).

    Raises:
        ImageRejected: ``probe`` refused the bytes, or decoding failed.
    """
    pixels = _shrunk_rgba(data)
    red, green, blue = (round(float(pixels[..., i].mean())) for i in range(3))
    return 0xFF000000 | red << 16 | green << 8 | blue


def tones(data: bytes) -> tuple[int, ...]:
    """The image's colours at `MEAN_SIDE` x `MEAN_SIDE` (mipmapped; opaque ARGB, row by row,
    transparent parts taken as white): what text drawn over it meets, place by place, for
    a brand kit's background wash (`pages.marks.brandwash.wash_alpha`).

    Raises:
        ImageRejected: ``probe`` refused the bytes, or decoding failed.
    """
    pixels = _shrunk_rgba(data)
    return tuple(
        0xFF000000 | int(r) << 16 | int(g) << 8 | int(b)
        for r, g, b in pixels[..., :3].reshape(-1, 3).tolist()
    )


def _shrunk_rgba(data: bytes) -> Any:
    """The image drawn on white at `MEAN_SIDE` a side, as RGBA rows."""
    probe(data)
    image = _decode(data)
    surface = skia.Surface(MEAN_SIDE, MEAN_SIDE)
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorWHITE)
    sampling = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kLinear)
    rect = skia.Rect.MakeWH(MEAN_SIDE, MEAN_SIDE)
    canvas.drawImageRect(image.withDefaultMipmaps(), rect, sampling)
    return surface.makeImageSnapshot().toarray(colorType=skia.ColorType.kRGBA_8888_ColorType)


def _shrunk(width: int, height: int, factor: float) -> tuple[int, int]:
    scale = max(factor, MIN_SIDE / min(width, height))
    return max(MIN_SIDE, round(width * scale)), max(MIN_SIDE, round(height * scale))


def _codec(data: bytes) -> Any:
    try:
        return skia.Codec.MakeFromData(skia.Data.MakeWithCopy(data))
    except RuntimeError:
        raise ImageRejected("the image data is damaged or incomplete") from None


def _decode(data: bytes) -> Any:
    encoded = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(data))
    raster = encoded.makeRasterImage() if encoded is not None else None
    if raster is None:
        raise ImageRejected("the image data is damaged or incomplete")
    return raster


def _every_pixel_opaque(image: Any) -> bool:
    # Headers often declare an alpha channel nobody uses (screenshots, WebP from browsers):
    # such images go out as JPEG, which is far smaller for photos.
    pixels = image.toarray(colorType=skia.ColorType.kRGBA_8888_ColorType)
    return bool(pixels[..., 3].min() == 255)


def _resize(image: Any, width: int, height: int) -> Any:
    # Mipmaps keep a large reduction from aliasing (plain bilinear skips source pixels).
    sampling = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kLinear)
    return image.withDefaultMipmaps().resize(width, height, sampling)


def _encode(image: Any, kind: str, quality: int) -> bytes:
    fmt = skia.EncodedImageFormat.kJPEG if kind == "jpeg" else skia.EncodedImageFormat.kPNG
    data = image.encodeToData(fmt, quality)
    if data is None:
        raise ImageRejected(f"the image could not be encoded as {kind.upper()}")
    return bytes(data)
