"""An RGB pixel array → PNG bytes.

Cards are mostly flat colour, which deflate packs well without PNG row filters. The
deflater is ISA-L's (the `isal` wheel) at its level 1: on our cards (benchmarks/bench_png.py)
it is ~8x faster than zlib level 1 for ~2% more bytes, and beats zlib-ng, libdeflate, fpng,
filtered rows and strips deflated in threads (docs/decisions/engine.md, "PNG encoding").
Its output is an ordinary
zlib stream, so every PNG reader takes it.

Rows are packed (alpha dropped, a filter byte before each) by numpy in a process that has
it loaded (`encode_rgb`, ~1 ms a default card), else in Python (`encode_rgba`, ~3 ms): a
one-card process such as `inkcard render` skips numpy's 60-100 ms import. Both write the
same bytes. Either packs and deflates a band of rows at a time, so encoding needs the
pixels and the compressed bytes, never a whole second copy of the card.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from isal import isal_zlib

if TYPE_CHECKING:
    import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # ISA-L levels run 0-3; 2 saves ~2% more bytes at ~1.5x the time
# Rows are packed and deflated a band at a time, so the filtered copy of a card (3 bytes a
# pixel: 300 MB for the largest) never exists whole; deflate keeps its state between bands.
BAND_BYTES = 4 << 20


@dataclass(frozen=True, slots=True)
class Deflated:
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


def encode_rgb(rgb: np.ndarray, level: int = LEVEL) -> bytes:
    """Encodes an (h, w, 3) uint8 array as an 8-bit truecolour PNG."""
    return deflate_rgb(rgb, level).png()


def encode_rgba(rgba: bytes | bytearray, width: int, height: int, level: int = LEVEL) -> bytes:
    """Encodes opaque RGBA pixels (`width` x `height`, rows packed) as the 8-bit truecolour
    PNG `encode_rgb` writes of their RGB, without numpy."""
    return deflate_rgba(rgba, width, height, level).png()


def deflate_rgb(rgb: np.ndarray, level: int = LEVEL) -> Deflated:
    """The rows of an (h, w, 3) uint8 array (often a view of RGBA pixels), deflated."""
    import numpy as np

    height, width, _ = rgb.shape

    def packed(start: int, stop: int) -> memoryview:
        raw = np.empty((stop - start, width * 3 + 1), np.uint8)
        raw[:, 0] = 0  # filter byte per row: None
        samples = raw[:, 1:].reshape(stop - start, width, 3)
        for channel in range(3):
            # One plane at a time: `rgb` is usually a view of RGBA pixels, and numpy copies a
            # strided (h, w, 3) block 3 bytes at a time, ~15x slower than three (h, w) planes.
            samples[:, :, channel] = rgb[start:stop, :, channel]
        return raw.data

    return Deflated(width, height, _deflate(width, height, packed, level))


def deflate_rgba(rgba: bytes | bytearray, width: int, height: int, level: int = LEVEL) -> Deflated:
    """The rows of opaque RGBA pixels (rows packed) as `deflate_rgb` deflates their RGB."""
    pixels = memoryview(rgba)
    row = width * 3

    def packed(start: int, stop: int) -> bytes:
        rgb = bytearray(row * (stop - start))
        band = pixels[start * width * 4 : stop * width * 4]
        for channel in range(3):  # a strided copy per channel, in C
            rgb[channel::3] = band[channel::4]
        rows = memoryview(rgb)
        return b"\0" + b"\0".join([rows[at : at + row] for at in range(0, len(rgb), row)])

    return Deflated(width, height, _deflate(width, height, packed, level))


def _deflate(
    width: int, height: int, packed: Callable[[int, int], bytes | memoryview], level: int
) -> list[bytes]:
    """The zlib stream of the filtered rows `packed(start, stop)` gives (RGB, each after its
    filter byte, None), deflated a band of about `BAND_BYTES` at a time."""
    deflate = isal_zlib.compressobj(level)
    step = max(1, BAND_BYTES // (width * 3 + 1))
    idat = [deflate.compress(packed(at, min(at + step, height))) for at in range(0, height, step)]
    idat.append(deflate.flush())
    return idat


def _chunk(kind: bytes, parts: list[bytes]) -> list[bytes]:
    """A chunk as its pieces (joined once, by the caller: the data may be large)."""
    crc = zlib.crc32(kind)
    for part in parts:
        crc = zlib.crc32(part, crc)
    length = sum(len(part) for part in parts)
    return [struct.pack(">I", length), kind, *parts, struct.pack(">I", crc & 0xFFFFFFFF)]
