"""A run of characters no dictionary word joined → words, by jieba's character HMM.

jieba-rs's way, step for step, since the point is its cuts: the run is split into stretches
of the HMM's ideographs (U+4E00–U+9FD5) and the rest. A stretch of ideographs is labelled
Begin/Middle/End/Single by Viterbi and cut there, ties broken as Rust's `max_by` on
`(probability, state)` breaks them (the greater state, then the later candidate). The rest
is cut into ASCII tokens — letters and digits, joined by single `.`, `_` or `-` between
alphanumerics, then an optional `%` (`photo.png`, `media_id`, `v1.2.3`, `12.5%`) — and the
gaps between them, each gap one word. Hand-written scanning, no regular expression: the
text is the user's.
"""

from __future__ import annotations

import string

from .data import hmm

B, E, M, S = 0, 1, 2, 3  # jieba-rs's state numbers (its tables' order)
# The states each state may follow, in the order jieba-rs tries them.
_PREVIOUS = ((E, S), (B, M), (M, B), (S, E))
_ALNUM = frozenset(string.ascii_letters + string.digits)
_CONNECTORS = frozenset("._-")


def cut_unknown(run: str, words: list[str]) -> None:
    """Append the words of `run` (characters the dictionary route left single) to `words`."""
    i, n = 0, len(run)
    while i < n:
        j = i + 1
        han = _is_hmm_han(run[i])
        while j < n and _is_hmm_han(run[j]) == han:
            j += 1
        if not han:
            _ascii_tokens(run[i:j], words)
        elif j - i == 1:
            words.append(run[i])
        else:
            _viterbi_words(run[i:j], words)
        i = j


def _is_hmm_han(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fd5"


def _viterbi_words(text: str, words: list[str]) -> None:
    path = _viterbi(text)
    begin = after = 0
    for i, state in enumerate(path):
        if state == B:
            begin = i
        elif state == E:
            words.append(text[begin : i + 1])
            after = i + 1
        elif state == S:
            words.append(text[i])
            after = i + 1
    if after < len(text):
        words.append(text[after:])


def _viterbi(text: str) -> list[int]:
    """The likeliest B/E/M/S label of each character of `text` (two or more)."""
    tables = hmm()
    start, trans, emit = tables.start, tables.trans, tables.emit
    first = emit(text[0])
    probs = [start[state] + first[state] for state in range(4)]
    back: list[list[int]] = []
    for char in text[1:]:
        emitted = emit(char)
        row, came = [0.0] * 4, [0] * 4
        for state, (one, other) in enumerate(_PREVIOUS):
            via_one = probs[one] + trans[one][state] + emitted[state]
            via_other = probs[other] + trans[other][state] + emitted[state]
            if (via_other, other) >= (via_one, one):
                row[state], came[state] = via_other, other
            else:
                row[state], came[state] = via_one, one
        probs = row
        back.append(came)
    state = S if (probs[S], S) >= (probs[E], E) else E
    path = [state]
    for came in reversed(back):
        state = came[state]
        path.append(state)
    path.reverse()
    return path


def _ascii_tokens(text: str, words: list[str]) -> None:
    pos, n = 0, len(text)
    while pos < n:
        token = pos
        while token < n and text[token] not in _ALNUM:
            token += 1
        if token > pos:
            words.append(text[pos:token])
        if token == n:
            return
        end = _token_end(text, token)
        words.append(text[token:end])
        pos = end


def _token_end(text: str, start: int) -> int:
    end, n = start, len(text)
    while True:
        while end < n and text[end] in _ALNUM:
            end += 1
        if end + 1 < n and text[end] in _CONNECTORS and text[end + 1] in _ALNUM:
            end += 1
        else:
            break
    if end < n and text[end] == "%":
        end += 1
    return end
