"""A `GitGraph` + a label `Measure` → its `Drawing`: a lane per branch, commits in time order.

Each branch is a lane in its own series colour; each commit has a column of its own along
the time axis (left to right, or down or up for `TB`/`BT`), as wide as its id and tag
need, so no two commits' labels meet. A branch leaves its parent in the gap after the
commit it starts from, and a merge joins in the gap before the merge commit: the curves
keep out of every column, so they never cross a dot or a label. A cherry-pick is a
dashed curve from the commit it copies. Positions are reckoned as (time, lane) and turned
to x, y at the end, so the three orientations share one layout.
"""

from __future__ import annotations

from dataclasses import replace

from ..marks import (
    LABEL_SIZE,
    MAX_LABEL_WIDTH,
    SMALL_SIZE,
    Drawing,
    Label,
    Lines,
    Mark,
    Measure,
    Op,
    circle_ops,
    finish,
    rect_ops,
    tint,
)
from .mermaidgit import Commit, GitGraph

_DOT, _CURVE, _LANE_GAP = 8.0, 22.0, 24.0  # dot radius; run of a curve; lane gap past labels
_CHIP_X, _CHIP_Y = 6.0, 2.0  # padding of a tag's or branch's chip
_TAG_GAP = 5.0  # px from a dot to the tag chip left of it, time running down (in _LANE_GAP)
# ... and to the id right of it: wider, as a reader (and tesseract) took a dot 5 px from a
# short CJK id for a letter of it (case 33's 首页 read as "@ an")
_ID_GAP = 10.0


def layout_gitgraph(graph: GitGraph, measure: Measure, upright: bool = False) -> Drawing:
    """The git graph: lanes, connections, commits, then their labels over all; `upright`:
    a left-right graph drawn top-down (for a narrow card)."""
    across = graph.orientation == "LR"
    if upright and across:
        graph = replace(graph, orientation="TB")
    return replace(_Git(graph, measure).drawing(), across=across)


