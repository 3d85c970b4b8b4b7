"""Rows + a content height → pages of placed rows, plus their container decorations.

Sees only sized boxes. A row's gap is dropped at the top of a card; a container (quote,
code panel) re-opens on every card it spans with its full padding, so a continued code
block still has its panel. A page never ends after a row marked `keep_with_next` (a
heading, a paragraph's first line) unless that chain alone fills the card. A row taller
than a whole card gets a card of its own and is scaled down to fit (nothing is lost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .boxes import Fill, Frame, FrameDecor, Item, Layer, PlacedRow, Rect, Row, Segment, Stroke
from .errors import TooManyPages

EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class Placement:
    """Rows of one page at their y (from the content top), and the height they use."""

    rows: tuple[PlacedRow, ...]
    height: float
    frames: tuple[tuple[Frame, float, float], ...]  # frame, top, bottom


def place(rows: Sequence[Row], limit: float | None = None) -> Placement:
    """Stacks rows from y=0; with a `limit`, a lone oversize row is scaled to fit."""
    placed: list[PlacedRow] = []
    spans: dict[int, list[float]] = {}
    frames: dict[int, Frame] = {}
    y = 0.0
    previous: tuple[Frame, ...] = ()
    for index, row in enumerate(rows):
        common = _common(previous, row.frames)
        if index:
            for frame in reversed(previous[common:]):
                y += frame.pad_bottom
                spans[frame.id][1] = y
            y += row.gap
        for frame in row.frames[common:]:
            frames[frame.id] = frame
            spans[frame.id] = [y, y]
            y += frame.pad_top
        scale = 1.0
        if limit is not None and len(rows) == 1:
            room = limit - y - sum(f.pad_bottom for f in row.frames)
            if row.height > room + EPSILON and room > 0:
                scale = room / row.height
        placed.append(PlacedRow(row, y, scale))
        y += row.height * scale
        previous = row.frames
    for frame in reversed(previous):
        y += frame.pad_bottom
        spans[frame.id][1] = y
    ordered = tuple((frames[i], top, bottom) for i, (top, bottom) in spans.items())
    return Placement(tuple(placed), y, ordered)


def _common(a: tuple[Frame, ...], b: tuple[Frame, ...]) -> int:
    n = 0
    for fa, fb in zip(a, b, strict=False):
        if fa.id != fb.id:
            break
        n += 1
    return n


LARGE_GAP = 0.2  # a soft break is taken when the preferred one leaves > this share empty
MOSTLY_EMPTY = 0.5  # a last card filled less than this share is balanced with the one before


def paginate(
    rows: Sequence[Row], height: float, *, balance: bool = True, max_pages: int | None = None
) -> list[list[Row]]:
    """Fills cards of `height` in order, breaking only where rows allow it (see
    `_page_end`); a card that starts inside a table repeats its header row. With
    `balance`, a mostly empty last card takes rows from the card before (`_balance`).

    Raises:
        TooManyPages: At the first card past `max_pages`, before the rest are filled.
    """
    ends: list[int] = []
    start = 0
    while start < len(rows):
        if ends and rows[start].discardable:  # a rule opening a card is dropped (`_page`)
            if start + 1 == len(rows):
                break  # the post ends with it: no card for a rule alone
            start += 1
        start = _page_end(rows, start, height)
        ends.append(start)
        if max_pages is not None and len(ends) > max_pages:
            raise TooManyPages(len(ends), max_pages, at_least=True)
    if balance and len(ends) > 1:
        ends[-2] = _balance(rows, ends[-3] if len(ends) > 2 else 0, ends[-2], height)
    return [_page(rows, a, b, height) for a, b in zip([0, *ends], ends, strict=False)]


def _page(rows: Sequence[Row], start: int, end: int, height: float) -> list[Row]:
    """The rows of one card; a discardable row (a rule) that falls on a break, the last
    of a card that has a next or the first of one that follows another, is left out."""
    if start and start < end - 1 and rows[start].discardable:
        start += 1
    if end < len(rows) and start < end - 1 and rows[end - 1].discardable:
        end -= 1
    return [*_repeat(rows, start, height), *rows[start:end]]


def _repeat(rows: Sequence[Row], start: int, height: float) -> tuple[Row, ...]:
    """The table header to repeat over rows[start:], if that row continues a table whose
    header went on an earlier card and the two fit a card together."""
    header = rows[start].header
    if header is None or (start and rows[start - 1] is header):
        return ()
    return (header,) if fits([header, rows[start]], height) else ()


def _page_end(rows: Sequence[Row], start: int, height: float) -> int:
    """Where the card starting at `start` ends: after the last row that allows a break
    among those that fit; after a row that discourages one (`keep_soft`) when that
    leaves a gap larger than LARGE_GAP and fills more; inside a kept group too tall for
    any card (a long code block), at its last fallback break (`_fallback`) rather than
    before it; after every row that fits when all keep with the next; one oversize row
    alone."""
    head = list(_repeat(rows, start, height))
    count = _fitting(head, rows, start, height)
    end = start + max(count, 1)
    if end == len(rows):
        return end
    free = soft = 0
    for index in range(end - 1, start - 1, -1):
        row = rows[index]
        if not free and not row.keep_with_next and not row.keep_soft:
            free = index + 1
        if not soft and not row.keep_with_next:
            soft = index + 1
        if free:
            break
    fallback = _fallback(rows, max(free, start), end)
    if fallback and (not free or not _group_fits(rows, free, height)):
        return fallback
    empty = height - (place([*head, *rows[start:free]]).height if free else 0.0)
    if soft > free and empty > LARGE_GAP * height:
        return soft
    return free or end


def _fallback(rows: Sequence[Row], start: int, end: int) -> int:
    """After the last row in rows[start:end] that keeps with the next only while its group
    fits a card (`keep_with_next` and `keep_soft` both: inside a code block); 0 if none."""
    for index in range(end - 1, start - 1, -1):
        if rows[index].keep_with_next and rows[index].keep_soft:
            return index + 1
    return 0


def _group_fits(rows: Sequence[Row], start: int, height: float) -> bool:
    """Whether the rows from `start` up to the first that allows a break after it (the
    group a card starting there must take whole) fit one card."""
    end = start
    while end < len(rows) - 1 and rows[end].keep_with_next:
        end += 1
    return fits([*_repeat(rows, start, height), *rows[start : end + 1]], height)


def _fitting(head: list[Row], rows: Sequence[Row], start: int, height: float) -> int:
    """How many rows from `start` fit on a card under `head`. Heights only grow, so the
    count is bracketed by doubling from `start` and then bisected: the work is that of
    the rows of one card, never of all the rows after it (which made pagination
    quadratic in the length of a post)."""
    lo, hi = 0, len(rows) - start
    step = 1
    while step < hi and fits([*head, *rows[start : start + step]], height):
        lo, step = step, step * 2
    hi = min(hi, step)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits([*head, *rows[start : start + mid]], height):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _used(rows: Sequence[Row], start: int, end: int, height: float) -> float:
    """The height a card of rows[start:end] takes, with the header it repeats."""
    return place([*_repeat(rows, start, height), *rows[start:end]]).height


def _balance(rows: Sequence[Row], start: int, end: int, height: float) -> int:
    """The end of the card before the last: moved earlier, to a free break (never a
    widow, orphan or kept row, and never inside a paragraph the greedy break left whole),
    when the last card is mostly empty and the fuller of the two cards then gives the
    emptier more, both still fitting (so no card is added)."""
    best, best_low = end, _used(rows, end, len(rows), height)
    if best_low >= MOSTLY_EMPTY * height:
        return end
    split = rows[end - 1].source if _inside_paragraph(rows[end - 1], rows[end]) else None
    for cut_at in range(end - 1, start, -1):
        row = rows[cut_at - 1]
        if row.keep_with_next or row.keep_soft:
            continue
        if _inside_paragraph(row, rows[cut_at]) and row.source != split:
            continue  # a paragraph the greedy break left whole stays whole
        after = _used(rows, cut_at, len(rows), height)
        before = _used(rows, start, cut_at, height)
        if after > height + EPSILON:
            break  # the last card is full: moving the break further would add a card
        if min(before, after) > best_low + EPSILON:
            best, best_low = cut_at, min(before, after)
        if before < after:
            break  # from here the card before only gets emptier
    return best


def _inside_paragraph(row: Row, following: Row) -> bool:
    """Whether a break between the two rows would split one paragraph."""
    return bool(row.source) and row.source == following.source and row.source[-1][0] == "Paragraph"


def fits(rows: Sequence[Row], height: float) -> bool:
    return place(rows).height <= height + EPSILON


def cut(rows: Sequence[Row], height: float) -> list[Row]:
    """The longest start of `rows` that fits in `height` (overflow hidden at a line)."""
    lo, hi = 0, len(rows)
    while lo < hi:  # heights only grow as rows are added, so bisect
        mid = (lo + hi + 1) // 2
        if fits(rows[:mid], height):
            lo = mid
        else:
            hi = mid - 1
    return list(rows[:lo])


def frame_items(placement: Placement, dx: float, dy: float) -> list[Item]:
    """Panels, borders and bars of the containers on a page, outermost first."""
    items: list[Item] = []
    for frame, top, bottom in placement.frames:
        d = frame.decor
        rect = Rect(d.x + dx, top + dy, d.width, bottom - top)
        if d.fill is not None:
            fill = Fill(rect, d.fill, d.radius)
            items.append(Layer((fill,), d.effects) if d.effects else fill)
        if d.border_color is not None and d.border_width:
            items.append(Stroke(rect, d.border_color, d.border_width, d.radius))
        if d.bar_width:
            items.append(_bar(d, rect))
    return items


def _bar(d: FrameDecor, rect: Rect) -> Segment:
    """A container's bar along the inside of one side: the quote's left bar, a heading's
    left bar, underline or overline (`bar_length` long, placed by `bar_align`)."""
    half = d.bar_width / 2
    if d.bar_side == "left":
        bottom = rect.y + d.bar_length if d.bar_length else rect.bottom
        return Segment(rect.x + half, rect.y, rect.x + half, bottom, d.bar_color, d.bar_width)
    length = min(d.bar_length, rect.width) if d.bar_length else rect.width
    x = rect.x + {"center": (rect.width - length) / 2, "right": rect.width - length}.get(
        d.bar_align, 0.0
    )
    y = rect.y + half if d.bar_side == "top" else rect.bottom - half
    return Segment(x, y, x + length, y, d.bar_color, d.bar_width)
