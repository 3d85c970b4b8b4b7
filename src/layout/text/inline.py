"""Spans and a width → `TextLine`s: broken, aligned, with glyph runs at absolute x.

Lines are set in a block's line box (linebox.py), grown for larger inline text. Justified
lines spread the spare width (what is left after punctuation compression) over inner spaces,
CJK character gaps and the gaps after a closing or before an opening mark, never past what
reads as set solid (`LOOSE_GAP`); a line that pulled a piece up takes its marks' blanks in
(`LineRange.squeeze`). The breaks are chosen to avoid a loose line, and one no break
helps is set at the start; a paragraph's last line and lines ended by a hard break stay at
the start, as browsers do. Where a line may break is breakpoints.py's; what each line
paints (backgrounds, glyph runs, strike lines) is lineitems.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import regex

from ..base.fonts import FontBook
from ..style.spanstyle import Span
from .breakpoints import line_breaks, line_edges
from .clusters import Cluster, trimmed
from .glyphs import hyphen_after
from .heading.balance import balance_lines
from .heading.lead import lead_lines, reads_as_display
from .linebox import Metrics, TextLine
from .linebreak import Edges, LineRange, avoid_lone_last, break_lines
from .lineitems import line_items
from .lines.pretty import even_lines, pretty_lines
from .lines.wholewords import whole_words
from .opportunities import ALLOWED, HANGING, HYPHEN, MANDATORY, NEVER, SOFT_HYPHEN, Brk, classify
from .shape import shape

# Justification: a Latin word space stretches at most this much (em), so Latin in a
# justified CJK block is set near its natural spacing (a space is about a quarter em: at
# most about twice that, past which word gaps read as rivers); ideograph gaps take the rest.
LATIN_STRETCH = 0.25
# A CJK gap takes at most this much (em). Looked at in kai at 17 px, 0 to 0.25 em a gap:
# up to 0.08 em a line still reads as set solid, from 0.125 em as letter-spaced ("太 古 里
# 晚 上", the traditional-chinese tip quote at 0.15 em). clreq (3.5, line adjustment)
# spreads ideographs last, after punctuation and word spaces. A line that would need more
# is set flush start rather than loose, after the breaks were chosen to avoid one
# (pretty.even_lines).
LOOSE_GAP = 0.1
# A title's separators: where a display line (a heading, a cover's lead) breaks after one,
# it is left out, as a designer drops the bar at the break ("在家 20 分钟燃脂训练｜" /
# "零器械也能练出马甲线🔥" ended its first line on a stray stroke in 47 of 210 sets at
# 500x500, seventh look).
SEPARATORS = frozenset("｜|")
_CJK_GAPS = frozenset({(Brk.ID, Brk.ID), (Brk.ID, Brk.AL), (Brk.AL, Brk.ID)})
_MARK_NEIGHBOURS = frozenset({Brk.ID, Brk.AL})  # what a gap at a mark may open onto
# CJK text: Han, kana, bopomofo, Hangul, CJK punctuation and full-width forms.
_CJK_TEXT = regex.compile(
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Bopomofo}\p{Hangul}\u3000-\u303F\uFF00-\uFFEF]"
)


def layout_text(
    spans: list[Span],
    fonts: FontBook,
    *,
    x: float,
    width: float,
    metrics: Metrics,
    align: str = "left",
    keep: int = 0,
    prose: bool = True,
    heading: bool = False,
    phrases: bool = False,
    code: bool = False,
    broken: Callable[[int], None] | None = None,
) -> list[TextLine]:
    """Shapes, breaks and positions spans into lines no wider than `width`; a run of at
    most `keep` clusters between spaces breaks only if it alone is wider than the line.
    Only `prose` is hyphenated (never a code block, nor a `heading`, whose lines are
    balanced instead and keep an emoji with its word; a word wider than the line is still
    broken between letters); `phrases` (display prose: a cover's lead) breaks only where a
    heading does, its lines filled evenly (`heading.lead`), unless it reads as a paragraph
    (`lead.reads_as_display`), then as prose, unhyphenated; `code` (a source line) breaks only at
    spaces where it can (`breakpoints.line_breaks`). `broken` hears how many lines there
    are before any is positioned (a caller may refuse text too long for its cards)."""
    clusters = _fit_formulas(shape(spans, fonts), width)
    if not clusters:
        return []
    if align == "justify" and not _has_cjk(clusters):
        align = "left"  # a narrow measure of Latin justified opens rivers: set it ragged
    texts = [c.text for c in clusters]
    widths = [c.width for c in clusters]
    breaks = partial(line_breaks, clusters, texts, widths, width, keep=keep, code=code)
    allowed = breaks(prose=prose, heading=heading or phrases)
    edges = _edges(clusters, allowed)
    if phrases:
        ranges = lead_lines(texts, widths, allowed, width, edges)
        if not reads_as_display(texts, allowed, ranges, width):
            phrases = False  # a paragraph after all: set as prose, in whole words
            allowed = breaks(prose=prose, heading=False, lead=True)
            edges = _edges(clusters, allowed)
    if not phrases:
        fill = balance_lines if heading else break_lines
        ranges = fill(texts, widths, allowed, width, edges)
    if prose and not (heading or phrases) and align != "justify":
        ranges = whole_words(texts, widths, allowed, ranges, width, edges)
    if prose and not heading:  # headings are balanced, code keeps its greedy lines
        ranges = pretty_lines(
            texts, widths, allowed, ranges, width, edges, ragged=align != "justify"
        )
    ranges = avoid_lone_last(texts, widths, allowed, ranges, width, edges)
    if align == "justify" and prose and not heading:
        looseness = _looseness(clusters, allowed, width)
        ranges = even_lines(texts, widths, allowed, ranges, width, edges, looseness)
    if broken is not None:
        broken(len(ranges))
    lines = []
    for index, line in enumerate(ranges):
        last = index == len(ranges) - 1 or allowed[line.end - 1] == MANDATORY
        shown, seen = _line_clusters(
            clusters, line, allowed, bare=(heading or phrases) and not last
        )
        placed = _position(
            shown,
            seen,
            _cut_ends(clusters, line, allowed),
            x=x,
            width=width,
            metrics=metrics,
            align="left" if align == "justify" and last else align,
        )
        end = line.end - 1
        if line.end < len(clusters) and _takes_hyphen(clusters[end], allowed[end]):
            placed = replace(placed, broken_word=True)
        lines.append(placed)
    return lines


def _fit_formulas(clusters: list[Cluster], width: float) -> list[Cluster]:
    """Formulas wider than the column, scaled down to fit it."""
    out = []
    for cluster in clusters:
        formula = cluster.formula
        if formula is not None and formula.width > width > 0:
            small = formula.scaled(width / formula.width)
            cluster = replace(cluster, width=small.width, formula=small)
        out.append(cluster)
    return out


def _edges(clusters: list[Cluster], allowed: list[int]) -> list[Edges]:
    """What each cluster gives up at a line edge (`breakpoints.line_edges`: punctuation
    blanks) or adds there (a hyphen after it)."""
    edges = line_edges(clusters)
    for i, (cluster, brk) in enumerate(zip(clusters, allowed, strict=True)):
        if brk != NEVER and _takes_hyphen(cluster, brk):  # NEVER: the common case, no call
            hyphen = hyphen_after(_hyphen_source(clusters, i)).width
            if hyphen:
                edges[i] = Edges(cluster.trim_start, cluster.trim_end, hyphen)
    return edges


def _takes_hyphen(cluster: Cluster, brk: int) -> bool:
    return brk == HYPHEN or (cluster.text == SOFT_HYPHEN and brk == ALLOWED)


def _hyphen_source(clusters: list[Cluster], i: int) -> Cluster:
    """The letter whose face and style a hyphen after cluster `i` takes."""
    return clusters[i - 1] if clusters[i].text == SOFT_HYPHEN and i else clusters[i]


def _line_clusters(
    clusters: list[Cluster], line: LineRange, allowed: list[int], *, bare: bool = False
) -> tuple[list[Cluster], LineRange]:
    """The line's clusters with its edges applied: the first mark's blank off, the last
    mark's blank off, a hyphen after a broken word; with `bare` (a display line that
    wraps), a separator that ends it, and the spaces before it, unseen (`SEPARATORS`), and
    `line` as wide as what stays seen: centred, "油皮夏天护肤｜" still counted the bar it
    hid and sat 15-20 px left of centre (ninth look, 15 covers at 440x586)."""
    out = clusters[line.start : line.end]
    out[0] = trimmed(out[0], left=line.trim_start)
    content = _content_end(out)
    trim_end = line.trim_end
    if bare and content > 1 and out[content - 1].text in SEPARATORS:
        hidden = -trim_end  # the bar's blank was already off the line's width
        trim_end = 0.0
        end = content - 1
        while end > 0 and out[end].text in SEPARATORS | HANGING:  # its spaces go too
            hidden += out[end].width
            out[end] = _unseen(out[end])
            end -= 1
        line = replace(line, width=line.width - hidden, trim_end=0.0)
    out[content - 1] = trimmed(out[content - 1], right=trim_end)
    end = line.end - 1
    if line.end < len(clusters) and _takes_hyphen(clusters[end], allowed[end]):
        out.insert(content, hyphen_after(_hyphen_source(clusters, end)))
    return out, line


def _unseen(cluster: Cluster) -> Cluster:
    """`cluster` drawn as nothing and taking no room, its text kept (alt text reads it)."""
    return replace(cluster, width=0.0, glyphs=(), xs=(), ys=(), trim_start=0.0, trim_end=0.0)


def _content_end(line: list[Cluster]) -> int:
    """How many of a line's clusters are before the blanks that hang at its end."""
    content = len(line)
    while content > 1 and line[content - 1].text in HANGING:
        content -= 1
    return content


