"""Cluster texts → where a line may, must or must not end after each cluster (pure, no fonts).

Break opportunities follow a compact subset of UAX #14 with the W3C clreq punctuation
rules: breaks between Chinese and Japanese characters and emoji (Korean, which sets
words apart with spaces, breaks at the spaces), after spaces, after a hyphen inside a
word and after a slash in URLs; after a zero-width space (U+200B) and a soft hyphen
(U+00AD, which then draws a hyphen); never before closing punctuation
(`，。！？；：）」』】》、`…) nor after opening punctuation (`（「『【《`…); never on
either side of an ASCII quote (UAX #14 LB19) or a middle dot (查理·芒格); never where
HarfBuzz marked the boundary unsafe to break. A dictionary hyphenation point is `HYPHEN`.

The holds take opportunities away: no break right after a line's indent, inside a short
run between spaces (`hold_short_runs`), between a number and its unit (`keep_units`),
inside short inline code (`keep_short_spans`), before an emoji (`glue_emoji`), inside a
Chinese word of a heading (`keep_words`) or, where the line allows, inside its phrases
(`keep_phrases`). linebreak.py fits lines to the opportunities left.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache

import regex

from .words import (
    SMALL_WORDS,
    has_han,
    inside_phrases,
    inside_words,
    is_han,
    is_japanese,
    is_japanese_letter,
    latin_names,
    latin_words,
    single_han_edges,
)


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
    ZW = 10  # zero-width space, soft hyphen: break after, never before
    QU = 11  # ASCII quotes: no break on either side (UAX #14 LB19; writers type them in
    #          Chinese, where a break would leave `"` at a line end or put `"，` at a start)
    GL = 12  # middle dot (U+00B7, U+2027: 查理·芒格 is one name), no-break space: binds both sides


NEVER, ALLOWED, MANDATORY = 0, 1, 2
HYPHEN = 3  # a dictionary hyphenation point: used only where a line would be very loose
SOFT_HYPHEN = "\u00ad"
_CLOSE_WIDE = set(
    "，。！？；：、）」』】》〉〕〗〙〛｝］’”…‥〜～・ー々〻ゝゞヽヾ"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ｡､｣．，"
    "｜"  # a title's separator (上海｜藏在梧桐区的…): it ends 上海, never opens a line
)
_CLOSE_NARROW = set(".,!?;:)]}%")
_OPEN = set("（「『【《〈〔〖〘〚｛［‘“([{")
_QUOTES = frozenset("\"'")
# Closing curly quotes that also stand inside Latin words (an apostrophe, ’90s): closing
# CJK punctuation everywhere else, but never a break before a letter that follows them.
_INSIDE_WORD = frozenset("\u2019\u201d")
MIDDLE_DOTS = frozenset("\u00b7\u2027")
# No-break spaces and the word joiner (UAX #14 GL and WJ): no break on either side. A theme's
# heading suffix hangs on its title by one (心态）+ NBSP + 🌿), where breaking before it after
# a CJK bracket left the sprig alone on the title's last line.
NO_BREAK = frozenset("\u00a0\u202f\u2007\u2060\ufeff")
DASHES = frozenset("\u2014\u2015")  # em dash, horizontal bar: class B2
_IDEOGRAPHIC = regex.compile(
    r"[\p{Ideographic}\p{Hiragana}\p{Katakana}\p{Extended_Pictographic}"
    r"\u3000-\u303F\uFF01-\uFF60\u31F0-\u31FF\u3200-\u33FF]"
)
_EMOJI_MARK = regex.compile(r"[\uFE0F\u20E3\p{Regional_Indicator}]")
_EMOJI = regex.compile(r"[\p{Extended_Pictographic}\p{Regional_Indicator}]")
HANGING = frozenset((" ", "\t", "\u3000", "\n"))  # a set: looked up per cluster
_INDENTS = frozenset((" ", "\t", "\u3000"))
_DIGIT = regex.compile(r"\d")


@lru_cache(maxsize=4096)  # cluster texts repeat: a card has a few hundred distinct ones
def classify(text: str) -> Brk:
    """The break class of one cluster's text."""
    first = text[:1]
    if first == "\n":
        return Brk.BK
    if first in (" ", "\t", "\u3000"):
        return Brk.SP
    if first in ("\u200b", SOFT_HYPHEN):
        return Brk.ZW
    if first in _QUOTES:
        return Brk.QU
    if first in MIDDLE_DOTS or first in NO_BREAK:
        return Brk.GL
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
    if first in DASHES:
        return Brk.B2
    if _IDEOGRAPHIC.match(first) or (len(text) > 1 and _EMOJI_MARK.search(text)):
        return Brk.ID
    return Brk.AL


