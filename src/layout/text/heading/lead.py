"""A cover's lead (display prose: a heading's breaks, a paragraph's shape) → even lines.

A lead's breaks are a heading's (between phrases, at clause ends first), so a phrase too
long for what is left of a line goes down whole; filled greedily, a line that took the
phrase before could leave the next one a stub (系统 1 快、自动、凭直觉；系统 2 慢、费力、 /
讲逻辑。 on the reading notes' cover in four theme-modes at 1080 px). Each paragraph is set
instead as the set of as many lines as greedy filling gives whose lines before its last
leave the least squared room (Knuth and Plass's total fit, without their stretch: the
lines are ragged), so the room spreads over the lines: 系统 1 快、自动、凭直觉；/ 系统 2 慢、
费力、讲逻辑。. Not balanced: a lead of four or five lines balanced read as a block of even
stubs; the last line keeps what is left, unless a stub (`SHORT_LAST`). A lead reads as
display type only while its lines fill the measure as display does (`reads_as_display`:
in Chinese and Japanese, no line that ends between phrases shorter than the next; in
English, a few lines only); else it is a paragraph, which `inline.layout_text` sets
as prose.
Pure, no fonts. May import: `layout.text` (`linebreak`, `opportunities`, `words`).
"""

from __future__ import annotations

import bisect
from itertools import pairwise

from ..linebreak import (
    NO_EDGES,
    OPENING,
    PAUSES,
    Edges,
    LineRange,
    break_lines,
    content_end,
    measured,
    paragraphs,
)
from ..opportunities import ALLOWED
from ..words import is_japanese_letter

# A line that ends between two phrases rather than at a pause (`linebreak.PAUSES`) costs as
# much as one that leaves this share of the line empty: without it the least room broke
# 丹尼尔·卡尼曼把人的 / 思考分成两套系统：系统 1 快、… where the greedy line ended at the colon
UNPAUSED = 0.5
# ... and one that ends at a pause inside a sentence (a comma, not a full stop) as much as
# one that leaves this share empty: with a comma and a full stop at one price, minimal's
# skincare cover broke T区出油，两颊起皮，/ 下巴冒闭口。试了不下30瓶之后， past the sentence's end
MID_SENTENCE = 0.15
SENTENCE_ENDS = frozenset("。！？!?.…")
# A last line under this share of the measure is a stub, and costs as much as a line before
# it ending between phrases (`UNPAUSED`): free, it left the exam plan's 两条线 / 同时推进。
# and the English habits' "… a few small, / boring systems." on their covers (tenth look,
# 500x500, "never leave a single-phrase last line"), where the line before had room to give.
SHORT_LAST = 0.33
# A Chinese or Japanese lead with a line that ends between phrases, at no pause, shorter by
# more than this share of the measure than the line under it reads as a paragraph broken
# early, not as display type: 写代码三年，git 命令我最常搜的 / 就是这几条。收藏起来，下次手
# 滑不慌。 (80 % over 95 %: the git post's masthead in 14 theme-modes of the eleventh look),
# 丹尼尔·卡尼曼把人的 / 思考分成两套系统：… (50 % over 97 %). CJK lines fill to the measure, so
# one left short shows; lines of phrases that end at pauses, or shorten as they go, read as
# display (关键是真题 + 作文模板 / 两条线同时推进。).
LEAD_SLACK = 0.05
# An English lead is ragged anyway, and set between phrases over more lines than this it
# reads as a poem, not a lead: "For two years I started every day / by checking email in
# bed. By 9 a.m. / my attention was already spent / …", six lines (the English habits at
# 500x500 in apple-notes, coil-notebook and typewriter, eleventh look: "a needlessly narrow
# ragged column"). A magazine sets such a standfirst as a paragraph; the recipe's five
# lines of phrases on darktech's cover ("A soup for the evenings when / there is no time to
# cook: / …") keep them.
LEAD_LINES = 5


