"""A heading wider than its line → where it breaks: between phrases as a reader parses it.

`heading_breaks` ranks a heading's opportunities (UAX #14, units held) strictest first:
between clauses, between phrases, between words a reader binds, then any word; a looser
rank is let in only inside a piece the stricter one leaves wider than the line. English
headings break between phrases (before `of`, `for`, after punctuation, before a quote),
Chinese ones never inside a compound the segmenter parts. `phrase_ends` tells a cover
where its title may break. May import: `layout.text` (`linebreak`, `opportunities`,
`units`, `words`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from ..linebreak import Edges
from ..opportunities import (
    ALLOWED,
    MANDATORY,
    NEVER,
    glue_emoji,
    hold_small_words,
    keep_names,
    keep_phrases,
    keep_units,
    keep_words,
    opportunities,
)
from ..units import keep_whole
from ..words import (
    SMALL_WORDS,
    bound_edges,
    clause_starts,
    compound_edges,
    has_han,
    held_edges,
    is_japanese,
)
from .demerits import least_costly, opens_on_a_dash, parts
from .setting import Setting

# A heading broken only between clauses keeps its lines this share of the longest or more
# (从零到一：一个独立开发者的 / 第一年复盘 / （收入、踩坑与心态）, 0.38), else it breaks
# between words as it did (冷链物流 / 怎么选才能让荔枝保持新鲜的, 0.31, was uneven).
CLAUSE_SHARE = 0.35


def heading_breaks(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    width: float,
    edges: list[Edges] | None = None,
) -> list[int]:
    """The opportunities of a heading wider than `width` (`allowed`, UAX #14 with units
    held), ranked as a reader parses it: first between clauses only, never inside a
    compound the segmenter parts (并发 / 爬虫, 第一年 / 复盘: `words.compound_edges`), then past a
    count too (写一个 / 并发爬虫), each kept only while its lines stay even (`_even`) and, where
    a phrase had to break anyway, no longer than the word ranks set it; then after
    punctuation and between phrases (`keep_phrases`), then between words not bound
    together (`words.bound_edges`), then where no line is left one character and no book
    title is parted (`words.held_edges`),
    then between any two words (`keep_words`); Latin names whole and no line ending on a
    small English word while that fits; last, a Japanese heading's words without BudouX's
    phrases (`_ranks`). A looser rank is let in only inside a piece the stricter one leaves
    wider than the line (`_opened`): one long phrase breaks inside itself and the others
    stay whole, where one wide piece used to send the whole heading a rank down
    (2026年我读完 / 的12本书：每 / 一本都改变了我). A small English word ends a line only
    where that spares the heading a lone last word (`_lone_last`). An English or Japanese
    heading breaks at the clause ends its lines would run past, where that costs at most a
    line (`_at_clause_ends`). Where only the word ranks set a heading in as few lines and
    their balanced lines part a compound, the cheapest set of as many lines is taken
    (`_least_parted`). Lines are measured as they are set, a full-width bracket at a
    line's edge without its blank half (`edges`, `setting.Setting`)."""
    setting = Setting(texts, widths, edges, width)
    return _at_clause_ends(setting, _chosen(setting, allowed))


def _chosen(s: Setting, allowed: list[int]) -> list[int]:
    kept = _ranked(s, allowed, small_words=True)
    if not _lone_last(s, kept):
        return kept
    # a small English word held to the next line left one word on the last ("Five habits
    # for a focused / morning"): let it end a line where that sets fewer lines, or two
    # lines still ("Five habits for a / focused morning"), and no lone word. A taller
    # stack keeps its hold: there a lone last word is one short line of several, where a
    # line ending on "a" would be a second fault ("How we run a / 10-minute / …").
    freed = _ranked(s, allowed, small_words=False)
    lines, now = _count(s, freed), _count(s, kept)
    better = lines < now or lines == now == 2
    return freed if better and not _lone_last(s, freed) else kept


