"""Shaping as numbers: glyph ids, advances and clusters for fixed strings.

Glyph ids are cross-checked with fontTools (an independent reader of the same files);
advances are font units × size / units-per-em: Noto Sans CJK and JetBrains Mono have
1000 units per em, Noto Color Emoji 2048. With the box font every glyph is 1 em wide.
"""

from __future__ import annotations

import io
from functools import cache

import pytest
from fontTools.ttLib import TTFont

from inkcard import layout, themes
from inkcard.layout.base.fonts import DEFAULT_FONTS_DIR, shape_cached
from inkcard.layout.text.clusters import Cluster
from inkcard.layout.text.inline import layout_text
from inkcard.layout.text.linebox import Metrics
from inkcard.layout.text.lineitems import ITALIC_SKEW
from inkcard.layout.text.shape import Span, SpanStyle, shape

CJK = "NotoSansCJKsc-Regular"
CJK_BOLD = "NotoSansCJKsc-Bold"
MONO = "JetBrainsMono-Regular"
EMOJI = "NotoColorEmoji"
SYMBOLS2 = "NotoSansSymbols2-Regular"
EMOJI_WIDTH = 2550 * 16 / 2048  # 19.921875: every emoji glyph advances 2550 units


def style(family: str = "sans", size: float = 16.0, **more: object) -> SpanStyle:
    return SpanStyle(family=family, size=size, bold=False, italic=False, color=0, **more)


def shaped(text: str, fonts: layout.FontBook, **kw: object) -> list[Cluster]:
    return shape([Span(text, style(**kw))], fonts)


def table(clusters: list[Cluster]) -> list[tuple[str, str, tuple[int, ...], float]]:
    return [(c.text, c.face.key, c.glyphs, round(c.width, 6)) for c in clusters]


@cache
def font_file(key: str) -> TTFont:
    [path] = DEFAULT_FONTS_DIR.glob(f"{key}.*")
    return TTFont(io.BytesIO(path.read_bytes()), lazy=True)  # no file handle left open


def cmap_gid(key: str, char: str) -> int:
    font = font_file(key)
    return font.getGlyphID(font.getBestCmap()[ord(char)])


def test_latin_in_the_sans_face(fonts) -> None:
    assert table(shaped("Hi fi", fonts)) == [
        ("H", CJK, (41,), 11.648),  # 728 units
        ("i", CJK, (74,), 4.4),  # 275
        (" ", CJK, (1,), 3.584),  # 224
        ("fi", CJK, (58975,), 9.6),  # the fi ligature: one cluster of two letters
    ]
    assert [cmap_gid(CJK, ch) for ch in "Hi "] == [41, 74, 1]


def test_ligatures_off_gives_two_letters(fonts) -> None:
    assert table(shaped("fi", fonts, ligatures=False)) == [
        ("f", CJK, (cmap_gid(CJK, "f"),), 5.2),
        ("i", CJK, (74,), 4.4),
    ]


def test_kerning_moves_advances(fonts) -> None:
    """A is 608 units wide alone, 593 before V; T is 599 alone, 525 before o."""
    assert table(shaped("AVTo", fonts)) == [
        ("A", CJK, (34,), 9.488),
        ("V", CJK, (55,), 9.2),
        ("T", CJK, (53,), 8.4),
        ("o", CJK, (80,), 9.696),
    ]


def test_cjk_is_one_em_per_character(fonts) -> None:
    assert table(shaped("中文", fonts)) == [("中", CJK, (9544,), 16.0), ("文", CJK, (20036,), 16.0)]
    assert [cmap_gid(CJK, ch) for ch in "中文"] == [9544, 20036]
    assert table(shaped("中", fonts, size=24.0)) == [("中", CJK, (9544,), 24.0)]


def test_a_combining_accent_joins_its_letter(fonts) -> None:
    [composed] = shaped("é", fonts)
    [decomposed] = shaped("e\u0301", fonts)
    assert (decomposed.text, decomposed.glyphs) == ("e\u0301", (167,))
    assert composed.glyphs == (167,) and composed.width == decomposed.width == 8.864