def lead_lines(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None = None,
) -> list[LineRange]:
    """Greedy lines (`break_lines`), each paragraph between hard breaks of three lines or
    more refilled as the as many lines that leave the least squared room before its last
    (`_evened`); a paragraph no such set fits (a piece wider than the line, cut inside
    itself) keeps its greedy lines."""
    lines = break_lines(texts, widths, allowed, max_width, edges)
    edge = edges or [NO_EDGES] * len(texts)
    out: list[LineRange] = []
    for part in paragraphs(lines, allowed):
        if len(part) >= 3:  # two lines: the least room before the last is greedy's
            part = _evened(texts, widths, allowed, edge, part, max_width) or part
        out.extend(part)
    return out


def reads_as_display(
    texts: list[str], allowed: list[int], lines: list[LineRange], max_width: float
) -> bool:
    """Whether a lead's display `lines` (`lead_lines`) read as display type: an English
    lead's at most `LEAD_LINES`; of a Chinese or Japanese lead's, none before a paragraph's
    last ending at no pause (`linebreak.PAUSES`) shorter than the line under it by
    `LEAD_SLACK` of `max_width`."""
    if _mostly_latin(texts):
        return len(lines) <= LEAD_LINES
    return not any(
        line.width + LEAD_SLACK * max_width < after.width and not _ends_at_pause(texts, line)
        for part in paragraphs(lines, allowed)
        for line, after in pairwise(part)
    )


def _mostly_latin(texts: list[str]) -> bool:
    """Whether Latin letters outnumber CJK ones in a lead's text."""
    latin = cjk = 0
    for text in texts:
        for char in text:
            if char.isascii():
                latin += char.isalpha()
            elif is_japanese_letter(char):
                cjk += 1
    return latin > cjk


def _ends_at_pause(texts: list[str], line: LineRange) -> bool:
    """Whether `line` ends on a pause or a sentence's end, the spaces it ends with aside, or
    before an opening quote or bracket (…古人说 / “一日色变，…”)."""
    last = content_end(texts, line.start, line.end) - 1
    end = texts[last][-1:] if last >= line.start else ""
    after = texts[line.end][:1] if line.end < len(texts) else ""
    return end in PAUSES or end in SENTENCE_ENDS or after in OPENING


def _evened(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    part: list[LineRange],
    max_width: float,
) -> list[LineRange] | None:
    """The lines from `part`'s start to its end, as many as `part`, whose lines before the
    last leave the least sum of squared room, a stub last line charged (`_last_cost`); None
    where no set fits."""
    start, end = part[0].start, part[-1].end
    stops = [i + 1 for i in range(start, end - 1) if allowed[i] == ALLOWED] + [end]
    # the best set up to each stop: (lines, squared room, the line that reaches it)
    best: dict[int, tuple[int, float, LineRange | None]] = {start: (0, 0.0, None)}
    for at in [start, *stops[:-1]]:
        if at not in best:
            continue
        count, room, _ = best[at]
        for stop in stops[bisect.bisect_right(stops, at) :]:
            line = measured(texts, widths, edges, at, stop, max_width)
            if line is None:
                break  # a longer line is wider still
            cost = room + (
                _last_cost(line, max_width) if stop == end else _cost(texts, line, max_width)
            )
            if stop not in best or (count + 1, cost) < best[stop][:2]:
                best[stop] = (count + 1, cost, line)
    if end not in best or best[end][0] != len(part):
        return None
    out: list[LineRange] = []
    at = end
    while at != start:
        line = best[at][2]
        assert line is not None  # every stop but the start was reached by a line
        out.append(line)
        at = line.start
    return out[::-1]


def _cost(texts: list[str], line: LineRange, max_width: float) -> float:
    """A line before the last: its room squared, and the line's squared times the share it
    pays for where it ends: nothing at a sentence's end, `MID_SENTENCE` at a pause inside
    one, `UNPAUSED` between phrases."""
    last = content_end(texts, line.start, line.end) - 1
    end = texts[last][-1:] if last >= line.start else ""
    share = 0.0 if end in SENTENCE_ENDS else MID_SENTENCE if end in PAUSES else UNPAUSED
    return (max_width - line.width) ** 2 + (share * max_width) ** 2


def _last_cost(line: LineRange, max_width: float) -> float:
    """The last line: free, but a stub under `SHORT_LAST` of the measure pays as a line
    before it that ends between phrases does (`UNPAUSED`)."""
    return 0.0 if line.width >= SHORT_LAST * max_width else (UNPAUSED * max_width) ** 2
