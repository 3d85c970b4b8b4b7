"""A set of cards one of which opens with the short end of the section before → the set its
page breaker makes keeping each section's end with it, a card more at most.

The page breaker prices a section's short end left atop the next card
(`breakprices.STRANDED`) as a card left a little emptier, never as a card more: a set
that costs no card and breaks no rule moves it back. Where none does, a deck of slides
tries its ladder's zooms again with that end dearer than a card (`Card.keep_ends`,
`breakprices.STRANDED_APART`), and so does a set of portrait or square cards at the type
it settled on: the FAQ's warning note under Q1 opened card 2 of 4 above Q2 at 500x500 in
20 theme-modes ("reads as Q2's intro", thirteenth look, rated 3 in 8), where a fifth card
gives the title and lead a cover and each pair of questions its card. The set is kept
only with fewer faults and each card before the last full or ending its section
(`whole`): a card more that parts a section over two cards half full spares it nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..base.boxes import Page
from .fitting import OVER_A_LIMIT
from .quality import FULL_ENOUGH, measure
from .setfaults import card_faults, short_last
from .zoom import stranded_tails

T = TypeVar("T")  # what a set is laid out at: a deck's trial (zoom, type, code), a card's none


def kept_ends(
    lay_out: Callable[[T], list[Page]],
    tries: list[T],
    chosen: tuple[list[Page], T],
    faults: Callable[[list[Page]], tuple[int, int]],
) -> tuple[list[Page], T]:
    """`chosen` (the pages and what they were laid out at), or where a card of it opens
    with a section's short end (`zoom.stranded_tails`), the set `lay_out` (its page
    breaker keeping each section's end with it) makes at the first of `tries` with fewer
    `faults`, at most one card more and each card before the last full or ending its
    section (`whole`). The English habits' closing quote opened slide 4 above "Forgive
    the bad days" at every zoom of seven decks (tenth look): a fifth slide gives each
    section its own."""
    pages, _ = chosen
    if not stranded_tails(pages):
        return chosen
    before = faults(pages)
    for trial in tries:
        try:
            kept = lay_out(trial)
        except OVER_A_LIMIT:
            continue
        if len(kept) <= len(pages) + 1 and faults(kept) < before and whole(kept):
            return kept, trial
    return chosen


def whole(pages: list[Page]) -> bool:
    """Whether each card before the last is full (the report's `FULL_ENOUGH`) or ends its
    section: a slide more that parts an opening's three paragraphs 1 | 2 over two slides
    half full (the release notes in minimalist) spares no section its end."""
    return all(
        page.fit is not None and (page.fit.section_end or quality.fill >= FULL_ENOUGH)
        for page, quality in zip(pages[:-1], map(measure, pages[:-1]), strict=True)
        if quality is not None
    )


def card_ends_faults(pages: list[Page]) -> tuple[int, int]:
    """What a designer holds against a set of portrait or square cards (`card_faults`),
    a short last card (`short_last`) counted with the rules it breaks: a card more whose
    last holds a paragraph's tail 30 % full (the long English essay at 500x500 in 11
    theme-modes) trades one fault for another."""
    broken, sparse = card_faults(pages)
    return broken + short_last(pages), sparse