def _cut_ends(clusters: list[Cluster], line: LineRange, allowed: list[int]) -> tuple[bool, bool]:
    """Whether the run at the line's start began on the line before, and whether the run
    at its end goes on to the next line."""
    before = line.start > 0 and clusters[line.start - 1].style is clusters[line.start].style
    after = (
        line.end < len(clusters)
        and allowed[line.end - 1] != MANDATORY
        and clusters[line.end].style is clusters[line.end - 1].style
    )
    return before, after


_INVISIBLE = (SOFT_HYPHEN, "\u200b")  # left out of a line's text


def _position(
    clusters: list[Cluster],
    line: LineRange,
    cuts: tuple[bool, bool],
    *,
    x: float,
    width: float,
    metrics: Metrics,
    align: str,
) -> TextLine:
    spare = max(0.0, width - line.width)
    extra = _justify(clusters, spare) if align == "justify" else {}
    if line.squeeze:
        for i, px in _squeezed(clusters, line.squeeze).items():
            extra[i] = extra.get(i, 0.0) + px
    start = x + {"center": spare / 2, "right": spare}.get(align, 0.0)
    pens: list[float] = []
    pen = start
    for i, cluster in enumerate(clusters):
        pens.append(pen)
        pen += cluster.width + extra.get(i, 0.0)
    metrics = _grown(clusters, metrics)
    items = line_items(clusters, pens, metrics, cuts)
    text = "".join(c.text for c in clusters if c.text not in _INVISIBLE).rstrip("\n")
    stretch = round(_gap_stretch(clusters, extra), 4) if extra else 0.0
    return TextLine(
        metrics.height, metrics.baseline, line.width, tuple(items), text, start, stretch=stretch
    )


