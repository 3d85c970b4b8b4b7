"""The post stacked as one column: what a card from one break to another shows and the height
it takes, measured for the page breaker (`pagebreaks`), which prices the cards.

Heights come from prefix sums over the post stacked as one column: a card's rows keep the
offsets they have there, so a card's height is two lookups, and a post of n rows costs
n times the rows of a card, never n².
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ...base.boxes import Frame, Row
from ...base.placing import EPSILON, place, repeated_header, shared_frames


class Card(msgspec.Struct, frozen=True):
    """The rows a card from break `start` to break `end` shows: [lo, hi)."""

    lo: int
    hi: int


class Column:
    """The post as one column: prefix sums of heights, gaps and what a card may give of them,
    and where a card opening at each row starts and how far it reaches."""

    def __init__(self, rows: Sequence[Row], height: float) -> None:
        self.rows = rows
        self.height = height
        self.n = len(rows)
        self.tops: list[float] = []  # where each row starts, in the one column
        self.bottoms: list[float] = []  # where it ends, with its frames' bottom padding
        self.opens: list[float] = []  # where it starts at the top of a card
        self.gaps: list[float] = []  # the gaps up to and with each row's
        self.shrinks = [0.0]  # what the figures before each row may give up of their height
        self.tights = [0.0]  # what the table rows before it give, set tight
        self.gives = [0.0]  # both: what a card may give where gaps may be squeezed too
        # the padding of the frames (panels) opened up to each row, and each row's own
        self.framed, self.own = _frame_padding(rows)
        placed = place(rows).rows
        total = 0.0
        for row, at in zip(rows, placed, strict=True):
            self.tops.append(at.y)
            self.bottoms.append(at.y + row.height + sum(f.pad_bottom for f in row.frames))
            self.opens.append(sum(f.pad_top for f in row.frames))
            total += row.gap
            self.gaps.append(total)
            self.shrinks.append(self.shrinks[-1] + row.height * (1.0 - row.min_scale))
            tight = row.height - row.tight.height if row.tight is not None else 0.0
            self.tights.append(self.tights[-1] + tight)
            self.gives.append(self.shrinks[-1] + self.tights[-1])
        self.header_tops: dict[int, float] = {}
        self.reaches: dict[tuple[int, float], int] = {}

    def card(self, start: int, end: int) -> Card:
        """The rows shown by the card between breaks `start` and `end` (`paginate._page`:
        a rule on either break is left out, unless it is all the card has)."""
        lo, hi = start, end
        if lo and lo < hi - 1 and self.rows[lo].discardable:
            lo += 1
        if hi < self.n and lo < hi - 1 and self.rows[hi - 1].discardable:
            hi -= 1
        return Card(lo, hi)

    def page(self, start: int, end: int) -> list[Row]:
        """The rows of the card between breaks `start` and `end`, under a table's header
        repeated where the card continues the table."""
        card = self.card(start, end)
        return [*repeated_header(self.rows, card.lo, self.height), *self.rows[card.lo : card.hi]]

    def used(self, lo: int, hi: int, squeeze: float) -> float:
        """The height rows[lo:hi] take on a card, their gaps shrunk by `squeeze`."""
        natural = self.top(lo) + self.bottoms[hi - 1] - self.tops[lo]
        return natural - squeeze * (self.gaps[hi - 1] - self.gaps[lo])

    def top(self, lo: int) -> float:
        """Where row `lo` starts on a card it opens (under a repeated header)."""
        if self.rows[lo].header is None:
            return self.opens[lo]
        if lo not in self.header_tops:
            head = repeated_header(self.rows, lo, self.height)
            self.header_tops[lo] = place([*head, self.rows[lo]]).rows[-1].y
        return self.header_tops[lo]

    def fits(self, lo: int, hi: int, squeeze: float) -> bool:
        """Whether rows[lo:hi] fit one card, their gaps shrunk by `squeeze`."""
        return self.used(lo, hi, squeeze) <= self.height + EPSILON

    def fits_tight(self, lo: int, hi: int, squeeze: float) -> bool:
        """Whether rows[lo:hi] fit one card, their gaps shrunk by `squeeze` and, where the
        card may be squeezed at all, their table rows set tight."""
        tight = self.tights[hi] - self.tights[lo] if squeeze else 0.0
        return self.used(lo, hi, squeeze) - tight <= self.height + EPSILON

    def reach(self, lo: int, squeeze: float) -> int:
        """The furthest break a card opening at row `lo` can reach: rows[lo:hi] fit for
        every hi up to it (heights only grow with hi, so it is bisected)."""
        key = (lo, squeeze)
        if key not in self.reaches:
            low, high = lo + 1, self.n  # rows[lo:lo+1] always "fits" (scaled if it must)
            while low < high:
                middle = (low + high + 1) // 2
                if self.fits(lo, middle, squeeze):
                    low = middle
                else:
                    high = middle - 1
            self.reaches[key] = low
        return self.reaches[key]

    def could_save_a_card(self, cards: int, squeeze: float) -> bool:
        """Whether the post, all gaps and panel paddings shrunk, its table rows set tight and
        its figures at their floor (all a squeezed card may give), is short enough for one
        card fewer: counting the gaps alone, pop-art's framed fund post kept a third card
        though its tight table let it end in two."""
        least = self.used(0, self.n, squeeze) - self.gives[self.n]
        least -= squeeze * self.framed[-1]
        return least <= (cards - 1) * self.height + EPSILON


def _frame_padding(rows: Sequence[Row]) -> tuple[list[float], list[float]]:
    """The padding (top and bottom) of the frames opened up to each row, as prefix sums
    (each frame counted where it opens), and the padding of each row's own frames: a card
    from row lo to hi sits in `own[lo] + framed[hi] - framed[lo + 1]` of padding."""
    framed = [0.0]
    before: tuple[Frame, ...] = ()
    for row in rows:
        opened = row.frames[shared_frames(before, row.frames) :]
        framed.append(framed[-1] + sum(f.pad_top + f.pad_bottom for f in opened))
        before = row.frames
    return framed, [sum(f.pad_top + f.pad_bottom for f in row.frames) for row in rows]
