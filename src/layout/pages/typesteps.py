"""A portrait or square set of cards → the type step it is set at: the theme's own, a
little smaller where that clears a fault, a little larger where a short post is spread thin.

A card of the 3:4 default's shape keeps the theme's type (zoomed with the card, compose.py)
unless its set has a fault a slightly smaller step clears (`type_ladder`, `fault_free`:
a section's end stranded atop a card, a card half empty before the last, a short last
card), a card before the last left a third empty closes (`closed_holes`), or, where its
cards leave room, is set larger (growntype.py, `larger_styles`). `settled_type` runs
them in that order for compose, and prefers the larger type where a step down would only
save a card and still leave a flaw.
"""

from __future__ import annotations

from collections.abc import Callable

from ..base.boxes import Page
from ..style.resolver import Styles
from .fitting import OVER_A_LIMIT, TYPE_STEPS, set_score
from .growntype import larger_styles
from .quality import FULL_ENOUGH, READABLE_PX, Quality
from .setfaults import OPEN, blocks_parted, card_faults, flawed, least_before_last, titled
from .setting.covered import masthead_wanted
from .zoom import best_zoom, measured

# A portrait or square card whose set has a fault at the theme's own type tries these type
# steps, largest first (`type_ladder`): 2 % apart, as far as `fit: "auto"` may go, never
# so far that the post's smallest text reads under the report's `READABLE_PX` on a phone.
# Measured over the corpus at 440x586, 500x500 and 1080x1440: the sets a step clears
# first need 0.98 (13), 0.97 to 0.95 (20) or 0.94 (3); below 0.94 the text of all but
# three goes under 11 px (the long table: 0.88 to 0.90, 10.4 px).
TYPE_LADDER = (0.98, 0.96, 0.94)


def _steps_down(measures: list[Quality | None]) -> list[float]:
    """The `TYPE_LADDER` steps that set no words of the post (`Quality.smallest_words`, at
    1.0) under `READABLE_PX` on a phone, nor below the least of fit "auto"'s `TYPE_STEPS`.
    A figure's labels do not count: the figure is fitted anew at each step, its labels
    kept at their own floor (`diagrams.marks.SHRUNK_LABEL`) and weighed by the score
    (cyberpunk's exam plan at 440x586: its gantt's 9-px labels barred every step and left
    cards 2 and 3 62 and 44 % full, where 0.96 sets them on one card 98 % full)."""
    read = [quality.smallest_words for quality in measures if quality is not None]
    smallest = min(read, default=0.0)
    least = max(min(TYPE_STEPS), READABLE_PX / smallest if smallest > 0 else 1.0)
    return [step for step in TYPE_LADDER if step >= least]


def type_ladder(pages: list[Page]) -> list[float]:
    """The type steps (`TYPE_LADDER`) a portrait or square set with a fault
    (`card_faults`), a short last card (`short_last`) or its title card alone
    (`_title_apart`) tries: none for a set without any (laid out once, as it was), and
    none that would set its smallest words (`Quality.smallest_words`, at 1.0) under
    `READABLE_PX` on a phone or below the least of fit "auto"'s `TYPE_STEPS`."""
    measures = measured(pages, None)
    if card_faults(pages, measures) == (0, 0) and not flawed(pages, measures):
        return []
    return _steps_down(measures)


