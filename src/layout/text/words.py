"""Text → where its words are: Chinese word boundaries, and English words' hyphen points.

Chinese: so a heading breaks between words, not inside one ("荔/枝", "生/死时速").
`layout.text.segment` segments, with rjieba's cuts (jieba's dictionary and HMM) from a
memory-mapped dictionary: a few ms and 3 MB on the first heading that needs it, where
importing rjieba cost 0.1–0.3 s and about 30 MB.

Japanese: phrase boundaries from BudouX (Google's, Apache-2.0: a small model of which
character pairs may part), so a heading breaks "から / 始める", not "から始め / る"; jieba's
Chinese cuts mean nothing there. Imported on the first Japanese heading.

Latin in a heading: the small words (a, of, the …) that lean on the word after them, and the
capitalised names set in CJK text a reader takes as one (从La Roche-Posay到, 的City Walk路线).

English: where long words may take a hyphen at a line end (pyphen's en_US patterns). Only
plain words count: six to forty letters, standing between spaces or punctuation, so URLs, file
names and identifiers (`example.com`, `snake_case`, `x2y`) stay whole, and a run of letters
longer than any dictionary word is simply broken where it must be. The line breaker uses these
points only when an ordinary break would leave a line very loose.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..base.scripts import CJK_TEXT

if TYPE_CHECKING:
    import pyphen

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3041-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff]")


@lru_cache(maxsize=256)  # a wrapping heading is segmented for its words and its phrases
def _words(text: str) -> tuple[str, ...]:
    from .segment import cut  # on the first Chinese heading: its dictionary maps then

    return _mended(cut(text))


# jieba cuts 跑完整个发布流程 as 跑 / 完整 / 个 (完整, "complete"), where a reader reads 跑完 /
# 整个 ("ran through the whole"): 完整 before a one-character measure word is the 完 that
# ends the verb before it and the 整 that opens the count after it. Cut as jieba does, the
# title broke 一个 / 脚本跑完整个发布 / 流程 or 一个脚本跑完整 / 个发布流程 in 27 theme-modes
# at 440 px, where 一个脚本跑完 / 整个发布流程 breaks between its verb and its object.
_WHOLE_MEASURES = frozenset("个本套篇部场张首集章天年月周晚遍次轮条")


def _mended(words: list[str]) -> tuple[str, ...]:
    """jieba's `words` with 完整 before a measure word cut as V完 / 整X (`_WHOLE_MEASURES`)."""
    out: list[str] = []
    for word in words:
        if out and out[-1] == "完整" and word in _WHOLE_MEASURES:
            out.pop()
            if out and len(out[-1]) == 1 and is_han(out[-1]):
                out[-1] += "完"  # the verb it ends: 跑完
            else:
                out.append("完")
            word = "整" + word
        out.append(word)
    return tuple(out)


@lru_cache(maxsize=1)
def _japanese_parser():  # type: ignore[no-untyped-def]
    import budoux  # on the first Japanese heading: its model loads then (~1 ms)

    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=256)
def _japanese_phrases(text: str) -> tuple[str, ...]:
    return tuple(_japanese_parser().parse(text))


def is_japanese(text: str) -> bool:
    """Whether `text` has kana: Japanese, where Chinese word cuts do not apply."""
    return _KANA.search(text) is not None


def is_japanese_letter(char: str) -> bool:
    """A kanji or kana letter (not a mark, not the ・ that parts katakana words)."""
    return bool(char) and (_HAN.match(char) is not None or _KANA.match(char) is not None)


def inside_phrases(text: str) -> set[int]:
    """The offsets in Japanese `text` that fall inside one of BudouX's phrases."""
    return _insides(_japanese_phrases(text))


def has_han(text: str) -> bool:
    return _HAN.search(text) is not None


def inside_words(text: str) -> set[int]:
    """The offsets in `text` that fall between two characters of one word."""
    return _insides(_words(text))


def _insides(pieces: tuple[str, ...]) -> set[int]:
    """The offsets inside each of `pieces`, which together spell a text."""
    inside: set[int] = set()
    offset = 0
    for piece in pieces:
        inside.update(range(offset + 1, offset + len(piece)))
        offset += len(piece)
    return inside


