"""Runs of prose a reader takes as one unit, so a line never ends inside them (pure, no fonts).

A browser would break inside each of these; a designer moves the whole unit to the next line:

- a hashtag: `#个人成长`, `#读书笔记` (a Xiaohongshu topic is one tap target, and `#` or `#芒`
  left at a line end reads as a typo);
- a transliterated name around a middle dot: `查理·芒格`, `列夫·托尔斯泰` (the dot binds its two
  neighbours in opportunities.py; these hold the Chinese characters of each part too);
- a closing attribution: `——查理·芒格`, `— Steve Jobs` at a paragraph's end (the break goes
  before the dash, not after it nor inside the name);
- a numbered name: `系统 1`, `第 3` (a Chinese word and the one or two digits spaced after
  it, but not a quantity: `英语 60 天` may break before 60), and a time: `9 a.m.`, `11 p.m.`;
- a Latin word that opens a clause after a Chinese mark, with the character after it:
  `，push 之后` (a line ending "…都行，push" parts the clause's first word from the rest of
  it; the break goes after the comma);
- a katakana word (a loanword) of up to `LOANWORD` kana: `コーヒー`, `ホットケーキ` (art-deco's
  Kyoto cafés at 500x500 ended a line on "コー" and opened the next with "ヒー"; headings
  already held them, `opportunities.keep_words`);
- an arrow with the step before it: `ChatGPT →` (a path of steps, 设置 → Apple ID → 订阅 →
  ChatGPT → 取消订阅, opened a list item's second line with "→ 取消订阅" in three themes at
  440x586, thirteenth look: the arrow ends its line and the next step opens the next, in
  a heading as in a paragraph, `opportunities.ARROWS`).

Each hold is bounded (`MAX_UNIT` clusters), so it never makes a piece wider than a line
would usually take; a unit wider than the line still breaks, as any unbreakable piece does.
"""

from __future__ import annotations

from .opportunities import (
    ALLOWED,
    ARROWS,
    DASHES,
    HANGING,
    HYPHEN,
    MANDATORY,
    MIDDLE_DOTS,
    NEVER,
    Brk,
    classify,
    has_katakana,
    is_katakana,
)
from .words import TIME_UNITS, is_han

MAX_UNIT = 16  # clusters: a tag or an attribution longer than this is a phrase, not a unit
LOANWORD = 8  # kana: a longer katakana run is a compound, which may break like a phrase
NAME_PART = 4  # Chinese characters on each side of a middle dot held with it (托尔斯泰)
_HELD_MARKS = MIDDLE_DOTS | DASHES  # with `#`, what any unit here holds
MAX_SOURCE = 24  # clusters after an attribution's dash: "George R. R. Martin", "《论语·学而》"
_DASHES = frozenset((Brk.B2,))
# What a quotation ends with, before its source's dash.
_QUOTED = frozenset("”’」』\"'。！？.!?…")
# A Chinese sentence ends here: text after a dash holding one is a clause, not a source.
_CJK_ENDS = frozenset("。！？；")


