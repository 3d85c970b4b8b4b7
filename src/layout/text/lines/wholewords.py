"""Ragged CJK prose → lines that end between words, not inside one, where that is cheap.

A line of Chinese may end between any two characters, and greedy filling ends it wherever
the measure runs out: "先写下自己的估 / 计", "讲逻 / 辑", "两套系 / 统", "推上 / 去" (the
eleventh look named such breaks in 14 of 30 theme-modes; a reader takes the word's first
character at the line's end for a word of its own, then has to mend it on the next line).
In ragged text a designer ends the line a character or two earlier, before the word: the
line's end moves in by that much, which ragged lines show anyway. So each line of a
paragraph but its last that greedy filling ended inside a word (the segmenter's for
Chinese, BudouX's phrase for Japanese: "入 / れます") ends at the word's start instead,
where that start is at most `WORD_MOVE` characters back (`TAIL_MOVE` where the next line
would open on the word's last letter and its mark: "読んでいま / す。"; `PHRASE_MOVE`, and a
third of the line, for a Japanese phrase: "教室の雰囲気 / がそのまま"), a line may end
there, and the paragraph's lines after it, filled again, are no more. Justified text is
left as it is (a line ended early would be spread: `pretty.even_lines` weighs those), and
so are headings and leads (broken between phrases already) and code. Pure, no fonts.
"""

from __future__ import annotations

from itertools import accumulate

from ..linebreak import Edges, LineRange, measured, paragraphs, refilled
from ..opportunities import ALLOWED
from ..words import inside_phrases, inside_words, is_japanese, is_japanese_letter

# The most characters a line gives to the next to keep a word whole: a two- or
# three-character word broken after its first or second ("估 / 计", "推上 / 去"); a longer
# word broken further in stays broken rather than leave a line that much short.
WORD_MOVE = 2
# ... but a line that would open on a word's last letter and its mark ("読んでいま / す。",
# "場合があるの / で、": a Japanese phrase is longer than a Chinese word, 11 Kyoto sets at
# 500x500) takes the whole word down from up to this many characters back,
TAIL_MOVE = 6
# ... and a Japanese line takes its last phrase (BudouX's) down whole from as far: a
# phrase runs to six kana and kanji, and a break inside one reads as a word cut ("静かで落
# ち着 / いた", "教室の雰囲気 / がそのまま", "まず共有したい / のが": 174 of the 729 breaks
# between letters in the Japanese posts' body text, all themes at four sizes; 55 after),
# never more than a third of its line, which would read as a line ended early.
PHRASE_MOVE = 6
_TAIL_MARKS = frozenset("、。，！？；：")


def whole_words(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    lines: list[LineRange],
    max_width: float,
    edges: list[Edges],
) -> list[LineRange]:
    """`lines` with each paragraph's lines before its last ending between words where a
    break inside one can move back to the word's start (`_kept`)."""
    out: list[LineRange] = []
    for part in paragraphs(lines, allowed):
        out.extend(_kept(texts, widths, allowed, part, max_width, edges) if len(part) > 1 else part)
    return out


def _kept(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    part: list[LineRange],
    max_width: float,
    edges: list[Edges],
) -> list[LineRange]:
    """One paragraph's lines, each break inside a word moved back to its start where the
    paragraph keeps its number of lines; the words read once, on its first such break."""
    words: Words | None = None
    k = 0
    while k < len(part) - 1:
        at = part[k].end
        if between_letters(texts, at):
            words = words or Words(texts, part[0].start, part[-1].end)
            most = _most_moved(texts, words, part[k].start, at)
            start = words.start_before(at, part[k].start, allowed, most)
            if start is not None:
                span = (part[k].start, start, part[-1].end)
                moved = _refilled(texts, widths, allowed, edges, span, max_width)
                if len(moved) == len(part) - k:
                    part = part[:k] + moved
        k += 1
    return part


def _most_moved(texts: list[str], words: Words, start: int, at: int) -> int:
    """How many characters back a line from cluster `start` that greedy ended before
    cluster `at`, inside a word, may end instead to keep the word whole."""
    if words.japanese:
        return min(PHRASE_MOVE, (at - start) // 3)
    return TAIL_MOVE if _opens_on_a_tail(texts, at) else WORD_MOVE


def _opens_on_a_tail(texts: list[str], at: int) -> bool:
    """Whether the line that would open at cluster `at` opens on a word's last letter and
    the mark after it ("す。", "で、")."""
    return at + 1 < len(texts) and texts[at + 1][:1] in _TAIL_MARKS


def between_letters(texts: list[str], at: int) -> bool:
    """Whether the break before cluster `at` falls between two CJK letters."""
    return is_japanese_letter(texts[at - 1][-1:]) and is_japanese_letter(texts[at][:1])


class Words:
    """A paragraph's (clusters [first, end)) words: the offsets inside one (a Japanese
    phrase), and each cluster's offset in its text (`pretty` counts a set's parted words
    with it too)."""

    def __init__(self, texts: list[str], first: int, end: int) -> None:
        text = "".join(texts[first:end])
        self.japanese = is_japanese(text)
        inside = inside_phrases(text) if self.japanese else inside_words(text)
        # BudouX opens a phrase on the space before it (" 8 時台なら、"): after the space is
        # between words too
        self.inside = {at for at in inside if not text[at - 1].isspace()}
        self.first = first
        self.offsets = [0, *accumulate(len(t) for t in texts[first:end])]

    def between(self, at: int) -> bool:
        """Whether the break before cluster `at` falls between two words."""
        return self.offsets[at - self.first] not in self.inside

    def start_before(self, at: int, floor: int, allowed: list[int], most: int) -> int | None:
        """Where a line that would end before cluster `at` ends instead to keep the word it
        breaks whole: the nearest break before it, at most `most` clusters back and after
        the line's start (`floor`), that falls between words and where a line may end;
        None where the break is between words already or no such break is near."""
        if self.between(at):
            return None
        for start in range(at - 1, max(floor, at - most - 1), -1):
            if self.between(start):
                return start if allowed[start - 1] == ALLOWED else None
        return None


def _refilled(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    span: tuple[int, int, int],
    max_width: float,
) -> list[LineRange]:
    """The line from `span`'s first cluster ended before its second, then the clusters
    to its third filled greedily (none where that first line would not fit)."""
    start, stop, end = span
    first = measured(texts, widths, edges, start, stop, max_width)
    if first is None:  # shorter than a line that fitted: it fits
        return []
    return [first, *refilled(texts, widths, allowed, edges, stop, end, max_width)]
