"""ASCII double quotes in Chinese or Japanese prose → the curly quotes a typesetter would use.

Writers on a desktop keyboard type `把"等待"写进计划` in Chinese; a designer sets
`把“等待”写进计划`: the straight mark is a Latin glyph, narrow and upright among ideographs,
and by UAX #14 (LB19) a line may not break on either side of it. The curly pair is CJK
punctuation: the CJK face draws it, the opening mark never ends a line, the closing one
never starts one.

Only whole pairs change, and only in CJK context: the quoted text, or the character just
outside either mark, is `base.scripts.CJK_TEXT`, the text that makes the curled pair CJK
punctuation. An English "quote" stays as typed, as does a paragraph with an odd number of
marks (which one is the stray cannot be known). Inline code and formulas are never touched.
Cards only: articles keep the writer's characters (docs/decisions/engine.md).
"""

from __future__ import annotations

from ..base.scripts import CJK_TEXT
from .doc import Image, Text

_UNTOUCHED = frozenset({"inline_code", "math_inline", "math_display"})
OPEN, CLOSE = "\u201c", "\u201d"


def curl_cjk_quotes(pieces: list[Text | Image]) -> list[Text | Image]:
    """`pieces` (a paragraph's runs) with each CJK-context pair of `"` made `“…”`."""
    marks = [
        (index, offset)
        for index, piece in enumerate(pieces)
        if isinstance(piece, Text) and not _UNTOUCHED.intersection(piece.marks)
        for offset, char in enumerate(piece.text)
        if char == '"'
    ]
    if not marks or len(marks) % 2:
        return pieces
    texts = [piece.text if isinstance(piece, Text) else "" for piece in pieces]
    flat, starts = _flatten(texts)
    chars = {(i, o): starts[i] + o for i, o in marks}
    edits: dict[int, list[tuple[int, str]]] = {}
    for first, second in zip(marks[::2], marks[1::2], strict=True):
        begin, end = chars[first], chars[second]
        if _in_cjk_context(flat, begin, end):
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
