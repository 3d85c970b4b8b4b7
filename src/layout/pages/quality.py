"""A laid-out card → the engine's own measure of it: what a designer would check first.

`measure` reads a `Page` (its rows, its items in paint order and the `Fit` compose left on
it) and reports how full its content box is, its tallest empty band, whether it hid
anything, the smallest of the post's text as a 360-px-wide phone shows it (words, not
marks such as a list's number on its badge), its least readable text against what is
painted under it, its loosest justified line (the most justification added to a gap
between two characters), the page-break rules its end breaks, whether it opens with the
short end of the section before, how layout changed the
author's blocks to fit (`Row.note`), and a 0–100 score. Nothing is drawn: a card is measured in
well under a millisecond.

The least contrast of its text against what is painted under it is `inkcontrast.py`'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..base.boxes import (
    Cached,
    Fit,
    GlyphRun,
    Group,
    Item,
    Layer,
    Page,
)
from ..blocks.panels import COLUMNS_WRAPPED
from ..diagrams.marks import SHRUNK_LABEL
from ..limits import DEFAULT_WIDTH
from ..text.inline import LOOSE_GAP
from .breaks.squeeze import SET_TIGHT
from .inkcontrast import lowest_contrast

PHONE_WIDTH = 360.0  # CSS px: the narrowest phone a card is commonly looked at on
# What costs a card its points (`score`): each the level below which a designer would act.
FULL_ENOUGH = 0.75  # a card before the last filled less than this shows a hole (55 %: abandoned)
LAST_FULL_ENOUGH = 0.2  # a last card under this is a stub
# The last of the cards autoSplit cut a post into, under this, reads as left over: it loses
# `LAST_WEIGHT` a percent (a stub under `LAST_FULL_ENOUGH` a point a percent more). A
# closing question alone on a third card at 35 % was rated 4/5 and scored 100.
LAST_SHORT = 0.5
LAST_WEIGHT = 0.4
SECTION_FULL_ENOUGH = 0.45  # a card ending its section (a heading next) may end this early
# ... but not the post's first card, its face: the recipe's title and four ingredients
# ended card 1 at 45-54 % in 14 theme-modes (rated 3/5, "the bottom half empty") where its
# steps fit under them and the tips closed the post at 34-38 % (rated 4)
OPENING_FULL_ENOUGH = 0.55
# A title card set in its middle reads as the post's cover, but under this share it is also
# a card left half empty before the last (pop-art's 41 % fund title card, rated 4/5, scored
# 100): it pays half what a card at the top would, the composition earning the other half.
TITLE_FULL_ENOUGH = 0.55
TITLE_WEIGHT = 50
# A title card left at the theme's size (`Fit.title`, not `Fit.cover`) is not composed: under
# `FULL_ENOUGH` it loses a point a percent as any card before the last, its section-end
# allowance and its centring notwithstanding (pop-art's skincare title and lead, 57 % full
# in its middle, rated 4/5, scored 100: now 82; as a cover, 65 % full, 100).
# A card before the last at the top of its box (not a title card) filled under this shows
# room a designer fills, though it be no hole: it loses `ROOM_WEIGHT` points a percent
# under it. The thirteenth look rated 4 the sets whose emptiest such card was 20-30 %
# empty ("card 2 (Q1 only) ~25% empty at the bottom", the exam plan's card 3 at 500x500 in
# 18 theme-modes) and 5 those whose cards were 90 % full on average, where every card over
# `FULL_ENOUGH` scored 100: the sets' mean score ranked with the ratings at 0.25
# (Spearman), 0.62 with this and `PENALTY_TIGHT` (0.34 → 0.45 on the twelfth look's).
ROOMY_CARD = 0.85
ROOM_WEIGHT = 0.5
WIDE_BAND = 0.25  # an empty band taller than this share of the content box reads as a hole
READABLE_PX = 11.0  # smallest text a phone reader takes in without zooming (Apple: 11 pt), CSS px
# A slide (`is_slide`) is read on a laptop, a projector or a phone turned sideways as well
# as on a phone held upright, where its type must give way to its slides: zoom.py sets its
# body between 10 and this on the 360-px phone, and its text costs only under it. At
# `READABLE_PX` every slide lost 8 to 16 points for the zoom alone, and a deck set a step
# smaller to keep its sections whole scored lower than the split one the eye rated lower
# (38 of the 187 decks at 1600x900 the sixteenth and seventeenth sessions changed).
SLIDE_READABLE_PX = 9.0
# A diagram's labels are read as a figure's, smaller than its text: the engine shrinks a
# diagram to end a card down to `SHRUNK_LABEL` px on the 440-px card, 9 px on the phone
# (`blocks/diagram.py`). At `READABLE_PX` that diagram cost its card 16 points, and `fit:
# "auto"` spread the Japanese post's one full card (rated 5/5) over two half-empty ones.
LABEL_READABLE_PX = SHRUNK_LABEL * PHONE_WIDTH / DEFAULT_WIDTH
PENALTY_HIDDEN = 30
# A justified line spread past LOOSE_GAP em a gap reads as letter-spaced ("太 古 里 晚 上"):
# a designer sets it again by hand, as for a broken page-break rule.
PENALTY_LOOSE = 10
PENALTY_RULE = 10
# A card that opens with the short end of the section the card before began (`Fit.stranded`:
# a recipe's tip read atop the method's card) is fixed by hand as a broken rule is.
PENALTY_STRANDED = 10
MAX_RULES_PENALTY = 30
# A card whose table rows were set tight to hold it ("crammed down to the page number with
# compressed table rows", the home workout in nine theme-modes, thirteenth look) reads
# crammed: the squeeze spares a card or a rule, and the report says what it cost.
PENALTY_TIGHT = 5
# A plain-text block set in columns that had to wrap (`blocks.panels.COLUMNS_WRAPPED`): every
# column after the wrap is out of line, worse than the same block set small enough to keep them.
PENALTY_COLUMNS = 25


@dataclass(frozen=True, slots=True)
class Quality:
    """One card's measure (`measure`); shares are 0..1 of the content box's height."""

    score: int  # 0..100: 100 breaks nothing below
    fill: float  # the share the rows take
    empty_band: float  # the tallest band with no row: between rows, or under them before the last
    overflow: bool  # rows were hidden (overflow hidden)
    smallest_text: float  # px of the smallest text of the post at PHONE_WIDTH
    lowest_contrast: float  # WCAG ratio of the least readable text on what is under it
    broken_rules: tuple[str, ...]  # `breakrules.RULES` the card's end breaks
    notes: tuple[str, ...] = ()  # how layout changed the author's blocks to fit (`Row.note`)
    stretch: float = 0.0  # em justification added to the card's widest gap between characters
    contrast_short: float = 0.0  # how far the least readable run falls under what its size asks
    stranded: bool = False  # it opens with the short end of the section before (`Fit.stranded`)
    size_short: float = 0.0  # px the smallest text falls under what it must read at on a phone
    smallest_words: float = 0.0  # px of the smallest text that is not a figure's label
    crowding: int = 0  # of the points lost, those to room left or table rows set tight


def measure(page: Page) -> Quality | None:
    """The card's measure; None for a page compose did not lay out (a cover)."""
    fit = page.fit
    if fit is None:
        return None
    fill, band = _fill_and_band(page, fit)
    text = _post_runs(page)
    marks = _marks(page)  # once: a set of the card's marks, not one per run
    to_phone = fit.zoom * PHONE_WIDTH / page.width
    words = [size * to_phone for run, size, labels in text if not labels and id(run) not in marks]
    labels = [size * to_phone for run, size, labels in text if labels and id(run) not in marks]
    smallest = min(words + labels, default=0.0)
    lowest, short = lowest_contrast(page, {id(run) for run, _, _ in text})
    notes = tuple(dict.fromkeys(p.row.note for p in page.rows if p.row.note))
    stretch = max((p.row.stretch for p in page.rows if not p.row.decorative), default=0.0)
    readable = SLIDE_READABLE_PX if is_slide(page.width, page.height, fit.zoom) else READABLE_PX
    legible = min(readable, LABEL_READABLE_PX)
    short_px = max(_short(words, readable), _short(labels, legible))
    quality = Quality(
        0,
        fill,
        band,
        fit.hidden,
        round(smallest, 1),
        lowest,
        fit.broken,
        notes,
        stretch,
        round(short, 2),
        fit.stranded,
        round(short_px, 2),
        round(min(words, default=0.0), 1),
    )
    base = _score(quality, fit)
    crowding = min(base, round(_crowding(quality, fit)))
    return replace(quality, score=base - crowding, crowding=crowding)


