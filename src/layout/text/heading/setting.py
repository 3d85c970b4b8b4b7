"""A heading's clusters as its lines set them: what `ranks` and `demerits` measure with.

A full-width bracket at a line's edge gives up its blank half (`linebreak.Edges`), and the
heading's lines are set so (`inline.layout_text`); ranked without it, 《思考，快与慢》 was
taken for wider than traditional-chinese's 440-px title line that holds it, and broken
inside. May import: `layout.text` (`heading.balance`, `linebreak`).
"""

from __future__ import annotations

from typing import NamedTuple

from ..linebreak import Edges, LineRange, break_lines, widest_piece
from .balance import balance_lines


class Setting(NamedTuple):
    """The clusters' texts and widths, what each gives up at a line's edge (None: nothing),
    and the line's width."""

    texts: list[str]
    widths: list[float]
    edges: list[Edges] | None
    width: float

    def lines(self, allowed: list[int]) -> list[LineRange]:
        """The lines greedy filling sets."""
        return break_lines(self.texts, self.widths, allowed, self.width, self.edges)

    def balanced(self, allowed: list[int]) -> list[LineRange]:
        """The lines balancing sets (`heading.balance.balance_lines`)."""
        return balance_lines(self.texts, self.widths, allowed, self.width, self.edges)

    def widest(self, allowed: list[int], start: int = 0, end: int | None = None) -> float:
        """The widest piece `allowed` leaves among clusters [start, end), as a line sets it."""
        part = slice(start, len(self.texts) if end is None else end)
        edges = None if self.edges is None else self.edges[part]
        return widest_piece(self.texts[part], self.widths[part], allowed[part], edges)