def opportunities(texts: list[str], unsafe: list[bool]) -> list[int]:
    """For each cluster, whether a line may (1), must (2) or must not (0) end after it."""
    classes = [classify(t) for t in texts]
    result = [NEVER] * len(texts)
    for i in range(len(texts) - 1):
        brk = _PAIRS[classes[i], classes[i + 1], unsafe[i + 1]]
        if brk == _AFTER_WORD:
            brk = ALLOWED if i > 0 and classes[i - 1] == Brk.AL else NEVER
        elif brk == ALLOWED and classes[i + 1] == Brk.AL and texts[i][:1] in _INSIDE_WORD:
            brk = NEVER  # she’d, rock ’n’ roll: the mark is part of the word
        result[i] = brk
    if texts:
        result[-1] = MANDATORY if classes[-1] == Brk.BK else ALLOWED
    _hold_indents(texts, result)
    return result


def _hold_indents(texts: list[str], result: list[int]) -> None:
    """No break right after the spaces that indent a line: a code line whose first word
    does not fit after its indent would otherwise leave the indent alone on a row that
    looks blank; the word breaks inside instead, as any word wider than the line does."""
    start = 0
    while start < len(texts):
        while start < len(texts) and texts[start] in _INDENTS:
            if result[start] == ALLOWED:
                result[start] = NEVER
            start += 1
        try:
            start = texts.index("\n", start) + 1  # the next line
        except ValueError:
            return


