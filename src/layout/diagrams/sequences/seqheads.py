"""A sequence diagram's participants drawn whole: their heads (at the top, or where a
message creates them), their dashed lifelines, the `box` groups' titled bands behind
them, and what a card's band after the first repeats atop it (`band_repeats`)."""

from __future__ import annotations

import math
from itertools import pairwise

from ..marks import PAD_Y, Label, Lines, Mark, Op, rect_ops, tint
from .seqmarks import stick_figure
from .seqsheet import ACTOR, FIRST_ROW, Sheet

BOX_PAD = 10.0  # px a `box` group's band reaches past its participants' heads


def lifelines(sheet: Sheet, end: float) -> list[Mark | Label]:
    """Each participant's dashed lifeline, from its head (at the top, or where created)."""
    out: list[Mark | Label] = []
    for column, x in enumerate(sheet.xs):
        start = sheet.starts.get(column)
        if start is None or not sheet.seq.participants[column].created:
            start = sheet.head_top + sheet.head_h  # a `create` no message made: at the top
        line = (("M", x, start), ("L", x, sheet.ends.get(column, end)))
        out.insert(0, _lifeline_mark(line))
    return out


def _lifeline_mark(ops: tuple[Op, ...]) -> Mark:
    return Mark(ops, "border", None, 1.2, (4.0, 4.0))


def top_heads(sheet: Sheet) -> list[Mark | Label]:
    """The heads at the top: every participant's but those a message creates further down."""
    out: list[Mark | Label] = []
    for column in range(len(sheet.xs)):
        if sheet.starts.get(column) is None or not sheet.seq.participants[column].created:
            out += head_marks(sheet, column, sheet.head_top)
    return out


def band_repeats(sheet: Sheet) -> list[tuple[Mark | Label, tuple[float, float]]]:
    """What a band after the first repeats atop it, each with the span its top must fall
    in: the `box` groups' bands behind the heads (always), and each participant's head
    with its lifeline's first stretch down to the first row, from where its lifeline
    starts (a created one's under its head, drawn where a message made it) to where it
    ends (a destroyed one's cross), so a band names just the lifelines that run in it."""
    top = sheet.head_top - (ACTOR if any(p.actor for p in sheet.seq.participants) else 0.0)
    start = sheet.head_top + sheet.head_h
    stop = start + FIRST_ROW
    always = (-math.inf, math.inf)
    out: list[tuple[Mark | Label, tuple[float, float]]] = [
        (Mark(rect_ops(left, top, right - left, stop - top), None, tint("muted")), always)
        for left, right, _ in _box_spans(sheet)
    ]
    for column, x in enumerate(sheet.xs):
        born = sheet.starts.get(column, -math.inf)
        if not sheet.seq.participants[column].created:
            born = -math.inf
        life = (born, sheet.ends.get(column, math.inf))
        stub = _lifeline_mark((("M", x, start), ("L", x, stop)))
        out += [(item, life) for item in [*head_marks(sheet, column, sheet.head_top), stub]]
    return out


def head_marks(sheet: Sheet, column: int, top: float) -> list[Mark | Label]:
    """A participant's head: its name on a tinted box, under a figure for an actor."""
    x, width = sheet.xs[column], sheet.widths[column]
    out: list[Mark | Label] = []
    if sheet.seq.participants[column].actor:
        out += stick_figure(x, top - ACTOR)
    out.append(Mark(rect_ops(x - width / 2, top, width, sheet.head_h, 4), None, tint("accent")))
    out.append(Label(sheet.heads[column], x, top + PAD_Y))
    return out


def box_groups(sheet: Sheet, end: float) -> list[Mark | Label]:
    """Each `box` group: a titled band behind its participants' columns; groups that meet
    (`_box_spans`) share one band, their titles apart (their own rounded corners left a
    notch where they met)."""
    out: list[Mark | Label] = []
    top = sheet.title_h
    spans = _box_spans(sheet)
    for left, right in _joined([(left, right) for left, right, _ in spans]):
        out.append(Mark(rect_ops(left, top, right - left, end + 8 - top, 4), None, tint("muted")))
    for left, right, title in spans:
        if title.lines and title.lines != ("",):
            out.append(Label(title, (left + right) / 2, top + 5.0))
    return out


def _joined(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The spans, those that meet or overlap joined into one, left to right."""
    out: list[tuple[float, float]] = []
    for left, right in sorted(spans):
        if out and left <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], right))
        else:
            out.append((left, right))
    return out


def _box_spans(sheet: Sheet) -> list[tuple[float, float, Lines]]:
    """Each `box` group with members: its band's left and right, and its title. Two
    groups side by side whose bands would overlap (heads closer than two `BOX_PAD`s: a
    compact sequence's are 8 px apart) meet halfway between their heads: overlapping,
    their two tints drew a darker stripe through every message label between them (case
    71's "Apply coupon", "Poll status"), and a seam of page there would draw a light one."""
    out: list[tuple[float, float, Lines]] = []
    inner: list[tuple[float, float]] = []  # the members' heads' extent, each group's
    for k, title in enumerate(sheet.box_titles):
        members = [i for i, p in enumerate(sheet.seq.participants) if p.box == k]
        if not members:
            continue
        left = min(sheet.xs[i] - sheet.widths[i] / 2 for i in members)
        right = max(sheet.xs[i] + sheet.widths[i] / 2 for i in members)
        inner.append((left, right))
        left -= BOX_PAD
        out.append((left, max(right + BOX_PAD, left + title.width + 2 * BOX_PAD), title))
    order = sorted(range(len(out)), key=lambda n: inner[n][0])
    for a, b in pairwise(order):
        (left, right, title), (b_left, b_right, b_title) = out[a], out[b]
        middle = (inner[a][1] + inner[b][0]) / 2
        if right > b_left and inner[a][1] <= middle <= inner[b][0]:
            out[a] = (left, min(right, middle), title)
            out[b] = (max(b_left, middle), b_right, b_title)
    return out
