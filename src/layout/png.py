"""An RGB pixel array → PNG bytes.

Skia's own PNG encoder spends ~70 ms on an 880x1172 card (zlib level 6 with adaptive
filters); cards are mostly flat colour, which zlib level 1 without row filters packs
about as small, in a third of the time.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_LEVEL = 1


def encode_rgb(rgb: np.ndarray, level: int = ZLIB_LEVEL) -> bytes:
    """Encodes an (h, w, 3) uint8 array as an 8-bit truecolour PNG."""
    height, width, _ = rgb.shape
    raw = np.zeros((height, width * 3 + 1), np.uint8)  # filter byte 0 (None) per row
    raw[:, 1:] = rgb.reshape(height, width * 3)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(raw.data, level)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )
