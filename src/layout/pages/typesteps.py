"""A portrait or square set of cards → the type step it is set at: the theme's own, a
little smaller where that clears a fault, a little larger where a short post is spread thin.

A card of the 3:4 default's shape keeps the theme's type (zoomed with the card, compose.py)
unless its set has a fault a slightly smaller step clears (`type_ladder`, `fault_free`:
a section's end stranded atop a card, a card half empty before the last, a short last
card), or is a short post spread thin over cards each half empty, leaves room on a
card before the last or ends its full cards on a short one (`grown_type`): a designer
sets a post larger to fill the cards it takes, as a one-card post is composed for its
length (short.py), never to spread it over more, and never so far that a line of code
wraps (`code_steps`). `settled_type` runs
them in that order for compose, and prefers the larger type where a step down would only
save a card and still leave a flaw.
"""

from __future__ import annotations

from collections.abc import Callable

from ..base.boxes import Page
from ..style.resolver import Styles
from .fitting import OVER_A_LIMIT, TYPE_STEPS, set_score
from .quality import FULL_ENOUGH, OPENING_FULL_ENOUGH, READABLE_PX, Quality, measure
from .setting.covered import masthead_wanted
from .setting.short import larger_type
from .zoom import SPARSE, best_zoom, measured, set_faults, split_heights, stranded_tails

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
    if card_faults(pages, measures) == (0, 0) and not _flawed(pages, measures):
        return []
    return _steps_down(measures)


def card_faults(pages: list[Page], measures: list[Quality | None] | None = None) -> tuple[int, int]:
    """What a designer holds against a set of portrait or square cards: a slide's faults
    (`set_faults`), and with the cards half empty, each card that opens with a section's
    stranded end (`stranded_tails`). `measures`: each page's `measure`, when the caller
    has them."""
    broken, sparse = set_faults(pages, measures)
    return broken, sparse + stranded_tails(pages)


def _title_apart(pages: list[Page], measures: list[Quality | None]) -> bool:
    """Whether the first of two or more cards holds the title and lead alone, under
    `SPARSE` full: the section under them could not join them (cyberpunk's recipe at
    440x586 keeps its table's tip on card 2 so, where 0.96 of the type holds the post on
    two full cards, every section whole)."""
    first = pages[0].fit if len(pages) > 1 else None
    quality = measures[0]
    return first is not None and first.title and quality is not None and quality.fill < SPARSE


def short_last(pages: list[Page], measures: list[Quality | None] | None = None) -> bool:
    """Whether the last card of a set of two or more is under `SPARSE` full: pop-art's
    book list at 440x586 left its table and closing question alone on a third card.
    `measures`: each page's `measure`, when the caller has them."""
    if len(pages) < 2:
        return False
    last = measures[-1] if measures is not None else measure(pages[-1])
    return last is not None and last.fill < SPARSE


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
    floor = set_score(pages, measures)
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
        lower = set_score(trial, scored) < floor
        worse = sparse + lower + (fewer and len(trial) >= len(pages))
        # of the steps that save a card, one that leaves no short last card nor a title
        # card alone wins (pop-art's recipe at 440x586: 0.98 saved its cover and left a
        # last card 45 % full, 0.96 sets it on two full cards)
        flaw = fewer and _flawed(trial, scored)
        return broken, 2 * worse + flaw

    try:
        trial, step = best_zoom(lay_out, steps, faults)
    except OVER_A_LIMIT:
        return pages, 1.0
    broken, worse = faults(trial)
    return (trial, step) if broken == 0 and worse < 2 else (pages, 1.0)