def _grown(clusters: list[Cluster], metrics: Metrics) -> Metrics:
    """The line box grown for inline HTML text larger (or raised further) than the
    block's: each such run needs the block's box scaled to its size (inline HTML)."""
    above, below = metrics.baseline, metrics.height - metrics.baseline
    if not metrics.size:
        return metrics
    for cluster in clusters:
        style = cluster.style
        if cluster.formula is not None:  # a tall formula: the line holds it with a gap
            gap = (metrics.height - style.size) / 2
            above = max(above, cluster.formula.ascent + gap)
            below = max(below, cluster.formula.descent + gap)
        elif style.grows and (style.size > metrics.size or style.rise):
            scale = style.size / metrics.size
            above = max(above, metrics.baseline * scale + style.rise)
            below = max(below, (metrics.height - metrics.baseline) * scale - style.rise)
    return Metrics(above + below, above, metrics.size)


def _justify(clusters: list[Cluster], spare: float) -> dict[int, float]:
    """The px justification adds after each cluster: the spare width shared evenly by
    the slots, but a Latin word space takes at most LATIN_STRETCH em and what it leaves
    goes to the CJK slots. None at all (the line set flush start) when that would space a
    CJK gap more than LOOSE_GAP em, or leave spare width with no CJK gap to take it."""
    extra, loose = _spread(clusters, spare)
    return extra if loose <= 1.0 else {}


