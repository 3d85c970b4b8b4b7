"""Rows + a card height → the set of card breaks that reads best, chosen over the whole post.

Every place between two rows is a possible break. A card running from one break to the
next costs what a book designer would charge for it, and the cheapest path through the
breaks is found by dynamic programming, as Knuth–Plass finds the lines of a paragraph.
The costs, from heaviest:

1. **A broken rule** (`RULE`): a break after a row that keeps with the next (a heading, a
   paragraph's first or second-to-last line, a list's first item or its second-to-last, a
   lead-in ending in a colon); inside a code block that fits one card; inside a paragraph
   that fits whole on the card it starts on, or whose first part would also fit on the
   next card; after a line that ends in a hyphen inside a word; inside a table where one
   body row would be left on either side; inside a short quote that fits one card (a pull
   quote, `breakrules.PULL_QUOTE_ROWS`). A deck's title with no lead may end its first
   slide (`paged`'s `cover`): a title slide, not a heading parted from its section.
   Rules are broken only where every set of breaks breaks one (a keep chain taller than
   a card), and then as few as can be; a chain that has a card to itself breaks at half
   the price, so a heading too long to join what follows opens a card of its own rather
   than ending the card before. Between a card and a rule (`NOTE_PARTED`): a table's
   short note parted from it, where the table's heading, rows and note fit one card
   (`breakrules.notes_under`): a recipe's tip opening the method's card; so too a code
   block's short note, the git post's warning opening the card after its command.
2. **A card** (`CARD`): no post takes a card more than its rules need.
3. **Badness**: an underfull card before the last pays its empty share squared, and a
   step more (`HOLE`) under `LAST_FILL`; the last card pays only below `LAST_FILL`, and
   more steeply (`LAST_WEIGHT`), so the slack of a split post is spread over its cards
   rather than left as a stub, where no card before the last is left half empty; a paragraph split
   (`SPLIT_PARAGRAPH`), a long code block split between lines (`SPLIT_CODE`), a break
   a row discourages (`SOFT`) and a break that does not fall before a heading
   (`MID_SECTION`: of two sets alike, the one whose cards end with their sections) add a
   little; a break that carries a section's short end (under `breakrules.TAIL` of a card)
   to open the next card above its next heading adds more (`STRANDED`): a lead-in moved
   along with it, or a fuller card before, reads better where the cards allow one. On a
   deck the end is short under half a slide (`TAIL_SLIDE`, but for a post with code) and
   costs more than a slide left half empty (`STRANDED_SLIDE`): a deck gives each section
   its slides; splitting a table a slide holds costs more still (`SPLIT_TABLE_SLIDE`).

Figures: a row with a `min_scale` (a picture, a diagram) may be drawn smaller, down to that
share, so that it and what keeps with it end a card instead of opening the next and leaving
this one half empty. The card pays `squeeze.SHRUNK` in proportion to what its figures give up of
what they could: less than a card left under 60 % full costs, more than small slack does.
A table's rows have a tight form (40 % of their vertical padding): a card may set all its
table rows so (`squeeze.TIGHT`, as much as squeezed gaps cost) to hold a table whole with its
heading or its note rather than split it.

Vertical justification: a card may give up to `squeeze` of its block spacing (the rows'
gaps, then its panels' padding; the theme sets the bound) when that saves a card, spares a
broken rule or, on as many cards, carries fewer sections' short ends to the next card, and
then only the cards that need it are tightened, each just enough (`squeeze.SQUEEZED` per
such card; squeeze.py fits them). A card that ends on a box keeps air under it, its gaps
giving it where the card is full (`squeeze.aired`); the breaks do not move for it.

What a card between two breaks shows and the height it takes is measured on the post
stacked as one column (`column.py`, prefix sums: a card's height is two lookups, so a post of
n rows costs n times the rows of a card, never n²); what each break costs whatever card it
ends is `breakprices.py`'s (the constants of 1 and 3 that a break carries live there); this
module prices the cards and finds the cheapest set.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ...base.boxes import Row
from ...base.placing import EPSILON
from ...errors import TooManyPages
from ..quality import OPENING_FULL_ENOUGH, SECTION_FULL_ENOUGH
from .breakprices import CARD, RULE, BreakPrices
from .breakrules import (
    TITLE_ROOMY,
    Surroundings,
    kept_rule,
    opens_section,
    title_end,
    title_only,
)
from .column import Column
from .grow import grown
from .squeeze import aired, fitted, price_to_fit, tight_alike

# A last card under `LAST_FILL` (bench_quality's half-empty card) costs `LAST_WEIGHT` times
# its shortfall squared: at 4 and 0.5 a last card at 34-46 % cost less than moving a section
# on (coil-notebook's four sections, 87 | 46 %, now 59 | 74 %). A card before the last under
# `LAST_FILL` costs `HOLE` more, so content moves on to fill the last card only where no card
# before it is left half empty, yet two cards both near half full still beat a full one and
# a stub (test_page_breaks' 280 | 337 px). A card that ends its section (the next opens with
# a heading) reads as finished down to the quality report's `SECTION_FULL_ENOUGH` and pays
# `HOLE` only under that; the post's first card, its face, only from `OPENING_FULL_ENOUGH`:
# the recipe's card 1 ending after 食材 at 57 % was rated 5, at 45-54 % 3 (its steps, which
# fit under them, on card 2), its tips alone on a last card at 34-38 %, 4.
LAST_FILL = 0.55
LAST_WEIGHT = 20.0
HOLE = 1.0


class Paging(msgspec.Struct, frozen=True):
    """The rows of each card, the rules (`RULES`) each card's end breaks, how many blocks
    the breaks part (`BreakPrices.partings`) and whether the cards gave up spacing."""

    pages: list[list[Row]]
    broken: list[tuple[str, ...]]
    partings: int = 0
    squeezed: bool = False


def paginate(
    rows: Sequence[Row], height: float, *, squeeze: float = 0.0, max_pages: int | None = None
) -> list[list[Row]]:
    """The rows of each card (`paged`'s pages)."""
    return paged(rows, height, squeeze=squeeze, max_pages=max_pages).pages


def paged(
    rows: Sequence[Row],
    height: float,
    *,
    squeeze: float = 0.0,
    max_pages: int | None = None,
    cover: bool = False,
    code: bool = False,
    air: float = 0.0,
    keep_ends: bool = False,
) -> Paging:
    """`_paged` on cards `air` px shorter (the page number's air, `cardface.folio_air`)
    where they are more than one, unless the whole `height` does better (`_cost`): fewer
    cards, fewer broken rules, fewer blocks parted or no spacing given up. A recipe's two
    full cards at 500x500 became three, the last two half empty, for 9 px; the Tokyo
    cafés' list left its section for the next slide; a table's rows were squeezed to make
    the same two cards.

    Raises:
        TooManyPages: When the best breaks still make more than `max_pages` cards.
    """
    options = (squeeze, max_pages, cover, code, keep_ends)
    full = _paged(rows, height, *options)
    if air <= 0 or len(full.pages) < 2:
        return full  # a post on one card has no page number
    try:
        airy = _paged(rows, height - air, *options)
    except TooManyPages:
        return full
    return full if _cost(full) < _cost(airy) else airy


def _cost(paging: Paging) -> tuple[int, int, int, bool]:
    return len(paging.pages), sum(map(len, paging.broken)), paging.partings, paging.squeezed


def _paged(
    rows: Sequence[Row],
    height: float,
    squeeze: float,
    max_pages: int | None,
    cover: bool,
    code: bool,
    keep_ends: bool,
) -> Paging:
    """The rows of each card, a table's header repeated over a card that continues it and
    a rule that falls on a break left out; with `squeeze` (0..1), a card's gaps shrink by
    up to that share where this saves a card or a broken rule. Each card's end is named
    with the rules it breaks (none, unless every set of breaks breaks one). With `cover`
    (a deck of slides), a post's title with no lead may have the first card to itself,
    as a deck's title slide: its heading keeps with the whole post, not with the section
    under it; `code`: the post holds a code block (`slidetype.has_code`), whose deck keeps
    a card's short end as a card's, not a slide's (`TAIL_SLIDE`); `keep_ends`: a section's
    short end stranded atop the next costs more than a card (`breakprices.STRANDED_APART`).

    Raises:
        TooManyPages: When the best breaks still make more than `max_pages` cards.
    """
    if not rows:
        return Paging([], [])
    column = Column(rows, height)
    breaks = _Breaks(column, cover=cover, code=code, keep_ends=keep_ends)
    ends = breaks.best_ends(0.0)
    broken = breaks.broken_at(ends, 0.0)
    squeezed = False
    rules = sum(map(len, broken))
    partings = breaks.prices.partings(ends, squeeze)
    if (
        squeeze > 0
        and len(ends) > 1
        and (rules or partings or column.could_save_a_card(len(ends), squeeze))
    ):
        # tighter gaps where they save a card, or where they spare a broken rule (a title
        # 3 px too tall to stay with its diagram ended a slide alone) or, breaking none
        # more, a section's stranded end (apple-notes' recipe tip at 500x500)
        tighter = breaks.best_ends(squeeze)
        tighter_broken = breaks.broken_at(tighter, squeeze)
        tighter_rules = sum(map(len, tighter_broken))
        as_many = len(tighter) == len(ends)
        # a rule is dearer than a card: tight rows that keep a table's note with it on a
        # card more are taken (minimal's recipe at 500x500)
        fewer_rules = tighter_rules < rules
        fewer_partings = (
            as_many
            and tighter_rules <= rules
            and breaks.prices.partings(tighter, squeeze) < partings
        )
        if len(tighter) < len(ends) or fewer_rules or fewer_partings:
            ends, broken, squeezed = tighter, tighter_broken, True
            partings = breaks.prices.partings(ends, squeeze)
    if max_pages is not None and len(ends) > max_pages:
        raise TooManyPages(len(ends), max_pages)
    starts = [0, *ends[:-1]]
    pages = [column.page(a, b) for a, b in zip(starts, ends, strict=True)]
    if squeezed or column.shrinks[-1]:  # else every card fits as it stands
        bound = squeeze if squeezed else 0.0
        fitting = [fitted(page, height, tight=squeezed, squeeze=bound) for page in pages]
        pages = tight_alike(pages, fitting)
    pages = [grown(aired(page, height), height) for page in pages]
    return Paging(pages, broken, partings, squeezed)


class _Breaks:
    """The breaks of the post's column and what each card between two of them costs: the
    cheapest set found by dynamic programming, and the rules each of its cards breaks."""

    def __init__(
        self, column: Column, *, cover: bool = False, code: bool = False, keep_ends: bool = False
    ) -> None:
        self.column = column
        self.rows = column.rows
        self.n = column.n
        self.around = Surroundings(column.rows)
        self.title_end = title_end(column.rows)  # a first card ending here is a title card
        # a slide deck's title alone on the first card: its cover, no heading parted
        end = self.title_end
        self.cover_end = end if cover and end is not None and title_only(self.rows[:end]) else None
        self.prices = BreakPrices(column, self.around, deck=cover, code=code, keep_ends=keep_ends)
        # a card that ends before row `end` ends its section where that row opens one
        self.opens = [opens_section(row) for row in self.rows]

    def best_ends(self, squeeze: float) -> list[int]:
        """The breaks (each card's end) of the cheapest set."""
        cost = [float("inf")] * (self.n + 1)
        back = [0] * (self.n + 1)
        cost[0] = 0.0
        for start in range(self.n):
            if cost[start] == float("inf"):
                continue
            if start and start == self.n - 1 and self.rows[start].discardable:
                if cost[start] < cost[self.n]:  # the post ends with a rule after a break
                    cost[self.n], back[self.n] = cost[start], start
                continue
            for end, price in self._cards_from(start, squeeze):
                if cost[start] + price < cost[end]:
                    cost[end], back[end] = cost[start] + price, start
        ends = [self.n]
        while ends[-1]:
            ends.append(back[ends[-1]])
        return [end for end in reversed(ends[:-1]) if not self._dropped(back, end)]

    def _dropped(self, back: list[int], end: int) -> bool:
        """The post's end reached from a break before its last row, a rule: no card."""
        start = back[end]
        return end == self.n and start == self.n - 1 and start > 0 and self.rows[start].discardable

    def _cards_from(self, start: int, squeeze: float) -> list[tuple[int, float]]:
        """Each card that can start at break `start`, as (its end, its cost); the card
        of one row is always possible (a row taller than a card is scaled down). A rule
        opening a card is left out of it unless it is all the card holds (`card`)."""
        if not (start and self.rows[start].discardable):
            return self._priced(start, start, start + 1, squeeze)
        alone = self._priced(start, start, start + 1, squeeze, last_end=start + 1)
        return alone + self._priced(start, start + 1, start + 2, squeeze)

    def broken_at(self, ends: list[int], squeeze: float) -> list[tuple[str, ...]]:
        """The rules each card of the set of breaks `ends` breaks at its end."""
        starts = [0, *ends[:-1]]
        return [self.broken(a, b, squeeze) for a, b in zip(starts, ends, strict=True)]

    def broken(self, start: int, end: int, squeeze: float) -> tuple[str, ...]:
        """The rules the card from break `start` to `end` breaks at its end, priced as
        `_cards_from` priced it."""
        lo = start + 1 if start and self.rows[start].discardable and end > start + 1 else start
        why: list[str] = []
        self._priced(start, lo, end, squeeze, last_end=end, why=why)
        return tuple(why)

    def _priced(
        self,
        start: int,
        lo: int,
        first_end: int,
        squeeze: float,
        last_end: int | None = None,
        why: list[str] | None = None,
    ) -> list[tuple[int, float]]:
        """The cards from break `start` whose rows begin at `lo`, ending at `first_end`
        up to `last_end` (the post's end), with their costs; with `why`, the names of the
        rules they break are added to it (`broken` asks for one card). The hot loop of
        the page breaker: plain arithmetic on the prefix sums."""
        column, around = self.column, self.around
        n, limit, height = self.n, column.height + EPSILON, column.height
        bottoms, gaps, loose, opens = column.bottoms, column.gaps, around.loose, self.opens
        # table rows are set tight only where gaps may be squeezed too: to save a card or
        # spare a broken rule, never to fill a card a little fuller
        shrinks, tights = (column.gives, column.tights) if squeeze else (column.shrinks, None)
        discardable, hard_keep = around.discardable, around.hard_keep
        breaks = self.prices.of(squeeze)
        top = column.top(lo) - column.tops[lo]
        reach = column.reach(lo, squeeze)
        # panels' padding gives `squeeze` of itself once the gaps have (art-deco's tip)
        framed, padded = column.framed, squeeze * (column.own[lo] - column.framed[lo + 1])
        # each block kind's rule, the end of the block each break falls in, and how far a
        # card opening where the block around `lo` opens reaches (0: `lo` is in none)
        wholes = [
            (rule, ends, column.reach(blocks[lo][0], squeeze) if opened and lo in blocks else 0)
            for rule, blocks, ends, opened in around.wholes
        ]
        out = []
        for end in range(first_end, (n if last_end is None else last_end) + 1):
            hi = end - 1 if end < n and lo < end - 1 and discardable[end - 1] else end
            natural = top + bottoms[hi - 1]
            used = natural - squeeze * (gaps[hi - 1] - gaps[lo])
            give = shrinks[hi] - shrinks[lo] + squeeze * framed[hi] + padded
            if used > limit and hi - lo > 1 and used - give > limit:
                longer = top + bottoms[end - 1] - squeeze * (gaps[end - 1] - gaps[lo])
                if longer - (shrinks[end] - shrinks[lo] + squeeze * framed[end] + padded) > limit:
                    break  # every longer card is taller still, its figures at their floor
                continue
            fill = min(used, height) / height
            if end < n:
                price = CARD + breaks[end]
                if not (start == 0 and end == self.title_end and fill < TITLE_ROOMY):
                    # a title card is set in its middle: no hole
                    section = SECTION_FULL_ENOUGH if start else OPENING_FULL_ENOUGH
                    hole = section if opens[end] else LAST_FILL
                    price += (1.0 - fill) ** 2 + (HOLE if fill < hole else 0.0)
            else:  # the last card: badness only under LAST_FILL (none for a post's one card)
                price = CARD + (_last_badness(fill) if start else 0.0)
            if natural > limit and hi - lo > 1:
                tight = tights[hi] - tights[lo] if tights else 0.0
                price += price_to_fit(natural - height, shrinks[hi] - shrinks[lo], tight)
            if end < n and hard_keep[end - 1] and not (start == 0 and end == self.cover_end):
                # a chain longer than a card (keeps only on it) breaks where it must; one
                # that fits a card whole is a rule like any other (a heading alone on a card)
                alone = loose[hi] == loose[lo] and around.chain_ends[lo] > reach
                price += RULE / 2 if alone else RULE
                if why is not None:
                    why.append(kept_rule(self.rows[end - 1]))
            for rule, ends, opened_reach in wholes:
                # the whole block fits where it starts, or it opens this card though its
                # first part fits here too: each a rule
                split = (ends[end] <= reach) + (hi <= opened_reach)
                if split:
                    price += RULE * split
                    if why is not None:
                        why.extend([rule] * split)
            if why is not None and end < n:
                why.extend(self.prices.rules(squeeze)[end])
            out.append((end, price))
        return out


def _last_badness(fill: float) -> float:
    """A last card costs nothing from LAST_FILL up, and steeply under it."""
    return LAST_WEIGHT * max(0.0, LAST_FILL - fill) ** 2
