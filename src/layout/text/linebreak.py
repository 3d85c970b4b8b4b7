"""Cluster texts and widths → line ranges (greedy, CJK-aware; pure, no fonts).

Break opportunities follow a compact subset of UAX #14 with the W3C clreq punctuation
rules: breaks between Chinese and Japanese characters and emoji (Korean, which sets
words apart with spaces, breaks at the spaces), after spaces, after a hyphen inside a
word and after a slash in URLs; after a zero-width space (U+200B) and a soft hyphen
(U+00AD, which then draws a hyphen); never before closing punctuation
(`，。！？；：）」』】》、`…) nor after opening punctuation (`（「『【《`…); never where
HarfBuzz marked the boundary unsafe to break. A word wider than the line is broken between
clusters rather than allowed to overflow.

Lines are filled greedily. Line edges change widths (`Edges`): an opening mark at a line
start loses its blank half, a closing mark at a line end may lose its blank when the line
would not fit otherwise, and a line ending at a hyphenation point grows by its hyphen. A
hyphenation point (`HYPHEN`, from the dictionary) is used only when the ordinary break
would leave the line very loose. `avoid_lone_last` then pulls one piece down when a
paragraph would end with one CJK character (and its punctuation) alone on a line.

Headings are set as CSS `text-wrap: balance` sets them (`balance_lines`): the same number
of lines as greedy filling gives, at the narrowest width that keeps that number, so a
two-line heading is two lines of about equal length rather than a full line and a stub;
and an emoji is glued to the word before it (`glue_emoji`), never left alone on a line.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache

import regex

from ..base.records import bulk_record
from .segment import has_han, inside_words, is_han


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


NEVER, ALLOWED, MANDATORY = 0, 1, 2
HYPHEN = 3  # a dictionary hyphenation point: used only where a line would be very loose
LOOSE = 0.2  # share of the line an ordinary break may leave empty before hyphenating
SOFT_HYPHEN = "\u00ad"
_LONE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")
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
_EMOJI = regex.compile(r"[\p{Extended_Pictographic}\p{Regional_Indicator}]")
BALANCE_MAX_LINES = 6  # longer text is left greedy (Chromium balances at most six lines)
BALANCE_PRECISION = 0.5  # px: the binary search for the balanced width stops here
BALANCE_STEPS = 16  # widths tried between the balanced and the full one for breaks at punctuation
# A heading line that ends on one of these ends at a pause in the sentence: a break there
# reads better than a balanced one inside a word ("它在做的事情，/ 其实非常简单").
_PAUSES = frozenset("，、：；。！？）」』”,:;!?)")
_WORDLIKE = regex.compile(r"[\p{L}\p{N}]")
_HANGING = frozenset((" ", "\t", "\u3000", "\n"))  # a set: looked up per cluster
_INDENTS = frozenset((" ", "\t", "\u3000"))
_DIGIT = regex.compile(r"\d")


@bulk_record
class LineRange:
    """Clusters [start, end) form a line; `width` leaves out its trailing spaces and
    hard break."""

    start: int
    end: int
    width: float
    trim_start: float = 0.0  # blank taken off its first cluster (an opening mark)
    trim_end: float = 0.0  # blank taken off its last cluster (a closing mark)


@bulk_record
class Edges:
    """How a cluster's width changes at a line edge."""

    start: float = 0.0  # taken off when it starts a line
    end: float = 0.0  # taken off when it ends a line that would not fit otherwise
    hyphen: float = 0.0  # added when a line ends after it (the hyphen drawn)


NO_EDGES = Edges()


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
        brk = _PAIRS[classes[i], classes[i + 1], unsafe[i + 1]]
        if brk == _AFTER_WORD:
            brk = ALLOWED if i > 0 and classes[i - 1] == Brk.AL else NEVER
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


def _pair(a: Brk, b: Brk, unsafe_next: bool) -> int:
    """The break between classes `a` and `b`; `_AFTER_WORD` when it depends on the class
    before `a` (a hyphen or slash breaks after a word, before a letter)."""
    if a == Brk.BK:
        return MANDATORY
    if b in (Brk.BK, Brk.SP, Brk.CL, Brk.CLW) or a == Brk.OP:
        return NEVER
    if a == Brk.SP:
        return ALLOWED
    if unsafe_next:
        return NEVER
    if a == Brk.ZW and b != Brk.ZW:
        return ALLOWED
    if b == Brk.ZW:
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


def break_lines(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None = None,
) -> list[LineRange]:
    """Greedy line fitting; a line holds at least one cluster."""
    lines: list[LineRange] = []
    n = len(texts)
    edge = edges or [NO_EDGES] * n
    start = 0
    while start < n:
        line = fit_line(texts, widths, allowed, edge, start, max_width)
        lines.append(line)
        start = line.end
    return lines


