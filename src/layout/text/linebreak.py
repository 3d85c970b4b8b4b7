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

Headings are balanced by `balance` on these lines (an emoji is glued to the word before it,
`opportunities.glue_emoji`, never left alone on a line).
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from ..base.records import bulk_record
from .opportunities import ALLOWED, HANGING, HYPHEN, MANDATORY, NEVER, Brk, classify

LOOSE = 0.2  # share of the line an ordinary break may leave empty before hyphenating
# what may not end a paragraph alone on its line: a CJK character, or an emoji ("出片 / 📷")
_LONE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Extended_Pictographic}]")
# A heading line that ends on one of these ends at a pause in the sentence: a break there
# reads better than a balanced one inside a word ("它在做的事情，/ 其实非常简单").
PAUSES = frozenset("，、：；。！？）」』”,:;!?)—｜")
# Inside these a pause lists within one phrase ("（收入、踩坑与心态）"): no heading line ends
# there. (UAX #14's closing class, `_closes`, also holds 、 and 。: not brackets.)
OPENING = frozenset("（(「『【《〈“")
CLOSING = frozenset("）)」』】》〉”")
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


def paragraphs(lines: list[LineRange], allowed: list[int]) -> Iterator[list[LineRange]]:
    """The lines of each hard-broken paragraph of `lines` in turn: each run that a
    mandatory break (or the text's end) ends."""
    first = 0
    for k, line in enumerate(lines):
        if k == len(lines) - 1 or allowed[line.end - 1] == MANDATORY:
            yield lines[first : k + 1]
            first = k + 1


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
    between two clusters, but never before a closing mark (`fetch(client` / `, url)`).
    A word held whole (a URL) that fits its line but not with the space and closing mark
    after it breaks after one of its own marks too: the break after the space opened the
    next line with "，" (art-deco's "…/docs/overview" / "，其他长得像的…")."""
    word = forced
    end, width = forced
    if texts[end - 1] in HANGING and _closes(texts[end]):
        while end - 1 > start and texts[end - 1] in HANGING:
            end -= 1  # the spaces hang: the word ends before them, as wide
        # a break inside the word: one at its end would open the next line with the spaces
        word = (end - 1, width - widths[end - 1])
    for marks in _MARK_TIERS:
        found = _after_mark(texts, widths, start, word, INNER_KEEP * max_width, marks)
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


def refilled(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    start: int,
    end: int,
    width: float,
) -> list[LineRange]:
    """Clusters [start, end) filled greedily at `width`."""
    lines: list[LineRange] = []
    while start < end:
        line = fit_line(texts, widths, allowed, edges, start, width)
        lines.append(line)
        start = line.end
    return lines


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
    content = content_end(texts, start, end)
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


def content_end(texts: list[str], start: int, end: int) -> int:
    """The end of the line [start, end) less the spaces it ends with, which hang."""
    while end > start and texts[end - 1] in HANGING:
        end -= 1
    return end


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