def test_emoji_zwj_sequence_is_one_cluster_of_one_glyph(fonts) -> None:
    [cluster] = shaped("👩\u200d💻", fonts)
    assert (cluster.face.key, cluster.glyphs) == (EMOJI, (2358,))
    assert cluster.width == EMOJI_WIDTH
    assert font_file(EMOJI)["hmtx"][font_file(EMOJI).getGlyphName(2358)][0] == 2550


def test_skin_tone_flag_and_keycap_sequences(fonts) -> None:
    assert table(shaped("a👍🏽b🇯🇵1️⃣", fonts)) == [
        ("a", CJK, (66,), 9.008),
        ("👍🏽", EMOJI, (2051,), EMOJI_WIDTH),
        ("b", CJK, (67,), 9.888),
        ("🇯🇵", EMOJI, (1639,), EMOJI_WIDTH),
        ("1️⃣", EMOJI, (1471,), EMOJI_WIDTH),
    ]


def test_fallback_walks_mono_then_cjk_then_emoji_then_symbols(fonts) -> None:
    assert table(shaped("a中👍♔ 😀", fonts, family="mono")) == [
        ("a", MONO, (181,), 9.6),
        ("中", CJK, (9544,), 16.0),
        ("👍", EMOJI, (569,), EMOJI_WIDTH),
        ("♔", SYMBOLS2, (1674,), 16.0),
        (" ", MONO, (731,), 9.6),  # spaces stay in the family's own face
        ("😀", EMOJI, (883,), EMOJI_WIDTH),
    ]
    assert cmap_gid(MONO, "a") == 181
    assert cmap_gid(SYMBOLS2, "♔") == 1674


def test_bold_takes_the_bold_chain(fonts) -> None:
    clusters = shape([Span("中A", SpanStyle("sans", 16.0, True, False, 0))], fonts)
    assert table(clusters) == [("中", CJK_BOLD, (9544,), 16.0), ("A", CJK_BOLD, (34,), 10.256)]


def test_mono_arrow_ligature_keeps_one_cell_per_character(fonts) -> None:
    """JetBrains Mono draws `->` as a spacer glyph then the arrow, each one cell (600 units),
    so the two characters stay two clusters; the second may not start a line."""
    clusters = shaped("->=", fonts, family="mono")
    assert table(clusters) == [
        ("-", MONO, (1358,), 9.6),
        (">", MONO, (664,), 9.6),
        ("=", MONO, (794,), 9.6),
    ]
    assert [c.unsafe_before for c in clusters] == [False, True, False]
    assert font_file(MONO).getGlyphName(664) == "hyphen_greater.liga"
    plain = shaped("->=", fonts, family="mono", ligatures=False)
    assert [c.glyphs for c in plain] == [(cmap_gid(MONO, ch),) for ch in "->="]


def test_newline_is_an_empty_cluster(fonts) -> None:
    clusters = shaped("a\nb", fonts)
    assert [(c.text, c.glyphs, c.width) for c in clusters][1] == ("\n", (), 0.0)
    assert [c.is_newline for c in clusters] == [False, True, False]


@pytest.mark.parametrize("size", [10.0, 16.0, 20.5])
def test_box_font_advances_are_the_font_size(box_fonts, size: float) -> None:
    clusters = shaped("ab 中", box_fonts, size=size)
    assert [(c.text, c.glyphs, c.width, c.xs) for c in clusters] == [
        ("a", (1,), size, (0.0,)),
        ("b", (1,), size, (0.0,)),
        (" ", (2,), size, (0.0,)),
        ("中", (1,), size, (0.0,)),
    ]


def test_box_font_uncovered_character_is_notdef_in_the_first_face(box_fonts) -> None:
    [cluster] = shaped("é", box_fonts)
    assert (cluster.face.key, cluster.glyphs, cluster.width) == ("box", (0,), 16.0)


