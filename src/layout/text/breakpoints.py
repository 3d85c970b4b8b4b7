"""A paragraph's clusters → where its lines may break, and how narrow that lets it get.

The opportunities (`opportunities`: UAX #14, CJK-aware) with what a reader takes as one
held whole (`units`), inline code kept together, hyphenation points inside long English
words (`words`; never in a word that ends a paragraph and fits a line), a wrapping heading
broken between phrases (`heading`); and from them the text's min- and max-content widths
(`measure_widths`), which a table's columns are sized by.
"""

from __future__ import annotations

from typing import NamedTuple

from ..base.fonts import FontBook
from ..style.spanstyle import Span
from .clusters import Cluster
from .heading import heading_breaks
from .linebreak import NO_EDGES, Edges
from .opportunities import (
    ALLOWED,
    CELL_CODE,
    FORMULA,
    HYPHEN,
    MANDATORY,
    NEVER,
    SHORT_CODE,
    glue_emoji,
    hold_short_runs,
    hold_small_words,
    keep_short_spans,
    keep_units,
    opportunities,
    whole_tokens,
)
from .shape import shape
from .units import keep_whole
from .words import (
    hyphen_points,
    is_han,
)


def line_breaks(
    clusters: list[Cluster],
    texts: list[str],
    widths: list[float],
    width: float,
    *,
    keep: int,
    prose: bool,
    heading: bool,
    code: bool = False,
    lead: bool = False,
) -> list[int]:
    """The break opportunity after each cluster (`opportunities`' kinds) for lines no wider
    than `width`: units held whole in `prose` and a `heading`, a heading's emoji kept with
    its word and its wrapping lines broken between phrases, `prose` hyphenated unless a
    `lead` set as prose (its bold terms, counts and hyphened words held, as in display
    type); `code` keeps its tokens whole (`whole_tokens`)."""
    allowed = _allowed(clusters, keep)
    if code:
        return whole_tokens(texts, allowed)
    if prose or heading:  # code keeps its own breaks
        allowed = keep_whole(texts, allowed)
    if heading:
        allowed = glue_emoji(texts, _bold_terms(clusters, allowed, DISPLAY_TERM, han=False))
        if sum(widths) > width:  # it wraps: between phrases, else between words
            allowed = heading_breaks(texts, widths, allowed, width, line_edges(clusters))
    elif lead:  # display type still: no line ends on a count, none inside a word
        terms = _bold_terms(clusters, allowed, DISPLAY_TERM, han=False)
        allowed = hold_small_words(texts, _whole_compounds(texts, terms), small=False)
    elif prose:
        allowed = _hyphenated(clusters, _bold_terms(clusters, allowed), width)
    return allowed


def line_edges(clusters: list[Cluster]) -> list[Edges]:
    """What each cluster gives up at a line's edge (a full-width mark's blank half), as
    lines are set (`inline.layout_text` adds the hyphens; a heading takes none)."""
    return [
        Edges(c.trim_start, c.trim_end) if c.trim_start or c.trim_end else NO_EDGES
        for c in clusters
    ]


def _allowed(clusters: list[Cluster], keep: int) -> list[int]:
    """The opportunities with units, inline code and (with `keep`: a table cell's) short
    runs held whole, and its inline code up to `CELL_CODE` characters."""
    texts = [c.text if c.formula is None else FORMULA for c in clusters]
    allowed = keep_units(texts, opportunities(texts, [c.unsafe_before for c in clusters]))
    if any(c.style.background is not None for c in clusters):  # inline code, marks
        most = CELL_CODE if keep else SHORT_CODE
        allowed = keep_short_spans(_code_spans(clusters), allowed, most)
    return hold_short_runs(texts, allowed, keep) if keep else allowed


# A run of bold Chinese characters this long or shorter, in a paragraph not bold
# throughout, is a term its writer marked: 不 / 搓泥, 系 / 统 2, 作文 / 模板 broke inside one in
# 18 slide sets (a break between plain characters is as ordinary as ever)
BOLD_TERM = 4
# In display type (a heading, a cover's lead) a bold run this long is one term, its spaces
# and signs too: a cover's lead broke its key phrase as 真题 / + 作文模板
DISPLAY_TERM = 12