# A card before the last filled under this (its next block, a table, 2 px too tall to join
# it) is a hole a step of the type ladder may close: the workout post's card 1 (title, lead
# and warm-up, 60-65 %) with its table on card 2 read a third empty in 23 theme-modes at
# 440x586 and 1080x1440 (seventh look: "move the table up onto card 1"). Where no step
# down closes it, a step up may fill it (`grown_type`, from `ROOMY` up).
OPEN = 0.7
# A card before the last filled under this leaves a fifth of its room or more, which a
# designer fills by setting the post larger where its cards hold it (`grown_type`):
# business's English habits at 500x500, 74 | 71 | 74 | 88 %, "small text with the bottom
# third empty" (twelfth look), set 78 | 86 | 97 | 97 % at 1.2.
ROOMY = 0.8

# A set of two or more cards filled on average less than this is a short post spread thin
# (the Kyoto cafés at 1080x1440: two cards 72 and 56 % full, the lower third of each
# blank, in 28 of 30 theme-modes of the sixth look): it tries `GROW_STEPS`, largest first,
# as far up as a one-card post is composed (`short.STEPS`, 1.25) but a step short of it,
# since its cards turn, and keeps the first that fills its cards better on as many.
THIN = 0.7
GROW_STEPS = (1.2, 1.15, 1.1, 1.05)
# A set whose last card is filled under this, its cards before full, ends short: coil-notebook's
# reading notes at 440x586 and 1080x1440, 95 | 72 | 52 %, the lower half of the last card
# blank (tenth look, rated 3), 0.73 full on average and no card open, where 1.15 sets them
# 98 | 86 | 98 %. It tries `GROW_STEPS` too, and keeps the first whose last card is fuller.
SHORT_END = 0.6
# A grown set may leave no card before the last under this (the report's `FULL_ENOUGH`)
# that was not so before: business's recipe at 1.1 moved its table's tip up and left the
# ingredients alone on card 1, 64 % full, for a last card 93 % full.
HOLE = 0.75
# A grown set keeps its smallest text, a figure's labels too, at this share of the theme's
# type's or more: larger text that draws a figure smaller to make room set the mixed post's
# funnel labels 7-9 % smaller beside text 20 % larger (apple-notes, art-deco at 440x586),
# where the exam plan's gantt at 500x500 gives 4 % for a title card 48 → 68 % full.
SMALLEST_KEPT = 0.95


def grown_type(
    lay_out: Callable[[float], list[Page]], pages: list[Page]
) -> tuple[list[Page], float]:
    """`pages` (laid out at the theme's own type, 1.0) or, where they are a short post
    spread thin (`THIN`), leave room on a card before the last (not a title card:
    `ROOMY`) or end on a short last card (`SHORT_END`), the set `lay_out(step)` makes at
    the first of `GROW_STEPS` that fills its cards better on as many cards (and the open
    card, or else the short last card, fuller), with no fault
    (`card_faults`), no short last card, no title card alone, no new hole before the last
    (`HOLE`), no more blocks parted over cards (`_parted`), no code line wrapped that was
    whole (`code_lines`) and a quality score no lower; and its step. The English book notes
    at 440x586, 0.72 full on average, set their middle card 49-60 % full in 13 themes."""
    measures = measured(pages, None)
    thin = _mean_fill(measures)
    open_card = _least_before_last(pages, measures, titles=False)
    last = _last_fill(pages, measures)
    if len(pages) < 2 or (thin >= THIN and open_card >= ROOMY and last >= SHORT_END):
        return pages, 1.0
    floor = set_score(pages, measures)
    hole = min(HOLE, _least_before_last(pages, measures))
    parted, code, smallest = _parted(pages), code_lines(pages), _smallest(measures)
    tried: dict[float, list[Page] | None] = {}

    def at(step: float) -> list[Page] | None:
        if step not in tried:
            try:
                tried[step] = lay_out(step)
            except OVER_A_LIMIT:
                tried[step] = None
        return tried[step]

    for step in GROW_STEPS:
        trial = at(step)
        if trial is None:
            continue
        if len(trial) > len(pages):
            # larger type never takes fewer cards: where the least step takes more, so
            # does every step between (the long article's 1.15 and 1.1, laid out for naught)
            least = at(GROW_STEPS[-1])
            if least is not None and len(least) > len(pages):
                break
            continue
        scored = measured(trial, None)
        if len(trial) != len(pages) or _mean_fill(scored) <= thin:
            continue
        if _parted(trial) > parted or code_lines(trial) > code:
            continue
        if _smallest(scored) < smallest * SMALLEST_KEPT:
            continue
        if thin >= THIN and open_card < ROOMY:
            if _least_before_last(trial, scored, titles=False) <= open_card:
                continue
        elif thin >= THIN and _last_fill(trial, scored) <= last:
            continue
        flawed = _flawed(trial, scored)
        if card_faults(trial, scored) != (0, 0) or flawed:
            continue
        # a short end may be mended by a masthead's card; a close set in its middle not
        filled = _least_hole(trial, scored, masthead=last < SHORT_END)
        if filled >= hole and set_score(trial, scored) >= floor:
            return trial, step
    return pages, 1.0


