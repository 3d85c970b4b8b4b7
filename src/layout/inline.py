"""Spans and a width → `TextLine`s: broken, aligned, with glyph runs at absolute x.

Baselines follow CSS half-leading: a line box is `size * line_height` tall and the
primary face's ascent + descent sit centred in it. Justified lines spread the spare width
over inner spaces and CJK character gaps; a paragraph's last line and lines ended by a
hard break stay at the start, as browsers do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .boxes import Fill, GlyphRun, Item, Layer, Rect, Segment, Shape
from .fonts import FontBook
from .linebreak import (
    ALLOWED,
    MANDATORY,
    Brk,
    LineRange,
    break_lines,
    classify,
    hold_short_runs,
    opportunities,
)
from .shape import Cluster, Span, SpanStyle, shape

ITALIC_SKEW = -0.2  # synthetic oblique, as browsers draw italic for faces without one
STRIKE_RISE = 0.3  # strikethrough height above the baseline, in em
CODE_PAD_Y = 2.0  # vertical padding of inline code panels, px
# Underline dashes in multiples of the line's width (on, off); dots are round-capped.
_UNDERLINE_DASHES = {"dashed": (3.0, 2.0), "dotted": (0.01, 3.0)}


@dataclass(frozen=True, slots=True)
class TextLine:
    """One laid-out line: items positioned with y relative to the line's top."""

    height: float
    baseline: float
    width: float
    items: tuple[Item, ...]
    text: str
    left: float = 0.0  # where the line's text starts (after alignment)


@dataclass(frozen=True, slots=True)
class Metrics:
    """The line box of a block: its height and where the baseline sits in it."""

    height: float
    baseline: float
    size: float = 0.0  # the text size they are for; larger inline text grows a line (0: never)


def line_metrics(
    fonts: FontBook, family: str, bold: bool, size: float, line_height: float
) -> Metrics:
    face = fonts.chain(family, bold)[0]
    box = size * line_height
    content = (face.ascent + face.descent) * size
    return Metrics(box, (box - content) / 2 + face.ascent * size, size)


def layout_text(
    spans: list[Span],
    fonts: FontBook,
    *,
    x: float,
    width: float,
    metrics: Metrics,
    align: str = "left",
    keep: int = 0,
) -> list[TextLine]:
    """Shapes, breaks and positions spans into lines no wider than `width`; a run of at
    most `keep` clusters between spaces breaks only if it alone is wider than the line."""
    clusters = shape(spans, fonts)
    if not clusters:
        return []
    texts = [c.text for c in clusters]
    allowed = _allowed(clusters, keep)
    ranges = break_lines(texts, [c.width for c in clusters], allowed, width)
    lines = []
    for index, line in enumerate(ranges):
        last = index == len(ranges) - 1 or allowed[line.end - 1] == MANDATORY
        lines.append(
            _position(
                clusters[line.start : line.end],
                line,
                allowed,
                x=x,
                width=width,
                metrics=metrics,
                align="left" if align == "justify" and last else align,
            )
        )
    return lines


class ContentWidths(NamedTuple):
    """How narrow text can get: its widest single cluster (breaking anywhere), its widest
    unbreakable piece (min-content); and its width on one line (max-content)."""

    glyph: float
    word: float
    line: float


def measure_widths(spans: list[Span], fonts: FontBook, keep: int = 0) -> ContentWidths:
    """The widest cluster, the widest unbreakable piece, and the whole text on one line
    (the widest of its hard-broken lines). With `keep`, a run of at most `keep` clusters
    between spaces is one piece, and a longer run counts as at least its widest `keep`
    clusters in a row (so a column of Chinese text keeps a few characters a line)."""
    clusters = shape(spans, fonts)
    allowed = _allowed(clusters, keep)
    widest_glyph = widest_piece = piece = line = widest_line = 0.0
    for cluster, brk in zip(clusters, allowed, strict=False):
        if not cluster.is_space:
            piece += cluster.width
            widest_glyph = max(widest_glyph, cluster.width)
        line += cluster.width
        if brk in (ALLOWED, MANDATORY):
            widest_piece, piece = max(widest_piece, piece), 0.0
        if brk == MANDATORY:
            widest_line, line = max(widest_line, line), 0.0
    word = max(widest_piece, piece, _widest_window(clusters, keep))
    return ContentWidths(widest_glyph, word, max(widest_line, line))


