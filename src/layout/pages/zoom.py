"""A card larger than the default → how many times larger it draws its theme's measures.

Type follows the card (compose.py): a card larger than the 3:4 default is laid out at a
smaller virtual size and drawn `type_zoom` times larger. A wide card is looked at on a phone
360 px wide (the quality report's `PHONE_WIDTH`), where a 1600x900 slide at the zoom that
keeps its content box roomy set its body at 9.3 px: a slide is drawn larger still, so its
body reads at `LEGIBLE_BODY_PX`, unless its post then breaks a page-break rule, leaves
a stub or a slide half empty or cut short inside a code block (`slide_faults`): then it
tries a few smaller zooms and keeps the largest that does not, or the one that does least
(`best_zoom`). A portrait or square card's small text is set as large as a phone reads
(`phone_floor`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate, pairwise
from typing import TypeVar

from ..base.boxes import Page
from ..limits import DEFAULT_HEIGHT, DEFAULT_WIDTH
from ..style.schema import Style
from .breaks.breakrules import opens_section, parallel_items, reads_on, title_only
from .fitting import OVER_A_LIMIT
from .quality import (
    LAST_FULL_ENOUGH,
    PHONE_WIDTH,
    READABLE_PX,
    SLIDE_READABLE_PX,
    Quality,
    measure,
)

# Type that follows the card. A wide or square card is looked at on a phone 360 px wide, so
# its zoom grows until the virtual card is `MAX_MEASURE_WIDTH` wide (a 16 px body reads at
# 11 px there, the report's `READABLE_PX`), but no further than leaves the content box
# `MIN_ZOOMED_CONTENT` tall between the theme's padding, header and footer: about eight
# lines of body, room for a heading and its section (a frame as thick as pop-art's costs
# zoom, not lines). A slide whose body would still read under `LEGIBLE_BODY_PX` at the
# phone's width (1600x900: 9.3 px) zooms on until it does, as a designer sets a deck in
# larger type and pays with slides, but never past a content box `MIN_LEGIBLE_CONTENT`
# tall (seven lines of body: a slide's bullets).
MAX_MEASURE_WIDTH = 520.0
MIN_ZOOMED_CONTENT = 240.0
LEGIBLE_BODY_PX = 10.0
MIN_LEGIBLE_CONTENT = 200.0
# A slide whose post breaks a page-break rule (a heading, table and note taller than the
# slide) or leaves a card half empty at the legible zoom tries smaller zooms, in steps of 4
# %, down to where its body reads `FLOOR_BODY_PX` on a phone (`zoom_ladder`, `best_zoom`):
# the least the quality report reads a slide's text at without a cost.
LADDER_STEP = 0.96
FLOOR_BODY_PX = SLIDE_READABLE_PX
T = TypeVar("T")  # a trial `best_zoom` lays out: a zoom and the type it sets


def type_zoom(
    card_style: Style,
    width: float,
    height: float,
    body_size: float = 16.0,
    *,
    legible: bool = True,
) -> float:
    """How many times larger than its CSS px a card of `width` x `height` draws its
    theme's measures: 1 for cards no larger than the default (and with `type_scale =
    "none"`); else the largest zoom at which the default card still fits in this one,
    raised on a wide card until its virtual width is `MAX_MEASURE_WIDTH` (but no further
    than leaves its content box `MIN_ZOOMED_CONTENT` tall, or, with `legible`, where the
    body, `body_size` px, would read under `LEGIBLE_BODY_PX` on a phone,
    `MIN_LEGIBLE_CONTENT`); a portrait or square card at least until its body reads
    `READABLE_PX` on a phone (`_readable`)."""
    if card_style.type_scale == "none":
        return 1.0
    fit = min(width / DEFAULT_WIDTH, height / DEFAULT_HEIGHT)
    top, _, bottom, _ = card_style.padding
    chrome = top + bottom + card_style.header_height + card_style.footer_height
    chrome += 2 * card_style.inset
    roomy = height / (MIN_ZOOMED_CONTENT + chrome)
    larger = LEGIBLE_BODY_PX * width / (PHONE_WIDTH * body_size) if legible else 0.0
    larger = min(larger, height / (MIN_LEGIBLE_CONTENT + chrome))
    wide = min(width / MAX_MEASURE_WIDTH, max(roomy, larger))
    return max(1.0, fit, wide, _readable(width, height, body_size, roomy))


def _readable(width: float, height: float, body_size: float, roomy: float) -> float:
    """The zoom at which a portrait or square card's body reads `READABLE_PX` on a phone
    (a 500x500 card shows at 0.72 there: a 15-px body read 10.8 px), no further than the
    card's width over the default's (a theme that sets its body small on the default card
    keeps it small: the card's size, not the theme, is what this makes up for) nor than
    leaves its content box `MIN_ZOOMED_CONTENT` tall; 0 for a wide card, whose slides keep
    their own, `LEGIBLE_BODY_PX`."""
    if width > height:
        return 0.0
    return min(READABLE_PX * width / (PHONE_WIDTH * body_size), width / DEFAULT_WIDTH, roomy)


def phone_floor(width: float, height: float, zoom: float) -> float:
    """The px on a portrait or square card drawn `zoom` times larger that read
    `READABLE_PX` on a phone, where the phone shows it smaller than the default card (a
    500x500 card); 0 for a card shown as large or larger (the default, 1080x1440, 360x640:
    their small text is the theme's choice) and for a wide card (a slide has its own)."""
    shown = PHONE_WIDTH * zoom / width  # a virtual px on the phone
    if width > height or shown >= PHONE_WIDTH / DEFAULT_WIDTH - 1e-9:
        return 0.0
    return READABLE_PX / shown


def zoom_ladder(legible: float, roomy: float, floor: float) -> list[float]:
    """The zooms a wide card tries, largest first: the legible one, steps of `LADDER_STEP`
    down from it while no smaller than `floor` (where the body reads `FLOOR_BODY_PX` on a
    phone), the floor itself and the roomy one (`type_zoom(legible=False)`)."""
    zooms = {legible, roomy}
    step = legible * LADDER_STEP
    while step > floor:
        zooms.add(step)
        step *= LADDER_STEP
    zooms.add(min(legible, floor))
    return sorted(zooms, reverse=True)


def floor_zoom(width: float, body_size: float) -> float:
    """The zoom at which a `width`-px card's body (`body_size` px) reads `FLOOR_BODY_PX`
    on a phone `PHONE_WIDTH` wide."""
    return FLOOR_BODY_PX * width / (PHONE_WIDTH * body_size)


def best_zoom(
    lay_out: Callable[[T], list[Page]],
    tries: list[T],
    faults: Callable[[list[Page]], tuple[int, int]] | None = None,
    fallback: tuple[list[Page], T] | None = None,
) -> tuple[list[Page], T]:
    """The pages `lay_out(trial)` makes at the first of `tries` (a zoom, largest first,
    with the type it sets) that leaves no fault (`slide_faults`) and breaks no limit, else
    at the one with the fewest, the earlier (the larger zoom) on a tie; and that trial.
    The fund explainer's heading, five-row table and note were 23 px taller than a
    traditional-chinese slide at the legible zoom and at the roomy one, so the note opened
    the next slide; 8 % smaller they share a slide: a designer sets a deck as large as its
    content allows, and no larger. `faults` (`slide_faults` unless given) weighs each set;
    a `fallback` (pages laid out before, and their trial) is kept unless a trial has fewer.
    Of sets with as many faults, the one with fewer plates wins (`plates`)."""
    weigh = faults or slide_faults
    best = fallback
    fewest = (weigh(fallback[0]), plates(fallback[0])) if fallback is not None else None
    for trial in tries:
        try:
            pages = lay_out(trial)
        except OVER_A_LIMIT:
            if trial == tries[-1] and best is None:
                raise
            continue
        found = weigh(pages)
        if found == (0, 0):
            return pages, trial
        weighed = (found, plates(pages))
        if fewest is None or weighed < fewest:
            best, fewest = (pages, trial), weighed
    assert best is not None  # the last trial raised if none laid out
    return best


def plates(pages: list[Page]) -> int:
    """The cards before the last set as plates (`Fit.plate`: one panel alone, set in its
    middle, `centring.lone_block`), each a card left half empty that the fault counts leave
    out (`_sparse`: the git post's warning is a plate at every zoom): skincare's tip alone
    on art-deco's second slide at 31 % (the title and lead before it, 60 %) tied with the set 4 %
    smaller that holds all three on one slide, and won, the larger zoom. A slide that goes on
    under its section's heading again (`Fit.continued`) holds one panel alone as well."""
    return sum(_lone(page) for page in pages[1:-1])


def _lone(page: Page) -> bool:
    """Whether a card holds one panel alone: set as a plate, or under its section's
    heading again (`Fit.continued`)."""
    return page.fit is not None and (page.fit.plate or page.fit.continued)


def set_faults(pages: list[Page], measures: list[Quality | None] | None = None) -> tuple[int, int]:
    """What a designer would hold against a set of slides, the worse first: the page-break
    rules the cards break, cards that hide rows (overflow hidden), a last card that is a
    stub and each block of `_UNITS` split over cards (the fund explainer's five-row table
    fits a roomier slide whole, its rows set tight, and split 2 | 3 on legible ones);
    then the cards before the last left under `SPARSE` full (a section of a heading and a
    three-item list 16 px too tall to join the two-minute rule's quote on a legible slide
    left that one 35 % full). `measures`: each page's `measure`, when the caller has them."""
    measures = measured(pages, measures)
    broken = sum(len(page.fit.broken) for page in pages if page.fit is not None)
    broken += sum(page.fit.hidden for page in pages if page.fit is not None)  # cut short
    last = measures[-1] if len(pages) > 1 else None
    # a block far taller than a slide splits at any zoom the ladder tries (its smallest
    # zoom gives 13 % more room, a table's tight rows 30 % less height): no fault of one
    room = _room(pages)
    split = sum(tall <= BEYOND * room for tall in split_heights(pages, _UNITS))
    stub = last is not None and last.fill < LAST_FULL_ENOUGH
    before_last = zip(pages[:-1], measures[:-1], strict=True)
    sparse = sum(_sparse(page, quality) for page, quality in before_last)
    return broken + stub + split, sparse


def measured(pages: list[Page], measures: list[Quality | None] | None) -> list[Quality | None]:
    """Each page's `measure`: `measures` when given, else made now. A set is weighed by
    several counts that each read every card's measure (`slide_faults`): made once, not
    once a count (a third of a slide set's layout went to measuring its cards three times)."""
    return [measure(page) for page in pages] if measures is None else measures


def _bare(pages: list[Page]) -> bool:
    """Whether the first card holds the post's title alone, no lead (a deck's title slide,
    `pagebreaks.paged`'s `cover`): the recipe takes three slides at 2.45 rather than a
    cover and three at the legible 2.61."""
    first = pages[0]
    rows = first.rows if len(pages) > 1 and first.width > first.height else ()
    return bool(rows) and opens_section(rows[0].row) and title_only([p.row for p in rows])


def _sparse(page: Page, quality: Quality | None, under: float = 0.0) -> bool:
    """A card before the last (its `measure`: `quality`) left under `SPARSE` full (or
    `under`), not set in its middle, or set so only as a statement (`Fit.statement`: a
    slide of one short section, composed; the ladder still weighs what it leaves empty,
    else 109 of 810 decks took a larger zoom and a slide or two more). A panel gone on under
    its section's heading (`Fit.continued`) is weighed as the plate it was (`plates`)."""
    if quality is None or page.fit is None:
        return False
    composed = (page.fit.offset > 0 and not page.fit.statement) or page.fit.continued
    return not composed and quality.fill < (under or SPARSE)


def slide_faults(pages: list[Page], strands: bool = True) -> tuple[int, int]:
    """What a designer would hold against a set of slides: `set_faults`, and with the cards
    half empty each card before the last that cuts a code block short under `CODE_FULL`
    (`cut_short`), each counted twice; once more each slide before the last under `SLIDE_HOLE`,
    and once a title slide that holds the title alone (`_bare`). A cover is a slide more,
    so a zoom whose set needs none wins, but it reads as the deck's cover, where a slide
    half empty does not; of two sets each with a slide half empty, the one without a hole
    wins (notebook's edge cases: six slides at 2.56, one 38 % full, or five at 2.5, the
    emoji line, the lead-in and its nested list sharing slide 2, one 54 %). Once more a
    short post's second slide under `SPARSE` (`_two`), a last slide that holds alone the
    end of the section the slide before began (`_tail_last`) and, with `strands`, each slide
    that opens with a section's short end (`stranded_tails`): a zoom whose deck gives
    each section its slides wins (an essay's five habits); twice each slide that parts a run
    of parallel items (`parted_items`)."""
    measures = measured(pages, None)
    broken, sparse = set_faults(pages, measures)
    before_last = zip(pages[:-1], measures[:-1], strict=True)
    holes = sum(_sparse(page, quality, SLIDE_HOLE) for page, quality in before_last)
    late = _two(pages, measures) + _tail_last(pages, measures) + split_paragraphs(pages)
    late += stranded_tails(pages) if strands else 0
    late += 2 * parted_items(pages)
    return broken, 2 * (sparse + cut_short(pages, measures)) + holes + _bare(pages) + late


def parted_items(pages: list[Page]) -> int:
    """The slides that end inside a run of parallel items (`breakrules.parallel_items`:
    paragraphs with run-in heads): the page breaker prices such a break
    (`breakprices.PARALLEL_PARTED`) within one zoom, and so does the ladder across zooms:
    the exam plan's three scoring items split 2 | 1 over two half-empty slides at the
    larger zoom in 15 theme-modes at 1600x900 (ninth look), where a rung smaller holds
    the heading and all three on one slide and the quote closes on its own. Counted twice
    (`slide_faults`), once for each slide it leaves part-empty: pop-art's deck tied a
    parting with the quote alone on the last slide (`_tail_last`), and kept the larger zoom."""
    rows = [placed.row for page in pages for placed in page.rows]
    parallel = parallel_items(rows)
    ends = accumulate(len(page.rows) for page in pages[:-1])
    return sum(end in parallel for end in ends)


def split_paragraphs(pages: list[Page]) -> int:
    """The paragraphs split over slides that one slide holds with room to spare (under
    `PARAGRAPH_WHOLE` of it): a deck read slide by slide loses the sentence at each such
    break (the essay at 1600x900 cut "and exclusion was / dangerous." over two slides with
    room left on the first, where 0.92 of the zoom sets every paragraph whole)."""
    room = _room(pages)
    return sum(tall <= PARAGRAPH_WHOLE * room for tall in split_heights(pages, ("Paragraph",)))


def _room(pages: list[Page]) -> float:
    """The least content box height of the set's cards."""
    return min((page.fit.room for page in pages if page.fit is not None), default=0.0)


def split_heights(pages: list[Page], kinds: tuple[str, ...] | None = None) -> list[float]:
    """How tall each top-level block of `kinds` (None: of any kind) is that the set splits
    over cards."""
    first: dict[tuple[str, int], int] = {}
    tall: dict[tuple[str, int], float] = {}
    split: set[tuple[str, int]] = set()
    for number, page in enumerate(pages):
        for placed in page.rows:
            block = placed.row.source[:1]
            if not block or (kinds is not None and block[0][0] not in kinds):
                continue
            tall[block[0]] = tall.get(block[0], 0.0) + placed.row.height
            if first.setdefault(block[0], number) != number:
                split.add(block[0])
    return [tall[block] for block in split]


PARAGRAPH_WHOLE = 0.8


def _two(pages: list[Page], measures: list[Quality | None]) -> bool:
    """A deck of two slides whose second is under `SPARSE` full: a short post a rung or two
    smaller sets on one slide (nature's Tokyo and Seoul cafés: the Seoul heading and its one
    line alone on slide 2, 29 % full, where 0.92 of the type holds both on one)."""
    last = measures[-1] if len(pages) == 2 else None
    return last is not None and last.fill < SPARSE


def _tail_last(pages: list[Page], measures: list[Quality | None]) -> bool:
    """Whether the last of two or more slides, under `SPARSE` full, holds only whole
    blocks that end the section whose heading the slide before holds: art-deco's Chengdu
    guide at 2.68 left Day 3's two closing lines alone on a fifth slide, 28 % full, where
    2.57 sets the guide on four full ones. (A paragraph or list read on from the slide
    before, or a long section's last slide, is what a legible zoom pays with.)"""
    last = measures[-1] if len(pages) > 1 and pages[-1].rows else None
    if last is None or last.fill >= SPARSE or opens_section(pages[-1].rows[0].row):
        return False
    before = pages[-2].rows
    if not before or reads_on(before[-1].row, pages[-1].rows[0].row):
        return False
    return any(opens_section(placed.row) for placed in before)


def cut_short(pages: list[Page], measures: list[Quality | None] | None = None) -> int:
    """The cards before the last that end inside a code block the next card goes on with,
    filled at least `SPARSE` (those are counted already) and under `CODE_FULL`: with its
    code at the body's size a slide holds eight or nine lines, and typewriter's asyncio
    tutorial ended its second slide, 56 % full, after the heading and two import lines
    (the function after them, a chain of lines that open blocks, went whole to the
    next). A smaller zoom of the ladder set the heading, the imports and the function on
    one slide 91 % full. `measures`: each page's `measure`, when the caller has them."""
    count = 0
    measures = measured(pages, measures)
    for (page, after), quality in zip(pairwise(pages), measures[:-1], strict=True):
        if quality is None or page.fit is None or page.fit.offset > 0 or not page.rows:
            continue
        if SPARSE <= quality.fill < CODE_FULL and _goes_on(page, after):
            count += 1
    return count


def _goes_on(page: Page, after: Page) -> bool:
    """Whether `page` ends inside a code block that `after` goes on with."""
    last = page.rows[-1].row
    going_on = bool(after.rows) and reads_on(last, after.rows[0].row)
    return going_on and last.source[0][0] == "CodeBlock"


BEYOND = 1.6  # a block of `_UNITS` this many slides tall splits whatever the zoom
CODE_FULL = 0.75  # the report's `FULL_ENOUGH`: a card under it shows a hole
SPARSE = 0.55  # bench_quality's card left half empty before the last
SLIDE_HOLE = 0.4  # a card before the last under this reads as a hole, not a near miss
# Blocks read as one: split over slides, they read as two (a quote or callout as two boxes:
# the 12 notes' opening quote split 2 | 2 over pop-art's first two slides).
_UNITS = ("Table", "CodeBlock", "Callout", "Quote")


def stranded_tails(pages: list[Page]) -> int:
    """The cards that open with the end of the section before (`Fit.stranded`, read by
    `breakrules.opens_stranded`): traditional-chinese's Chengdu guide opened card 2 with
    Day 1's tip, a quote 2 px too tall to end card 1, above Day 2's heading; its English
    notes at 0.98 cleared a half-empty card 2 but opened card 3 with the quote that ends
    card 2's section."""
    return sum(page.fit.stranded for page in pages if page.fit is not None)
