"""Cluster texts and widths → line ranges (greedy, CJK-aware; pure, no fonts).

Lines end only where opportunities.py allows (a word wider than the line is broken
rather than allowed to overflow: after an inner mark such as `.` or `(` where one keeps
half the line, else between clusters, never before a closing mark).

Lines are filled greedily. Line edges change widths (`Edges`): an opening mark at a line
start loses its blank half, a closing mark at a line end may lose its blank when the line
would not fit otherwise, and a line ending at a hyphenation point grows by its hyphen. A
hyphenation point (`HYPHEN`, from the dictionary) is used only when the ordinary break
would leave the line very loose. `avoid_lone_last` then pulls one piece down when a
paragraph would end with one CJK character (and its punctuation) alone on a line.

Headings are set as CSS `text-wrap: balance` sets them (`balance_lines`): the same number
of lines as greedy filling gives, at the narrowest width that keeps that number, so a
two-line heading is two lines of about equal length rather than a full line and a stub;
and an emoji is glued to the word before it (`opportunities.glue_emoji`), never left alone
on a line.
"""

from __future__ import annotations

import regex

from ..base.records import bulk_record, replaced
from .opportunities import ALLOWED, HANGING, HYPHEN, MANDATORY, NEVER, Brk, classify

LOOSE = 0.2  # share of the line an ordinary break may leave empty before hyphenating
# what may not end a paragraph alone on its line: a CJK character, or an emoji ("出片 / 📷")
_LONE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Extended_Pictographic}]")
BALANCE_MAX_LINES = 6  # longer text is left greedy (Chromium balances at most six lines)
BALANCE_PRECISION = 0.5  # px: the binary search for the balanced width stops here
BALANCE_STEPS = 16  # widths tried between the balanced and the full one for breaks at punctuation
# A heading line that ends on one of these ends at a pause in the sentence: a break there
# reads better than a balanced one inside a word ("它在做的事情，/ 其实非常简单").
PAUSES = frozenset("，、：；。！？）」』”,:;!?)—｜")
# Inside these a pause lists within one phrase ("（收入、踩坑与心态）"): no heading line ends
# there. (UAX #14's closing class, `_closes`, also holds 、 and 。: not brackets.)
OPENING = frozenset("（(「『【《〈“")
CLOSING = frozenset("）)」』】》〉”")
PAUSE_SHARE = 0.4  # a first line that ends at a pause may be this share of the second
# A heading line that ends on one of these ends a modifier ("5 个让效率翻倍的 / 小习惯"): a
# softer pause than punctuation, but a break between two words of one clause ("5 个让效率 /
# 翻倍的小习惯") reads worse. Balancing takes one where no line is under `PAUSE_SHARE` of
# the longest.
PHRASE_ENDS = frozenset("的")
# A word wider than the line (code, a URL, an identifier) breaks after one of these
# where it can, keeping at least INNER_KEEP of the line: a break after a mark reads as a
# pause, one between two letters reads as a typo. An underscore joins one name
# (`status_code`): a break after it is taken only where no other mark keeps the line
# (`{error.response.` / `status_code}`, not `{error.response.status_` / `code}`).
NAME_JOINER = "_"
INNER_MARKS = frozenset(".,;:([{=&|+*?-/" + NAME_JOINER)
# ... and first after one of these, which part a call's arguments or a list's items: a break
# after `=` or `.` parts a keyword from its value or an object from its attribute
# (`httpx.Limits(max_connections=` / `20))`, where `httpx.Limits(` / `max_connections=20))`
# keeps each argument whole)
LIST_MARKS = frozenset(",;([{")
INNER_KEEP = 0.5
_CLOSERS = (Brk.CL, Brk.CLW)


@bulk_record
class LineRange:
    """Clusters [start, end) form a line; `width` leaves out its trailing spaces and
    hard break."""

    start: int
    end: int
    width: float
    trim_start: float = 0.0  # blank taken off its first cluster (an opening mark)
    trim_end: float = 0.0  # blank taken off its last cluster (a closing mark)
    squeeze: float = 0.0  # blank taken off its inner marks (a line that pulled a piece up)


@bulk_record
class Edges:
    """How a cluster's width changes at a line edge."""

    start: float = 0.0  # taken off when it starts a line
    end: float = 0.0  # taken off when it ends a line that would not fit otherwise
    hyphen: float = 0.0  # added when a line ends after it (the hyphen drawn)


NO_EDGES = Edges()


def break_lines(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None = None,
) -> list[LineRange]:
    """Greedy line fitting; a line holds at least one cluster."""
    lines: list[LineRange] = []
    n = len(texts)
    edge = edges or [NO_EDGES] * n
    start = 0
    while start < n:
        line = fit_line(texts, widths, allowed, edge, start, max_width)
        lines.append(line)
        start = line.end
    return lines