def fit_line(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    start: int,
    max_width: float,
) -> LineRange:
    """The line that starts at `start`.

    Spaces and the hard break hang past the line end: they never push a line over the
    width (a space before a newline would otherwise strand the newline on a blank line
    of its own) and are not counted in it, so centred and right-aligned lines sit true.
    """
    head = edges[start].start
    x = -head
    trailing = 0.0
    ordinary: tuple[int, float] | None = None  # the last ordinary break that fits
    hyphenated: tuple[int, float] | None = None  # the last hyphenation point that fits
    for i in range(start, len(texts)):
        if texts[i] in _HANGING:
            x += widths[i]
            trailing += widths[i]
        else:
            if x + widths[i] > max_width + 1e-6 and i > start:
                squeezed = x + widths[i] - edges[i].end
                if allowed[i] != NEVER and edges[i].end and squeezed <= max_width + 1e-6:
                    return LineRange(start, i + 1, squeezed, head, edges[i].end)
                end, width = _pick_break(ordinary, hyphenated, max_width, (i, x - trailing))
                return LineRange(start, end, width, head)
            x += widths[i]
            trailing = 0.0
        if allowed[i] == MANDATORY:
            return LineRange(start, i + 1, x - trailing, head)
        # a hanging space never draws a hyphen after it, whatever its edges say
        hyphen = 0.0 if texts[i] in _HANGING else edges[i].hyphen
        here = (i + 1, x - trailing + hyphen)
        if here[1] <= max_width + 1e-6 or i == start:
            if allowed[i] == ALLOWED:
                ordinary = here
            elif allowed[i] == HYPHEN:
                hyphenated = here
    return LineRange(start, len(texts), x - trailing, head)


def _pick_break(
    ordinary: tuple[int, float] | None,
    hyphenated: tuple[int, float] | None,
    max_width: float,
    forced: tuple[int, float],
) -> tuple[int, float]:
    """The ordinary break, unless it leaves the line very loose and a later hyphenation
    point fills it better; without an ordinary break, a hyphenation point that leaves the
    line not very loose, else the break forced inside the word."""
    loose = (1 - LOOSE) * max_width
    if hyphenated is not None and ordinary is not None:
        better = hyphenated[0] > ordinary[0] and ordinary[1] < loose
        return hyphenated if better else ordinary
    if ordinary is not None:
        return ordinary
    return hyphenated if hyphenated is not None and hyphenated[1] >= loose else forced


def avoid_lone_last(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    lines: list[LineRange],
    max_width: float,
    edges: list[Edges] | None = None,
) -> list[LineRange]:
    """`lines` with no paragraph ending in one CJK character (and its punctuation) alone
    on its line, where moving the last piece of the line before down fixes it."""
    edge = edges or [NO_EDGES] * len(texts)
    out = list(lines)
    for k in range(1, len(out)):
        last, before = out[k], out[k - 1]
        ends_paragraph = k == len(out) - 1 or allowed[last.end - 1] == MANDATORY
        if not ends_paragraph or allowed[before.end - 1] == MANDATORY:
            continue
        if not _lone(texts[last.start : last.end]):
            continue
        moved = _small_move(texts, widths, allowed, edge, before, last, max_width)
        if moved is not None:
            out[k - 1], out[k] = moved
    return out


def _lone(texts: list[str]) -> bool:
    """One CJK character, then only closing punctuation and hanging spaces."""
    if not texts or not _LONE.match(texts[0]):
        return False
    rest = [classify(t) for t in texts[1:] if t not in _HANGING]
    return all(c in (Brk.CL, Brk.CLW) for c in rest)


def _small_move(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    edges: list[Edges],
    before: LineRange,
    last: LineRange,
    max_width: float,
) -> tuple[LineRange, LineRange] | None:
    """The two lines with the previous line's last piece (at most a few clusters, and
    never most of it) moved down, or None when that does not fit."""
    for cut in range(before.end - 2, max(before.start, before.end - 4), -1):
        if allowed[cut] != ALLOWED:
            continue
        if (cut + 1 - before.start) < 2 * (before.end - cut - 1):
            return None
        first = _measured(texts, widths, edges, before.start, cut + 1, max_width)
        second = _measured(texts, widths, edges, cut + 1, last.end, max_width)
        if first is None or second is None:
            return None
        return first, second
    return None


def _measured(
    texts: list[str],
    widths: list[float],
    edges: list[Edges],
    start: int,
    end: int,
    max_width: float,
) -> LineRange | None:
    """The line [start, end) with its edges applied; None when it does not fit."""
    content = end
    while content > start and texts[content - 1] in _HANGING:
        content -= 1
    head = edges[start].start
    width = sum(widths[start:content]) - head
    if width <= max_width + 1e-6:
        return LineRange(start, end, width, head)
    tail = edges[content - 1].end if content > start else 0.0
    if width - tail <= max_width + 1e-6:
        return LineRange(start, end, width - tail, head, tail)
    return None


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


