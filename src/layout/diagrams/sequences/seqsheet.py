"""A sequence diagram's drawing in progress (`Sheet`), which `sequence` fills row by row.

The participants' heads and the messages' labels measured once, the columns placed
(`seqcolumns`), the current row `y`, the layers painted in order (bands, lifelines, frames,
bars, then messages and notes), the frames still open (`OpenFrame`) and each column's
activation bars, drawn as they close.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..marks import (
    LABEL_SIZE,
    MAX_LABEL_WIDTH,
    PAD_Y,
    SMALL_SIZE,
    Label,
    Lines,
    Mark,
    Measure,
    rect_ops,
)
from .seqcolumns import BAR, columns, head_width, rewrap, spacing, whole_words
from .sequenceparse import Section, Sequence

ACTOR = 30.0  # px: the room an actor's figure takes above its head
BAR_STEP = 4.0  # px: a nested activation bar's step right
FIRST_ROW = 14.0  # px from the heads to the first row


@dataclass
class OpenFrame:
    """A block being laid out: where it opened, the columns and the x range its contents
    reach, and its dividers' heights with their conditions."""

    top: float
    section: Section
    label: Lines
    columns: set[int] = field(default_factory=set)
    reach: list[float] = field(default_factory=list)  # x of what it holds, beyond columns
    dividers: list[tuple[float, Lines | None]] = field(default_factory=list)


class Sheet:
    """The drawing in progress: the columns, the current row `y`, the layers painted in
    order (bands, lifelines, frames, bars, then messages and notes) and what is open."""

    def __init__(self, seq: Sequence, measure: Measure, compact: bool = False) -> None:
        self.seq, self.measure = seq, measure
        self.index = {p.id: i for i, p in enumerate(seq.participants)}
        self.heads = [
            measure(p.label, LABEL_SIZE, False, head_width(p.label, compact, measure))
            for p in seq.participants
        ]
        self.space = space = spacing(compact)
        self.widths = [t.width + 2 * space.pad for t in self.heads]
        self.head_h = max(t.height for t in self.heads) + 2 * PAD_Y
        self.texts = {
            id(e): measure(e.label, SMALL_SIZE, False, self.wrap(e.label)) for e in seq.events
        }
        self.xs = columns(seq, self.widths, self.texts, space)
        if compact:
            rewrap(seq, self.xs, self.widths, self.texts, space, measure)
        titles = [measure(b, LABEL_SIZE, True, MAX_LABEL_WIDTH) for b in seq.boxes]
        self.box_titles = titles
        self.title = measure(seq.title, LABEL_SIZE + 1, True, 2 * MAX_LABEL_WIDTH)
        self.title_h = self.title.height + 12 if seq.title else 0.0
        self.head_top = self.title_h + max((t.height + 10 for t in titles), default=0.0)
        self.head_top += ACTOR if any(p.actor for p in seq.participants) else 0.0
        self.y = self.head_top + self.head_h + FIRST_ROW
        self.bands: list[Mark | Label] = []
        self.frames: list[Mark | Label] = []
        self.bars: list[Mark | Label] = []
        self.body: list[Mark | Label] = []
        self.opened: list[OpenFrame] = []
        self.active: dict[int, list[float]] = {i: [] for i in range(len(self.xs))}
        self.starts = {
            i: self.head_top + self.head_h for i, p in enumerate(seq.participants) if not p.created
        }
        self.ends: dict[int, float] = {}
        self.doomed: set[int] = set()
        self.last_arrow: float | None = None
        self.whole: list[tuple[float, float]] = []  # a message's label to its arrow's foot
        # a divider with its condition and its first row (`Drawing.keep`): a card ending
        # under an `else` and its condition reads as a branch with nothing in it
        self.keep: list[tuple[float, float]] = []
        self.divided: tuple[float, float] | None = None  # a divider's y, and the row under it
        self.rects = 0

    def wrap(self, label: str) -> float:
        """The width a message's label or a note wraps at (compact: between words)."""
        if not self.space.compact:
            return self.space.label
        return whole_words(label, SMALL_SIZE, self.space.label, self.measure)

    def hold(self, gap: float) -> None:
        """Close the span kept with the last divider once the row under it is drawn, to
        that row's foot (`gap` above the next row): a cut may fall under that row."""
        if self.divided is not None and self.y > self.divided[1]:
            self.keep.append((self.divided[0], self.y - gap))
            self.divided = None

    # what frames hold

    def touch(self, *columns: int) -> None:
        for frame in self.opened:
            frame.columns.update(columns)

    def reach(self, *xs: float) -> None:
        for frame in self.opened:
            frame.reach.extend(xs)

    def edge(self, column: int, toward: float) -> float:
        """Where an arrow meets a column: its lifeline, or its top activation bar's side."""
        depth = len(self.active[column])
        x = self.xs[column]
        if depth == 0:
            return x
        x += (depth - 1) * BAR_STEP
        return x + BAR / 2 if toward > x else x - BAR / 2

    def activate(self, column: int, y: float) -> None:
        self.active[column].append(y)

    def deactivate(self, column: int, y: float) -> None:
        if not self.active[column]:
            return
        depth = len(self.active[column]) - 1
        top = self.active[column].pop()
        left, height = self.xs[column] + depth * BAR_STEP - BAR / 2, max(y - top, 12.0)
        edge = rect_ops(
            left - 1.5, top - 1.5, BAR + 3, height + 3
        )  # parts it from the bar under it
        self.bars.append(Mark(edge, None, "page"))
        self.bars.append(Mark(rect_ops(left, top, BAR, height), None, "border"))
