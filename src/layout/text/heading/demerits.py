"""A heading's word breaks with their costs → the cheapest set of as many lines.

Where only the word ranks set a heading in as few lines (`ranks`), balancing alone takes any
word break alike; here each break costs its rank on the ladder, more where it parts a
compound or opens a line on a dash, squared as TeX squares its demerits (one bad break
weighs more than two mild ones), and of the sets of lines that cost the same the most even
is kept. May import: `layout.text` (`heading.balance`, `linebreak`, `opportunities`).
"""

from __future__ import annotations

import itertools

from ..linebreak import LineRange, content_end, edge_trims
from ..opportunities import MANDATORY, NEVER
from .balance import BALANCE_MAX_LINES
from .setting import Setting

# A break costs this many ranks more where it parts a compound a reader takes as one (燃脂 /
# 训练: `words.compound_edges`) or opens a line on a dash
INSIDE_COMPOUND = 3
_LINE_OPENERS = frozenset("—–·")


def opens_on_a_dash(texts: list[str], i: int) -> bool:
    """Whether a break after cluster `i` opens a line on a dash or a middle dot (——不是因为,
    "— 逆向思考", ·芒格): as costly as a compound parted."""
    return i + 1 < len(texts) and texts[i + 1][:1] in _LINE_OPENERS


def parts(balanced: list[LineRange], parted: list[bool]) -> bool:
    """Whether the `balanced` lines break where `parted` marks a compound parted (or a
    line opened on a dash), at two to `BALANCE_MAX_LINES` lines: else they stay."""
    now = [line.end - 1 for line in balanced[:-1]]
    return 2 <= len(balanced) <= BALANCE_MAX_LINES and any(parted[i] for i in now)


def least_costly(
    s: Setting,
    balanced: list[LineRange],
    opportunities: tuple[list[int], list[int]],
    breaks: tuple[list[int], list[bool]],
    least: float,
) -> list[int]:
    """Of `opportunities` (kept: where the heading breaks now, in the `balanced` lines,
    which part a compound: `parts`; candidates: every word break), kept, or the
    candidates narrowed to the cheapest set of as many lines, when that costs less or the
    balanced lines leave a stub before the last. `breaks`: each break's rank on the
    ladder, and whether it parts a compound (or opens a line on a dash); `least`: the
    least share of the line's width a line may take."""
    kept, candidates = opportunities
    ranks, parted = breaks
    now = [line.end - 1 for line in balanced[:-1]]
    costs = [
        (rank + (INSIDE_COMPOUND if part else 0)) ** 2
        for rank, part in zip(ranks, parted, strict=True)
    ]
    chosen = _cheapest(s, candidates, costs, len(balanced), least)
    # a line before the last under `least` of the measure is a stub any even set beats:
    # 年度版本节奏：/ 每个 / 里程碑都要看得清, where …/ 每个里程碑 / 都要看得清 costs more
    stub = any(line.width < least * s.width for line in balanced[:-1])
    if chosen is None or (sum(costs[i] for i in chosen) >= sum(costs[i] for i in now) and not stub):
        return kept
    narrowed = [k if i in chosen or k == MANDATORY else NEVER for i, k in enumerate(candidates)]
    return narrowed if len(s.lines(narrowed)) == len(balanced) else kept


def _cheapest(
    s: Setting, allowed: list[int], costs: list[int], count: int, least: float
) -> set[int] | None:
    """The breaks (cluster indices) of the `count` lines, each fitting the line and at
    least the `least` share of it, whose breaks cost least (`costs`), then whose
    lines leave the least squared room; None when no such set is left (a line too short).
    A search over line ends, line by line (a heading is short: at most a few hundred
    clusters' pairs a line)."""
    texts, width, n = s.texts, s.width, len(s.texts)
    ends = [i + 1 for i in range(n - 1) if allowed[i] != NEVER] + [n]
    before = list(itertools.accumulate(s.widths, initial=0.0))  # width of clusters [0, i)
    # best[e]: for lines covering [0, e), the least (cost, room) and the breaks it takes
    best: dict[int, tuple[tuple[float, float], tuple[int, ...]]] = {0: ((0.0, 0.0), ())}
    for _ in range(count):
        step: dict[int, tuple[tuple[float, float], tuple[int, ...]]] = {}
        for start, ((cost, room), breaks) in best.items():
            for end in ends:
                if end <= start:
                    continue
                last = content_end(texts, start, end)
                line = before[last] - before[start] - edge_trims(s.edges, start, last - 1)
                if line > width:
                    break  # wider lines only, further on
                if line >= least * width:
                    paid = cost + (costs[end - 1] if end < n else 0)
                    total = ((paid, room + (1 - line / width) ** 2), (*breaks, end - 1))
                    if end not in step or total[0] < step[end][0]:
                        step[end] = total
                if allowed[end - 1] == MANDATORY:
                    break  # a hard break ends this line, not a later one
        best = step
    return set(best[n][1][:-1]) if n in best else None
