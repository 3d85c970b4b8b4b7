"""A `Sequence` record → its `Drawing`: a column per participant, a row per event.

Columns are spaced so each message's label, note and self-message fits between its ends.
Rows go down in order: a message's label above its arrow; an activation bar from the row
that starts it to the row that ends it, nested bars stepped right, arrows ending at a bar's
edge; `autonumber`'s numbers in discs at each arrow's start; a created participant's head
on the row of the message that creates it, a destroyed one's lifeline ending in a cross.
Blocks (loop, alt, opt, par, critical, break) are frames with a tag, spanning the columns
and the labels they hold, as mermaid-js draws them; their conditions sit on chips in the
muted colour (the card keeps them at 4.5:1 against the chip); `rect` is a tinted band
without a line. `box` groups are titled tinted bands behind their participants' columns.
A note is an opaque panel: the see-through bands under it do not darken its text.
Columns and wrapping (as written, or compact for a card too narrow) are `seqcolumns`'s;
each message's label and arrow are one span a card's cut into bands keeps whole, and a
divider (`else`, `and`) with its condition and its first row one it keeps where it can. This
module lays out the rows, event by event, on a `seqsheet.Sheet`; the participants' heads,
lifelines and `box` bands are drawn by `seqheads`.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..marks import (
    LINE_WIDTH,
    MAX_LABEL_WIDTH,
    PAD_X,
    PAD_Y,
    SMALL_SIZE,
    Drawing,
    Label,
    Mark,
    Measure,
    Op,
    arrowhead,
    finish,
    mark_bounds,
    moved_by,
    rect_ops,
    tint,
)
from .seqcolumns import DISC, FRAME_MARGIN, LOOP_W
from .seqheads import band_repeats, box_groups, head_marks, lifelines, top_heads
from .seqmarks import CHIP, arrow_end, frame_marks, number_disc, tag_width
from .seqsheet import OpenFrame, Sheet
from .sequenceparse import Lifeline, Message, Note, Section, Sequence

ROW_GAP = 10.0  # px under each row
LOOP_H = 18.0  # px: a self-message's loop's height
FRAME_LEAST = 2 * DISC  # px: nested frames step in from `FRAME_MARGIN`, never closer
CROSS = 6.0  # px: half a destroyed lifeline's cross
# px an arrow's end mark reaches above and below its line (a `-x` cross 5, a head 4.5), and
# the clear room under it before a destroyed lifeline's cross: at 5 px the two crosses of a
# `-x` message to a destroyed participant read as one blot on a phone
END_REACH, DESTROY_ROOM = 5.0, 12.0


def layout_sequence(seq: Sequence, measure: Measure, compact: bool = False) -> Drawing:
    """The sequence diagram's drawing; `compact`: its columns closer and its participants'
    names wrapped narrower, for a card that would otherwise shrink it past legibility."""
    sheet = Sheet(seq, measure, compact)
    for event in seq.events:
        if isinstance(event, Message):
            _message(sheet, event)
        elif isinstance(event, Note):
            _note(sheet, event)
        elif isinstance(event, Lifeline):
            _lifeline(sheet, event)
        else:
            _section(sheet, event)
        sheet.hold(ROW_GAP)
    end = sheet.y + 6
    for column in range(len(sheet.xs)):
        while sheet.active[column]:
            sheet.deactivate(column, end)
    lines = lifelines(sheet, end)
    items = box_groups(sheet, end) + sheet.bands + lines + top_heads(sheet)
    if seq.title:
        items.append(Label(sheet.title, (sheet.xs[0] + sheet.xs[-1]) / 2, 0.0))
    every = items + sheet.bars + sheet.frames + sheet.body  # a frame's tag over a bar
    drawing = finish(every, "\n".join(seq.labels()), keep=sheet.keep)
    moved = drawing.items[every.index(lines[0])]  # a lifeline, as `finish` moved it
    assert isinstance(lines[0], Mark) and isinstance(moved, Mark)
    left, top, _, _ = mark_bounds(lines[0].ops)
    dx, dy = mark_bounds(moved.ops)[0] - left, mark_bounds(moved.ops)[1] - top
    repeated = band_repeats(sheet)
    return replace(
        drawing,
        heads=tuple(moved_by(item, dx, dy) for item, _ in repeated),
        lives=tuple((start + dy, stop + dy) for _, (start, stop) in repeated),
        whole=tuple((top + dy, bottom + dy) for top, bottom in sheet.whole),
    )


def _message(sheet: Sheet, event: Message) -> None:
    a, b = sheet.index[event.source], sheet.index[event.target]
    text = sheet.texts[id(event)]
    labelled = bool(text.lines) and text.lines != ("",)
    xa, xb = sheet.xs[a], sheet.xs[b]
    created = [c for c in (a, b) if c not in sheet.starts] if a != b else []
    half = sheet.head_h / 2 if created else 0.0
    y = sheet.y + (half - text.height - 3 if labelled and created else 0.0)
    y = label_top = max(y, sheet.y)  # a created head beside the label, the arrow on its middle
    if labelled:
        if a == b:
            left = sheet.edge(a, xa + 1) + (2 * DISC + 2 if event.number is not None else 4)
            sheet.body.append(Label(text, left, y, "text", "left"))
            sheet.reach(left + text.width)
        else:
            ends = [
                _side(sheet, c, other) if c in created else x
                for c, x, other in ((a, xa, xb), (b, xb, xa))
            ]
            # compact: the label moved off its number's disc, not centred clear of it
            shift = (
                math.copysign(sheet.space.shift, ends[1] - ends[0])
                if event.number is not None
                else 0.0
            )
            sheet.body.append(Label(text, sum(ends) / 2 + shift, y, "text"))
        y += text.height + 3 + (sheet.space.lift if event.number is not None else 0.0)
    y = max(y, sheet.y + half)
    if event.activate and a != b:
        sheet.activate(b, y + (half if b in created else 0.0))
    start, arrow_y = sheet.edge(a, xb if a != b else xa + 1), y
    if a == b:
        y = _self_loop(sheet, event, start, y)
    else:
        if a in created:
            start = _createdarrow_end(sheet, a, xb, y)
        tip = _createdarrow_end(sheet, b, xa, y) if b in created else sheet.edge(b, xa)
        _arrow(sheet, event, start, tip, y)
        y += half
    if event.number is not None:
        _disc(sheet, event.number, start, arrow_y)
    if labelled:  # a cut into bands never parts a label from its arrow
        sheet.whole.append((label_top, max(y, arrow_y) + END_REACH))
    if event.activate and a == b:
        sheet.activate(b, y - LOOP_H / 2)
    if event.deactivate:
        sheet.deactivate(a, sheet.last_arrow or y)
    for column in {a, b} & sheet.doomed:
        y = max(y, _destroy(sheet, column, sheet.last_arrow or y))
    sheet.touch(a, b)
    sheet.y = y + ROW_GAP + 8


def _arrow(sheet: Sheet, event: Message, start: float, tip: float, y: float) -> None:
    dash = (5.0, 4.0) if event.dashed else None
    direction = 1.0 if tip > start else -1.0
    inset = 7.0 if event.arrow == "filled" else 0.0
    begin = start + direction * (7.0 if event.both else 0.0)
    line = (("M", begin, y), ("L", tip - direction * inset, y))
    sheet.body.append(Mark(line, "line", None, LINE_WIDTH, dash))
    sheet.body.extend(arrow_end(event.arrow, (tip, y), (start, y)))
    if event.both:
        sheet.body.append(arrowhead((start, y), (tip, y), 9.0))
    sheet.last_arrow = y


def _self_loop(sheet: Sheet, event: Message, start: float, y: float) -> float:
    """A message to itself: a loop out to the right and back, below its label."""
    back = y + LOOP_H
    path: tuple[Op, ...] = (
        ("M", start, y),
        ("L", start + LOOP_W, y),
        ("L", start + LOOP_W, back),
        ("L", start + 8, back),
    )
    sheet.body.append(Mark(path, "line", None, LINE_WIDTH, (5.0, 4.0) if event.dashed else None))
    sheet.body.extend(arrow_end(event.arrow, (start, back), (start + LOOP_W, back)))
    sheet.reach(start + LOOP_W + 4)
    sheet.last_arrow = back
    return back


def _disc(sheet: Sheet, number: int, x: float, y: float) -> None:
    """`autonumber`: the message's number in a disc at its start."""
    sheet.body += number_disc(sheet.measure(str(number), SMALL_SIZE, True, 80.0), x, y)


