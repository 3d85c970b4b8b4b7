"""A later card → whether it is set in its middle, and where a card's rows start.

A card that holds the post's close (`is_closing_card`), one panel alone (`lone_block`: a
plate), figures alone (`figures_alone`) or, on a deck that gives each section its slide,
one short section (`statement_slides`) reads as a statement: hung at the top of its
content box it reads as a card left empty, so its rows start at the box's optical centre
(`OPTICAL` of the room they leave above them, `rows_top`). Every other card of a longer
post starts at the top. A short post of one card, a title card and a cover are composed
by `short` and set the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...base.boxes import Rect, Row
from ..breaks.breakrules import opens_section
from .short import FULL

OPTICAL = 0.42  # share of the spare room above the rows: the eye's centre is above the middle
# A last card filled less than this that opens a block of its own is the post's close, set
# in its optical centre: hung at the top, a heading and two lines (the English post's last
# section on a slide, 25-45 % full) or a closing paragraph and its tags read as a card left
# empty, in 59 of 210 slide sets and 47 of 210 portrait sets rated by eye (fourth look); at
# 0.5 a quote and its closing line, or a paragraph and a quote, 53-58 % full still hung at
# the top of 25 slide sets (fifth look); at 0.6 the reading notes' closing quote and line,
# 60-62 % of a slide as laid out (56-58 % by the report's measure), hung at the top in 10
# sets where the other themes set them as the close (ninth look, "centre the closing
# block"): 49 of 810 slide sets close so now, each 56-67 % full.
CLOSING_ROOMY = 0.67
# A portrait or square card's close is set so only under this: its cards are read one
# under the next, and a last card 52-56 % full set lower than the cards before read as
# "floated down, a blank band at the top" in 9 sets each at 440x586 and 1080x1440 (the
# workout's, the reading notes', the exam plan's closing sections, seventh look); a close
# of a few lines still reads as one in its optical centre.
CLOSING_CARD = 0.45
# The blocks that alone on a later card read as a plate, a statement set in its middle: a
# panel of their own. A paragraph alone is a section's end carried over (a fault the page
# breaker weighs), and a heading opens a section where the reader expects it, at the top.
PLATES = frozenset({"Callout", "Quote", "Table", "CodeBlock", "Cited"})
# The plates of text, set larger as a statement (`covered.plate_of`): a table's or code's
# lines are the measure's and the writer's, and would wrap.
EMPHASIS = frozenset({"Callout", "Quote", "Cited"})
# A card before the last set as a plate escapes the zoom ladder's count of cards left half
# empty (`zoom._sparse`): only one under half full is one, and of two sets with as many
# faults the one with fewer plates wins (`zoom.plates`), so a zoom that fills it wins.
PLATE_ROOMY = 0.5


def is_closing_card(pages: list[list[Row]], fill: float, slide: bool = True) -> bool:
    """Whether the last of `pages` (the rows of each card), `fill` of its content box full,
    is the post's close: a later card under `CLOSING_ROOMY` full (not a `slide`:
    `CLOSING_CARD`) that opens a block of its own (a paragraph, list or panel carried over
    from the card before reads on at the top)."""
    roomy = CLOSING_ROOMY if slide else CLOSING_CARD
    if len(pages) < 2 or fill >= roomy or not pages[-1] or not pages[-2]:
        return False
    first, before = pages[-1][0], pages[-2][-1]
    return bool(first.source) and first.source[:1] != before.source[:1]


def lone_block(pages: list[list[Row]], index: int, fill: float) -> bool:
    """Whether card `index` of `pages` (a later card, `fill` full) holds one whole panel
    alone (`PLATES`), under `PLATE_ROOMY` full: a callout whose section's code
    filled the slide before (the git post's warning, alone at 35-42 % on 30 slide sets)
    reads as a statement set in the card's middle, a plate; hung at the top, as a card
    left empty."""
    rows = pages[index]
    if index == 0 or fill >= PLATE_ROOMY or not rows or not rows[0].source:
        return False
    block = rows[0].source[:1]
    if block[0][0] not in PLATES or any(row.source[:1] != block for row in rows):
        return False
    before = pages[index - 1][-1:] if pages[index - 1] else []
    after = pages[index + 1][:1] if index + 1 < len(pages) else []
    return all(row.source[:1] != block for row in [*before, *after])


def statement_slides(pages: list[list[Row]], fills: list[float]) -> set[int]:
    """The later slides of `pages` (each `fills` of its content box full) where each holds
    one whole section alone (`section_alone`) and one of them is under `CLOSING_ROOMY`
    full; else none. A deck that gives each of the English habits its slide hung a
    heading and three lines at the top of slides half empty (ninth look, nine decks:
    "centre each section vertically"): such a deck's slides read as statements, each set
    in its optical centre however full (`rows_top`), alike (a heading at the top of one
    slide and low on the next reads as a fault). A deck that pairs two sections on a
    slide keeps them at the top."""
    later = range(1, len(pages))
    if not later or not all(section_alone(pages, n) for n in later):
        return set()
    return set(later) if any(fills[n] < CLOSING_ROOMY for n in later) else set()


def section_alone(pages: list[list[Row]], index: int) -> bool:
    """Whether card `index` of `pages` holds one whole section alone: it opens with the
    section's heading, holds no other, and the next card, if any, opens the next."""
    rows = pages[index]
    if not rows or not opens_section(rows[0]):
        return False
    headings = {row.source[:1] for row in rows if opens_section(row)}
    following = pages[index + 1][:1] if index + 1 < len(pages) else []
    return len(headings) == 1 and all(opens_section(row) for row in following)


def figures_alone(rows: Sequence[Row]) -> bool:
    """Whether a card's `rows` are all of whole figures (`Row.figure`: pictures, diagrams,
    an image's caption): with no text to hang from the top, such a card is composed."""
    return bool(rows) and all(row.figure for row in rows)


def rows_top(
    height: float, box: Rect, align: str, *, alone: bool, statement: bool = False
) -> float:
    """Where a card's first row starts, its rows `height` tall: the content box's top, or
    with `content_align = "center"` the middle of the room a post of one card leaves (a
    short post reads as a card, not as the top of an empty page), with "auto" its optical
    centre when the post is roomy (`short`); `alone` is also a longer post's title card
    under ``COVER_ROOMY`` full (`holds_title`), a cover (`covered.cover_of`) or
    one no larger type fits, each card of hrSplit (`part_heights`), and a later card
    that holds figures alone (`figures_alone`: the mixed-diagram post's sequence
    hung in the top half of its last card, 30 theme-modes) and a last card under half
    full that opens a block of its own (`is_closing_card`), or a later one that holds
    one whole block under half full (`lone_block`). The other cards of a
    longer post all start at the top: text carried over to a card, or a full card's, that
    jumped down would read as a layout fault. A `statement` (`statement_slides`) is set
    so however full."""
    if align == "center" and (alone or statement):
        return box.y + max(0.0, box.height - height) / 2
    if align == "auto" and (statement or (alone and height <= FULL * box.height)):
        return optical_top(box.y, box.height, height)
    return box.y


def optical_top(top: float, room: float, height: float) -> float:
    """Where the rows of a composed one-card post start: `OPTICAL` of the room their
    `height` leaves in a content box at `top`, `room` tall."""
    return top + round(max(0.0, room - height) * OPTICAL)  # whole px: crisp edges
