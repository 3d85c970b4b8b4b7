"""Where an ornament draws, and the move that keeps an `avoid_text` one off the text.

`ink_box` and `turned` say where a decoration's items really draw (what `decorate.footprint`
reports and what must keep clear); `text_boxes` says where a card's text rows are;
`clear_shift` finds the smallest outward move after which the two do not touch, and
`keep_off_text` makes it, within the text panel for an ornament set inside one. The rule is
written once, here: `decorate.build` applies it to every ornament marked `avoid_text`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...base.boxes import (
    Fill,
    GlyphRun,
    Group,
    Item,
    Layer,
    PlacedRow,
    Rect,
    Segment,
    Shape,
    Stroke,
)
from ...base.svgpath import path_points


@dataclass(frozen=True, slots=True)
class Panel:
    """The panel a theme sets its text on (`cardface.text_panel`), as an ornament set inside
    it sees it: its `box` as drawn, border and all, and the `inside` of its border."""

    box: Rect
    inside: Rect


# How close an ornament may come to a text row, and how much of what the theme showed must
# stay on the card when it is moved outward: a sliver at the edge reads as a mistake.
TEXT_MARGIN = 4.0
MIN_ON_CARD = 0.4
_STEPS = 24  # candidate shifts along each axis: the search costs _STEPS² box tests at most


def text_boxes(rows: tuple[PlacedRow, ...], content: Rect) -> tuple[Rect, ...]:
    """The boxes of a card's text rows (headings, lines, table rows, images) on the card:
    as wide as what the row draws (a short title leaves its corner free), as tall as the
    row. What an `avoid_text` ornament keeps clear of."""
    boxes: list[Rect] = []
    for p in rows:
        if not p.row.text or p.row.decorative:
            continue
        span = _span(p.row.items) if p.scale == 1.0 else None
        left, right = span if span else (content.x, content.right)
        boxes.append(Rect(left, content.y + p.y, right - left, p.row.height * p.scale))
    return tuple(boxes)


def _span(items: tuple[Item, ...], dx: float = 0.0) -> tuple[float, float] | None:
    """How far left and right a row's glyphs, fills and lines reach; None for anything
    else (an image, a drawing), which counts as the whole content width."""
    xs: list[float] = []
    for item in items:
        if isinstance(item, GlyphRun):
            if item.xs:
                xs += [min(item.xs) + dx, max(item.xs) + item.size + dx]  # an em past the pen
        elif isinstance(item, Fill | Stroke):
            xs += [item.rect.x + dx, item.rect.right + dx]
        elif isinstance(item, Segment):
            xs += [item.x1 + dx, item.x2 + dx]
        elif isinstance(item, Group) and item.scale == 1.0:
            inner = _span(item.items, dx + item.dx)
            if inner is None:
                return None
            xs += inner
        elif not isinstance(item, Shape):
            return None
    return (min(xs), max(xs)) if xs else None


def clear_shift(
    anchor: str, box: Rect, text: tuple[Rect, ...], card: Rect
) -> tuple[float, float] | None:
    """The smallest move of `box`, outward from the decoration's `anchor`, after which it
    touches no `text` row and keeps MIN_ON_CARD of the area the theme showed on the `card`;
    None: no such move, so the ornament is left off this card."""
    if not text:
        return (0.0, 0.0)
    shown = _area(_overlap(box, card))  # what the theme put on the card, often not all
    xs = _offsets(_outward(anchor, "left", "right"), box.width)
    ys = _offsets(_outward(anchor, "top", "bottom"), box.height)
    for dx, dy in sorted(((dx, dy) for dx in xs for dy in ys), key=lambda d: math.hypot(*d)):
        moved = Rect(box.x + dx, box.y + dy, box.width, box.height)
        if _area(_overlap(moved, card)) < MIN_ON_CARD * shown:
            continue
        grown = _grow(moved, TEXT_MARGIN)
        if not any(_area(_overlap(grown, row)) > 0.0 for row in text):
            return (dx, dy)
    return None


def keep_off_text(
    items: list[Item],
    anchor: str,
    ink: Rect,
    text: tuple[Rect, ...],
    card: Rect,
    panel: Panel | None,
) -> list[Item]:
    """An `avoid_text` ornament's `items` (drawing inside `ink`) moved off the `text` rows
    by `clear_shift`, or none when no move clears them. One the theme set inside its text
    `panel` (pop-art's halftone in the white sheet's corner) belongs to it: it moves within
    the panel, not the card, and what of it the move takes past the panel's edge is cut
    off at the inside of its border, so it never hangs over the border onto the surround."""
    room = panel.inside if panel is not None and holds(panel.box, ink) else None
    shift = clear_shift(anchor, ink, text, room or card)
    if shift is None:
        return []
    dx, dy = shift
    if shift == (0.0, 0.0):
        return items
    moved = Rect(ink.x + dx, ink.y + dy, ink.width, ink.height)
    if room is None or holds(room, moved):
        return [Group(tuple(items), dx=dx, dy=dy)]
    clip = Rect(room.x - dx, room.y - dy, room.width, room.height)  # in the items' own px
    return [Group(tuple(items), dx=dx, dy=dy, clip=clip)]


def holds(outer: Rect, inner: Rect) -> bool:
    """Whether `outer` covers all of `inner`."""
    return (
        outer.x <= inner.x
        and outer.y <= inner.y
        and outer.right >= inner.right
        and outer.bottom >= inner.bottom
    )


def _outward(anchor: str, low: str, high: str) -> tuple[float, ...]:
    """The directions along one axis an ornament anchored at `anchor` may move: toward
    the edge it is anchored to, or either way when it is centred on that axis."""
    if low in anchor:
        return (-1.0,)
    if high in anchor:
        return (1.0,)
    return (-1.0, 1.0)


def _offsets(signs: tuple[float, ...], span: float) -> list[float]:
    step = max(2.0, span / _STEPS)
    return [0.0, *(sign * step * k for k in range(1, _STEPS + 1) for sign in signs)]


def ink_box(items: list[Item], box: Rect) -> Rect:
    """Where shapes actually draw (an icon's path fills a corner of its square box), from
    the points that bound their outlines (`svgpath.path_points`); the builder's `box` for
    anything else."""
    points: list[tuple[float, float]] = []
    for item in items:
        for shape in item.items if isinstance(item, Layer) else (item,):
            if not isinstance(shape, Shape):
                return box
            points += path_points(shape.ops)
    if not points:
        return box
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def turned(box: Rect, degrees: float, pivot: tuple[float, float]) -> Rect:
    """The axis-aligned box around `box` rotated by `degrees` about `pivot`."""
    if degrees % 360.0 == 0.0:
        return box
    turn = math.radians(degrees)
    c, s = math.cos(turn), math.sin(turn)
    px, py = pivot
    corners = [(x - px, y - py) for x in (box.x, box.right) for y in (box.y, box.bottom)]
    xs = [px + x * c - y * s for x, y in corners]
    ys = [py + x * s + y * c for x, y in corners]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _overlap(a: Rect, b: Rect) -> Rect:
    x, y = max(a.x, b.x), max(a.y, b.y)
    return Rect(x, y, max(0.0, min(a.right, b.right) - x), max(0.0, min(a.bottom, b.bottom) - y))


def _area(rect: Rect) -> float:
    return rect.width * rect.height


def _grow(rect: Rect, by: float) -> Rect:
    return shrink(rect, -by)


def shrink(rect: Rect, by: float) -> Rect:
    """`rect` less `by` on every side (a stroke's inner half, a frame's inset)."""
    return Rect(rect.x + by, rect.y + by, rect.width - 2 * by, rect.height - 2 * by)
