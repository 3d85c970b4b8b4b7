"""A long left-to-right chain wrapped into rows, as text wraps (`fit.draw_to_fit`).

A flowchart that is one chain (each step one link to the next, no branch, no group) laid
left to right grows only wider: twelve steps on a 1600x900 slide shrank to a third of
their size in one strip. A designer wraps it: rows of steps read left to right, one under
the other, the link from a row's last step running down, back under the row and into the
next row's first step, like a line of text carried to the next. The steps, links, labels
and looks are the author's; only where the chain turns is ours.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .flow.paint import Placed, edge_marks
from .marks import MARGIN, Drawing, Label, Lines, Mark, mark_bounds, moved_by
from .mermaid import Edge, Flowchart, Node

_NO_TEXT = Lines((), 0.0, 0.0, 0.0)  # a placed end is only a shape for the link to meet
MIN_STEPS = 4  # a shorter chain is never wrapped: two rows of one or two steps say nothing
# A chain whose best rows would still be drawn under this share of its size is not wrapped:
# it reads on no one card (60 steps on a slide: 34 %), and its rows' layouts cost (150
# steps: 2.2 s of CPU where the strip took 0.5)
LEAST = 0.5
ROW_GAP = 24.0  # px between two rows' drawings (each has its own margin): the return runs here


def chain(chart: Flowchart) -> tuple[list[Node], list[Edge]] | None:
    """The steps of a chart that is one chain read forward (left to right or top down: a
    right-to-left chain would wrap backwards), and its links in order; None otherwise."""
    if chart.subgraphs or chart.direction == "RL" or len(chart.nodes) < MIN_STEPS:
        return None
    nodes = {node.id: node for node in chart.nodes}
    after = {edge.source: edge for edge in chart.edges}
    targets = {edge.target for edge in chart.edges}
    starts = [node.id for node in chart.nodes if node.id not in targets]
    if len(chart.edges) != len(nodes) - 1 or len(after) != len(chart.edges) or len(starts) != 1:
        return None
    order, links, at = [nodes[starts[0]]], [], starts[0]
    while at in after:
        edge = after[at]
        if edge.line == "invisible" or edge.target not in nodes:
            return None
        links.append(edge)
        at = edge.target
        order.append(nodes[at])
    return (order, links) if len(order) == len(nodes) else None


def best_rows(strip: Drawing, steps: int, fit: Callable[[float, float], float]) -> int:
    """How many rows the chain drawn as one `strip` reads largest in, by `fit` (the scale
    a `width` x `height` drawing is drawn at), estimated from the strip: rows of a share
    of its width, each as tall as it, `ROW_GAP` apart. 1: not wrapped, nor where even
    those rows would be drawn under `LEAST`."""
    inner = strip.width - 2 * MARGIN

    def scale(rows: int) -> float:
        width = inner * 1.08 / rows + 2 * MARGIN  # a row's steps rarely split the width evenly
        return fit(width, rows * strip.height + (rows - 1) * ROW_GAP)

    best = max(range(1, steps // 2 + 1), key=lambda rows: (scale(rows), -rows))
    return best if scale(best) >= LEAST else 1


def row_spans(steps: int, rows: int) -> list[tuple[int, int]]:
    """The steps of each row (start, end): as even as can be, the longer rows first."""
    size, extra = divmod(steps, rows)
    spans, start = [], 0
    for row in range(rows):
        end = start + size + (row < extra)
        spans.append((start, end))
        start = end
    return spans


def _unlabelled(spans: list[tuple[int, int]], links: list[Edge]) -> list[tuple[int, int]] | None:
    """`spans` with each break between rows moved a step on or back where the link there
    has a label (it would sit on the return, away from both its steps), no row left empty;
    None when a break finds no unlabelled link."""
    ends = [end for _, end in spans]
    for index, end in enumerate(ends[:-1]):
        low = ends[index - 1] + 1 if index else 1
        tries = [at for at in (end, end - 1, end + 1) if low <= at < ends[index + 1]]
        free = [at for at in tries if not links[at - 1].label]
        if not free:
            return None
        ends[index] = free[0]
    return list(zip([0, *ends[:-1]], ends, strict=True))


def wrapped(
    chart: Flowchart, rows: int, draw: Callable[[Flowchart], Drawing | None]
) -> Drawing | None:
    """The chain of `chart` in `rows` rows, each drawn left to right by `draw` (None when a
    row is not drawn), the link between two rows a return under the first; None when no
    break between rows finds a link with no label (`_unlabelled`)."""
    found = chain(chart)
    if found is None or rows < 2:
        return None
    order, links = found
    spans = _unlabelled(row_spans(len(order), rows), links)
    if spans is None:
        return None
    items: list[Mark | Label] = []
    texts: list[str] = []
    ends: list[tuple[Placed, Placed]] = []  # each row's first and last step, placed
    gaps: list[float] = []  # the middle of the gap under each row
    top = 0.0
    for start, end in spans:
        part = Flowchart("LR", tuple(order[start:end]), tuple(links[start : end - 1]))
        row = draw(part)
        if row is None:
            return None
        items += [moved_by(item, 0.0, top) for item in row.items]
        texts.append(row.text)
        ends.append((_placed(row, order[start], top, min), _placed(row, order[end - 1], top, max)))
        top += row.height + ROW_GAP
        gaps.append(top - ROW_GAP / 2)
    height = top - ROW_GAP
    for (_, last), (first, _), (_, end), gap in zip(ends, ends[1:], spans, gaps, strict=False):
        items = [*_return(links[end - 1], last, first, gap), *items]  # under the steps
    width = max(max(mark_bounds(i.ops)[2] for i in items if isinstance(i, Mark)), 0.0) + MARGIN
    return Drawing(width, height, tuple(items), "\n".join(texts))


def _placed(row: Drawing, node: Node, dy: float, side: Callable[..., float]) -> Placed:
    """The step at one end of a row (`side`: min, the first; max, the last) as placed in
    the wrapped drawing: the largest mark at that end is its shape."""
    marks = [mark_bounds(item.ops) for item in row.items if isinstance(item, Mark)]
    edge = side(b[0] if side is min else b[2] for b in marks)
    at_end = [b for b in marks if abs((b[0] if side is min else b[2]) - edge) < 0.5]
    left, up, right, down = max(at_end, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    return Placed(node, _NO_TEXT, right - left, down - up, (left + right) / 2, (up + down) / 2 + dy)


def _return(link: Edge, last: Placed, first: Placed, gap: float) -> list[Mark]:
    """The link from a row's `last` step to the next row's `first`: down from the step,
    back along the middle of the gap between the rows (`gap`), down into the step."""
    points = [(last.x, last.y), (last.x, gap), (first.x, gap), (first.x, first.y)]
    if math.isclose(last.x, first.x):
        points = [points[0], points[-1]]
    return edge_marks(link, points, last, first)
