"""An encoded card + an AI-content label (`base.aigc.Aigc`) → the same file with the label's
implicit form in its metadata; the pixels are not encoded again.

- PNG: two `iTXt` chunks before `IEND`: keyword `AIGC` holding the standard's record as JSON,
  and `XML:com.adobe.xmp` holding the XMP packet (the `TC260:AIGC` property).
- JPEG: the XMP packet in an APP1 segment after the JFIF header.
- WebP: the XMP packet in an `XMP ` chunk, the file made the extended format (`VP8X`) that
  carries one.
- PDF: an incremental update, as PDF allows any writer to append: the document
  information dictionary again with an `AIGC` entry (the JSON), and the catalog again with
  the XMP packet as its metadata stream.

Each is appended in place of nothing else: a reader that does not know the label ignores it.
"""

from __future__ import annotations

import struct
import zlib

from ..base.aigc import Aigc, record_json, xmp_packet

XMP_KEYWORD = b"XML:com.adobe.xmp"  # the PNG iTXt keyword XMP readers look for
JPEG_XMP = b"http://ns.adobe.com/xap/1.0/\0"  # the APP1 segment's XMP signature
VP8X_XMP = 0x04  # the VP8X flag of a WebP file with an XMP chunk


def labelled(data: bytes, codec: str, aigc: Aigc, size: tuple[int, int]) -> bytes:
    """`data` (a `codec` file: png, jpeg, webp or pdf; `size` its pixels, for WebP) with the
    label's metadata."""
    if codec == "png":
        return png_labelled(data, aigc)
    if codec == "jpeg":
        return jpeg_labelled(data, aigc)
    if codec == "webp":
        return webp_labelled(data, aigc, size)
    return pdf_labelled(data, aigc)


def png_labelled(png: bytes, aigc: Aigc) -> bytes:
    """The PNG with the record and the XMP packet as `iTXt` chunks just before `IEND`."""
    end = len(png) - 12  # IEND: length, type, CRC and no data
    if png[end + 4 : end + 8] != b"IEND":
        raise ValueError("not a PNG ending in IEND")
    chunks = _itxt(b"AIGC", record_json(aigc).encode()) + _itxt(XMP_KEYWORD, xmp_packet(aigc))
    return png[:end] + chunks + png[end:]


def _itxt(keyword: bytes, text: bytes) -> bytes:
    """An uncompressed iTXt chunk: keyword, no compression, no language, UTF-8 text."""
    data = keyword + b"\0\0\0\0\0" + text
    crc = zlib.crc32(data, zlib.crc32(b"iTXt")) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + b"iTXt" + data + struct.pack(">I", crc)


def jpeg_labelled(jpeg: bytes, aigc: Aigc) -> bytes:
    """The JPEG with an XMP APP1 segment after SOI and the JFIF APP0 segment (if any)."""
    if jpeg[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG")
    at = 2
    if jpeg[2:4] == b"\xff\xe0":  # APP0 (JFIF) stays first, as JFIF readers expect
        at = 4 + struct.unpack(">H", jpeg[4:6])[0]
    payload = JPEG_XMP + xmp_packet(aigc)
    segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return jpeg[:at] + segment + jpeg[at:]


def webp_labelled(webp: bytes, aigc: Aigc, size: tuple[int, int]) -> bytes:
    """The WebP as the extended format with an `XMP ` chunk last (`size`: its pixels, the
    canvas of a `VP8X` header that a simple file lacks)."""
    if webp[:4] != b"RIFF" or webp[8:12] != b"WEBP":
        raise ValueError("not a WebP")
    body = webp[12:]
    if body[:4] == b"VP8X":
        flags = body[8] | VP8X_XMP
        body = body[:8] + bytes([flags]) + body[9:]
    else:
        width, height = size
        canvas = (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
        body = b"VP8X" + struct.pack("<I", 10) + bytes([VP8X_XMP, 0, 0, 0]) + canvas + body
    packet = xmp_packet(aigc)
    body += b"XMP " + struct.pack("<I", len(packet)) + packet + b"\0" * (len(packet) % 2)
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


def pdf_labelled(pdf: bytes, aigc: Aigc) -> bytes:
    """The PDF with an incremental update: its information dictionary with an `AIGC` entry
    (and `Creator`/`Producer` kept), its catalog with the XMP packet as `Metadata`.

    Reads only what Skia's PDF writer puts in its trailer (a classic xref table)."""
    start = pdf.rindex(b"startxref")
    previous = int(pdf[start + 9 :].split()[0])
    trailer = pdf[pdf.rindex(b"trailer", 0, start) : start]
    size = _reference(trailer, b"/Size")
    root = _reference(trailer, b"/Root")
    info = _reference(trailer, b"/Info")
    info_dict = _object_dict(pdf, info)[:-2] + b"\n/AIGC " + _text_string(record_json(aigc))
    packet = xmp_packet(aigc)
    metadata = size
    catalog = _object_dict(pdf, root)[:-2] + b"\n/Metadata %d 0 R>>" % metadata
    objects = {
        info: info_dict + b">>",
        root: catalog,
        metadata: b"<</Type /Metadata /Subtype /XML /Length %d>> stream\n" % len(packet)
        + packet
        + b"\nendstream",
    }
    out = bytearray(pdf if pdf.endswith(b"\n") else pdf + b"\n")
    offsets = {}
    for number, body in sorted(objects.items()):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 1\n0000000000 65535 f \n"
    for number, offset in sorted(offsets.items()):
        out += b"%d 1\n%010d 00000 n \n" % (number, offset)
    out += b"trailer\n<</Size %d\n/Root %d 0 R\n/Info %d 0 R\n" % (size + 1, root, info)
    out += b"/Prev %d>>\nstartxref\n%d\n%%%%EOF\n" % (previous, xref)
    return bytes(out)


def _reference(trailer: bytes, key: bytes) -> int:
    """The number after `key` in a trailer dictionary (`/Size 6`, `/Root 5 0 R`)."""
    return int(trailer[trailer.index(key) + len(key) :].split()[0])


def _object_dict(pdf: bytes, number: int) -> bytes:
    """The dictionary of object `number` as written (`<<` … `>>`): a small one, no stream."""
    header = b"\n%d 0 obj\n" % number
    start = pdf.rindex(header) + len(header)
    end = pdf.index(b"\nendobj", start)
    body = pdf[start:end].rstrip()
    if not (body.startswith(b"<<") and body.endswith(b">>")):
        raise ValueError(f"PDF object {number} is not a plain dictionary")
    return body


def _text_string(text: str) -> bytes:
    """A PDF text string of any text: UTF-16BE with its byte-order mark, in hex."""
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"