def keep_whole(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` with no break inside a hashtag, a dotted name, a closing attribution, a
    numbered name, a clause's opening Latin word and the character after it, a short
    katakana word, or an arrow and the step before it."""
    joined = "".join(texts)
    numbered = any(char.isdigit() for char in joined)
    clauses = _CLAUSE_MARKS.intersection(joined)
    kana = has_katakana(joined)
    held = "#" in joined or _HELD_MARKS.intersection(joined)
    arrows = ARROWS.intersection(joined)
    if not (held or numbered or clauses or kana or arrows):
        return allowed  # the common case: nothing to hold
    kept = list(allowed)
    spans = (*_tags(texts), *_names(texts), *_attributions(texts, kept))
    spans = (*spans, *_clause_openers(texts)) if clauses else spans
    spans = (*spans, *_loanwords(texts)) if kana else spans
    spans = (*spans, *_arrow_steps(texts)) if arrows else spans
    for start, end in (*spans, *_numbered(texts)) if numbered else spans:
        for i in range(start, end):
            if kept[i] in (ALLOWED, HYPHEN):
                kept[i] = NEVER
    return kept


def _arrow_steps(texts: list[str]) -> list[tuple[int, int]]:
    """The break before each arrow: a line never opens with one, in a heading or a
    paragraph."""
    return [(i, i + 1) for i in range(len(texts) - 1) if texts[i + 1][:1] in ARROWS]


def _loanwords(texts: list[str]) -> list[tuple[int, int]]:
    """(first, last) cluster of each run of 2 to `LOANWORD` katakana clusters."""
    spans = []
    start = 0
    for end in range(len(texts) + 1):
        if end < len(texts) and is_katakana(texts[end][:1]):
            continue
        if 2 <= end - start <= LOANWORD:
            spans.append((start, end - 1))
        start = end + 1
    return spans


def _tags(texts: list[str]) -> list[tuple[int, int]]:
    """(first, last) cluster of each `#tag` run: a `#` opening the text or after a space,
    then up to the next space, hard break or `#`; breaks after clusters first..last-1."""
    spans = []
    for i, text in enumerate(texts):
        if text != "#" or (i and texts[i - 1] not in HANGING):
            continue
        end = i + 1
        while end < len(texts) and texts[end] not in HANGING and texts[end] != "#":
            end += 1
        if 1 < end - i <= MAX_UNIT:
            spans.append((i, end - 1))
    return spans


def _names(texts: list[str]) -> list[tuple[int, int]]:
    """The Chinese characters on either side of a middle dot between two of them."""
    spans = []
    for i, text in enumerate(texts):
        if text not in MIDDLE_DOTS or not 0 < i < len(texts) - 1:
            continue
        if not (is_han(texts[i - 1][-1:]) and is_han(texts[i + 1][:1])):
            continue
        first = i
        while first > 0 and i - first < NAME_PART and is_han(texts[first - 1][-1:]):
            first -= 1
        last = i
        while last < len(texts) - 1 and last - i < NAME_PART and is_han(texts[last + 1][:1]):
            last += 1
        spans.append((first, last))
    return spans


def _attributions(texts: list[str], allowed: list[int]) -> list[tuple[int, int]]:
    """The last dash of each hard-broken line and what follows it to that line's end, when
    the dash follows a quote or a sentence and what follows is short and ends no sentence:
    a source ("……。”——查理·芒格", "…dies." — George R. R. Martin), not a clause."""
    spans = []
    begin = 0
    for end in range(1, len(texts) + 1):
        if end < len(texts) and allowed[end - 1] != MANDATORY:
            continue
        dashes = [i for i in range(begin, end) if classify(texts[i]) in _DASHES]
        if dashes:
            first = dashes[-1]
            while first > begin and classify(texts[first - 1]) in _DASHES:
                first -= 1  # "——" is one dash
            if _after_quote(texts[begin:first]) and _source(texts[dashes[-1] + 1 : end]):
                spans.append((first, end - 1))
        begin = end
    return spans


def _after_quote(before: list[str]) -> bool:
    """Whether `before` (a line's text up to a dash) ends with a quote or a sentence."""
    said = [t for t in before if t not in HANGING]
    return bool(said) and said[-1][-1:] in _QUOTED


def _source(after: list[str]) -> bool:
    """Whether `after` (a line's text after its last dash) is short and ends no sentence."""
    words = [t for t in after if t not in HANGING]
    return bool(words) and len(after) <= MAX_SOURCE and not _CJK_ENDS.intersection(words)


# The marks after which a Chinese clause starts, and the longest Latin word held as its
# first (a longer one, a path or a URL, may end a line): the git post's closing line broke
# "…都行，push / 之后只用 revert。" in 14 theme-modes at 440x586 (seventh look).
_CLAUSE_MARKS = frozenset("，、；：")
CLAUSE_WORD = 12


def _clause_openers(texts: list[str]) -> list[tuple[int, int]]:
    """A Latin word of up to `CLAUSE_WORD` letters right after a clause mark and the
    spaces after it, where a Chinese character follows: breaks after each of them held."""
    spans = []
    for i, text in enumerate(texts):
        if text not in _CLAUSE_MARKS:
            continue
        end = i + 1
        while end < len(texts) and texts[end].isascii() and texts[end].isalnum():
            end += 1
        after = end
        while after < len(texts) and texts[after] == " ":
            after += 1
        opens = 0 < end - i - 1 <= CLAUSE_WORD
        if opens and after < len(texts) and is_han(texts[after][:1]):
            spans.append((i + 1, after))
    return spans


NUMBER_LABEL = 2  # digits: 系统 1, 第 12; a longer number (2026 年) is a quantity, not a label
_TIMES = ("a.m.", "p.m.")
# Measure words: a number spaced before one is a quantity opening the phrase after it (英语 /
# 60 天冲刺计划, 在家 / 20 分钟燃脂训练), not a label of the word before it; held to that word,
# it made 考研英语 60 天冲刺计划 one piece of a title, which then broke inside 冲刺 / 计划
# (seven theme-modes at 440x586). After 第 the number is an ordinal all the same (第 3 天).
_MEASURES = TIME_UNITS | frozenset(
    "时小个篇本次条种步招件位名道张页章节课期集轮组套首块元万亿千百斤克米"
)


def _numbered(texts: list[str]) -> list[tuple[int, int]]:
    """A Chinese character, a space and a number of up to `NUMBER_LABEL` digits (系统 1);
    a number, a space and a.m. or p.m. (9 a.m.)."""
    spans = []
    for i in range(1, len(texts) - 1):
        if texts[i] != " ":
            continue
        digits = _digits_from(texts, i + 1)
        if digits and is_han(texts[i - 1][-1:]) and len(digits) <= NUMBER_LABEL:
            after = i + 1 + len(digits)
            if after < len(texts) and texts[after].isalnum():
                continue
            if texts[i - 1] == "第" or not _counts(texts, after):
                spans.append((i - 1, i + 1))
        elif texts[i - 1].isdigit() and "".join(texts[i + 1 : i + 5]).lower() in _TIMES:
            spans.append((i - 1, i + 1))
    return spans


def _counts(texts: list[str], after: int) -> bool:
    """Whether a measure word follows a number ending before cluster `after`, at most a
    space between (60 天, 3个)."""
    if after < len(texts) and texts[after] == " ":
        after += 1
    return after < len(texts) and texts[after] in _MEASURES


def _digits_from(texts: list[str], start: int) -> str:
    end = start
    while end < len(texts) and texts[end].isascii() and texts[end].isdigit():
        end += 1
    return "".join(texts[start:end])
