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
same bytes.
"""

from __future__ import annotations

import struct
import zlib
from typing import TYPE_CHECKING

from isal import isal_zlib

if TYPE_CHECKING:
    import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # ISA-L levels run 0-3; 2 saves ~2% more bytes at ~1.5x the time


def encode_rgb(rgb: np.ndarray, level: int = LEVEL) -> bytes:
    """Encodes an (h, w, 3) uint8 array as an 8-bit truecolour PNG."""
    import numpy as np

    height, width, _ = rgb.shape
    raw = np.empty((height, width * 3 + 1), np.uint8)
    raw[:, 0] = 0  # filter byte per row: None
    samples = raw[:, 1:].reshape(height, width, 3)
    for channel in range(3):
        # One plane at a time: `rgb` is usually a view of RGBA pixels, and numpy copies a
        # strided (h, w, 3) block 3 bytes at a time, ~15x slower than three (h, w) planes.
        samples[:, :, channel] = rgb[:, :, channel]
    return _png(width, height, raw.data, level)


def encode_rgba(rgba: bytes | bytearray, width: int, height: int, level: int = LEVEL) -> bytes:
    """Encodes opaque RGBA pixels (`width` x `height`, rows packed) as the 8-bit truecolour
    PNG `encode_rgb` writes of their RGB, without numpy."""
    rgb = bytearray(width * height * 3)
    for channel in range(3):  # a strided copy per channel, in C
        rgb[channel::3] = rgba[channel::4]
    row = width * 3
    rows = memoryview(rgb)
    raw = b"\0" + b"\0".join([rows[start : start + row] for start in range(0, len(rgb), row)])
    return _png(width, height, raw, level)


def _png(width: int, height: int, raw: bytes | memoryview, level: int) -> bytes:
    """The PNG of `raw`: rows of RGB, each after its filter byte (None)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", isal_zlib.compress(raw, level)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)) & 0xFFFFFFFF)
    )
