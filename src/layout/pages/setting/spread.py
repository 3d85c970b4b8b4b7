"""A slide's rows + its content box → the rows with the room a short slide leaves shared out.

A 1600x900 slide holds a heading and a three-item list in 55-60 % of its content box when
what follows (a display formula, its legend and a quote) is too tall to join it: the page
breaker can do no better, and the slide showed a band under its list 40 % of its height.
A designer setting a deck spaces a short slide's blocks and items out rather than leave
its foot empty (vertical justification, the reverse of `squeeze.py`): each gap between two
blocks, or between two items of one list or quote, grows by the same amount (a list's
items by one amount over the whole deck, the least any of its list slides takes), at most
`MAX_GROWTH` of a body line, until the slide is `TARGET` full. Gaps that bind are left as
they are: under a heading, between a table and its note, a formula and its legend (a row
that keeps with the next, `Row.keep_with_next`, across blocks). Only slides (wider than
tall) before the last and after a title card are spread: a portrait card reads as a page,
whose blocks keep the theme's spacing.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...base.boxes import Row
from ...base.placing import place
from ...style.decorations import RuledLines
from ...style.resolver import Styles
from ...style.schema import Style
from .short import is_title_card

TARGET = 0.9  # the share of the content box a spread slide fills, at most
MAX_GROWTH = 1.0  # the most a gap grows, in body lines (size x line height)
SPACED = ("ListBlock", "Quote")  # blocks whose items or paragraphs may be spaced apart
UNDER_HEADING = 0.5  # what the gap under a heading grows, as a share of the others'
# A slide spaces out three things or more (two free gaps): two list items a line apart,
# or a heading a little further from its one paragraph, read as a fault, not as a rhythm.
MIN_WEIGHT = 2.0
UNDER = 0.75  # a slide fuller than this keeps its spacing (quality.FULL_ENOUGH)


def spread_slides(
    pages: list[list[Row]], room: float, body: Style, pitch: float = 0.0
) -> list[list[Row]]:
    """`pages` (the rows of each slide, `room` px of content box tall) with every slide
    before the last but a title card left under `UNDER` full spread (`spread`), a list's
    items by one amount over the deck (`_deck_item_growth`)."""
    if len(pages) < 2:
        return pages
    spread_here = [_spreads(pages, number, room) for number in range(len(pages))]
    items = _deck_item_growth(pages, spread_here, room, body)
    return [
        spread(rows, room, body, pitch, items) if here else rows
        for rows, here in zip(pages, spread_here, strict=True)
    ]


def _spreads(pages: list[list[Row]], number: int, room: float) -> bool:
    """Whether slide `number` is spread: before the last, no title card, under `UNDER`."""
    rows = pages[number]
    height = place(rows).height
    title = number == 0 and is_title_card(pages, height / room)
    return number < len(pages) - 1 and not title and height < UNDER * room


def _deck_item_growth(
    pages: list[list[Row]], spread_here: list[bool], room: float, body: Style
) -> float:
    """How far a list's item gap grows on every slide of the deck: the least any slide
    with list items would grow it (0 where one is not spread). A list with a slide of its
    own spread to twice the item gap of a list that shared its slide, and the deck read
    uneven (41 slide sets, fifth look)."""
    growths = [
        _growth(rows, free_gaps(rows), room, body) if here else 0.0
        for rows, here in zip(pages, spread_here, strict=True)
        if _item_gaps(rows)
    ]
    return min(growths, default=math.inf)


def spread(
    rows: list[Row], room: float, body: Style, pitch: float = 0.0, items: float = math.inf
) -> list[Row]:
    """`rows` with each free gap (`free_gaps`) grown in proportion to its weight (a gap
    under a heading by `UNDER_HEADING` of what the others grow, so the heading stays with
    what it opens), up to `MAX_GROWTH` body lines, so that they fill `TARGET` of `room`,
    a gap between two items of a list by `items` at most (the deck's one amount);
    unchanged where the weights come to less than `MIN_WEIGHT`;
    with a `pitch` (a theme's ruled lines), by whole pitches, so the text stays on the
    rules."""
    weights = free_gaps(rows)
    growth = _growth(rows, weights, room, body)
    if growth <= 0:
        return rows
    listed = _item_gaps(rows)
    out = []
    for i, row in enumerate(rows):
        grown = growth * weights.get(i, 0.0)
        grown = min(grown, items) if i in listed else grown
        if pitch > 0:
            grown = pitch * int(grown / pitch + 1e-6)
        out.append(replace(row, gap=row.gap + grown) if grown > 0 else row)
    return out


def _growth(rows: list[Row], weights: dict[int, float], room: float, body: Style) -> float:
    """What a gap of weight 1 (`weights`: the rows' `free_gaps`) grows by to fill `TARGET`
    of `room`, at most `MAX_GROWTH` body lines; 0 where the weights come to less than
    `MIN_WEIGHT`."""
    if sum(weights.values()) < MIN_WEIGHT:
        return 0.0
    slack = TARGET * room - place(rows).height
    return max(0.0, min(MAX_GROWTH * body.size * body.line_height, slack / sum(weights.values())))


def _item_gaps(rows: list[Row]) -> set[int]:
    """The rows that open an item of a list after its first (their gap is the list's)."""
    return {i for i in range(1, len(rows)) if _opens_item(rows[i], rows[i - 1], ("ListBlock",))}


def _in_one(row: Row, above: Row, kinds: tuple[str, ...]) -> bool:
    """Whether `row` and `above` are of one top-level block, of a kind in `kinds`."""
    return bool(row.source) and row.source[:1] == above.source[:1] and row.source[0][0] in kinds


def _opens_item(row: Row, above: Row, kinds: tuple[str, ...]) -> bool:
    """Whether `row` opens an item (or a paragraph) of the block of `kinds` `above` is in."""
    return _in_one(row, above, kinds) and row.source[:2] != above.source[:2]


def free_gaps(rows: list[Row]) -> dict[int, float]:
    """The rows whose gap above may grow, with the share they grow by: a row after the
    first that opens an item of the list or a paragraph of the quote the row above is in
    (`SPACED`), or that has a gap and follows a row that does not keep with the next (a
    block's end that binds nothing), 1; the block under a heading, `UNDER_HEADING`."""
    free: dict[int, float] = {}
    for i in range(1, len(rows)):
        row, above = rows[i], rows[i - 1]
        if not row.source or not above.source or row.header is not None:
            continue
        same = _in_one(row, above, SPACED)
        if _opens_item(row, above, SPACED) or (row.gap > 0 and not above.keep_with_next):
            free[i] = 1.0
        elif row.gap > 0 and above.source[-1][0] == "Heading" and not same:
            free[i] = UNDER_HEADING
    return free


def ruled_pitch(styles: Styles) -> float:
    """The pitch of the theme's ruled lines (notebook's 24 px), 0 for a theme without."""
    for deco in styles.decorations:
        if isinstance(deco, RuledLines) and deco.extend:
            return float(deco.pitch)
    return 0.0