def single_han_edges(text: str) -> set[int]:
    """The offsets in `text` at either edge of a one-character Chinese word: 不/踩/雷,
    到底/能/不能, 用/asyncio are where a segmenter cuts inside a phrase a reader takes as one
    (不踩雷, 能不能, 用 asyncio), so a heading keeps them together when it can."""
    edges: set[int] = set()
    offset = 0
    words = _words(text)
    for k, word in enumerate(words):
        if len(word) == 1 and is_han(word):
            if not _modifies_after_de(words, k):
                edges.add(offset)
            # 的 ends a modifier: 不踩雷的 / City Walk路线 (了 does not: 做了五个)
            if word != "的":
                edges.add(offset + 1)
        offset += len(word)
    return edges


def _modifies_after_de(words: tuple[str, ...], k: int) -> bool:
    """Whether one-character word `k` follows 的 and leans on a Chinese word of two or
    more characters after it (翻倍的 / 小习惯, where the segmenter cut 小 off 习惯): the
    break after 的 ends the modifier. A one-character head noun stays with it
    (想辞职的人的, not 想辞职的 / 人的)."""
    after = words[k + 1] if k + 1 < len(words) else ""
    return k > 0 and words[k - 1] == "的" and len(after) > 1 and all(map(is_han, after))


# One-character words a Chinese reader never sees open a line: particles and suffixes that
# lean on the word before them (读完/的, 改变/了, 它/们).
_LEANING = frozenset("的地得了着过们吗呢吧啊呀嘛")
# One-character words that lean on the word after them: determiners and ordinal prefixes
# (每/一本, 第/100天, 各/位).
_LEADING = frozenset("每各第该某")
_HAN_NUMERALS = frozenset("零一二两三四五六七八九十百千万亿几半")
# A title in book-title marks is one name to a reader (《穷查理宝典》), up to this many
# characters inside them; a longer one is a phrase that may break.
MAX_BOOK_TITLE = 12


def bound_edges(text: str) -> set[int]:
    """The offsets in `text` between two words a reader takes as one: before a particle
    (读完的, not 读完 / 的), after a determiner (每一本, 第100天), after a numeral (12本书,
    3部) and after the measure word that follows one (3部电影, not 3部 / 电影), and before a
    localiser after a closing mark (《思考，快与慢》里 / 最有用的: all 30 theme-modes set
    《…》 / 里最有用的). A heading that must break between words breaks elsewhere when it can."""
    bound: set[int] = _localised(text)
    words = _words(text)
    offset = 0
    for k, word in enumerate(words):
        end = offset + len(word)
        after = words[k + 1] if k + 1 < len(words) else ""
        if after and len(after) == 1 and after in _LEANING:
            bound.add(end)
        if word in _LEADING or (_is_numeral(word) and after[:1] and is_han(after[0])):
            bound.add(end)
        measured = k and _is_numeral(words[k - 1]) and len(word) == 1 and is_han(word)
        if measured and after[:1] and is_han(after[0]):
            bound.add(end)
        offset = end
    return bound


def held_edges(text: str) -> set[int]:
    """The offsets in `text` a heading breaks at only when nothing else fits, before even a
    particle opens a line: inside a short title in book-title marks (《穷查理宝典》), and
    after a one-character first word or before a one-character last one (a line of one
    character: 读 / 《穷查理宝典》的)."""
    held = _inside_book_titles(text)
    words = _words(text)
    if len(words) > 1 and len(words[0]) == 1 and is_han(words[0]):
        held.add(1)
    if len(words) > 1 and len(words[-1]) == 1 and is_han(words[-1]):
        held.add(len(text) - 1)
    return held


