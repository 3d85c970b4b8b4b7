"""A card's RGBA pixels → PNG bytes (8-bit truecolour: the alpha of an opaque card dropped).

Cards are mostly flat colour, which deflate packs well without PNG row filters. The
deflater is ISA-L's (the `isal` wheel) at its level 2: on our cards (benchmarks/bench_png.py)
it is several times faster than zlib level 1 for about as many bytes, and beats zlib-ng,
libdeflate, fpng, filtered rows and strips deflated in threads at equal time
(docs/decisions/engine.md, "PNG encoding"). Its output is an ordinary zlib stream, so every
PNG reader takes it.

Rows are packed (alpha dropped, a filter byte before each) by Pillow's raw encoder, or in
Python (~2.7 ms a default card) by a one-card process such as `inkcard render`, which skips
Pillow's import (encode.py decides). Both write the same bytes. Either packs and deflates a
band of rows at a time, so encoding needs the pixels and the compressed bytes, never a whole
second copy of the card.
"""

from __future__ import annotations

import functools
import struct
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec
from isal import isal_zlib

if TYPE_CHECKING:
    import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 2  # ISA-L levels run 0-3; on a card 2 is ~0.7% smaller than 1 for ~3% more time
# `small`: zlib at 6, for an operator who pays for storage more than CPU
# (INKCARD_PNG_COMPRESSION=small): the benchmark card 192 -> 153 KB (Chromium's 172) for
# ~40 ms more (docs/decisions/engine.md, "PNG encoding").
SMALL_LEVEL = 6
# Rows are packed and deflated a band at a time, so the filtered copy of a card (3 bytes a
# pixel: 300 MB for the largest) never exists whole; deflate keeps its state between bands.
# 1 MiB, not 4 as when numpy packed: Pillow's pieces of a band and their joined copy are
# each as large as the band (the benchmark card's PNG 197,405 -> 197,426 bytes).
BAND_BYTES = 1 << 20


class Deflated(msgspec.Struct, frozen=True):
    """An image's rows, filtered and deflated, as the pieces of its one IDAT chunk."""

    width: int
    height: int
    idat: list[bytes]

    def png(self) -> bytes:
        """The PNG file: the pieces joined once (the card's pixels may be gone by then)."""
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return b"".join(
            (
                SIGNATURE,
                *_chunk(b"IHDR", [header]),
                *_chunk(b"IDAT", self.idat),
                *_chunk(b"IEND", []),
            )
        )


def encode_rgb(rgb: np.ndarray, small: bool = False) -> bytes:
    """Encodes an (h, w, 3) uint8 array as an 8-bit truecolour PNG (tests and benchmarks
    hand arrays; cards are encoded from Skia's RGBA pixels by `deflate_rgba`)."""
    import numpy as np

    height, width, _ = rgb.shape
    rgba = np.dstack((rgb, np.full((height, width), 255, np.uint8)))
    return encode_rgba(bytearray(rgba.tobytes()), width, height, small)


def encode_rgba(rgba: bytes | bytearray, width: int, height: int, small: bool = False) -> bytes:
    """Encodes opaque RGBA pixels (`width` x `height`, rows packed) as an 8-bit truecolour
    PNG of their RGB."""
    return deflate_rgba(rgba, width, height, small).png()


def deflate_rgba(
    rgba: bytes | bytearray,
    width: int,
    height: int,
    small: bool = False,
    *,
    in_python: bool = False,
) -> Deflated:
    """The rows of opaque RGBA pixels (rows packed), alpha dropped, each after its filter
    byte (None), deflated: packed by Pillow, or by slices in Python (`in_python`: no import,
    for a process that draws a card or two and exits). The same bytes either way."""
    pixels = bytes(rgba) if isinstance(rgba, memoryview) else rgba
    pack = _packed_in_python if in_python else _packed_by_pillow
    rows = functools.partial(pack, pixels, width)
    return Deflated(width, height, _deflate(width, height, rows, small))


def _packed_by_pillow(pixels: bytes | bytearray, width: int, start: int, stop: int) -> bytes:
    """Rows `start:stop` as `_deflate` takes them (each row's RGB, then a zero), by Pillow's
    raw encoder: given a row stride one byte longer than the RGB, it writes the zero itself.
    ~0.4 ms a default card plus a copy, where numpy's word copy took ~0.5 ms for 10-14 MB
    more resident memory and Python takes ~2.7."""
    from PIL import Image

    stride = width * 4
    rows = memoryview(pixels)[start * stride : stop * stride]
    size = (width, stop - start)
    image = Image.frombuffer("RGBA", size, rows, "raw", "RGBA", 0, 1)  # type: ignore[arg-type]  # any buffer
    return image.tobytes("raw", "RGB", width * 3 + 1)


def _packed_in_python(pixels: bytes | bytearray, width: int, start: int, stop: int) -> bytearray:
    """Rows `start:stop` as `_packed_by_pillow` packs them, by slices in Python."""
    row, stride = width * 3, width * 4
    raw = bytearray((row + 1) * (stop - start))  # the zero after each row stays unwritten
    for at, source in enumerate(range(start * stride, stop * stride, stride)):
        first = at * (row + 1)
        for channel in range(3):
            # Row by row, each channel a strided slice of a bytes-like object (a copy in
            # C): ~2.7 ms a default card, where whole-band slices of a memoryview took
            # 8-22 ms (they go through a temporary per item, and the band leaves cache).
            raw[first + channel : first + row : 3] = pixels[source + channel : source + stride : 4]
    return raw


def _deflate(
    width: int,
    height: int,
    packed: Callable[[int, int], bytes | bytearray],
    small: bool,
) -> list[bytes]:
    """The zlib stream of the rows, each after its filter byte (None), deflated a band of
    about `BAND_BYTES` at a time. `packed(start, stop)` gives a band's rows each followed
    by a zero: after a first zero, that zero is the next row's filter byte (the last one
    is left out), so a packer writes what Pillow's raw encoder writes, without a copy."""
    deflate = zlib.compressobj(SMALL_LEVEL) if small else isal_zlib.compressobj(LEVEL)
    step = max(1, BAND_BYTES // (width * 3 + 1))
    idat = [deflate.compress(b"\0")]
    for at in range(0, height, step):
        band = packed(at, min(at + step, height))
        idat.append(deflate.compress(band if at + step < height else memoryview(band)[:-1]))
    idat.append(deflate.flush())
    return idat


def _chunk(kind: bytes, parts: list[bytes]) -> list[bytes]:
    """A chunk as its pieces (joined once, by the caller: the data may be large)."""
    crc = zlib.crc32(kind)
    for part in parts:
        crc = zlib.crc32(part, crc)
    length = sum(len(part) for part in parts)
    return [struct.pack(">I", length), kind, *parts, struct.pack(">I", crc & 0xFFFFFFFF)]
