"""A state chart that is one chain (`[*]` → A → B → … → `[*]`), lent to `snake` to be
wrapped into rows as a flowchart's chain is: each row a left-right state chart of its
own steps (their notes with them), the link between two rows a transition as `states`
draws one. A chart with a composite state, a floating note or a branch is no chain."""

from __future__ import annotations

from ..marks import Label, Mark
from ..snake import Chain, Point, Rect, order
from .mermaidstate import StateChart
from .statemarks import transition_marks


def state_chain(chart: StateChart) -> Chain[StateChart] | None:
    """The chain of `chart` read forward (a right-to-left one would wrap backwards), its
    start and end dots steps like any other; None when it is no one chain."""
    if chart.direction == "RL" or any(s.kind in ("composite", "note") for s in chart.states):
        return None
    steps, path = order(
        [state.id for state in chart.states],
        [(link.source, link.target) for link in chart.transitions],
    )
    if not steps:
        return None
    states = [chart.states[at] for at in steps]
    links = [chart.transitions[at] for at in path]

    def part(start: int, end: int) -> StateChart:
        ids = {state.id for state in states[start:end]}
        notes = tuple(note for note in chart.notes if note.target in ids)
        return StateChart("LR", tuple(states[start:end]), tuple(links[start : end - 1]), notes)

    def link(index: int, points: list[Point], last: Rect, first: Rect) -> list[Mark | Label]:
        ends = [(_box(rect), states[at].kind) for at, rect in ((index, last), (index + 1, first))]
        return transition_marks(points, *ends)

    return Chain(len(states), tuple(bool(link.label) for link in links), part, link)


def _box(rect: Rect) -> tuple[float, float, float, float]:
    """A shape's bounds (left, top, right, bottom) as `statemarks` takes a rect: left,
    top, width, height."""
    left, top, right, bottom = rect
    return left, top, right - left, bottom - top
