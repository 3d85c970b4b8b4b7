"""Marks and labels placed in px → a `Drawing`; the sizes and path shapes every diagram kind uses.

The drawing is theme-neutral: each mark names a colour role (`text`, `line`, `fill`,
`accent`, `panel`, `on_accent`, `series0`…, or a light `tint` of one) that cards take from
the theme and articles from a fixed palette (an author's own colour, from a flowchart's
`classDef`, is a role too: a `#rrggbb` literal, the same on both), so cards
(`layout.blocks.diagram`) and articles (svg.py) draw the same geometry. Labels are measured
by the engine's own shaping (`Measure`, labels.py), so boxes fit their text, CJK included;
long labels wrap. `finish` moves what a layout drew so its bounds start at the margin.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Sequence as Sequence_
from dataclasses import dataclass

Op = tuple[object, ...]
LABEL_SIZE = 14.0  # px: node labels, at 1x
SMALL_SIZE = 12.0  # px: edge labels, notes, legends
# px: a diagram drawn smaller only to end a card (`blocks.figures`), or a chain wrapped into
# rows to fit it (`fit.ROWS_SCALE`), keeps its labels this large, 9 px on a phone 360 px
# wide: at 10 the Japanese post's flowchart shrank to 74 % under its lead (8.4 px on a
# phone) in 21 theme-modes, where a card more holds it whole at its size.
SHRUNK_LABEL = 11.0
MAX_LABEL_WIDTH = 180.0  # px: longer labels wrap
MARGIN = 8.0  # px around a drawing's bounds
PAD_X, PAD_Y = 12.0, 8.0  # px around a node's label
LINE_WIDTH = 1.5
# a flow's direction turned (`fit.draw_to_fit`: a wide chart on a portrait card, a tall one
# on a slide); the flow's start stays first, at the top or the left
TURNED = {"LR": "TB", "RL": "TB", "TB": "LR", "BT": "LR"}
TINT = "tint:"  # a role's colour laid thin over the page: "tint:accent"
TINT_SHARE = 0.16  # how much of the colour a tint keeps


@dataclass(frozen=True, slots=True)
class Lines:
    """A measured label: its lines, the widest line's width and the block's height."""

    lines: tuple[str, ...]
    width: float
    height: float
    size: float
    bold: bool = False
    italic: bool = False  # slanted when set: Latin and CJK alike, as wide as upright


# (text, size px, bold, max width) → the label broken into lines and measured.
Measure = Callable[[str, float, bool, float], Lines]


@dataclass(frozen=True, slots=True)
class Label:
    """Text centred on `x` (or starting at it, `align` left), its first line's top at `y`."""

    text: Lines
    x: float
    y: float
    color: str = "text"
    align: str = "center"


@dataclass(frozen=True, slots=True)
class Mark:
    """A path in absolute px ops (M, L, C, Q, A, Z), stroked and/or filled by role."""

    ops: tuple[Op, ...]
    stroke: str | None = "line"
    fill: str | None = None
    width: float = LINE_WIDTH
    dash: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Drawing:
    width: float
    height: float
    items: tuple[Mark | Label, ...]  # in paint order
    text: str  # the labels, one a line: the figure's alt text
    across: bool = False  # laid out wide (LR flowchart, two-sided mind map): has an upright form
    tall: bool = False  # laid out top-down (TB/BT flowchart or state chart): has a wide form
    legend: bool = False  # a pie: has a form with its legend larger, for a height-bound slot
    note: str = ""  # how it was changed to fit (`fit.draw_to_fit`), said in the quality report
    rows: bool = False  # it reads top to bottom in rows (a sequence, a gantt): cut it freely
    wide_cut: bool = False  # a card may cut it into strips too (a dense class or ER diagram)
    # drawn again atop each band after the first, when it is cut (a sequence's participants)
    heads: tuple[Mark | Label, ...] = ()
    # for each of `heads`, the span (px) a band's top must fall in for it to be repeated
    # there (a participant's life, from its creation to its `destroy`); none: always
    lives: tuple[tuple[float, float], ...] = ()
    # spans (top, bottom px) a card's cut into bands keeps whole, as it keeps a label: a
    # sequence message's label with its arrow under it
    whole: tuple[tuple[float, float], ...] = ()
    # spans a cut keeps whole where it can be put elsewhere in the band (a timeline's period
    # with its cards): unlike `whole`, cut through when no other place is clear
    keep: tuple[tuple[float, float], ...] = ()


