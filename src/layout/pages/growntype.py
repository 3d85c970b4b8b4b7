"""A portrait or square set of cards → the same post set a step larger, where its cards
leave room: a short post spread thin over cards each half empty, a card before the last
left a fifth empty, full cards that end on a short one (`grown_type`). A designer sets a
post larger to fill the cards it takes, as a one-card post is composed for its length
(short.py), not to spread it over more; but a set left uneven, a card open beside one
crammed to its footer, takes a card more where a larger step evens it (`CRAMMED`). Code
grows only while its lines stay whole (`code_steps`), and no figure is drawn much smaller
(`SMALLEST_KEPT`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..base.boxes import Page
from ..style.resolver import Styles
from .fitting import OVER_A_LIMIT, set_score
from .quality import OPENING_FULL_ENOUGH, Quality
from .setfaults import OPEN, blocks_parted, card_faults, flawed, least_before_last
from .setting.covered import masthead_wanted
from .setting.short import larger_type
from .zoom import measured

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
# A set with a card before the last filled under `ROOMY` beside one filled over this is
# uneven, a card left open next to one crammed to its footer: the home workout at 440x586,
# its masthead card 73-75 % full over a table, notes and quote 98-100 % (all but two of 30
# theme-modes rated 4 for it, thirteenth look), the FAQ at 500x500 in warm, 50 | 69 | 99 |
# 99 % at the theme's type. Where no grown step on as many cards clears it, a step one card
# longer may (`_evened`).
CRAMMED = 0.95


def grown_type(
    lay_out: Callable[[float], list[Page]], pages: list[Page]
) -> tuple[list[Page], float]:
    """`pages` (laid out at the theme's own type, 1.0) or, where they are a short post
    spread thin (`THIN`), leave room on a card before the last (not a title card:
    `ROOMY`) or end on a short last card (`SHORT_END`), the set `lay_out(step)` makes at
    the first of `GROW_STEPS` that fills its cards better on as many cards (and the open
    card, or else the short last card, fuller), with no fault
    (`card_faults`), no short last card, no title card alone, no new hole before the last
    (`HOLE`), no more blocks parted over cards (`blocks_parted`), no code line wrapped that was
    whole (`code_lines`) and a quality score no lower; and its step. The English book notes
    at 440x586, 0.72 full on average, set their middle card 49-60 % full in 13 themes.
    Where none is, a set left uneven (`CRAMMED`) takes the first step one card longer that
    evens it (`_evened`)."""
    measures = measured(pages, None)
    thin = _mean_fill(measures)
    open_card = least_before_last(pages, measures, titles=False)
    last = _last_fill(pages, measures)
    if len(pages) < 2 or (thin >= THIN and open_card >= ROOMY and last >= SHORT_END):
        return pages, 1.0
    floor = set_score(pages, measures, crowding=False)
    crammed = _uneven(pages, measures)
    hole = min(HOLE, least_before_last(pages, measures))
    parted, code, smallest = blocks_parted(pages), code_lines(pages), _smallest(measures)
    tried: dict[float, list[Page] | None] = {}
    evened: tuple[list[Page], float] | None = None

    def at(step: float) -> list[Page] | None:
        if step not in tried:
            try:
                tried[step] = lay_out(step)
            except OVER_A_LIMIT:
                tried[step] = None
        return tried[step]

    def kept(trial: list[Page], scored: list[Quality | None]) -> bool:
        """What any grown set keeps: no block more parted, no code line wrapped, the
        smallest text, no fault, no flaw and a score no lower."""
        if blocks_parted(trial) > parted or code_lines(trial) > code:
            return False
        if _smallest(scored) < smallest * SMALLEST_KEPT:
            return False
        if card_faults(trial, scored) != (0, 0) or flawed(trial, scored):
            return False
        return set_score(trial, scored, crowding=False) >= floor

    for step in GROW_STEPS:
        trial = at(step)
        if trial is None:
            continue
        if len(trial) > len(pages):
            if crammed and evened is None and _evened(trial, pages, measures, kept):
                evened = (trial, step)  # taken only where no step on as many cards is
            # larger type never takes fewer cards: where the least step takes more, so
            # does every step between (the long article's 1.15 and 1.1, laid out for naught)
            least = at(GROW_STEPS[-1])
            if least is not None and len(least) > len(pages):
                break
            continue
        scored = measured(trial, None)
        if len(trial) != len(pages) or _mean_fill(scored) <= thin:
            continue
        if thin >= THIN and open_card < ROOMY:
            if least_before_last(trial, scored, titles=False) <= open_card:
                continue
        elif thin >= THIN and _last_fill(trial, scored) <= last:
            continue
        # a short end may be mended by a masthead's card; a close set in its middle not
        filled = _least_hole(trial, scored, masthead=last < SHORT_END)
        if filled >= hole and kept(trial, scored):
            # a step that leaves the set uneven gives way to one a card longer that evens it
            still = crammed and _uneven(trial, scored)
            return evened if still and evened is not None else (trial, step)
    return evened or (pages, 1.0)


def _filled_cards(pages: list[Page], measures: list[Quality | None]) -> list[float]:
    """How full each measured card is, but one holding the title and lead alone (a cover
    is composed in its card's middle, `Fit.title`)."""
    fills = [
        quality.fill
        for page, quality in zip(pages, measures, strict=True)
        if quality is not None and not (page.fit is not None and page.fit.title)
    ]
    return fills or [1.0]


def _uneven(pages: list[Page], measures: list[Quality | None]) -> bool:
    """Whether a card before the last (not a title card) is filled under `ROOMY` and a
    card `CRAMMED`."""
    open_card = least_before_last(pages, measures, titles=False)
    return open_card < ROOMY and max(_filled_cards(pages, measures)) >= CRAMMED


def _evened(
    trial: list[Page],
    pages: list[Page],
    measures: list[Quality | None],
    kept: Callable[[list[Page], list[Quality | None]], bool],
) -> bool:
    """Whether `trial` (a grown step one card longer than `pages`) evens an uneven set
    (`CRAMMED`): no card before the last under `OPEN` nor the last under `SHORT_END`
    (a last card is the post's end, and may end sooner), not uneven itself (a full card
    beside none open is a full set: its gaps, not its table rows, fitting a card leave
    it 98 % full), its fullest and emptiest cards nearer than the set's, and what `kept`
    asks of any grown set (no fault, no flaw, nothing more parted or wrapped, the
    smallest text kept, a score no lower). The FAQ in warm at 500x500 sets a cover and
    four cards 72-91 % full at 1.2, each pair of questions on its card; the home workout
    in nature 78 | 70 | 81 %, its table on a card of its own, and in apple-notes 79 | 73 |
    67 %."""
    if len(trial) != len(pages) + 1:
        return False
    scored = measured(trial, None)
    fills, before = _filled_cards(trial, scored), _filled_cards(pages, measures)
    spread = max(fills) - min(fills) < max(before) - min(before)
    filled = least_before_last(trial, scored, titles=False) >= OPEN
    ends = _last_fill(trial, scored) >= SHORT_END
    return filled and ends and not _uneven(trial, scored) and spread and kept(trial, scored)


def _smallest(measures: list[Quality | None]) -> float:
    """The post's smallest text on a phone, a figure's labels too (`Quality.smallest_text`):
    larger type that draws a figure smaller to make room sets its labels under the body
    they stood beside (`SMALLEST_KEPT`)."""
    return min((q.smallest_text for q in measures if q is not None), default=0.0)


def _least_hole(pages: list[Page], measures: list[Quality | None], *, masthead: bool) -> float:
    """`least_before_last`, but with `masthead` for a first card its masthead will fill
    (`masthead_wanted`, filled at least `OPENING_FULL_ENOUGH` before it): at 1.05 the home
    workout in warm moved its table onto card 2, leaving card 1's title, lead and warm-up
    60 % full, which their masthead sets 74 % (apple-notes' 75 | 100 %, rated 5), where
    the theme's type had left the last card 52 % full (tenth look, rated 3)."""
    first = measures[0]
    full = first is not None and first.fill >= OPENING_FULL_ENOUGH
    if masthead and full and masthead_wanted(pages):
        return least_before_last(pages[1:], measures[1:])
    return least_before_last(pages, measures)


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
