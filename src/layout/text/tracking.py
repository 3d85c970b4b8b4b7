"""Who gets a style's letter spacing: CJK and other full-width text always, a word that
has a lowercase letter never.

Letter spacing (tracking) suits CJK, which is set in square cells, and capitals and
figures, which designers track; spaced-out lowercase breaks up the word shapes a reader
takes in at a glance. So a run of text between spaces and full-width characters that holds
a lowercase letter (Latin, Greek, Cyrillic) keeps its natural advances; every other
cluster takes the spacing, as before. A space takes what the cluster before it took. A
capital word or a figure before a lowercase word keeps no spacing after its last character
nor in the space that follows: the title "How I Got My Mornings Back: 6 Habits" opened a
double gap after "I" and after "6" (traditional-chinese's 3 px), spacing that sits
between no two letters of theirs.
Negative spacing (tightening a display face) is the designer's call and applies to all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import regex

from .punctuation import MARKS

# Full-width text: Han, kana, Hangul, CJK punctuation, full-width forms, emoji.
_WIDE = regex.compile(r"[\p{East_Asian_Width=Wide}\p{East_Asian_Width=Fullwidth}]")
_LOWERCASE = regex.compile(r"\p{Lowercase_Letter}")
# A shared mark (quotes, the middle dot) this wide, in em, is a CJK-context mark set
# full width ("“" in the CJK face): it belongs to the CJK text around it, not to a word.
FULL_WIDTH_SHARE = 0.9


class _Style(Protocol):
    @property
    def size(self) -> float: ...
    @property
    def letter_spacing(self) -> float: ...


class Tracked(Protocol):
    """What the rule reads of a cluster (before any spacing is in its width)."""

    @property
    def text(self) -> str: ...
    @property
    def width(self) -> float: ...
    @property
    def style(self) -> _Style: ...


def amounts(clusters: Sequence[Tracked]) -> list[float]:
    """The letter spacing each cluster takes, in px (its style's, or 0)."""
    out = [c.style.letter_spacing for c in clusters]
    run: list[int] = []
    before: list[int] = []  # the last word's last cluster and the spaces after it
    for i, cluster in enumerate([*clusters, None]):
        if cluster is not None and _in_word(cluster):
            run.append(i)
            continue
        if run:
            if any(_LOWERCASE.search(clusters[j].text) for j in run):
                for j in run + before:
                    out[j] = min(0.0, out[j])
            before = [run[-1]]
        run = []
        if cluster is not None and cluster.text.isspace() and i:
            out[i] = min(out[i], out[i - 1]) if out[i] > 0 else out[i]
            if before:
                before.append(i)
        else:
            before = []
    return out


def _in_word(cluster: Tracked) -> bool:
    """Whether the cluster can belong to a cased word: not a space, not full width."""
    text = cluster.text
    if not text or text.isspace() or _WIDE.search(text):
        return False
    return text not in MARKS or cluster.width < FULL_WIDTH_SHARE * cluster.style.size
