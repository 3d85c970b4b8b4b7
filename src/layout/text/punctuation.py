"""Punctuation compression (标点挤压): which full-width marks lose half their em, and where.

A full-width CJK mark draws its ink in part of its em box and leaves the rest blank:
an opening bracket or quote on the left (`（“《`), a closing mark on the right (`）”》，。、`
and, in Chinese, `：；`), a middle mark on both sides (`・`, and `：；` in Japanese). Set
side by side, the blanks add up to holes. Following W3C clreq/jlreq and CSS
`text-spacing-trim: normal` plus `trim-start`:

- adjacent marks collapse: a closing mark before another mark, and an opening mark after an
  opening or middle mark or an ideographic space, lose their blank half ("，“" is 1.5 em);
- an opening mark at a line start loses its blank (the text edge stays straight);
- a closing mark at a line end loses its blank when the line would not fit otherwise.

`！？` divide sentences and keep their em. Pure: shape.py measures the blanks (from the
font's `halt` feature where it has one) and applies them.

Quotes, dashes, the ellipsis and the middle dot are shared with Latin text: they are CJK
punctuation (full width, from a CJK face) only where they touch CJK text
(`cjk_context_marks`).
"""

from __future__ import annotations

from enum import Enum

import regex

from ..base.scripts import CJK_TEXT


class Kind(Enum):
    OPEN = "open"
    CLOSE = "close"
    MIDDLE = "middle"


_OPEN = set("（「『【《〈〔〖〘〚｛［‘“")
_CLOSE = set("）」』】》〉〕〗〙〛｝］’”，。、．")
_COLONS = set("：；")  # closing in Chinese (ink at the left), centred in Japanese
_MIDDLE = set("・·‧")
MARKS = frozenset(_OPEN | _CLOSE | _COLONS | _MIDDLE)  # every mark `kind` classifies
# Blank (left, right) in em when the face has no `halt` to say.
_FALLBACK = {Kind.OPEN: (0.5, 0.0), Kind.CLOSE: (0.0, 0.5), Kind.MIDDLE: (0.25, 0.25)}

# Runs of the punctuation Chinese and Latin text share (dashes, curly quotes, ellipsis,
# middle dot): they go with the text around them.
_SHARED = regex.compile(r"[\u00B7\u2014\u2015\u2018-\u201F\u2026]+")
CONTEXT_REACH = 8  # spaces looked past for the text a shared mark touches


def kind(text: str, japanese: bool) -> Kind | None:
    """The compression class of one cluster's text, or None for anything else."""
    if text in _OPEN:
        return Kind.OPEN
    if text in _CLOSE:
        return Kind.CLOSE
    if text in _COLONS:
        return Kind.MIDDLE if japanese else Kind.CLOSE
    if text in _MIDDLE:
        return Kind.MIDDLE
    return None


def fallback_blanks(mark: Kind) -> tuple[float, float]:
    """The blank (left, right) of a mark in em, by its class (the Simplified Chinese
    positions, which the shipped faces without `halt` follow)."""
    return _FALLBACK[mark]


def adjacent_trims(kinds: list[Kind | None], texts: list[str]) -> list[tuple[bool, bool]]:
    """For each cluster, whether its left and its right blank collapse into a neighbour."""
    trims = [(False, False)] * len(kinds)
    for i, mark in enumerate(kinds):
        if mark is None:  # most clusters: nothing collapses
            continue
        before = kinds[i - 1] if i else None
        after = kinds[i + 1] if i + 1 < len(kinds) else None
        left = mark is Kind.OPEN and (
            before in (Kind.OPEN, Kind.MIDDLE) or (i > 0 and texts[i - 1] == "\u3000")
        )
        right = mark is Kind.CLOSE and after is not None
        trims[i] = (left, right)
    return trims


def cjk_context_marks(text: str, japanese: bool) -> frozenset[int]:
    """The offsets in `text` of the shared marks (quotes, dashes, ellipsis, middle dot) set as
    CJK punctuation: a run of them next to CJK text; or, with no letter or digit right next
    to it, a run whose nearest text past spaces is CJK (or none, in Japanese)."""
    marks: set[int] = set()
    for run in _SHARED.finditer(text):
        start, end = run.span()
        if _touches_cjk(text[start - 1 : start], text[end : end + 1], japanese) or (
            _touches_cjk(
                text[max(0, start - CONTEXT_REACH) : start].rstrip()[-1:],
                text[end : end + CONTEXT_REACH].lstrip()[:1],
                japanese,
            )
            and not text[start - 1 : start].isalnum()
            and not text[end : end + 1].isalnum()
        ):
            marks.update(range(start, end))
    return frozenset(marks)


def _touches_cjk(before: str, after: str, japanese: bool) -> bool:
    """Whether a mark between these characters is CJK: one of them is CJK text, or, in
    Japanese, neither is a letter or digit."""
    if CJK_TEXT.match(before) or CJK_TEXT.match(after):
        return True
    return japanese and not before.isalnum() and not after.isalnum()