def test_inline_code_padding_widens_the_ends_only(box_fonts) -> None:
    clusters = shaped("abc", box_fonts, pad_x=5.0)
    assert [(c.width, c.xs, c.pad_left, c.pad_right) for c in clusters] == [
        (21.0, (5.0,), 5.0, 0.0),
        (16.0, (0.0,), 0.0, 0.0),
        (21.0, (0.0,), 0.0, 5.0),
    ]
    [alone] = shaped("x", box_fonts, pad_x=5.0)
    assert (alone.width, alone.xs) == (26.0, (5.0,))


def test_spans_keep_their_order_and_skip_empty_text(box_fonts) -> None:
    spans = [Span("a", style(size=10.0)), Span("", style()), Span("bc", style(size=20.0))]
    assert [(c.text, c.width) for c in shape(spans, box_fonts)] == [
        ("a", 10.0),
        ("b", 20.0),
        ("c", 20.0),
    ]


# CJK emphasis: Kai for italic CJK, slant for Latin; Japanese forms by language --------

KAI = "InkcardKai-Regular"
KAI_BOLD = "InkcardKai-Bold"
SERIF = "NotoSerifCJKsc-Regular"


def italic(**more: object) -> SpanStyle:
    bold = bool(more.pop("bold", False))
    return SpanStyle(family="sans", size=16.0, bold=bold, italic=True, color=0, **more)


def looks(clusters: list[Cluster]) -> list[tuple[str, str, tuple[int, ...], bool]]:
    return [(c.text, c.face.key, c.glyphs, c.style.italic) for c in clusters]


def test_italic_cjk_switches_to_kai_and_latin_keeps_its_slant(fonts) -> None:
    assert looks(shape([Span("Hi 中文", italic())], fonts)) == [
        ("H", CJK, (41,), True),
        ("i", CJK, (74,), True),
        (" ", CJK, (1,), True),
        ("中", KAI, (cmap_gid(KAI, "中"),), False),
        ("文", KAI, (cmap_gid(KAI, "文"),), False),
    ]
    assert cmap_gid(KAI, "中") != 9544  # a different font: not the sans glyph id


def test_painted_runs_skew_latin_only(fonts) -> None:
    """Through line layout: the Kai run is drawn upright, the Latin run slanted."""
    [line] = layout_text(
        [Span("Hi 中文", italic())], fonts, x=0.0, width=400.0, metrics=Metrics(28.0, 20.0)
    )
    runs = [(item.face, item.skew) for item in line.items]
    assert runs == [(CJK, ITALIC_SKEW), (KAI, 0.0)]


def test_bold_italic_cjk_takes_the_bold_kai(fonts) -> None:
    [cluster] = shape([Span("中", italic(bold=True))], fonts)
    assert (cluster.face.key, cluster.glyphs) == (KAI_BOLD, (cmap_gid(KAI_BOLD, "中"),))


def test_cjk_italic_oblique_and_none(fonts) -> None:
    oblique = shape([Span("a中", italic(cjk_italic="oblique"))], fonts)
    assert looks(oblique) == [("a", CJK, (66,), True), ("中", CJK, (9544,), True)]
    none = shape([Span("a中", italic(cjk_italic="none"))], fonts)
    # beside upright Chinese in its usual face, a slanted Latin letter reads as a fault
    assert looks(none) == [("a", CJK, (66,), False), ("中", CJK, (9544,), False)]
    latin = shape([Span("ab", italic(cjk_italic="none"))], fonts)
    assert {italic for *_, italic in looks(latin)} == {True}


def test_italic_japanese_stays_upright_in_its_own_face(fonts) -> None:
    """Kai for italics is a Chinese convention (clreq); Japanese has none, and the Kai
    face's kana read as another hand, wide-set (the Kyoto post's quote, eleventh look). A
    paragraph with kana sets its italic upright in its usual face, as `cjk_italic` "none"
    does (its Latin too: slanted beside upright kana it read as a fault)."""
    clusters = shape([Span("小銭を用意 ok", italic())], fonts)
    assert {(c.face.key, c.style.italic) for c in clusters} == {(CJK, False)}
    chinese = shape([Span("零钱 ok", italic())], fonts)
    assert {c.face.key for c in chinese if c.text in "零钱"} == {KAI}