def _ranked(s: Setting, allowed: list[int], *, small_words: bool) -> list[int]:
    """`heading_breaks`' ranks tried in turn, with `small_words` held to the next word."""
    texts = s.texts
    by_words: list[int] | None = None  # the word ranks' breaks, made only when asked for
    # between clauses, then past a count too; an English heading has one phrase rank (the
    # second would be the same one, fitted again)
    counts = (CLAUSE_RANKS, CLAUSE_RANKS - 1) if has_han("".join(texts)) else (CLAUSE_RANKS,)
    for clauses in counts:
        ranks = _ranks(texts, allowed, clauses, small_words=small_words)
        by_clauses, opened = _fitted(s, ranks)
        if opened:  # a phrase too wide for the line breaks inside anyway: no line more
            words = _ranks(texts, allowed, 0, small_words=small_words)
            by_words = by_words or _fitted(s, words)[0]
            if _count(s, by_clauses) > _count(s, by_words):
                continue
        if _even(s, by_clauses):
            return by_clauses
    words = _ranks(texts, allowed, 0, small_words=small_words)
    kept = by_words or _fitted(s, words)[0]
    return _least_parted(s, kept, lambda: list(_ranks(texts, allowed, small_words=small_words)))


# `_ranks` ends on the word ranks: `keep_words` of the held opportunities, of those glued to
# small words, of all, of all without phrases. The first is the loosest a heading's
# cheapest set chooses from (`_least_parted`): names and small words still held.
WORDS_FROM_END = 4


def _least_parted(s: Setting, kept: list[int], ranked: Callable[[], list[list[int]]]) -> list[int]:
    """`kept` (a word rank's opportunities, where no stricter rank set the heading in as few
    lines), where its balanced lines part a compound, narrowed to the cheapest set of as
    many lines (`demerits.least_costly`): each break costs its rank on the ladder
    (`ranked`, made only where the balanced lines part one), more inside a compound or
    before a dash. Balanced alone, every word break was alike to it:
    在家 20 分钟燃脂 / 训练｜零器械也能练出 / 马甲线 where 在家 20 分钟 / 燃脂训练｜零器械 /
    也能练出马甲线 parts no compound (fairytale at 440 px)."""
    texts = s.texts
    spans = partial(compound_edges, past_counts=True, past_spans=True)
    inside = _keep_at(texts, [ALLOWED] * len(texts), spans)
    parted = [kind == NEVER or opens_on_a_dash(texts, i) for i, kind in enumerate(inside)]
    balanced = s.balanced(kept)
    if not parts(balanced, parted):
        return kept  # as balanced: no ladder made
    ladder = ranked()
    ranks = [
        next((r for r, rank in enumerate(ladder) if rank[i] != NEVER), len(ladder))
        for i in range(len(texts))
    ]
    words = ladder[-WORDS_FROM_END]  # any break between words is a candidate, at its cost
    candidates = [a if a != NEVER else b for a, b in zip(kept, words, strict=True)]
    return least_costly(s, balanced, (kept, candidates), (ranks, parted), CLAUSE_SHARE)


# A quoted phrase up to this many characters is one unit of a heading's word ranks
# (One “most / important task” parted the words the writer quoted as one).
MAX_QUOTED = 32
_QUOTES = {"“": "”", "‘": "’"}


