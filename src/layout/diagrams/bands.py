"""A drawing too tall for a card at a legible size → horizontal bands, one a card.

A long sequence diagram, a tall timeline or state chart fits a card's width but not its
height: shrunk to the height, its labels fell to 3 px on a phone. Cut into bands at the
width's scale instead, each card shows a part at a size that reads, the way a long
screenshot is posted as several. The bands are as few as greedy cuts make them and
filled evenly (no stub of a last band). A cut never passes through a label, and avoids
the small filled boxes (notes, chips, nodes), a frame's head, a timeline's period and a
sequence's `else` with its condition and first row (`Drawing.keep`) where it can; lines
and frames that cross a cut
are clipped there by the card (`Group.clip`) and go on in the next band. What a drawing
names as its `heads` (a sequence's participants) the card draws again atop each band after
the first, as mermaid-js's mirrored actors close a long diagram, so each band names its
lifelines. A graph too wide for a card at a legible size (a dense class diagram) is cut
the other way first, into strips (`strips`), each then cut into bands.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from .marks import Drawing, Label, Mark, mark_bounds

SMALL_BOX = 0.5  # of a band's height: a filled box under it is not cut when it can be helped
LEAST_BAND = 0.4  # of a band's height: no band is cut shorter than this (but the last)
EVEN_SLACK = 1.15  # a strip may be this much wider than an even share, for a cut in the clear
CUT_CLEARANCE = 3.0  # px of the drawing between a cut and the label or box it passes
FRAME_HEAD = 44.0  # px: a frame's tag and condition and the top of its first row
Span = tuple[float, float]  # a top and a bottom, in the drawing's px


@dataclass(frozen=True, slots=True)
class Band:
    """The part of a drawing between `top` and `bottom` (its own px): the items that show
    in it (a label whole, a mark crossing it), and the labels' text for the alt text."""

    top: float
    bottom: float
    items: tuple[Mark | Label, ...]
    text: str


def bands(drawing: Drawing, first: float, rest: float) -> list[Band]:
    """`drawing` cut into bands at most `first` (the first) and `rest` (the others) tall,
    in the drawing's px; one band when it fits `first`. A sequence's last band with no
    label (the lifelines' ends under its last row) is left out, not given a card alone; any
    other drawing's foot is content (a state chart's end dot: it was dropped with the
    bottom of the box above it)."""
    spans: list[Span] = [band_span(item) for item in drawing.items]
    labels = [
        span for span, item in zip(spans, drawing.items, strict=True) if isinstance(item, Label)
    ] + list(drawing.whole)
    kept = drawing.keep + _frame_heads(drawing.items, spans)
    boxes = [
        span
        for span, item in zip(spans, drawing.items, strict=True)
        if isinstance(item, Mark) and item.fill and span[1] - span[0] < SMALL_BOX * rest
    ]
    # a graph cut into strips too (`Drawing.wide_cut`) stays greedy: an even cut spreads
    # its labels over more bands, and so more strips of each, past a card's count
    if drawing.wide_cut:
        cuts = _greedy(drawing.height, first, rest, labels, boxes, kept)
    else:
        # under a sequence's last label only its lifelines' ends: the bands end there; any
        # other drawing's foot is drawn (a state chart's end dot, its last state's box)
        last = max((bottom for _, bottom in labels), default=drawing.height) + CUT_CLEARANCE
        end = min(drawing.height, last) if drawing.heads else drawing.height
        cuts = _balanced(drawing.height, end, first, rest, (labels, boxes, kept))
    out = [_band(drawing, spans, a, b) for a, b in itertools.pairwise(cuts)]
    while drawing.heads and len(out) > 1 and not out[-1].text:  # lifelines' ends alone
        out.pop()
    return out


def _frame_heads(items: tuple[Mark | Label, ...], spans: list[Span]) -> tuple[Span, ...]:
    """The top `FRAME_HEAD` of each frame (an outline, stroked and not filled, round rows:
    a sequence's `loop` or `alt`): a cut just under a frame's tag and condition left them
    alone at a card's foot, their first row on the next card."""
    heads = []
    for item, (top, bottom) in zip(items, spans, strict=True):
        if isinstance(item, Mark) and item.stroke and not item.fill and len(item.ops) >= 4:
            left, _, right, _ = mark_bounds(item.ops)
            if right - left > FRAME_HEAD and bottom - top > 2 * FRAME_HEAD:
                heads.append((top, top + FRAME_HEAD))
    return tuple(heads)


def heads_at(drawing: Drawing, top: float) -> tuple[Mark | Label, ...]:
    """The drawing's `heads` to repeat atop a band starting at `top` (its own px): each
    whose life (`Drawing.lives`) holds `top`, every one when the drawing gives none."""
    if not drawing.lives:
        return drawing.heads
    return tuple(
        head
        for head, (start, stop) in zip(drawing.heads, drawing.lives, strict=True)
        if start <= top < stop
    )


