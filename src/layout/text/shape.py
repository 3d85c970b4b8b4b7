"""Styled text spans → `Cluster`s: shaped, unbreakable units with advances in px.

A cluster is one grapheme, or several when HarfBuzz fused them into one glyph cluster (a
ligature). Each grapheme gets the first face of its family's chain that covers it; emoji
sequences (ZWJ, flags, keycaps, skin tones, VS16) go to the emoji face first, and spaces
stay in the family's own face (the emoji font's space is 1.25 em wide). Each run of one
face is shaped into clusters by glyphs.py, where font units become px.

Chinese has no italics. In an italic span, CJK text follows the span's `cjk_italic`:
"kai" (the default, the clreq convention) sets it upright in the book's Kai face, "none"
sets it upright in its usual face, "oblique" slants it like Latin. Latin text in the same
span stays slanted. Kai is a Chinese convention: Japanese (a paragraph with kana) has
none, and its kana in the Kai face read as another hand, wide-set (the Kyoto post's quote
in coil-notebook and cyberpunk, eleventh look), so an italic Japanese span is set as
"none" sets it. Upright CJK clusters carry the span's style with `italic` off, so the
painter draws them without skew. A paragraph with kana in it is shaped as Japanese, so
the Pan-CJK faces' `locl` gives Japanese glyph forms (直, 骨, 角 …).

Quotes, dashes, the ellipsis and the middle dot are shared by Chinese and Latin text. Where
they touch CJK text (across spaces and span edges), they are CJK punctuation: drawn by the
family's CJK face (a mono, typewriter or display family's Latin face would draw narrow
slanted quotes, a short dash, a baseline ellipsis) and full width, by the face's `fwid`
where it has one (Noto's —— becomes one 2-em dash) and else by blank on the side the
mark opens to (Kai's narrow quotes), so compression treats them as any full-width mark.
Next to Latin text they stay in the run's own face.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from ..base.fonts import Face, FontBook, shape_cached
from ..style.spanstyle import CjkItalic as CjkItalic
from ..style.spanstyle import Span as Span
from ..style.spanstyle import SpanStyle as SpanStyle
from . import punctuation, runs
from .clusters import Cluster, padded, spaced, trimmed, with_edges
from .formula.mathbreaks import piece_sources, pieces
from .formula.mathtex import Formula, typeset, typeset_mixed
from .glyphs import glyph_clusters
from .runs import Context, Faces, segments
from .tracking import amounts as spacing_amounts

FULL_WIDTH = ("fwid",)
LINING = ("lnum",)
_WIDTH_FEATURES = {runs.NATURAL: (), runs.FULL: FULL_WIDTH, runs.PROPORTIONAL: ("pwid",)}
BREAK_AFTER = "\u200b"  # between a formula's pieces: a line may end there (opportunities.ZW)
_KANA = regex.compile(r"[\p{Hiragana}\p{Katakana}]")
JAPANESE = "ja"


# The last spans shaped, their fonts and clusters. A heading is shaped to measure its
# longest word (textblocks.fitted_to_words), then at once again to be laid out in the same
# spans: the second takes the first's clusters (equal spans and fonts shape alike; ~4 % of
# the benchmark card). One slot, read and replaced whole: a thread sees one entry or
# another, never half of one.
_last: tuple[list[Span], FontBook, list[Cluster]] | None = None


def shape(spans: list[Span], fonts: FontBook) -> list[Cluster]:
    """Shapes every span and returns its clusters in logical order (a new list: the
    caller may change it)."""
    global _last
    last = _last
    if last is not None and last[1] is fonts and last[0] == spans:
        return list(last[2])
    clusters = _shaped(spans, fonts)
    _last = (list(spans), fonts, clusters)
    return list(clusters)


def _shaped(spans: list[Span], fonts: FontBook) -> list[Cluster]:
    language = paragraph_language(spans)
    cjk = any(_CJK.search(span.text) for span in spans)  # casing adds or drops no CJK
    texts = cased(spans, cjk)
    cjk_marks = punctuation.cjk_context_marks("".join(texts), language == JAPANESE)
    clusters: list[Cluster] = []
    start = 0
    for span, text in zip(spans, texts, strict=True):
        start += len(text)
        if not span.text:
            continue
        context = Context(cjk_marks, start - len(text), language, cjk)
        if span.math:
            span = _math_or_source(span, fonts)
            if span.math:
                clusters.extend(_math_clusters(span, fonts, context))
                continue
        span_clusters = _shape_span(span, text, fonts, context)
        if span.style.pad_x and span_clusters:
            span_clusters[0] = padded(span_clusters[0], left=span.style.pad_x)
            span_clusters[-1] = padded(span_clusters[-1], right=span.style.pad_x)
        clusters.extend(span_clusters)
    if any(span.style.letter_spacing for span in spans):
        clusters = _tracked(clusters)
    return _compress_punctuation(clusters, language == JAPANESE)


def _math_or_source(span: Span, fonts: FontBook) -> Span:
    """The span as is when its LaTeX typesets (whole, or as text and math pieces), else
    its source as text in the fallback look."""
    display = span.math == "display"
    if typeset(span.text, span.style.size, display) is not None:
        return span
    if typeset_mixed(span.text, span.style.size, display) is not None:
        return span
    return Span(span.text, span.fallback or span.style)


def _math_clusters(span: Span, fonts: FontBook, context: Context) -> list[Cluster]:
    """A formula's clusters: whole (`_formula_clusters`), or as text and math pieces."""
    display = span.math == "display"
    if typeset(span.text, span.style.size, display) is None:
        mixed = typeset_mixed(span.text, span.style.size, display)
        if mixed is not None:
            return _mixed_clusters(span, mixed, fonts, context)
    return _formula_clusters(span, fonts)


