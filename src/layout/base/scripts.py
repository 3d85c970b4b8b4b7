"""What counts as CJK text, written once for every stage that asks.

`CJK_TEXT`: Han, kana, bopomofo, CJK punctuation and fullwidth forms. A shared mark
(a curly quote, a dash, the middle dot) touching it is CJK punctuation, drawn by the CJK
face (text/punctuation.py); an ASCII quote pair touching it is curled (parse/quotes.py).
"""

from __future__ import annotations

import regex

CJK_TEXT = regex.compile(
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Bopomofo}\u3000-\u30FF\u31F0-\u31FF\uFF00-\uFFEF]"
)
