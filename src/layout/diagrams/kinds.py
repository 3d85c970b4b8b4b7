"""Sequence diagrams and pies → `Drawing`s (flowcharts are in drawing.py, mind maps in mindmap.py).

A sequence diagram has a column per participant, spaced so each message's label fits
between its ends, and a row per event. A pie's slices go clockwise from twelve o'clock,
with a legend of labels and shares.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from .marks import (
    LABEL_SIZE,
    LINE_WIDTH,
    MAX_LABEL_WIDTH,
    PAD_X,
    PAD_Y,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    arrowhead,
    circle_ops,
    finish,
    rect_ops,
    tint,
)
from .mermaidkinds import Message, Note, Pie, Section, Sequence

# Sequence diagrams

_ROW_GAP, _COLUMN_GAP, _ACTOR = 10.0, 36.0, 30.0


def layout_sequence(seq: Sequence, measure: Measure) -> Drawing:
    heads = [measure(p.label, LABEL_SIZE, False, MAX_LABEL_WIDTH * 0.7) for p in seq.participants]
    index = {p.id: i for i, p in enumerate(seq.participants)}
    widths = [t.width + 2 * PAD_X for t in heads]
    texts = {id(e): measure(e.label, SMALL_SIZE, False, MAX_LABEL_WIDTH) for e in seq.events}
    xs = _columns(seq, index, widths, texts)
    head_h = max(t.height for t in heads) + 2 * PAD_Y
    items: list[Mark | Label] = []
    body: list[Mark | Label] = []
    y = head_h + 14 + (_ACTOR if any(p.actor for p in seq.participants) else 0)
    opened: list[_Frame] = []
    for event in seq.events:
        text = texts[id(event)]
        if isinstance(event, Message):
            y = _message(body, event, text, xs[index[event.source]], xs[index[event.target]], y)
            _touch(opened, index[event.source], index[event.target])
        elif isinstance(event, Note):
            y = _note(body, event, text, [xs[index[w]] for w in event.over], widths, index, y)
            _touch(opened, *(index[w] for w in event.over))
        elif event.kind == "open":
            opened.append(_Frame(y, event))
            y += text.height + 16
        elif event.kind == "divider" and opened:
            opened[-1].dividers.append(y)
            if event.label:
                # mermaid-js prints "[condition]"; the brackets read as markup on a card
                label = measure(event.label, SMALL_SIZE, False, MAX_LABEL_WIDTH)
                opened[-1].conditions.append(len(body))
                body.append(Label(label, (xs[0] + xs[-1]) / 2, y + 4, "muted"))
                y += label.height
            y += 12
        elif event.kind == "close" and opened:
            frame = opened.pop()
            _touch(opened, *frame.columns)  # what a frame holds, its outer frames hold
            span = _frame_span(frame, xs, texts[id(frame.section)], len(opened))
            for at in frame.conditions:  # centred on the frame, not on the whole diagram
                condition = body[at]
                assert isinstance(condition, Label)
                body[at] = replace(condition, x=(span[0] + span[1]) / 2)
            body[:0] = _section(
                frame.section, texts[id(frame.section)], frame.top, y, frame.dividers, span
            )
            y += 10
    end = y + 6
    top_y = _ACTOR if any(p.actor for p in seq.participants) else 0.0
    for i, (p, head) in enumerate(zip(seq.participants, heads, strict=True)):
        line = (("M", xs[i], top_y + head_h), ("L", xs[i], end))
        items.append(Mark(line, "border", None, 1.2, (4.0, 4.0)))
        if p.actor:
            items.extend(_stick_figure(xs[i], 0.0))
        box = rect_ops(xs[i] - widths[i] / 2, top_y, widths[i], head_h, 4)
        items.append(Mark(box, None, tint("accent")))
        items.append(Label(head, xs[i], top_y + PAD_Y))
    return finish(items + body, "\n".join(seq.labels()))


def _columns(
    seq: Sequence, index: dict[str, int], widths: list[float], texts: dict[int, Lines]
) -> list[float]:
    """Column centres: neighbours apart by their boxes and a gap, then widened where a
    message's label needs more room between its ends (shortest spans first)."""
    gaps = [(widths[i] + widths[i + 1]) / 2 + _COLUMN_GAP for i in range(len(widths) - 1)]
    needs: list[tuple[int, int, float]] = []
    for event in seq.events:
        if isinstance(event, Message):
            a, b = sorted((index[event.source], index[event.target]))
            needed = texts[id(event)].width + 24
            if a == b:
                b, needed = a + 1, needed + 30
            if b < len(widths):
                needs.append((a, b, needed))
    for a, b, needed in sorted(needs, key=lambda n: n[1] - n[0]):
        have = sum(gaps[a:b])
        if have < needed:
            gaps[b - 1] += needed - have
    xs = [0.0]
    for gap in gaps:
        xs.append(xs[-1] + gap)
    return xs


