"""A fenced code block + its box → `Part`: highlighted code, or a diagram when it is `mermaid`.

Kept apart from `diagram` so that the flow can tell and place fenced blocks without loading
the diagram engine (its parsers, layouts and grandalf: ~40 modules, ~0.05 s of a cold start
and some MB of a render process): `diagram` is imported on a post's first diagram.
"""

from __future__ import annotations

from ..parse.doc import CodeBlock
from .panels import code
from .parts import Ctx, Layouter, Part

MERMAID = "mermaid"


def is_diagram(block: CodeBlock) -> bool:
    """Whether the fenced block is a diagram (its language is `mermaid`)."""
    return block.lang.lower() == MERMAID


def fenced(flow: Layouter, block: CodeBlock, ctx: Ctx) -> Part:
    """A fenced block: a diagram when its language is `mermaid`, else highlighted code."""
    return diagram(flow, block, ctx) if is_diagram(block) else code(flow, block, ctx)


def diagram(flow: Layouter, block: CodeBlock, ctx: Ctx, reserve: float = 0.0) -> Part:
    """`blocks.diagram.diagram`, its module imported on the first call."""
    from .diagram import diagram as drawn  # the diagram engine: on a post's first diagram

    return drawn(flow, block, ctx, reserve)
