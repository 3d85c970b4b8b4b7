"""A long left-to-right chain wrapped into rows, as text wraps (`fit.draw_to_fit`).

A flowchart or a state chart that is one chain (each step one link to the next, no branch,
no group) laid left to right grows only wider: twelve steps on a 1600x900 slide shrank to
a third of their size in one strip. A designer wraps it: rows of steps read left to right,
one under the other, the link from a row's last step running down, back under the row and
into the next row's first step, like a line of text carried to the next. The steps, links,
labels and looks are the author's; only where the chain turns is ours. What a kind lends
the wrapping is a `Chain` (`chain` here for flowcharts, `statecharts.statechain`): its
rows as charts of their own, and its links' marks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .flow.paint import Placed, edge_marks
from .marks import MARGIN, Drawing, Label, Lines, Mark, mark_bounds, moved_by
from .mermaid import Flowchart, Node

_NO_TEXT = Lines((), 0.0, 0.0, 0.0)  # a placed end is only a shape for the link to meet
MIN_STEPS = 4  # a shorter chain is never wrapped: two rows of one or two steps say nothing
# A longer chain is not wrapped: its rows' layouts cost (150 steps: 2.2 s of CPU where the
# strip took 0.5), and 60 steps' rows on a slide are drawn at a third of their size
MOST_STEPS = 60
ROW_GAP = 24.0  # px between two rows' drawings (each has its own margin): the return runs here
Rect = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]
Part = TypeVar("Part", covariant=True)  # a row: a chart of the kind's


@dataclass(frozen=True, slots=True)
class Chain(Generic[Part]):
    """A chart that is one chain, as the wrapping needs it: how many `steps`, which of its
    links (in order) carry a label, the chart of the steps `start` to `end` (`part`: a
    row, drawn as its kind draws it, left to right) and the marks of link `index` along
    `points` from one step's shape (`Rect`) to the next's (`link`)."""

    steps: int
    labelled: tuple[bool, ...]
    part: Callable[[int, int], Part]
    link: Callable[[int, list[Point], Rect, Rect], Sequence[Mark | Label]]


def order(ids: Sequence[str], links: Sequence[tuple[str, str]]) -> tuple[list[int], list[int]]:
    """The chain through the steps `ids` along `links` (source, target): the steps and the
    links, as indices in reading order; two empty lists when they are no one chain of
    `MIN_STEPS` to `MOST_STEPS` (a branch, a cycle, a link to no step, a step off it)."""
    at_step = {ident: index for index, ident in enumerate(ids)}
    after = {source: index for index, (source, _) in enumerate(links)}
    starts = [ident for ident in ids if ident not in {target for _, target in links}]
    if not MIN_STEPS <= len(ids) <= MOST_STEPS or len(starts) != 1:
        return [], []
    if len(links) != len(ids) - 1 or len(after) != len(links):
        return [], []
    steps, path, at = [at_step[starts[0]]], list[int](), starts[0]
    while at in after and len(path) < len(links):
        path.append(after[at])
        at = links[path[-1]][1]
        if at not in at_step:
            return [], []
        steps.append(at_step[at])
    return (steps, path) if len(set(steps)) == len(ids) else ([], [])


def chain(chart: Flowchart) -> Chain[Flowchart] | None:
    """A flowchart that is one chain read forward (left to right or top down: a
    right-to-left chain would wrap backwards); None otherwise."""
    if chart.subgraphs or chart.direction == "RL":
        return None
    if any(edge.line == "invisible" for edge in chart.edges):
        return None
    steps, path = order([n.id for n in chart.nodes], [(e.source, e.target) for e in chart.edges])
    if not steps:
        return None
    nodes = [chart.nodes[at] for at in steps]
    edges = [chart.edges[at] for at in path]

    def part(start: int, end: int) -> Flowchart:
        return Flowchart("LR", tuple(nodes[start:end]), tuple(edges[start : end - 1]))

    def link(index: int, points: list[Point], last: Rect, first: Rect) -> list[Mark]:
        return edge_marks(
            edges[index], points, _placed(nodes[index], last), _placed(nodes[index + 1], first)
        )

    return Chain(len(nodes), tuple(bool(edge.label) for edge in edges), part, link)


def _placed(node: Node, rect: Rect) -> Placed:
    left, up, right, down = rect
    return Placed(node, _NO_TEXT, right - left, down - up, (left + right) / 2, (up + down) / 2)


def best_rows(strip: Drawing, steps: int, fit: Callable[[float, float], float]) -> int:
    """How many rows the chain drawn as one `strip` reads largest in, by `fit` (the scale
    a `width` x `height` drawing is drawn at), estimated from the strip: rows of a share
    of its width, each as tall as it, `ROW_GAP` apart (so on a wide slide few long rows,
    on a portrait card many short ones). 1: not wrapped."""
    inner = strip.width - 2 * MARGIN

    def scale(rows: int) -> float:
        width = inner * 1.08 / rows + 2 * MARGIN  # a row's steps rarely split the width evenly
        return fit(width, rows * strip.height + (rows - 1) * ROW_GAP)

    return max(range(1, steps // 2 + 1), key=lambda rows: (scale(rows), -rows))


def row_spans(steps: int, rows: int) -> list[tuple[int, int]]:
    """The steps of each row (start, end): as even as can be, the longer rows first."""
    size, extra = divmod(steps, rows)
    spans, start = [], 0
    for row in range(rows):
        end = start + size + (row < extra)
        spans.append((start, end))
        start = end
    return spans


def _unlabelled(
    spans: list[tuple[int, int]], labelled: tuple[bool, ...]
) -> list[tuple[int, int]] | None:
    """`spans` with each break between rows moved a step on or back where the link there
    has a label (it would sit on the return, away from both its steps), no row left empty;
    None when a break finds no unlabelled link."""
    ends = [end for _, end in spans]
    for index, end in enumerate(ends[:-1]):
        low = ends[index - 1] + 1 if index else 1
        tries = [at for at in (end, end - 1, end + 1) if low <= at < ends[index + 1]]
        free = [at for at in tries if not labelled[at - 1]]
        if not free:
            return None
        ends[index] = free[0]
    return list(zip([0, *ends[:-1]], ends, strict=True))


def wrapped(
    found: Chain[Part], rows: int, draw: Callable[[Part], Drawing | None]
) -> Drawing | None:
    """The chain `found` in `rows` rows, each drawn left to right by `draw` (None when a
    row is not drawn), the link between two rows a return under the first; None when no
    break between rows finds a link with no label (`_unlabelled`)."""
    if rows < 2:
        return None
    spans = _unlabelled(row_spans(found.steps, rows), found.labelled)
    if spans is None:
        return None
    items: list[Mark | Label] = []
    texts: list[str] = []
    ends: list[tuple[Rect, Rect]] = []  # each row's first and last step's shape, placed
    gaps: list[float] = []  # the middle of the gap under each row
    top = 0.0
    for start, end in spans:
        row = draw(found.part(start, end))
        if row is None:
            return None
        items += [moved_by(item, 0.0, top) for item in row.items]
        texts.append(row.text)
        ends.append((_shape(row, top, min), _shape(row, top, max)))
        top += row.height + ROW_GAP
        gaps.append(top - ROW_GAP / 2)
    height = top - ROW_GAP
    for (_, last), (first, _), (_, end), gap in zip(ends, ends[1:], spans, gaps, strict=False):
        items = [*_return(found, end - 1, last, first, gap), *items]  # under the steps
    width = max(max(mark_bounds(i.ops)[2] for i in items if isinstance(i, Mark)), 0.0) + MARGIN
    return Drawing(width, height, tuple(items), "\n".join(texts))


def _shape(row: Drawing, dy: float, side: Callable[..., float]) -> Rect:
    """The shape of the step at one end of a row (`side`: min, the first; max, the last)
    as placed in the wrapped drawing: the largest mark at that end."""
    marks = [mark_bounds(item.ops) for item in row.items if isinstance(item, Mark)]
    edge = side(b[0] if side is min else b[2] for b in marks)
    at_end = [b for b in marks if abs((b[0] if side is min else b[2]) - edge) < 0.5]
    left, up, right, down = max(at_end, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    return left, up + dy, right, down + dy


def _return(
    found: Chain[Part], index: int, last: Rect, first: Rect, gap: float
) -> Sequence[Mark | Label]:
    """Link `index`, from a row's `last` step to the next row's `first`: down from the
    step, back along the middle of the gap between the rows (`gap`), down into the step."""
    (lx, ly), (fx, fy) = _centre(last), _centre(first)
    points = [(lx, ly), (lx, gap), (fx, gap), (fx, fy)]
    if math.isclose(lx, fx):
        points = [points[0], points[-1]]
    return found.link(index, points, last, first)


def _centre(rect: Rect) -> Point:
    return (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
