"""A one-card post of set lines (a poem) → composed across the card, not only down it.

`short.py` sets a short post larger and at the card's optical centre, but a poem's lines
are short: flush left under a title flush left, the four lines of 静夜思 left two-thirds of
the card's width empty (23 of 30 theme-modes, issue 41 class 8). Under a centred title the
lines are centred too (`centred`); under a title set flush left, the title and the lines
keep their shared left edge and the block they make is centred on the card
(`block_centred`), as a designer sets a stanza on a page: the alignment follows the title,
the block the card. Both lay the post out again; a trial that no longer fits one card, or
rewraps a line, is dropped. A centred poem's type is then set larger (`VERSE_STEPS`), as a
designer sets a stanza for a card rather than body text on a page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ...base.boxes import Page, Rect
from ...style.resolver import Styles
from . import short

# A block whose widest line leaves less than this share of the measure to its right is
# left where it is: moved by a few px it reads as a margin mistake, not a composition.
SPARE = 0.2
# The narrower measure keeps this many title ems more than the block's widest line: the
# edge `short.rows_right` finds is a glyph's origin and one em, and a title's emoji is
# wider (nature's "静夜思 🌿" broke "静夜 / 思" in a measure cut to the line).
SLACK_EM = 1.0
# A centred poem's type (not its card: the frame and ornaments stay) is set this many times
# larger, the largest step that keeps every line and fills the content box at most
# `short.FULL`: at the short post's zoom alone 静夜思 filled about half the card at 440x586,
# its lines 20 px, "type too small for a one-card poem" in 29 of 30 theme-modes (the
# twenty-second session's raters, at 440x586 and 1080x1440 alike).
VERSE_STEPS = (1.4, 1.3, 1.2, 1.1)


def composed_verse(
    styles: Styles, box: Rect, pages: list[Page], lay_out: Callable[[Styles], list[Page]]
) -> list[Page] | None:
    """`pages` (one card, its content box `box`) laid out again by `lay_out` as a poem is
    set: centred under a centred title, its block centred under a flush-left one; None
    where the post is not verse or the trial does not keep its lines on one card."""
    if len(pages) != 1 or styles["body"].align == "center":
        return None
    if not short.is_verse(pages[0], box.x, box.width):
        return None
    for step in VERSE_STEPS:  # the largest type that keeps its lines and some air
        grown = _set_as_verse(short.larger_type(styles, step), box, pages, lay_out, None)
        if grown is not None and short.filled(grown[0], box.height) <= short.FULL:
            return grown
    return _set_as_verse(styles, box, pages, lay_out, pages)


def _set_as_verse(
    styles: Styles,
    box: Rect,
    pages: list[Page],
    lay_out: Callable[[Styles], list[Page]],
    plain: list[Page] | None,
) -> list[Page] | None:
    """The post laid out in `styles` as a poem is set: centred under a centred title, its
    block centred on the card under a flush-left one (measured on `plain`, the post as
    `styles` set it, laid out here when None); None where a line rewraps or it leaves one
    card."""
    if styles["h1"].align == "center":
        trial = lay_out(centred(styles))
    else:
        plain = plain or lay_out(styles)
        if not _same_lines(plain, pages):
            return None
        spare = box.x + box.width - short.rows_right(plain[0])
        if spare < SPARE * box.width:
            return None
        slack = min(spare / 2, SLACK_EM * styles["h1"].size)  # on the right: the block centred
        trial = lay_out(block_centred(styles, spare / 2, spare / 2 - slack))
    return trial if _same_lines(trial, pages) else None


def _same_lines(trial: list[Page], pages: list[Page]) -> bool:
    """One card, and as many rows as the post had: no line rewrapped."""
    return len(trial) == 1 and len(trial[0].rows) == len(pages[0].rows)


def centred(styles: Styles) -> Styles:
    """`styles` with body text centred."""
    body = replace(styles["body"], align="center")
    return replace(styles, roles={**styles.roles, "body": body})


def block_centred(styles: Styles, left_inset: float, right_inset: float) -> Styles:
    """`styles` with the card's content box narrower by `left_inset` and `right_inset`: a
    block's rows set flush left in it move `left_inset` towards the card's middle."""
    card = styles["card"]
    top, right, bottom, left = card.padding
    padded = replace(card, padding=(top, right + right_inset, bottom, left + left_inset))
    return replace(styles, roles={**styles.roles, "card": padded})