def _smallest(measures: list[Quality | None]) -> float:
    """The post's smallest text on a phone, a figure's labels too (`Quality.smallest_text`):
    larger type that draws a figure smaller to make room sets its labels under the body
    they stood beside (`SMALLEST_KEPT`)."""
    return min((q.smallest_text for q in measures if q is not None), default=0.0)


def _least_hole(pages: list[Page], measures: list[Quality | None], *, masthead: bool) -> float:
    """`_least_before_last`, but with `masthead` for a first card its masthead will fill
    (`masthead_wanted`, filled at least `OPENING_FULL_ENOUGH` before it): at 1.05 the home
    workout in warm moved its table onto card 2, leaving card 1's title, lead and warm-up
    60 % full, which their masthead sets 74 % (apple-notes' 75 | 100 %, rated 5), where
    the theme's type had left the last card 52 % full (tenth look, rated 3)."""
    first = measures[0]
    full = first is not None and first.fill >= OPENING_FULL_ENOUGH
    if masthead and full and masthead_wanted(pages):
        return _least_before_last(pages[1:], measures[1:])
    return _least_before_last(pages, measures)


def _last_fill(pages: list[Page], measures: list[Quality | None]) -> float:
    """How full the last card is where it hangs at the top of its box; 1 where it is set
    in its middle as the post's close (`centring.is_closing_card`: the recipe's tips at
    34-38 %, rated 4, where the steps moved up to fill it left card 1 ending after the
    ingredients 59 % full) or is not measured."""
    last, quality = pages[-1], measures[-1]
    if quality is None or last.fit is None or last.fit.offset > 0:
        return 1.0
    return quality.fill


def _mean_fill(measures: list[Quality | None]) -> float:
    """How full the measured cards are on average (1 where none is measured)."""
    fills = [quality.fill for quality in measures if quality is not None]
    return sum(fills) / len(fills) if fills else 1.0


def _least_before_last(
    pages: list[Page], measures: list[Quality | None], *, titles: bool = True
) -> float:
    """How full the emptiest measured card before the last is (1 where there is none);
    without `titles`, of those that do not hold the title and lead alone (`Fit.title`)."""
    fills = [
        quality.fill
        for page, quality in zip(pages[:-1], measures[:-1], strict=True)
        if quality is not None and (titles or not (page.fit is not None and page.fit.title))
    ]
    return min(fills, default=1.0)


