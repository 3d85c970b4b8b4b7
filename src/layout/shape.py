"""Styled text spans → `Cluster`s: shaped, unbreakable units with advances in px.

A cluster is one grapheme, or several when HarfBuzz fused them into one glyph cluster (a
ligature). Each grapheme gets the first face of its family's chain that covers it; emoji
sequences (ZWJ, flags, keycaps, skin tones, VS16) go to the emoji face first, and spaces
stay in the family's own face (the emoji font's space is 1.25 em wide). Font units
become px here and nowhere else.

Chinese has no italics. In an italic span, CJK text follows the span's `cjk_italic`:
"kai" (the default, the clreq convention) sets it upright in the book's Kai face, "none"
sets it upright in its usual face, "oblique" slants it like Latin. Latin text in the same
span stays slanted. Upright CJK clusters carry the span's style with `italic` off, so the
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

from dataclasses import replace
from functools import lru_cache

import regex
import uharfbuzz as hb

from . import punctuation
from .fonts import Face, FontBook
from .mathtex import Formula, typeset
from .records import bulk_record
from .spanstyle import CjkItalic as CjkItalic
from .spanstyle import Span as Span
from .spanstyle import SpanStyle as SpanStyle
from .tracking import amounts as spacing_amounts

_GRAPHEME = regex.compile(r"\X")
_EMOJI_SEQUENCE = regex.compile(
    r"\p{Emoji_Presentation}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\uFE0F|\u20E3"
)
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
UNSAFE_TO_BREAK = int(hb.GlyphFlags.UNSAFE_TO_BREAK)
NO_LIGATURES = {"liga": False, "calt": False, "clig": False, "dlig": False}
_CJK = punctuation.CJK_TEXT
FULL_WIDTH = ("fwid",)
_KANA = regex.compile(r"[\p{Hiragana}\p{Katakana}]")
JAPANESE = "ja"
# Graphemes HarfBuzz shapes at once: a longer run of one face and look is cut (after a
# space if there is one near the end), since HarfBuzz gives up on a buffer of some
# 500,000 characters, and a cached shaping result that long would be megabytes.
MAX_SEGMENT = 8192


@bulk_record
class Cluster:
    """An unbreakable unit of shaped text; `xs`/`ys` are glyph pen offsets from its start.
    Every character of a post becomes one: a `bulk_record`."""

    text: str
    width: float
    face: Face
    glyphs: tuple[int, ...]
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    style: SpanStyle
    unsafe_before: bool = False
    pad_left: float = 0.0
    pad_right: float = 0.0
    trim_start: float = 0.0  # blank px an opening mark loses at a line start
    trim_end: float = 0.0  # blank px a closing mark may lose at a line end
    formula: Formula | None = None  # a typeset formula: no glyphs, drawn as outlines
    tracking: float = 0.0  # the letter spacing in `width` (`_tracked` says who gets it)

    @property
    def is_space(self) -> bool:
        return self.text == " "

    @property
    def is_newline(self) -> bool:
        return self.text == "\n"


def shape(spans: list[Span], fonts: FontBook) -> list[Cluster]:
    """Shapes every span and returns its clusters in logical order."""
    language = paragraph_language(spans)
    texts = [_transformed(span.text, span.style) for span in spans]
    cjk_marks = punctuation.cjk_context_marks("".join(texts), language == JAPANESE)
    clusters: list[Cluster] = []
    start = 0
    for span, text in zip(spans, texts, strict=True):
        start += len(text)
        if not span.text:
            continue
        if span.math:
            span = _math_or_source(span, fonts)
            if span.math:
                clusters.append(_formula_cluster(span, fonts))
                continue
        context = _Context(cjk_marks, start - len(text), language)
        span_clusters = _shape_span(span, fonts, context)
        if span.style.pad_x and span_clusters:
            span_clusters[0] = _padded(span_clusters[0], left=span.style.pad_x)
            span_clusters[-1] = _padded(span_clusters[-1], right=span.style.pad_x)
        clusters.extend(span_clusters)
    if any(span.style.letter_spacing for span in spans):
        clusters = _tracked(clusters)
    return _compress_punctuation(clusters, language == JAPANESE)


def _math_or_source(span: Span, fonts: FontBook) -> Span:
    """The span as is when its LaTeX typesets, else its source as text in the fallback look."""
    if typeset(span.text, span.style.size, span.math == "display") is not None:
        return span
    return Span(span.text, span.fallback or span.style)


def _formula_cluster(span: Span, fonts: FontBook) -> Cluster:
    formula = typeset(span.text, span.style.size, span.math == "display")
    assert formula is not None  # _math_or_source checked it
    face = fonts.chain(span.style.family, span.style.bold)[0]
    return Cluster(span.text, formula.width, face, (), (), (), span.style, formula=formula)


def _padded(cluster: Cluster, *, left: float = 0.0, right: float = 0.0) -> Cluster:
    return replace(
        cluster,
        width=cluster.width + left + right,
        xs=tuple(x + left for x in cluster.xs),
        pad_left=cluster.pad_left + left,
        pad_right=cluster.pad_right + right,
    )


def trimmed(cluster: Cluster, left: float = 0.0, right: float = 0.0) -> Cluster:
    """The cluster without `left` px of blank before its ink and `right` px after it."""
    if not left and not right:
        return cluster
    return _edged(
        cluster,
        width=cluster.width - left - right,
        xs=tuple(x - left for x in cluster.xs),
        trim_start=max(0.0, cluster.trim_start - left),
        trim_end=max(0.0, cluster.trim_end - right),
    )


def _edged(
    c: Cluster, *, width: float, xs: tuple[float, ...], trim_start: float, trim_end: float
) -> Cluster:
    """`c` with a new width, pen offsets and edge trims (what `_replace` does, faster)."""
    return Cluster(
        text=c.text,
        width=width,
        face=c.face,
        glyphs=c.glyphs,
        xs=xs,
        ys=c.ys,
        style=c.style,
        unsafe_before=c.unsafe_before,
        pad_left=c.pad_left,
        pad_right=c.pad_right,
        trim_start=trim_start,
        trim_end=trim_end,
        formula=c.formula,
        tracking=c.tracking,
    )


def hyphen_after(cluster: Cluster) -> Cluster:
    """The hyphen drawn after `cluster` when a line breaks inside its word (a soft
    hyphen or a hyphenation point), in the cluster's face and style."""
    hyphen = _hyphen(cluster.face, cluster.style)
    return _spaced(hyphen, cluster.tracking) if cluster.tracking else hyphen


