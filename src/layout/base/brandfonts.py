"""A `FontBook` + a brand kit's font files → the book with the kit's families added.

A kit's body font becomes the families `brand-body/<family>` and its heading font
`brand-heading/<family>`, one for each family of the book: the kit's face first, then the
whole chain of `<family>`, so a character the kit's font lacks (CJK in a Latin face, an
emoji) is drawn by the theme's own font, as any fallback is. The derived books are kept
per kit (a few: one process draws for a few creators at a time), so a kit's faces are
loaded once, not per card.
"""

from __future__ import annotations

import hashlib
import threading

import skia
import uharfbuzz as hb

from ..errors import FontError
from .fonts import Face, FontBook, _has_colour_glyphs
from .lru import Lru

BODY_PREFIX = "brand-body/"
HEADING_PREFIX = "brand-heading/"
_KEPT: Lru[tuple[int, str, str], FontBook] = Lru(8)
_LOCK = threading.Lock()


def face_from_bytes(data: bytes, key: str) -> Face:
    """A face of an sfnt font file's bytes (TTF or OTF), named `key`.

    Raises:
        FontError: Skia or HarfBuzz cannot read it.
    """
    typeface = skia.FontMgr.New_Custom_Empty().makeFromData(skia.Data.MakeWithCopy(data), 0)
    if typeface is None:
        raise FontError("not a font Skia can read")
    hb_font = hb.Font(hb.Face(hb.Blob(data)))
    upem = hb_font.face.upem
    if not upem:
        raise FontError("not a font HarfBuzz can read")
    extents = hb_font.get_font_extents("ltr")
    return Face(
        key=key,
        typeface=typeface,
        hb_font=hb_font,
        upem=upem,
        ascent=extents.ascender / upem,
        descent=-extents.descender / upem,
        is_colour=_has_colour_glyphs(hb_font.face),
    )


def with_brand_fonts(fonts: FontBook, body: bytes, heading: bytes) -> FontBook:
    """`fonts` with the brand families of `body` and `heading` (either may be empty)."""
    if not body and not heading:
        return fonts
    digests = (_sha(body), _sha(heading))
    key = (id(fonts), *digests)
    with _LOCK:
        found = _KEPT.get(key)
    if found is not None:
        return found
    faces = dict(fonts.faces)
    chains = dict(fonts.chains)
    for data, digest, prefix in (
        (body, digests[0], BODY_PREFIX),
        (heading, digests[1], HEADING_PREFIX),
    ):
        if not data:
            continue
        face = face_from_bytes(data, f"brand-{digest[:16]}")
        faces[face.key] = face
        for (family, bold), chain in fonts.chains.items():
            chains[(prefix + family, bold)] = (face, *chain)
    book = FontBook(faces=faces, chains=chains, emoji=fonts.emoji, cjk_italic=fonts.cjk_italic)
    with _LOCK:
        _KEPT.put(key, book)
    return book


def covered(face: Face, text: str) -> tuple[int, int]:
    """How many distinct characters of `text` (spaces left out) `face` draws, of how many."""
    wanted = {ord(c) for c in text if not c.isspace()}
    return sum(1 for c in wanted if face.covers(c)), len(wanted)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest() if data else ""