def _short(sizes: list[float], least: float) -> float:
    """How far the smallest of `sizes` (phone px) falls under `least` (0: none does)."""
    return max(0.0, least - min(sizes, default=least))


def is_slide(width: float, height: float, zoom: float) -> bool:
    """Whether a card `width` x `height` drawn `zoom` times larger is a slide: wider than
    tall and zoomed (a landscape card no larger than the default keeps its theme's type)."""
    return width > height and zoom > 1.0


def _score(quality: Quality, fit: Fit) -> int:
    """100 less what each measure past its level costs (the levels above); text under
    what it must read at on the phone (`Quality.size_short`) costs 8 points a px."""
    lost = 0.0
    if quality.overflow:
        lost += PENALTY_HIDDEN
    lost += min(MAX_RULES_PENALTY, PENALTY_RULE * len(quality.broken_rules))
    if any(COLUMNS_WRAPPED in note for note in quality.notes):
        lost += PENALTY_COLUMNS
    if quality.stretch > LOOSE_GAP + 1e-6:
        lost += PENALTY_LOOSE
    if quality.stranded:
        lost += PENALTY_STRANDED
    if fit.closes:
        lost += 100 * LAST_WEIGHT * max(0.0, LAST_SHORT - quality.fill)
    enough = LAST_FULL_ENOUGH if fit.last else FULL_ENOUGH
    if fit.section_end and not fit.last:
        enough = OPENING_FULL_ENOUGH if fit.first else SECTION_FULL_ENOUGH
    if fit.title and not (fit.cover or fit.last):  # neither filled nor composed as a cover
        lost += 100 * max(0.0, FULL_ENOUGH - quality.fill)
    elif fit.offset <= 0:  # a short post or a title card set in its card's middle is composed
        lost += 100 * max(0.0, enough - quality.fill)
    elif not fit.last:  # a cover: composed, but a near-empty card before the last
        lost += TITLE_WEIGHT * max(0.0, TITLE_FULL_ENOUGH - quality.fill)
    lost += 60 * max(0.0, quality.empty_band - WIDE_BAND)
    lost += 8 * quality.size_short
    lost += 12 * quality.contrast_short
    return max(0, min(100, round(100 - lost)))


