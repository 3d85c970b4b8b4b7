"""A quadrant chart record + a label `Measure` → its `Drawing`: a square of four tinted
quadrants, their names, the axes' ends and the points as named dots.

Mermaid-js sets each point's name under its dot whatever is there, so names overprint
each other and the dots of a crowded chart. Here each name takes the first place round
its dot (right, left, above, below, then the diagonals, then a step further out) where
it meets no other name, dot or quadrant name and stays inside the square; a name that
crosses the quadrants' dividing cross is taken only where no place in either ring is
free of it (a name over the white cross reads as two halves). A point drawn as its
author styled it (`PointLook`: its radius, fill and ring) keeps its names as far from
its larger dot. Where some name finds no free place, the square is drawn larger (the
points spread apart) rather than the names smaller; where even the largest square is too
crowded, the dots are numbered and the names listed under the chart (points on one spot
share one number label, "3, 7"). Axis names are set upright (no rotated text on a card):
the y axis's two ends sit left of the square, beside the half each names.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..marks import (
    LABEL_SIZE,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    circle_ops,
    finish,
    rect_ops,
    tint,
)
from .mermaidcharts import PointLook, Quadrant

Box = tuple[float, float, float, float]  # left, top, right, bottom

SIDES = (280.0, 310.0, 340.0, 400.0)  # px: the square's side, tried in turn
KEY_GAP = 14.0  # px above the list of numbered names
DOT = 5.0  # px: a point's radius
NAME_GAP = 3.0  # px between a dot and its name
FURTHER = 9.0  # px: the second ring of places lies this much further out
DIVIDER = 2.0  # px: the page-coloured cross between the quadrants
NAME_ROOM = 4.0  # px kept clear left and right of a name
INSET = 6.0  # px: a point's name keeps this far inside the square
Y_AXIS_WIDTH = 64.0  # px: the y axis's end names wrap at this width
NAME_WIDTH = 120.0  # px: a point's name wraps at this width
AXIS_GAP = 8.0  # px between the square and the axis names
QUADRANT_ROLES = ("accent", "series1", "series2", "series3")  # quadrant-1 .. quadrant-4


def layout_quadrant(chart: Quadrant, measure: Measure) -> Drawing:
    """The chart at the smallest side in `SIDES` where every point's name finds a free
    place; where none does, the dots numbered (at the smallest side where the numbers find
    free places) and their names listed under the chart."""
    names: list[Lines | None] = [
        measure(p.label, SMALL_SIZE, False, NAME_WIDTH) for p in chart.points
    ]
    for side in SIDES:
        items, crowded = _plot(chart, measure, names, side)
        if not crowded:
            return finish(items + _frame(chart, measure, side), "\n".join(chart.labels()))
    for side in SIDES:
        items, crowded = _plot(chart, measure, _numbers(chart, measure, side), side)
        if not crowded:
            break
    frame = _frame(chart, measure, side)
    bottom = max([side, *(box_of(i)[3] for i in frame if isinstance(i, Label))])
    items += frame + _key(chart, measure, side, bottom + KEY_GAP)
    drawing = finish(items, "\n".join(chart.labels()))
    return replace(drawing, note="a crowded quadrant chart: its points numbered, named below")


def _numbers(chart: Quadrant, measure: Measure, side: float) -> list[Lines | None]:
    """Each dot's number; points drawn on one spot share one label ("3, 7")."""
    spots: dict[tuple[int, int], list[int]] = {}
    for index, p in enumerate(chart.points):
        spots.setdefault((round(p.x * side), round(p.y * side)), []).append(index)
    out: list[Lines | None] = [None] * len(chart.points)
    for indices in spots.values():
        text = ", ".join(str(i + 1) for i in indices)
        out[indices[0]] = measure(text, SMALL_SIZE, False, NAME_WIDTH)
    return out


