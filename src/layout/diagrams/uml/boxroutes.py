"""Lines between laid-out boxes, routed square: out of a box's face, along a track between two
layers, into the next box's face.

grandalf gives each line a polyline through the boxes' centres and a bend per layer it
crosses; drawn as is, lines leave boxes at any angle, two lines to neighbouring boxes run
side by side for their whole length, and a crow's foot sits askew. So each line leaves
its box from the face toward its next bend, at a port of its own (ports on one face
spread `PORT_GAP` apart, in the order of where they head), runs `STUB` px straight out
(its end mark sits square on the face), and crosses between layers on a horizontal track
in the gap between them (tracks of lines whose spans overlap kept `TRACK_GAP` apart).
Everything is worked out top-down; a left-right diagram is turned into that frame first.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ..flow.paint import Placed, clip

Point = tuple[float, float]
STUB = 24.0  # px a line runs straight out of a box before it bends
PORT_GAP = 22.0  # px between lines leaving one face of a box
LOOP = 30.0  # px a line from a box to itself reaches right of the box
TRACK_GAP = 9.0  # px between tracks in one gap between layers
MAX_LEVELS = 12  # tracks worked out in one gap: past it, lines may cross
SLANT = 16.0  # px: a stretch shifting less across stays a slant (a square jog would wiggle)
_CLEAR = 3.0  # px a track keeps from the ends of the stretch it runs in


def route_all(
    ends: list[tuple[str, str]],
    paths: list[list[Point]],
    placed: dict[str, Placed],
    across: bool,
    shares: list[tuple[str, str]] | None = None,
) -> list[list[Point]]:
    """Each line's route (`ends`: its source and target box, `paths`: grandalf's polyline
    through their centres) from a face of its source to a face of its target. `shares`:
    for each line's two ends a key ("" none): ends with one key on one face share a port
    (UML draws generalizations to one class into one triangle)."""
    turn = _swap if across else _same
    boxes = {key: _turned(p, across) for key, p in placed.items()}
    frame = [[turn(point) for point in path] for path in paths]
    offsets = _port_offsets(ends, frame, boxes, shares or [("", "")] * len(ends))
    routes = [
        _route(a, b, path, boxes, offsets, index)
        for index, ((a, b), path) in enumerate(zip(ends, frame, strict=True))
    ]
    routes = _on_tracks(routes, _gaps(boxes.values()))
    return [[turn(point) for point in route] for route in routes]


def _swap(point: Point) -> Point:
    return point[1], point[0]


def _same(point: Point) -> Point:
    return point


def _turned(p: Placed, across: bool) -> Placed:
    return Placed(p.node, p.text, p.h, p.w, p.y, p.x) if across else p


def _port_offsets(
    ends: list[tuple[str, str]],
    paths: list[list[Point]],
    boxes: dict[str, Placed],
    shares: list[tuple[str, str]],
) -> dict[tuple[int, int], float]:
    """Where along its face each line end leaves its box, by (line, 0 start / 1 end): a
    line alone under the point it heads for, several on one face spread `PORT_GAP` apart
    in the order of the points they head for, so they never share a stretch; ends with
    one share key take one port, where they head for on average."""
    faces: dict[tuple[str, bool], dict[object, list[tuple[float, int, int]]]] = {}
    for index, ((source, target), path) in enumerate(zip(ends, paths, strict=True)):
        if source == target:
            continue
        for end, key, toward in ((0, source, path[1]), (1, target, path[-2])):
            box = boxes[key]
            gap = toward[1] - box.y
            if abs(gap) > box.h / 2 + 1:
                share = shares[index][end] or (index, end)
                on_face = faces.setdefault((key, gap > 0), {})
                on_face.setdefault(share, []).append((toward[0], index, end))
    offsets: dict[tuple[int, int], float] = {}
    for (key, _), groups in faces.items():
        box = boxes[key]
        inset = min(16.0, box.w / 5)
        low, high = box.x - box.w / 2 + inset, box.x + box.w / 2 - inset
        slots = sorted((sum(x for x, _, _ in g) / len(g), g) for g in groups.values())
        count = len(slots)
        step = min(PORT_GAP, (high - low) / max(1, count - 1))
        wanted = sum(min(max(x, low), high) for x, _ in slots) / count
        first = min(max(wanted - step * (count - 1) / 2, low), high - step * (count - 1))
        for rank, (_, group) in enumerate(slots):
            for _, index, end in group:
                offsets[index, end] = first + rank * step
    return offsets


def _route(
    source: str,
    target: str,
    path: list[Point],
    boxes: dict[str, Placed],
    offsets: dict[tuple[int, int], float],
    index: int,
) -> list[Point]:
    """One line from a face of its source box to a face of its target."""
    a, b = boxes[source], boxes[target]
    if a is b:  # a square loop over the box's top right corner
        right, top = a.x + a.w / 2, a.y - a.h / 2
        start, end = right - min(16.0, a.w / 3), top + min(18.0, a.h / 2)
        up = top - STUB
        return [(start, top), (start, up), (right + LOOP, up), (right + LOOP, end), (right, end)]
    # two boxes of neighbouring layers: each stub at most half the faces' gap, or in a tight
    # form's 42-px gap the two 24-px stubs overlapped and the line jogged back (21's Order)
    stub = min(STUB, (abs(b.y - a.y) - (a.h + b.h) / 2) / 2) if len(path) == 2 else STUB
    first = _port(a, path[1], offsets.get((index, 0)), stub)
    last = _port(b, path[-2], offsets.get((index, 1)), stub)
    return [*first, *path[1:-1], *last[::-1]]


def _port(box: Placed, toward: Point, offset: float | None, stub: float = STUB) -> list[Point]:
    """Where a line leaves `box` toward a point in another layer: on the face that point
    is beyond, at `offset` along it, then `stub` px (`STUB`) straight out. No offset (a
    point beside the box): the box's edge toward it."""
    if offset is None:
        return [clip(box, toward)]
    gap = toward[1] - box.y
    sign = 1.0 if gap > 0 else -1.0
    face = box.y + sign * box.h / 2
    return [(offset, face), (offset, face + sign * min(stub, abs(gap) - box.h / 2))]


