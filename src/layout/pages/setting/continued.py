"""A later slide that holds one panel alone, the end of a section the slide before began →
that panel under its section's heading again, marked as continued, in the deck's type.

The git post's warning follows its section's six lines of code, which fill a 1600x900 slide
at every zoom the deck tries, so it stands alone on the next slide. Hung at the top at the
body's size it read as a slide left empty (sixth look); set larger in the slide's middle,
a plate, it read as cut off from its section and as type that jumps from slide to slide
(eleventh look: rated 3 in 22 of 30 theme-modes, "blown up to twice the body size"). A
deck's designer repeats the section's title over a slide that carries it on, "(cont.)"
after it (where the mark would wrap the title onto a line more, the title alone): the
panel keeps the deck's type and the slide its structure. Only a slide before the last: a
last slide's lone panel is the post's close (`centring.is_closing_card`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...base.boxes import Rect, Row
from ...base.placing import Placement, place
from ...flow.flow import MdxFlow
from ...parse.doc import Doc, Heading, Text, nodes
from ...text.words import has_han, is_japanese
from . import centring
from .covered import emphasis_panel, laid_afresh

# The mark after a continued section's title, by the title's language: clreq's 续 and
# Japanese 続き in full-width brackets, a Latin title's "(cont.)".
CONTINUED_ZH = "（续）"
CONTINUED_JA = "（続き）"
CONTINUED_LATIN = " (cont.)"


def continuations(
    doc: Doc, flow: MdxFlow, box: Rect, pages: list[list[Row]], placements: list[Placement]
) -> dict[int, Placement]:
    """The slides of `pages` before the last (placed as `placements`) that hold one panel
    of text alone (`centring.lone_block`, a kind of `centring.EMPHASIS`), by index: each
    laid out again under its section's heading marked as continued (`continued_of`)."""
    found: dict[int, Placement] = {}
    for index in range(1, len(pages) - 1):
        if centring.lone_block(pages, index, placements[index].height / box.height):
            continued = continued_of(doc, flow, box, pages[index])
            if continued is not None:
                found[index] = continued
    return found


def continued_of(doc: Doc, flow: MdxFlow, box: Rect, rows: Sequence[Row]) -> Placement | None:
    """A slide's `rows` (one panel of text, laid out by `flow` in `box`) laid out again
    under the heading of the section they end, its title followed by the continued mark;
    None where the panel is of no such kind, follows no section's heading (a post's
    title is none) or no longer fits the slide."""
    found = emphasis_panel(doc, flow, rows)
    heading = _section_heading(doc, found[0]) if found is not None else None
    if found is None or heading is None:
        return None
    panel = found[1]
    marked = Heading(heading.level, (*heading.inlines, Text(_mark(heading))))
    laid = laid_afresh(flow, flow.styles, Doc((marked, *panel)), box)
    plain = laid_afresh(flow, flow.styles, Doc((heading, *panel)), box)
    if _heading_lines(laid) > _heading_lines(plain):  # the mark would wrap the title
        laid = plain
    placement = place(laid, limit=box.height)
    return placement if placement.height <= box.height else None


def _heading_lines(rows: Sequence[Row]) -> int:
    """How many of `rows` are the heading's lines."""
    return sum(1 for row in rows if row.source and row.source[0][0] == "Heading")


def _section_heading(doc: Doc, start: int) -> Heading | None:
    """The heading of the section the top-level block `start` of `doc` is in: the last
    heading before it, unless that is the post's title (its first block, a level-1
    heading)."""
    for index in range(start - 1, -1, -1):
        block = doc.blocks[index]
        if isinstance(block, Heading):
            return None if index == 0 and block.level == 1 else block
    return None


def _mark(heading: Heading) -> str:
    """The continued mark in the heading's language."""
    text = "".join(node.text for node in nodes(Doc((heading,))) if isinstance(node, Text))
    if is_japanese(text):
        return CONTINUED_JA
    return CONTINUED_ZH if has_han(text) else CONTINUED_LATIN
