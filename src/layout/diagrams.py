"""Mermaid source → a `Drawing`, under a per-post budget: the door cards and articles use.

One post may hold many diagrams: each is bounded by the parser (`mermaid.MAX_SOURCE`,
`MAX_NODES`, `MAX_EDGES`), and the post as a whole by `DiagramBudget` (a count and the
seconds spent laying out); a diagram past the budget falls back to its source, as one
that does not parse does.
"""

from __future__ import annotations

import time

from .diagram import Drawing, Measure, layout_flowchart
from .diagramkinds import layout_mindmap, layout_pie, layout_sequence
from .mermaid import DiagramError, Flowchart
from .mermaidkinds import Mindmap, Pie, Sequence, parse_diagram

POST_DIAGRAMS = 40  # diagrams of one post drawn; past it they show as source
POST_SECONDS = 4.0  # seconds of diagram layout one post may spend


def draw_diagram(source: str, measure: Measure) -> Drawing:
    """The laid-out diagram; `DiagramError` (a one-line reason) when it is not drawn."""
    diagram = parse_diagram(source)
    if isinstance(diagram, Flowchart):
        return layout_flowchart(diagram, measure)
    if isinstance(diagram, Mindmap):
        return layout_mindmap(diagram, measure)
    if isinstance(diagram, Sequence):
        return layout_sequence(diagram, measure)
    assert isinstance(diagram, Pie)
    return layout_pie(diagram, measure)


class DiagramBudget:
    """One post's allowance of diagrams: each drawn in the order asked while the count and
    seconds last; the same source asked again gives the same answer for nothing."""

    def __init__(self, diagrams: int = POST_DIAGRAMS, seconds: float = POST_SECONDS) -> None:
        self._diagrams, self._seconds = diagrams, seconds
        self._answers: dict[str, Drawing | DiagramError] = {}

    def draw(self, source: str, measure: Measure) -> Drawing:
        if source not in self._answers:
            self._answers[source] = self._draw(source, measure)
        answer = self._answers[source]
        if isinstance(answer, DiagramError):
            raise answer
        return answer

    def _draw(self, source: str, measure: Measure) -> Drawing | DiagramError:
        if self._diagrams <= 0 or self._seconds <= 0:
            return DiagramError("too many diagrams in one post: shown as source")
        started = time.perf_counter()
        try:
            return draw_diagram(source, measure)
        except DiagramError as error:
            return error
        finally:
            self._diagrams -= 1
            self._seconds -= time.perf_counter() - started