def whole_tokens(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` (a source line's) with no break after a hyphen or slash inside a token: a
    wrapped command read "--dry- / run", where a line breaks at the space before the
    option. A token wider than the line still breaks, after an inner mark where one keeps
    half the line (linebreak.py's `INNER_MARKS`)."""
    kept = list(allowed)
    for i in range(len(texts) - 1):
        if kept[i] == ALLOWED and classify(texts[i]) in (Brk.HY, Brk.SL):
            kept[i] = NEVER
    return kept


def hold_short_runs(texts: list[str], allowed: list[int], keep: int) -> list[int]:
    """`allowed` with no break inside a run of at most `keep` clusters between spaces and
    hard breaks ("10月", "指标", "A/B" stay whole where a line could otherwise split them)."""
    held = list(allowed)
    start = 0
    for end in range(len(texts) + 1):
        if end < len(texts) and texts[end] not in HANGING:
            continue
        if end - start <= keep:
            for i in range(start, end - 1):
                if held[i] == ALLOWED:
                    held[i] = NEVER
        start = end + 1
    return held


def _pair(a: Brk, b: Brk, unsafe_next: bool) -> int:
    """The break between classes `a` and `b`; `_AFTER_WORD` when it depends on the class
    before `a` (a hyphen or slash breaks after a word, before a letter)."""
    if a == Brk.BK:
        return MANDATORY
    if b in (Brk.BK, Brk.SP, Brk.CL, Brk.CLW, Brk.GL) or a == Brk.OP:
        return NEVER
    if a == Brk.SP:
        return ALLOWED
    if unsafe_next:
        return NEVER
    if a == Brk.ZW and b != Brk.ZW:
        return ALLOWED
    if b == Brk.ZW:
        return NEVER
    if a in (Brk.QU, Brk.GL) or b in (Brk.QU, Brk.GL):
        return NEVER
    if a == Brk.ID or b == Brk.ID or a == Brk.CLW:
        return ALLOWED
    if a == Brk.B2 or b == Brk.B2:
        return NEVER if a == b else ALLOWED
    if a in (Brk.HY, Brk.SL) and b == Brk.AL:
        return _AFTER_WORD
    return NEVER


_AFTER_WORD = -1
# Every (class, next class, unsafe) looked up once at import, not per cluster.
_PAIRS = {(a, b, unsafe): _pair(a, b, unsafe) for a in Brk for b in Brk for unsafe in (False, True)}


# Units a number keeps on its line ("30 ms", "5 GB"): short words a reader takes as one
# with the number before them. A digit right before a CJK character keeps it too ("30小时").
UNITS = frozenset(
    {
        *("ns", "µs", "μs", "ms", "s", "min", "h"),
        *("px", "pt", "em", "rem", "dpi", "fps", "Hz", "kHz", "MHz", "GHz"),
        *("KB", "kB", "MB", "GB", "TB"),
        *("mg", "g", "kg", "mm", "cm", "m", "km", "ml", "mL", "°C", "°F", "°"),
    }
)
SHORT_CODE = 24  # an inline code span of at most this many characters never breaks inside
# ... in a table cell, up to this many: a command is what a cheat sheet's row is for, and its
# neighbour's Chinese wraps where the command cannot (`git checkout HEAD~1 -- 文件名` broke
# beside 整个提交都不要了 left on one line, in 15 theme-modes at 440x586)
CELL_CODE = 40
# A formula among the texts breaks are found in: one object (U+FFFC), whatever its LaTeX
# starts with. Before a CJK measure word it reads as a number does: 每月投 P 元, 持有 n 年.
FORMULA = "\ufffc"


def keep_units(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` with no break between a number and its unit: a digit and the CJK
    character after it (with or without a space; or a slash: a rate, "¥25/位"), or the
    space between a number and a word of `UNITS`."""
    joined = "".join(texts)
    if not _DIGIT.search(joined) and FORMULA not in joined:
        return allowed  # the common case: no number, nothing to keep
    kept = list(allowed)
    for i in range(len(texts) - 1):
        if kept[i] == ALLOWED and _before_unit(texts, i):
            kept[i] = NEVER
    return kept


def _before_unit(texts: list[str], i: int) -> bool:
    """Whether a break after cluster `i` would part a number (or a formula, `FORMULA`) from
    its unit."""
    if _numeric(texts[i]):
        return bool(_IDEOGRAPHIC.match(texts[i + 1][:1]))
    if "/" in (texts[i], texts[i + 1]):  # a rate or a fraction, on both sides of its slash
        return _is_rate(texts, i if texts[i] == "/" else i + 1)
    number = texts[i] == " " and i > 0 and _numeric(texts[i - 1])
    if number and _IDEOGRAPHIC.match(texts[i + 1][:1]):
        return True  # "这 7 条", "3 天": a spaced number keeps its measure word
    return number and _word_after(texts, i + 1) in UNITS


def _numeric(text: str) -> bool:
    """Whether a cluster ends a number, or is a formula (a variable: P 元, n 年)."""
    return text[-1:].isdigit() or text == FORMULA


def _is_rate(texts: list[str], slash: int) -> bool:
    """Whether the slash at `slash` parts a number (and its unit) from a unit or a number:
    ¥25/位, 3次/周, 1/2."""
    after = texts[slash + 1][:1] if slash + 1 < len(texts) else ""
    unit = bool(_IDEOGRAPHIC.match(after)) or after.isdigit()
    return unit and _after_number(texts, slash)


def _after_number(texts: list[str], i: int) -> bool:
    """Whether cluster `i` follows a number, or a number and one CJK unit (3次)."""
    before = texts[i - 1][-1:] if i > 0 else ""
    if before.isdigit():
        return True
    return bool(_IDEOGRAPHIC.match(before)) and i > 1 and texts[i - 2][-1:].isdigit()


def _word_after(texts: list[str], start: int) -> str:
    """The run of clusters from `start` up to a space, a hard break or punctuation."""
    word = []
    for text in texts[start : start + 4]:
        if text in HANGING or classify(text) not in (Brk.AL, Brk.ID):
            break
        word.append(text)
    return "".join(word)


def keep_short_spans(spans: list[int], allowed: list[int], most: int = SHORT_CODE) -> list[int]:
    """`allowed` with no break inside a run of clusters that share a span number (>= 0),
    when the run has at most `most` clusters (inline code: `make test` stays whole; a
    piece wider than the line still breaks, as any unbreakable piece does)."""
    kept = list(allowed)
    start = 0
    for end in range(1, len(spans) + 1):
        if end < len(spans) and spans[end] == spans[start]:
            continue
        if spans[start] >= 0 and end - start <= most:
            for i in range(start, end - 1):
                if kept[i] in (ALLOWED, HYPHEN):
                    kept[i] = NEVER
        start = end
    return kept


def glue_emoji(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` with no break before an emoji (nor inside a run of them): it stays with
    the word before it, or, opening the text or a hard-broken line, with the word after."""
    glued = list(allowed)
    for i, text in enumerate(texts):
        if not _is_emoji(text):
            continue
        if i == 0 or glued[i - 1] == MANDATORY:
            after = i + 1
            while after < len(texts) and texts[after] in (" ", "\t", "\u3000"):
                after += 1
            if after < len(texts) and glued[after - 1] == ALLOWED and not _is_emoji(texts[after]):
                glued[after - 1] = NEVER
        elif glued[i - 1] == ALLOWED:
            glued[i - 1] = NEVER
    return glued


def keep_words(texts: list[str], allowed: list[int], phrases: bool = True) -> list[int]:
    """`allowed` with no break between two Chinese characters of one word (`words`) nor
    inside a katakana word (a loanword): a heading breaks "荔枝 / 生死时速", not "荔 /
    枝生死时速", and "チーム / 開発", not "チー / ム開発"; in Japanese, no break inside a
    BudouX phrase ("から / 始める", not "から始め / る") unless `phrases` is False (a
    phrase wider than the line: then only katakana words hold). A word wider than the line still
    breaks, as any unbreakable piece does."""
    text = "".join(texts)
    if is_japanese(text):  # BudouX's phrases: "から / 始める", not "から始め / る"
        inside, letter = (inside_phrases(text) if phrases else set()), is_japanese_letter
    else:
        inside, letter = (inside_words(text) if has_han(text) else set()), is_han
    kept = list(allowed)
    end = 0
    for i in range(len(texts) - 1):
        end += len(texts[i])
        if kept[i] != ALLOWED:
            continue
        before, after = texts[i][-1:], texts[i + 1][:1]
        if (end in inside and letter(before) and letter(after)) or (
            is_katakana(before) and is_katakana(after)
        ):
            kept[i] = NEVER
    return kept


# Where a heading may still break when it keeps its phrases: after a space or punctuation,
# before an opening mark, beside an emoji.
_PHRASE_ENDS = frozenset((Brk.SP, Brk.CL, Brk.CLW, Brk.B2, Brk.ZW))


# An arrow between two places ends the line it is on (宽窄巷子 → / 人民公园), as a dash does:
# no line opens with one (held with the step before it by `units.keep_whole`, which every
# heading's and paragraph's opportunities pass through before these ranks).
ARROWS = frozenset("→⇒⟶➜➔➝↔")


def keep_phrases(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` (a heading's, its words kept) with no break beside a one-character Chinese
    word unless punctuation, a space or an emoji is there too (不踩雷 and 用 asyncio stay
    whole: `single_han_edges`; in Japanese, none inside one of BudouX's phrases), and none
    before a dash (no heading line starts with —; nor with →: `units.keep_whole` holds it).
    Stricter than a word list: the caller falls back to the words when a phrase is wider
    than the line."""
    kept = list(allowed)
    classes = [classify(t) for t in texts]
    text = "".join(texts)
    japanese = is_japanese(text)
    # jieba's one-character words mean nothing in Japanese (京都で過ごす雨の日の: で, 雨,
    # の each "a word"), where they held every phrase edge and set 10 | 3 characters
    edges = single_han_edges(text) if has_han(text) and not japanese else set()
    inside = inside_phrases(text) if japanese else set()  # Python / から始める: no
    # a Latin name ends a phrase: 从La Roche-Posay / 到The Ordinary, where the one-character
    # words before each name stay with it (从La, 到The, as 用 stays with asyncio)
    named = {stop - 1 for _, stop in latin_names(texts)}
    end = 0
    for i in range(len(texts) - 1):
        end += len(texts[i])
        if kept[i] != ALLOWED:
            continue
        edge = i not in named and end in edges and _mid_phrase(texts, classes, i)
        # BudouX may run a phrase on past a colon (朝ごはん：地元の): a clause's mark ends it
        in_phrase = end in inside and texts[i][-1:] not in _JA_CLAUSE_MARKS
        if classes[i + 1] == Brk.B2 or edge or in_phrase:
            kept[i] = NEVER
    return kept


_JA_CLAUSE_MARKS = frozenset("：；。！？")


# A katakana letter or the long-vowel mark (full and half width), not the ・ that parts
# katakana words: one class, no quantifier (it cannot backtrack).
_KATAKANA = regex.compile("[\u30a1-\u30fa\u30fc\u31f0-\u31ff\uff66-\uff9f]")


def is_katakana(char: str) -> bool:
    """A katakana letter or the long-vowel mark, not the ・ that parts katakana words."""
    return _KATAKANA.match(char) is not None


def has_katakana(text: str) -> bool:
    """Whether `text` holds a katakana letter (`is_katakana`): one search over it, where a
    call a character cost a paragraph ten times as much."""
    return _KATAKANA.search(text) is not None


def _mid_phrase(texts: list[str], classes: list[Brk], i: int) -> bool:
    """Whether nothing at the boundary after cluster `i` (a space, punctuation, an opening
    mark, an emoji) marks a phrase's end."""
    marked = classes[i] in _PHRASE_ENDS or classes[i + 1] == Brk.OP
    return not (marked or _is_emoji(texts[i]) or _is_emoji(texts[i + 1]))


def _is_emoji(text: str) -> bool:
    return bool(_EMOJI.match(text)) or (len(text) > 1 and bool(_EMOJI_MARK.search(text)))


def keep_names(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` with no break inside a capitalised Latin name set in CJK text (a heading's:
    "从La Roche-Posay到", not "从La / Roche-Posay到"; `latin_names`)."""
    kept = list(allowed)
    for start, stop in latin_names(texts):
        inside = slice(start, stop - 1)  # the breaks after each cluster but the last
        kept[inside] = [NEVER if k == ALLOWED else k for k in kept[inside]]
    return kept


def _count(word: str) -> bool:
    """Whether a Latin word is a count (up to three digits): "10 kilometres", "5 habits". A
    longer number is more often a year, which may end a line ("in 2026 / the team")."""
    return word.isascii() and word.isdigit() and len(word) <= 3


def hold_small_words(texts: list[str], allowed: list[int], *, small: bool = True) -> list[int]:
    """`allowed` (a heading's) with no line ending on a small English word: "1.《纳瓦尔宝典》The
    / Almanack…" leaves the article without its noun, as "… of / Naval" does a preposition;
    nor on a count before the word it counts ("I ran 10 / kilometres" on a cover's lead).
    The word after it stays whole too ("of a / cross-region", not "of a cross- / region").
    Without `small` (a lead set as prose), counts only: prose ends a line on "by" as it
    fills ("…started every day / by checking…" read as broken early, twelfth look)."""
    kept = list(allowed)
    words = latin_words(texts)
    for k, (start, stop) in enumerate(words):
        if stop >= len(texts) or texts[stop] != " " or kept[stop] != ALLOWED:
            continue
        following = words[k + 1] if k + 1 < len(words) else None
        word = "".join(texts[start:stop])
        a_word_next = following is not None and following[0] == stop + 1
        counted = _count(word) and a_word_next and texts[stop + 1].isalpha()
        if (small and word.lower() in SMALL_WORDS) or counted:
            kept[stop] = NEVER
            if following is not None and following[0] == stop + 1:
                inside = slice(following[0], following[1] - 1)
                kept[inside] = [NEVER if b == ALLOWED else b for b in kept[inside]]
    return kept
