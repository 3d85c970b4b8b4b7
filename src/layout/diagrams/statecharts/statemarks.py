"""The marks of a state diagram's pieces (`states` places them): state shapes, start and end
dots, fork bars, choice diamonds, notes, loops and transitions, in px and colour roles.

A state is a tinted box without an outline, as a flowchart's node is (`drawing`); one with a
description has a rule in the page's colour between its name and the description. Start
is a filled dot, end a ringed one, fork and join a bar, choice a small outlined diamond.
A state the author styled (`classDef`, `style`) takes their fill, outline and ink instead,
as a flowchart's node does (`flow.paint`).
"""

from __future__ import annotations

import math

from ..flow.paint import back, look_ink, rounded
from ..flow.style import PLAIN, Look
from ..marks import (
    CHIP_FILLS,
    LINE_WIDTH,
    PAD_X,
    PAD_Y,
    Label,
    Lines,
    Mark,
    Op,
    arrowhead,
    circle_ops,
    rect_ops,
    tint,
)

DOT, RING, BAR, CHOICE = 7.0, 9.0, 70.0, 26.0  # start radius, end radius, bar, diamond
NOTE_GAP, LOOP = 14.0, 22.0  # px between a state and its note; a loop's room
CHIP_PAD = (12.0, 4.0)  # px a transition label's chip adds to its text's width and height
Rect = tuple[float, float, float, float]  # left, top, width, height
Point = tuple[float, float]


def shape_marks(
    kind: str, rect: Rect, text: Lines, more: Lines | None, look: Look = PLAIN
) -> list[Mark | Label]:
    """A state's shape of `kind` filling `rect`, with its name and description (`more`),
    in the author's `look` where they gave one."""
    x, y, w, h = rect
    cx, cy = x + w / 2, y + h / 2
    if kind == "start":
        return [Mark(circle_ops(cx, cy, DOT), None, "line")]
    if kind == "end":
        ring = Mark(circle_ops(cx, cy, RING - 1), "line", "page", 1.5)
        return [ring, Mark(circle_ops(cx, cy, RING - 4.5), None, "line")]
    if kind in ("fork", "join"):
        return [Mark(rect_ops(x, y, w, h, 2), None, "line")]
    if kind == "choice":
        ops = (("M", cx, y), ("L", x + w, cy), ("L", cx, y + h), ("L", x, cy), ("Z",))
        return [Mark(ops, "line", "page", 1.5)]
    if kind == "note":
        look = PLAIN
    fill = look.fill or ("panel" if kind == "note" else tint("accent"))
    stroke = look.stroke if look.width != 0 else None
    width = look.width if look.width is not None else LINE_WIDTH
    box = rect_ops(x, y, w, h, 2 if kind == "note" else 8)
    out: list[Mark | Label] = [Mark(box, stroke, fill, width, look.dash)]
    ink = look_ink(look)
    if more is None:
        return [*out, Label(text, cx, cy - text.height / 2, ink)]
    rule = y + PAD_Y + text.height + PAD_Y / 2
    out.append(Label(text, cx, y + PAD_Y, ink))
    out.append(Mark((("M", x, rule), ("L", x + w, rule)), stroke or "page", None, 1.5))
    out.append(Label(more, cx, rule + PAD_Y / 2, ink))
    return out


def note_marks(texts: list[Lines], x_of: float, top: float, left_side: bool) -> list[Mark | Label]:
    """Notes stacked from `top`, their left edge at `x_of` (their right edge, `left_side`),
    each a panel with a rule on its left."""
    out: list[Mark | Label] = []
    for text in texts:
        w, h = text.width + 2 * PAD_X, text.height + 2 * PAD_Y
        x = x_of - w if left_side else x_of
        out.append(Mark(rect_ops(x, top, w, h, 2), None, "panel"))
        out.append(Mark((("M", x, top), ("L", x, top + h)), "border", None, 3.0))
        out.append(Label(text, x + w / 2, top + PAD_Y))
        top += h + 4
    return out


def notes_height(texts: list[Lines]) -> float:
    """The height of notes stacked beside a state."""
    return sum(t.height + 2 * PAD_Y + 4 for t in texts)


def loop_marks(rect: Rect, text: Lines) -> list[Mark | Label]:
    """A loop round the shape's top right corner, its labels to its right."""
    x, y, w, _ = rect
    right = x + w
    end = (right, y + 10)
    points = [(right - 12, y), (right - 12, y - 12), (right + 12, y - 12), (right + 12, end[1])]
    out: list[Mark | Label] = [Mark(rounded([*points, back(end, points[-1], 7.0)]))]
    out.append(arrowhead(end, points[-1], 8.0))
    if text.width > 0:
        out.append(Label(text, right + LOOP, y - 12 - text.size * 0.7, "text", "left"))
    return out


def chip_marks(text: Lines, x: float, y: float) -> list[Mark | Label]:
    """A transition's label on a chip of the line's colour, centred on (x, y)."""
    w, h = text.width + CHIP_PAD[0], text.height + CHIP_PAD[1]
    chip = rect_ops(x - w / 2, y - h / 2, w, h, h / 2)
    return [*(Mark(chip, None, fill) for fill in CHIP_FILLS), Label(text, x, y - h / 2 + 2)]


def transition_marks(
    points: list[Point], a: tuple[Rect, str], b: tuple[Rect, str]
) -> list[Mark | Label]:
    """A transition from shape `a` to shape `b` (rect, kind) along the layout's route, its
    ends clipped to the shapes, its arrowhead filled."""
    inner = points[1:-1]
    start = clip(*a, inner[0] if inner else centre(b[0]))
    end = clip(*b, inner[-1] if inner else centre(a[0]))
    line = [start, *inner, end]
    line[-1] = back(end, line[-2], 7.0)
    return [Mark(rounded(line)), arrowhead(end, line[-2], 9.0)]


def divider(ops: tuple[Op, ...]) -> Mark:
    """The dashed line between two concurrent regions of a composite state."""
    return Mark(ops, "border", None, 1.5, (5.0, 4.0))


def centre(rect: Rect) -> Point:
    """The centre of a rect."""
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def clip(rect: Rect, kind: str, toward: Point) -> Point:
    """Where the line from the shape's centre toward a point leaves the shape."""
    cx, cy = centre(rect)
    dx, dy = toward[0] - cx, toward[1] - cy
    if dx == 0 and dy == 0:
        return cx, cy
    hw, hh = rect[2] / 2, rect[3] / 2
    if kind in ("start", "end"):
        t = hw / math.hypot(dx, dy)
    elif kind == "choice":
        t = 1.0 / (abs(dx) / hw + abs(dy) / hh)
    else:
        t = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    t = min(t, 1.0)
    return cx + dx * t, cy + dy * t
