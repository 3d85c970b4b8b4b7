"""Mermaid source → a diagram record → a `Drawing` of marks and labels in px, or inline SVG.

`mermaid`, `mermaidlines` and `mermaidkinds` parse flowcharts, mind maps and pies and send
every other kind to its package's parser (all bounded: `MAX_SOURCE`, `MAX_NODES`,
`MAX_EDGES`); `marks` holds the `Drawing` records and the shapes every kind shares;
`drawing` lays out flowcharts (grandalf's layered layout, also lent to the other graph
kinds), `mindmap` mind maps. Each other kind has a package of its own, its parser and its
layout: `sequences`, `statecharts`, `gitgraphs`, `charts` (pies, quadrant and xy charts),
`timecharts` (gantt, timeline, journey); `forms` sends a parsed diagram to its kind's
layout, in the form asked for. `labels` measures and sets labels with the engine's own
shaping; `palette` makes the series colours; `cost` counts a diagram's layout steps before
it is laid out; `fit` chooses the form that fits a width under a post's `DiagramBudget`
(counted steps, never seconds); `svg` writes the article path's inline SVG.
Cards place a drawing as a block in `layout.blocks.diagram`. May import: `layout.base`,
`layout.text`, `layout.style`, `layout.errors`.

Nothing is imported with the package: a card without a diagram never loads the parsers,
layouts or grandalf: `DiagramBudget` and `diagram_svg` load on first use (a card's flow
makes its budget on the post's first diagram).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .fit import DiagramBudget
    from .svg import diagram_svg

__all__ = ["DiagramBudget", "diagram_svg"]


def __getattr__(name: str) -> Any:
    """`DiagramBudget` and `diagram_svg`, imported when first asked for (PEP 562)."""
    if name == "DiagramBudget":
        from .fit import DiagramBudget

        return DiagramBudget
    if name == "diagram_svg":
        from .svg import diagram_svg

        return diagram_svg
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
