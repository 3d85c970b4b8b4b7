"""Class, ER and state diagrams are costed by their layered layout's real work (vertices,
the dummies of long edges and the edge pieces, times the sweeps), as flowcharts are, not
by their labels alone: a dense one past the allowance gets its source note at once,
before any layout is begun, the same on every machine; one within it is drawn."""

from __future__ import annotations

import random

import pytest
from grandalf.layouts import SugiyamaLayout

from inkcard import layout
from inkcard.layout.diagrams.cost import DIAGRAM_STEPS, diagram_steps, layered_steps
from inkcard.layout.diagrams.fit import DiagramBudget
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.mermaidkinds import parse_diagram
from inkcard.layout.errors import DiagramError
from tests.cpu import counted


def _pairs(nodes: int, edges: int, seed: int) -> list[tuple[int, int]]:
    pick = random.Random(seed)
    return [tuple(pick.sample(range(nodes), 2)) for _ in range(edges)]  # type: ignore[misc]


def classes(nodes: int, edges: int, seed: int = 1) -> str:
    lines = ["classDiagram"] + [f"  class C{i}" for i in range(nodes)]
    lines += [f"  C{a} --> C{b} : uses" for a, b in _pairs(nodes, edges, seed)]
    return "\n".join(lines) + "\n"


def entities(nodes: int, edges: int, seed: int = 1) -> str:
    lines = ["erDiagram"] + [f'  E{a} ||--o{{ E{b} : "has"' for a, b in _pairs(nodes, edges, seed)]
    return "\n".join(lines) + "\n"


def states(nodes: int, edges: int, seed: int = 1) -> str:
    lines = ["stateDiagram-v2"] + [f"  S{a} --> S{b}" for a, b in _pairs(nodes, edges, seed)]
    return "\n".join(lines) + "\n"


KINDS = [classes, entities, states]


@pytest.fixture(scope="module")
def setter(fonts: layout.FontBook) -> LabelSetter:
    return LabelSetter(fonts)


@pytest.mark.parametrize("kind", KINDS)
def test_a_dense_one_is_refused_before_any_layout(kind, setter, monkeypatch) -> None:
    source = kind(200, 400)
    assert diagram_steps(parse_diagram(source)) > DIAGRAM_STEPS
    begun = counted(monkeypatch, SugiyamaLayout, "init_all")
    with pytest.raises(DiagramError, match="too large to lay out"):
        DiagramBudget().draw(source, setter.measure)
    assert begun.count == 0


@pytest.mark.parametrize("kind", KINDS)
def test_a_small_one_is_drawn_and_costs_more_than_its_labels(kind, setter) -> None:
    source = kind(30, 60)
    steps = diagram_steps(parse_diagram(source))
    labels = len(parse_diagram(source).labels())
    assert 20 * labels < steps < DIAGRAM_STEPS
    DiagramBudget().draw(source, setter.measure)


def test_a_state_scope_is_counted_on_its_own() -> None:
    """A composite's inner transitions are laid out in its region, the outer ones round
    it: the count is the sum of the two layouts', with each transition's label a vertex."""
    source = """stateDiagram-v2
  [*] --> A
  A --> B : go
  state B {
    [*] --> X
    X --> Y
  }
  B --> [*]
"""
    chart = parse_diagram(source)
    outer = layered_steps(5, [(0, 1), (1, 4), (4, 2), (2, 3)])  # start, A, B, end, label
    inner = layered_steps(3, [(0, 1), (1, 2)])  # start, X, Y
    assert diagram_steps(chart) == 20 * len(chart.labels()) + outer + inner
