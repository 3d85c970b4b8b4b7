"""The vendored theme faces: each family loads from its own file, the subset CJK faces
keep the coverage fonts/README.md promises and every corpus character, and the modified
faces carry no Reserved Font Name (SIL OFL)."""

from __future__ import annotations

import io
import unicodedata
from functools import cache

import pytest
import regex
from fontTools.ttLib import TTFont

from inkcard import layout
from inkcard.layout.base.fonts import DEFAULT_FONTS_DIR, FontError
from tests.conftest import build_box_font, corpus_posts

FAMILIES = {  # family → (regular, bold) files and the name their `name` table gives
    "sans": ("NotoSansCJKsc-Regular", "NotoSansCJKsc-Bold", "Noto Sans CJK SC"),
    "mono": ("JetBrainsMono-Regular", "JetBrainsMono-Bold", "JetBrains Mono"),
    "kai": ("InkcardKai-Regular", "InkcardKai-Bold", "Inkcard Kai"),
    "serif-cjk": ("NotoSerifCJKsc-Regular", "NotoSerifCJKsc-Bold", "Noto Serif CJK SC"),
    "typewriter": ("CourierPrime-Regular", "CourierPrime-Bold", "Courier Prime"),
    "display": ("InkcardDisplay-Regular", "InkcardDisplay-Bold", "Inkcard Display"),
    "kai-serif": ("InkcardSerifLatin-Regular", "InkcardSerifLatin-Bold", "Inkcard Serif Latin"),
}
SUBSET_CJK = ("kai", "serif-cjk")
LATIN_ONLY = ("typewriter", "display", "kai-serif")
CJK_TEXT = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\u3000-\u303F\uFF00-\uFFEF]")


@cache
def name_table(key: str) -> TTFont:
    [path] = DEFAULT_FONTS_DIR.glob(f"{key}.*")
    return TTFont(io.BytesIO(path.read_bytes()), lazy=True)


def ideographs(codec: str, leads: range, trails: list[int]) -> set[str]:
    chars = set()
    for lead in leads:
        for trail in trails:
            try:
                char = bytes([lead, trail]).decode(codec)
            except UnicodeDecodeError:
                continue
            if unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH"):
                chars.add(char)
    return chars


def promised_ideographs() -> set[str]:
    euc = list(range(0xA1, 0xFF))
    return (
        ideographs("gb2312", range(0xA1, 0xFF), euc)
        | ideographs("euc_jp", range(0xA1, 0xFF), euc)
        | ideographs("big5", range(0xA4, 0xC7), list(range(0x40, 0x7F)) + euc)
    )


def corpus_text() -> str:
    return "".join(post.read_text("utf-8") for post in corpus_posts())


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("bold", [False, True])
def test_every_family_loads_its_own_faces(fonts, family: str, bold: bool) -> None:
    regular, bold_key, name = FAMILIES[family]
    face = fonts.chain(family, bold)[0]
    assert face.key == (bold_key if bold else regular)
    assert face.typeface.getFamilyName() == name
    sample = "中" if family in SUBSET_CJK else "A"
    assert face.covers(ord(sample))
    assert face.typeface.unicharToGlyph(ord(sample)) == face.hb_font.get_nominal_glyph(ord(sample))


def test_display_falls_back_to_the_cjk_serif(fonts) -> None:
    assert [f.key for f in fonts.chain("display", False)[:2]] == [
        "InkcardDisplay-Regular",
        "NotoSerifCJKsc-Regular",
    ]
    assert fonts.chain("typewriter", True)[1].key == "NotoSansCJKsc-Bold"


def test_typewriter_serif_is_courier_with_the_cjk_serif(fonts) -> None:
    """The typewriter theme's face: Courier Prime, then Song for Chinese (not the sans)."""
    for bold, weight in ((False, "Regular"), (True, "Bold")):
        assert [f.key for f in fonts.chain("typewriter-serif", bold)[:3]] == [
            f"CourierPrime-{weight}",
            f"NotoSerifCJKsc-{weight}",
            f"NotoSansCJKsc-{weight}",
        ]