def fit_line(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    start: int,
    max_width: float,
) -> LineRange:
    """The line that starts at `start`.

    Spaces and the hard break hang past the line end: they never push a line over the
    width (a space before a newline would otherwise strand the newline on a blank line
    of its own) and are not counted in it, so centred and right-aligned lines sit true.
    """
    head = edges[start].start
    x = -head
    trailing = 0.0
    ordinary: tuple[int, float] | None = None  # the last ordinary break that fits
    hyphenated: tuple[int, float] | None = None  # the last hyphenation point that fits
    for i in range(start, len(texts)):
        if texts[i] in HANGING:
            x += widths[i]
            trailing += widths[i]
        else:
            if x + widths[i] > max_width + 1e-6 and i > start:
                squeezed = x + widths[i] - edges[i].end
                if allowed[i] != NEVER and edges[i].end and squeezed <= max_width + 1e-6:
                    return LineRange(start, i + 1, squeezed, head, edges[i].end)
                forced = (i, x - trailing)
                if ordinary is None:  # the word is wider than the line: cut it kindly
                    forced = _inside_word(texts, widths, start, forced, max_width)
                end, width = _pick_break(ordinary, hyphenated, max_width, forced)
                return LineRange(start, end, width, head)
            x += widths[i]
            trailing = 0.0
        if allowed[i] == MANDATORY:
            return LineRange(start, i + 1, x - trailing, head)
        # a hanging space never draws a hyphen after it, whatever its edges say
        hyphen = 0.0 if texts[i] in HANGING else edges[i].hyphen
        here = (i + 1, x - trailing + hyphen)
        if here[1] <= max_width + 1e-6 or i == start:
            if allowed[i] == ALLOWED:
                ordinary = here
            elif allowed[i] == HYPHEN:
                hyphenated = here
    return LineRange(start, len(texts), x - trailing, head)


def _pick_break(
    ordinary: tuple[int, float] | None,
    hyphenated: tuple[int, float] | None,
    max_width: float,
    forced: tuple[int, float],
) -> tuple[int, float]:
    """The ordinary break, unless it leaves the line very loose and a later hyphenation
    point fills it better; without an ordinary break, a hyphenation point that leaves the
    line not very loose, else the break forced inside the word."""
    loose = (1 - LOOSE) * max_width
    if hyphenated is not None and ordinary is not None:
        better = hyphenated[0] > ordinary[0] and ordinary[1] < loose
        return hyphenated if better else ordinary
    if ordinary is not None:
        return ordinary
    return hyphenated if hyphenated is not None and hyphenated[1] >= loose else forced


def _inside_word(
    texts: list[str],
    widths: list[float],
    start: int,
    forced: tuple[int, float],
    max_width: float,
) -> tuple[int, float]:
    """Where a word wider than the line breaks: after its last inner mark that keeps at
    least `INNER_KEEP` of the line, one between arguments or items first (`,`, `(`:
    `LIST_MARKS`), then any (`.`, `=`...), so `{error.response.` / `status_code}` rather
    than `status_co` / `de}`; after an underscore only where no other mark does; else
    between two clusters, but never before a closing mark (`fetch(client` / `, url)`)."""
    for marks in _MARK_TIERS:
        found = _after_mark(texts, widths, start, forced, INNER_KEEP * max_width, marks)
        if found is not None:
            return found
    end, width = forced
    before = texts[end - 1]
    if end - 1 > start and _closes(texts[end]) and before not in HANGING and not _closes(before):
        # the spaces the shorter line ends with hang; a line of only spaces is no line
        # (an indent before a word too wide: ` 中，` at one em kept ` 中` / `，`)
        kept, shorter = end - 1, width - widths[end - 1]
        while kept > start and texts[kept - 1] in HANGING:
            kept, shorter = kept - 1, shorter - widths[kept - 1]
        if kept > start:
            return end - 1, shorter
    return end, width


def _after_mark(
    texts: list[str],
    widths: list[float],
    start: int,
    forced: tuple[int, float],
    floor: float,
    marks: frozenset[str],
) -> tuple[int, float] | None:
    """The last break after one of `marks` that keeps the line at least `floor` wide,
    walking back from the `forced` break; None if none."""
    end, width = forced
    for k in range(end, start + 1, -1):  # the line is clusters [start, k)
        if width < floor or texts[k - 1] in HANGING:
            return None  # the wide word starts after a space: a break before it had no room
        if texts[k - 1] in marks and texts[k] not in INNER_MARKS and not _closes(texts[k]):
            return k, width  # after a run of marks, never inside one: https:// not https:/
        width -= widths[k - 1]
    return None


# the marks a wide word breaks after, tier by tier: between arguments or items, after any
# other inner mark, after an underscore
_MARK_TIERS = (LIST_MARKS, INNER_MARKS - {NAME_JOINER}, frozenset({NAME_JOINER}))


def _closes(text: str) -> bool:
    return classify(text) in _CLOSERS


