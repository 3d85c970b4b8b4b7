"""ASCII quotes → the curly quotes a typesetter would use (cards only).

Writers on a desktop keyboard type `把"等待"写进计划` in Chinese; a designer sets
`把“等待”写进计划`: the straight mark is a Latin glyph, narrow and upright among ideographs,
and by UAX #14 (LB19) a line may not break on either side of it. The curly pair is CJK
punctuation: the CJK face draws it, the opening mark never ends a line, the closing one
never starts one. In English a designer sets “quotes” and don’t too: the straight marks are
a typewriter's, and every layout program curls them as they are typed.

Only whole pairs of `"` change: in CJK context (the quoted text, or the character just
outside either mark, is `base.scripts.CJK_TEXT`), or in Latin text where the first mark opens
a word and the second closes one (`"quote"`, not the inches of `a 5" screen`). A paragraph
with an odd number of marks keeps them all (which one is the stray cannot be known).

A single `'` is an apostrophe or half of a ‘nested quote’, and the two share the closing
glyph `’`; only the opening `‘` needs a reader's guess. So: between two letters, and before a
digit at a word's start ('90s), it is `’`. A mark that opens a word is `‘` only when a later
mark in the paragraph closes a word for it (nearest first, like brackets); an opener left
without one stays as typed (`'tis` and a stray opening quote look alike). A mark that closes a
word after a letter or closing punctuation is `’`: the end of a quote, or the plural
possessive (the students’ books). `'n'` is ’n’. Inline code and formulas are never touched.
Cards only: articles keep the writer's characters (docs/decisions/engine.md).
"""

from __future__ import annotations

from ..base.scripts import CJK_TEXT
from .doc import Image, Text

_UNTOUCHED = frozenset({"inline_code", "math_inline", "math_display"})
OPEN, CLOSE = "\u201c", "\u201d"
APOSTROPHE = "\u2019"
OPEN_SINGLE = "\u2018"
# What may stand before an opening quote in Latin text, and after a closing one (with the
# start or end of the paragraph and spaces).
_BEFORE_OPENING = frozenset("([{—–-/")
_AFTER_CLOSING = frozenset(".,;:!?)]}—–-/…")


def curl_quotes(pieces: list[Text | Image]) -> list[Text | Image]:
    """`pieces` (a paragraph's runs) with each pair of `"` that reads as a quotation made
    `“…”`, and each apostrophe inside a word `’`."""
    return _curl_apostrophes(_curl_pairs(pieces))


def _curl_pairs(pieces: list[Text | Image]) -> list[Text | Image]:
    """`pieces` with each CJK-context or word-bounded pair of `"` made `“…”`."""
    marks = _marks(pieces, '"')
    if not marks or len(marks) % 2:
        return pieces
    texts = [piece.text if isinstance(piece, Text) else "" for piece in pieces]
    flat, starts = _flatten(texts)
    chars = {(i, o): starts[i] + o for i, o in marks}
    edits: dict[int, list[tuple[int, str]]] = {}
    for first, second in zip(marks[::2], marks[1::2], strict=True):
        begin, end = chars[first], chars[second]
        if _in_cjk_context(flat, begin, end) or _quotes_words(flat, begin, end):
            edits.setdefault(first[0], []).append((first[1], OPEN))
            edits.setdefault(second[0], []).append((second[1], CLOSE))
    out = list(pieces)
    for index, changes in edits.items():
        piece = out[index]
        assert isinstance(piece, Text)
        text = list(piece.text)
        for offset, char in changes:
            text[offset] = char
        out[index] = Text("".join(text), piece.marks)
    return out


def _marks(pieces: list[Text | Image], mark: str) -> list[tuple[int, int]]:
    """(piece, offset) of each `mark` in the runs curling may touch (not code, not math)."""
    return [
        (index, offset)
        for index, piece in enumerate(pieces)
        if isinstance(piece, Text) and not _UNTOUCHED.intersection(piece.marks)
        for offset, char in enumerate(piece.text)
        if char == mark
    ]


