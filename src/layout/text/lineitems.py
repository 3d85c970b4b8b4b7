"""A set line's clusters, their pens and its line box → the items the line paints.

Backgrounds first (inline code panels, highlights, underlines), then the glyph runs (one per
face and style, in a layer with their glyph effects) and formulas, then strike lines.
A styled run cut by a line break (inline code, a link, a highlight) is drawn as one piece
per line, each tight to its glyphs (no background over the space where the line broke)
with square cut ends; only the run's true ends are rounded.
"""

from __future__ import annotations

from ..base.boxes import Fill, GlyphRun, Item, Layer, Rect, Segment, Shape
from ..style.spanstyle import SpanStyle
from .clusters import Cluster
from .linebox import Metrics

ITALIC_SKEW = -0.2  # synthetic oblique, as browsers draw italic for faces without one
STRIKE_RISE = 0.3  # strikethrough height above the baseline, in em
CODE_PAD_Y = 2.0  # vertical padding of inline code panels, px
# Underline dashes in multiples of the line's width (on, off); dots are round-capped.
_UNDERLINE_DASHES = {"dashed": (3.0, 2.0), "dotted": (0.01, 3.0)}


def line_items(
    clusters: list[Cluster], pens: list[float], metrics: Metrics, cuts: tuple[bool, bool]
) -> list[Item]:
    """Backgrounds and underlines first, then glyph runs (in a layer with their effects),
    then strike lines. Highlights and underlines leave out the spaces at a run's ends;
    a run cut by the line's start or end gets a square end there."""
    baseline = metrics.baseline
    under: list[Item] = []
    runs: list[Item] = []
    over: list[Item] = []
    groups = _style_groups(clusters, pens)
    colour = {cluster.face.key for cluster in clusters if cluster.face.is_colour}
    for number, (group, group_pens) in enumerate(groups):
        style = group[0].style
        square = (number == 0 and cuts[0], number == len(groups) - 1 and cuts[1])
        left = group_pens[0] + group[0].pad_left
        right = group_pens[-1] + group[-1].width - group[-1].pad_right
        inked = _inked(group, group_pens)
        if style.background is not None:
            under.append(_code_panel(group, group_pens, baseline, style, square))
        if style.highlight is not None and inked:
            under.append(_highlight(group[0], inked, metrics, square))
        if style.underline != "none" and inked:
            under.append(_underline(style, inked, baseline))
        glyphs: list[Item] = [*_glyph_runs(group, group_pens, baseline)]
        glyphs.extend(_formulas(group, group_pens, baseline))
        if style.effects:  # glyph shadows and glows: drawn, never measured; not for colour
            # glyphs (emoji), whose shadow would be a flat silhouette stamped behind a picture
            bare = [g for g in glyphs if isinstance(g, GlyphRun) and g.face in colour]
            runs += [Layer(tuple(g for g in glyphs if g not in bare), style.effects), *bare]
        else:
            runs.extend(glyphs)
        if style.strike:
            y = baseline - style.size * STRIKE_RISE
            over.append(Segment(left, y, right, y, style.color, max(1.0, style.size / 16)))
    return under + runs + over


def _formulas(group: list[Cluster], pens: list[float], baseline: float) -> list[Shape]:
    """The group's formulas as filled outlines in the text colour, on the baseline."""
    return [
        Shape(cluster.formula.placed(pen, baseline), stroke=None, fill=cluster.style.color)
        for cluster, pen in zip(group, pens, strict=True)
        if cluster.formula is not None
    ]


def _inked(group: list[Cluster], pens: list[float]) -> tuple[float, float] | None:
    """Left and right of a run without the spaces at its ends (and the letter spacing
    after its last character); None for a run of spaces."""
    solid = [i for i, cluster in enumerate(group) if not cluster.is_space]
    if not solid:
        return None
    first, last = group[solid[0]], group[solid[-1]]
    left = pens[solid[0]] + first.pad_left
    right = pens[solid[-1]] + last.width - last.pad_right - last.tracking
    return left, max(left, right)


def _highlight(
    cluster: Cluster, inked: tuple[float, float], metrics: Metrics, square: tuple[bool, bool]
) -> Fill:
    """The run's background: the whole line box, or the lower share of its text (a
    marker stroke)."""
    style = cluster.style
    top, bottom = 0.0, metrics.height
    if style.highlight_height != "line":
        bottom = metrics.baseline + cluster.face.descent * style.size
        text = (cluster.face.ascent + cluster.face.descent) * style.size
        top = bottom - text * float(style.highlight_height)
    left, right = inked
    return Fill(
        Rect(left, top, right - left, bottom - top), style.highlight or 0, style.radius, square
    )


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


def _style_groups(
    clusters: list[Cluster], pens: list[float]
) -> list[tuple[list[Cluster], list[float]]]:
    """Runs of clusters that share a style, with their pens (hard breaks left out)."""
    groups: list[tuple[list[Cluster], list[float]]] = []
    group: list[Cluster] = []
    group_pens: list[float] = []
    last_style = None
    for cluster, pen in zip(clusters, pens, strict=True):
        if cluster.text == "\n":
            continue
        if cluster.style is last_style:
            group.append(cluster)
            group_pens.append(pen)
        else:
            group, group_pens, last_style = [cluster], [pen], cluster.style
            groups.append((group, group_pens))
    return groups


def _code_panel(
    group: list[Cluster],
    pens: list[float],
    baseline: float,
    style: SpanStyle,
    square: tuple[bool, bool],
) -> Fill:
    """The code run's panel: over its padding, but not over spaces where a line broke."""
    solid = [i for i, cluster in enumerate(group) if not cluster.is_space] or [0, len(group) - 1]
    first = solid[0] if square[0] else 0
    last = solid[-1] if square[1] else len(group) - 1
    left, right = pens[first], pens[last] + group[last].width
    face = group[0].face
    top = baseline - face.ascent * style.size - CODE_PAD_Y
    bottom = baseline + face.descent * style.size + CODE_PAD_Y
    rect = Rect(left, top, right - left, bottom - top)
    return Fill(rect, style.background or 0, style.radius, square)


def _glyph_runs(group: list[Cluster], pens: list[float], baseline: float) -> list[GlyphRun]:
    """One run per face inside a style group."""
    runs: list[GlyphRun] = []
    glyphs: list[int] = []
    xs: list[float] = []
    ys: list[float] = []
    face = None
    style = group[0].style
    rise = style.rise  # sup, sub
    for cluster, pen in zip(group, pens, strict=False):
        if face is not None and cluster.face is not face and glyphs:
            runs.append(_run(face.key, style, glyphs, xs, ys))
            glyphs, xs, ys = [], [], []
        face = cluster.face
        if len(cluster.glyphs) == 1:  # the usual cluster, without a generator's cost
            glyphs.append(cluster.glyphs[0])
            xs.append(pen + cluster.xs[0])
            ys.append(baseline + cluster.ys[0] - rise)
            continue
        glyphs.extend(cluster.glyphs)
        xs.extend(pen + dx for dx in cluster.xs)
        ys.extend(baseline + dy - rise for dy in cluster.ys)
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