def _allowed(clusters: list[Cluster], keep: int) -> list[int]:
    texts = [c.text for c in clusters]
    allowed = opportunities(texts, [c.unsafe_before for c in clusters])
    return hold_short_runs(texts, allowed, keep) if keep else allowed


def _widest_window(clusters: list[Cluster], keep: int) -> float:
    """The widest `keep` consecutive clusters inside one run between spaces and breaks."""
    widest = 0.0
    run: list[float] = []
    for cluster in clusters:
        if cluster.is_space or cluster.is_newline or cluster.text in ("\t", "\u3000"):
            run = []
            continue
        run = [*run[1 - keep :], cluster.width] if keep > 1 else [cluster.width]
        widest = max(widest, sum(run))
    return widest if keep else 0.0


def _position(
    clusters: list[Cluster],
    line: LineRange,
    allowed: list[int],
    *,
    x: float,
    width: float,
    metrics: Metrics,
    align: str,
) -> TextLine:
    spare = max(0.0, width - line.width)
    stretch = _justify_slots(clusters) if align == "justify" else []
    extra = spare / len(stretch) if stretch else 0.0
    start = x + {"center": spare / 2, "right": spare}.get(align, 0.0)
    pens: list[float] = []
    pen = start
    slots = set(stretch)
    for i, cluster in enumerate(clusters):
        pens.append(pen)
        pen += cluster.width + (extra if i in slots else 0.0)
    metrics = _grown(clusters, metrics)
    items = _paint(clusters, pens, metrics)
    text = "".join(c.text for c in clusters).rstrip("\n")
    return TextLine(metrics.height, metrics.baseline, line.width, tuple(items), text, start)


def _grown(clusters: list[Cluster], metrics: Metrics) -> Metrics:
    """The line box grown for inline HTML text larger (or raised further) than the
    block's: each such run needs the block's box scaled to its size (inline HTML)."""
    above, below = metrics.baseline, metrics.height - metrics.baseline
    if not metrics.size:
        return metrics
    for cluster in clusters:
        style = cluster.style
        if style.grows and (style.size > metrics.size or style.rise):
            scale = style.size / metrics.size
            above = max(above, metrics.baseline * scale + style.rise)
            below = max(below, (metrics.height - metrics.baseline) * scale - style.rise)
    return Metrics(above + below, above, metrics.size)


def _justify_slots(clusters: list[Cluster]) -> list[int]:
    """Indices of clusters after which justification may add space."""
    end = len(clusters)
    while end and (clusters[end - 1].is_space or clusters[end - 1].is_newline):
        end -= 1
    classes = [classify(c.text) for c in clusters[:end]]
    return [
        i
        for i in range(end - 1)
        if classes[i] == Brk.SP or (classes[i] == Brk.ID and classes[i + 1] == Brk.ID)
    ]


def _paint(clusters: list[Cluster], pens: list[float], metrics: Metrics) -> list[Item]:
    """Backgrounds and underlines first, then glyph runs (in a layer with their effects),
    then strike lines. Highlights and underlines leave out the spaces at a run's ends."""
    baseline = metrics.baseline
    under: list[Item] = []
    runs: list[Item] = []
    over: list[Item] = []
    index = 0
    for group in _style_groups(clusters):
        style = group[0].style
        first, last = index, index + len(group) - 1
        index += len(group)
        left = pens[first] + group[0].pad_left
        right = pens[last] + group[-1].width - group[-1].pad_right
        if style.background is not None:
            under.append(
                _code_panel(group, pens[first], pens[last] + group[-1].width, baseline, style)
            )
        inked = _inked(group, pens[first : last + 1])
        if style.highlight is not None and inked:
            under.append(_highlight(group[0], inked, metrics))
        if style.underline != "none" and inked:
            under.append(_underline(style, inked, baseline))
        glyphs = _glyph_runs(group, pens[first : last + 1], baseline)
        if style.effects:  # glyph shadows and glows: drawn, never measured
            runs.append(Layer(tuple(glyphs), style.effects))
        else:
            runs.extend(glyphs)
        if style.strike:
            y = baseline - style.size * STRIKE_RISE
            over.append(Segment(left, y, right, y, style.color, max(1.0, style.size / 16)))
    return under + runs + over