def fault_free(
    lay_out: Callable[[float], list[Page]], pages: list[Page], steps: list[float]
) -> tuple[list[Page], float]:
    """`pages` (laid out at the theme's own type, 1.0) or, where `steps` (`type_ladder`)
    holds one whose set `lay_out(step)` leaves no fault (`card_faults`), the first such
    set that the quality report scores no lower (`fitting.set_score`); and its step. A
    set whose only flaw is a short last card (`short_last`) takes a step only where it
    is a card shorter (pop-art's book list: 3 cards at 1.0, the last 54 % full; 2 at
    0.96, 100 and 99 %): a slightly denser post, not a balanced one, is the type's to make.
    Unlike `best_zoom` no step with fewer faults is kept: type is
    smaller only where that clears the set (art-deco's fund explainer at 440x586: three
    cards, the middle one a three-item list alone at 54 %; at 0.94 two cards, 94 and 97 %
    full)."""
    if not steps:
        return pages, 1.0
    measures = measured(pages, None)
    floor = set_score(pages, measures, crowding=False)
    # a set without a fault but with a short last card takes smaller type only where it
    # saves that card: on as many cards, its breaks are the page breaker's to weigh
    # (dreamy's essay at 0.98 filled its last card by setting its title and lead as a
    # cover and leaving card 2 61 % full)
    fewer = card_faults(pages, measures) == (0, 0)

    def faults(trial: list[Page]) -> tuple[int, int]:
        # nor one the report scores lower: darktech's long article at 0.98 kept a section's
        # end off card 2 by leaving card 1 62 % full
        scored = measured(trial, None)  # once, for the faults and the score
        broken, sparse = card_faults(trial, scored)
        lower = set_score(trial, scored, crowding=False) < floor
        worse = sparse + lower + (fewer and len(trial) >= len(pages))
        # of the steps that save a card, one that leaves no short last card nor a title
        # card alone wins (pop-art's recipe at 440x586: 0.98 saved its cover and left a
        # last card 45 % full, 0.96 sets it on two full cards)
        flaw = fewer and flawed(trial, scored)
        return broken, 2 * worse + flaw

    try:
        trial, step = best_zoom(lay_out, steps, faults)
    except OVER_A_LIMIT:
        return pages, 1.0
    broken, worse = faults(trial)
    return (trial, step) if broken == 0 and worse < 2 else (pages, 1.0)


def closed_holes(
    lay_out: Callable[[float], list[Page]], pages: list[Page]
) -> tuple[list[Page], float]:
    """`pages` (at the theme's own type, 1.0, with no fault) or, where a card before the
    last (not a title card) is filled under `OPEN`, the set `lay_out(step)` makes at the
    first of `TYPE_LADDER`'s steps (`_steps_down`) that leaves no card before the last
    under the report's `FULL_ENOUGH`, on as many cards, with no fault, no more blocks
    parted over cards, no title card alone it had not and a quality score no lower; and
    its step."""
    measures = measured(pages, None)
    # a first card that opens with the title and lead over its section takes them larger
    # instead (`covered.masthead_wanted`): at 0.98 the workout's table moved up onto it,
    # rows tight to the footer, and left card 2 half empty (eighth look, 15 sets at 440x586)
    start = 1 if masthead_wanted(pages) else 0
    if len(pages) < 2 or least_before_last(pages[start:], measures[start:], titles=False) >= OPEN:
        return pages, 1.0
    floor, parted = set_score(pages, measures, crowding=False), blocks_parted(pages)
    for step in _steps_down(measures):
        try:
            trial = lay_out(step)
        except OVER_A_LIMIT:
            continue
        scored = measured(trial, None)
        if len(trial) != len(pages) or card_faults(trial, scored) != (0, 0):
            continue
        if blocks_parted(trial) > parted or titled(trial) > titled(pages):
            continue
        filled = least_before_last(trial, scored, titles=False) >= FULL_ENOUGH
        if filled and set_score(trial, scored, crowding=False) >= floor:
            return trial, step
    return pages, 1.0


def settled_type(
    at_step: Callable[[float], list[Page]],
    set_as: Callable[[Styles], list[Page]],
    styles: Styles,
    pages: list[Page],
) -> tuple[list[Page], float, Styles]:
    """`pages` (laid out at the theme's own type, 1.0) as a portrait or square set
    settles: a step down that clears a fault (`fault_free`) or closes a hole
    (`closed_holes`), else a short post spread thin set larger (`larger_styles`); with
    the step `at_step` laid it out at and the styles `set_as` set it in. A step down
    that only saves a card (the set at 1.0 had no fault) and still sets a title card
    apart or a short last card (`flawed`) gives way to the larger type where that
    clears the set: pop-art's exam plan at 440x586 took 0.94 for its title alone 46 %
    full and a last card crammed 98 %, where 1.2 sets four cards 63-84 % full."""
    stepped, step = fault_free(at_step, pages, type_ladder(pages))
    if step == 1.0:
        stepped, step = closed_holes(at_step, pages)
    if step != 1.0 and (card_faults(pages) != (0, 0) or not flawed(stepped)):
        return stepped, step, styles
    grown, larger = larger_styles(set_as, styles, pages)
    if step != 1.0 and grown is pages:
        return stepped, step, styles
    return grown, 1.0, larger