def _flatten(texts: list[str]) -> tuple[str, list[int]]:
    """The runs' text joined, and where each run starts in it."""
    starts, total = [], 0
    for text in texts:
        starts.append(total)
        total += len(text)
    return "".join(texts), starts


def _in_cjk_context(flat: str, begin: int, end: int) -> bool:
    """Whether the quoted text, or the character just outside either mark, is CJK."""
    outside = flat[begin - 1 : begin] + flat[end + 1 : end + 2]
    return bool(CJK_TEXT.search(flat, begin + 1, end) or CJK_TEXT.search(outside))


def _quotes_words(flat: str, begin: int, end: int) -> bool:
    """Whether the mark at `begin` opens a word and the one at `end` closes one: `"quote"`,
    not `5" and 7"`."""
    before, after = flat[begin - 1 : begin], flat[end + 1 : end + 2]
    opens = (not before or before.isspace() or before in _BEFORE_OPENING) and not flat[
        begin + 1 : begin + 2
    ].isspace()
    closes = (not after or after.isspace() or after in _AFTER_CLOSING) and not flat[
        end - 1 : end
    ].isspace()
    return end > begin + 1 and opens and closes


def _curl_apostrophes(pieces: list[Text | Image]) -> list[Text | Image]:
    """`pieces` with each `'` that reads as an apostrophe made `’` and each word-bounded pair
    of `'` made `‘…’` (the module's rules)."""
    marks = _marks(pieces, "'")
    if not marks:
        return pieces
    texts = [piece.text if isinstance(piece, Text) else "" for piece in pieces]
    flat, starts = _flatten(texts)
    chosen = _single_marks(flat, [starts[i] + o for i, o in marks])
    out = list(pieces)
    for (index, offset), at in zip(marks, [starts[i] + o for i, o in marks], strict=True):
        glyph = chosen.get(at)
        if glyph is None:
            continue
        piece = out[index]
        assert isinstance(piece, Text)
        out[index] = Text(piece.text[:offset] + glyph + piece.text[offset + 1 :], piece.marks)
    return out


def _single_marks(flat: str, positions: list[int]) -> dict[int, str]:
    """For each `'` at `positions` in `flat`, the curly mark it becomes (absent: kept)."""
    chosen: dict[int, str] = {}
    openers: list[int] = []
    for at in positions:
        before, after = flat[at - 1 : at], flat[at + 1 : at + 2]
        if _latin_letter(before) and _latin_letter(after):
            chosen[at] = APOSTROPHE
        elif _closes_word(before, after) and openers:
            chosen[at] = APOSTROPHE
            chosen[openers.pop()] = OPEN_SINGLE
        elif _opens_word(before, after):
            if after.isdigit() or flat[at : at + 3] == "'n'":
                chosen[at] = APOSTROPHE
            else:
                openers.append(at)
        elif _closes_word(before, after):
            chosen[at] = APOSTROPHE
    return chosen


def _latin_letter(char: str) -> bool:
    """Whether `char` is a letter outside the CJK scripts (ideographs count as letters to
    `str.isalpha`, but a mark between two of them is a quote, not an apostrophe)."""
    return char.isalpha() and not CJK_TEXT.match(char)


def _opens_word(before: str, after: str) -> bool:
    """Whether a mark between `before` and `after` opens a word."""
    starts = (
        not before
        or before.isspace()
        or before in _BEFORE_OPENING
        or before in '"“'
        or bool(CJK_TEXT.match(before))
    )
    return starts and bool(after) and after.isalnum()


def _closes_word(before: str, after: str) -> bool:
    """Whether a mark between `before` and `after` closes a word: after a letter (not a
    digit: the feet of `5'` are a prime) or closing punctuation."""
    ends = (
        not after
        or after.isspace()
        or after in _AFTER_CLOSING
        or after in '"”'
        or bool(CJK_TEXT.match(after))
    )
    return ends and bool(before) and (before.isalpha() or before in ".,!?…")
