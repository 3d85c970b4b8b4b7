"""A post's diagrams are bounded by steps counted from the parsed diagram, never by seconds:
the same source gets the same answer (drawn, or its source with a note) however fast the
clock runs, and a diagram over its allowance is refused before any layout is begun."""

from __future__ import annotations

import random
import time

import pytest
from grandalf.layouts import SugiyamaLayout

from inkcard import layout
from inkcard.layout.diagrams import cost
from inkcard.layout.diagrams.cost import DIAGRAM_STEPS, POST_STEPS, diagram_steps, layered_steps
from inkcard.layout.diagrams.fit import DiagramBudget, draw_to_fit
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.errors import DiagramError
from tests.cpu import counted


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


def random_chart(nodes: int, edges: int, seed: int, direction: str = "TD") -> str:
    """A flowchart of `edges` random links between `nodes` nodes (cycles included)."""
    pick = random.Random(seed)
    lines = [f"flowchart {direction}"] + [f"  n{i}[Node {i}]" for i in range(nodes)]
    for _ in range(edges):
        a, b = pick.sample(range(nodes), 2)
        lines.append(f"  n{a} --> n{b}")
    return "\n".join(lines) + "\n"


def long_edges(nodes: int) -> str:
    """A chain with every node of its first half linked to one of its second: the links
    cross many layers, each a dummy vertex per layer in a layered layout."""
    lines = ["flowchart TD"] + [f"  n{i} --> n{i + 1}" for i in range(nodes - 1)]
    lines += [f"  n{i} --> n{nodes - 1 - i}" for i in range(nodes // 2)]
    return "\n".join(lines) + "\n"


POST = [
    random_chart(30, 60, 1),
    random_chart(60, 150, 2, "LR"),
    long_edges(200),
    "sequenceDiagram\n  A->>B: hi\n  B-->>A: ho\n",
    'pie\n  "a" : 1\n  "b" : 2\n',
    random_chart(80, 300, 3),
    random_chart(20, 40, 4),
]


def decisions(setter: LabelSetter, budget: DiagramBudget) -> list[str]:
    """What each diagram of `POST` became on a 360x480 card: its size, or its note."""
    out = []
    for source in POST:
        try:
            drawing = draw_to_fit(budget, source, setter.measure, 360, 480)
        except DiagramError as error:
            out.append(f"source: {error}")
        else:
            out.append(f"drawn {drawing.width:.1f}x{drawing.height:.1f} {drawing.note}")
    return out


def test_the_same_post_gets_the_same_answers_however_the_clock_runs(setter, monkeypatch) -> None:
    """A clock that jumps a minute at every look (a loaded machine, a slow CLI) changes
    nothing: no diagram is refused for time, none is drawn in another form."""
    steady = decisions(setter, DiagramBudget())
    clock = [0.0]

    def jumping() -> float:
        clock[0] += 60.0
        return clock[0]

    for name in ("perf_counter", "monotonic", "process_time", "time"):
        monkeypatch.setattr(time, name, jumping)
    assert decisions(setter, DiagramBudget()) == steady
    assert any(answer.startswith("drawn") for answer in steady)
    assert "source: too large to lay out" in "\n".join(steady)  # the long edges, at once


def test_an_over_budget_diagram_is_refused_before_any_layout(setter, monkeypatch) -> None:
    source = long_edges(200)
    assert diagram_steps(parse_diagram(source)) > DIAGRAM_STEPS
    begun = counted(monkeypatch, SugiyamaLayout, "init_all")
    with pytest.raises(DiagramError, match="too large to lay out"):
        DiagramBudget().draw(source, setter.measure)
    assert begun.count == 0


def test_a_post_runs_out_of_steps_then_shows_its_diagrams_as_source(setter) -> None:
    source = random_chart(40, 90, 5)
    steps = diagram_steps(parse_diagram(source))
    budget = DiagramBudget(steps=steps * 2)
    budget.draw(source, setter.measure)
    budget.draw(random_chart(40, 90, 6), setter.measure)  # about as many steps
    with pytest.raises(DiagramError, match="used up their layout steps"):
        budget.draw(random_chart(40, 90, 7), setter.measure)
    budget.draw(source, setter.measure)  # asked again: the same drawing, for nothing


def test_a_wide_chart_whose_other_forms_the_post_cannot_pay_for_stays_as_written(
    setter,
) -> None:
    source = random_chart(12, 16, 8, "LR")
    steps = diagram_steps(parse_diagram(source))
    as_written = DiagramBudget().draw(source, setter.measure)
    fitted = draw_to_fit(DiagramBudget(steps=steps), source, setter.measure, 200, 300)
    assert fitted == as_written


def test_long_edges_count_their_dummy_vertices() -> None:
    """A link across k layers costs k-1 dummies (each twice: a vertex and its piece)."""
    chain = [(i, i + 1) for i in range(9)]
    assert layered_steps(10, chain) == (10 + 9) * cost.SWEEPS
    assert layered_steps(10, [*chain, (0, 9)]) == (10 + 2 * 8 + 10) * cost.SWEEPS
    # a cycle is broken, not walked for ever; a back link is as long as it is forward
    assert layered_steps(10, [*chain, (9, 0)]) == (10 + 2 * 8 + 10) * cost.SWEEPS


def test_the_counts_are_linear_and_every_kind_has_one() -> None:
    assert diagram_steps(parse_diagram(random_chart(200, 400, 9))) > 0
    sequence = "sequenceDiagram\n" + "".join(f"  A->>B: m{i}\n" for i in range(400))
    assert 0 < diagram_steps(parse_diagram(sequence)) < DIAGRAM_STEPS
    assert POST_STEPS >= 3 * DIAGRAM_STEPS  # a post holds a few large diagrams
