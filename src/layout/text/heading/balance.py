"""Lines → balanced lines: a heading set as CSS `text-wrap: balance` sets it.

The same number of lines as greedy filling (`linebreak.break_lines`) gives, at the narrowest
width that keeps that number, so a two-line heading is two lines of about equal length
rather than a full line and a stub; a wider set whose lines end at more pauses, or one that
breaks after a pause first, wins (`balance_lines`). Pure, no fonts. May import:
`layout.text` (`linebreak`, `opportunities`), `layout.base` (`records`).
"""

from __future__ import annotations

from ...base.records import replaced
from ..linebreak import (
    CLOSING,
    NO_EDGES,
    OPENING,
    PAUSES,
    Edges,
    LineRange,
    break_lines,
    content_end,
    measured,
    widest_piece,
)
from ..opportunities import ALLOWED, MANDATORY

BALANCE_MAX_LINES = 6  # longer text is left greedy (Chromium balances at most six lines)
BALANCE_PRECISION = 0.5  # px: the binary search for the balanced width stops here
BALANCE_STEPS = 16  # widths tried between the balanced and the full one for breaks at punctuation
PAUSE_SHARE = 0.4  # a first line that ends at a pause may be this share of the second
# A heading line that ends on one of these ends a modifier ("5 个让效率翻倍的 / 小习惯"): a
# softer pause than punctuation, but a break between two words of one clause ("5 个让效率 /
# 翻倍的小习惯") reads worse. Balancing takes one where no line is under `PAUSE_SHARE` of
# the longest.
PHRASE_ENDS = frozenset("的")


def balance_lines(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None = None,
    *,
    pause_first: bool = True,
) -> list[LineRange]:
    """Greedy lines at the narrowest width (not under the widest unbreakable piece, so no
    word is broken that greedy filling kept whole) that gives as many lines as `max_width`
    does: the lines come out about equally long, as CSS `text-wrap: balance` sets them;
    but a wider set whose lines end at more punctuation wins (`_at_pauses`), or, with
    `pause_first`, one that breaks after a pause first (`_after_pause`). Text with a
    forced break (a clause end `ranks` makes one) is balanced part by part (`_by_parts`)."""
    if MANDATORY in allowed[:-1]:
        return _by_parts(texts, widths, allowed, max_width, edges, pause_first=pause_first)
    lines = break_lines(texts, widths, allowed, max_width, edges)
    low = widest_piece(texts, widths, allowed)
    if not 2 <= len(lines) <= BALANCE_MAX_LINES or low >= max_width:
        return lines
    best, high = lines, max_width
    trial = break_lines(texts, widths, allowed, low, edges)
    if len(trial) == len(lines):
        best, high = trial, low
    while high - low > BALANCE_PRECISION:
        middle = (low + high) / 2
        trial = break_lines(texts, widths, allowed, middle, edges)
        if len(trial) == len(lines):
            best, high = trial, middle
        else:
            low = middle
    depths = _bracket_depths(texts)  # read by every set's `_ends`: counted once
    best, rank = _at_pauses(best, high, texts, widths, allowed, max_width, edges, depths)
    if not pause_first or rank[0] == len(best) - 1:
        return best
    return _after_pause(texts, widths, allowed, max_width, edges, best, rank, depths)


def _at_pauses(
    balanced: list[LineRange],
    narrowest: float,
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None,
    depths: list[int],
) -> tuple[list[LineRange], tuple[int, int]]:
    """Of the line sets as many as `balanced` between its width and `max_width`, the
    narrowest whose lines end at the most pauses (punctuation), then at the most phrase
    ends (`PHRASE_ENDS`, lines even enough); `balanced` when none ends better. With the
    set, how it ends (`_ends`; `depths`: `_bracket_depths` of `texts`)."""
    best, rank = balanced, _ends(balanced, texts, depths)
    if rank[0] >= len(balanced) - 1 or not any(t[-1:] in PAUSES | PHRASE_ENDS for t in texts):
        return best, rank  # no line could end better than it does already
    step = (max_width - narrowest) / BALANCE_STEPS
    for n in range(1, BALANCE_STEPS + 1):
        trial = break_lines(texts, widths, allowed, narrowest + n * step, edges)
        if len(trial) == len(balanced) and _better(trial, texts, rank, depths):
            best, rank = trial, _ends(trial, texts, depths)
    return best, rank