@lru_cache(maxsize=256)
def _hyphen(face: Face, style: SpanStyle) -> Cluster:
    gids, _, advances, offsets_x, offsets_y, _ = _shape_cached(face, "-", True, None)
    return _cluster(
        face,
        style,
        "-",
        style.size / face.upem,
        gids,
        advances,
        offsets_x,
        offsets_y,
        0,
        len(gids),
        unsafe=False,
    )


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
        edged = _edged(
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
    plain = _shape_cached(face, text, True, language)
    half = _shape_cached(face, text, True, language, ("halt",))
    if len(plain[0]) != 1 or plain[2] == half[2]:
        return None
    left = -(half[3][0] - plain[3][0])
    right = plain[2][0] - half[2][0] - left
    return left / face.upem, right / face.upem


@bulk_record
class _Context:
    """What a span's shaping needs from its paragraph: the offsets of its CJK-context
    marks (`punctuation.cjk_context_marks`), where the span starts, the language."""

    cjk_marks: frozenset[int]
    start: int
    language: str | None


def paragraph_language(spans: list[Span]) -> str | None:
    """Japanese when any kana is present (a kanji-only span inside it too), else untagged
    (the faces' own default forms: simplified Chinese for the SC faces)."""
    return JAPANESE if any(_KANA.search(span.text) for span in spans) else None


def _shape_span(span: Span, fonts: FontBook, context: _Context) -> list[Cluster]:
    style = span.style
    chain = fonts.chain(style.family, style.bold)
    faces = _Faces(chain, fonts.cjk_face(style.family, style.bold), _kai(fonts, style))
    out: list[Cluster] = []
    text = _transformed(span.text, style)
    for segment in _segments(text, style, faces, context):
        face, look, graphemes, full_width = segment
        if graphemes == ["\n"]:
            out.append(Cluster("\n", 0.0, face, (), (), (), look))
            continue
        extra = FULL_WIDTH if full_width else ()
        shaped = _shape_segment(face, graphemes, look, context.language, extra)
        if full_width:
            shaped = [_full_width(c, context.language == JAPANESE) for c in shaped]
        out.extend(shaped)
    return out


_TRANSFORMS = {"uppercase": str.upper, "lowercase": str.lower}


def _transformed(text: str, style: SpanStyle) -> str:
    return _TRANSFORMS.get(style.text_transform, str)(text)


def _kai(fonts: FontBook, style: SpanStyle) -> Face | None:
    return fonts.cjk_italic.get(style.bold) if style.cjk_italic == "kai" else None


@bulk_record
class _Faces:
    """A span's faces: its family's chain, the chain's CJK face, and the face for its
    upright CJK when it is italic (Kai), if any."""

    chain: tuple[Face, ...]
    cjk: Face
    kai: Face | None


_Segment = tuple[Face, SpanStyle, list[str], bool]  # face, look, graphemes, full width


def _segments(text: str, style: SpanStyle, faces: _Faces, context: _Context) -> list[_Segment]:
    """Groups consecutive graphemes that use the same face and style; newlines stand
    alone. Upright CJK in an italic span takes the upright style (and Kai, if it draws it).
    CJK-context marks take the CJK face, and a group of their own when that face draws
    them narrower than an em (the group is then set full width)."""
    graphemes = _GRAPHEME.findall(text)
    upright_cjk = style.italic and style.cjk_italic != "oblique"
    marks, offset = context.cjk_marks, context.start
    if not upright_cjk and (not marks or marks.isdisjoint(range(offset, offset + len(text)))):
        return _segments_by_face(graphemes, style, faces.chain)
    segments: list[_Segment] = []
    last: tuple[Face | None, SpanStyle, bool] = (None, style, False)
    group: list[str] = []
    for grapheme in graphemes:
        face, look, full = _face_for(grapheme, faces.chain), style, False
        cjk_mark = bool(marks) and offset in marks
        offset += len(grapheme)
        if cjk_mark and _draws(faces.cjk, grapheme):
            face = faces.cjk
        if upright_cjk and (cjk_mark or _CJK.match(grapheme)):
            look = _upright(style)
            if faces.kai is not None and _draws(faces.kai, grapheme):
                face = faces.kai
        if cjk_mark:
            full = _narrow(face, grapheme)
        if grapheme == "\n" or (face, look, full) != last or group == ["\n"]:
            group = [grapheme]
            segments.append((face, look, group, full))
            last = (face, look, full)
        else:
            if len(group) >= MAX_SEGMENT:
                group = _cut_long(group)
                segments.append((face, look, group, full))
            group.append(grapheme)
    return segments


def _segments_by_face(
    graphemes: list[str], style: SpanStyle, chain: tuple[Face, ...]
) -> list[_Segment]:
    """`_segments` of a span where only the face changes (most text: upright, no mark in a
    CJK context), without the checks the other cases need on every grapheme."""
    segments: list[_Segment] = []
    last: Face | None = None
    group: list[str] = []
    face_for = _face_for
    for grapheme in graphemes:
        face = face_for(grapheme, chain)
        if face is not last or grapheme == "\n" or group[0] == "\n":
            group = [grapheme]
            segments.append((face, style, group, False))
            last = face
        else:
            if len(group) >= MAX_SEGMENT:
                group = _cut_long(group)
                segments.append((face, style, group, False))
            group.append(grapheme)
    return segments


@lru_cache(maxsize=1024)
def _narrow(face: Face, grapheme: str) -> bool:
    """Whether `face` draws the mark narrower than an em (`fwid` or blank must widen it)."""
    advances = _shape_cached(face, grapheme, True, None)[2]
    return len(advances) != 1 or advances[0] < face.upem


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
    return _edged(
        cluster,
        width=cluster.width + blank,
        xs=tuple(x + left for x in cluster.xs),
        trim_start=cluster.trim_start,
        trim_end=cluster.trim_end,
    )


def _cut_long(group: list[str]) -> list[str]:
    """Cuts a segment of MAX_SEGMENT graphemes after its last space in the last eighth
    (else at its end): keeps the head in place, returns the tail as the new group."""
    floor = len(group) - MAX_SEGMENT // 8
    cut = next((i + 1 for i in range(len(group) - 1, floor, -1) if group[i] == " "), len(group))
    tail = group[cut:]
    del group[cut:]
    return tail


@lru_cache(maxsize=256)
def _upright(style: SpanStyle) -> SpanStyle:
    """The same look without italic; one object per look, so painting groups it."""
    return replace(style, italic=False)


def _draws(face: Face, grapheme: str) -> bool:
    return all(face.covers(ord(c)) for c in grapheme if not _IGNORABLE.match(c))


def pick_face(grapheme: str, chain: tuple[Face, ...]) -> Face:
    """The first face that draws the whole grapheme; emoji sequences try emoji first."""
    if grapheme.isspace():
        return chain[0]
    codepoints = [ord(c) for c in grapheme if not _IGNORABLE.match(c)] or [ord(grapheme[0])]
    if _EMOJI_SEQUENCE.search(grapheme):
        emoji = next((f for f in chain if f.is_emoji), None)
        if emoji is not None and emoji.covers(codepoints[0]):
            return emoji
    for face in chain:
        if all(face.covers(cp) for cp in codepoints):
            return face
    for face in chain:
        if face.covers(codepoints[0]):
            return face
    return chain[0]


# Bounded: a card's graphemes per chain are a few hundred distinct characters.
_face_for = lru_cache(maxsize=8192)(pick_face)


def _shape_segment(
    face: Face,
    graphemes: list[str],
    style: SpanStyle,
    language: str | None,
    extra: tuple[str, ...] = (),
) -> list[Cluster]:
    text = "".join(graphemes)
    gids, clusters, advances, offsets_x, offsets_y, flags = _shape_cached(
        face, text, style.ligatures, language, extra
    )
    scale = style.size / face.upem
    if len(gids) == len(text) == len(graphemes) and clusters == tuple(range(len(text))):
        shaped = (gids, advances, offsets_x, offsets_y, flags)
        return _one_glyph_each(face, text, style, scale, shaped)
    starts = set(clusters)
    out: list[Cluster] = []
    glyph_count = len(gids)
    glyph_index = 0
    offset = 0
    pending = ""
    pending_start = 0
    for grapheme in [*graphemes, ""]:
        # A grapheme starts a new unit only where a glyph cluster starts (not inside a ligature).
        if grapheme and pending and offset not in starts:
            pending += grapheme
            offset += len(grapheme)
            continue
        if pending:
            end = glyph_index
            while end < glyph_count and clusters[end] < offset:
                end += 1
            unsafe = (
                pending_start > 0
                and glyph_index < glyph_count
                and bool(flags[glyph_index] & UNSAFE_TO_BREAK)
            )
            if end == glyph_index + 1:  # the usual unit: one glyph, `_cluster`'s sums inline
                out.append(
                    Cluster(
                        pending,
                        0.0 + advances[glyph_index] * scale,
                        face,
                        (gids[glyph_index],),
                        (0.0 + offsets_x[glyph_index] * scale,),
                        (-offsets_y[glyph_index] * scale,),
                        style,
                        unsafe,
                    )
                )
            else:
                out.append(
                    _cluster(
                        face,
                        style,
                        pending,
                        scale,
                        gids,
                        advances,
                        offsets_x,
                        offsets_y,
                        glyph_index,
                        end,
                        unsafe=unsafe,
                    )
                )
            glyph_index = end
        pending, pending_start = grapheme, offset
        offset += len(grapheme)
    return out


def _one_glyph_each(
    face: Face,
    text: str,
    style: SpanStyle,
    scale: float,
    shaped: tuple[tuple[int, ...], ...],
) -> list[Cluster]:
    """The clusters of a segment whose every character is one glyph (most text): the
    sums `_cluster` makes, for a whole segment at once."""
    gids, advances, offsets_x, offsets_y, flags = shaped
    return [
        Cluster(
            char,
            0.0 + advance * scale,
            face,
            (gid,),
            (0.0 + dx * scale,),
            (-dy * scale,),
            style,
            index > 0 and bool(flag & UNSAFE_TO_BREAK),
        )
        for index, (char, gid, advance, dx, dy, flag) in enumerate(
            zip(text, gids, advances, offsets_x, offsets_y, flags, strict=True)
        )
    ]


def _cluster(
    face: Face,
    style: SpanStyle,
    text: str,
    scale: float,
    gids: tuple[int, ...],
    advances: tuple[int, ...],
    offsets_x: tuple[int, ...],
    offsets_y: tuple[int, ...],
    start: int,
    end: int,
    *,
    unsafe: bool,
) -> Cluster:
    xs: list[float] = []
    ys: list[float] = []
    pen = 0.0
    for i in range(start, end):
        xs.append(pen + offsets_x[i] * scale)
        ys.append(-offsets_y[i] * scale)
        pen += advances[i] * scale
    return Cluster(
        text=text,
        width=pen,
        face=face,
        glyphs=gids[start:end],
        xs=tuple(xs),
        ys=tuple(ys),
        style=style,
        unsafe_before=unsafe,
    )


@lru_cache(maxsize=4096)
def _shape_cached(
    face: Face, text: str, ligatures: bool, language: str | None, extra: tuple[str, ...] = ()
) -> tuple[tuple[int, ...], ...]:
    """HarfBuzz output in font units; cached because cards repeat words and markers.
    `extra` names features to turn on."""
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    if language:
        buf.language = language
    features = {} if ligatures else dict(NO_LIGATURES)
    features.update(dict.fromkeys(extra, True))
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


def _tracked(clusters: list[Cluster]) -> list[Cluster]:
    """The clusters with their style's letter spacing added where `spacing_amounts` gives it
    (never to a newline or a formula)."""
    out = []
    for cluster, spacing in zip(clusters, spacing_amounts(clusters), strict=True):
        if not spacing or cluster.is_newline or cluster.formula is not None:
            out.append(cluster)
        else:
            out.append(_spaced(cluster, spacing))
    return out


def _spaced(cluster: Cluster, spacing: float) -> Cluster:
    """The cluster `spacing` px wider after its glyphs."""
    return replace(cluster, width=cluster.width + spacing, tracking=cluster.tracking + spacing)