def _hold_quotes(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` with no break inside a short quoted phrase (`MAX_QUOTED` characters,
    curly quotes: straight ones are curled before layout)."""
    out = list(allowed)
    opened, closer, length = -1, "", 0
    for i, text in enumerate(texts):
        if opened < 0:
            if text in _QUOTES:
                opened, closer, length = i, _QUOTES[text], 0
            continue
        length += len(text)
        if text == closer:
            if length <= MAX_QUOTED:
                out[opened:i] = [NEVER if kind == ALLOWED else kind for kind in out[opened:i]]
            opened = -1
    return out


# Marks that end an English or Japanese heading's clause ("How I Got My Mornings Back: 6
# Habits …", 京都で朝ごはん：地元の人が通う…): a line that runs on past one reads the two
# clauses as one (京都で朝ごはん：地元の / 人が通う喫茶店 4 選 parted 地元の人, 30 sets).
_CLAUSE_ENDS = frozenset(":?!;—：？！；")


def _colon_breaks(text: str) -> bool:
    """Whether a heading's clause ends bind its lines (`_at_clause_ends`): an
    English or a Japanese one. A Chinese heading's lines may run on past its colon: made to
    break there, its words rank broke 独立 / 开发者 to even the lines after it."""
    return not has_han(text) or is_japanese(text)


def _at_clause_ends(s: Setting, allowed: list[int]) -> list[int]:
    """`allowed`, or where its lines run on past a clause's end (`_past_a_colon`: 京都で朝ご
    はん：地元の / 人が通う…, where the clause after the colon is wider than a line), with a
    break made at each clause end it allows: when that sets at most a line more and no
    lone last word (COUCH TO 10K / IN 12 WEEKS: WHAT / ACTUALLY WORKED keeps its three)."""
    if not _past_a_colon(s, allowed):
        return allowed
    last = len(s.texts) - 1
    forced = [
        MANDATORY if kind == ALLOWED and i < last and _ends_clause(s.texts, i) else kind
        for i, kind in enumerate(allowed)
    ]
    more = _count(s, forced) - _count(s, allowed)
    if more <= 1 and not _lone_last(s, forced):
        return forced
    return allowed


def _ends_clause(texts: list[str], i: int) -> bool:
    """Whether the text up to cluster `i` (its spaces aside) ends on a `_CLAUSE_ENDS` mark."""
    while i > 0 and not texts[i].strip():
        i -= 1
    return texts[i][-1:] in _CLAUSE_ENDS


def _past_a_colon(s: Setting, allowed: list[int]) -> int:
    """1 when an English or Japanese heading's balanced lines `allowed` gives run on past a
    clause's end (`_CLAUSE_ENDS`, then a space or, full-width, anything) inside a line, else
    0: worth a line more."""
    texts = s.texts
    if not _colon_breaks("".join(texts)):
        return 0
    for line in s.balanced(allowed):
        inside = "".join(texts[line.start : line.end]).rstrip()
        ends = [i for i, char in enumerate(inside[:-1]) if char in _CLAUSE_ENDS]
        if any(inside[i + 1] == " " or not inside[i].isascii() for i in ends):
            return 1
    return 0


def _lone_last(s: Setting, allowed: list[int]) -> bool:
    """Whether the balanced lines `allowed` gives end on a line of one Latin word, with
    at most a mark or an emoji a theme binds to it (nature's "morning 🌿")."""
    lines = s.balanced(allowed)
    last = "".join(s.texts[lines[-1].start : lines[-1].end]).split()
    words = [part for part in last if part.isascii() and any(c.isalpha() for c in part)]
    marks = all(part in words or not any(c.isalnum() for c in part) for part in last)
    return len(lines) > 1 and len(words) == 1 and marks


def _fitted(s: Setting, ranks: Iterator[list[int]]) -> tuple[list[int], bool]:
    """The strictest of `ranks` with each of its pieces wider than the line opened to the
    next rank, and so on down until every piece fits (`_opened`); and whether any was."""
    kept, opened = next(ranks), False
    for looser in ranks:
        if s.widest(kept) <= s.width:
            break
        kept, opened = _opened(s, kept, looser), True
    return kept, opened


def _count(s: Setting, allowed: list[int]) -> int:
    return len(s.lines(allowed))


def _even(s: Setting, allowed: list[int]) -> bool:
    """Whether the balanced lines `allowed` gives a heading keep every line at least
    `CLAUSE_SHARE` of the longest: breaking only between clauses may leave one short
    ("三、 / 为什么它会一本正经地胡说八道", "冷链物流 / 怎么选才能让荔枝保持新鲜的"), and the
    looser rank then sets it better."""
    lines = s.balanced(allowed)
    return min(line.width for line in lines) >= CLAUSE_SHARE * max(line.width for line in lines)


# The strictest ranks break only between clauses (`words.compound_edges`), the second one
# past a count too (写一个 / 并发爬虫).
CLAUSE_RANKS = 2


def _ranks(
    texts: list[str], allowed: list[int], clauses: int = CLAUSE_RANKS, *, small_words: bool = True
) -> Iterator[list[int]]:
    """A heading's opportunities rank by rank, strictest first (`heading_breaks`), each
    made only when asked for; with `small_words`, no line ends on a small English word
    while that fits (`hold_small_words`)."""
    glued = hold_small_words(texts, allowed)
    if not small_words:  # the word after a small one still kept whole (cross-region)
        glued = [
            kind if text == " " else held
            for text, kind, held in zip(texts, allowed, glued, strict=True)
        ]
    named = _hold_quotes(texts, keep_names(texts, glued))
    words = keep_words(texts, named)
    held = _keep_at(texts, words, held_edges)
    bound = _keep_at(texts, held, bound_edges)
    phrases = keep_phrases(texts, bound)
    if clauses and not has_han("".join(texts)):  # English: between phrases (THE QUIET
        yield _latin_phrases(texts, phrases)  # POWER / OF BEING …, not THE QUIET / POWER OF)
    elif clauses:
        opened = _allow_at(texts, phrases, bound, clause_starts)
        if clauses == CLAUSE_RANKS:
            yield _keep_at(texts, opened, compound_edges)
        yield _keep_at(texts, opened, partial(compound_edges, past_counts=True))
    yield phrases
    yield bound
    yield held
    yield words
    yield keep_words(texts, glued)
    yield keep_words(texts, allowed)
    yield keep_words(texts, allowed, phrases=False)


# A heading line may end before a phrase's opening word (a preposition or a conjunction of
# `words.SMALL_WORDS`) or after punctuation; not between two words of one phrase. Not before
# an article: "Where / the traffic comes from" parts a clause at its subject.
_PHRASE_MARKS = frozenset(",.:;!?)]—–-&|/")
_PHRASE_OPENERS = SMALL_WORDS - {"a", "an", "the"}
_OPENING_MARKS = frozenset("“‘\"'([")  # a quoted or bracketed phrase opens at its mark
_DASHES = frozenset("—–")


def _latin_phrases(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` (an English heading's) with a break at a space kept only before a word
    that opens a phrase (of, for, and …) or after punctuation."""
    out = list(allowed)
    before = ""  # the last character before the spaces at `i`: one pass, not a join per space
    for i, text in enumerate(texts[:-1]):
        if text.strip():
            before = text[-1]
        if out[i] != ALLOWED:
            continue
        if text != " ":  # inside a word (short- / lived): only after a dash
            out[i] = ALLOWED if text in _DASHES else NEVER
            continue
        after = "".join(texts[i + 1 : i + 6]).split(" ")[0].lower()
        opens = after[:1] in _OPENING_MARKS or after in _PHRASE_OPENERS
        if before not in _PHRASE_MARKS and not opens:
            out[i] = NEVER
    return out


def phrase_ends(text: str) -> frozenset[int]:
    """The offsets in a heading's `text` where its strictest rank lets a line end: between
    phrases, whole words a reader takes as one kept (`heading_breaks`' first rank). One
    cluster a character: enough to tell where a set of lines broke (a cover title tries a
    smaller size before it breaks inside a phrase)."""
    texts = list(text)
    allowed = glue_emoji(texts, keep_whole(texts, _allowed_in(texts)))
    strict = next(_ranks(texts, allowed))
    return frozenset(i + 1 for i, kind in enumerate(strict) if kind != NEVER)


def _allowed_in(texts: list[str]) -> list[int]:
    return keep_units(texts, opportunities(texts, [False] * len(texts)))


def _keep_at(texts: list[str], allowed: list[int], edges: Callable[[str], set[int]]) -> list[int]:
    """`allowed` with no break at the `edges` of Chinese text (`words.bound_edges`: 读完的,
    12本书, 3部电影, 每一本; `words.held_edges`: 《穷查理宝典》, a lone first character)."""
    return _set_at(texts, allowed, edges, lambda i, kind: NEVER if kind == ALLOWED else kind)


def _allow_at(
    texts: list[str], kept: list[int], looser: list[int], edges: Callable[[str], set[int]]
) -> list[int]:
    """`kept` with `looser`'s opportunities at the `edges` of Chinese text
    (`words.clause_starts`: 基金定投 / 到底, where the segmenter's one-character 投 held it)."""
    return _set_at(texts, kept, edges, lambda i, kind: looser[i])


def _set_at(
    texts: list[str],
    allowed: list[int],
    edges: Callable[[str], set[int]],
    kind_at: Callable[[int, int], int],
) -> list[int]:
    """`allowed` with the opportunity after each cluster `i` that ends at one of the
    `edges` of its Chinese text set to `kind_at(i, what it was)`."""
    text = "".join(texts)
    if not has_han(text):
        return allowed
    found = edges(text)
    out = list(allowed)
    end = 0
    for i in range(len(texts) - 1):
        end += len(texts[i])
        if end in found:
            out[i] = kind_at(i, out[i])
    return out


def _opened(s: Setting, strict: list[int], looser: list[int]) -> list[int]:
    """`strict` with `looser`'s breaks inside each of its pieces wider than the line."""
    out = list(strict)
    start = 0
    for end in range(len(s.texts)):
        if strict[end] == NEVER and end < len(s.texts) - 1:
            continue
        if s.widest(strict, start, end + 1) > s.width:
            out[start:end] = looser[start:end]
        start = end + 1
    return out
