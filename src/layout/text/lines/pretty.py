"""A paragraph never ends on a runt where a better set of breaks exists (CSS
`text-wrap: pretty`; pure, no fonts).

A runt is a last line of at most `CJK_RUNT` CJK characters (a number spaced from them
counted as one: "7 楼。"), or of one Latin word under `RUNT_LETTERS` letters (punctuation and
emoji aside; a number under `RUNT_DIGITS`): "事。💪", "钉子。", "end", "me.", "skipped.". A set
that mends it must not start its last line inside a Chinese word or a Japanese phrase
(`_parts_a_word`). When greedy filling ends a paragraph, or a line a hard break ends, with
one, its last two to `PRETTY_LINES` lines are filled again at narrower widths (down to
`PRETTY_NEAR` of the line) with as many lines as before; the widest width whose last line is
no runt wins, so the fewest words move. A set that draws more hyphens, breaks more words
inside (between letters) or overflows is never taken. Narrower still (down to
`PRETTY_FLOOR`), where the line before was short already, a set is taken only if its last
line stays the shortest ("level two with bold and / `code`" → "level two with bold / and
`code`", never an upside-down shape). Chromium's `pretty` looks at the last four lines too,
but only for a last line of one word, and gives up rather than trying narrower widths. Only
text that ends on a runt pays, and in ragged text (not justified) one that ends on a short
line cut from its clause (`CLAUSE_SHORT`): there the last line opens after the clause's mark
where the last two lines allow it, as a designer breaks ("…的提交。/ 已经推上去的，别用。",
not "…已经推上去 / 的，别用。").

In justified text, a line that would be spread past what reads as set solid (`even_lines`:
a looseness over 1, as inline.py weighs it; say "建议 / 19:00" where the time cannot come
up) takes a piece or two from the line before, the rest of its paragraph filled again,
where that leaves fewer loose lines and no more lines, hyphens, broken words or runts:
TeX's total fit, for the few lines it changes. A loose line with no line before to take
from (a paragraph's first: "如果…那就现 / 在做。", where `avoid_lone_last` sent a character
down) pulls the next piece or two up instead, making room by compressing its marks' blanks
(clreq's line compression: "…做完，那就现在做。" on one line). A line no set of breaks
helps is set flush start by inline.py rather than spread.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from ..linebreak import Edges, LineRange, fit_line, measured, paragraphs, refilled
from ..opportunities import ALLOWED, HYPHEN, MANDATORY, NEVER, SOFT_HYPHEN
from ..words import inside_phrases, inside_words, is_japanese, is_japanese_letter
from .wholewords import Words, between_letters

# A Latin last word shorter than this is a runt: "start." alone under a slide's three-line
# paragraph, "skipped." under a card's; a word of nine letters or more ("nightstand.")
# holds its line. A number (more digits than letters) is one under `RUNT_DIGITS`: "5%。",
# not "0.5%～1.5%。" nor "v1.2.3".
RUNT_LETTERS = 9
RUNT_DIGITS = 5
# A CJK last line of this many characters or fewer is a runt: "钉子。", "为准。" under a
# full line read as a stub (the raters of the twenty-second session marked 98 sets at
# 440x586 for them), and often part a word the line before began ("相 / 亲角。", "扛 / 得住。").
CJK_RUNT = 2
PRETTY_LINES = 4  # at most this many last lines are filled again
PRETTY_NEAR = 0.8  # down to this share of the line, any set without a runt will do
PRETTY_FLOOR = 0.5  # the narrowest trial width, as a share of the line
PRETTY_STEPS = 40  # trial widths between the full and the narrowest one
EVEN_MOVES = 3  # a loose line takes at most this many pieces from the line before
_CJK_NAMES = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL")
_BLANKS = " \t\u3000\n"


def is_runt(text: str) -> bool:
    """One CJK character, or one Latin word under `RUNT_LETTERS` characters (closing
    punctuation, emoji and trailing spaces aside)."""
    text = text.strip(_BLANKS)
    if any(blank in text for blank in _BLANKS):
        return _numbered_runt(text)
    word = "".join(c for c in text if unicodedata.category(c)[0] in "LN")
    if not word:
        return False
    if all(_is_cjk(c) for c in word):
        return len(word) <= CJK_RUNT
    letters = sum(c.isalpha() for c in word)
    least = RUNT_LETTERS if letters > len(word) - letters else RUNT_DIGITS  # "v1.2.3": a number
    return word.isascii() and _visible_length(text) < least


def _numbered_runt(text: str) -> bool:
    """A last line of a number and CJK characters, a space between them ("7 楼。", "3
    分钟。" under a full slide line: 12 sets of the Chengdu post at 1600x900), counted as a
    CJK line with the number one character: a runt at `CJK_RUNT` or fewer. Latin words
    spaced apart ("a b") are none."""
    count, cjk = 0, False
    for token in text.split():
        word = "".join(c for c in token if unicodedata.category(c)[0] in "LN")
        if word and all(_is_cjk(c) for c in word):
            count, cjk = count + len(word), True
        elif word.isascii() and word.isdigit():
            count += 1
        elif word:
            return False
    return cjk and count <= CJK_RUNT


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
    *,
    ragged: bool = False,
) -> list[LineRange]:
    """`lines` with each paragraph (and each hard-broken line) ending on a runt re-broken
    over its last few lines, where a set without one exists; in `ragged` text (not
    justified), at a clause's end where the last two lines allow one (`_rebroken`'s
    `at_clause`), and so too a short last line cut from its clause (`_cut_short`)."""
    out: list[LineRange] = []
    for part in paragraphs(lines, allowed):
        line = part[-1]
        # the end of a word broken between letters (no opportunity before it) is no runt:
        # where it breaks is the word's, not the paragraph's shape
        inside = line.start > 0 and allowed[line.start - 1] == NEVER
        if len(part) < 2 or inside:
            out.extend(part)
            continue
        runt = is_runt("".join(texts[line.start : line.end]))
        mended = _rebroken(texts, widths, allowed, edges, part, max_width) if runt else None
        cut = runt or _cut_short(line, texts, max_width)
        if ragged and cut and not (mended and _after_clause(mended[-1], texts)):
            clause = _rebroken(texts, widths, allowed, edges, part, max_width, at_clause=True)
            mended = clause or mended
        out.extend(mended or part)
    return out


# Marks that end a clause: a last line that opens after one reads as the paragraph's last
# clause, not as a phrase cut ("已经推上去 / 的，别用。" → "…的提交。/ 已经推上去的，别用。").
CLAUSE_ENDS = frozenset("。！？；，、：!?;:,")


# A last line under this share of the measure that opens inside a clause reads as cut off
# from it ("…已经推上去 / 的，别用。" filled so at the first try in minimal at 500x500).
CLAUSE_SHORT = 0.25


def _cut_short(line: LineRange, texts: list[str], max_width: float) -> bool:
    """Whether a paragraph's last `line` is short (under `CLAUSE_SHORT` of the measure)
    and opens inside a clause."""
    return line.width < CLAUSE_SHORT * max_width and not _after_clause(line, texts)


def _after_clause(line: LineRange, texts: list[str]) -> bool:
    """Whether `line` opens right after a mark that ends a clause."""
    return line.start > 0 and texts[line.start - 1].rstrip()[-1:] in CLAUSE_ENDS


def _rebroken(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    part: list[LineRange],
    max_width: float,
    *,
    at_clause: bool = False,
) -> list[LineRange] | None:
    """`part` with its last few lines filled again at the widest narrower width that
    leaves no runt at its end; None when no width does. `at_clause` (ragged text only: a
    justified line ended early would be spread): its last two lines, down to
    `PRETTY_FLOOR`, at the widest width whose last line opens after a clause's end and
    stays the shortest (the 500x500 git post's card 1 ended "已经推上去 / 的，别用。" in 11
    theme-modes, eighth look: "break after 的提交。")."""
    best: list[LineRange] | None = None
    best_key = (_UNWEIGHED, 0.0)  # (words parted, -width) of `best`: the least wins
    parted = _Parted(texts, part)
    for count in (2,) if at_clause else range(2, min(PRETTY_LINES, len(part)) + 1):
        tail = part[-count:]
        for step in range(1, PRETTY_STEPS + 1):
            width = max_width * (1 - (1 - PRETTY_FLOOR) * step / PRETTY_STEPS)
            near = width >= PRETTY_NEAR * max_width
            if width <= -best_key[1] and not (near and best_key[0]):
                break
            trial = _filled(texts, widths, allowed, edges, tail, width)
            if trial is None or (at_clause and not _after_clause(trial[-1], texts)):
                continue
            # far narrower, or at a clause, the last line must stay the shortest
            upright = at_clause or not near
            if _no_worse(trial, tail, texts, allowed, max_width, upright):
                key = (parted.count(trial) if near else _UNWEIGHED, -width)
                if best is None or key < best_key:
                    best, best_key = part[:-count] + trial, key
                if not key[0] or not near:
                    break
    return best


# Near the full measure, a set that opens fewer lines inside a CJK word is taken over a wider
# one: the Kyoto post's …学生や先生が静かに本を / 読んで… mended its runt as …先生が静か / に本を
# 読んでいます。…, where …先生が / 静かに本を読んでいます。… parts nothing (eleventh look,
# "静か/に" in six theme-modes). Further in, only the width counts.
_UNWEIGHED = 1 << 30


class _Parted:
    """Counts the lines of a paragraph's set (of `part`'s clusters) that open inside a
    Chinese word or a Japanese phrase (`wholewords.Words`); the words read on the first
    line that opens between two CJK letters."""

    def __init__(self, texts: list[str], part: list[LineRange]) -> None:
        self.texts, self.first, self.end = texts, part[0].start, part[-1].end
        self.words: Words | None = None

    def count(self, lines: list[LineRange]) -> int:
        return sum(
            1
            for line in lines
            if line.start > self.first
            and between_letters(self.texts, line.start)
            and not self._words().between(line.start)
        )

    def _words(self) -> Words:
        if self.words is None:
            self.words = Words(self.texts, self.first, self.end)
        return self.words


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
    lines = refilled(texts, widths, allowed, edges, tail[0].start, tail[-1].end, width)
    return lines if len(lines) == len(tail) else None


def _no_worse(
    trial: list[LineRange],
    tail: list[LineRange],
    texts: list[str],
    allowed: list[int],
    max_width: float,
    upright: bool,
) -> bool:
    """No runt at the end (nor, if `upright`, a last line longer than one above it); no
    line over the width, no more hyphens nor broken words. (No line ends on a clause's
    first Latin word: `units.keep_whole` holds it with what follows.)"""
    last = trial[-1]
    if is_runt("".join(texts[last.start : last.end])) or _parts_a_word(trial, texts):
        return False
    if upright and any(line.width < last.width for line in trial[:-1]):
        return False
    if any(line.width > max_width + 1e-6 for line in trial):
        return False
    return _hyphens(trial, texts, allowed) <= _hyphens(tail, texts, allowed) and _inside(
        trial, allowed
    ) <= _inside(tail, allowed)


def _parts_a_word(lines: list[LineRange], texts: list[str]) -> bool:
    """Whether the last line of `lines` starts inside a Chinese word (the segmenter's, on
    these lines' text) or a Japanese phrase (BudouX's): a runt mended by moving one
    character down parts the word the line before ends on ("总 / 结文章。"), where moving
    the whole word ("总结文章。") reads as the paragraph's last words."""
    start = lines[-1].start
    if not (
        start and is_japanese_letter(texts[start - 1][-1:]) and is_japanese_letter(texts[start][:1])
    ):
        return False
    text = "".join(texts[lines[0].start : lines[-1].end])
    offset = sum(len(t) for t in texts[lines[0].start : start])
    inside = inside_phrases(text) if is_japanese(text) else inside_words(text)
    return offset in inside


