"""Mermaid source → a diagram record → a `Drawing` of marks and labels in px, or inline SVG.

`mermaid` and `mermaidkinds` parse the source (bounded: `MAX_SOURCE`, `MAX_NODES`, `MAX_EDGES`);
`marks` holds the `Drawing` records and the shapes every kind shares; `drawing` lays out
flowcharts (grandalf's layered layout), `kinds` sequence diagrams and pies, `mindmap` mind maps,
the `timecharts` package gantt charts, timelines and user journeys (parsers and layouts);
`labels` measures and sets labels with the engine's own shaping; `fit` draws a diagram to fit
a width under a post's `DiagramBudget`; `svg` writes the article path's inline SVG. Cards place
a drawing as a block in `layout.blocks.diagram`. May import: `layout.base`, `layout.text`,
`layout.style`, `layout.errors`.
"""

from .fit import DiagramBudget
from .svg import diagram_svg

__all__ = ["DiagramBudget", "diagram_svg"]