def avoid_lone_last(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    lines: list[LineRange],
    max_width: float,
    edges: list[Edges] | None = None,
) -> list[LineRange]:
    """`lines` with no paragraph ending in one CJK character or emoji (and its punctuation)
    alone on its line, where moving the last piece of the line before down fixes it."""
    edge = edges or [NO_EDGES] * len(texts)
    out = list(lines)
    for k in range(1, len(out)):
        last, before = out[k], out[k - 1]
        ends_paragraph = k == len(out) - 1 or allowed[last.end - 1] == MANDATORY
        if not ends_paragraph or allowed[before.end - 1] == MANDATORY:
            continue
        if not _lone(texts[last.start : last.end]):
            continue
        moved = _small_move(texts, widths, allowed, edge, before, last, max_width)
        if moved is not None:
            out[k - 1], out[k] = moved
    return out


def _lone(texts: list[str]) -> bool:
    """One CJK character or emoji, then only closing punctuation and hanging spaces."""
    if not texts or not _LONE.match(texts[0]):
        return False
    rest = [classify(t) for t in texts[1:] if t not in HANGING]
    return all(c in (Brk.CL, Brk.CLW) for c in rest)


def _small_move(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    before: LineRange,
    last: LineRange,
    max_width: float,
) -> tuple[LineRange, LineRange] | None:
    """The two lines with the previous line's last piece (at most a few clusters, and
    never most of it) moved down, or None when that does not fit."""
    for cut in range(before.end - 2, max(before.start, before.end - 4), -1):
        if allowed[cut] != ALLOWED:
            continue
        if (cut + 1 - before.start) < 2 * (before.end - cut - 1):
            return None
        first = measured(texts, widths, edges, before.start, cut + 1, max_width)
        second = measured(texts, widths, edges, cut + 1, last.end, max_width)
        if first is None or second is None:
            return None
        return first, second
    return None


def measured(
    texts: list[str],
    widths: list[float],
    edges: list[Edges],
    start: int,
    end: int,
    max_width: float,
    squeeze: bool = False,
) -> LineRange | None:
    """The line [start, end) with its edges applied; None when it does not fit. With
    `squeeze`, a line still too wide takes what it lacks off its inner marks' blanks (a
    closing mark's after it, an opening mark's before it: clreq's line compression),
    when they have that much."""
    content = end
    while content > start and texts[content - 1] in HANGING:
        content -= 1
    head = edges[start].start
    width = sum(widths[start:content]) - head
    if width <= max_width + 1e-6:
        return LineRange(start, end, width, head)
    tail = edges[content - 1].end if content > start else 0.0
    if width - tail <= max_width + 1e-6:
        return LineRange(start, end, width - tail, head, tail)
    if not squeeze:
        return None
    room = sum(edges[i].end for i in range(start, content - 1))
    room += sum(edges[i].start for i in range(start + 1, content))
    lack = width - tail - max_width
    return LineRange(start, end, max_width, head, tail, lack) if lack <= room + 1e-6 else None


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
    `pause_first`, one that breaks after a pause first (`_after_pause`)."""
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
        after = slice(i + 1, None)
        rest = balance_lines(  # once: a pause-first rest in turn would branch at every pause
            texts[after],
            widths[after],
            allowed[after],
            max_width,
            edges[after] if edges else None,
            pause_first=False,
        )
        trial = [first, *_shifted(rest, i + 1)]
        if len(trial) != len(best):
            continue
        even = min(line.width for line in trial) / max(line.width for line in trial)
        found = _ends(trial, texts, depths)
        closer = found == rank and chosen is not best and even > evenness
        if even >= PAUSE_SHARE and (found > rank or closer):
            chosen, rank, evenness = trial, found, even
    return chosen


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
        end = line.end
        while end > line.start and texts[end - 1] in HANGING:
            end -= 1
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


def widest_piece(
    texts: list[str], widths: list[float], allowed: list[int], edges: list[Edges] | None = None
) -> float:
    """The widest run of clusters between break opportunities, without the spaces that
    hang at its end (a space inside a glued run counts); with `edges`, each run as a line
    of its own sets it (a full-width bracket at either end without its blank half)."""
    widest = piece = trailing = 0.0
    first, last = 0, -1  # the run's first cluster, and its last that does not hang
    for i, (text, width, brk) in enumerate(zip(texts, widths, allowed, strict=True)):
        piece += width
        trailing = trailing + width if text in HANGING else 0.0
        last = last if text in HANGING else i
        if brk != NEVER:
            widest = max(widest, piece - trailing - edge_trims(edges, first, last))
            piece, trailing, first, last = 0.0, 0.0, i + 1, i
    return max(widest, piece - trailing - edge_trims(edges, first, last))


def edge_trims(edges: list[Edges] | None, first: int, last: int) -> float:
    """What a line from cluster `first` to `last` gives up at its two edges."""
    if edges is None or last < first:
        return 0.0
    return edges[first].start + (edges[last].end if last > first else 0.0)
