"""Chinese text → where its words begin and end, so a heading breaks between words, not
inside one ("荔/枝", "生/死时速").

rjieba (jieba's dictionary and algorithm, compiled) segments; it is imported on the first
heading that needs it (0.1 s and about 33 MB), since most cards never wrap a Chinese heading.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@lru_cache(maxsize=1)
def _cut() -> Callable[[str], list[str]]:
    import rjieba

    cut: Callable[[str], list[str]] = rjieba.cut
    return cut


def has_han(text: str) -> bool:
    return _HAN.search(text) is not None


def inside_words(text: str) -> set[int]:
    """The offsets in `text` that fall between two characters of one word."""
    inside: set[int] = set()
    offset = 0
    for word in _cut()(text):
        inside.update(range(offset + 1, offset + len(word)))
        offset += len(word)
    return inside


def is_han(char: str) -> bool:
    return _HAN.match(char) is not None
