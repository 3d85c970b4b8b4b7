"""A block of Chinese (and ASCII word characters) → words: jieba's best route through the
dictionary, with the characters it leaves single handed to the HMM.

As jieba-rs cuts: every dictionary word starting at each character is an edge; the route
maximises the sum of ln(freq / total) from the end backwards (a character no word starts
at costs ln(1 / total)), ties going to the longer word. Walking the route, consecutive
single characters are gathered; a run of two or more that is itself a dictionary word is
kept as single characters, any other run goes to the HMM (`hmm.cut_unknown`). The
arithmetic is done in jieba-rs's order, so equal sums stay equal.
"""

from __future__ import annotations

import math

from .data import words as dictionary
from .hmm import cut_unknown


def cut_block(block: str) -> list[str]:
    """The words of `block`, a run of characters jieba segments together."""
    ends = _route(block)
    words: list[str] = []
    run_start: int | None = None
    x, n = 0, len(block)
    while x < n:
        y = ends[x]
        if y - x == 1:
            if run_start is None:
                run_start = x
        else:
            if run_start is not None:
                _cut_run(block[run_start:x], words)
                run_start = None
            words.append(block[x:y])
        x = y
    if run_start is not None:
        _cut_run(block[run_start:], words)
    return words


def _route(block: str) -> list[int]:
    """For each character, where the word the best route takes from it ends."""
    known = dictionary()
    log_total = known.log_total
    n = len(block)
    probs = [0.0] * (n + 1)
    ends = list(range(1, n + 2))
    for i in range(n - 1, -1, -1):
        best: float | None = None
        for length, freq in known.starting(block[i:]):
            prob = (math.log(freq) - log_total) + probs[i + length]
            if best is None or prob >= best:
                best, ends[i] = prob, i + length
        probs[i] = best if best is not None else (0.0 - log_total) + probs[i + 1]
    return ends


def _cut_run(run: str, words: list[str]) -> None:
    if len(run) == 1:
        words.append(run)
    elif run in dictionary():
        words.extend(run)
    else:
        cut_unknown(run, words)
