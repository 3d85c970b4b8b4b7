"""What one render may make → checked while it is laid out, not after.

A render makes at most `max_pages` cards, none over `max_pixels`, none longer on a side
than its file format holds, all of them together at most `max_total_pixels`:
`OutputLimits.check` holds a list of card sizes to that. `ContentBudget` holds the flow
to it while rows are laid out. It adds up a lower bound of the height the rows laid out
so far must take: each row's height, but at most a card's content height (a taller row
gets a card of its own, scaled down). A card holds at most its content height of them, so
on fixed-size cards that many cards at least are needed; a card that grows is at least
that tall. As soon as those cards break a limit the render is refused, so a post far
over a limit costs the layout of about as much content as the limits allow, not all of it.

The bound holds only while nothing between rows is negative: a theme with a negative
margin, padding or line height lays everything out and is held to the limits after.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

import msgspec

from ..base.boxes import Row
from ..base.lru import PerObject
from ..blocks.parts import Overfull
from ..errors import CardTooLarge, TooManyPages, TooManyPixels, TooTallForFormat
from ..limits import MAX_CARD_PIXELS_BY_FORMAT, MAX_CARDS
from ..style.resolver import Styles
from ..style.schema import Style

EPSILON = 1e-6
MAX_SIDE: dict[str, int] = {"webp": 16_383, "jpeg": 65_535}  # what each format can hold
# The knobs that put space between or inside rows: all must be >= 0 for the lower bound.
_SPACING = frozenset(
    {
        "size",
        "line_height",
        "margin_top",
        "margin_bottom",
        "item_gap",
        "bar_width",
        "bar_gap",
        "border_width",
        "outline_width",
        "header_height",
        "footer_height",
        "marker_size",
        "number_size",
    }
)


@dataclass(frozen=True, slots=True)
class OutputLimits:
    """The most one render may make: cards, pixels per card and in all, at `scale`, in a
    file `format` (only WebP and JPEG limit a side)."""

    scale: float = 1.0
    format: str = "png"
    max_pages: int = MAX_CARDS
    max_pixels: int | None = None
    max_total_pixels: int | None = None

    def check(self, cards: Sequence[tuple[float, float]], *, at_least: bool = False) -> int:
        """Holds cards of (width, height) CSS px, drawn at `scale`, to the limits; `at_least`:
        the cards are the fewest and smallest some content needs. The pixels of the largest.

        Raises:
            TooManyPages: More than `max_pages` cards.
            TooTallForFormat: One card is longer on a side than `format` can hold.
            CardTooLarge: One card is over `max_pixels` or its format's
                `MAX_CARD_PIXELS_BY_FORMAT`.
            TooManyPixels: All of them together are over `max_total_pixels`.
        """
        if len(cards) > self.max_pages:
            raise TooManyPages(len(cards), self.max_pages, at_least=at_least)
        total = largest = 0
        longest_side = MAX_SIDE.get(self.format)
        budgets = (self.max_pixels, MAX_CARD_PIXELS_BY_FORMAT.get(self.format))
        max_pixels = min((budget for budget in budgets if budget is not None), default=None)
        for css_width, css_height in cards:
            width, height = round(css_width * self.scale), round(css_height * self.scale)
            if longest_side is not None and max(width, height) > longest_side:
                raise TooTallForFormat(width, height, self.format, longest_side)
            if max_pixels is not None and width * height > max_pixels:
                raise CardTooLarge(width, height, max_pixels)
            total += width * height
            largest = max(largest, width * height)
        if self.max_total_pixels is not None and total > self.max_total_pixels:
            raise TooManyPixels(total, self.max_total_pixels)
        return largest


class Cards(msgspec.Struct, frozen=True):
    """The cards a budget stands for: `size` (CSS px) with `content` px for rows each;
    `fixed` ones (autoSplit) as many as the rows need, else one that grows with them,
    after the cards `before` it (earlier parts of an hrSplit post)."""

    size: tuple[float, float]
    content: float
    fixed: bool
    before: tuple[tuple[float, float], ...] = ()


class ContentBudget:
    """Counts the rows of one flow as they are made and refuses (see the module) as soon
    as the cards they need break `limits`."""

    def __init__(self, limits: OutputLimits, cards: Cards) -> None:
        self.limits = limits
        self.cards = cards
        self.spent = 0.0
        self._checked = 0.0  # the content checked so far: checks come a card's worth apart
        self._aside: list[tuple[float, float | None]] = []  # (spent before, height allowed)

    def spend(self, rows: Iterable[Row]) -> None:
        """Counts rows just made that will be placed as they are.

        Raises:
            TooManyPages, CardTooLarge, TooTallForFormat, TooManyPixels: The cards the rows
                counted so far need already break a limit.
            Overfull: Rows laid out aside went past their height.
        """
        content = self.cards.content
        for row in rows:
            self.spent += min(max(row.height, 0.0), content)
        if self._aside:
            before, allowed = self._aside[-1]
            if allowed is not None and self.spent - before > allowed + EPSILON:
                raise Overfull
        elif self.spent > self._checked + content + EPSILON:
            self._checked = self.spent
            self.limits.check(self._lower_bound(self.spent), at_least=True)

    def expect(self, rows: int, height: float) -> None:
        """Refuses now if `rows` more rows, each at least `height` tall, would break the
        limits (or go past the height allowed aside); counts nothing (they are counted
        when made, see `spend`). Text broken into lines asks before placing them."""
        content = self.cards.content
        more = rows * min(max(height, 0.0), content)
        if self._aside:
            before, allowed = self._aside[-1]
            if allowed is not None and self.spent + more - before > allowed + EPSILON:
                raise Overfull
        elif more > content:
            self.limits.check(self._lower_bound(self.spent + more), at_least=True)

    def aside(self, allowed: float | None) -> None:
        """From now until `restore`, rows are laid out to be measured and then made into
        other rows (side-by-side columns): they are not the render's, and with `allowed`
        more than that height of them raises `Overfull`."""
        self._aside.append((self.spent, allowed))

    def restore(self) -> None:
        """Forgets the rows counted since the matching `aside`."""
        self.spent = self._aside.pop()[0]

    def _lower_bound(self, spent: float) -> list[tuple[float, float]]:
        """The fewest and smallest cards that rows of `spent` height need."""
        width, height = self.cards.size
        content = self.cards.content
        if self.cards.fixed:
            count = max(1, math.ceil(spent / content - EPSILON))
            return [(width, height)] * count
        return [*self.cards.before, (width, height + max(0.0, spent - content))]


def bounded(styles: Styles) -> bool:
    """Whether rows in these styles are never closer than their heights say (no negative
    spacing), so a `ContentBudget` may refuse before the layout ends. Kept per `Styles`
    object (resolved ones are shared): every role's knobs were read on every card."""
    return _BOUNDED.get(styles, _bounded)


def _bounded(styles: Styles) -> bool:
    return all(_spacing_ok(styles[name]) for name in styles.roles)


_BOUNDED: PerObject[Styles, bool] = PerObject(64)


def _spacing_ok(style: Style) -> bool:
    knobs = (getattr(style, field.name) for field in fields(style) if field.name in _SPACING)
    return all(value >= 0 for value in knobs) and all(pad >= 0 for pad in style.padding)