def _hyphens(lines: list[LineRange], texts: list[str], allowed: list[int]) -> int:
    ends = [line.end - 1 for line in lines[:-1]]
    return sum(allowed[e] == HYPHEN or texts[e] == SOFT_HYPHEN for e in ends)


def _inside(lines: list[LineRange], allowed: list[int]) -> int:
    """Lines broken inside an unbreakable piece (a word wider than the line)."""
    return sum(allowed[line.end - 1] == NEVER for line in lines[:-1])


def even_lines(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    lines: list[LineRange],
    max_width: float,
    edges: list[Edges],
    looseness: Callable[[LineRange], float],
) -> list[LineRange]:
    """`lines` with each loose one (a `looseness` over 1) eased: the line before ending a
    piece or a few earlier, else (a paragraph's first line has no line before) the loose
    line pulling the next piece up with its marks' blanks compressed; the rest of the
    paragraph filled again, where that leaves fewer loose lines; never more lines,
    hyphens, broken words, nor a runt at the end."""
    out = list(lines)
    k = 0
    while k < len(out):
        if _ends_paragraph(out, k, allowed) or looseness(out[k]) <= 1.0:
            k += 1
            continue
        end = k + 1
        while not _ends_paragraph(out, end - 1, allowed):
            end += 1
        eased = None
        if k and allowed[out[k - 1].end - 1] != MANDATORY:
            eased = _eased(texts, widths, allowed, edges, out[k - 1 : end], max_width, looseness)
            if eased is not None:
                out[k - 1 : end] = eased
        if eased is None:
            part = out[k:end]
            pulled = _pulled(texts, widths, allowed, edges, part, max_width, looseness)
            out[k:end] = pulled or part
        k += 1
    return out


