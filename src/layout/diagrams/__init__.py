"""Mermaid source → a diagram record → a `Drawing` of marks and labels in px, or inline SVG.

`mermaid`, `mermaidlines` and `mermaidkinds` parse flowcharts, mind maps and pies and send
every other kind to its package's parser (all bounded: `MAX_SOURCE`, `MAX_NODES`,
`MAX_EDGES`); `marks` holds the `Drawing` records and the shapes every kind shares;
`drawing` lays out flowcharts (grandalf's layered layout, also lent to the other graph
kinds), `kinds` pies, `mindmap` mind maps. Each other kind has a package of its own, its
parser and its layout: `sequences`, `statecharts`, `gitgraphs`, `charts` (quadrant and xy
charts), `timecharts` (gantt, timeline, journey). `labels` measures and sets labels with
the engine's own shaping; `palette` makes the series colours; `cost` counts a diagram's
layout steps before it is laid out; `fit` draws a diagram to fit a width under a post's
`DiagramBudget` (counted steps, never seconds); `svg` writes the article path's inline SVG.
Cards place a drawing as a block in `layout.blocks.diagram`. May import: `layout.base`,
`layout.text`, `layout.style`, `layout.errors`.
"""

from .fit import DiagramBudget
from .svg import diagram_svg

__all__ = ["DiagramBudget", "diagram_svg"]
