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
"""

from __future__ import annotations

from enum import Enum


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
    trims = []
    for i, mark in enumerate(kinds):
        before = kinds[i - 1] if i else None
        after = kinds[i + 1] if i + 1 < len(kinds) else None
        left = mark is Kind.OPEN and (
            before in (Kind.OPEN, Kind.MIDDLE) or (i > 0 and texts[i - 1] == "\u3000")
        )
        right = mark is Kind.CLOSE and after is not None
        trims.append((left, right))
    return trims
