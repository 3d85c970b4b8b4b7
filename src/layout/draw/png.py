"""An RGB pixel array → PNG bytes.

Cards are mostly flat colour, which deflate packs well without PNG row filters. The
deflater is ISA-L's (the `isal` wheel) at its level 2: on our cards (benchmarks/bench_png.py)
it is several times faster than zlib level 1 for about as many bytes, and beats zlib-ng,
libdeflate, fpng, filtered rows and strips deflated in threads at equal time
(docs/decisions/engine.md, "PNG encoding"). Its output is an ordinary zlib stream, so every
PNG reader takes it.

Rows are packed (alpha dropped, a filter byte before each) by numpy (`encode_rgb`, ~0.3 ms
a default card), or in Python (`encode_rgba`, ~2.7 ms) by a one-card process such as
`inkcard render`, which skips numpy's 60-100 ms import (encode.py decides). Both write the
same bytes. Either packs and deflates a band of rows at a time, so encoding needs the
pixels and the compressed bytes, never a whole second copy of the card.
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
BAND_BYTES = 4 << 20


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
    """Encodes an (h, w, 3) uint8 array as an 8-bit truecolour PNG."""
    return deflate_rgb(rgb, small).png()


def encode_rgba(rgba: bytes | bytearray, width: int, height: int, small: bool = False) -> bytes:
    """Encodes opaque RGBA pixels (`width` x `height`, rows packed) as the 8-bit truecolour
    PNG `encode_rgb` writes of their RGB, without numpy."""
    return deflate_rgba(rgba, width, height, small).png()


def deflate_rgb(rgb: np.ndarray, small: bool = False) -> Deflated:
    """The rows of an (h, w, 3) uint8 array (often a view of RGBA pixels), deflated."""
    height, width, _ = rgb.shape
    pack = _band_packer(rgb)

    def packed(start: int, stop: int) -> memoryview:
        return pack(start, stop).data

    return Deflated(width, height, _deflate(width, height, packed, small))


def _band_packer(rgb: np.ndarray) -> Callable[[int, int], np.ndarray]:
    """How to copy rows `start:stop` of `rgb` into filtered rows (filter byte None, then
    RGB): the fastest way its memory layout allows; every way writes the same bytes."""
    rgbx = _rgbx_base(rgb)
    if rgbx is not None and _word_copy_ascends():
        return functools.partial(_packed_by_words, rgbx)
    return functools.partial(_packed_by_channel, rgb)


def _packed_by_words(rgbx: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Rows of Skia's packed RGBA pixels, ~3x faster than `_packed_by_channel`: each pixel
    is copied as one 4-byte word to 3 bytes past the last, so its alpha byte lands where
    the next pixel's red is written right after (the last row's spills into a spare byte)."""
    import numpy as np

    rows, width = stop - start, rgbx.shape[1]
    row = width * 3 + 1
    spare = np.empty(rows * row + 1, np.uint8)
    words = rgbx[start:stop].view(np.uint32).reshape(rows, width)
    np.ndarray((rows, width), np.uint32, spare, 1, (row, 3))[...] = words
    raw = spare[:-1].reshape(rows, row)
    raw[:, 0] = 0  # after the copy: a row's last word spilled over the next row's filter byte
    return raw


def _packed_by_channel(rgb: np.ndarray, start: int, stop: int) -> np.ndarray:
    import numpy as np

    rows, width = stop - start, rgb.shape[1]
    raw = np.empty((rows, width * 3 + 1), np.uint8)
    raw[:, 0] = 0
    samples = raw[:, 1:].reshape(rows, width, 3)
    for channel in range(3):
        # One plane at a time: numpy copies a strided (h, w, 3) block 3 bytes at a time,
        # ~15x slower than three (h, w) planes.
        samples[:, :, channel] = rgb[start:stop, :, channel]
    return raw


def _rgbx_base(rgb: np.ndarray) -> np.ndarray | None:
    """The packed (h, w, 4) uint8 array whose first three channels `rgb` is, if it is one."""
    base = rgb.base
    if base is None or getattr(base, "shape", None) != (*rgb.shape[:2], 4):
        return None
    if base.dtype != rgb.dtype or not base.flags.c_contiguous or rgb.strides != base.strides:
        return None
    return base if rgb.ctypes.data == base.ctypes.data else None


@functools.cache
def _word_copy_ascends() -> bool:
    """Whether this numpy copies into overlapping words in ascending memory order, as
    `_packed_by_words` needs: checked once on a small card (were it otherwise, rows would
    be copied by channel, never written wrong)."""
    import numpy as np

    rgbx = np.arange(3 * 5 * 4, dtype=np.uint8).reshape(3, 5, 4)
    words, channels = _packed_by_words(rgbx, 0, 3), _packed_by_channel(rgbx[:, :, :3], 0, 3)
    return bool(np.array_equal(words, channels))


def deflate_rgba(rgba: bytes | bytearray, width: int, height: int, small: bool = False) -> Deflated:
    """The rows of opaque RGBA pixels (rows packed) as `deflate_rgb` deflates their RGB."""
    pixels = bytes(rgba) if isinstance(rgba, memoryview) else rgba
    row, stride = width * 3, width * 4

    def packed(start: int, stop: int) -> bytearray:
        raw = bytearray((row + 1) * (stop - start))  # filter bytes None (0) where unwritten
        for at, source in enumerate(range(start * stride, stop * stride, stride)):
            first = at * (row + 1) + 1
            for channel in range(3):
                # Row by row, each channel a strided slice of a bytes-like object (a copy in
                # C): ~2.7 ms a default card, where whole-band slices of a memoryview took
                # 8-22 ms (they go through a temporary per item, and the band leaves cache).
                raw[first + channel : first + row : 3] = pixels[
                    source + channel : source + stride : 4
                ]
        return raw

    return Deflated(width, height, _deflate(width, height, packed, small))


def _deflate(
    width: int,
    height: int,
    packed: Callable[[int, int], bytes | bytearray | memoryview],
    small: bool,
) -> list[bytes]:
    """The zlib stream of the filtered rows `packed(start, stop)` gives (RGB, each after its
    filter byte, None), deflated a band of about `BAND_BYTES` at a time."""
    deflate = zlib.compressobj(SMALL_LEVEL) if small else isal_zlib.compressobj(LEVEL)
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