def _message(
    items: list[Mark | Label], event: Message, text: Lines, a: float, b: float, y: float
) -> float:
    dash = (5.0, 4.0) if event.dashed else None
    if text.lines and text.lines != ("",):
        anchor, align = ((a + b) / 2, "center") if a != b else (a + 6, "left")
        items.append(Label(text, anchor, y, "text", align))
        y += text.height + 3
    if a == b:  # to itself: a loop to the right
        path: tuple[Op, ...] = (
            ("M", a, y),
            ("L", a + 30, y),
            ("L", a + 30, y + 18),
            ("L", a + 8, y + 18),
        )
        items.append(Mark(path, "line", None, LINE_WIDTH, dash))
        items.extend(_head(event.arrow, (a, y + 18), (a + 30, y + 18)))
        return y + 18 + _ROW_GAP + 8
    direction = 1 if b > a else -1
    tip = b - direction * 1.0
    stop = tip - direction * (7.0 if event.arrow == "filled" else 0.0)
    items.append(Mark((("M", a, y), ("L", stop, y)), "line", None, LINE_WIDTH, dash))
    items.extend(_head(event.arrow, (tip, y), (a, y)))
    return y + _ROW_GAP + 8


def _head(kind: str, tip: tuple[float, float], frm: tuple[float, float]) -> list[Mark]:
    if kind == "filled":
        return [arrowhead(tip, frm, 9.0)]
    if kind == "open":
        return []
    angle = math.atan2(tip[1] - frm[1], tip[0] - frm[0])
    if kind == "cross":
        s = 5.0
        x, y = tip
        return [
            Mark(
                (
                    ("M", x - s, y - s),
                    ("L", x + s, y + s),
                    ("M", x - s, y + s),
                    ("L", x + s, y - s),
                ),
                "line",
            )
        ]
    back = angle + math.pi * 0.83  # async: one barb
    end = (tip[0] + 9 * math.cos(back), tip[1] + 9 * math.sin(back))
    return [Mark((("M", *tip), ("L", *end)), "line")]


def _note(
    items: list[Mark | Label],
    event: Note,
    text: Lines,
    over: list[float],
    widths: list[float],
    index: dict[str, int],
    y: float,
) -> float:
    width = max(text.width + 2 * PAD_X, 60.0)
    if event.side == "over":
        centre = sum(over) / len(over)
        if len(over) > 1:
            width = max(width, abs(over[-1] - over[0]) + 40)
    else:
        offset = width / 2 + 14
        centre = over[0] + (offset if event.side == "right" else -offset)
    height = text.height + 2 * PAD_Y - 4
    items.append(
        Mark(rect_ops(centre - width / 2, y, width, height, 2), None, "panel")
    )  # no outline: see _node_mark
    items.append(Label(text, centre, y + PAD_Y - 2))
    return y + height + _ROW_GAP


@dataclass
class _Frame:
    """A loop/alt/opt/par frame being laid out: where it opened, the columns its messages
    and notes reach, its dividers' heights, and where its conditions' labels sit in `body`."""

    top: float
    section: Section
    columns: set[int] = field(default_factory=set)
    dividers: list[float] = field(default_factory=list)
    conditions: list[int] = field(default_factory=list)


def _touch(opened: list[_Frame], *columns: int) -> None:
    for frame in opened:
        frame.columns.update(columns)