# Words that open a clause or a predicate: a heading line may start with one (基金定投 / 到底能不能
# 赚钱？, 收入 / 以及心态). Conjunctions, sentence adverbs, question words, multi-character
# prepositions; one-character ones are held to their neighbours already (`single_han_edges`).
_OPENER_LIST = (
    "而且 并且 或者 还是 以及 但是 "
    "可是 不过 然而 因为 所以 因此 "
    "如果 假如 要是 虽然 尽管 即使 "
    "哪怕 然后 于是 到底 究竟 怎么 "
    "怎样 如何 为什么 为何 是否 能否 "
    "已经 正在 一直 总是 其实 原来 "
    "终于 竟然 居然 甚至 只要 只有 "
    "除非 无论 不管 为了 通过 根据 "
    "关于 对于 除了 比如 例如 "
)
_CLAUSE_OPENERS = frozenset(_OPENER_LIST.split())
# Words an opener leans on rather than starts a clause after: 不是因为, 而是因为.
_CLAUSE_BINDERS = frozenset(["不是", "而是", "就是", "只是", "正是", "也是", "都是", "还是", "是"])
# A bracketed aside up to this many characters is one phrase (（收入、踩坑与心态）): its
# pauses list inside it.
MAX_ASIDE = 12
_ASIDES = {"（": "）", "(": ")", "「": "」", "『": "』", "【": "】", "《": "》", "“": "”"}


def compound_edges(text: str, *, past_counts: bool = False, past_spans: bool = False) -> set[int]:
    """The offsets in `text` between two Chinese words of one phrase: every boundary
    between two Han characters but after 的, before a word that opens a clause
    (`clause_starts`, after a book title's localiser too), with `past_counts` after a
    count (写一个 / 并发爬虫) and with `past_spans` after a span of time (20 分钟 /
    燃脂训练); and every offset inside a short bracketed aside. A reader takes 并发爬虫,
    第一年复盘, 独立开发者, 能不能赚钱 as one phrase though the segmenter cuts them into
    words; a heading breaks there only when a phrase is wider than its line."""
    edges = _inside_asides(text)
    starts = clause_starts(text)
    words = _words(text)
    offset = 0
    for k, word in enumerate(words[:-1]):
        offset += len(word)
        if not (is_han(word[-1]) and is_han(words[k + 1][0])):
            continue
        if word == "的" or offset in starts or (past_counts and _is_count(word)):
            continue
        if past_spans and _ends_span(words, k):
            continue
        edges.add(offset)
    return edges


# Words that name a span of time after a number, besides the one-character `TIME_UNITS`
_SPAN_WORDS = frozenset(["分钟", "小时", "星期", "个月", "礼拜"])


def _ends_span(words: tuple[str, ...], k: int) -> bool:
    """Whether word `k` ends a span of time: 三天, 第一年, or 60 天 and 20 分钟 (the number
    a word of its own before it, a space between)."""
    word = words[k]
    if word in _SPAN_WORDS or (len(word) == 1 and word in TIME_UNITS):
        before = [w for w in words[:k] if w.strip()]
        return bool(before) and _is_numeral(before[-1].removeprefix("第"))
    return _counted_unit(word) in TIME_UNITS


def clause_starts(text: str) -> set[int]:
    """The offsets in `text` before a word that opens a clause or a predicate
    (`_CLAUSE_OPENERS`: 基金定投 / 到底能不能赚钱), but after a word it leans on (不是因为);
    and after a localiser that closes a book title or a quote, the phrase it ends
    (《思考，快与慢》里 / 最有用的 5 个概念: `_localised`)."""
    starts = {at + 1 for at in _localised(text)}
    words = _words(text)
    offset = 0
    for k, word in enumerate(words[:-1]):
        offset += len(word)
        if words[k + 1] in _CLAUSE_OPENERS and word not in _CLAUSE_BINDERS and is_han(word[-1]):
            starts.add(offset)
    return starts


# Measure words of time: 第一年, 三天 name a span, and the word after them is a new phrase
# (第一年 / 复盘 reads as a break inside "the first year's review").
TIME_UNITS = frozenset("年月日天周晚夜岁秒分")


def _is_count(word: str) -> bool:
    """A numeral and the measure word of a noun after it, as one word (一个, 第三篇), not a
    bare numeral or a span of time (三天, 第一年)."""
    unit = _counted_unit(word)
    return bool(unit) and unit not in _HAN_NUMERALS | TIME_UNITS


