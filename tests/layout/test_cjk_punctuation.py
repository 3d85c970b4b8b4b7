"""CJK punctuation in every theme: quotes, dashes, the ellipsis and colons next to Chinese text
come full width from a CJK face, whatever the run's Latin face (mono, typewriter, display,
Kai); the same quotes in an English sentence keep the run's Latin face.

Shaped with the shipped fonts in the styles the themes give their roles.
"""

from __future__ import annotations

import pytest

from inkcard import layout, themes
from inkcard.layout.text.clusters import Cluster
from inkcard.layout.text.punctuation import cjk_context_marks
from inkcard.layout.text.shape import Span, SpanStyle, shape

EM = 20.0
CHINESE = "他说“引号”——破折号……省略号：冒号（括号）。"
MARKS = "“”——……：（）"
# (theme, role): a mono body, a typewriter body, mono and Latin display headings
CASES = [("darktech", "body"), ("darktech", "h1"), ("typewriter", "body"), ("art-deco", "h1")]


def role_style(theme: str, role: str) -> SpanStyle:
    spec = themes.load(theme).roles[role]
    assert spec.family is not None
    bold = spec.weight is not None and spec.weight >= 600
    return SpanStyle(spec.family, EM, bold, False, 0xFF000000)


def marks(clusters: list[Cluster]) -> list[Cluster]:
    return [c for c in clusters if c.text and all(ch in MARKS for ch in c.text)]


@pytest.mark.parametrize(("theme", "role"), CASES)
def test_chinese_punctuation_comes_full_width_from_the_cjk_face(
    fonts: layout.FontBook, theme: str, role: str
) -> None:
    style = role_style(theme, role)
    cjk = fonts.cjk_face(style.family, style.bold)
    latin = fonts.chain(style.family, style.bold)[0]
    assert latin is not cjk  # the theme's run really has a Latin face of its own
    found = marks(shape([Span(CHINESE, style)], fonts))
    assert "".join(c.text for c in found) == MARKS
    for cluster in found[:-1]:  # ） closes before 。: compressed to half, as before
        assert cluster.face is cjk, cluster.text
        assert cluster.width == pytest.approx(len(cluster.text) * EM, abs=0.02 * EM), cluster.text
    assert found[-1].face is cjk and found[-1].width == pytest.approx(EM / 2)


@pytest.mark.parametrize(("theme", "role"), CASES)
def test_english_quotes_keep_the_latin_face(fonts: layout.FontBook, theme: str, role: str) -> None:
    style = role_style(theme, role)
    latin = fonts.chain(style.family, style.bold)[0]
    clusters = shape([Span("He said “like this” — and ‘so’…", style)], fonts)
    shared = [c for c in clusters if c.text in "“”—‘’…"]
    assert len(shared) == 6
    for cluster in shared:
        assert cluster.face is latin, cluster.text
        assert cluster.width < 0.9 * EM, cluster.text


def test_context_crosses_spans(fonts: layout.FontBook) -> None:
    """A quote in a span of its own follows the Chinese in the next span."""
    plain, bold = role_style("darktech", "body"), role_style("darktech", "h1")
    clusters = shape([Span("“", plain), Span("重点", bold), Span("”", plain)], fonts)
    cjk = fonts.cjk_face("mono", False)
    assert [c.face for c in clusters if c.text in "“”"] == [cjk, cjk]


def test_full_width_quotes_compress_like_any_mark(fonts: layout.FontBook) -> None:
    """。 before “ loses its blank half, as in a sans theme."""
    style = role_style("darktech", "body")
    widths = [round(c.width / EM, 2) for c in shape([Span("好。“对”", style)], fonts)]
    assert widths == [1.0, 0.5, 1.0, 1.0, 1.0]


def test_kai_quotes_are_widened_to_an_em(fonts: layout.FontBook) -> None:
    """Kai draws “” narrow (0.35 em): next to Chinese they are set in an em, the blank on
    the open side, so the ink stays against the quoted text."""
    style = SpanStyle("kai", EM, False, False, 0xFF000000)
    open_quote, _, close_quote = shape([Span("“好”", style)], fonts)
    assert open_quote.width == pytest.approx(EM) and close_quote.width == pytest.approx(EM)
    assert open_quote.xs[0] > 0.5 * EM and close_quote.xs[0] == pytest.approx(0.0)
    english = shape([Span("a “b”", style)], fonts)
    assert english[2].width < 0.5 * EM


@pytest.mark.parametrize(
    ("text", "cjk"),
    [("中“a”", [True, False]), ("“a”中", [False, True]), ("a “中” b", [True, True]),
     ("中文 —— 中文", [True]), ("say — it", [False]), ("He said “hi” 中文", [False, False])],
)  # fmt: skip
def test_which_marks_are_chinese(text: str, cjk: list[bool]) -> None:
    offsets = cjk_context_marks(text, japanese=False)
    shared = [i for i, ch in enumerate(text) if ch in "“”—"]
    runs = [i for i in shared if i == 0 or i - 1 not in shared]  # a run's first mark
    assert [i in offsets for i in runs] == cjk


def test_figures_beside_chinese_are_lining_in_a_display_face(fonts: layout.FontBook) -> None:
    """art-deco's display face sets old-style figures (a 3 that dips below the baseline);
    beside Chinese, whose figures sit at cap height, they are lining (3天2晚)."""
    style = role_style("art-deco", "h1")

    def glyph_of(text: str, digit: str) -> tuple[int, ...]:
        [cluster] = [c for c in shape([Span(text, style)], fonts) if c.text == digit]
        return cluster.glyphs

    assert glyph_of("成都3天2晚", "3") != glyph_of("Top 3 days", "3")


@pytest.mark.parametrize(("theme", "role"), CASES)
def test_the_katakana_middle_dot_keeps_its_em_in_japanese(
    fonts: layout.FontBook, theme: str, role: str
) -> None:
    """The shipped faces' Japanese `locl` swapped ・ for a 0.34-em dot (the glyph it shares
    with U+00B7): "二年坂・三年坂" set it squeezed between the kanji."""
    style = role_style(theme, role)
    for text in ("二年坂・三年坂を歩いて", "チーム・開発"):
        [dot] = [c for c in shape([Span(text, style)], fonts) if c.text == "・"]
        assert dot.width >= 0.95 * style.size, (text, dot.width)


@pytest.mark.parametrize("family", ["sans", "serif-cjk"])
def test_curly_quotes_in_english_are_proportional_in_a_cjk_face(
    fonts: layout.FontBook, family: str
) -> None:
    """A CJK face draws “ ” ’ a full em wide, as Chinese sets them: in English text they
    read "don’ t" and “ yes ” (iPhone keyboards type them, the parser curls typed ones)."""
    clusters = shape([Span("don’t say “yes” now", SpanStyle(family, EM, False, False, 0))], fonts)
    for mark in [c for c in clusters if c.text in "’“”"]:
        assert mark.width < 0.5 * EM, (mark.text, mark.width)
    chinese = shape([Span("他说“你好”就走", SpanStyle(family, EM, False, False, 0))], fonts)
    assert [c.width for c in chinese if c.text == "“"] == [EM]  # Chinese keeps its em
