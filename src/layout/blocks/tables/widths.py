"""A table's column widths from what its columns need (`ColumnNeeds`): CSS automatic table
layout, with a designer's preferences (tables.rows lays the rows out in them).

Each column gets at least its widest unbreakable word (min-content) and grows toward its
unwrapped text (max-content) in proportion to how much it wants; a table whose text fits on
one line per cell is stretched to the full width. Unlike a browser, a column whose
unwrapped text fits an even share of the width left is given it first (`_short_first`).
When the words do not fit, the table is laid out at their widths and scaled down, to a
floor; a table wider than that is split into column groups (`column_groups`). Only numbers
here: no text, no style.
"""

from __future__ import annotations

from typing import NamedTuple

EPSILON = 1e-6  # px: a sum of shares that rounds past the width still fits
# A table whose cells all fit one line at this share of its size or more is set that much
# smaller rather than wrapped: 18 cities, 10 px over 392, wrapped "提前7天 / 抢票" in every
# row at full size; at 0.975 each row is one line, as a designer would set it.
ONE_LINE_SCALE = 0.95
LABEL_SHARE = 0.25  # a row-label column repeated in every group takes at most this share


class ColumnNeeds(NamedTuple):
    """Per column, padding included: its widest character, its longest word, its text
    unwrapped."""

    glyphs: list[float]
    words: list[float]
    lines: list[float]

    def pick(self, columns: list[int]) -> ColumnNeeds:
        return ColumnNeeds(*([needs[col] for col in columns] for needs in self))

    def less(self, padding: float) -> ColumnNeeds:
        """The needs with `padding` less of each column's (every cell of a column has its
        padding added alike): a table's cells with tighter sides, not measured again."""
        return ColumnNeeds(*([need - padding for need in needs] for needs in self))

    def room(self, comfort: float) -> list[float]:
        """The width a column takes in a column group: its longest word, and at least
        `comfort` for longer text, but no more than its text unwrapped."""
        return [
            min(line, max(word, comfort)) for word, line in zip(self.words, self.lines, strict=True)
        ]


class Columns(NamedTuple):
    """Column widths at layout size, and the scale that brings their sum into the box."""

    widths: list[float]
    scale: float


def column_widths(needs: ColumnNeeds, width: float, floor: float) -> Columns:
    """Each column's width; their sum is `width`, or more when `scale` is below 1."""
    widths = distribute(needs, width, floor)
    total = sum(widths)
    return Columns(widths, width / total if total > width + EPSILON else 1.0)


def fits_scaled(needs: ColumnNeeds, width: float, floor: float) -> bool:
    """Whether every column at its longest word fits `width` at a scale of `floor`."""
    return sum(needs.words) * floor <= width + EPSILON


def column_groups(
    needs: ColumnNeeds, width: float, floor: float, comfort: float, labels: bool
) -> list[list[int]]:
    """The columns of each table to draw: all of them when the table fits `width` at a
    scale of at least `floor`; otherwise runs of consecutive columns that fit side by side
    at full size, each column at its `room`. With `labels` the first column starts every
    group, if it takes at most LABEL_SHARE of the width. A column too wide for a group of
    its own still gets one, laid out (and scaled) like any table."""
    count = len(needs.glyphs)
    if fits_scaled(needs, width, floor):
        return [list(range(count))]
    room = needs.room(comfort)
    first = [0] if labels and room[0] <= width * LABEL_SHARE else []
    groups: list[list[int]] = []
    group, used = list(first), sum(room[col] for col in first)
    for col in range(len(first), count):
        if len(group) > len(first) and used + room[col] > width + EPSILON:
            groups.append(group)
            group, used = list(first), sum(room[c] for c in first)
        group.append(col)
        used += room[col]
    groups.append(group)
    return groups


def distribute(needs: ColumnNeeds, width: float, floor: float) -> list[float]:
    """Splits `width` between columns that want at most their unwrapped text and keep
    their longest word (a table within `ONE_LINE_SCALE` of its unwrapped width is scaled
    instead: widths summing past `width`); when the words do not fit, the columns keep
    their words and the table is scaled, down to `floor`. Past that, words break: see
    `_break_widest`."""
    _, words, lines = needs
    if sum(lines) <= width:
        return [w * width / sum(lines) for w in lines]
    if sum(lines) * max(floor, ONE_LINE_SCALE) <= width + EPSILON:
        return list(lines)  # scaled to the width: every cell on one line
    if sum(words) <= width:
        return _short_first(words, lines, width)
    if fits_scaled(needs, width, floor):
        return list(words)
    return _break_widest(needs, width)


def _break_widest(needs: ColumnNeeds, width: float) -> list[float]:
    """Widths at full size for a table whose words do not fit even at the smallest scale
    (a column group of one column too wide for the card, perhaps with its row labels):
    the columns with the widest words, widest first, give them up for their widest
    character until the rest fit; they share what the others leave in proportion to how
    much more they want. Only a table wider than that at its narrowest is scaled further."""
    glyphs, words, _ = needs
    broken: set[int] = set()
    for col in sorted(range(len(words)), key=lambda c: -words[c]):
        need = sum(glyphs[c] if c in broken else words[c] for c in range(len(words)))
        if need <= width + EPSILON:
            break
        broken.add(col)
    order = sorted(broken)
    spare = width - sum(words[c] for c in range(len(words)) if c not in broken)
    lows = [glyphs[c] for c in order]
    shares = _between(lows, [words[c] for c in order], spare) if sum(lows) < spare else lows
    share = dict(zip(order, shares, strict=True))
    return [share.get(c, words[c]) for c in range(len(words))]


def _short_first(lows: list[float], highs: list[float], width: float) -> list[float]:
    """Widths between `lows` and `highs` summing to `width` (less than the highs' sum): the
    columns whose highs fit an even share of the width left take them, round by round,
    while the rest keep room for their lows (columns alike get widths alike); the rest
    share what is left in proportion (`_between`). A short column is set on one line a
    row; the long ones, which wrap either way, wrap a little more."""
    widths: dict[int, float] = {}
    left, room = list(range(len(highs))), width
    while True:
        short = [c for c in left if highs[c] <= room / len(left)]
        rest = [c for c in left if c not in short]
        taken = sum(highs[c] for c in short)
        if not short or not rest or room - taken < sum(lows[c] for c in rest):
            break
        widths.update((c, highs[c]) for c in short)
        left, room = rest, room - taken
    shared = _between([lows[c] for c in left], [highs[c] for c in left], room)
    widths.update(zip(left, shared, strict=True))
    return [widths[c] for c in range(len(highs))]


def _between(lows: list[float], highs: list[float], width: float) -> list[float]:
    """From `lows`, the spare width shared in proportion to how much more each wants."""
    wants = [high - low for low, high in zip(lows, highs, strict=True)]
    spare = width - sum(lows)
    return [low + spare * want / sum(wants) for low, want in zip(lows, wants, strict=True)]
