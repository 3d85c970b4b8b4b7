"""A long left-to-right chain wrapped into rows, as text wraps (`fit.draw_to_fit`).

A flowchart or a state chart that is one chain (each step one link to the next, no branch,
no group; a step's link to itself rides along on it, and a flowchart's link back to an
earlier step in the row holding both) laid left to right grows only wider:
twelve steps on a 1600x900 slide shrank to a third of their size in one strip. A designer
wraps it: rows of steps read left to right, one under the other, the link from a row's
last step running down, back under the row and into the next row's first step, like a
line of text carried to the next. A row breaks on an unlabelled link where a neighbour of
the even break is one; a label on the link between rows sits midway along the return,
the rows standing apart by its chip's height (a state chain's events label every link).
The steps, links, labels and looks are the author's; only where the chain turns is ours.
What a kind lends the wrapping is a `Chain` (`chain` here for flowcharts,
`statecharts.statechain`): its rows as charts of their own, and its links' marks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .flow.paint import Placed, chip_size, edge_chip, edge_label, edge_marks
from .marks import (
    CHIP_FILLS,
    MARGIN,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    mark_bounds,
    moved_by,
)
from .mermaid import Edge, Flowchart, Node

_NO_TEXT = Lines((), 0.0, 0.0, 0.0)  # a placed end is only a shape for the link to meet
MIN_STEPS = 4  # a shorter chain is never wrapped: two rows of one or two steps say nothing
# A longer chain is not wrapped: its rows' layouts cost (150 steps: 2.2 s of CPU where the
# strip took 0.5), and 60 steps' rows on a slide are drawn at a third of their size
MOST_STEPS = 60
# px: a step's loop (a link to itself) ends in an arrowhead up to this far past the step's
# shape (flow.paint's LOOP_REACH side, statemarks' 12-px loop)
END_SLACK = 12.0
ROW_GAP = 24.0  # px between two rows' drawings (each has its own margin): the return runs here
LANE = 16.0  # px between a return and a link back beside it (an arrowhead is 10 wide)
Rect = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]
Part = TypeVar("Part", covariant=True)  # a row: a chart of the kind's


@dataclass(frozen=True, slots=True)
class Chain(Generic[Part]):
    """A chart that is one chain, as the wrapping needs it: how many `steps`, how tall each
    of its links' (in order) label chip is (`labels`: 0 for a link with none), the chart
    of the steps `start` to `end` (`part`: a row, drawn as its kind draws it, left to
    right) and the marks of link `index` along `points` from one step's shape (`Rect`) to
    the next's, its label's chip centred at `at` (`link`); `together` are the first and
    last step of each link back (a review's "fix"), which one row must hold (the row's own
    chart draws it, as a chart draws a cycle) unless the two are neighbours and `back`
    draws it beside the return between two rows (`_back_across`)."""

    steps: int
    labels: tuple[float, ...]
    part: Callable[[int, int], Part]
    link: Callable[[int, list[Point], Rect, Rect, Point], Sequence[Mark | Label]]
    together: tuple[tuple[int, int], ...] = ()
    # link back `k` (`together[k]`) between two neighbouring steps that a break parts: its
    # marks along `points` from the later step's shape to the earlier's, its chip at `at`;
    # and how tall each link back's label chip is (0: none)
    back: Callable[[int, list[Point], Rect, Rect, Point], Sequence[Mark | Label]] | None = None
    back_labels: tuple[float, ...] = ()


def order(
    ids: Sequence[str], links: Sequence[tuple[str, str]], *, returns: bool = False
) -> tuple[list[int], list[int], list[int]]:
    """The chain through the steps `ids` along `links` (source, target): the steps, the
    links along it and, with `returns`, the links back from a step to an earlier one (a
    review's "fix" back to the work), as indices in reading order; three empty lists when
    they are no one chain of `MIN_STEPS` to `MOST_STEPS` (a branch, a link skipping on, a
    cycle through the first step, a link to no step, a step off it)."""
    fail: tuple[list[int], list[int], list[int]] = ([], [], [])
    at_step = {ident: index for index, ident in enumerate(ids)}
    if not MIN_STEPS <= len(ids) <= MOST_STEPS:
        return fail
    if any(source not in at_step or target not in at_step for source, target in links):
        return fail
    targets = {target for _, target in links}
    starts = [ident for ident in ids if ident not in targets]
    if len(starts) != 1:
        return fail
    leaving: dict[str, list[int]] = {}
    for index, (source, _) in enumerate(links):
        leaving.setdefault(source, []).append(index)
    place, path, at = {starts[0]: 0}, list[int](), starts[0]
    while onward := [k for k in leaving.get(at, []) if links[k][1] not in place]:
        if len(onward) > 1:
            return fail  # a branch
        path.append(onward[0])
        at = links[onward[0]][1]
        place[at] = len(place)
    if len(place) != len(ids):
        return fail
    on_path = set(path)
    back = [k for k in range(len(links)) if k not in on_path]
    if back and not returns:
        return fail
    if any(place[links[k][1]] >= place[links[k][0]] for k in back):
        return fail  # a link skipping on, or a second link along the chain
    return [at_step[ident] for ident in place], path, back


def chain(chart: Flowchart, measure: Measure) -> Chain[Flowchart] | None:
    """A flowchart that is one chain read forward (left to right or top down: a
    right-to-left chain would wrap backwards), a node's links to itself drawn on it in its
    row (a retry: no branch), and its links back to an earlier step in the row that holds
    both (a review's "fix": the Japanese post's レビュー back to 実装する stood a six-step
    chain upright and thin on a square card), its links' labels measured by `measure` as
    the flowchart sets them; None otherwise."""
    if chart.subgraphs or chart.direction == "RL":
        return None
    if any(edge.line == "invisible" for edge in chart.edges):
        return None
    forward = [edge for edge in chart.edges if edge.source != edge.target]
    loops = [edge for edge in chart.edges if edge.source == edge.target]
    links = [(e.source, e.target) for e in forward]
    steps, path, back = order([n.id for n in chart.nodes], links, returns=True)
    if not steps:
        return None
    nodes = [chart.nodes[at] for at in steps]
    edges = [forward[at] for at in path]
    texts = [edge_label(edge, measure) for edge in edges]
    returns = [forward[at] for at in back]
    step_of = {node.id: index for index, node in enumerate(nodes)}
    together = tuple((step_of[edge.target], step_of[edge.source]) for edge in returns)

    def part(start: int, end: int) -> Flowchart:
        held = {node.id for node in nodes[start:end]}
        looped = tuple(edge for edge in loops if edge.source in held)  # drawn on their node
        inside = tuple(edge for edge in returns if edge.source in held and edge.target in held)
        row_edges = (*edges[start : end - 1], *inside, *looped)
        return Flowchart("LR", tuple(nodes[start:end]), row_edges)

    def link(
        index: int, points: list[Point], last: Rect, first: Rect, at: Point
    ) -> list[Mark | Label]:
        a, b = _placed(nodes[index], last), _placed(nodes[index + 1], first)
        return _edge(edges[index], texts[index], points, a, b, at)  # its chip on the return

    back_texts = [edge_label(edge, measure) for edge in returns]

    def link_back(
        index: int, points: list[Point], later: Rect, earlier: Rect, at: Point
    ) -> list[Mark | Label]:
        edge = returns[index]
        a, b = (
            _placed(nodes[step_of[edge.source]], later),
            _placed(nodes[step_of[edge.target]], earlier),
        )
        return _edge(edge, back_texts[index], points, a, b, at)

    heights = tuple(chip_size(text)[1] if text else 0.0 for text in texts)
    back_heights = tuple(chip_size(text)[1] if text else 0.0 for text in back_texts)
    return Chain(len(nodes), heights, part, link, together, link_back, back_heights)


def _edge(
    edge: Edge, text: Lines | None, points: list[Point], a: Placed, b: Placed, at: Point
) -> list[Mark | Label]:
    """A link's marks along `points` from `a` to `b`, its label's chip (if any) at `at`."""
    chip = edge_chip(text, at, edge.look.color) if text else []
    return [*edge_marks(edge, points, a, b), *chip]


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


def _breaks(
    spans: list[tuple[int, int]],
    labels: tuple[float, ...],
    together: tuple[tuple[int, int], ...],
    across: bool = False,
) -> list[tuple[int, int]] | None:
    """`spans` with each break between rows moved a step on or back where the link there
    has a label and a neighbour has none (its chip then sits on a step's own row), no row
    left with fewer than two steps (a state chain's end dot alone on a row); a break with
    no such neighbour stays: its chip sits on the return, between the two rows (a state
    chain's events label every link but its dots'). A break inside a link back
    (`Chain.together`) moves to the nearest break outside every one, `across` letting it
    part a link back's two ends where they are neighbours; None where none is."""
    ends = [end for _, end in spans]
    for index, end in enumerate(ends[:-1]):
        low, high = ends[index - 1] + 2 if index else 2, ends[index + 1] - 2
        free = [at for at in range(low, high + 1) if not _inside(at, together, across)]
        if not free:
            return None
        tries = sorted(free, key=lambda at: abs(at - end))
        ends[index] = next((at for at in tries[:3] if not labels[at - 1]), tries[0])
    return list(zip([0, *ends[:-1]], ends, strict=True))


def _inside(at: int, together: tuple[tuple[int, int], ...], across: bool = False) -> bool:
    """Whether a break before step `at` would part the two ends of a link back, or end a
    row on a link back's source: the row's chart runs that link under the row, where the
    return to the next row leaves the row's last step (the two crossed on one chip). With
    `across`, a break between the two ends of a link back of neighbours is no parting: the
    link runs back beside the return (`_back_across`)."""
    return any(
        first < at <= last + 1 and not (across and last == first + 1 and at == last)
        for first, last in together
    )


def _crossing(found: Chain[Part], end: int) -> int | None:
    """The link back (its index in `Chain.together`) from the step a row break at `end`
    puts first in its row to the step just before it, if there is one."""
    if found.back is None:
        return None
    return next((k for k, pair in enumerate(found.together) if pair == (end - 1, end)), None)


def wrapped(
    found: Chain[Part], rows: int, draw: Callable[[Part], Drawing | None], across: bool = False
) -> Drawing | None:
    """The chain `found` in `rows` rows, each drawn left to right by `draw` (None when a
    row is not drawn), the link between two rows a return under the first, its label's
    chip on the return's run between the rows, which stand apart by that much more. With
    `across`, a row may break between the two ends of a link back of neighbours, the link
    then drawn beside the return (`_back_across`); a chain with no such link is not drawn
    so (None: the plain form stands)."""
    if rows < 2 or (across and (found.back is None or not found.together)):
        return None
    spans = _breaks(row_spans(found.steps, rows), found.labels, found.together, across)
    if spans is None:
        return None
    items: list[Mark | Label] = []
    texts: list[str] = []
    ends: list[tuple[Rect, Rect]] = []  # each row's first and last step's shape, placed
    gaps: list[float] = []  # the middle of the gap under each row
    top, widest = 0.0, 0.0
    kept: list[tuple[float, float]] = []  # each row: a card's cut between rows keeps it whole
    # the link back crossing the break under each row, if any (`_back_across`)
    crossings = [
        _crossing(found, end) if across and end < found.steps else None for _, end in spans
    ]
    for (start, end), crossing in zip(spans, crossings, strict=True):
        row = draw(found.part(start, end))
        if row is None:
            return None
        widest = max(widest, row.width)  # its labels too: a loop's reaches past its marks
        items += [moved_by(item, 0.0, top) for item in row.items]
        kept.append((top, top + row.height))
        texts.append(row.text)
        ends.append((_shape(row, top, min), _shape(row, top, max)))
        gap = ROW_GAP + found.labels[end - 1] if end < found.steps else ROW_GAP
        lane = _lane(found, crossing)
        top += row.height + gap + lane
        gaps.append(top - gap / 2 - lane)
    height = top - ROW_GAP
    for (_, last), (first, _), (_, end), gap, crossing in zip(
        ends, ends[1:], spans, gaps, crossings, strict=False
    ):
        items = [*_return(found, end - 1, last, first, gap), *items]  # under the steps
        if crossing is not None:
            items = [*_back_across(found, crossing, last, first, gap), *items]
    right = max(max(mark_bounds(i.ops)[2] for i in items if isinstance(i, Mark)), 0.0)
    width, text = max(widest, right + MARGIN), "\n".join(texts)
    return Drawing(width, height, tuple(items), text, whole=tuple(kept))


def _shape(row: Drawing, dy: float, side: Callable[..., float]) -> Rect:
    """The shape of the step at one end of a row (`side`: min, the first; max, the last)
    as placed in the wrapped drawing: the largest filled mark at that end, a loop's
    arrowhead past it allowed for (`END_SLACK`) and a label's chip not counted (a loop's
    chip right of the last step took the return's start)."""
    marks = [
        mark_bounds(item.ops)
        for item in row.items
        if isinstance(item, Mark) and item.fill is not None and item.fill not in CHIP_FILLS
    ]
    edge = side(b[0] if side is min else b[2] for b in marks)
    at_end = [b for b in marks if abs((b[0] if side is min else b[2]) - edge) < END_SLACK]
    left, up, right, down = max(at_end, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    return left, up + dy, right, down + dy


def _return(
    found: Chain[Part], index: int, last: Rect, first: Rect, gap: float
) -> Sequence[Mark | Label]:
    """Link `index`, from a row's `last` step to the next row's `first`: down from the
    step, back along the middle of the gap between the rows (`gap`), down into the step;
    its label's chip midway along the run back."""
    (lx, ly), (fx, fy) = _centre(last), _centre(first)
    points = [(lx, ly), (lx, gap), (fx, gap), (fx, fy)]
    if math.isclose(lx, fx):
        points = [points[0], points[-1]]
    return found.link(index, points, last, first, ((lx + fx) / 2, gap))


def _lane(found: Chain[Part], crossing: int | None) -> float:
    """px between the return and a link back running beside it (`_back_across`): room for
    the link back's chip, the two lines apart by `LANE` where it has none."""
    if crossing is None:
        return 0.0
    chip = found.back_labels[crossing] if crossing < len(found.back_labels) else 0.0
    return max(LANE, chip / 2 + LANE / 2)


def _back_across(
    found: Chain[Part], index: int, last: Rect, first: Rect, gap: float
) -> Sequence[Mark | Label]:
    """Link back `index` from the next row's `first` step to this row's `last` (a review's
    fix from レビュー back to 実装する, a break between them): up from the step, along a lane
    under the return's run (`_lane`) and up into the step, each upright `LANE` right of the
    return's so the two never cross; its chip midway along its run."""
    (lx, ly), (fx, fy) = _centre(last), _centre(first)
    run = gap + _lane(found, index)
    points = [(fx + LANE, fy), (fx + LANE, run), (lx + LANE, run), (lx + LANE, ly)]
    draw = found.back
    return draw(index, points, first, last, ((lx + fx) / 2 + LANE, run)) if draw else []


def _centre(rect: Rect) -> Point:
    return (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
