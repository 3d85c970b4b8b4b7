"""A state chart that is one chain (`[*]` → A → B → … → `[*]`), lent to `snake` to be
wrapped into rows as a flowchart's chain is: each row a left-right state chart of its
own steps (their notes and their transitions to themselves with them), the link between
two rows a transition as `states` draws one. A chart with a composite state, a floating
note or a branch is no chain."""

from __future__ import annotations

from ..marks import LABEL_SIZE, MAX_LABEL_WIDTH, Label, Mark, Measure
from ..snake import Chain, Point, Rect, order
from .mermaidstate import StateChart
from .statemarks import CHIP_PAD, chip_marks, transition_marks


def state_chain(chart: StateChart, measure: Measure) -> Chain[StateChart] | None:
    """The chain of `chart` read forward (a right-to-left one would wrap backwards), its
    start and end dots steps like any other, a state's transitions to itself drawn on it in
    its row (a retry, a poll: no branch), its transitions' labels measured by `measure` as
    `states` sets them; None when it is no one chain."""
    if chart.direction == "RL" or any(s.kind in ("composite", "note") for s in chart.states):
        return None
    forward = [link for link in chart.transitions if link.source != link.target]
    loops = [link for link in chart.transitions if link.source == link.target]
    steps, path, _ = order(
        [state.id for state in chart.states], [(link.source, link.target) for link in forward]
    )
    if not steps:
        return None
    states = [chart.states[at] for at in steps]
    links = [forward[at] for at in path]
    texts = [
        measure(link.label, LABEL_SIZE, False, MAX_LABEL_WIDTH) if link.label else None
        for link in links
    ]

    def part(start: int, end: int) -> StateChart:
        ids = {state.id for state in states[start:end]}
        notes = tuple(note for note in chart.notes if note.target in ids)
        looped = tuple(link for link in loops if link.source in ids)  # a state's loops on it
        return StateChart("LR", tuple(states[start:end]), (*links[start : end - 1], *looped), notes)

    def link(
        index: int, points: list[Point], last: Rect, first: Rect, at: Point
    ) -> list[Mark | Label]:
        ends = [(_box(rect), states[at].kind) for at, rect in ((index, last), (index + 1, first))]
        text = texts[index]
        chip = chip_marks(text, *at) if text else []  # on the return, between the rows
        return [*transition_marks(points, *ends), *chip]

    heights = tuple(text.height + CHIP_PAD[1] if text else 0.0 for text in texts)
    return Chain(len(states), heights, part, link)


def _box(rect: Rect) -> tuple[float, float, float, float]:
    """A shape's bounds (left, top, right, bottom) as `statemarks` takes a rect: left,
    top, width, height."""
    left, top, right, bottom = rect
    return left, top, right - left, bottom - top
