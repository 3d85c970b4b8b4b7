"""A parsed Mermaid diagram → its `Drawing`: each kind's layout, in the form asked for.

`upright` asks each kind for its other form where it has one: a flowchart or state chart
turned (`marks.TURNED`), a mind map's branches on one side, a sequence compact, a class or
ER diagram tight, a pie's legend set larger (`charts.pie`), a gantt's sections beside a
wider plot (`timecharts.gantt`). A kind that reads in rows says
so (`Drawing.rows`): a card may cut it into bands. `fit` chooses among the forms; this
module only draws them.
"""

from __future__ import annotations

from dataclasses import replace

from .charts.mermaidcharts import Quadrant, XYChart
from .charts.pie import layout_pie
from .charts.quadrant import layout_quadrant
from .charts.xychart import layout_xychart
from .drawing import layout_flowchart
from .gitgraphs.gitgraph import layout_gitgraph
from .gitgraphs.mermaidgit import GitGraph
from .marks import TURNED, Drawing, Measure
from .mermaid import Flowchart
from .mermaidkinds import Diagram, Mindmap, Pie, Sequence, parse_diagram
from .mindmap import layout_mindmap
from .sequences.sequence import layout_sequence
from .statecharts.mermaidstate import StateChart
from .statecharts.states import layout_states
from .timecharts.gantt import layout_gantt
from .timecharts.journeywide import layout_journey
from .timecharts.mermaidgantt import Gantt
from .timecharts.mermaidtime import Journey, Timeline
from .timecharts.timeline import layout_timeline
from .uml.classes import layout_classes, layout_er
from .uml.mermaidclass import ClassDiagram
from .uml.mermaider import ErDiagram

ROW_KINDS = (Sequence, Gantt, Timeline, Journey)  # read in rows, top to bottom


def draw_diagram(source: str, measure: Measure, upright: bool = False) -> Drawing:
    """The laid-out diagram (`upright`: a flowchart or state chart turned, `marks.TURNED`;
    a mind map's branches all on one side, a sequence compact); `DiagramError` (a one-line
    reason) when it is not drawn.
    A kind that reads in rows says so (`Drawing.rows`): a card may cut it into bands."""
    return draw_record(parse_diagram(source), measure, upright)


def draw_record(diagram: Diagram, measure: Measure, upright: bool = False) -> Drawing:
    """`draw_diagram` of a diagram already parsed (or a part of one: `uml.parts`)."""
    drawing = _laid_out(diagram, measure, upright)
    if isinstance(diagram, ROW_KINDS):
        return replace(drawing, rows=True)
    return drawing


def _laid_out(diagram: Diagram, measure: Measure, upright: bool) -> Drawing:
    if isinstance(diagram, Flowchart):
        if upright:
            diagram = replace(diagram, direction=TURNED[diagram.direction])
        return layout_flowchart(diagram, measure)
    if isinstance(diagram, Mindmap):
        return layout_mindmap(diagram, measure, one_sided=upright)
    if isinstance(diagram, Sequence):
        return layout_sequence(diagram, measure, compact=upright)
    if isinstance(diagram, Quadrant):
        return layout_quadrant(diagram, measure)
    if isinstance(diagram, XYChart):
        return layout_xychart(diagram, measure)
    if isinstance(diagram, StateChart):
        return layout_states(diagram, measure, upright)
    if isinstance(diagram, GitGraph):
        return layout_gitgraph(diagram, measure, upright)
    if isinstance(diagram, Timeline):
        return layout_timeline(diagram, measure, upright)
    if isinstance(diagram, Journey):
        return layout_journey(diagram, measure, upright)
    if isinstance(diagram, Gantt):
        return layout_gantt(diagram, measure, wide=upright)
    if isinstance(diagram, ClassDiagram):
        return layout_classes(diagram, measure, upright)
    if isinstance(diagram, ErDiagram):
        return layout_er(diagram, measure, upright)
    assert isinstance(diagram, Pie)
    return layout_pie(diagram, measure, wide=upright)
