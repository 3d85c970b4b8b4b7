"""An edge label's chip kept on its line where the layered route turns back at it.

An edge label is a vertex of its own in the layer after its edge's source (drawing.py), so
the layering leaves it room. An edge that runs against the layers (a loop back to an
earlier step: `D -- 修正 --> C`) goes down to that vertex and straight back up: drawn as
routed, the line turns a little above the chip and the chip hangs under it, read as a label
of nothing. Such a chip moves onto the longest straight run of its own line where it
covers no box and no other chip, and the spike down to its old place is dropped; where
no run has room, the chip stays where layering put it.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from .paint import Placed

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom
SHOWN = 6.0  # px of the line left in sight on each side of a chip moved onto it


def turns_back(points: list[Point], junction: int) -> bool:
    """Whether the line reverses at `points[junction]` (its label's centre): the run into
    it and the run out of it go opposite ways along one axis."""
    if not 0 < junction < len(points) - 1:
        return False
    (ax, ay), (cx, cy), (bx, by) = points[junction - 1], points[junction], points[junction + 1]
    into, out = (cx - ax, cy - ay), (bx - cx, by - cy)
    return (
        into[0] * out[0] + into[1] * out[1] < 0 and abs(into[0] * out[1] - into[1] * out[0]) < 1e-6
    )


def without_spike(points: list[Point], junction: int) -> list[Point]:
    """The line with its run to `points[junction]` and back taken out: the points the
    two runs share once, then each corner that would still turn the line back (a notch)."""
    k = 0
    while (
        junction - k - 1 >= 0
        and junction + k + 1 < len(points)
        and not _far(points[junction - k - 1], points[junction + k + 1])
    ):
        k += 1
    if k:
        out, seam = [*points[: junction - k], *points[junction + k :]], junction - k
    else:
        out, seam = [*points[:junction], *points[junction + 1 :]], junction
    for _ in range(4):  # a notch is a corner or two where the runs met
        sharp = [i for i in (seam - 1, seam) if 0 < i < len(out) - 1 and _sharp(out, i)]
        if not sharp:
            break
        del out[sharp[0]]
        seam = sharp[0]
    return out


def chip_on_line(
    points: list[Point], size: tuple[float, float], obstacles: list[Box]
) -> Point | None:
    """The centre of a `size` chip on the middle of the longest straight run of `points`
    that shows the line on both sides of it, clear of every box in `obstacles`; None if
    no run has room."""
    width, height = size
    for start, end in sorted(_straight_runs(points), key=lambda run: -_length(*run)):
        along = height if abs(start[0] - end[0]) < abs(start[1] - end[1]) else width
        if _length(start, end) < along + 2 * SHOWN:
            break
        x, y = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
        chip = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
        if not any(_overlap(chip, box) for box in obstacles):
            return x, y
    return None


def _straight_runs(points: list[Point]) -> list[tuple[Point, Point]]:
    """The line as straight runs: consecutive segments in one direction merged."""
    runs: list[tuple[Point, Point]] = []
    for a, b in itertools.pairwise(points):
        if runs and _collinear(runs[-1][0], runs[-1][1], b):
            runs[-1] = (runs[-1][0], b)
        elif _far(a, b):
            runs.append((a, b))
    return runs


def _collinear(a: Point, b: Point, c: Point) -> bool:
    ab, bc = (b[0] - a[0], b[1] - a[1]), (c[0] - b[0], c[1] - b[1])
    return abs(ab[0] * bc[1] - ab[1] * bc[0]) < 1e-6 and ab[0] * bc[0] + ab[1] * bc[1] >= 0


def _sharp(points: list[Point], i: int) -> bool:
    (ax, ay), (cx, cy), (bx, by) = points[i - 1], points[i], points[i + 1]
    return (cx - ax) * (bx - cx) + (cy - ay) * (by - cy) < 0


def _far(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) > 1e-6 or abs(a[1] - b[1]) > 1e-6


def _length(a: Point, b: Point) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def chip_onto(line: list[Point], placed: dict[str, Placed], key: str) -> bool:
    """Whether the chip `key` (if the edge has one) has a place on `line`: set there, on
    the middle of its longest clear run (`chip_on_line`) of every other node and chip in
    `placed`; False, the chip left where it was, where no run has room for it."""
    chip = placed.get(key)
    if chip is None:
        return True
    others = [p.bounds() for other, p in placed.items() if other != key]
    centre = chip_on_line(line, (chip.w, chip.h), others)
    if centre is None:
        return False
    placed[key] = replace(chip, x=centre[0], y=centre[1])
    return True