def _bold_terms(
    clusters: list[Cluster], allowed: list[int], most: int = BOLD_TERM, *, han: bool = True
) -> list[int]:
    """`allowed` with no break inside a run of 2 to `most` bold clusters, Han characters
    only where `han`."""
    bold = [
        c.style.bold and c.style.background is None and (not han or is_han(c.text[:1]))
        for c in clusters
    ]
    if not any(bold) or all(c.style.bold for c in clusters):
        return allowed
    out = list(allowed)
    start = 0
    for end in range(1, len(clusters) + 1):
        if end < len(clusters) and bold[end] and bold[start]:
            continue
        if bold[start] and 2 <= end - start <= most:
            out[start : end - 1] = [NEVER if k == ALLOWED else k for k in out[start : end - 1]]
        start = end
    return out


def _whole_compounds(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` with no break after a hyphen between two letters: a lead set as prose broke
    "half- / finished apps." as though hyphenated."""
    out = list(allowed)
    for i in range(1, len(texts) - 1):
        if texts[i] in "-\u2010" and texts[i - 1][-1:].isalpha() and texts[i + 1][:1].isalpha():
            out[i] = NEVER if out[i] == ALLOWED else out[i]
    return out


def _code_spans(clusters: list[Cluster]) -> list[int]:
    """For each cluster, a number shared by the clusters of its inline code run (a run
    with a background), or -1 outside code."""
    numbers = []
    number = -1
    for i, cluster in enumerate(clusters):
        if cluster.style.background is None or cluster.formula is not None:
            numbers.append(-1)
            continue
        if not i or cluster.style is not clusters[i - 1].style:
            number = i
        numbers.append(number)
    return numbers


def _hyphenated(clusters: list[Cluster], allowed: list[int], width: float) -> list[int]:
    """`allowed` with the dictionary's hyphenation points inside long English words
    (never inside inline code). Kerning across the point is kept in the measure: a
    fraction of a pixel, where refusing HarfBuzz's unsafe-to-break boundaries would
    refuse nearly every point in a kerned face."""
    texts = [c.text for c in clusters]
    skip = [c.style.background is not None or c.formula is not None for c in clusters]
    out = list(allowed)
    for i in hyphen_points(texts, skip):
        if out[i] == NEVER:
            out[i] = HYPHEN
    return _whole_last_words(clusters, out, width)


def _whole_last_words(clusters: list[Cluster], allowed: list[int], width: float) -> list[int]:
    """`allowed` without hyphenation points in the last word of the text or of a line a
    hard break ends, when that word fits a line: a hyphen there only makes a runt
    ("remem- / ber?"). A last word wider than the line keeps them (it must break)."""
    if HYPHEN not in allowed:
        return allowed  # no hyphenation point at all (short words, CJK)
    out = list(allowed)
    word: list[int] = []  # walking back: the clusters of the last word so far
    in_last = True
    for i in range(len(out) - 1, -1, -1):
        if out[i] == MANDATORY:
            _unhyphenate(out, word, clusters, width)
            word, in_last = [], True
        elif out[i] == ALLOWED and any(clusters[j].text.strip() for j in word):
            _unhyphenate(out, word, clusters, width)
            word, in_last = [], False
        if in_last:
            word.append(i)
    _unhyphenate(out, word, clusters, width)
    return out


def _unhyphenate(out: list[int], word: list[int], clusters: list[Cluster], width: float) -> None:
    if sum(clusters[j].width for j in word) <= width:
        for j in word:
            if out[j] == HYPHEN:
                out[j] = NEVER


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
    widest_glyph = widest_piece = piece = trailing = line = widest_line = 0.0
    for cluster, brk in zip(clusters, allowed, strict=False):
        # a space inside an unbreakable piece counts (`for line in f` in inline code is one
        # piece: measured without its spaces, its column came out 8 px short and the code
        # broke "for line i / n f"); the spaces a piece ends with hang and do not
        piece += cluster.width
        trailing = trailing + cluster.width if cluster.is_space else 0.0
        if not cluster.is_space:
            widest_glyph = max(widest_glyph, cluster.width)
        line += cluster.width
        if brk in (ALLOWED, MANDATORY):
            widest_piece, piece, trailing = max(widest_piece, piece - trailing), 0.0, 0.0
        if brk == MANDATORY:
            widest_line, line = max(widest_line, line), 0.0
    word = max(widest_piece, piece - trailing, _widest_window(clusters, keep))
    return ContentWidths(widest_glyph, word, max(widest_line, line))


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