FRAME_MARGIN = 60.0  # px a frame reaches past the outermost columns it holds


def _frame_span(frame: _Frame, xs: list[float], label: Lines, depth: int) -> tuple[float, float]:
    """A frame spans the columns its messages and notes reach, as mermaid-js draws it (all
    columns when it holds none), inset a little per level of nesting, and wide enough
    for its tag and condition."""
    columns = frame.columns or {0, len(xs) - 1}
    inset = 8.0 * depth
    left = xs[min(columns)] - FRAME_MARGIN + inset
    right = xs[max(columns)] + FRAME_MARGIN - inset
    need = len(frame.section.keyword) * SMALL_SIZE * 0.62 + 20 + label.width + 16
    return left, max(right, left + need)


def _section(
    section: Section,
    text: Lines,
    top: float,
    bottom: float,
    dividers: list[float],
    span: tuple[float, float],
) -> list[Mark | Label]:
    left, right = span
    out: list[Mark | Label] = [
        Mark(rect_ops(left, top, right - left, bottom - top + 4, 3), "accent", None, 1.2)
    ]
    tag_w = len(section.keyword) * SMALL_SIZE * 0.62 + 12
    corner: tuple[Op, ...] = (
        ("M", left, top),
        ("L", left + tag_w, top),
        ("L", left + tag_w, top + 12),
        ("L", left + tag_w - 6, top + 18),
        ("L", left, top + 18),
        ("Z",),
    )
    out.append(Mark(corner, None, tint("accent")))
    out.append(
        Label(
            Lines((section.keyword,), tag_w - 12, 16, SMALL_SIZE, True),
            left + 5,
            top + 1,
            "text",
            "left",
        )
    )
    if section.label:
        out.append(Label(text, left + tag_w + 8, top + 3, "muted", "left"))
    for y in dividers:
        out.append(Mark((("M", left, y), ("L", right, y)), "accent", None, 1.2, (4.0, 3.0)))
    return out


def _stick_figure(x: float, top: float) -> list[Mark]:
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


# Pies

RADIUS = 90.0


def layout_pie(pie: Pie, measure: Measure) -> Drawing:
    total = sum(value for _, value in pie.slices)
    items: list[Mark | Label] = []
    top = 0.0
    if pie.title:
        title = measure(pie.title, LABEL_SIZE + 1, True, 2 * RADIUS + 200)
        items.append(Label(title, RADIUS, 0.0))
        top = title.height + 10
    cx, cy = RADIUS, top + RADIUS
    angle = -math.pi / 2
    legend_x, legend_y = 2 * RADIUS + 24, cy - len(pie.slices) * 11
    for i, (label, value) in enumerate(pie.slices):
        share = value / total
        sweep = 2 * math.pi * share
        role = f"series{i}"
        if share >= 0.9999:
            items.append(Mark(circle_ops(cx, cy, RADIUS), "page", role, 1.5))
        elif share > 0:
            end = angle + sweep
            ops: tuple[Op, ...] = (
                ("M", cx, cy),
                ("L", cx + RADIUS * math.cos(angle), cy + RADIUS * math.sin(angle)),
                (
                    "A",
                    RADIUS,
                    RADIUS,
                    0,
                    1 if sweep > math.pi else 0,
                    1,
                    cx + RADIUS * math.cos(end),
                    cy + RADIUS * math.sin(end),
                ),
                ("Z",),
            )
            items.append(Mark(ops, "page", role, 1.5))
        angle += sweep
        row_y = legend_y + i * 22
        items.append(Mark(rect_ops(legend_x, row_y + 2, 12, 12, 2), None, role))
        shown = f"{value:g} · {share * 100:.1f}%" if pie.show_data else f"{share * 100:.1f}%"
        entry = measure(f"{label}  {shown}", SMALL_SIZE + 1, False, MAX_LABEL_WIDTH)
        items.append(Label(entry, legend_x + 18, row_y, "text", "left"))
    extra = [(cx - RADIUS, cy - RADIUS), (cx + RADIUS, cy + RADIUS)]
    return finish(items, "\n".join(pie.labels()), extra)