def _spread(clusters: list[Cluster], spare: float) -> tuple[dict[int, float], float]:
    """The px each slot takes to justify the line fully, and how loose that sets it: its
    loosest gap as a share of the most a gap may take (1: at the limit; a Latin space
    left with spare width it may not take counts past it)."""
    cjk, latin = _justify_slots(clusters)
    if (not cjk and not latin) or spare <= 0:
        return {}, 0.0
    share = spare / (len(cjk) + len(latin))
    out = {i: min(share, LATIN_STRETCH * clusters[i].style.size) for i in latin}
    rest = spare - sum(out.values())
    if not cjk:
        return out, share / (LATIN_STRETCH * min(clusters[i].style.size for i in latin))
    out.update({i: rest / len(cjk) for i in cjk})
    return out, _gap_stretch(clusters, out) / LOOSE_GAP


def _squeezed(clusters: list[Cluster], squeeze: float) -> dict[int, float]:
    """The px a line that pulled a piece up takes back after each cluster: `squeeze`
    shared by its inner marks' blanks in proportion (a closing mark's after it, an
    opening mark's before it), as linebreak.measured counted them."""
    content = _content_end(clusters)
    blanks: dict[int, float] = {}
    for i, cluster in enumerate(clusters[:content]):
        if cluster.trim_end and i < content - 1:
            blanks[i] = blanks.get(i, 0.0) + cluster.trim_end
        if cluster.trim_start and i:
            blanks[i - 1] = blanks.get(i - 1, 0.0) + cluster.trim_start
    share = squeeze / sum(blanks.values())
    return {i: -blank * share for i, blank in blanks.items()}


def _gap_stretch(clusters: list[Cluster], extra: dict[int, float]) -> float:
    """The most (em of its own text) justification adds to a CJK gap; a Latin word space
    aside, as its own limit holds it."""
    cjk, _ = _justify_slots(clusters)
    return max((extra.get(i, 0.0) / clusters[i].style.size for i in cjk), default=0.0)


def _looseness(
    clusters: list[Cluster], allowed: list[int], width: float
) -> Callable[[LineRange], float]:
    """How loose justifying a line of these clusters would set it (`_spread`): what the
    line breaker weighs to choose breaks that need no loose line."""

    def looseness(line: LineRange) -> float:
        return _spread(_line_clusters(clusters, line, allowed)[0], width - line.width)[1]

    return looseness


def _justify_slots(clusters: list[Cluster]) -> tuple[list[int], list[int]]:
    """Indices of clusters after which justification may add space: CJK slots (between
    two ideographs, and where an ideograph meets a Latin letter or a space) and Latin
    word spaces (a space between two non-ideographs)."""
    end = len(clusters)
    while end and (clusters[end - 1].is_space or clusters[end - 1].is_newline):
        end -= 1
    classes = [classify(c.text) for c in clusters[:end]]
    cjk: list[int] = []
    latin: list[int] = []
    for i in range(end - 1):
        here, after = classes[i], classes[i + 1]
        before = classes[i - 1] if i else Brk.SP
        if here == Brk.SP:
            (cjk if Brk.ID in (before, after) else latin).append(i)
        elif (here, after) in _CJK_GAPS or _mark_gap(clusters, i, here, after):
            cjk.append(i)
    return cjk, latin


def _mark_gap(clusters: list[Cluster], i: int, here: Brk, after: Brk) -> bool:
    """Whether justification may open the gap after cluster `i` at a full-width mark:
    after a closing mark, before an opening one, each with its blank half still there
    (jlreq 3.8.3 spreads there too, never between a mark and the character it belongs
    to: "，建" takes a share, "看，" none)."""
    if here == Brk.CLW and clusters[i].trim_end:
        return after in _MARK_NEIGHBOURS or after == Brk.OP
    return after == Brk.OP and here in _MARK_NEIGHBOURS and bool(clusters[i + 1].trim_start)


def _has_cjk(clusters: list[Cluster]) -> bool:
    """Whether any cluster is CJK text (a paragraph without any is never justified)."""
    return _CJK_TEXT.search("".join(c.text for c in clusters)) is not None
