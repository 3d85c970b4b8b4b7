"""Subsets a vendored font to the coverage the cards promise, as plain TTF/OTF.

Usage: python scripts/subset_fonts.py SOURCE OUTPUT [--face N] [--cjk | --latin] [--rename FAMILY]

SOURCE is a .ttf/.otf/.ttc/.woff taken from a Debian or npm package (fonts/README.md
names which); OUTPUT is written uncompressed (Skia reads neither WOFF2 nor, through
HarfBuzz, any WOFF). `--face N` picks one face of a collection. `--cjk` keeps the CJK
coverage below, `--latin` only `LATIN_RANGES` (a CJK face's own Latin, as a face of its
own that a family sets before a CJK partner); without either the whole font is kept and
only hinting is dropped.

CJK coverage: every character of GB2312 (6,763 hanzi with its symbols), JIS X 0208
(6,355 kanji, kana, symbols) and Big5 level 1 (5,401 common traditional hanzi) — 10,269
unified ideographs in all — plus kana, CJK and general punctuation, fullwidth forms and
Latin-1/Latin Extended-A. OpenType layout features are all kept, so `locl` (Japanese and
traditional forms) and `vert` still work on what is kept. Hinting is dropped: the engine
draws unhinted (draw.py).

`--rename FAMILY` rewrites the family names in the `name` table: a subset or converted
font is a Modified Version under the SIL OFL and may not keep a Reserved Font Name
(LXGW WenKai reserves "LXGW" and "霞鹜", Playfair Display its own name).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

EXTRA_RANGES = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x017F),  # Latin-1, Latin Extended-A
    (0x2010, 0x203B),  # dashes, quotes, ellipsis, per mille, reference mark
    (0x2103, 0x2103),  # ℃
    (0x2116, 0x2116),  # №
    (0x2122, 0x2122),  # ™
    (0x2160, 0x216B),  # Roman numerals
    (0x2190, 0x2199),  # arrows
    (0x2460, 0x2473),  # circled numbers
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # fullwidth and halfwidth forms
)

# A CJK face's Latin, taken alone: letters, digits and the punctuation Latin text uses, but
# not the reference mark, CJK punctuation or fullwidth forms, which stay the CJK partner's.
LATIN_RANGES = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x017F),  # Latin-1, Latin Extended-A
    (0x2010, 0x2027),  # dashes, quotes, bullet, ellipsis
    (0x2030, 0x203A),  # per mille, primes, guillemets
)


def _double_byte(codec: str, leads: range, trails: list[int]) -> set[int]:
    chars: set[int] = set()
    for lead in leads:
        for trail in trails:
            try:
                chars.update(map(ord, bytes([lead, trail]).decode(codec)))
            except UnicodeDecodeError:
                continue
    return chars


def cjk_coverage() -> set[int]:
    """The code points every CJK face keeps (see the module docstring)."""
    euc_trails = list(range(0xA1, 0xFF))
    big5_trails = list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF))
    chars = _double_byte("gb2312", range(0xA1, 0xFF), euc_trails)
    chars |= _double_byte("euc_jp", range(0xA1, 0xFF), euc_trails)
    chars |= _double_byte("big5", range(0xA4, 0xC7), big5_trails)  # level 1: A440-C67E
    for first, last in EXTRA_RANGES:
        chars.update(range(first, last + 1))
    return chars


def latin_coverage() -> set[int]:
    """The code points a Latin face cut from a CJK one keeps (`LATIN_RANGES`)."""
    return {code for first, last in LATIN_RANGES for code in range(first, last + 1)}


NAME_IDS = (1, 3, 4, 6, 16, 17, 18, 21, 22)  # every record that carries the family name


def rename(font: TTFont, family: str) -> None:
    """Replaces every family-bearing name record with `family` and the face's style."""
    names = font["name"]
    style = names.getDebugName(17) or names.getDebugName(2) or "Regular"
    values = {
        1: family if style in ("Regular", "Bold") else f"{family} {style}",
        3: f"{family.replace(' ', '')}-{style};subset",
        4: f"{family} {style}",
        6: f"{family.replace(' ', '')}-{style}",
        16: family,
        17: style,
        18: f"{family} {style}",
        21: family,
        22: style,
    }
    names.names = [record for record in names.names if record.nameID not in NAME_IDS]
    for name_id, value in values.items():
        names.setName(value, name_id, 3, 1, 0x409)  # Windows, Unicode BMP, English (US)
        names.setName(value, name_id, 1, 0, 0)  # Macintosh, Roman, English


def open_font(source: Path, face: int | None) -> TTFont:
    if face is not None:
        return TTCollection(str(source)).fonts[face]
    return TTFont(str(source))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--face", type=int, default=None)
    coverage = parser.add_mutually_exclusive_group()
    coverage.add_argument("--cjk", action="store_true")
    coverage.add_argument("--latin", action="store_true")
    parser.add_argument("--rename", default=None)
    args = parser.parse_args()
    font = open_font(args.source, args.face)
    font.flavor = None  # WOFF in, plain sfnt out
    cmap = font.getBestCmap()
    wanted = cjk_coverage() if args.cjk else latin_coverage() if args.latin else set(cmap)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.glyph_names = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(wanted & set(cmap)))
    subsetter.subset(font)
    if args.rename:
        rename(font, args.rename)
    font.save(str(args.output))
    kept = len(wanted & set(cmap))
    print(f"{args.output}: {kept} characters, {args.output.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