def _key(chart: Quadrant, measure: Measure, side: float, top: float) -> list[Mark | Label]:
    """The numbered names, in two columns as wide as the square, row by row."""
    column = side / 2
    out: list[Mark | Label] = []
    for row in range(0, len(chart.points), 2):
        texts = [
            measure(f"{i + 1}  {chart.points[i].label}", SMALL_SIZE, False, column - 12)
            for i in range(row, min(row + 2, len(chart.points)))
        ]
        for slot, text in enumerate(texts):
            out.append(Label(text, slot * column, top, "text", "left"))
        top += max(t.height for t in texts) + 2
    return out


def _plot(
    chart: Quadrant, measure: Measure, names: list[Lines | None], side: float
) -> tuple[list[Mark | Label], bool]:
    """The quadrants, dots and names in a square of `side` at (0, 0); and whether some
    name found no free place."""
    half = side / 2
    corners = ((half, 0.0), (0.0, 0.0), (0.0, half), (half, half))  # quadrant-1 .. 4
    items: list[Mark | Label] = []
    for (x, y), role in zip(corners, QUADRANT_ROLES, strict=True):
        inset = DIVIDER / 2
        items.append(
            Mark(rect_ops(x + inset, y + inset, half - DIVIDER, half - DIVIDER), None, tint(role))
        )
    dots = [(p.x * side, (1 - p.y) * side) for p in chart.points]
    radii = [_radius(p.look) for p in chart.points]
    taken: list[Box] = [
        (x - r - 1, y - r - 1, x + r + 1, y + r + 1) for (x, y), r in zip(dots, radii, strict=True)
    ]
    labels: list[Label] = []
    for (x, y), text in zip(corners, chart.quadrants, strict=True):
        if text:
            label = _quadrant_name(
                measure(text, LABEL_SIZE, True, half - 16), x, y, half, taken, dots
            )
            labels.append(label)
            taken.append(_padded(box_of(label)))
    crowded = False
    for (x, y), radius, name in zip(dots, radii, names, strict=True):
        if name is None:
            continue
        label, free = _point_name(name, x, y, side, taken, radius)
        crowded = crowded or not free
        labels.append(label)
        taken.append(_padded(box_of(label)))
    for (x, y), radius, point in zip(dots, radii, chart.points, strict=True):
        items.append(_dot(x, y, radius, point.look))
    return [*items, *labels], crowded


def _radius(look: PointLook) -> float:
    """A dot's radius: the author's, else `DOT`; its ring (stroke) drawn outside it."""
    return (DOT if look.radius is None else look.radius) + (look.stroke_width or 0.0) / 2


def _dot(x: float, y: float, radius: float, look: PointLook) -> Mark:
    """A point's dot, filled and ringed as its author styled it (the theme's accent,
    unringed, where not)."""
    ring = look.stroke_width or 0.0
    if look.stroke is None or ring <= 0:
        return Mark(circle_ops(x, y, radius), None, look.fill or "accent")
    inner = radius - ring / 2  # the ring's middle: half of it outside the fill
    return Mark(circle_ops(x, y, inner), look.stroke, look.fill or "accent", ring)


def _quadrant_name(
    text: Lines, x: float, y: float, half: float, taken: list[Box], dots: list[tuple[float, float]]
) -> Label:
    """A quadrant's name at its top (its middle when the chart has no points, as mermaid-js
    puts it); where that covers a dot, at the top's left or right, else at its bottom."""
    if not dots:
        return Label(text, x + half / 2, y + (half - text.height) / 2)
    side = half / 2 - 8 - text.width / 2  # from the middle to a side, inside the quadrant
    placed = [
        Label(text, x + half / 2 + shift, top)
        for top in (y + 8, y + half - 8 - text.height)
        for shift in (0.0, -side, side)
    ]
    return min(placed, key=lambda label: sum(_overlaps(box_of(label), b) for b in taken))


