"""The segmenter's dictionary and HMM tables, memory-mapped from the files in data/.

The one door to marisa-trie. Why it: rjieba builds jieba's 349,045-word dictionary in memory
when imported (0.1–0.3 s and ~30 MB a process); a marisa trie of the same words is a 1.2 MB
file that `mmap` opens in well under a millisecond, shares its pages between the render
workers, and answers the question the segmenter asks at every character, "which words start
here" (`iter_prefixes_with_ids`), in one walk. A well-kept library (marisa-trie on PyPI,
wheels for every platform we ship) rather than a format of our own. The frequencies sit in a
flat uint32 column at each word's key id (freqs.u32), so a prefix walk needs no second lookup;
the last entry is the total. The HMM's emission table (hmm.marisa, a RecordTrie) and its
start and transition tables (hmm.json) are opened only when a run of unknown characters
needs them. scripts/build_segment_data.py makes all four from jieba 0.42.1 (MIT,
data/LICENSE-jieba.txt).
"""

from __future__ import annotations

import json
import math
import mmap
import sys
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import marisa_trie

DATA = Path(__file__).resolve().parent / "data"
MIN_FLOAT = -3.14e100  # jieba's log-probability of what never happens
_UNSEEN = (MIN_FLOAT, MIN_FLOAT, MIN_FLOAT, MIN_FLOAT)


@dataclass(frozen=True, slots=True)
class Words:
    """jieba's dictionary: the words (a trie), their frequencies, and ln of the total."""

    trie: marisa_trie.Trie
    freqs: Sequence[int]  # by the word's key id in `trie`
    log_total: float

    def starting(self, text: str) -> list[tuple[int, int]]:
        """Every dictionary word that `text` starts with, shortest first, as (its length,
        its frequency)."""
        freqs = self.freqs
        return [(len(word), freqs[key]) for word, key in self.trie.iter_prefixes_with_ids(text)]

    def __contains__(self, word: object) -> bool:
        return word in self.trie


@dataclass(frozen=True, slots=True)
class Hmm:
    """jieba's character HMM (states B, E, M, S): log-probabilities of the first state, of
    each transition, and of each state emitting a character."""

    start: tuple[float, ...]
    trans: tuple[tuple[float, ...], ...]
    emit: Callable[[str], tuple[float, ...]]


@lru_cache(maxsize=1)
def words() -> Words:
    """The dictionary, mapped on first use and kept for the process."""
    trie = marisa_trie.Trie()
    trie.mmap(str(DATA / "words.marisa"))
    freqs = _uint32s(DATA / "freqs.u32")
    return Words(trie, freqs, math.log(freqs[len(freqs) - 1]))


@lru_cache(maxsize=1)
def hmm() -> Hmm:
    """The HMM tables, opened the first time a run of unknown characters needs them."""
    tables = json.loads((DATA / "hmm.json").read_text(encoding="utf-8"))
    emissions = marisa_trie.RecordTrie("<4d")
    emissions.mmap(str(DATA / "hmm.marisa"))

    def emit(char: str) -> tuple[float, ...]:
        found = emissions.get(char)
        return tuple(found[0]) if found else _UNSEEN

    return Hmm(tuple(tables["start"]), tuple(tuple(row) for row in tables["trans"]), emit)


def _uint32s(path: Path) -> Sequence[int]:
    with path.open("rb") as file:
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    if sys.byteorder == "little":
        return memoryview(mapped).cast("I")
    column = array("I")  # a big-endian machine reads a swapped copy
    column.frombytes(mapped[:])
    column.byteswap()
    return column