def _ends_paragraph(lines: list[LineRange], k: int, allowed: list[int]) -> bool:
    """Whether line `k` is its paragraph's last (never justified): the text's, or one a
    hard break ends."""
    return k == len(lines) - 1 or allowed[lines[k].end - 1] == MANDATORY


def _eased(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    part: list[LineRange],
    max_width: float,
    looseness: Callable[[LineRange], float],
) -> list[LineRange] | None:
    """`part` (a line, then the loose one and the rest of its paragraph) with its first
    line ending up to EVEN_MOVES pieces earlier, and either only the loose line taking
    them (the breaks after it kept: a runt `pretty_lines` avoided stays avoided) or the
    rest filled again at the full width: the first such set with fewer loose lines and
    nothing worse; None when none has."""
    loose = _loose_count(part, looseness)
    first = part[0]
    for _ in range(EVEN_MOVES):
        first = fit_line(texts, widths, allowed, edges, first.start, first.width - 1e-3)
        if first.end <= part[0].start + 1 or looseness(first) > 1.0:
            return None  # nothing left to give, or the line before is loose in its turn
        if first.end >= part[0].end:
            # narrower yet no shorter: the line ended at a soft hyphen, whose drawn hyphen
            # made it wider than a longer one (hypothesis: an IndexError past the text)
            return None
        taken = _taking(widths, edges, part[1], first.end)
        again = refilled(texts, widths, allowed, edges, first.end, part[-1].end, max_width)
        for trial in ([first, taken, *part[2:]], [first, *again]):
            fewer = len(trial) == len(part) and _loose_count(trial, looseness) < loose
            fits = trial[1].width <= max_width + 1e-6
            if fewer and fits and _as_good(trial, part, texts, allowed):
                return trial
    return None


