"""A paragraph never ends on a runt where a better set of breaks exists (CSS
`text-wrap: pretty`; pure, no fonts).

A runt is a last line of one CJK character, or of one Latin word under `RUNT_LETTERS`
letters (punctuation and emoji aside): "事。💪", "end", "me.". When greedy filling ends a
paragraph, or a line a hard break ends, with one, its last two to `PRETTY_LINES` lines are
filled again at narrower widths (down to `PRETTY_NEAR` of the line) with as many lines as
before; the widest width whose last line is no runt wins, so the fewest words move. A set
that draws more hyphens, breaks more words inside (between letters) or overflows is never
taken. Narrower still (down to `PRETTY_FLOOR`), where the line before was short already, a
set is taken only if its last line stays the shortest ("level two with bold and / `code`"
→ "level two with bold / and `code`", never an upside-down shape). Chromium's `pretty`
looks at the last four lines too, but only for a last line of one word, and gives up rather
than trying narrower widths. Only text that ends on a runt pays.
"""

from __future__ import annotations

import unicodedata

from .linebreak import Edges, LineRange, fit_line
from .opportunities import HYPHEN, MANDATORY, NEVER, SOFT_HYPHEN

RUNT_LETTERS = 5  # a Latin last word shorter than this is a runt
PRETTY_LINES = 4  # at most this many last lines are filled again
PRETTY_NEAR = 0.8  # down to this share of the line, any set without a runt will do
PRETTY_FLOOR = 0.5  # the narrowest trial width, as a share of the line
PRETTY_STEPS = 40  # trial widths between the full and the narrowest one
_CJK_NAMES = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL")
_BLANKS = " \t\u3000\n"


def is_runt(text: str) -> bool:
    """One CJK character, or one Latin word under `RUNT_LETTERS` characters (closing
    punctuation, emoji and trailing spaces aside)."""
    text = text.strip(_BLANKS)
    if any(blank in text for blank in _BLANKS):
        return False
    word = "".join(c for c in text if unicodedata.category(c)[0] in "LN")
    if not word:
        return False
    if all(_is_cjk(c) for c in word):
        return len(word) == 1
    return word.isascii() and _visible_length(text) < RUNT_LETTERS


def _visible_length(text: str) -> int:
    """How many characters a Latin last line shows, its closing punctuation and combining
    marks aside: "me." is 2, but a range such as "0.5%～1.5%。" is 10, not the 4 digits a
    letters-only count saw (which pulled "是" down to keep it company)."""
    end = len(text)
    while end and unicodedata.category(text[end - 1])[0] == "P":
        end -= 1
    return sum(1 for c in text[:end] if unicodedata.category(c)[0] != "M")


def _is_cjk(char: str) -> bool:
    name = unicodedata.name(char, "")
    return unicodedata.category(char)[0] == "L" and any(s in name for s in _CJK_NAMES)


def pretty_lines(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    lines: list[LineRange],
    max_width: float,
    edges: list[Edges],
) -> list[LineRange]:
    """`lines` with each paragraph (and each hard-broken line) ending on a runt re-broken
    over its last few lines, where a set without one exists."""
    out: list[LineRange] = []
    start = 0  # the first line of the current hard-broken paragraph
    for k, line in enumerate(lines):
        if k < len(lines) - 1 and allowed[line.end - 1] != MANDATORY:
            continue
        part = lines[start : k + 1]
        if len(part) >= 2 and is_runt("".join(texts[line.start : line.end])):
            part = _rebroken(texts, widths, allowed, edges, part, max_width) or part
        out.extend(part)
        start = k + 1
    return out


def _rebroken(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    part: list[LineRange],
    max_width: float,
) -> list[LineRange] | None:
    """`part` with its last few lines filled again at the widest narrower width that
    leaves no runt at its end; None when no width does."""
    best: list[LineRange] | None = None
    best_width = 0.0
    for count in range(2, min(PRETTY_LINES, len(part)) + 1):
        tail = part[-count:]
        for step in range(1, PRETTY_STEPS + 1):
            width = max_width * (1 - (1 - PRETTY_FLOOR) * step / PRETTY_STEPS)
            if width <= best_width:
                break
            trial = _filled(texts, widths, allowed, edges, tail, width)
            upright = width < PRETTY_NEAR * max_width  # the last line must stay the shortest
            if trial is not None and _no_worse(trial, tail, texts, allowed, max_width, upright):
                best, best_width = part[:-count] + trial, width
                break
    return best


def _filled(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    tail: list[LineRange],
    width: float,
) -> list[LineRange] | None:
    """The clusters of `tail` filled greedily at `width`; None unless they take exactly
    as many lines."""
    start, end = tail[0].start, tail[-1].end
    lines: list[LineRange] = []
    while start < end and len(lines) < len(tail):
        line = fit_line(texts, widths, allowed, edges, start, width)
        lines.append(line)
        start = line.end
    return lines if start == end and len(lines) == len(tail) else None


def _no_worse(
    trial: list[LineRange],
    tail: list[LineRange],
    texts: list[str],
    allowed: list[int],
    max_width: float,
    upright: bool,
) -> bool:
    """No runt at the end (nor, if `upright`, a last line longer than one above it); no
    line over the width, no more hyphens nor broken words."""
    last = trial[-1]
    if is_runt("".join(texts[last.start : last.end])):
        return False
    if upright and any(line.width < last.width for line in trial[:-1]):
        return False
    if any(line.width > max_width + 1e-6 for line in trial):
        return False
    return _hyphens(trial, texts, allowed) <= _hyphens(tail, texts, allowed) and _inside(
        trial, allowed
    ) <= _inside(tail, allowed)


def _hyphens(lines: list[LineRange], texts: list[str], allowed: list[int]) -> int:
    ends = [line.end - 1 for line in lines[:-1]]
    return sum(allowed[e] == HYPHEN or texts[e] == SOFT_HYPHEN for e in ends)


def _inside(lines: list[LineRange], allowed: list[int]) -> int:
    """Lines broken inside an unbreakable piece (a word wider than the line)."""
    return sum(allowed[line.end - 1] == NEVER for line in lines[:-1])
