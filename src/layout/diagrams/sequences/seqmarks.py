"""What a sequence diagram's parts look like, as marks: an arrow's end, a frame with its
tag and conditions, a condition on its chip, an actor's figure (`sequence` places them)."""

from __future__ import annotations

import math

from ..marks import SMALL_SIZE, Label, Lines, Mark, Op, arrowhead, circle_ops, rect_ops, tint
from .seqcolumns import DISC
from .sequenceparse import Section

CHIP = 5.0  # px round a condition's label on its chip


def arrow_end(kind: str, tip: tuple[float, float], frm: tuple[float, float]) -> list[Mark]:
    """An arrow's end: a filled head, none (`->`), a cross (`-x`) or an open head (`-)`)."""
    if kind == "filled":
        return [arrowhead(tip, frm, 9.0)]
    if kind == "open":
        return []
    x, y = tip
    if kind == "cross":
        s = 5.0
        ops = (("M", x - s, y - s), ("L", x + s, y + s), ("M", x - s, y + s), ("L", x + s, y - s))
        return [Mark(ops, "line")]
    angle = math.atan2(tip[1] - frm[1], tip[0] - frm[0])
    barbs: list[Op] = []
    for side in (0.83, -0.83):
        back = angle + math.pi * side
        barbs += [("M", x, y), ("L", x + 9 * math.cos(back), y + 9 * math.sin(back))]
    return [Mark(tuple(barbs), "line")]


def tag_width(section: Section) -> float:
    """The width of a frame's tag (`loop`, `alt`, ...) in its corner."""
    return len(section.keyword) * SMALL_SIZE * 0.62 + 12


def frame_marks(
    top: float,
    section: Section,
    label: Lines,
    dividers: list[tuple[float, Lines | None]],
    box: tuple[float, float, float],
) -> list[Mark | Label]:
    """A block's frame from `top` within `box` (left, right, bottom): its outline, its tag
    in the corner, its condition (`label`) and its dividers (each a y and its condition)."""
    left, right, bottom = box
    out: list[Mark | Label] = [
        Mark(rect_ops(left, top, right - left, bottom - top + 4, 3), "accent", None, 1.2)
    ]
    tag_w = tag_width(section)
    corner: tuple[Op, ...] = (
        ("M", left, top),
        ("L", left + tag_w, top),
        ("L", left + tag_w, top + 12),
        ("L", left + tag_w - 6, top + 18),
        ("L", left, top + 18),
        ("Z",),
    )
    out.append(Mark(corner, None, tint("accent")))
    tag = Lines((section.keyword,), tag_w - 12, 16, SMALL_SIZE, True)
    out.append(Label(tag, left + 5, top + 1, "text", "left"))
    if section.label:
        out += chip(label, left + tag_w + 8 + CHIP, top + CHIP + 3, "left")
    for y, condition in dividers:
        out.append(Mark((("M", left, y), ("L", right, y)), "accent", None, 1.2, (4.0, 3.0)))
        if condition:  # shown as written: mermaid-js's "[…]" reads as markup on a card
            out += chip(condition, (left + right) / 2, y + CHIP + 4)
    return out


def chip(text: Lines, x: float, y: float, align: str = "center") -> list[Mark | Label]:
    """A condition on a chip of the panel colour: legible over a frame's lines and bands."""
    left = x - text.width / 2 if align == "center" else x
    chip = rect_ops(left - CHIP, y - CHIP + 1, text.width + 2 * CHIP, text.height + 2 * CHIP - 2, 4)
    return [Mark(chip, None, "panel"), Label(text, x, y, "muted", align)]


def number_disc(text: Lines, x: float, y: float) -> list[Mark | Label]:
    """`autonumber`'s number (`text`, measured) in an accent disc centred on (`x`, `y`),
    widened to a pill for a number too wide for it."""
    width = max(2 * DISC, text.width + 8)
    disc = Mark(rect_ops(x - width / 2, y - DISC, width, 2 * DISC, DISC), None, "accent")
    return [disc, Label(text, x, y - text.height / 2, "on_accent")]


def stick_figure(x: float, top: float) -> list[Mark]:
    head = circle_ops(x, top + 5, 5)
    body: tuple[Op, ...] = (
        ("M", x, top + 10),
        ("L", x, top + 19),
        ("M", x - 8, top + 13),
        ("L", x + 8, top + 13),
        ("M", x - 7, top + 27),
        ("L", x, top + 19),
        ("L", x + 7, top + 27),
    )
    return [Mark(head, "accent", None, 1.5), Mark(body, "accent", None, 1.5)]
