"""A flowchart node's shape in its box → the strokes drawn inside or along its outline, never
filled: a cylinder's rims, a subroutine's side bars, a divided box's rule, a window's panes,
a tagged box's corner, braces."""

from __future__ import annotations

from collections.abc import Callable

from ..marks import Op
from .outlines import K, ellipse
from .shapes import WAVE, rim


def details(shape: str, x: float, y: float, w: float, h: float) -> tuple[Op, ...]:
    """The lines drawn inside or along the outline (no fill): rims, bars, rules, braces."""
    draw = _DETAILS.get(shape)
    return draw(x, y, w, h) if draw else ()


def _rim_arc(x: float, cy: float, w: float, ry: float) -> tuple[Op, ...]:
    """The near half of a cylinder's end ellipse at height `cy` (the rim's front)."""
    rx, cx = w / 2, x + w / 2
    kx, ky = rx * K, ry * K
    return (
        ("M", x, cy),
        ("C", x, cy + ky, cx - kx, cy + ry, cx, cy + ry),
        ("C", cx + kx, cy + ry, x + w, cy + ky, x + w, cy),
    )


def _brace(x: float, y: float, h: float, facing: float) -> tuple[Op, ...]:
    """A curly brace at `x` over the height `h`, its point toward `facing` (-1 left, 1 right)."""
    d, m = 6.0 * facing, y + h / 2
    return (
        ("M", x + d, y),
        ("C", x, y, x + d, m, x, m),
        ("C", x + d, m, x, y + h, x + d, y + h),
    )


_DETAILS: dict[str, Callable[[float, float, float, float], tuple[Op, ...]]] = {
    "subroutine": lambda x, y, w, h: (
        ("M", x + 8, y),
        ("L", x + 8, y + h),
        ("M", x + w - 8, y),
        ("L", x + w - 8, y + h),
    ),
    "cylinder": lambda x, y, w, h: _rim_arc(x, y + rim(w), w, rim(w)),
    "lin-cyl": lambda x, y, w, h: (
        *_rim_arc(x, y + rim(w), w, rim(w)),
        *_rim_arc(x, y + 2 * rim(w), w, rim(w)),
    ),
    "h-cyl": lambda x, y, w, h: (
        ("M", x + w - rim(h), y),
        (
            "C",
            x + w - rim(h) * (1 + K),
            y,
            x + w - 2 * rim(h),
            y + h / 2 - h / 2 * K,
            x + w - 2 * rim(h),
            y + h / 2,
        ),
        (
            "C",
            x + w - 2 * rim(h),
            y + h / 2 + h / 2 * K,
            x + w - rim(h) * (1 + K),
            y + h,
            x + w - rim(h),
            y + h,
        ),
    ),
    "dcircle": lambda x, y, w, h: ellipse(x + w / 2, y + h / 2, w / 2 - 5, h / 2 - 5),
    "fr-circ": lambda x, y, w, h: ellipse(x + w / 2, y + h / 2, w / 2 - 4, h / 2 - 4),
    "cross-circ": lambda x, y, w, h: (
        ("M", x + w * 0.15, y + h * 0.15),
        ("L", x + w * 0.85, y + h * 0.85),
        ("M", x + w * 0.85, y + h * 0.15),
        ("L", x + w * 0.15, y + h * 0.85),
    ),
    "div-rect": lambda x, y, w, h: (("M", x, y + 10), ("L", x + w, y + 10)),
    "win-pane": lambda x, y, w, h: (
        ("M", x, y + 10),
        ("L", x + w, y + 10),
        ("M", x + 10, y),
        ("L", x + 10, y + h),
    ),
    "lin-rect": lambda x, y, w, h: (("M", x + 10, y), ("L", x + 10, y + h)),
    "tag-rect": lambda x, y, w, h: (("M", x + w - 12, y + h), ("L", x + w, y + h - 12)),
    "tag-doc": lambda x, y, w, h: (
        ("M", x + w - 12, y + h * (1 - WAVE) - 2),
        ("L", x + w, y + h * (1 - WAVE) - 14),
    ),
    "brace": lambda x, y, w, h: _brace(x, y, h, 1.0),
    "brace-r": lambda x, y, w, h: _brace(x + w, y, h, -1.0),
    "braces": lambda x, y, w, h: (*_brace(x, y, h, 1.0), *_brace(x + w, y, h, -1.0)),
}