def _mixed_clusters(
    span: Span,
    mixed: tuple[tuple[str, Formula | None], ...],
    fonts: FontBook,
    context: Context,
) -> list[Cluster]:
    """A formula with Chinese in its outer `\\text{}`: the text shaped as the paragraph's
    text in the span's look (on the formula's baseline, as TeX sets `\\text`), the math
    pieces as formulas; a line does not break between them."""
    face = fonts.chain(span.style.family, span.style.bold)[0]
    out: list[Cluster] = []
    for piece, formula in mixed:
        if formula is None:
            out.extend(_shape_span(Span(piece, span.style), piece, fonts, context))
        else:
            out.append(Cluster(piece, formula.width, face, (), (), (), span.style, formula=formula))
    return out


def _formula_clusters(span: Span, fonts: FontBook) -> list[Cluster]:
    """A typeset formula's clusters: one; or an inline formula's pieces (`mathbreaks`) with
    a zero-width space after each but the last, where a line may end, when every piece
    typesets."""
    face = fonts.chain(span.style.family, span.style.bold)[0]
    parts = pieces(span.text) if span.math == "inline" else [span.text]
    sources = piece_sources(span.text) if span.math == "inline" else [span.text]
    formulas = [typeset(source, span.style.size, span.math == "display") for source in sources]
    if len(parts) > 1 and any(formula is None for formula in formulas):
        parts, formulas = [span.text], [typeset(span.text, span.style.size, False)]
    out: list[Cluster] = []
    for part, formula in zip(parts, formulas, strict=True):
        assert formula is not None  # _math_or_source checked the whole; the pieces above
        if out:
            out.append(Cluster(BREAK_AFTER, 0.0, face, (), (), (), span.style))
        out.append(Cluster(part, formula.width, face, (), (), (), span.style, formula=formula))
    return out


def _compress_punctuation(clusters: list[Cluster], japanese: bool) -> list[Cluster]:
    """Adjacent full-width marks collapse; the blanks left are kept as line-edge trims
    (punctuation.py has the rules)."""
    marks = punctuation.MARKS  # one set lookup per cluster, a call only for marks
    kinds = [_mark_kind(c, japanese) if c.text in marks else None for c in clusters]
    if not any(kinds):
        return clusters
    trims = punctuation.adjacent_trims(kinds, [c.text for c in clusters])
    out: list[Cluster] = []
    for cluster, mark, (cut_left, cut_right) in zip(clusters, kinds, trims, strict=True):
        if mark is None:
            out.append(cluster)
            continue
        em_left, em_right = _blanks(cluster, mark, japanese)
        left, right = em_left * cluster.style.size, em_right * cluster.style.size
        edged = with_edges(
            cluster,
            width=cluster.width,
            xs=cluster.xs,
            trim_start=left if mark is punctuation.Kind.OPEN else 0.0,
            trim_end=right if mark is punctuation.Kind.CLOSE else 0.0,
        )
        out.append(trimmed(edged, left if cut_left else 0.0, right if cut_right else 0.0))
    return out


def _mark_kind(cluster: Cluster, japanese: bool) -> punctuation.Kind | None:
    """The mark's class when it is a full-width mark set as text (not in inline code)."""
    if cluster.text not in punctuation.MARKS:  # most clusters: one set lookup
        return None
    style = cluster.style
    full_width = abs(cluster.width - cluster.tracking - style.size) < 0.05 * style.size
    if len(cluster.glyphs) != 1 or not full_width or style.background is not None:
        return None
    return punctuation.kind(cluster.text, japanese)


