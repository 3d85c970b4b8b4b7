"""Emphasis that works in Chinese, Japanese and Korean: CommonMark's CJK-friendly amendment.

CommonMark reads `大约**￥280**：` and `这是**“重点”**内容` as literal asterisks: a run
next to punctuation must have a space or punctuation on its other side, and Chinese puts
neither between words. Writers type it this way all the time, so both the cards and the
articles follow the amendment GitLab, markdig and markdown-it-cjk-friendly adopted
(https://github.com/tats-u/markdown-cjk-friendly, `specification.md`): punctuation that is
itself CJK (。，“ is not: it is East Asian Width A) no longer blocks a run, and a CJK
character on the other side counts as a space would.

Written here rather than taken from PyPI: the one markdown-it-py port (mdit-py-cjk-friendly
0.2) is a young single-author package that also rewrites soft line breaks, which the
engine already decides itself; the rule is the twenty lines below.

`cjk_friendly(md)` makes one parser follow it; other parsers in the process are untouched.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from types import MethodType

import regex
from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Scanned

InlineRule = Callable[[StateInline, bool], bool]

# The amendment's CJK character: East Asian Width W, F or H and not an emoji shown as one
# by default (✨ is W), or Hangul.
_EMOJI = regex.compile(r"\p{Emoji_Presentation}")
_HANGUL = regex.compile(r"\p{Hangul}")
# A general-use variation selector (not U+FE0F, the emoji one) or an ideographic one rides
# on the character before it.
_VARIATION = frozenset(map(chr, [*range(0xFE00, 0xFE0F), *range(0xE0100, 0xE01F0)]))


def is_cjk(char: str) -> bool:
    """Whether `char` is a CJK character in the amendment's sense."""
    if _HANGUL.match(char):
        return True
    return unicodedata.east_asian_width(char) in "WFH" and not _EMOJI.match(char)


def _punctuation(char: str) -> bool:
    return isMdAsciiPunct(ord(char)) or isPunctChar(char)


def _other_punctuation(char: str) -> bool:
    """Punctuation that still blocks a run: any that is not itself CJK."""
    return _punctuation(char) and not is_cjk(char)


def scan_delims(state: StateInline, start: int, can_split_word: bool) -> Scanned:
    """`StateInline.scanDelims` under the amendment: whether the run of markers at `start`
    can open or close emphasis (or strikethrough), and how long it is."""
    src, marker, end = state.src, state.src[start], start
    while end < state.posMax and src[end] == marker:
        end += 1
    before = src[start - 1] if start > 0 else " "
    if before in _VARIATION and start > 1:  # the amendment reads the mark it rides on
        before = src[start - 2]
    after = src[end] if end < state.posMax else " "
    space_before, space_after = isWhiteSpace(ord(before)), isWhiteSpace(ord(after))
    left = not space_after and (
        not _other_punctuation(after)
        or space_before
        or _other_punctuation(before)
        or is_cjk(before)
    )
    right = not space_before and (
        not _other_punctuation(before) or space_after or _other_punctuation(after) or is_cjk(after)
    )
    # `_` inside a word stays a letter (snake_case); CommonMark's rule, unchanged.
    can_open = left and (can_split_word or not right or _punctuation(before))
    can_close = right and (can_split_word or not left or _punctuation(after))
    return Scanned(can_open, can_close, end - start)


def cjk_friendly(md: MarkdownIt) -> None:
    """Make `md`'s emphasis and strikethrough rules scan runs by the amendment."""
    for name in ("emphasis", "strikethrough"):
        rule = next(r for r in md.inline.ruler.__rules__ if r.name == name)
        md.inline.ruler.at(name, _scanning_by_amendment(rule.fn))


def _scanning_by_amendment(tokenize: InlineRule) -> InlineRule:
    """`tokenize`, with the inline state's run scanner swapped for `scan_delims`."""

    def rule(state: StateInline, silent: bool) -> bool:
        # markdown-it-py makes a fresh state per inline run and offers no other seam
        state.scanDelims = MethodType(scan_delims, state)  # type: ignore[method-assign]
        return tokenize(state, silent)

    return rule
