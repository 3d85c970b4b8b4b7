"""A `FontBook` + a brand kit's font files → the book with the kit's families added.

A kit's body font becomes the families `brand-body/<family>` and its heading font
`brand-heading/<family>` (the prefixes are `style.brandkit`'s), one for each family of the
book: the kit's face first, then the whole chain of `<family>`, so a character the kit's
font lacks (CJK in a Latin face, an emoji) is drawn by the theme's own font, as any
fallback is. The derived books are kept per kit (a few: one process draws for a few
creators at a time), so a kit's faces are loaded once, not per card.
"""

from __future__ import annotations

import hashlib
import threading

import skia
import uharfbuzz as hb

from ..errors import FontError
from .fonts import Face, FontBook, _has_colour_glyphs
from .lru import Lru

MISSING_SHOWN = 8  # characters a coverage note names
_KEPT: Lru[tuple[object, ...], FontBook] = Lru(8)
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


def with_brand_fonts(fonts: FontBook, families: dict[str, bytes]) -> FontBook:
    """`fonts` with a family `<prefix><family>` for each font of `families` (by prefix, as
    `style.brandkit.font_families` names them) and each family of the book (empty fonts
    left out)."""
    wanted = {prefix: data for prefix, data in families.items() if data}
    if not wanted:
        return fonts
    key = (id(fonts), *sorted((prefix, _sha(data)) for prefix, data in wanted.items()))
    with _LOCK:
        found = _KEPT.get(key)
    if found is not None:
        return found
    faces = dict(fonts.faces)
    chains = dict(fonts.chains)
    for prefix, data in wanted.items():
        face = face_from_bytes(data, f"brand-{_sha(data)[:16]}")
        faces[face.key] = face
        for (family, bold), chain in fonts.chains.items():
            chains[(prefix + family, bold)] = (face, *chain)
    book = FontBook(faces=faces, chains=chains, emoji=fonts.emoji, cjk_italic=fonts.cjk_italic)
    with _LOCK:
        _KEPT.put(key, book)
    return book


def coverage_note(fonts: FontBook, font: bytes, text: str) -> str | None:
    """What a card's quality report says when the kit's `font` (in `fonts`, the book
    `with_brand_fonts` made) lacks characters of `text`: the share it draws, and that the
    theme's font draws the rest; None when it draws them all."""
    face = fonts.faces.get(f"brand-{_sha(font)[:16]}") if font else None
    wanted = sorted({c for c in text if c.isprintable() and not c.isspace()})
    if face is None or not wanted:
        return None
    missing = [c for c in wanted if not face.covers(ord(c))]
    if not missing:
        return None
    share = 1 - len(missing) / len(wanted)
    shown = "".join(missing[:MISSING_SHOWN]) + ("…" if len(missing) > MISSING_SHOWN else "")
    return (
        f"the brand kit's font draws {share:.0%} of the card's characters; the theme's font"
        f" draws the rest ({shown})"
    )


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest() if data else ""