def test_upright_text_never_switches(fonts) -> None:
    [cluster] = shaped("中", fonts)
    assert (cluster.face.key, cluster.style.italic) == (CJK, False)


def test_shared_punctuation_goes_with_the_text_before_it(fonts) -> None:
    """Curly quotes and the ellipsis are CJK inside Chinese, Latin inside English."""
    zh = shape([Span("“好”……", italic())], fonts)
    assert [(c.text, c.face.key) for c in zh] == [
        ("“", KAI),
        ("好", KAI),
        ("”", KAI),
        ("…", KAI),
        ("…", KAI),
    ]
    en = shape([Span("“ok”", italic())], fonts)
    assert {(c.face.key, c.style.italic) for c in en} == {(CJK, True)}


def test_upright_style_is_one_shared_object_per_look(fonts) -> None:
    """Painting groups clusters by style identity: one Kai run, not one per character."""
    clusters = shape([Span("中文字", italic())], fonts)
    assert clusters[0].style is clusters[1].style is clusters[2].style


def test_kana_makes_the_paragraph_japanese(fonts) -> None:
    """The Pan-CJK face's locl: 直 and 骨 take Japanese forms when the paragraph has kana,
    even in a span of kanji only."""
    chinese = [c.glyphs for c in shaped("直骨", fonts)]
    assert chinese == [(cmap_gid(CJK, "直"),), (cmap_gid(CJK, "骨"),)]
    spans = [Span("直骨", style()), Span("です", style())]
    japanese = [c.glyphs for c in shape(spans, fonts)[:2]]
    assert japanese == [(27873,), (45132,)]
    assert japanese != chinese


def test_the_serif_subset_kept_its_japanese_forms(fonts) -> None:
    chinese = shaped("直", fonts, family="serif-cjk")[0].glyphs
    japanese = shaped("直す", fonts, family="serif-cjk")[0].glyphs
    assert chinese == (cmap_gid(SERIF, "直"),)
    assert japanese != chinese


def test_zero_width_space_and_soft_hyphen_are_invisible_clusters(fonts) -> None:
    clusters = shaped("a\u200bb\u00adc", fonts)
    assert [c.text for c in clusters] == ["a", "\u200b", "b", "\u00ad", "c"]
    assert [c.width for c in clusters[1::2]] == [0.0, 0.0]


@pytest.mark.parametrize("family", ["sans", "serif-cjk"])
def test_full_width_marks_compress_with_the_faces_halt(fonts, family: str) -> None:
    """Noto Sans and Serif CJK both carry `halt`: a closing mark before an opening one
    gives up its right half (16 px → 8 px), the opening mark keeps its blank left half
    for a line start."""
    comma, quote = shaped("，“", fonts, family=family)
    assert (comma.width, quote.width) == (8.0, 16.0)
    assert (quote.trim_start, comma.trim_end) == (8.0, 0.0)


def _lookups(post: str, theme: str) -> int:
    """How many times laying out `post` asks HarfBuzz's cache for a run's glyphs, after
    another post was laid out (so nothing of `post` is the last thing shaped)."""
    fonts, options = layout.FontBook.load(), layout.RenderOptions()
    look = themes.load(theme)
    layout.layout_cards("Something else entirely", look, fonts, options)
    before = shape_cached.cache_info()
    layout.layout_cards(post, look, fonts, options)
    after = shape_cached.cache_info()
    return after.hits + after.misses - before.hits - before.misses


@pytest.mark.parametrize("theme", ["apple-notes", "art-deco"])
@pytest.mark.parametrize("text", ["Plain words here", "成都的一天，慢慢走"])
def test_a_heading_is_shaped_once(theme: str, text: str) -> None:
    """A heading is shaped to measure its longest word, then laid out in the same spans:
    the layout takes the measure's clusters, so a heading asks for its runs' glyphs as
    often as the same words in a paragraph (it asked twice as often: 4 lookups against 2)."""
    assert _lookups(f"## {text}", theme) == _lookups(text, theme)