def finish(
    items: list[Mark | Label],
    text: str,
    extra: Sequence_[tuple[float, float]] = (),
    keep: Sequence_[tuple[float, float]] = (),
) -> Drawing:
    """The drawing of `items`, moved so its bounds start at the margin, and its `keep`
    spans (`Drawing.keep`) with them."""
    xs, ys = [x for x, _ in extra], [y for _, y in extra]
    for item in items:
        if isinstance(item, Label):
            w = item.text.width
            left = item.x - w / 2 if item.align == "center" else item.x
            xs += [left, left + w]
            ys += [item.y, item.y + item.text.height]
        else:
            for op in item.ops:
                if len(op) >= 3:
                    xs.append(float(op[-2]))  # type: ignore[arg-type]
                    ys.append(float(op[-1]))  # type: ignore[arg-type]
    dx, dy = MARGIN - min(xs), MARGIN - min(ys)
    moved = [moved_by(item, dx, dy) for item in items]
    spans = tuple((top + dy, bottom + dy) for top, bottom in keep)
    return Drawing(max(xs) + dx + MARGIN, max(ys) + dy + MARGIN, tuple(moved), text, keep=spans)


def mark_bounds(ops: tuple[Op, ...]) -> tuple[float, float, float, float]:
    """The box of a mark's points (left, top, right, bottom): each op but Z ends in one."""
    xs = [float(op[-2]) for op in ops if op[0] != "Z"]  # type: ignore[arg-type]  # a number
    ys = [float(op[-1]) for op in ops if op[0] != "Z"]  # type: ignore[arg-type]  # as above
    return min(xs), min(ys), max(xs), max(ys)


def moved_by(item: Mark | Label, dx: float, dy: float) -> Mark | Label:
    """`item` moved by (`dx`, `dy`), as `finish` moves what it is given."""
    if isinstance(item, Label):
        return Label(item.text, item.x + dx, item.y + dy, item.color, item.align)
    ops = tuple(_op_moved(op, dx, dy) for op in item.ops)
    return Mark(ops, item.stroke, item.fill, item.width, item.dash)


def _op_moved(op: Op, dx: float, dy: float) -> Op:
    kind = op[0]
    if kind == "A":
        return (*op[:6], float(op[6]) + dx, float(op[7]) + dy)  # type: ignore[arg-type]
    values = [float(v) + (dy if i % 2 else dx) for i, v in enumerate(op[1:])]  # type: ignore[arg-type]
    return (kind, *values)


def rect_ops(x: float, y: float, w: float, h: float, r: float = 0.0) -> tuple[Op, ...]:
    """A rectangle, its corners rounded by `r` (quarter ellipse arcs)."""
    r = min(r, w / 2, h / 2)
    if r <= 0:
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    return (
        ("M", x + r, y),
        ("L", x + w - r, y),
        ("A", r, r, 0, 0, 1, x + w, y + r),
        ("L", x + w, y + h - r),
        ("A", r, r, 0, 0, 1, x + w - r, y + h),
        ("L", x + r, y + h),
        ("A", r, r, 0, 0, 1, x, y + h - r),
        ("L", x, y + r),
        ("A", r, r, 0, 0, 1, x + r, y),
        ("Z",),
    )


def circle_ops(cx: float, cy: float, r: float) -> tuple[Op, ...]:
    """A circle as four quarter arcs: its extreme points are path points (bounds)."""
    return (
        ("M", cx - r, cy),
        ("A", r, r, 0, 0, 1, cx, cy - r),
        ("A", r, r, 0, 0, 1, cx + r, cy),
        ("A", r, r, 0, 0, 1, cx, cy + r),
        ("A", r, r, 0, 0, 1, cx - r, cy),
        ("Z",),
    )


def arrowhead(
    tip: tuple[float, float], frm: tuple[float, float], size: float = 8.0, role: str = "line"
) -> Mark:
    """A filled triangle pointing at `tip`, along the line from `frm`, in `role`'s colour."""
    angle = math.atan2(tip[1] - frm[1], tip[0] - frm[0])
    left = angle + math.pi * 0.83
    right = angle - math.pi * 0.83
    return Mark(
        (
            ("M", *tip),
            ("L", tip[0] + size * math.cos(left), tip[1] + size * math.sin(left)),
            ("L", tip[0] + size * math.cos(right), tip[1] + size * math.sin(right)),
            ("Z",),
        ),
        stroke=None,
        fill=role,
    )


def tint(role: str) -> str:
    """The drawing role of `role`'s colour as a light tint (see `TINT_SHARE`)."""
    return TINT + role


# a link label's chip: the page's colour under a tint of the line's, over the line
CHIP_FILLS = ("page", tint("line"))


def segment_meets(
    a: tuple[float, float], b: tuple[float, float], box: tuple[float, float, float, float]
) -> bool:
    """Whether the segment from `a` to `b` meets the box (left, top, right, bottom):
    Liang-Barsky clipping, for routes kept off the boxes they do not join."""
    low, high = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        if p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
        if low > high:
            return False
    return True


def fit_scale(drawing: Drawing, width: float, height: float | None, most: float = 1.0) -> float:
    """How much the drawing shrinks to fit `width` (and `height`); grown to `most` at most
    (never, unless asked)."""
    scale = min(most, width / drawing.width)
    return min(scale, height / drawing.height) if height else scale