def strips(drawing: Drawing, most: float) -> list[Span]:
    """The drawing's left and right edges of strips at most `most` wide (its own px), as
    even as the cuts allow, cut where no label and no filled box (a class, a node) is;
    none when a cut cannot be put in the clear."""
    labels: list[Span] = []
    boxes: list[Span] = []
    for item in drawing.items:
        if isinstance(item, Label):
            labels.append(_across(item))
        elif item.fill:
            left, _, right, _ = mark_bounds(item.ops)
            if right - left < SMALL_BOX * most:  # not a panel round many
                boxes.append((left, right))
    even = drawing.width / math.ceil(drawing.width / most)
    cuts, left = [0.0], 0.0
    while drawing.width - left > most:
        left = _cut(left, min(left + most, left + even * EVEN_SLACK), labels, boxes, even)
        if any(a < left < b for a, b in labels + boxes):
            return []  # a box would be cut in two: not worth a legible size
        cuts.append(left)
    cuts.append(drawing.width)
    return list(itertools.pairwise(cuts))


def in_strip(item: Mark | Label, span: Span) -> bool:
    """Whether `item` shows in the strip `span`: a label whole in the strip its middle is
    in, a mark in each it crosses (the card clips it at the strip's edges)."""
    if isinstance(item, Label):
        start, end = _across(item)
        return span[0] <= (start + end) / 2 < span[1]
    start, _, end, _ = mark_bounds(item.ops)
    return end >= span[0] and start <= span[1]


def _across(label: Label) -> Span:
    left = label.x - label.text.width / 2 if label.align == "center" else label.x
    return left, left + label.text.width


def _greedy(
    height: float,
    first: float,
    rest: float,
    labels: list[Span],
    boxes: list[Span],
    kept: tuple[Span, ...],
) -> list[float]:
    """The cuts (0 and `height` included) that fill each band as far as a clean cut lets:
    the fewest bands, but the last may be a stub of a row or two."""
    cuts, top = [0.0], 0.0
    while height - top > (first if top == 0.0 else rest):
        room = first if top == 0.0 else rest
        top = _cut(top, top + room, labels, boxes, room, kept)
        cuts.append(top)
    return [*cuts, height]


def _balanced(
    height: float,
    end: float,
    first: float,
    rest: float,
    avoid: tuple[list[Span], list[Span], tuple[Span, ...]],
) -> list[float]:
    """As many bands as `_greedy` cuts down to `end` (a sequence's last label, else the
    drawing's foot), each filled to the same share of its room (a stub last band, three
    rows under three full cards, reads as an afterthought): each cut is the clean one
    nearest that share. What lies under `end` (a sequence's lifelines' ends) closes the
    last band, or is a band of its own, which `bands` leaves out, when the band has no
    room for it; the greedy cuts when balanced ones would need one band more. `avoid`:
    the labels, small boxes and kept spans a cut keeps out of."""
    labels, boxes, kept = avoid
    count = len(_greedy(end, first, rest, labels, boxes, kept)) - 1
    if count < 2:
        return _greedy(height, first, rest, labels, boxes, kept)
    share = end / (first + (count - 1) * rest)  # of each band's room, to fill them evenly
    cuts, top = [0.0], 0.0
    for index in range(count - 1):
        room = first if index == 0 else rest
        top = _cut(top, top + room, labels, boxes, room, kept, near=top + share * room)
        cuts.append(top)
    if height - top <= rest:
        return [*cuts, height]
    if end - top <= rest:
        return [*cuts, end, height]
    return _greedy(height, first, rest, labels, boxes, kept)


def _cut(
    top: float,
    most: float,
    labels: list[Span],
    boxes: list[Span],
    height: float,
    kept: tuple[Span, ...] = (),
    near: float | None = None,
) -> float:
    """The lowest place at most `most` and at least `LEAST_BAND` of `height` below `top`
    that no label spans (nor, where one is free, a small filled box or a `kept` span), or
    the one nearest `near` when given; `most` if none is."""
    least = top + LEAST_BAND * height
    candidates = sorted(
        {bottom + CUT_CLEARANCE for _, bottom in labels + boxes}
        | {start - CUT_CLEARANCE for start, _ in labels + boxes},
        key=(lambda y: -y) if near is None else (lambda y: abs(y - near)),
    )
    for avoid in ([*labels, *boxes, *kept], labels + boxes, labels):
        for y in candidates:
            if least <= y <= most and not any(a < y < b for a, b in avoid):
                return y
    return most


def _band(drawing: Drawing, spans: list[Span], top: float, bottom: float) -> Band:
    items: list[Mark | Label] = []
    text: list[str] = []
    for item, (start, end) in zip(drawing.items, spans, strict=True):
        if isinstance(item, Label):
            if top <= (start + end) / 2 < bottom:  # a label shows whole in one band
                items.append(item)
                text.extend(item.text.lines)
        elif end >= top and start <= bottom:
            items.append(item)
    return Band(top, bottom, tuple(items), "\n".join(text))


def band_span(item: Mark | Label) -> Span:
    """The item's top and bottom in the drawing's px."""
    if isinstance(item, Label):
        return item.y, item.y + item.text.height
    _, top, _, bottom = mark_bounds(item.ops)
    return top, bottom
