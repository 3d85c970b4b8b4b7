"""Styled text spans → `Cluster`s: shaped, unbreakable units with advances in px.

A cluster is one grapheme, or several when HarfBuzz fused them into one glyph cluster (a
ligature). Each grapheme gets the first face of its family's chain that covers it; emoji
sequences (ZWJ, flags, keycaps, skin tones, VS16) go to the emoji face first, and spaces
stay in the family's own face (the emoji font's space is 1.25 em wide). Font units
become px here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex
import uharfbuzz as hb

from .fonts import Face, FontBook

_GRAPHEME = regex.compile(r"\X")
_EMOJI_SEQUENCE = regex.compile(
    r"\p{Emoji_Presentation}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\uFE0F|\u20E3"
)
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
UNSAFE_TO_BREAK = int(hb.GlyphFlags.UNSAFE_TO_BREAK)
NO_LIGATURES = {"liga": False, "calt": False, "clig": False, "dlig": False}


@dataclass(frozen=True, slots=True)
class SpanStyle:
    """How a run of inline text looks; one per combination of inline roles."""

    family: str
    size: float
    bold: bool
    italic: bool
    color: int
    background: int | None = None  # inline code panel
    radius: float = 0.0
    pad_x: float = 0.0
    strike: bool = False
    link: bool = False
    ligatures: bool = True


@dataclass(frozen=True, slots=True)
class Span:
    text: str
    style: SpanStyle


@dataclass(frozen=True, slots=True)
class Cluster:
    """An unbreakable unit of shaped text; `xs`/`ys` are glyph pen offsets from its start."""

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

    @property
    def is_space(self) -> bool:
        return self.text == " "

    @property
    def is_newline(self) -> bool:
        return self.text == "\n"


def shape(spans: list[Span], fonts: FontBook) -> list[Cluster]:
    """Shapes every span and returns its clusters in logical order."""
    clusters: list[Cluster] = []
    for span in spans:
        if not span.text:
            continue
        span_clusters = _shape_span(span, fonts)
        if span.style.pad_x and span_clusters:
            span_clusters[0] = _padded(span_clusters[0], left=span.style.pad_x)
            span_clusters[-1] = _padded(span_clusters[-1], right=span.style.pad_x)
        clusters.extend(span_clusters)
    return clusters


def _padded(cluster: Cluster, *, left: float = 0.0, right: float = 0.0) -> Cluster:
    return Cluster(
        text=cluster.text,
        width=cluster.width + left + right,
        face=cluster.face,
        glyphs=cluster.glyphs,
        xs=tuple(x + left for x in cluster.xs),
        ys=cluster.ys,
        style=cluster.style,
        unsafe_before=cluster.unsafe_before,
        pad_left=cluster.pad_left + left,
        pad_right=cluster.pad_right + right,
    )


def _shape_span(span: Span, fonts: FontBook) -> list[Cluster]:
    chain = fonts.chain(span.style.family, span.style.bold)
    out: list[Cluster] = []
    for face, graphemes in _segments(span.text, chain):
        if graphemes == ["\n"]:
            out.append(Cluster("\n", 0.0, face, (), (), (), span.style))
            continue
        out.extend(_shape_segment(face, graphemes, span.style))
    return out


def _segments(text: str, chain: tuple[Face, ...]) -> list[tuple[Face, list[str]]]:
    """Groups consecutive graphemes that use the same face; newlines stand alone."""
    segments: list[tuple[Face, list[str]]] = []
    for grapheme in _GRAPHEME.findall(text):
        face = pick_face(grapheme, chain)
        if (
            grapheme == "\n"
            or not segments
            or segments[-1][0] is not face
            or segments[-1][1] == ["\n"]
        ):
            segments.append((face, [grapheme]))
        else:
            segments[-1][1].append(grapheme)
    return segments


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


def _shape_segment(face: Face, graphemes: list[str], style: SpanStyle) -> list[Cluster]:
    text = "".join(graphemes)
    gids, clusters, advances, offsets_x, offsets_y, flags = _shape_cached(
        face, text, style.ligatures
    )
    scale = style.size / face.upem
    starts = set(clusters)
    out: list[Cluster] = []
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
            while end < len(gids) and clusters[end] < offset:
                end += 1
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
                    unsafe=bool(flags[glyph_index] & UNSAFE_TO_BREAK)
                    if glyph_index < len(flags) and pending_start
                    else False,
                )
            )
            glyph_index = end
        pending, pending_start = grapheme, offset
        offset += len(grapheme)
    return out


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
def _shape_cached(face: Face, text: str, ligatures: bool) -> tuple[tuple[int, ...], ...]:
    """HarfBuzz output in font units; cached because cards repeat words and markers."""
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(face.hb_font, buf, {} if ligatures else NO_LIGATURES)
    infos, positions = buf.glyph_infos, buf.glyph_positions
    return (
        tuple(i.codepoint for i in infos),
        tuple(i.cluster for i in infos),
        tuple(p.x_advance for p in positions),
        tuple(p.x_offset for p in positions),
        tuple(p.y_offset for p in positions),
        tuple(i.flags for i in infos),
    )
