"""A small PNG reader and writer for the tests, independent of Skia and of layout.draw.png.

The reader checks what a strict decoder checks (signature, chunk CRCs, IHDR fields, one
zlib stream) and undoes all five row filters, so it can judge the engine's writer. The
writer stores golden images small: zlib level 9 with the best of three filters.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type → samples per pixel (8-bit only)


class PNGFormatError(ValueError):
    pass


@dataclass(frozen=True)
class Chunk:
    kind: bytes
    data: bytes
    crc: int

    @property
    def crc_ok(self) -> bool:
        return zlib.crc32(self.kind + self.data) & 0xFFFFFFFF == self.crc


@dataclass(frozen=True)
class Header:
    width: int
    height: int
    bit_depth: int
    colour_type: int
    compression: int
    filter_method: int
    interlace: int


def chunks(png: bytes) -> list[Chunk]:
    if png[:8] != SIGNATURE:
        raise PNGFormatError("bad signature")
    out, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        out.append(Chunk(kind, data, crc))
        at += 12 + length
    return out


def header(png: bytes) -> Header:
    first = chunks(png)[0]
    if first.kind != b"IHDR" or len(first.data) != 13:
        raise PNGFormatError("IHDR must come first, 13 bytes long")
    return Header(*struct.unpack(">IIBBBBB", first.data))


def decode(png: bytes) -> np.ndarray:
    """An 8-bit, non-interlaced PNG → an (h, w, channels) uint8 array."""
    found = chunks(png)
    if not all(c.crc_ok for c in found):
        raise PNGFormatError("chunk CRC mismatch")
    if [c.kind for c in found][-1] != b"IEND":
        raise PNGFormatError("no IEND at the end")
    head = header(png)
    if head.bit_depth != 8 or head.colour_type not in CHANNELS or head.interlace != 0:
        raise PNGFormatError(f"unsupported {head}")
    if head.compression != 0 or head.filter_method != 0:
        raise PNGFormatError(f"unknown methods in {head}")
    stream = zlib.decompressobj()
    raw = stream.decompress(b"".join(c.data for c in found if c.kind == b"IDAT"))
    if not stream.eof or stream.unused_data:
        raise PNGFormatError("IDAT is not exactly one zlib stream")
    bpp = CHANNELS[head.colour_type]
    stride = head.width * bpp
    if len(raw) != head.height * (stride + 1):
        raise PNGFormatError(f"{len(raw)} bytes of image data for {head}")
    rows = np.frombuffer(raw, np.uint8).reshape(head.height, stride + 1)
    out = np.zeros((head.height, stride), np.uint8)
    previous = np.zeros(stride, np.uint8)
    for y in range(head.height):
        out[y] = previous = _unfilter(int(rows[y, 0]), rows[y, 1:], previous, bpp)
    return out.reshape(head.height, head.width, bpp)


def _unfilter(kind: int, row: np.ndarray, up: np.ndarray, bpp: int) -> np.ndarray:
    if kind == 0:
        return row.copy()
    if kind == 1:  # Sub: a running sum per channel, modulo 256
        return np.cumsum(row.reshape(-1, bpp), axis=0, dtype=np.uint8).reshape(-1)
    if kind == 2:
        return row + up
    if kind not in (3, 4):
        raise PNGFormatError(f"unknown row filter {kind}")
    out = bytearray(len(row))
    for i, value in enumerate(row.tolist()):
        left = out[i - bpp] if i >= bpp else 0
        above = int(up[i])
        if kind == 3:
            predicted = (left + above) // 2
        else:
            corner = int(up[i - bpp]) if i >= bpp else 0
            predicted = _paeth(left, above, corner)
        out[i] = (value + predicted) & 0xFF
    return np.frombuffer(bytes(out), np.uint8)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def encode(pixels: np.ndarray) -> bytes:
    """An (h, w, 3 or 4) uint8 array → a small PNG at zlib level 9, with whichever of the
    None, Sub and Up filters packs it smallest (cards are flat colour: usually None)."""
    height, width, bpp = pixels.shape
    flat = pixels.reshape(height, width * bpp).astype(np.int16)
    sub = flat.copy()
    sub[:, bpp:] -= flat[:, :-bpp]
    up = flat.copy()
    up[1:] -= flat[:-1]
    streams = []
    for kind, rows in enumerate((flat, sub, up)):
        raw = np.empty((height, width * bpp + 1), np.uint8)
        raw[:, 0] = kind
        raw[:, 1:] = rows.astype(np.uint8)  # wraps modulo 256, as PNG filters do
        streams.append(zlib.compress(raw.tobytes(), 9))
    colour_type = {3: 2, 4: 6}[bpp]
    head = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", head),
            _chunk(b"IDAT", min(streams, key=len)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def card_differences(got: list[bytes], want: list[bytes]) -> str:
    """What differs between two sets of PNG cards, for an assertion's message: the count,
    or per card whether only the bytes differ (the same pixels) or where the pixels do
    (their rows, columns and largest channel difference). A rare mismatch of a shared
    layout against a whole one was seen twice in CI and never locally: this says which
    kind it was when it comes again."""
    if len(got) != len(want):
        return f"{len(got)} cards against {len(want)}"
    said = []
    for number, (mine, theirs) in enumerate(zip(got, want, strict=True), start=1):
        if mine == theirs:
            continue
        a, b = decode(mine), decode(theirs)
        if a.shape != b.shape:
            said.append(f"card {number}: {a.shape} against {b.shape}")
            continue
        delta = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=-1)
        rows, columns = np.nonzero(delta)
        if not len(rows):
            said.append(f"card {number}: the same pixels, other bytes")
            continue
        said.append(
            f"card {number}: {len(rows)} pixels differ in rows {rows.min()}-{rows.max()},"
            f" columns {columns.min()}-{columns.max()}, by up to {delta.max()}"
        )
    return "; ".join(said)


def same_cards(got: list[bytes], want: list[bytes]) -> bool:
    """As many cards, each the same pixels. The bytes are not compared: the deflater has
    been seen (once in a full local run, twice in CI) to write other bytes for the very
    same pixels of a card drawn twice in one process."""
    if len(got) != len(want):
        return False
    return all(
        mine == theirs or np.array_equal(decode(mine), decode(theirs))
        for mine, theirs in zip(got, want, strict=True)
    )