def _crowding(quality: Quality, fit: Fit) -> float:
    """What the card's room left (`ROOMY_CARD`) and its table rows set tight
    (`PENALTY_TIGHT`) cost: the report's measure of a set's evenness, which the type
    steps (typesteps.py, growntype.py) weigh by their own fill levels instead
    (`fitting.set_score`'s `crowding`)."""
    lost = PENALTY_TIGHT if any(SET_TIGHT in note for note in quality.notes) else 0.0
    if not (fit.last or fit.title) and fit.offset <= 0:
        lost += 100 * ROOM_WEIGHT * max(0.0, ROOMY_CARD - quality.fill)
    return lost


def _fill_and_band(page: Page, fit: Fit) -> tuple[float, float]:
    """The share of the content box the rows take, and its tallest empty band: between two
    rows, or, on a card before the last, under the last row (the room round a post or a
    title card set in the middle of its card is composition, and under a section's end,
    the next card opening with a heading, is where the section ends: not holes)."""
    spans = sorted((placed.y, placed.y + placed.row.height * placed.scale) for placed in page.rows)
    if not spans or fit.room <= 0:
        return 0.0, 1.0 if not fit.last else 0.0
    top, bottom = spans[0][0], max(end for _, end in spans)
    band, reach = 0.0, spans[0][1]
    for start, end in spans[1:]:
        band = max(band, start - reach)
        reach = max(reach, end)
    if not (fit.last or fit.section_end) and fit.offset <= 0:
        band = max(band, fit.room - fit.offset - bottom)
    return min(1.0, (bottom - top) / fit.room), max(0.0, band / fit.room)


def _post_runs(page: Page) -> list[tuple[GlyphRun, float, bool]]:
    """The glyph runs of the post's text, each with its size on the virtual card and
    whether it is a diagram's label (`Group.labels`): the rows' runs, theme ornaments
    (decorative rows) and page chrome (header, page number) left out, since a theme's
    chrome is its designer's choice and is held by the theme's own tests."""
    return [
        (run, run.size * scale * placed.scale, labels)
        for placed in page.rows
        if not placed.row.decorative
        for run, scale, labels in _runs(placed.row.items, 1.0, False)
    ]


def _marks(page: Page) -> set[int]:
    """The ids of the runs of the post's marks (`Group.mark`: a list's number on its
    badge), read by their shape and place rather than word by word: a 1600x900 slide's
    badge digits read 6.9 px on a phone in a disc whose number no reader spells out, and
    cost the slide 33 points a designer would not take off. Their contrast still counts."""
    return {id(run) for placed in page.rows for run in _marked(placed.row.items, False)}


def _marked(items: tuple[Item, ...], inside: bool) -> Iterator[GlyphRun]:
    for item in items:
        if isinstance(item, GlyphRun):
            if inside:
                yield item
        elif isinstance(item, Group):
            yield from _marked(item.items, inside or item.mark)
        elif isinstance(item, Layer | Cached):
            yield from _marked(item.items, inside)


def _runs(
    items: tuple[Item, ...], scale: float, labels: bool
) -> Iterator[tuple[GlyphRun, float, bool]]:
    for item in items:
        if isinstance(item, GlyphRun):
            if item.glyphs:
                yield item, scale, labels
        elif isinstance(item, Group):
            if not item.ornament:  # a bullet's glyph is no text
                yield from _runs(item.items, scale * item.scale, labels or item.labels)
        elif isinstance(item, Layer | Cached):
            yield from _runs(item.items, scale, labels)