def _pulled(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    part: list[LineRange],
    max_width: float,
    looseness: Callable[[LineRange], float],
) -> list[LineRange] | None:
    """`part` (a loose line and the rest of its paragraph) with the loose line taking up
    to EVEN_MOVES pieces of the next, its marks' blanks compressed to make room (clreq's
    line compression), and either the breaks after kept or the rest filled again: the
    first such set with fewer loose lines and nothing worse; None when none has."""
    loose = _loose_count(part, looseness)
    for end in _next_breaks(allowed, edges, part[0].end, part[-1].end):
        first = measured(texts, widths, edges, part[0].start, end, max_width, squeeze=True)
        if first is None:
            return None  # the next piece does not fit however tight the marks are set
        rest = [line for line in part[1:] if line.end > end]
        if rest:
            rest[0] = _taking(widths, edges, rest[0], end)
        again = refilled(texts, widths, allowed, edges, end, part[-1].end, max_width)
        for trial in ([first, *rest], [first, *again]):
            fewer = len(trial) <= len(part) and _loose_count(trial, looseness) < loose
            if fewer and _as_good(trial, part, texts, allowed):
                return trial
    return None


def _next_breaks(allowed: list[int], edges: list[Edges], start: int, end: int) -> list[int]:
    """The first EVEN_MOVES places a line could end after `start`, up to `end` (the
    paragraph's end): ordinary breaks, not one that would draw a hyphen (a soft hyphen's),
    which `measured` leaves out of the width."""
    breaks = [i + 1 for i in range(start, end - 1) if allowed[i] == ALLOWED and not edges[i].hyphen]
    return [*breaks, end][:EVEN_MOVES]


def _taking(widths: list[float], edges: list[Edges], line: LineRange, start: int) -> LineRange:
    """`line` starting at `start`, earlier (taking clusters from the line before) or later
    (giving its first ones to it): its old first cluster set whole (no longer at a line
    start), the new one losing what a line start takes off it."""
    moved = sum(widths[start : line.start]) - sum(widths[line.start : start])  # one is empty
    grown = line.width + line.trim_start + moved - edges[start].start
    return LineRange(start, line.end, grown, edges[start].start, line.trim_end, line.squeeze)


def _as_good(
    trial: list[LineRange], part: list[LineRange], texts: list[str], allowed: list[int]
) -> bool:
    """No runt at the end where there was none, no more hyphens nor broken words."""
    runt = is_runt("".join(texts[trial[-1].start : trial[-1].end]))
    if runt and not is_runt("".join(texts[part[-1].start : part[-1].end])):
        return False
    return _hyphens(trial, texts, allowed) <= _hyphens(part, texts, allowed) and _inside(
        trial, allowed
    ) <= _inside(part, allowed)


def _loose_count(lines: list[LineRange], looseness: Callable[[LineRange], float]) -> int:
    """How many of `lines` but the last (never justified) would be spread loose."""
    return sum(looseness(line) > 1.0 for line in lines[:-1])
