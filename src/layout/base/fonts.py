"""A fonts directory → `FontBook`: every face loaded once, with its fallback chains.

Each file is memory-mapped once and shared by Skia (a custom, empty font manager: no
fontconfig, no system fonts) and HarfBuzz (one `hb.Font` at upem scale that is never
mutated, so threads can shape with it at once). Glyph coverage is asked of HarfBuzz and
cached per code point, so no cmap table is parsed while a request waits.
"""

from __future__ import annotations

import hashlib
import io
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import skia
import uharfbuzz as hb

from ..errors import FontError as FontError

_LAYOUT = Path(__file__).resolve().parents[1]  # the layout package
_PACKAGED_FONTS = _LAYOUT / "fontfiles"  # in an installed wheel
_CHECKOUT_FONTS = _LAYOUT.parents[1] / "fonts"  # a checkout, editable install
DEFAULT_FONTS_DIR = _PACKAGED_FONTS if _PACKAGED_FONTS.is_dir() else _CHECKOUT_FONTS
MANIFEST = "families.toml"
HAN_PROBE = 0x4E2D  # 中: the first face of a chain that draws it is the chain's CJK face


@dataclass(eq=False)
class Face:
    """One font file: its Skia typeface, its HarfBuzz font and its vertical metrics."""

    key: str
    typeface: Any
    hb_font: Any
    upem: int
    ascent: float  # in em, positive up
    descent: float  # in em, positive down
    is_emoji: bool = False
    is_colour: bool = False  # colour glyphs (bitmaps, layers, paint): text effects skip them
    path: Path | None = None  # the file, hashed by ``FontBook.fingerprint``
    _coverage: dict[int, bool] = field(default_factory=dict)

    def covers(self, codepoint: int) -> bool:
        known = self._coverage.get(codepoint)
        if known is None:
            known = self.hb_font.get_nominal_glyph(codepoint) is not None
            self._coverage[codepoint] = known
        return known


def load_face(path: Path, manager: Any, *, is_emoji: bool = False) -> Face:
    if not path.is_file():
        raise FontError(f"font file missing: {path}")
    typeface = manager.makeFromData(skia.Data.MakeFromFileName(str(path)), 0)
    if typeface is None:
        raise FontError(f"not a font Skia can read: {path}")
    hb_font = hb.Font(hb.Face(hb.Blob.from_file_path(str(path))))
    upem = hb_font.face.upem
    extents = hb_font.get_font_extents("ltr")
    return Face(
        key=path.stem,
        typeface=typeface,
        hb_font=hb_font,
        upem=upem,
        ascent=extents.ascender / upem,
        descent=-extents.descender / upem,
        is_emoji=is_emoji,
        is_colour=_has_colour_glyphs(hb_font.face),
        path=path,
    )


def _sha256(face: Face) -> str:
    """SHA-256 (hex) of the face's bytes, read from its file when it has one: hashing the
    loaded blob would page every byte of the mapped file into this process's memory (some
    70 MB of CJK fonts that a render never touches whole)."""
    if face.path is None:
        return hashlib.sha256(face.hb_font.face.blob.data).hexdigest()
    with face.path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def _has_colour_glyphs(face: Any) -> bool:
    """Whether the font draws glyphs in colour (CBDT/sbix bitmaps, COLR layers or paint, SVG)."""
    return bool(
        face.has_color_png or face.has_color_layers or face.has_color_paint or face.has_color_svg
    )