def _createdarrow_end(sheet: Sheet, column: int, toward: float, y: float) -> float:
    """A participant created by this message: its head on the arrow's row, its lifeline
    from there; the arrow ends at the head's side."""
    top = y - sheet.head_h / 2
    sheet.frames.extend(head_marks(sheet, column, top))
    sheet.starts[column] = top + sheet.head_h
    return _side(sheet, column, toward)


def _side(sheet: Sheet, column: int, toward: float) -> float:
    """The side of a participant's head that faces `toward`."""
    x, half = sheet.xs[column], sheet.widths[column] / 2
    return x - half if toward < x else x + half


def _destroy(sheet: Sheet, column: int, y: float) -> float:
    """`destroy`: the lifeline ends under this message (its arrow on `y`) in a cross,
    `DESTROY_ROOM` clear of the arrow's end mark; where the cross ends."""
    x, y = sheet.xs[column], y + END_REACH + DESTROY_ROOM + CROSS
    ops = (("M", x - CROSS, y - CROSS), ("L", x + CROSS, y + CROSS))
    sheet.body.append(
        Mark((*ops, ("M", x - CROSS, y + CROSS), ("L", x + CROSS, y - CROSS)), "text", None, 2.0)
    )
    sheet.ends[column] = y
    sheet.doomed.discard(column)
    return y + CROSS