def _point_name(
    text: Lines, x: float, y: float, side: float, taken: list[Box], radius: float = DOT
) -> tuple[Label, bool]:
    """The point's name at the first free place round its dot (slid inside the square
    where it would leave it, if it stays beside its dot), and whether it was free. A place
    next to the dot that crosses the quadrants' divider beats one further out."""
    best: tuple[tuple[int, int, int, int], Label] | None = None
    for rank, (left, top, reach) in enumerate(_places(text, x, y, radius)):
        left = min(max(left, INSET), side - INSET - text.width)
        top = min(max(top, INSET), side - INSET - text.height)
        label = Label(text, left, top, "text", "left")
        box = box_of(label)
        if _distance(box, x, y) > reach + 1:
            continue  # slid away from its dot
        hits = sum(_overlaps(box, other) for other in taken)
        ring = int(reach > radius + NAME_GAP)
        score = (hits, int(_crosses_divider(box, side)), ring, rank)
        if best is None or score < best[0]:
            best = (score, label)
        if score[:3] == (0, 0, 0):
            break
    if best is None:  # no place beside the dot inside the square: to its right regardless
        return Label(text, x + radius + NAME_GAP, y - text.height / 2, "text", "left"), False
    return best[1], best[0][0] == 0


def _places(
    text: Lines, x: float, y: float, radius: float = DOT
) -> list[tuple[float, float, float]]:
    """Where a name's left and top may go round its dot of `radius`, most natural first,
    and how far from the dot's middle that is."""
    w, h = text.width, text.height
    out = []
    for reach in (radius + NAME_GAP, radius + NAME_GAP + FURTHER):
        slant = reach * 0.7
        out += [
            (x + reach, y - h / 2, reach),  # right
            (x - reach - w, y - h / 2, reach),  # left
            (x - w / 2, y - reach - h, reach),  # above
            (x - w / 2, y + reach, reach),  # below
            (x + slant, y - slant - h, reach),  # above right
            (x - slant - w, y - slant - h, reach),  # above left
            (x + slant, y + slant, reach),  # below right
            (x - slant - w, y + slant, reach),  # below left
        ]
    return out


def _distance(box: Box, x: float, y: float) -> float:
    """How far the point (x, y) is from the box (0 inside it)."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def _crosses_divider(box: Box, side: float) -> bool:
    """Whether the box crosses the quadrants' dividing cross, or comes within `INSET` of
    it (as near as a name may come to the square's edge)."""
    half, pad = side / 2, INSET
    return box[0] - pad < half < box[2] + pad or box[1] - pad < half < box[3] + pad


def _frame(chart: Quadrant, measure: Measure, side: float) -> list[Mark | Label]:
    """The title above the square, the x axis's ends under it, the y axis's left of it."""
    out: list[Mark | Label] = []
    half = side / 2
    low, high = chart.x_axis
    if low and high:
        for text, centre in ((low, half / 2), (high, half + half / 2)):
            out.append(Label(measure(text, LABEL_SIZE, False, half - 8), centre, side + AXIS_GAP))
    elif low or high:
        out.append(Label(measure(low or high, LABEL_SIZE, False, side), half, side + AXIS_GAP))
    low, high = chart.y_axis
    ends = [(t, middle) for t, middle in ((high, half / 2), (low, half + half / 2)) if t]
    if low and not high:  # one name only: beside the whole axis
        ends = [(low, half)]
    names = [(measure(t, LABEL_SIZE, False, Y_AXIS_WIDTH), middle) for t, middle in ends]
    column = max((name.width for name, _ in names), default=0.0)
    for name, middle in names:
        out.append(Label(name, -AXIS_GAP - column / 2, middle - name.height / 2))
    if chart.title:
        heading = measure(chart.title, LABEL_SIZE + 1, True, side + column)
        out.append(Label(heading, half, -heading.height - 10))
    return out


def box_of(label: Label) -> Box:
    """The box a label's lines take."""
    w, h = label.text.width, label.text.height
    left = label.x - w / 2 if label.align == "center" else label.x
    return left, label.y, left + w, label.y + h


def _padded(box: Box) -> Box:
    """A name's box with room round it: two names closer than that read as one."""
    return box[0] - NAME_ROOM, box[1] - 1, box[2] + NAME_ROOM, box[3] + 1


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