def _inked(group: list[Cluster], pens: list[float]) -> tuple[float, float] | None:
    """Left and right of a run without the spaces at its ends (and the letter spacing
    after its last character); None for a run of spaces."""
    solid = [i for i, cluster in enumerate(group) if not cluster.is_space]
    if not solid:
        return None
    first, last = group[solid[0]], group[solid[-1]]
    left = pens[solid[0]] + first.pad_left
    right = pens[solid[-1]] + last.width - last.pad_right - last.style.letter_spacing
    return left, max(left, right)


def _highlight(cluster: Cluster, inked: tuple[float, float], metrics: Metrics) -> Fill:
    """The run's background: the whole line box, or the lower share of its text (a
    marker stroke)."""
    style = cluster.style
    top, bottom = 0.0, metrics.height
    if style.highlight_height != "line":
        bottom = metrics.baseline + cluster.face.descent * style.size
        text = (cluster.face.ascent + cluster.face.descent) * style.size
        top = bottom - text * float(style.highlight_height)
    left, right = inked
    return Fill(Rect(left, top, right - left, bottom - top), style.highlight or 0, style.radius)


def _underline(style: SpanStyle, inked: tuple[float, float], baseline: float) -> Item:
    left, right = inked
    y = baseline + style.underline_offset
    width = style.underline_width
    paint = style.color if style.underline_color is None else style.underline_color
    if style.underline == "wavy":
        return Shape(
            _wave(left, right, y, width * 2.0), stroke=paint, fill=None, stroke_width=width
        )
    on_off = _UNDERLINE_DASHES.get(style.underline)
    dash = (on_off[0] * width, on_off[1] * width) if on_off else None
    dotted = style.underline == "dotted"
    return Segment(left, y, right, y, paint, width, dash=dash, round_cap=dotted)


def _wave(left: float, right: float, y: float, amplitude: float) -> tuple[tuple[object, ...], ...]:
    """A wavy line from `left` to `right` around `y`: quarter-period bezier arcs."""
    step = amplitude * 2.0
    ops: list[tuple[object, ...]] = [("M", left, y)]
    x, up = left, True
    while x < right - 1e-6:
        end = min(x + step, right)
        ops.append(("Q", (x + end) / 2, y - amplitude if up else y + amplitude, end, y))
        x, up = end, not up
    return tuple(ops)


def _style_groups(clusters: list[Cluster]) -> list[list[Cluster]]:
    groups: list[list[Cluster]] = []
    for cluster in clusters:
        if cluster.is_newline:
            continue
        if groups and groups[-1][-1].style is cluster.style:
            groups[-1].append(cluster)
        else:
            groups.append([cluster])
    return groups


def _code_panel(
    group: list[Cluster], left: float, right: float, baseline: float, style: SpanStyle
) -> Fill:
    face = group[0].face
    top = baseline - face.ascent * style.size - CODE_PAD_Y
    bottom = baseline + face.descent * style.size + CODE_PAD_Y
    return Fill(Rect(left, top, right - left, bottom - top), style.background or 0, style.radius)


def _glyph_runs(group: list[Cluster], pens: list[float], baseline: float) -> list[GlyphRun]:
    """One run per face inside a style group."""
    runs: list[GlyphRun] = []
    glyphs: list[int] = []
    xs: list[float] = []
    ys: list[float] = []
    face = None
    style = group[0].style
    for cluster, pen in zip(group, pens, strict=False):
        if face is not None and cluster.face is not face and glyphs:
            runs.append(_run(face.key, style, glyphs, xs, ys))
            glyphs, xs, ys = [], [], []
        face = cluster.face
        glyphs.extend(cluster.glyphs)
        xs.extend(pen + dx for dx in cluster.xs)
        ys.extend(baseline + dy - style.rise for dy in cluster.ys)  # rise: sup, sub
    if face is not None and glyphs:
        runs.append(_run(face.key, style, glyphs, xs, ys))
    return runs


def _run(
    face: str, style: SpanStyle, glyphs: list[int], xs: list[float], ys: list[float]
) -> GlyphRun:
    return GlyphRun(
        face=face,
        size=style.size,
        glyphs=tuple(glyphs),
        xs=tuple(xs),
        ys=tuple(ys),
        color=style.color,
        skew=ITALIC_SKEW if style.italic else 0.0,
    )