def _better(
    lines: list[LineRange], texts: list[str], rank: tuple[int, int], depths: list[int]
) -> bool:
    """Whether `lines` end at more pauses than `rank` counts, or at as many and more
    phrase ends with no line under `PAUSE_SHARE` of the longest."""
    pauses, ends = _ends(lines, texts, depths)
    if pauses != rank[0]:
        return pauses > rank[0]
    longest = max(line.width for line in lines)
    return ends > rank[1] and min(line.width for line in lines) >= PAUSE_SHARE * longest


def _after_pause(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None,
    best: list[LineRange],
    rank: tuple[int, int],
    depths: list[int],
) -> list[LineRange]:
    """`best`, or as many lines that break after a pause first and balance the rest
    (`balance_lines`), where they end at more pauses or phrase ends (`_ends`) with no
    line under `PAUSE_SHARE` of the longest: no width gives them to greedy filling, which
    fills the first line ("打工人必备：5 个让效率 / 翻倍的小习惯" broke inside 效率翻倍, where a
    designer sets "打工人必备： / 5 个让效率翻倍的小习惯"; in three lines "打工人必备： / 5
    个让效率翻倍的 / 小习惯"). Of several that end as well, the most even."""
    chosen, evenness = best, 0.0
    edged = edges or [NO_EDGES] * len(texts)
    for i, text in enumerate(texts[:-1]):
        if text[-1:] not in PAUSES or allowed[i] != ALLOWED or depths[i + 1]:
            continue
        first = measured(texts, widths, edged, 0, i + 1, max_width)
        if first is None:
            break  # a later pause fits no better
        # balanced once: a pause-first rest in turn would branch at every pause
        rest = _part(texts, widths, allowed, max_width, edges, slice(i + 1, None), False)
        trial = [first, *rest]
        if len(trial) != len(best):
            continue
        even = min(line.width for line in trial) / max(line.width for line in trial)
        found = _ends(trial, texts, depths)
        closer = found == rank and chosen is not best and even > evenness
        if even >= PAUSE_SHARE and (found > rank or closer):
            chosen, rank, evenness = trial, found, even
    return chosen


def _by_parts(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None,
    *,
    pause_first: bool,
) -> list[LineRange]:
    """Each part of a text between its forced breaks balanced on its own, at its own
    narrowest width: balanced as one, a part kept the width of the widest line of another
    and left a word alone ("HOW I GOT MY / MORNINGS BACK: / 6 HABITS THAT / STUCK", where a
    designer sets "6 HABITS / THAT STUCK")."""
    ends = [i + 1 for i, kind in enumerate(allowed[:-1]) if kind == MANDATORY] + [len(texts)]
    lines: list[LineRange] = []
    for start, end in zip([0, *ends[:-1]], ends, strict=True):
        part = slice(start, end)
        lines.extend(_part(texts, widths, allowed, max_width, edges, part, pause_first))
    return lines


def _part(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None,
    part: slice,
    pause_first: bool,
) -> list[LineRange]:
    """`balance_lines` of the clusters `part` (a slice from its start), as lines of the
    whole text."""
    balanced = balance_lines(
        texts[part],
        widths[part],
        allowed[part],
        max_width,
        edges[part] if edges else None,
        pause_first=pause_first,
    )
    return _shifted(balanced, part.start or 0)


def _shifted(lines: list[LineRange], offset: int) -> list[LineRange]:
    """`lines` laid out from cluster `offset` on, as lines of the whole text."""
    return [replaced(line, start=line.start + offset, end=line.end + offset) for line in lines]


def _ends(lines: list[LineRange], texts: list[str], depths: list[int]) -> tuple[int, int]:
    """How many lines but the last end on punctuation (`PAUSES`) outside brackets
    (`depths`, `_bracket_depths`), and how many on a phrase end: `PHRASE_ENDS`, or a
    space (a writer's own break in CJK text: "成都3天2晚🐼 / 不踩雷的City Walk路线"; in
    English every line ends at one, and none wins)."""
    pauses = ends = 0
    for line in lines[:-1]:
        end = content_end(texts, line.start, line.end)
        last = texts[end - 1][-1:] if end > line.start else ""
        pauses += last in PAUSES and not depths[end]
        ends += last in PHRASE_ENDS or end < line.end
    return pauses, ends


def _bracket_depths(texts: list[str]) -> list[int]:
    """How many brackets are open before each cluster (and after the last): a comma inside
    "（收入、踩坑与心态）" lists within one phrase, and a heading broken there reads as
    "第一年复盘（收入、 / 踩坑与心态）" (14 theme-modes), not as a pause."""
    depths, depth = [0], 0
    for text in texts:
        depth += sum(char in OPENING for char in text)
        depth = max(0, depth - sum(char in CLOSING for char in text))
        depths.append(depth)
    return depths
