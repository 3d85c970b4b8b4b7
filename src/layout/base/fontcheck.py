"""A font file someone sent → the checked sfnt bytes the engine draws with, and what it covers.

A brand kit's fonts come from outside, so before one is stored it is read whole by
fontTools (a real TrueType or CFF font with a cmap, not just bytes that start like one),
WOFF and WOFF2 are unpacked to the plain sfnt Skia and HarfBuzz read (WOFF2 needs the
``brotli`` package, which fontTools finds by itself), and its size is held to a limit.
This runs once, when a kit is saved, never while a card is drawn; the engine then loads the
stored bytes as they are (`brandfonts`).
"""

from __future__ import annotations

import io

import msgspec

from ..errors import FontError

SFNT_TAGS = (b"\x00\x01\x00\x00", b"OTTO", b"true")
WOFF, WOFF2 = b"wOFF", b"wOF2"
# What coverage is reported on: the printable ASCII letters, and common Chinese characters.
LATIN_SAMPLE = "".join(chr(c) for c in range(0x21, 0x7F))
CJK_SAMPLE = (
    "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家"
)


class CheckedFont(msgspec.Struct, frozen=True):
    """A font that passed: its sfnt bytes, its family name, glyph count and coverage."""

    data: bytes
    family: str
    glyphs: int
    latin: float  # share of `LATIN_SAMPLE` it draws
    cjk: float  # share of `CJK_SAMPLE` it draws

    def covers(self, text: str) -> float:
        """The share of `text`'s distinct characters (spaces left out) the font draws."""
        wanted = {ord(c) for c in text if not c.isspace()}
        if not wanted:
            return 1.0
        cmap = _cmap(self.data)
        return sum(1 for c in wanted if c in cmap) / len(wanted)


def check_font(data: bytes, max_bytes: int) -> CheckedFont:
    """`data` (TTF, OTF, WOFF or WOFF2) as a checked font, WOFF and WOFF2 unpacked to sfnt.

    Raises:
        FontError: Not a font fontTools reads whole, without a Unicode cmap, or larger than
            `max_bytes` once unpacked.
    """
    head = data[:4]
    if head not in (WOFF, WOFF2) and head not in SFNT_TAGS:
        raise FontError("not a TTF, OTF, WOFF or WOFF2 font file")
    from fontTools.ttLib import TTFont, TTLibError  # type: ignore[import-untyped]

    try:
        with TTFont(io.BytesIO(data), lazy=False, fontNumber=0) as font:
            cmap = font.getBestCmap()
            glyphs = len(font.getGlyphOrder())
            family = font["name"].getBestFamilyName() or ""
            for tag in ("glyf", "CFF ", "CFF2"):
                if tag in font:
                    font[tag]  # decoded whole: a damaged table fails here
            if head in (WOFF, WOFF2):  # Skia and HarfBuzz read the plain sfnt
                font.flavor = None
                out = io.BytesIO()
                font.save(out)
                data = out.getvalue()
    except (TTLibError, KeyError, ValueError, AssertionError, IndexError, TypeError, OSError):
        raise FontError("not a font file fontTools can read") from None
    except ImportError:  # WOFF2 without the brotli package (a dependency: a broken install)
        raise FontError("WOFF2 needs the brotli package: send the TTF, OTF or WOFF file") from None
    except Exception as error:  # a hostile file may fail anywhere inside the parser
        raise FontError(f"not a readable font ({type(error).__name__})") from None
    if not cmap:
        raise FontError("the font maps no Unicode characters")
    if len(data) > max_bytes:
        raise FontError(f"the font is {len(data):,} bytes; at most {max_bytes:,} are accepted")
    latin = sum(1 for c in LATIN_SAMPLE if ord(c) in cmap) / len(LATIN_SAMPLE)
    cjk = sum(1 for c in CJK_SAMPLE if ord(c) in cmap) / len(CJK_SAMPLE)
    return CheckedFont(data, family, glyphs, round(latin, 3), round(cjk, 3))


def _cmap(data: bytes) -> dict[int, str]:
    from fontTools.ttLib import TTFont

    with TTFont(io.BytesIO(data), lazy=True) as font:
        return dict(font.getBestCmap() or {})
