"""fit "auto": the post laid out at the theme's type scale and a few steps around it, and
the set of cards the quality report scores best kept.

The steps stay within ±12 % of the theme's type (a designer's range for one design: the
same theme, denser or roomier), tried nearest first. A variant replaces the theme's own
layout only when its cards' mean score is no lower, and higher by `EXTRA_CARD` points for
each card it keeps over the fewest (a card fewer counts for it): fitting never lowers the
score. A variant that takes more cards than the theme's own layout is no candidate: a
designer sets a post larger to fill its cards, never to spread it over more (scored per
card, the Japanese post's three cards at 1.12, the first 45 % full, outscored its two full
ones in 13 theme-modes). Nor is one that breaks a limit (too many cards, too many pixels).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..base.boxes import Page
from ..errors import CardTooLarge, TooManyPages, TooManyPixels, TooTallForFormat
from .quality import Quality, measure

TYPE_STEPS = (0.94, 1.06, 0.88, 1.12)  # besides 1.0, the theme's own
EXTRA_CARD = 2.0  # score points a card more must buy: a reader swipes through every one
OVER_A_LIMIT = (CardTooLarge, TooManyPages, TooManyPixels, TooTallForFormat)


def best_fit(lay_out: Callable[[float], list[Page]]) -> list[Page]:
    """The pages `lay_out(step)` makes at the step whose cards score best (1.0 unless
    another scores higher). `lay_out(1.0)`'s refusals are raised."""
    best = own = lay_out(1.0)
    floor = set_score(own)
    best_value = floor - EXTRA_CARD * len(best)
    for step in TYPE_STEPS:
        try:
            trial = lay_out(step)
        except OVER_A_LIMIT:
            continue
        if len(trial) > len(own):
            continue
        score = set_score(trial)
        value = score - EXTRA_CARD * len(trial)
        if score >= floor and value > best_value:
            best, best_value = trial, value
    return best


def set_score(
    pages: list[Page], measures: Sequence[Quality | None] | None = None, *, crowding: bool = True
) -> float:
    """The mean score of the cards (100 for pages nobody measured); `measures`: each
    page's `measure`, when the caller has them; without `crowding`, the points the cards
    lost to room left or table rows set tight given back (`Quality.crowding`): the type
    steps weigh a set's fill by their own levels, tuned on the looks' ratings before the
    report weighed it (warm's home workout at 440x586 fell back to 97 | 52 %, rated 3)."""
    measured = [measure(page) for page in pages] if measures is None else measures
    scores = [
        quality.score + (0 if crowding else quality.crowding)
        for quality in measured
        if quality is not None
    ]
    return sum(scores) / len(scores) if scores else 100.0