class _Git:
    def __init__(self, graph: GitGraph, measure: Measure) -> None:
        self.graph, self.across = graph, graph.orientation == "LR"
        self.lane = {b.name: i for i, b in enumerate(graph.branches)}
        self.ids = [
            measure(c.label, SMALL_SIZE, False, MAX_LABEL_WIDTH * 0.6) for c in graph.commits
        ]
        self.tags = [
            measure(c.tag, SMALL_SIZE, False, MAX_LABEL_WIDTH * 0.6) for c in graph.commits
        ]
        self.names = [measure(b.name, LABEL_SIZE, False, MAX_LABEL_WIDTH) for b in graph.branches]
        self.index = {c.id: i for i, c in enumerate(graph.commits)}
        self.half = [self._half(i) for i in range(len(graph.commits))]
        self.t = [0.0]
        for i in range(1, len(graph.commits)):
            self.t.append(self.t[-1] + self.half[i - 1] + self.half[i] + _CURVE)
        self.step = self._lane_step()
        self.front: list[Mark | Label] = []  # chips and their labels, over lines and dots
        self.id_labels: list[Mark | Label] = []

    def _half(self, i: int) -> float:
        """Half a commit's column along the time axis: its dot, id and tag chip."""
        ids, tag = self.ids[i], self.tags[i]
        if self.across:
            return max(_DOT, ids.width / 2, tag.width / 2 + _CHIP_X) + 3
        return max(_DOT, ids.height / 2, tag.height / 2 + _CHIP_Y) + 3

    def _lane_step(self) -> float:
        """Lanes apart: a lane's tags (above its dots, or left) and the next one's ids
        (below, or right) share the gap between them, never a row, so the wider of the two
        must fit; and each branch's name at its lane's start."""
        if self.across:
            tag = max((t.height + 2 * _CHIP_Y for t in self.tags if t.width), default=0.0)
            ids = max((t.height for t in self.ids if t.width), default=0.0)
            return max(tag, ids) + _DOT + _LANE_GAP
        tag = max((t.width + 2 * _CHIP_X for t in self.tags if t.width), default=0.0)
        ids = max((t.width for t in self.ids if t.width), default=0.0)
        names = max(t.width + 2 * _CHIP_X for t in self.names)
        return max(max(tag, ids + _ID_GAP - _TAG_GAP) + _DOT + _LANE_GAP, names + 12)

    def at(self, t: float, lane: float) -> tuple[float, float]:
        """Screen x, y of a time and a lane position."""
        s = lane * self.step
        if self.across:
            return t, s
        return (s, -t) if self.graph.orientation == "BT" else (s, t)

    def _dot(self, i: int) -> tuple[float, float]:
        commit = self.graph.commits[i]
        return self.t[i], float(self.lane[commit.branch])

    def drawing(self) -> Drawing:
        back: list[Mark | Label] = []
        front = self.front
        end = self.t[-1] + self.half[-1] + 8
        for k, name in enumerate(self.names):
            size = name.width if self.across else name.height
            start = -self.half[0] - 12 - size - 2 * (_CHIP_X if self.across else _CHIP_Y)
            line = (("M", *self.at(start, k)), ("L", *self.at(end, k)))
            back.append(Mark(line, _series(k), None, 1.0, (3.0, 4.0)))
            front.extend(self._chip(name, start, k, _series(k)))
        for i, commit in enumerate(self.graph.commits):
            for number, parent in enumerate(commit.parents):
                back.append(
                    self._link(self.index[parent], i, number > 0 and commit.kind == "cherry")
                )
        for i, commit in enumerate(self.graph.commits):  # dots over every line
            back.extend(self._commit(i, commit))
        # chips and labels over every line and dot, each chip just before its label
        return finish(back + front + self.id_labels, "\n".join(self.graph.labels()))

    def _link(self, p: int, c: int, cherry: bool) -> Mark:
        """The line from a parent to its child: straight along a lane; else a curve in the
        gap after the parent (a branch's first commit) or before the child (a merge)."""
        (tp, lp), (tc, lc) = self._dot(p), self._dot(c)
        if lp == lc:
            return Mark(
                (("M", *self.at(tp, lp)), ("L", *self.at(tc, lc))), _series(int(lc)), None, 3.0
            )
        if cherry:  # along the channel between the lanes next to the child's
            mid = lc + (0.5 if lp > lc else -0.5)
            a, b = tp + self.half[p] + 3, self.t[p + 1] - self.half[p + 1] - 3
            c0, c1 = self.t[c - 1] + self.half[c - 1] + 3, tc - self.half[c] - 3
            ops = (*self._curve(tp, lp, b, mid, a), *self._curve(b, mid, tc, lc, c0, c1))
            if p + 1 == c:
                ops = self._curve(tp, lp, tc, lc, a, c1)
            return Mark((("M", *self.at(tp, lp)), *ops), _series(int(lp)), None, 2.0, (4.0, 4.0))
        if self._first(c, p):  # a branch leaves its parent right after it
            a, b = tp + self.half[p] + 3, self.t[p + 1] - self.half[p + 1] - 3
            ops = (*self._curve(tp, lp, b, lc, a), ("L", *self.at(tc, lc)))
            colour = _series(int(lc))
        else:  # a merge joins right before its commit
            a, b = self.t[c - 1] + self.half[c - 1] + 3, tc - self.half[c] - 3
            ops = (("L", *self.at(a, lp)), *self._curve(a, lp, tc, lc, None, b))
            colour = _series(int(lp))
        return Mark((("M", *self.at(tp, lp)), *ops), colour, None, 3.0)

    def _first(self, c: int, p: int) -> bool:
        """Whether `p` is `c`'s first parent (`c` then starts its branch off another)."""
        return self.graph.commits[c].parents[0] == self.graph.commits[p].id

    def _curve(
        self,
        t0: float,
        l0: float,
        t1: float,
        l1: float,
        a: float | None = None,
        b: float | None = None,
    ) -> tuple[Op, ...]:
        """From (t0, l0) to (t1, l1): straight along lane l0 to `a`, an S-curve to `b` on
        lane l1, then straight on (both ends level with their lanes)."""
        a = t0 if a is None else a
        b = t1 if b is None else b
        mid = (a + b) / 2
        out: list[Op] = []
        if a != t0:
            out.append(("L", *self.at(a, l0)))
        out.append(("C", *self.at(mid, l0), *self.at(mid, l1), *self.at(b, l1)))
        if b != t1:
            out.append(("L", *self.at(t1, l1)))
        return tuple(out)

    def _commit(self, i: int, commit: Commit) -> list[Mark | Label]:
        t, lane = self._dot(i)
        x, y = self.at(t, lane)
        role = _series(int(lane))
        if commit.kind == "highlight":
            out: list[Mark | Label] = [
                Mark(rect_ops(x - _DOT, y - _DOT, 2 * _DOT, 2 * _DOT, 2), None, role)
            ]
            out.append(Mark(rect_ops(x - 3.5, y - 3.5, 7, 7, 1), None, "page"))
        else:
            out = [Mark(circle_ops(x, y, _DOT), "page", role, 1.5)]
        if commit.kind in ("merge", "cherry"):
            out.append(Mark(circle_ops(x, y, 3.5), None, "page"))
        elif commit.kind == "reverse":
            d = _DOT * 0.45
            cross = (
                ("M", x - d, y - d),
                ("L", x + d, y + d),
                ("M", x - d, y + d),
                ("L", x + d, y - d),
            )
            out.append(Mark(cross, "page", None, 2.0))
        ids, tag = self.ids[i], self.tags[i]
        if ids.width:
            if self.across:
                self.id_labels.append(Label(ids, x, y + _DOT + 3, "muted"))
            else:
                self.id_labels.append(
                    Label(ids, x + _DOT + _ID_GAP, y - ids.height / 2, "muted", "left")
                )
        if tag.width:
            self.front.extend(self._tag(tag, x, y))
        return out

    def _tag(self, tag: Lines, x: float, y: float) -> list[Mark | Label]:
        """A tag's chip: above its dot, or left of it when time runs down."""
        w, h = tag.width + 2 * _CHIP_X, tag.height + 2 * _CHIP_Y
        left, top = (
            (x - w / 2, y - _DOT - 3 - h) if self.across else (x - _DOT - _TAG_GAP - w, y - h / 2)
        )
        box = rect_ops(left, top, w, h, 3)
        # no outline round a label: see drawing._node_mark
        return [Mark(box, None, tint("muted")), Label(tag, left + w / 2, top + _CHIP_Y)]

    def _chip(self, name: Lines, start: float, lane: int, role: str) -> list[Mark | Label]:
        """A branch's name on a chip of its colour at its lane's start."""
        x, y = self.at(start, lane)
        w, h = name.width + 2 * _CHIP_X, name.height + 2 * _CHIP_Y
        if self.across:
            left, top = x, y - h / 2
        else:
            left, top = x - w / 2, (y if self.graph.orientation == "TB" else y - h)
        box = rect_ops(left, top, w, h, h / 2)
        return [
            Mark(box, None, "page"),
            Mark(box, None, tint(role)),
            Label(name, left + w / 2, top + _CHIP_Y),
        ]


def _series(lane: int) -> str:
    return f"series{lane % 8}"
