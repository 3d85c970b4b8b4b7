"""Text → jieba's words, cut as rjieba (jieba-rs 0.11) cuts them, from a memory-mapped
dictionary: the Chinese word boundaries `layout.text.words` keeps a heading from breaking
inside.

Why not rjieba itself: importing it builds jieba's whole dictionary in memory, 0.1–0.3 s of a
cold `inkcard render` and ~30 MB of every render worker, for the few headings that wrap. This
package gives the same cuts (tests/layout/test_segment.py compares them with rjieba's on
every line of the repository's Markdown and on generated hard strings) from marisa tries
mapped in a millisecond (`data`).

jieba-rs's outer split: maximal runs of ideographs (the CJK Unified blocks and their
extensions), ASCII letters and digits and `+#&._%-` are segmented (`route`); every other
character is a word of its own, except that `\\r\\n` stays together.
"""

from __future__ import annotations

import string

from .route import cut_block

_BLOCK_ASCII = frozenset(string.ascii_letters + string.digits + "+#&._%-")
_IDEOGRAPHS = (
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0x2CEB0, 0x2EBEF),
    (0x2F800, 0x2FA1F),
)

__all__ = ["cut"]


def cut(text: str) -> list[str]:
    """The words of `text`, in order; joined they give `text` back."""
    words: list[str] = []
    i, n = 0, len(text)
    while i < n:
        in_block = _in_block(text[i])
        j = i + 1
        while j < n and _in_block(text[j]) == in_block:
            j += 1
        if in_block:
            words.extend(cut_block(text[i:j]))
        else:
            _each_character(text[i:j], words)
        i = j
    return words


def _in_block(char: str) -> bool:
    if char in _BLOCK_ASCII:
        return True
    code = ord(char)
    return code >= 0x3400 and any(low <= code <= high for low, high in _IDEOGRAPHS)


def _each_character(text: str, words: list[str]) -> None:
    i, n = 0, len(text)
    while i < n:
        if text[i] == "\r" and i + 1 < n and text[i + 1] == "\n":
            words.append("\r\n")
            i += 2
        else:
            words.append(text[i])
            i += 1
