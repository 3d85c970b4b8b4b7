"""A post's first card that holds its title and lead alone → the same rows in larger type,
set as the post's cover (compose.py places it in the card's middle); one that holds its
first section under them, roomy → its title and lead larger over that section, a
masthead; a later card that holds one panel of text alone (a plate) → that panel in larger
type, a statement.

How much larger is the theme's range for a card (`short.COVER_STEPS`); a deck's title slide,
its measure twice a card's, sets its title larger still (`short.SLIDE_COVER_STEPS`) while the
title keeps its lines, its lead at a card's step.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...base.boxes import Page, Rect, Row
from ...base.placing import Placement, place
from ...flow.flow import MdxFlow
from ...parse.doc import Block, Doc, Heading
from ...style.resolver import Styles
from ..breaks.breakrules import title_end
from . import centring, short


def cover_of(
    doc: Doc,
    flow: MdxFlow,
    box: Rect,
    pages: list[list[Row]],
    first: Placement,
    slide: bool = False,
) -> Placement | None:
    """The first of `pages` (laid out by `flow`'s styles in `box`, placed as `first`) as the
    post's cover, where it holds only the title and lead (`short.holds_title`) and fills
    less than `short.COVER_ROOMY`: laid out again in the largest `short.larger_type` that
    fills the card at most `short.FULL` and leaves no line of the title shorter than
    `short.COVER_LINE` of the measure (or than its shortest at the theme's size; on a
    `slide`, of its longest line: `short.even_title`; a slide's title may grow further,
    `short.SLIDE_COVER_STEPS`, its lead not, while it keeps its lines); None where it is
    not one, or no step fits. The card's own styles (frame, page number) stay
    the set's: only the rows are set larger, the lead centred under a centred title
    (`short.lead_aligned`)."""
    if first.height >= short.COVER_ROOMY * box.height or not short.holds_title(pages):
        return None
    head = Doc(doc.blocks[: short.title_blocks(pages[0])])
    first_block = head.blocks[0] if head.blocks else None
    title = f"h{first_block.level}" if isinstance(first_block, Heading) else "h1"
    shortest = min(short.COVER_LINE, short.shortest_title_line(pages[0], box.width))
    card_most = max(short.COVER_STEPS)
    lines = len(short.title_lines(pages[0], box.width))
    for step in short.SLIDE_COVER_STEPS if slide else short.COVER_STEPS:
        styles = short.lead_aligned(
            short.larger_type(flow.styles, min(step, card_most), step), title
        )
        rows = _display_rows(flow, styles, head, box)
        placement = place(rows, limit=box.height)
        even = short.even_title(rows, box.width, shortest, slide)
        # past a card's steps the title grows only as long as it keeps its lines: rewrapped
        # into more, 10's broke "一个独立 / 开发者" where it had kept 独立开发者 whole
        kept = step <= card_most or len(short.title_lines(rows, box.width)) <= lines
        if placement.height <= short.FULL * box.height and even and kept:
            # the card held its title blocks, no more and no less
            return placement if _words(rows) == _words(pages[0]) else None
    return None


def masthead_of(
    doc: Doc, flow: MdxFlow, box: Rect, pages: list[list[Row]], first: Placement
) -> Placement | None:
    """The first of two or more `pages` (placed as `first`) that opens with the post's
    title and lead and holds its first section under them (`title_end`), filled under
    `short.COVER_ROOMY`, with its title and lead laid out again as a cover's are (the
    largest of `short.COVER_STEPS` whose card fills at most `short.FULL`, the title's lines
    whole phrases) over the section as laid out: the workout's card 1 (title, lead and
    warm-up, 63 % full, its table on card 2) read a third empty in 8 theme-modes at
    440x586 ("give the cover more weight: a larger title or lead", seventh look). None
    where it is no such card, or no step fits."""
    rows = pages[0] if len(pages) > 1 else []
    end = title_end(rows)
    if end is None or first.height >= short.COVER_ROOMY * box.height:
        return None
    head = Doc(doc.blocks[: short.title_blocks(rows[:end])])
    shortest = min(short.COVER_LINE, short.shortest_title_line(rows[:end], box.width))
    for step in short.COVER_STEPS:
        top = _display_rows(flow, short.larger_type(flow.styles, step), head, box)
        placement = place([*top, *rows[end:]], limit=box.height)
        even = short.even_title(top, box.width, shortest, False)
        if placement.height <= short.FULL * box.height and even:
            return placement if _words(top) == _words(rows[:end]) else None
    return None


def masthead_wanted(pages: list[Page]) -> bool:
    """Whether the first of a set's cards (portrait or square, autoSplit) opens with the
    title and lead and holds its first section under them, filled under
    `short.COVER_ROOMY`: a card whose title and lead `masthead_of` may set larger. Asked
    of a set whose type and breaks are settled, as a roomy first card is a hole the type
    steps may close (the workout's table moved up onto card 1 at 0.98 in brandA)."""
    first = pages[0].fit if len(pages) > 1 else None
    if first is None or first.title:
        return False
    rows = [placed.row for placed in pages[0].rows]
    roomy = short.filled(pages[0], first.room) < short.COVER_ROOMY
    return roomy and title_end(rows) is not None


def plate_of(
    doc: Doc,
    flow: MdxFlow,
    box: Rect,
    rows: Sequence[Row],
    placed: Placement,
    slide: bool = False,
) -> Placement | None:
    """A card's `rows` (laid out by `flow`'s styles in `box`, placed as `placed`) that hold
    one panel of text alone (`centring.lone_block`, a kind of `centring.EMPHASIS`) laid out
    again in the largest `short.larger_type` of `short.COVER_STEPS` (on a `slide`, whose
    measure is twice a card's, of `short.SLIDE_COVER_STEPS`) that fills the card at most
    `short.FULL`: the git post's warning alone on a slide, 39 % full at the body's
    size, read as a slide left empty (sixth look, 30 slide sets); set larger, as a
    statement (a deck's slide before the last now goes on under its section's title
    instead, `continued`: set larger, it read as cut off). None where the rows are no
    such panel, or no step fits."""
    found = emphasis_panel(doc, flow, rows)
    if found is None:
        return None
    panel = Doc(found[1])
    for step in short.SLIDE_COVER_STEPS if slide else short.COVER_STEPS:
        laid = _display_rows(flow, short.larger_type(flow.styles, step), panel, box)
        placement = place(laid, limit=box.height)
        if placement.height <= short.FULL * box.height and placement.height > placed.height:
            return placement if _words(laid) == _words(rows) else None
    return None


def statements(
    doc: Doc,
    flow: MdxFlow,
    box: Rect,
    pages: list[list[Row]],
    placements: list[Placement],
    slide: bool,
) -> dict[int, Placement]:
    """The cards of `pages` (placed as `placements`) that hold one panel of text alone,
    under `centring.PLATE_ROOMY` full (`centring.lone_block`), by index: each that `plate_of` sets
    in larger type (a `slide`'s up to its title's steps), as placed so."""
    larger: dict[int, Placement] = {}
    for index, placement in enumerate(placements):
        if centring.lone_block(pages, index, placement.height / box.height):
            statement = plate_of(doc, flow, box, pages[index], placement, slide)
            if statement is not None:
                larger[index] = statement
    return larger


def emphasis_panel(
    doc: Doc, flow: MdxFlow, rows: Sequence[Row]
) -> tuple[int, tuple[Block, ...]] | None:
    """The top-level blocks of `doc` a card's `rows` come from, with the first one's index,
    where they are one panel of text (a kind of `centring.EMPHASIS`, laid out by `flow`);
    None where they are not."""
    kind = rows[0].source[0] if rows and rows[0].source else None
    blocks = flow.blocks_of.get(kind) if kind is not None else None
    if kind is None or blocks is None or kind[0] not in centring.EMPHASIS:
        return None
    return blocks[0], doc.blocks[blocks[0] : blocks[1]]


def laid_afresh(
    flow: MdxFlow, styles: Styles, blocks: Doc, box: Rect, *, display: bool = False
) -> list[Row]:
    """`blocks` laid out in `box` as `flow` lays them out but in `styles`, by a flow of
    their own (the post's flow keeps its ids and its count of the rows it made); with
    `display`, as display type (a lead's lines broken between phrases, `MdxFlow.display`)."""
    fresh = MdxFlow(
        styles,
        flow.fonts,
        flow.images,
        max_row_height=box.height,
        card_width=flow.card_width,
        display=display,
    )
    return fresh.doc(blocks, x=box.x, width=box.width)


def _display_rows(flow: MdxFlow, styles: Styles, blocks: Doc, box: Rect) -> list[Row]:
    """`blocks` laid out in `box` in `styles` as display type (`laid_afresh`)."""
    return laid_afresh(flow, styles, blocks, box, display=True)


def _words(rows: Sequence[Row]) -> str:
    """The text of `rows`, without the spaces, breaks and hyphens their lines put in it."""
    return "".join("".join(row.text for row in rows).split()).replace("-", "")