def _counted_unit(word: str) -> str:
    """The last character of a word that is a numeral (after 第, if any) and one character
    more: 个 of 一个, 天 of 三天; "" for any other word."""
    body = word.removeprefix("第")[:-1]
    return word[-1] if body and _is_numeral(body) else ""


def _inside_asides(text: str, marks: dict[str, str] = _ASIDES, most: int = MAX_ASIDE) -> set[int]:
    """The offsets inside each of `text`'s asides in `marks` (opening → closing) up to
    `most` characters, after its opening mark up to its closing one."""
    inside: set[int] = set()
    opened: list[tuple[str, int]] = []
    for i, char in enumerate(text):
        if char in marks:
            opened.append((marks[char], i))
        elif opened and char == opened[-1][0]:
            _, start = opened.pop()
            if i - start - 1 <= most:
                inside.update(range(start + 1, i + 1))
    return inside


def _inside_book_titles(text: str) -> set[int]:
    return _inside_asides(text, {"《": "》"}, MAX_BOOK_TITLE)


# Localisers that close the phrase before them: after a book title or a quote they belong
# to it (《思考，快与慢》里, 《三体》之后, “双减”下).
_LOCALISERS = frozenset("里中上下内外前后之时")
_CLOSERS = frozenset("》」』”）)")


def _localised(text: str) -> set[int]:
    """The offsets between a closing mark and a `_LOCALISERS` character after it."""
    pairs = itertools.pairwise(text)
    return {i + 1 for i, (a, b) in enumerate(pairs) if a in _CLOSERS and b in _LOCALISERS}


def _is_numeral(word: str) -> bool:
    return (word.isascii() and word.isdigit()) or all(c in _HAN_NUMERALS for c in word)


def is_han(char: str) -> bool:
    return _HAN.match(char) is not None


# English hyphen points

# A word of six letters hyphenated reads as two fragments ("peo- / ple", "sta- / tus" in a
# narrow table cell or tile): hyphenate words of seven letters or more.
MIN_WORD, MAX_WORD = 7, 40
_BEFORE_WORD = set(" \t\u3000\n([{\"'“‘")
_AFTER_WORD = set(" \t\u3000\n)]}\"'”’.,;:!?")


@lru_cache(maxsize=1)
def _dictionary() -> pyphen.Pyphen:
    import pyphen  # on the first English word: a render without one never loads it

    return pyphen.Pyphen(lang="en_US", left=2, right=3)


@lru_cache(maxsize=4096)
def _positions(word: str) -> tuple[int, ...]:
    return tuple(_dictionary().positions(word))


def hyphen_points(texts: list[str], skip: list[bool]) -> list[int]:
    """Indices of clusters after which a hyphen may break a word; `skip` marks clusters
    never to hyphenate (inline code)."""
    points: list[int] = []
    i = 0
    while i < len(texts):
        if not _is_letters(texts[i]) or skip[i]:
            i += 1
            continue
        end = i
        while end < len(texts) and _is_letters(texts[end]) and not skip[end]:
            end += 1
        if _plain_word(texts, i, end):
            points.extend(_word_points(texts, i, end))
        i = end
    return points


def _is_letters(text: str) -> bool:
    return text.isascii() and text.isalpha()  # [A-Za-z]+, without a regex per cluster


def _plain_word(texts: list[str], start: int, end: int) -> bool:
    """A whole word: long enough, bounded by spaces or sentence punctuation, and in one
    case after its first letter: a capital inside a word makes it a name (ChatGPT, iPhone,
    JavaScript, NASA), which a hyphen would misspell ("Chat- / GPT" in typewriter's FAQ)."""
    if not MIN_WORD <= sum(len(t) for t in texts[start:end]) <= MAX_WORD:
        return False
    if not "".join(texts[start:end])[1:].islower():
        return False
    if start > 0 and texts[start - 1] not in _BEFORE_WORD:
        return False
    if end < len(texts):
        if texts[end] not in _AFTER_WORD:
            return False
        after = texts[end + 1] if end + 1 < len(texts) else " "
        if texts[end] in ".,;:!?" and _is_letters(after):  # example.com, a,b
            return False
    return True


