"""Rows on a card: where each sits, what fits, and the container decorations.

Sees only sized boxes. A row's gap is dropped at the top of a card; a container (quote,
code panel) re-opens on every card it spans with its full padding, so a continued code
block still has its panel. A lone row taller than a card is scaled down to fit (nothing is
lost), and a row the page breaker shrank (`Row.scale`) takes its smaller height. Where the
cards break is chosen in `pagebreaks`.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .boxes import Fill, Frame, FrameDecor, Item, Layer, PlacedRow, Rect, Row, Segment, Stroke

EPSILON = 1e-6


class Placement(msgspec.Struct, frozen=True):
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
        common = shared_frames(previous, row.frames)
        if index:
            for frame in reversed(previous[common:]):
                y += frame.pad_bottom
                spans[frame.id][1] = y
            y += row.gap
        for frame in row.frames[common:]:
            frames[frame.id] = frame
            spans[frame.id] = [y, y]
            y += frame.pad_top
        scale = row.scale
        if limit is not None and len(rows) == 1:
            room = limit - y - sum(f.pad_bottom for f in row.frames)
            if row.height * scale > room + EPSILON and room > 0:
                scale = room / row.height
        placed.append(PlacedRow(row, y, scale))
        y += row.height * scale
        previous = row.frames
    for frame in reversed(previous):
        y += frame.pad_bottom
        spans[frame.id][1] = y
    ordered = tuple((frames[i], top, bottom) for i, (top, bottom) in spans.items())
    return Placement(tuple(placed), y, ordered)


def shared_frames(a: tuple[Frame, ...], b: tuple[Frame, ...]) -> int:
    """How many frames, outermost first, two rows share (`place` opens the rest)."""
    n = 0
    for fa, fb in zip(a, b, strict=False):
        if fa.id != fb.id:
            break
        n += 1
    return n


def repeated_header(rows: Sequence[Row], start: int, height: float) -> tuple[Row, ...]:
    """The table header to repeat over rows[start:], if that row continues a table whose
    header went on an earlier card and the two fit a card together."""
    header = rows[start].header
    if header is None or (start and rows[start - 1] is header):
        return ()
    return (header,) if fits([header, rows[start]], height) else ()


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


def drawn(decor: FrameDecor) -> bool:
    """Whether a container shows an edge (`frame_items` draws a panel, border or bar)."""
    border = decor.border_color is not None and decor.border_width > 0
    return decor.fill is not None or border or decor.bar_width > 0


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


def cut_clean(rows: list[Row], height: float) -> list[Row]:
    """The rows a card of `height` shows with its overflow hidden: cut at a line, and where
    something was hidden, without headings or a rule left at the foot with nothing of
    theirs under them. A first row taller than the card is kept and scaled, not hidden."""
    kept = cut(rows, height) or rows[:1]
    if len(kept) < len(rows):
        while len(kept) > 1 and (kept[-1].discardable or _is_heading(kept[-1])):
            kept.pop()
    return kept


def _is_heading(row: Row) -> bool:
    return bool(row.source) and row.source[-1][0] == "Heading"