def keep_units(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` with no break between a number and its unit: a digit and the CJK
    character after it, or the space between a number and a word of `UNITS`."""
    if not _DIGIT.search("".join(texts)):
        return allowed  # the common case: no number, nothing to keep
    kept = list(allowed)
    for i in range(len(texts) - 1):
        if kept[i] == ALLOWED and _before_unit(texts, i):
            kept[i] = NEVER
    return kept


def _before_unit(texts: list[str], i: int) -> bool:
    """Whether a break after cluster `i` would part a number from its unit."""
    if texts[i][-1:].isdigit():
        return bool(_IDEOGRAPHIC.match(texts[i + 1][:1]))
    number = texts[i] == " " and i > 0 and texts[i - 1][-1:].isdigit()
    return number and _word_after(texts, i + 1) in UNITS


def _word_after(texts: list[str], start: int) -> str:
    """The run of clusters from `start` up to a space, a hard break or punctuation."""
    word = []
    for text in texts[start : start + 4]:
        if text in _HANGING or classify(text) not in (Brk.AL, Brk.ID):
            break
        word.append(text)
    return "".join(word)


def keep_short_spans(spans: list[int], allowed: list[int]) -> list[int]:
    """`allowed` with no break inside a run of clusters that share a span number (>= 0),
    when the run has at most `SHORT_CODE` clusters (inline code: `make test` stays
    whole; a piece wider than the line still breaks, as any unbreakable piece does)."""
    kept = list(allowed)
    start = 0
    for end in range(1, len(spans) + 1):
        if end < len(spans) and spans[end] == spans[start]:
            continue
        if spans[start] >= 0 and end - start <= SHORT_CODE:
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


def keep_words(texts: list[str], allowed: list[int]) -> list[int]:
    """`allowed` with no break between two Chinese characters of one word (`segment`): a
    heading breaks "荔枝 / 生死时速", not "荔 / 枝生死时速". A word wider than the line
    still breaks, as any unbreakable piece does."""
    text = "".join(texts)
    if not has_han(text):
        return allowed
    inside = inside_words(text)
    kept = list(allowed)
    end = 0
    for i in range(len(texts) - 1):
        end += len(texts[i])
        if (
            kept[i] == ALLOWED
            and end in inside
            and is_han(texts[i][-1:])
            and is_han(texts[i + 1][:1])
        ):
            kept[i] = NEVER
    return kept


def _is_emoji(text: str) -> bool:
    return bool(_EMOJI.match(text)) or (len(text) > 1 and bool(_EMOJI_MARK.search(text)))


def balance_lines(
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None = None,
) -> list[LineRange]:
    """Greedy lines at the narrowest width (not under the widest unbreakable piece, so no
    word is broken that greedy filling kept whole) that gives as many lines as `max_width`
    does: the lines come out about equally long, as CSS `text-wrap: balance` sets them;
    but a wider set whose lines end at more punctuation wins (`_at_pauses`)."""
    lines = break_lines(texts, widths, allowed, max_width, edges)
    low = _widest_piece(texts, widths, allowed)
    if not 2 <= len(lines) <= BALANCE_MAX_LINES or low >= max_width:
        return lines
    best, high = lines, max_width
    trial = break_lines(texts, widths, allowed, low, edges)
    if len(trial) == len(lines):
        best, high = trial, low
    while high - low > BALANCE_PRECISION:
        middle = (low + high) / 2
        trial = break_lines(texts, widths, allowed, middle, edges)
        if len(trial) == len(lines):
            best, high = trial, middle
        else:
            low = middle
    return _at_pauses(best, high, texts, widths, allowed, max_width, edges)


def _at_pauses(
    balanced: list[LineRange],
    narrowest: float,
    texts: list[str],
    widths: list[float],
    allowed: list[int],
    max_width: float,
    edges: list[Edges] | None,
) -> list[LineRange]:
    """Of the line sets as many as `balanced` between its width and `max_width`, the
    narrowest whose lines end at the most pauses (punctuation); `balanced` when none ends
    at more of them."""
    best, pauses = balanced, _pauses(balanced, texts)
    if pauses >= len(balanced) - 1 or not any(t[-1:] in _PAUSES for t in texts):
        return best  # no line could end at a pause it does not end at already
    step = (max_width - narrowest) / BALANCE_STEPS
    for n in range(1, BALANCE_STEPS + 1):
        trial = break_lines(texts, widths, allowed, narrowest + n * step, edges)
        if len(trial) == len(balanced) and (found := _pauses(trial, texts)) > pauses:
            best, pauses = trial, found
    return best


def _pauses(lines: list[LineRange], texts: list[str]) -> int:
    """How many lines but the last end on punctuation (trailing spaces left out)."""
    count = 0
    for line in lines[:-1]:
        end = line.end
        while end > line.start and texts[end - 1] in _HANGING:
            end -= 1
        count += end > line.start and texts[end - 1][-1:] in _PAUSES
    return count


def _widest_piece(texts: list[str], widths: list[float], allowed: list[int]) -> float:
    """The widest run of clusters between break opportunities, without the spaces that
    hang at its end (a space inside a glued run counts)."""
    widest = piece = trailing = 0.0
    for text, width, brk in zip(texts, widths, allowed, strict=True):
        piece += width
        trailing = trailing + width if text in _HANGING else 0.0
        if brk != NEVER:
            widest, piece, trailing = max(widest, piece - trailing), 0.0, 0.0
    return max(widest, piece - trailing)