@dataclass(eq=False)
class FontBook:
    """All faces by key, and per (family, bold) the chain to try for each character.

    `cjk_italic` holds, per bold, the face that draws CJK text a style sets in italic
    (the manifest's `cjk_italic` family: Kai), or nothing when the manifest names none.
    """

    faces: dict[str, Face]
    chains: dict[tuple[str, bool], tuple[Face, ...]]
    emoji: Face
    cjk_italic: dict[bool, Face] = field(default_factory=dict)

    @classmethod
    def load(cls, fonts_dir: Path | str = DEFAULT_FONTS_DIR) -> FontBook:
        fonts_dir = Path(fonts_dir)
        manifest_path = fonts_dir / MANIFEST
        if not manifest_path.is_file():
            raise FontError(f"no {MANIFEST} in {fonts_dir}")
        manifest = tomllib.loads(manifest_path.read_text("utf-8"))
        manager = skia.FontMgr.New_Custom_Empty()
        faces: dict[str, Face] = {}
        families: dict[str, dict[str, str]] = manifest["families"]

        def face(name: str, *, is_emoji: bool = False) -> Face:
            key = Path(name).stem
            if key not in faces:
                faces[key] = load_face(fonts_dir / name, manager, is_emoji=is_emoji)
            return faces[key]

        def family_face(family: str, weight: str) -> Face:
            files = families.get(family)
            if files is None:
                raise FontError(f"{MANIFEST} names an unknown font family {family!r}")
            return face(files.get(weight, files["regular"]))

        emoji = face(manifest["emoji"], is_emoji=True)
        symbols = [face(name) for name in manifest["symbols"]]
        chains: dict[tuple[str, bool], tuple[Face, ...]] = {}
        for family, files in families.items():
            for bold in (False, True):
                weight = "bold" if bold else "regular"
                own = [family_face(family, weight)]
                if "cjk" in files:  # the family's own CJK partner, before the shared one
                    own.append(family_face(files["cjk"], weight))
                chain = [*own, face(manifest["cjk"][weight]), emoji, *symbols]
                chains[(family, bold)] = tuple(dict.fromkeys(chain))  # each face once
        italic = manifest.get("cjk_italic")
        cjk_italic = (
            {bold: family_face(italic, "bold" if bold else "regular") for bold in (False, True)}
            if italic
            else {}
        )
        return cls(faces=faces, chains=chains, emoji=emoji, cjk_italic=cjk_italic)

    def chain(self, family: str, bold: bool) -> tuple[Face, ...]:
        try:
            return self.chains[(family, bold)]
        except KeyError:
            raise FontError(f"unknown font family {family!r}") from None

    def cjk_face(self, family: str, bold: bool) -> Face:
        """The face that draws the CJK text of `family` (its own, its CJK partner's or the
        shared one): CJK punctuation in CJK context comes from it too, whatever the family's
        Latin face."""
        chain = self.chain(family, bold)
        return next((face for face in chain if face.covers(HAN_PROBE)), chain[0])

    def fingerprint(self) -> str:
        """SHA-256 (hex) of every loaded face's bytes and of the chains: what cards depend on."""
        h = hashlib.sha256()
        for key, face in sorted(self.faces.items()):
            content = _sha256(face)
            h.update(f"face {key} {content}\n".encode())
        for (family, bold), chain in sorted(self.chains.items()):
            h.update(f"chain {family} {bold} {' '.join(f.key for f in chain)}\n".encode())
        for bold, face in sorted(self.cjk_italic.items()):
            h.update(f"cjk_italic {bold} {face.key}\n".encode())
        return h.hexdigest()

    def typefaces(self) -> dict[str, Any]:
        return {key: face.typeface for key, face in self.faces.items()}


def subset_font(path: Path, text: str) -> bytes:
    """The font at ``path`` cut down to the glyphs that draw ``text``, as WOFF (zlib: no
    extra dependency). A web page that shows a few CJK labels needs a few kilobytes of a
    16 MB face; the cut takes about a second, so callers keep the answer."""
    from fontTools import subset  # type: ignore[import-untyped]  # not at render time
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    options = subset.Options()
    with TTFont(path, lazy=False) as font:
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        font.flavor = "woff"
        out = io.BytesIO()
        font.save(out)
    return out.getvalue()


# The features a look without ligatures turns off (code, where "fi" and "->" stay apart).
NO_LIGATURES = {"liga": False, "calt": False, "clig": False, "dlig": False}


# The katakana middle dot ・ shares one full-width glyph with U+00B7, U+2022 and U+2027 in
# the shipped CJK faces, and their Japanese `locl` swaps it for the 0.34-em proportional dot
# that suits U+00B7 in Latin: "二年坂・三年坂" set the dot squeezed between the kanji. The
# dot is shaped untagged (the other characters keep their Japanese forms: 坂).
_FULL_WIDTH_DOT = "\u30fb"


def _dots_untagged(text: str) -> list[tuple[int, int, bool]]:
    """`locl` off over each ・ of `text` (HarfBuzz feature ranges, in code points)."""
    return [(i, i + 1, False) for i, char in enumerate(text) if char == _FULL_WIDTH_DOT]


@lru_cache(maxsize=4096)
def shape_cached(
    face: Face, text: str, ligatures: bool, language: str | None, extra: tuple[str, ...] = ()
) -> tuple[tuple[int, ...], ...]:
    """HarfBuzz output in font units; cached because cards repeat words and markers.
    `extra` names features to turn on."""
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    if language:
        buf.language = language
    features: dict[str, object] = {} if ligatures else dict(NO_LIGATURES)
    features.update(dict.fromkeys(extra, True))
    if language and _FULL_WIDTH_DOT in text:
        features["locl"] = _dots_untagged(text)
    hb.shape(face.hb_font, buf, features)
    infos, positions = buf.glyph_infos, buf.glyph_positions
    return (
        tuple(i.codepoint for i in infos),
        tuple(i.cluster for i in infos),
        tuple(p.x_advance for p in positions),
        tuple(p.x_offset for p in positions),
        tuple(p.y_offset for p in positions),
        tuple(int(i.flags) for i in infos),  # ints: IntFlag's `&` is slow
    )
