"""Prose hard-wrapped in an editor, read as the paragraphs its writer meant.

Both parsers keep a soft line break as a line break (md2card's rule, `breaks`): a
Xiaohongshu post sets one short line under another on purpose, a poem line by line. But a
writer whose editor wraps prose at 72-100 columns writes the same newline inside every
sentence, and on a card each became a ragged line ending mid-sentence ("…already spent
on other" / "people's priorities."), in 29 of 30 theme-modes of an English post. Those
paragraphs are hard-wrapped, and their soft breaks join their lines as a browser without
`breaks` would: a space, or nothing between two CJK characters.

A paragraph reads as hard-wrapped when it has two lines or more, every line but its last
is at least `WRAPPED_WIDTH` columns wide (a wide character two) and at least `EVEN` of the
widest, as an editor's fill leaves them, and one of them at least ends inside a sentence
(not on `SENTENCE_ENDS`). A poem's lines, a list of short lines, a long line that ends its
sentence before the next: all kept as written. A hard break (two spaces or a backslash at
a line's end) is always kept.

`hard_wraps(md)` adds the rule to one parser.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

WRAPPED_WIDTH = 60  # columns: editors wrap at 72-100; a typed line this long seldom stops early
EVEN = 0.6  # an editor's lines fall short of its column by at most a word or two
SENTENCE_ENDS = frozenset(".!?:;。！？：；…‥\"'”’)）」』】》〉")
_TEXTS = ("text", "text_special", "code_inline")


def hard_wraps(md: MarkdownIt) -> None:
    """Make `md` join the lines of hard-wrapped paragraphs (after its inline rules)."""
    md.core.ruler.push("hard_wraps", _join_wrapped)


def _join_wrapped(state: StateCore) -> None:
    for token in state.tokens:
        if token.type == "inline" and token.children and is_hard_wrapped(token.content):
            _join(token.children)


def is_hard_wrapped(source: str) -> bool:
    """Whether a paragraph's source lines read as filled by an editor (the module's rule)."""
    lines = [line.strip() for line in source.split("\n")]
    if len(lines) < 2:
        return False
    filled = lines[:-1]
    widths = [columns(line) for line in filled]
    if min(widths) < WRAPPED_WIDTH or min(widths) < EVEN * max(widths):
        return False
    return any(line[-1] not in SENTENCE_ENDS for line in filled)


def columns(text: str) -> int:
    """The columns `text` takes in a monospace editor: wide and full-width characters two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _join(children: list[Token]) -> None:
    """Each soft break among `children` as the text that joins its lines."""
    for index, child in enumerate(children):
        if child.type != "softbreak":
            continue
        # walked from the break outwards, not sliced: a paragraph of a thousand wrapped
        # lines would copy its tokens a thousand times
        before = _edge((children[at] for at in range(index - 1, -1, -1)), last=True)
        after = _edge((children[at] for at in range(index + 1, len(children))), last=False)
        joined = "" if _wide(before) and _wide(after) else " "
        children[index] = Token("text", "", 0, content=joined)


def _edge(tokens: Iterable[Token], last: bool) -> str:
    """The character of the nearest text among `tokens` (nearest first), its last
    (`last`) or first; "" when a line break or nothing comes first."""
    for token in tokens:
        if token.type in _TEXTS and token.content:
            return str(token.content[-1] if last else token.content[0])
        if token.type in ("softbreak", "hardbreak"):
            return ""
    return ""


def _wide(char: str) -> bool:
    """Whether `char` is a wide (CJK) character, joined to its neighbour with no space."""
    return bool(char) and unicodedata.east_asian_width(char) in "WF"
