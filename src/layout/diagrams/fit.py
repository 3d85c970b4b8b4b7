"""Mermaid source → a `Drawing`, under a per-post budget: the door cards and articles use.

One post may hold many diagrams: each is bounded by the parser (`mermaid.MAX_SOURCE`,
`MAX_NODES`, `MAX_EDGES`), and the post as a whole by `DiagramBudget` (a count and the
seconds spent laying out); a diagram past the budget falls back to its source, as one
that does not parse does.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..errors import DiagramError
from .drawing import layout_flowchart
from .kinds import layout_pie, layout_sequence
from .marks import Drawing, Lines, Measure
from .mermaid import Flowchart
from .mermaidkinds import Mindmap, Pie, Sequence, parse_diagram
from .mindmap import layout_mindmap
from .uml.classes import layout_classes, layout_er
from .uml.mermaidclass import ClassDiagram
from .uml.mermaider import ErDiagram

POST_DIAGRAMS = 40  # diagrams of one post drawn; past it they show as source
POST_SECONDS = 4.0  # seconds of diagram layout one post may spend
TURN_GAIN = 1.25  # a left-right flowchart is laid top-down when that shrinks it this much less
NARROW_LABEL = 7.0  # em: a shrinking diagram's long labels wrap at this width instead
WRAP_GAIN = 1.08  # ... when that shrinks it this much less


def draw_to_fit(
    budget: DiagramBudget, source: str, measure: Measure, width: float, height: float | None
) -> Drawing:
    """The diagram as written; or, where a wide one (a left-right flowchart, a two-sided mind
    map) must shrink to fit `width` (x `height`: a portrait card, a phone's column), its
    upright form (top-down; one-sided) when that keeps its labels at least `TURN_GAIN` times
    larger. A chart made for a wide screen reads on a phone instead of shrinking to small
    print; nodes, edges and labels are the author's. Then, if it still shrinks, its long
    labels wrapped at `NARROW_LABEL` em (as mermaid-js wraps them at 200 px) when that
    keeps them `WRAP_GAIN` times larger: a narrower chart is a larger one on a card."""
    drawing = budget.draw(source, measure)
    if fit_scale(drawing, width, height) >= 1.0:
        return drawing
    upright = False
    if drawing.across:
        turned = budget.draw(source, measure, upright=True)
        gain = _gain(turned, drawing, width, height)
        if gain >= TURN_GAIN:
            note = f"a wide diagram drawn upright to fit the card: its labels {gain:.1f}x larger"
            drawing, upright = replace(turned, note=note), True
    if fit_scale(drawing, width, height) >= 1.0:
        return drawing
    narrow = budget.draw(source, _narrow(measure), upright, narrow=True)
    if _gain(narrow, drawing, width, height) < WRAP_GAIN:
        return drawing
    wrapped = "long diagram labels wrapped to fit the card"
    return replace(narrow, note="; ".join(n for n in (drawing.note, wrapped) if n))


def _gain(drawing: Drawing, than: Drawing, width: float, height: float | None) -> float:
    return fit_scale(drawing, width, height) / fit_scale(than, width, height)


def _narrow(measure: Measure) -> Measure:
    def narrow(text: str, size: float, bold: bool, max_width: float) -> Lines:
        return measure(text, size, bold, min(max_width, NARROW_LABEL * size))

    return narrow


def fit_scale(drawing: Drawing, width: float, height: float | None) -> float:
    """How much the drawing shrinks to fit `width` (and `height`); never grown."""
    scale = min(1.0, width / drawing.width)
    return min(scale, height / drawing.height) if height else scale


def draw_diagram(source: str, measure: Measure, upright: bool = False) -> Drawing:
    """The laid-out diagram (`upright`: a left-right flowchart laid top-down, a mind map's
    branches all on one side); `DiagramError` (a one-line reason) when it is not drawn."""
    diagram = parse_diagram(source)
    if isinstance(diagram, Flowchart):
        if upright and diagram.direction in ("LR", "RL"):
            diagram = replace(diagram, direction="TB")
        return layout_flowchart(diagram, measure)
    if isinstance(diagram, Mindmap):
        return layout_mindmap(diagram, measure, one_sided=upright)
    if isinstance(diagram, Sequence):
        return layout_sequence(diagram, measure)
    if isinstance(diagram, ClassDiagram):
        return layout_classes(diagram, measure, upright)
    if isinstance(diagram, ErDiagram):
        return layout_er(diagram, measure, upright)
    assert isinstance(diagram, Pie)
    return layout_pie(diagram, measure)


class DiagramBudget:
    """One post's allowance of diagrams: each drawn in the order asked while the count and
    seconds last; the same source asked again gives the same answer for nothing. The count
    is of diagrams, not of drawings: a diagram's other forms (upright, narrow labels) that
    `draw_to_fit` tries spend seconds only."""

    def __init__(self, diagrams: int = POST_DIAGRAMS, seconds: float = POST_SECONDS) -> None:
        self._diagrams, self._seconds = diagrams, seconds
        self._answers: dict[tuple[str, bool, bool], Drawing | DiagramError] = {}
        self._counted: set[str] = set()  # a diagram counts once, however many forms it tries

    def draw(
        self, source: str, measure: Measure, upright: bool = False, narrow: bool = False
    ) -> Drawing:
        """The drawing of `source` (`narrow`: `measure` wraps labels narrower; the answer
        is kept under that name)."""
        key = (source, upright, narrow)
        if key not in self._answers:
            self._answers[key] = self._draw(source, measure, upright)
        answer = self._answers[key]
        if isinstance(answer, DiagramError):
            raise answer
        return answer

    def _draw(self, source: str, measure: Measure, upright: bool) -> Drawing | DiagramError:
        new = source not in self._counted
        if (new and self._diagrams <= 0) or self._seconds <= 0:
            return DiagramError("too many diagrams in one post: shown as source")
        if new:
            self._counted.add(source)
            self._diagrams -= 1
        started = time.perf_counter()
        try:
            return draw_diagram(source, measure, upright)
        except DiagramError as error:
            return error
        finally:
            self._seconds -= time.perf_counter() - started
