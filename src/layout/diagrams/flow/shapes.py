"""A flowchart node's shape name + its label's size → the shape's box and where its label sits.

Each shape mermaid-js 11 draws (`nodes.SHAPE_NAMES`) has its size rule here: `size` grows the
label's padded box so the shape holds it (a circle round its corners, a cylinder with its
rims, a document with its wave), and `label_shift` moves a label off the centre where the
shape's room is (a triangle's base). The outlines drawn in that box are `outlines.py`'s,
the strokes inside them `details.py`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable

SMALL = 14.0  # px: a start/stop dot's diameter
LABEL_LESS = {"sm-circ": SMALL, "f-circ": SMALL, "fr-circ": SMALL + 6, "cross-circ": 26.0}
WAVE = 0.12  # a document's wavy edge, in heights


def size(shape: str, w: float, h: float) -> tuple[float, float]:
    """The shape's box for a label whose padded box is `w` x `h`."""
    if shape in LABEL_LESS:
        return LABEL_LESS[shape], LABEL_LESS[shape]
    if shape in ("fork",):
        return 70.0, 10.0
    if shape in ("hourglass", "bolt"):
        return 30.0, 30.0
    grow = _GROW.get(shape)
    return grow(w, h) if grow else (w, h)


def _circle(w: float, h: float) -> tuple[float, float]:
    d = math.hypot(w - 8, h)  # the label's corners inside, with a little less side padding
    return d, d


_GROW: dict[str, Callable[[float, float], tuple[float, float]]] = {
    "rhombus": lambda w, h: (w * 1.5, h * 1.5),
    "circle": _circle,
    "dcircle": lambda w, h: (_circle(w, h)[0] + 10, _circle(w, h)[0] + 10),
    "stadium": lambda w, h: (w + h / 2, h),
    "subroutine": lambda w, h: (w + 16, h),
    "cylinder": lambda w, h: (w, h + 2 * rim(w)),
    "lin-cyl": lambda w, h: (w, h + 3 * rim(w)),
    "h-cyl": lambda w, h: (w + 2 * rim(h), h),
    "hexagon": lambda w, h: (w + h * 0.8, h),
    "lean-r": lambda w, h: (w + h, h),
    "lean-l": lambda w, h: (w + h, h),
    "trap-b": lambda w, h: (w + h, h),
    "trap-t": lambda w, h: (w + h, h),
    "odd": lambda w, h: (w + h / 2, h),
    "doc": lambda w, h: (w, h * (1 + WAVE)),
    "tag-doc": lambda w, h: (w, h * (1 + WAVE)),
    "docs": lambda w, h: (w + 8, h * (1 + WAVE) + 8),
    "st-rect": lambda w, h: (w + 8, h + 8),
    "div-rect": lambda w, h: (w, h + 10),
    "win-pane": lambda w, h: (w + 10, h + 10),
    "lin-rect": lambda w, h: (w + 10, h),
    "tri": lambda w, h: (w * 2, h * 2),
    "flip-tri": lambda w, h: (w * 2, h * 2),
    "delay": lambda w, h: (w + h / 2, h),
    "curv-trap": lambda w, h: (w + h * 0.8, h),
    "sl-rect": lambda w, h: (w, h + 10),
    "notch-pent": lambda w, h: (w + h / 2, h),
    "bow-rect": lambda w, h: (w + h / 2, h),
    "flag": lambda w, h: (w, h * (1 + 2 * WAVE)),
    "notch-rect": lambda w, h: (w + 8, h),
    "tag-rect": lambda w, h: (w + 6, h),
    "brace": lambda w, h: (w + 10, h),
    "brace-r": lambda w, h: (w + 10, h),
    "braces": lambda w, h: (w + 20, h),
}


def rim(w: float) -> float:
    """A cylinder's end ellipse's short radius for a width `w`."""
    return max(4.0, min(10.0, w * 0.08))


def label_shift(shape: str, w: float, h: float) -> float:
    """How far down (px) the label's centre sits from the shape's centre."""
    shifts = {
        "cylinder": rim(w) / 2,
        "lin-cyl": rim(w),
        "doc": -h * WAVE / 2,
        "tag-doc": -h * WAVE / 2,
        "docs": -h * WAVE / 2,
        "div-rect": 5.0,
        "win-pane": 5.0,
        "sl-rect": 5.0,
        "tri": h / 4,
        "flip-tri": -h / 4,
        "flag": 0.0,
    }
    return shifts.get(shape, 0.0)