def _blanks(cluster: Cluster, mark: punctuation.Kind, japanese: bool) -> tuple[float, float]:
    """The mark's blank (left, right) in em: the font's `halt` where it has one."""
    halt = _halt_blanks(cluster.face, cluster.text, JAPANESE if japanese else None)
    return halt if halt is not None else punctuation.fallback_blanks(mark)


@lru_cache(maxsize=256)
def _halt_blanks(face: Face, text: str, language: str | None) -> tuple[float, float] | None:
    """What the face's `halt` (alternate half widths) takes off each side, in em; None
    when the face has no `halt` for this mark."""
    plain = shape_cached(face, text, True, language)
    half = shape_cached(face, text, True, language, ("halt",))
    if len(plain[0]) != 1 or plain[2] == half[2]:
        return None
    left = -(half[3][0] - plain[3][0])
    right = plain[2][0] - half[2][0] - left
    return left / face.upem, right / face.upem


def paragraph_language(spans: list[Span]) -> str | None:
    """Japanese when any kana is present (a kanji-only span inside it too), else untagged
    (the faces' own default forms: simplified Chinese for the SC faces)."""
    return JAPANESE if any(_KANA.search(span.text) for span in spans) else None


def _shape_span(span: Span, text: str, fonts: FontBook, context: Context) -> list[Cluster]:
    """`span`'s clusters; `text` is its text as drawn (`cased`)."""
    style = span.style
    chain = fonts.chain(style.family, style.bold)
    kai = _kai(fonts, style) if context.language != JAPANESE else None
    faces = Faces(chain, fonts.cjk_face(style.family, style.bold), kai)
    out: list[Cluster] = []
    for segment in segments(text, style, faces, context):
        face, look, graphemes, width = segment
        if graphemes == ["\n"]:
            out.append(Cluster("\n", 0.0, face, (), (), (), look))
            continue
        extra = _WIDTH_FEATURES[width] + (LINING if context.cjk else ())
        shaped = glyph_clusters(face, graphemes, look, context.language, extra)
        if width == runs.FULL:
            shaped = [_full_width(c, context.language == JAPANESE) for c in shaped]
        out.extend(shaped)
    return out


_CJK = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]")
_LETTERS = regex.compile(r"\p{L}+")


def cased(spans: list[Span], cjk: bool) -> list[str]:
    """Each span's text as drawn, after its style's `text_transform`. Uppercase is a
    display face's treatment of Latin text, so a paragraph with Chinese, Japanese or Korean
    in it (`cjk`) keeps its Latin as written (City Walk, asyncio beside 成都 and 并发), and a
    mixed-case word keeps its case anywhere (GitHub, iPhone, macOS)."""
    if not any(span.style.text_transform != "none" for span in spans):
        return [span.text for span in spans]
    return [_transformed(span.text, span.style.text_transform, cjk) for span in spans]


def _transformed(text: str, transform: str, cjk: bool) -> str:
    if transform == "lowercase":
        return text.lower()
    if transform != "uppercase" or cjk:
        return text
    return _LETTERS.sub(lambda word: _upper_word(word.group()), text)


def _upper_word(word: str) -> str:
    """`word` in capitals, unless its own case is part of its name (a capital after a
    lowercase letter: GitHub, iPhone, macOS, LaTeX)."""
    mixed = any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)
    return word if mixed else word.upper()


def _kai(fonts: FontBook, style: SpanStyle) -> Face | None:
    return fonts.cjk_italic.get(style.bold) if style.cjk_italic == "kai" else None


def _full_width(cluster: Cluster, japanese: bool) -> Cluster:
    """A one-glyph mark narrower than an em, widened to one: the blank goes where the mark
    opens to (before an opening quote, after a closing one, both sides of a dash)."""
    style = cluster.style
    blank = style.size - cluster.width  # before `_tracked`: no letter spacing yet
    if len(cluster.glyphs) != 1 or blank <= 0.0:
        return cluster
    mark = punctuation.kind(cluster.text, japanese)
    left = (
        blank
        if mark is punctuation.Kind.OPEN
        else 0.0
        if mark is punctuation.Kind.CLOSE
        else blank / 2
    )
    return with_edges(
        cluster,
        width=cluster.width + blank,
        xs=tuple(x + left for x in cluster.xs),
        trim_start=cluster.trim_start,
        trim_end=cluster.trim_end,
    )


def _tracked(clusters: list[Cluster]) -> list[Cluster]:
    """The clusters with their style's letter spacing added where `spacing_amounts` gives it
    (never to a newline or a formula)."""
    out = []
    for cluster, spacing in zip(clusters, spacing_amounts(clusters), strict=True):
        if not spacing or cluster.is_newline or cluster.formula is not None:
            out.append(cluster)
        else:
            out.append(spaced(cluster, spacing))
    return out