def _word_points(texts: list[str], start: int, end: int) -> list[int]:
    """Cluster indices whose end falls on one of the word's hyphenation positions."""
    word = "".join(texts[start:end])
    offsets = set(_positions(word))
    points = []
    offset = 0
    for index in range(start, end - 1):
        offset += len(texts[index])
        if offset in offsets:
            points.append(index)
    return points


# Latin words in a heading: small words that lean on the next, names set in CJK text.

SMALL_WORDS = frozenset(
    ("a", "an", "the", "of", "to", "in", "on", "at", "for", "and", "or", "with", "by")
)
# characters: "La Roche-Posay", "The Ordinary", "The Almanack of Naval Ravikant"; longer is a
# phrase, not a name
MAX_NAME = 32
# Small words a title-cased name keeps in lower case between its capitalised words (The
# Almanack of Naval Ravikant, Pride and Prejudice, Leonardo da Vinci).
_NAME_JOINERS = SMALL_WORDS | frozenset(
    {"da", "de", "del", "der", "di", "du", "la", "le", "van", "von", "y"}
)
_NAME_MARKS = frozenset("-'’.&")  # inside a name's word: Roche-Posay, L'Oréal, St. Louis


def latin_names(texts: list[str]) -> list[tuple[int, int]]:
    """[start, end) cluster spans of each capitalised Latin name of two or more words set
    between CJK text (从La Roche-Posay到, 的City Walk路线): a reader takes it as one
    name, where a break between its words reads as two. English titles, whose words are
    all capitalised, are left alone: a name must touch CJK text on one side at least."""
    words = latin_words(texts)
    spans = []
    run = 0
    for k in range(1, len(words) + 1):
        if k < len(words) and words[k][0] == words[k - 1][1] + 1 and texts[words[k - 1][1]] == " ":
            continue  # the next word follows after exactly one space: same run
        first, last = words[run], words[k - 1]
        if k - run >= 2 and _named(texts, first[0], last[1]):
            spans.append((first[0], last[1]))
        run = k
    return spans


def latin_words(texts: list[str]) -> list[tuple[int, int]]:
    """[start, end) of each run of Latin letters, digits and inner marks, in order."""
    words, start = [], -1
    for i, text in enumerate([*texts, " "]):
        inside = text.isascii() and (text.isalnum() or (start >= 0 and text in _NAME_MARKS))
        inside = inside or (start >= 0 and text.isalpha() and not CJK_TEXT.match(text))
        if inside and start < 0:
            start = i
        elif not inside and start >= 0:
            words.append((start, i))
            start = -1
    return words


def _named(texts: list[str], start: int, end: int) -> bool:
    """Whether the words in [start, end) are a name: each capitalised (or a number) but for
    small joining words inside it (of, and, da), one at least starting with a capital,
    short all told, with CJK text right before or right after them (or one space away)
    and nothing Latin on either side."""
    name = "".join(texts[start:end])
    words = name.split(" ")
    # iPhone, 15, Pro are capitalised, "asyncio" is not; "3 15" (numbers alone) is no name
    inner = words[1:-1]
    if len(name) > MAX_NAME or words[0].islower() or words[-1].islower():
        return False
    if any(w.islower() and w not in _NAME_JOINERS for w in inner):
        return False
    if not any(w[:1].isupper() for w in words):
        return False
    # one space between a name and its CJK text is the writer's spacing ("开通 ChatGPT Plus
    # 的": art-deco's cover broke "ChatGPT / Plus"), read past as if it were not there
    before = _beside(texts, start - 1, -1)
    after = _beside(texts, end, 1)
    return bool(CJK_TEXT.match(before) or CJK_TEXT.match(after)) and before != " " != after


def _beside(texts: list[str], at: int, step: int) -> str:
    """The character at cluster `at` (its last, or with `step` 1 its first), past one space
    towards `step`; "" off the text."""
    if 0 <= at < len(texts) and texts[at] == " " and 0 <= at + step < len(texts):
        at += step
    if not 0 <= at < len(texts):
        return ""
    return texts[at][-1:] if step < 0 else texts[at][:1]
