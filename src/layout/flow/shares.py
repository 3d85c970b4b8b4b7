"""A long post's top-level blocks laid out in two shares at once, by two processes.

Laying out a block (shaping, line breaking) needs only the block and the width; what joins
blocks (margins, keeping a heading with its lines) and pagination are cheap and need them
all. So one process lays out the blocks from `share_start` on (`Flow.share`) while another
lays out the ones before, then takes the first's parts (`Premade`) where it would have made
them, and joins and paginates the whole post as if it had made every part itself: the same
rows, so the same cards.

Only blocks that draw on nothing outside themselves are laid out apart (`layable_apart`):
an image reserves room by the rows before it, a diagram and math spend the post's own
allowances (`DiagramBudget`, `MathBudget`), and the component blocks of mdxMode are left
where they are. The blocks and panels of a share take their ids from `SHARE_IDS` on, far
past any the post's own flow reaches, so that ids stay unique where the page breaker
compares them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..blocks.fences import is_diagram
from ..blocks.parts import Part
from ..parse.doc import (
    Block,
    Callout,
    CodeBlock,
    Doc,
    Heading,
    Image,
    ListBlock,
    Notes,
    Paragraph,
    Quote,
    Rule,
    Table,
    Text,
    nodes,
)
from ..parse.markdown import MATH, MATH_DISPLAY

SHARE_IDS = 1 << 40
SECOND_SHARE = 0.42
"""The second share's part of the post's text: a little under half, as its parts must still
be pickled and sent while the first share is joined on."""
MIN_SHARE_CHARS = 600
"""The least text the second share holds: below it the hand-over costs more than the
layout it saves (about 1 ms a card of text)."""
_APART = (Paragraph, Heading, ListBlock, Quote, CodeBlock, Table, Rule, Callout, Notes)
_POST_WIDE_MARKS = frozenset((MATH, MATH_DISPLAY))


def layable_apart(block: Block) -> bool:
    """Whether `block` lays out to the same part in a share as in the post's own flow."""
    if not isinstance(block, _APART):
        return False
    for node in nodes(block):
        if isinstance(node, Image) or (isinstance(node, CodeBlock) and is_diagram(node)):
            return False
        if isinstance(node, Text) and node.marks & _POST_WIDE_MARKS:
            return False
    return True


def may_have_share(markdown: str) -> bool:
    """Whether a post of `markdown` may be long enough for `share_start` (before parsing)."""
    return len(markdown) * SECOND_SHARE >= MIN_SHARE_CHARS


def share_start(doc: Doc) -> int | None:
    """The first top-level block of the second share: where the text after holds about
    `SECOND_SHARE` of the post's; None when the blocks of it laid out apart would hold less
    than `MIN_SHARE_CHARS`."""
    weights = [_chars(block) for block in doc.blocks]
    after = total = sum(weights)
    for index, weight in enumerate(weights):
        if index and after <= SECOND_SHARE * total + weight / 2:
            blocks = doc.blocks[index:]
            apart = sum(w for w, b in zip(weights[index:], blocks, strict=True) if layable_apart(b))
            return index if apart >= MIN_SHARE_CHARS else None
        after -= weight
    return None


class Premade:
    """The parts of the second share for the flow that lays out the first: `fetch` is asked
    once, when the flow reaches `start`; it gives the parts (None for a block not laid out
    apart) or None when they cannot be had (then the flow lays out the rest itself)."""

    def __init__(self, start: int, fetch: Callable[[], Sequence[Part | None] | None]):
        self.start = start
        self._fetch = fetch
        self._parts: Sequence[Part | None] | None = None
        self._fetched = False

    def __call__(self, index: int) -> Part | None:
        """Block `index`'s part if the share laid it out, else None (lay it out here)."""
        if index < self.start:
            return None
        if not self._fetched:
            self._fetched = True
            self._parts = self._fetch()
        if self._parts is None or index - self.start >= len(self._parts):
            return None
        return self._parts[index - self.start]


def _chars(block: Block) -> int:
    """The characters `block` lays out: about what its layout costs."""
    return sum(
        len(node.text) if isinstance(node, Text) else len(node.code)
        for node in nodes(block)
        if isinstance(node, Text | CodeBlock)
    )