def _lifeline(sheet: Sheet, event: Lifeline) -> None:
    column = sheet.index[event.who]
    at = sheet.last_arrow if sheet.last_arrow is not None else sheet.y
    if event.kind == "activate":
        sheet.activate(column, at)
    elif event.kind == "deactivate":
        sheet.deactivate(column, at)
    else:
        sheet.doomed.add(column)


def _note(sheet: Sheet, event: Note) -> None:
    text = sheet.texts[id(event)]
    over = [sheet.xs[sheet.index[w]] for w in event.over]
    width = max(text.width + 2 * PAD_X, 60.0)
    if event.side == "over":
        centre = sum(over) / len(over)
        if len(over) > 1:
            width = max(width, abs(over[-1] - over[0]) + 40)
    else:
        offset = width / 2 + 14
        centre = over[0] + (offset if event.side == "right" else -offset)
    height = text.height + 2 * PAD_Y - 4
    y = sheet.y
    box = rect_ops(centre - width / 2, y, width, height, 2)
    sheet.body.append(Mark(box, None, "page"))  # a note is not darkened by the bands under it
    sheet.body.append(Mark(box, None, "panel"))
    sheet.body.append(Label(text, centre, y + PAD_Y - 2))
    sheet.touch(*(sheet.index[w] for w in event.over))
    sheet.reach(centre - width / 2, centre + width / 2)
    sheet.y = y + height + ROW_GAP


def _section(sheet: Sheet, event: Section) -> None:
    if event.kind == "open":
        label = sheet.measure(event.label, SMALL_SIZE, False, MAX_LABEL_WIDTH)
        sheet.opened.append(OpenFrame(sheet.y, event, label))
        sheet.y += 8 if event.keyword == "rect" else max(label.height + 2 * CHIP + 6, 18) + 8
    elif event.kind == "divider" and sheet.opened:
        label = None
        if event.label:
            label = sheet.measure(event.label, SMALL_SIZE, False, MAX_LABEL_WIDTH)
        sheet.opened[-1].dividers.append((sheet.y, label))
        top = sheet.y
        sheet.y += (label.height + 2 * CHIP + 6 if label else 0) + 12
        sheet.divided = (top, sheet.y)
    elif event.kind == "close" and sheet.opened:
        frame = sheet.opened.pop()
        left, right = _frame_span(frame, sheet.xs, len(sheet.opened), sheet.space.frame)
        sheet.touch(*frame.columns)  # what a frame holds, its outer frames hold
        sheet.reach(left - 4, right + 4)
        if frame.section.keyword == "rect":
            band = rect_ops(left, frame.top, right - left, sheet.y - frame.top, 3)
            sheet.bands.append(Mark(band, None, tint(f"series{sheet.rects % 8}")))
            sheet.rects += 1
        else:
            sheet.frames.extend(
                frame_marks(
                    frame.top, frame.section, frame.label, frame.dividers, (left, right, sheet.y)
                )
            )
        sheet.y += 10


def _frame_span(
    frame: OpenFrame, xs: list[float], depth: int, margin: float = FRAME_MARGIN
) -> tuple[float, float]:
    """A frame spans the columns its messages and notes reach, as mermaid-js draws it (all
    columns when it holds none), inset a little per level of nesting, and wide enough for
    its tag and condition and for what it holds (a note beside a column, a self-message's
    label)."""
    columns = frame.columns or {0, len(xs) - 1}
    inset = min(8.0 * depth, margin - FRAME_LEAST)
    left = min([xs[min(columns)] - margin + inset, *(x - 10 for x in frame.reach)])
    right = max([xs[max(columns)] + margin - inset, *(x + 10 for x in frame.reach)])
    need = tag_width(frame.section) + 8 + frame.label.width + 2 * CHIP + 8
    for _, label in frame.dividers:
        need = max(need, label.width + 2 * CHIP + 16 if label else 0)
    return left, max(right, left + need)