def _gaps(boxes: Iterable[Placed]) -> list[tuple[float, float]]:
    """The free bands between layers (top, bottom): a layer is the boxes sharing a centre."""
    bands: dict[int, list[float]] = {}
    for box in boxes:
        band = bands.setdefault(round(box.y), [box.y - box.h / 2, box.y + box.h / 2])
        band[0], band[1] = min(band[0], box.y - box.h / 2), max(band[1], box.y + box.h / 2)
    ordered = sorted(bands.values())
    return [(upper[1], lower[0]) for upper, lower in itertools.pairwise(ordered)]


def _on_tracks(routes: list[list[Point]], gaps: list[tuple[float, float]]) -> list[list[Point]]:
    """The routes with each slanted stretch between two layers made square: down, across
    on a track in the gap between the layers, down again (one shifting less than `SLANT`
    stays as it is)."""
    jobs: dict[int, list[tuple[float, float, int, int, float, float]]] = {}
    for r, route in enumerate(routes):
        for s, (p, q) in enumerate(itertools.pairwise(route)):
            if abs(p[0] - q[0]) < SLANT or abs(p[1] - q[1]) < 2 * _CLEAR:
                continue
            low, high = min(p[1], q[1]), max(p[1], q[1])
            spans = [(min(high, g[1]) - max(low, g[0]), i) for i, g in enumerate(gaps)]
            room, gap = max(spans, default=(0.0, -1))
            if room <= 2 * _CLEAR:
                continue
            top, bottom = max(low, gaps[gap][0]) + _CLEAR, min(high, gaps[gap][1]) - _CLEAR
            upper, lower = (p[0], q[0]) if p[1] < q[1] else (q[0], p[0])
            jobs.setdefault(gap, []).append((upper, lower, r, s, top, bottom))
    tracks: dict[tuple[int, int], float] = {}
    for in_gap in jobs.values():
        tracks.update(_tracks(in_gap))
    out = []
    for r, route in enumerate(routes):
        points = [route[0]]
        for s, q in enumerate(route[1:]):
            if (r, s) in tracks:
                y = tracks[r, s]
                points += [(points[-1][0], y), (q[0], y)]
            points.append(q)
        out.append(points)
    return out


def _tracks(
    jobs: list[tuple[float, float, int, int, float, float]],
) -> dict[tuple[int, int], float]:
    """Tracks for the stretches crossing one gap, each (upper x, lower x, route, stretch,
    room top, room bottom). A stretch whose upper end lies within another's span runs
    above it (else the other would cut its way down), one whose lower end does runs below
    (where both hold they cross anyway: the narrower runs above); each stretch takes the
    level under all it must run below, and the levels are spread `TRACK_GAP` apart round
    the middle of the room, within it. Stretches apart share one."""
    count = len(jobs)
    below: list[list[int]] = [[] for _ in range(count)]  # who must run below each
    for i, j in itertools.combinations(range(count), 2):
        i_above = _within(jobs[i][0], jobs[j]) or _within(jobs[j][1], jobs[i])
        j_above = _within(jobs[j][0], jobs[i]) or _within(jobs[i][1], jobs[j])
        if i_above and j_above:  # they cross whatever we do: the narrower above
            i_above = _span(jobs[i]) <= _span(jobs[j])
        if i_above:
            below[i].append(j)
        elif j_above:
            below[j].append(i)
    level = [0] * count
    for _ in range(min(count, MAX_LEVELS)):  # longest paths; a cycle stops at the bound
        changed = False
        for i in range(count):
            for j in below[i]:
                if level[j] <= level[i]:
                    level[j], changed = level[i] + 1, True
        if not changed:
            break
    levels = max(level, default=0) + 1
    out = {}
    for (_, _, r, s, top, bottom), rank in zip(jobs, level, strict=True):
        y = (top + bottom) / 2 + (rank - (levels - 1) / 2) * TRACK_GAP
        out[r, s] = min(max(y, top), bottom)
    return out


def _span(job: tuple[float, float, int, int, float, float]) -> float:
    return abs(job[0] - job[1])


def _within(x: float, job: tuple[float, float, int, int, float, float]) -> bool:
    """Whether `x` lies inside the span of a stretch (its ends excluded)."""
    return min(job[0], job[1]) + 1 < x < max(job[0], job[1]) - 1
