"""Cluster texts and widths → line ranges (greedy, CJK-aware; pure, no fonts).

Break opportunities follow a compact subset of UAX #14 with the W3C clreq punctuation
rules: breaks between Chinese and Japanese characters and emoji (Korean, which sets
words apart with spaces, breaks at the spaces), after spaces, after a hyphen inside a
word and after a slash in URLs; never before closing punctuation (`，。！？；：）」』】》、`…)
nor after opening punctuation (`（「『【《`…); never where HarfBuzz marked the boundary
unsafe to break. A word wider than the line is broken between clusters rather than
allowed to overflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import regex


class Brk(IntEnum):
    """Break class of a cluster, by its first character."""

    AL = 0  # letters, digits, other symbols: no break between two
    SP = 1  # space: break after a run of them; they hang at line end
    BK = 2  # hard line break
    CL = 3  # closing punctuation (narrow): never at a line start
    CLW = 4  # closing punctuation (CJK): never at a line start, break after
    OP = 5  # opening punctuation: never at a line end
    ID = 6  # ideographs, kana, emoji: break on either side (Korean breaks at spaces,
    #          CSS `word-break: keep-all`, so Hangul is AL)
    HY = 7  # hyphen inside a word: break after
    SL = 8  # slash: break after, before a letter (long URLs)
    B2 = 9  # em dash: break on either side, but not inside a run of dashes


NEVER, ALLOWED, MANDATORY = 0, 1, 2
_CLOSE_WIDE = set(
    "，。！？；：、）」』】》〉〕〗〙〛｝］’”…‥〜～・ー々〻ゝゞヽヾ"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ｡､｣．，"
)
_CLOSE_NARROW = set(".,!?;:)]}%")
_OPEN = set("（「『【《〈〔〖〘〚｛［‘“([{")
_IDEOGRAPHIC = regex.compile(
    r"[\p{Ideographic}\p{Hiragana}\p{Katakana}\p{Extended_Pictographic}"
    r"\u3000-\u303F\uFF01-\uFF60\u31F0-\u31FF\u3200-\u33FF]"
)
_EMOJI_MARK = regex.compile(r"[\uFE0F\u20E3\p{Regional_Indicator}]")
_WORDLIKE = regex.compile(r"[\p{L}\p{N}]")
_HANGING = (" ", "\t", "\u3000", "\n")


@dataclass(frozen=True, slots=True)
class LineRange:
    """Clusters [start, end) form a line; `width` leaves out its trailing spaces and
    hard break."""

    start: int
    end: int
    width: float


def classify(text: str) -> Brk:
    """The break class of one cluster's text."""
    first = text[:1]
    if first == "\n":
        return Brk.BK
    if first in (" ", "\t", "\u3000"):
        return Brk.SP
    if first in _CLOSE_WIDE:
        return Brk.CLW
    if first in _CLOSE_NARROW:
        return Brk.CL
    if first in _OPEN:
        return Brk.OP
    if first in ("-", "\u2010"):
        return Brk.HY
    if first == "/":
        return Brk.SL
    if first in ("\u2014", "\u2015"):
        return Brk.B2
    if _IDEOGRAPHIC.match(first) or (len(text) > 1 and _EMOJI_MARK.search(text)):
        return Brk.ID
    return Brk.AL


def opportunities(texts: list[str], unsafe: list[bool]) -> list[int]:
    """For each cluster, whether a line may (1), must (2) or must not (0) end after it."""
    classes = [classify(t) for t in texts]
    result = [NEVER] * len(texts)
    for i in range(len(texts) - 1):
        result[i] = _pair(classes, i, unsafe[i + 1])
    if texts:
        result[-1] = MANDATORY if classes[-1] == Brk.BK else ALLOWED
    return result


def hold_short_runs(texts: list[str], allowed: list[int], keep: int) -> list[int]:
    """`allowed` with no break inside a run of at most `keep` clusters between spaces and
    hard breaks ("10月", "指标", "A/B" stay whole where a line could otherwise split them)."""
    held = list(allowed)
    start = 0
    for end in range(len(texts) + 1):
        if end < len(texts) and texts[end] not in _HANGING:
            continue
        if end - start <= keep:
            for i in range(start, end - 1):
                if held[i] == ALLOWED:
                    held[i] = NEVER
        start = end + 1
    return held


def _pair(c: list[Brk], i: int, unsafe_next: bool) -> int:
    a, b = c[i], c[i + 1]
    if a == Brk.BK:
        return MANDATORY
    if b in (Brk.BK, Brk.SP, Brk.CL, Brk.CLW) or a == Brk.OP:
        return NEVER
    if a == Brk.SP:
        return ALLOWED
    if unsafe_next:
        return NEVER
    if a == Brk.ID or b == Brk.ID or a == Brk.CLW:
        return ALLOWED
    if a == Brk.B2 or b == Brk.B2:
        return NEVER if a == b else ALLOWED
    if a in (Brk.HY, Brk.SL) and b == Brk.AL:
        return ALLOWED if i > 0 and c[i - 1] == Brk.AL else NEVER
    return NEVER


def break_lines(
    texts: list[str], widths: list[float], allowed: list[int], max_width: float
) -> list[LineRange]:
    """Greedy line fitting; a line holds at least one cluster."""
    lines: list[LineRange] = []
    n = len(texts)
    start = 0
    while start < n:
        end, width = _fit_line(texts, widths, allowed, start, max_width)
        lines.append(LineRange(start, end, width))
        start = end
    return lines


def _fit_line(
    texts: list[str], widths: list[float], allowed: list[int], start: int, max_width: float
) -> tuple[int, float]:
    """Returns (end, width) of the line that starts at `start`.

    Spaces and the hard break hang past the line end: they never push a line over the
    width (a space before a newline would otherwise strand the newline on a blank line
    of its own) and are not counted in it, so centred and right-aligned lines sit true.
    """
    x = 0.0
    trailing = 0.0
    last_break, last_width = -1, 0.0
    for i in range(start, len(texts)):
        if texts[i] in _HANGING:
            x += widths[i]
            trailing += widths[i]
        else:
            if x + widths[i] > max_width + 1e-6 and i > start:
                if last_break >= start:
                    return last_break + 1, last_width
                return i, x - trailing
            x += widths[i]
            trailing = 0.0
        if allowed[i] == MANDATORY:
            return i + 1, x - trailing
        if allowed[i] == ALLOWED:
            last_break, last_width = i, x - trailing
    return len(texts), x - trailing