def _parted(pages: list[Page]) -> int:
    """How many of the post's blocks the set parts over two or more cards: business's
    recipe at 1.1 filled its last card by parting the four steps 2 | 2, where the theme's
    own type holds them whole on card 1 and sets the closing section alone on card 2."""
    return len(split_heights(pages))


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
    if len(pages) < 2 or _least_before_last(pages[start:], measures[start:], titles=False) >= OPEN:
        return pages, 1.0
    floor, parted = set_score(pages, measures), _parted(pages)
    for step in _steps_down(measures):
        try:
            trial = lay_out(step)
        except OVER_A_LIMIT:
            continue
        scored = measured(trial, None)
        if len(trial) != len(pages) or card_faults(trial, scored) != (0, 0):
            continue
        if _parted(trial) > parted or _titled(trial) > _titled(pages):
            continue
        filled = _least_before_last(trial, scored, titles=False) >= FULL_ENOUGH
        if filled and set_score(trial, scored) >= floor:
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
    apart or a short last card (`_flawed`) gives way to the larger type where that
    clears the set: pop-art's exam plan at 440x586 took 0.94 for its title alone 46 %
    full and a last card crammed 98 %, where 1.2 sets four cards 63-84 % full."""
    stepped, step = fault_free(at_step, pages, type_ladder(pages))
    if step == 1.0:
        stepped, step = closed_holes(at_step, pages)
    if step != 1.0 and (card_faults(pages) != (0, 0) or not _flawed(stepped)):
        return stepped, step, styles
    grown, larger = larger_styles(set_as, styles, pages)
    if step != 1.0 and grown is pages:
        return stepped, step, styles
    return grown, 1.0, larger


def _flawed(pages: list[Page], measures: list[Quality | None] | None = None) -> bool:
    """Whether the set has a short last card (`short_last`) or its title card alone
    (`_title_apart`); `measures`: each page's `measure`, when the caller has them."""
    measures = measured(pages, None) if measures is None else measures
    return short_last(pages, measures) or _title_apart(pages, measures)


def larger_styles(
    set_as: Callable[[Styles], list[Page]], styles: Styles, pages: list[Page]
) -> tuple[list[Page], Styles]:
    """`grown_type` over the sets `set_as` makes in `styles` set larger
    (`short.larger_type`): `pages` and `styles`, or the grown set and its styles. Code
    grows with a step only as far as its lines stay whole (`code_steps`): they are the
    writer's, not the measure's."""
    made: dict[float, Styles] = {}
    wrapped = float("inf")  # the least code step seen to wrap a code line
    whole = code_lines(pages)  # the code's rows at the theme's own type

    def in_larger_type(step: float) -> list[Page]:
        nonlocal wrapped
        for code in code_steps(step, wrapped):
            made[step] = larger_type(styles, step, code=code)
            trial = set_as(made[step])
            if code_lines(trial) <= whole:
                return trial
            wrapped = min(wrapped, code)
        return trial

    grown, step = grown_type(in_larger_type, pages)
    return grown, made.get(step, styles)


def code_steps(step: float, wrapped: float) -> list[float]:
    """The steps a grown set's code blocks try, largest first, where `step` would wrap
    their lines: `step` itself, each of `GROW_STEPS` under it, and their own size; none at
    or over `wrapped`, the least code step seen to wrap a line at any step of the text (a
    code block's measure is the card's whatever the text's size)."""
    steps = [step, *(lower for lower in GROW_STEPS if lower < step)]
    return [code for code in steps if code < wrapped] + [1.0]


def code_lines(pages: list[Page]) -> int:
    """How many lines the set's code blocks take (a diagram's fence is a figure): their
    lines are the writer's, not the measure's, and a step that wraps one more is refused
    (the Python tips at 500x500 and 1.2 wrapped three of their eight lines, under a wrap
    mark, to fill a card a cover left)."""
    return sum(
        1
        for page in pages
        for placed in page.rows
        if placed.row.source[:1]
        and placed.row.source[0][0] == "CodeBlock"
        and not placed.row.figure
    )


def _titled(pages: list[Page]) -> bool:
    """Whether the first card holds the title and lead alone (`Fit.title`): a step that
    makes one holds its hole as a cover, not as a fuller card (the brand kit's post at
    0.98 set its title alone and parted each of its three paragraphs over two cards)."""
    return pages[0].fit is not None and pages[0].fit.title