def test_kai_serif_sets_latin_in_the_serif_and_chinese_in_kai(fonts) -> None:
    """traditional-chinese's face: the Latin of Noto Serif CJK cut out alone, then the
    Kai for everything it leaves out (Han, CJK punctuation, the reference mark)."""
    for bold, weight in ((False, "Regular"), (True, "Bold")):
        chain = fonts.chain("kai-serif", bold)
        assert [f.key for f in chain[:3]] == [
            f"InkcardSerifLatin-{weight}",
            f"InkcardKai-{weight}",
            f"NotoSansCJKsc-{weight}",
        ]
        latin = chain[0]
        assert all(latin.covers(ord(c)) for c in "Ag9.,“”—é")
        assert not any(latin.covers(ord(c)) for c in "中，。※Ａ")
        assert fonts.cjk_face("kai-serif", bold).key == f"InkcardKai-{weight}"


def test_cjk_italic_faces_are_the_kai_faces(fonts) -> None:
    assert {bold: face.key for bold, face in fonts.cjk_italic.items()} == {
        False: "InkcardKai-Regular",
        True: "InkcardKai-Bold",
    }


@pytest.mark.parametrize("family", SUBSET_CJK)
def test_subset_keeps_the_promised_ideographs(fonts, family: str) -> None:
    promised = promised_ideographs()
    assert len(promised) == 10269
    for bold in (False, True):
        face = fonts.chain(family, bold)[0]
        assert [c for c in sorted(promised) if not face.covers(ord(c))] == []
        assert face.covers(ord("あ")) and face.covers(ord("ア")) and face.covers(ord("，"))
        assert not face.covers(ord("丂"))  # GBK-only: outside the subset, so the sans draws it


@pytest.mark.parametrize("family", SUBSET_CJK)
def test_every_cjk_character_of_the_corpus_is_in_the_face(fonts, family: str) -> None:
    needed = sorted(set(CJK_TEXT.findall(corpus_text())))
    assert len(needed) > 500
    for bold in (False, True):
        face = fonts.chain(family, bold)[0]
        assert [c for c in needed if not face.covers(ord(c))] == []


@pytest.mark.parametrize("family", LATIN_ONLY)
def test_every_ascii_character_of_the_corpus_is_in_the_latin_face(fonts, family: str) -> None:
    needed = sorted({c for c in corpus_text() if " " < c < "\x7f"})
    for bold in (False, True):
        face = fonts.chain(family, bold)[0]
        assert [c for c in needed if not face.covers(ord(c))] == []


@pytest.mark.parametrize("family", FAMILIES)
def test_no_corpus_character_is_tofu_in_any_family(fonts, family: str) -> None:
    ignorable = regex.compile(r"[\p{Default_Ignorable_Code_Point}\s\u20E3\p{Emoji_Modifier}]")
    needed = sorted({c for c in corpus_text() if not ignorable.match(c)})
    for bold in (False, True):
        chain = fonts.chain(family, bold)
        assert [c for c in needed if not any(f.covers(ord(c)) for f in chain)] == []


MODIFIED = ("InkcardKai-Regular", "InkcardKai-Bold", "InkcardDisplay-Bold")
MODIFIED += ("InkcardSerifLatin-Regular", "InkcardSerifLatin-Bold")


@pytest.mark.parametrize("key", MODIFIED)
def test_modified_faces_carry_no_reserved_font_name(key: str) -> None:
    """Font names only: the copyright and licence records (IDs 0, 7, 13, 14) keep theirs."""
    records = name_table(key)["name"].names
    names = " ".join(str(r) for r in records if r.nameID in (1, 3, 4, 6, 16, 18, 21))
    assert "Inkcard" in names
    for reserved in ("LXGW", "霞鹜", "Playfair"):
        assert reserved not in names


def test_a_family_naming_an_unknown_cjk_family_fails_at_load(tmp_path) -> None:
    build_box_font(tmp_path / "box.ttf")
    (tmp_path / "families.toml").write_text(
        'cjk = { regular = "box.ttf", bold = "box.ttf" }\nemoji = "box.ttf"\n'
        'symbols = ["box.ttf"]\n[families]\nsans = { regular = "box.ttf", cjk = "serif" }\n',
        "utf-8",
    )
    with pytest.raises(FontError, match="unknown font family 'serif'"):
        layout.FontBook.load(tmp_path)


def test_a_manifest_without_cjk_italic_has_none(box_fonts) -> None:
    assert box_fonts.cjk_italic == {}
