"""Image conversion for the platform's upload limits; test images are drawn here with skia."""

from __future__ import annotations

import random
import struct
import zlib

import pytest
import skia

from inkcard.layout.draw.imagecodec import (
    ARTICLE_IMAGE_BYTES,
    MAX_PIXELS,
    ImageRejected,
    fit,
    probe,
    sniff,
)


def drawing(width: int, height: int, *, transparent: bool = False, shapes: int = 40) -> skia.Image:
    """Random coloured discs: photo-like enough that size tracks the pixel count."""
    surface = skia.Surface(width, height)
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT if transparent else skia.ColorWHITE)
    rnd = random.Random(width * 7 + height)
    for _ in range(shapes):
        color = skia.Color(rnd.randrange(256), rnd.randrange(256), rnd.randrange(256))
        canvas.drawCircle(
            rnd.uniform(0, width), rnd.uniform(0, height), rnd.uniform(4, width / 6),
            skia.Paint(Color=color, AntiAlias=True),
        )  # fmt: skip
    return surface.makeImageSnapshot()


def encoded(image: skia.Image, kind: skia.EncodedImageFormat, quality: int = 90) -> bytes:
    return bytes(image.encodeToData(kind, quality))


def noise_png(width: int, height: int, *, opaque: bool = True) -> bytes:
    """Random pixels (and alpha): incompressible, so a modest size is megabytes as PNG."""
    rnd = random.Random(5)
    pixels = rnd.randbytes(width * height * 4)
    alpha = skia.AlphaType.kOpaque_AlphaType if opaque else skia.AlphaType.kUnpremul_AlphaType
    info = skia.ImageInfo.Make(width, height, skia.ColorType.kRGBA_8888_ColorType, alpha)
    image = skia.Image.MakeRasterData(info, pixels, width * 4)
    return encoded(image, skia.EncodedImageFormat.kPNG, 100)


def gif(width: int, height: int) -> bytes:
    """A striped GIF (skia cannot encode GIF on Linux): 128-colour palette, 8-bit LZW codes
    with a clear code every 100 pixels, so no compression is needed and codes stay bytes."""
    palette = bytes(c for i in range(128) for c in ((i * 2) % 256, 40, 255 - i * 2))
    pixels = [(x // 10 + y // 10) % 128 for y in range(height) for x in range(width)]
    codes = bytearray()
    for start in range(0, len(pixels), 100):
        codes.append(128)  # clear
        codes.extend(pixels[start : start + 100])
    codes.append(129)  # end of information
    blocks = b"".join(
        bytes([len(codes[i : i + 255])]) + codes[i : i + 255] for i in range(0, len(codes), 255)
    )
    header = b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF6, 0, 0) + palette
    descriptor = b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0)
    return header + descriptor + b"\x07" + blocks + b"\x00\x3b"


def png_header_only(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width``×``height`` (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    rows = zlib.compress(b"\x00" * (width + 1) * 4)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def decoded_size(data: bytes) -> tuple[int, int]:
    image = skia.Image.MakeFromEncoded(skia.Data.MakeWithCopy(data)).makeRasterImage()
    return image.width(), image.height()


def test_sniff_knows_the_formats_by_their_magic_bytes() -> None:
    image = drawing(20, 10)
    assert sniff(encoded(image, skia.EncodedImageFormat.kPNG)) == "png"
    assert sniff(encoded(image, skia.EncodedImageFormat.kJPEG)) == "jpeg"
    assert sniff(encoded(image, skia.EncodedImageFormat.kWEBP)) == "webp"
    assert sniff(gif(20, 10)) == "gif"
    assert sniff(b"<svg xmlns='http://www.w3.org/2000/svg'/>") is None


def test_probe_reads_the_header() -> None:
    info = probe(encoded(drawing(320, 200), skia.EncodedImageFormat.kWEBP))
    assert (info.format, info.width, info.height, info.frames) == ("webp", 320, 200, 1)
    info = probe(gif(64, 48))
    assert (info.format, info.width, info.height) == ("gif", 64, 48)


def test_webp_becomes_jpeg() -> None:
    webp = encoded(drawing(400, 300), skia.EncodedImageFormat.kWEBP)
    result = fit(webp, ARTICLE_IMAGE_BYTES)
    assert result.format == "jpeg" and result.extension == "jpg"
    assert sniff(result.data) == "jpeg"
    assert decoded_size(result.data) == (400, 300) == (result.width, result.height)


def test_transparent_webp_becomes_png() -> None:
    webp = encoded(drawing(200, 100, transparent=True), skia.EncodedImageFormat.kWEBP)
    result = fit(webp, ARTICLE_IMAGE_BYTES)
    assert (result.format, sniff(result.data)) == ("png", "png")
    assert decoded_size(result.data) == (200, 100)


def test_gif_becomes_a_still_jpeg() -> None:
    result = fit(gif(120, 80), ARTICLE_IMAGE_BYTES)
    assert sniff(result.data) == "jpeg"
    assert decoded_size(result.data) == (120, 80)


def test_an_oversize_image_is_shrunk_under_the_limit() -> None:
    big = noise_png(1600, 1200)
    assert len(big) > 5 * ARTICLE_IMAGE_BYTES
    result = fit(big, ARTICLE_IMAGE_BYTES)
    assert len(result.data) <= ARTICLE_IMAGE_BYTES
    assert sniff(result.data) == "jpeg"  # opaque: JPEG, the format that can fit
    assert result.width < 1600  # even the lowest JPEG quality needed fewer pixels
    assert abs(result.width / result.height - 4 / 3) < 0.01  # the shape is kept
    assert decoded_size(result.data) == (result.width, result.height)


def test_a_transparent_oversize_image_stays_png_and_shrinks() -> None:
    data = noise_png(600, 400, opaque=False)
    limit = len(data) // 3
    result = fit(data, limit)
    assert result.format == "png" and len(result.data) <= limit
    assert result.width < 600


def test_an_image_that_fits_keeps_its_pixels() -> None:
    png = encoded(drawing(300, 200), skia.EncodedImageFormat.kPNG)
    result = fit(png, ARTICLE_IMAGE_BYTES)
    assert (result.width, result.height) == (300, 200)


@pytest.mark.parametrize(("width", "height"), [(30_000, 30_000), (9000, 10), (7000, 7000)])
def test_decoding_bombs_are_refused_from_the_header(width: int, height: int) -> None:
    bomb = png_header_only(width, height)
    assert len(bomb) < 10_000
    assert width * height > MAX_PIXELS or max(width, height) > 8192
    with pytest.raises(ImageRejected) as refused:
        fit(bomb, ARTICLE_IMAGE_BYTES)
    assert f"{width}×{height}" in str(refused.value)


@pytest.mark.parametrize(
    "data", [b"<svg xmlns='http://www.w3.org/2000/svg'/>", b"\x89PNG\r\n\x1a\nbroken", b""]
)
def test_what_is_not_an_image_is_refused(data: bytes) -> None:
    with pytest.raises(ImageRejected):
        fit(data, ARTICLE_IMAGE_BYTES)
