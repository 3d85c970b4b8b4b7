"""A theme's colours and page → its diagrams' series colours (`series0`…): pie slices, mind-map
branches. Each is distinct, and at least 3:1 (WCAG contrast) from the next one, so two
slices side by side part by lightness too, not by hue alone (which a colour-blind reader,
a grey print or a dim phone loses).

Themes name few colours, and often one twice: darktech's link, keyword and string are the
same cyan, minimalist's are all black, so taken as they stand, slices repeated. Here the
theme's colours give the hues, in their order, less any near an earlier one (greys: one);
hues spaced round the wheel, each as far as it can be from those already taken, make up
the count. Each series colour then keeps its hue and saturation (HLS, `colorsys`: the
standard library does this; no colour package is installed) and takes one of two
lightness tiers, alternately: on a light page a deep tier and a soft one, on a dark page a
soft one and a bright one, each `APART` from the other in luminance and, where the page
leaves room, the soft one as far from the page.

A pie is a ring: its last slice touches its first, so with an odd count two tiers
alternating put one tier on both sides of that seam. Its slices take the role
``series{i}/{count}`` (`ring_colours`): an even count the series as they are; an odd count
three tiers, each `APART` from the next, two alternating and the third for the last slice
alone, which so parts from both its neighbours. On a dark page the two farthest from the
page alternate; on a light page the two nearest it, the deepest (luminance 0.01, where a
hue no longer shows: the pies of 7 slices read as three black holes) used once, in the
hue that stays a colour there (blue, violet: the darkest at full colour).
"""

from __future__ import annotations

import colorsys
from collections.abc import Sequence
from functools import lru_cache

from ..style.resolver import relative_luminance

COUNT = 8  # series colours: series0..series7, then again
APART = 3.15  # contrast kept between neighbours: WCAG's 3:1 for graphics, and 8-bit rounding
NEAR_HUE = 1 / 12  # hues closer than 30 degrees read as one series colour
GREY = 0.12  # saturation under which a colour is a grey (black, white included)
MADE_SATURATION = 0.62  # of a hue made up when the theme has no saturated colour
# A theme colour's hue is kept at least this saturated: under it, a slice at the deep tier
# reads as the grey beside it (minimal's slate #4a5566 and brown #6b5a4a, 0.16 and 0.18,
# drew two of four slices as one dark grey; the legend could not tell them apart)
HUE_SHOWS = 0.3
DEEPEST, PALEST = 0.01, 0.85  # luminances past which a colour's hue hardly shows
MIDDLE = 0.18  # page luminance at which light marks read as well as dark ones
_CANDIDATE_HUES = 24  # hues made up are chosen from every 15 degrees
_OPAQUE = 0xFF000000


@lru_cache(maxsize=64)
def series_colours(base: tuple[int, ...], page: int) -> tuple[int, ...]:
    """`COUNT` ARGB colours from the theme's `base` colours (in order of preference) for
    marks drawn on `page`."""
    hues = _hues(base)
    low, high = _tiers(relative_luminance(page))
    first = relative_luminance(base[0]) if base else low
    order = (low, high) if abs(first - low) <= abs(first - high) else (high, low)
    return tuple(_at_luminance(*hues[i], order[i % 2]) for i in range(COUNT))


def series_colour(base: tuple[int, ...], page: int, role: str) -> int:
    """The ARGB colour of a series role: ``series{i}`` (`series_colours`, again after
    `COUNT`) or a ring's ``series{i}/{count}`` or ``series{i}/{count}/{alone}``
    (`ring_colours`)."""
    index, *ring = (int(part) for part in role.removeprefix("series").split("/"))
    if ring:
        count, alone = ring[0], ring[1] if len(ring) > 1 else ring[0] - 1
        return ring_colours(base, page, count, alone % count)[index % count]
    return series_colours(base, page)[index % COUNT]


@lru_cache(maxsize=256)
def ring_colours(
    base: tuple[int, ...], page: int, count: int, alone: int | None = None
) -> tuple[int, ...]:
    """`count` ARGB colours for marks in a ring on `page` (a pie's slices, clockwise), each
    `APART` from the ones it touches, the last and the first included; with an odd count
    the third tier goes to the mark at `alone` (the pie's smallest slice; None: the last)."""
    series = series_colours(base, page)
    if count % 2 == 0 or count < 3:
        return tuple(series[i % COUNT] for i in range(count))
    hues = _hues(base)
    light = relative_luminance(page) >= MIDDLE
    near, middle, far = _three_tiers(relative_luminance(page))
    # the tier used once: on a dark page the one nearest it, on a light page the deepest,
    # whose hue hardly shows (alternating with the middle one, half a pie read as black)
    third, pair = (far, (near, middle)) if light else (near, (middle, far))
    first = relative_luminance(base[0]) if base else pair[0]
    order = pair if abs(first - pair[0]) <= abs(first - pair[1]) else pair[::-1]
    at = count - 1 if alone is None else alone
    shades = [hues[i % COUNT] for i in range(count)]
    if light:  # the deepest tier in the hue darkest at full colour: navy, not a black olive
        darkest = min((i for i in range(count) if i or not at), key=lambda i: _full(*shades[i]))
        shades[at], shades[darkest] = shades[darkest], shades[at]
    return tuple(  # round the ring from the one after `at`: the pair alternate, then `at`
        _at_luminance(*shades[i], order[(i - at - 1) % count % 2] if i != at else third)
        for i in range(count)
    )


def _full(hue: float, saturation: float) -> float:
    """The luminance of `hue` at `saturation` and middle lightness: low for blue and violet,
    which still show their hue near black, high for yellow and green, which do not."""
    return relative_luminance(_argb(colorsys.hls_to_rgb(hue, 0.5, saturation)))


def _three_tiers(page: float) -> tuple[float, float, float]:
    """Three luminances, each `APART` from the next, from the one nearest the page: from
    `DEEPEST` up on a light page, from `PALEST` down on a dark one."""
    if page >= MIDDLE:
        low = DEEPEST
        middle = (low + 0.05) * APART - 0.05
        return (middle + 0.05) * APART - 0.05, middle, low
    high = PALEST
    middle = (high + 0.05) / APART - 0.05
    return (middle + 0.05) / APART - 0.05, middle, high


def _hues(base: Sequence[int]) -> list[tuple[float, float]]:
    """(hue, saturation) of each series colour: the theme's distinct ones, then made up."""
    taken: list[tuple[float, float]] = []
    for argb in base:
        hue, _, saturation = colorsys.rgb_to_hls(*_rgb(argb))
        if saturation < GREY:  # a grey leads the series only as the theme's first colour
            if not taken:
                taken.append((hue, 0.0))
        elif all(s < GREY or _hue_gap(hue, h) >= NEAR_HUE for h, s in taken):
            taken.append((hue, max(saturation, HUE_SHOWS)))
    chromatic = [s for _, s in taken if s >= GREY]
    saturation = sum(chromatic) / len(chromatic) if chromatic else MADE_SATURATION
    while len(taken) < COUNT:
        candidates = [i / _CANDIDATE_HUES for i in range(_CANDIDATE_HUES)]
        used = [h for h, s in taken if s >= GREY]
        hue = max(candidates, key=lambda c: min((_hue_gap(c, h) for h in used), default=1.0))
        taken.append((hue, max(saturation, 0.45)))
    return taken[:COUNT]


def _hue_gap(a: float, b: float) -> float:
    gap = abs(a - b) % 1.0
    return min(gap, 1.0 - gap)


def _tiers(page: float) -> tuple[float, float]:
    """Two luminances `APART` from each other and from the page: both darker than a light
    page, both lighter than a dark one, or one each side of a page of middle lightness
    (pop-art's purple). Where none fits between `DEEPEST` and `PALEST` (where hues still
    show), the neighbours keep their contrast and the page gets less."""
    ground = page + 0.05
    darker = (ground / APART**2 - 0.05, ground / APART - 0.05)
    lighter = (ground * APART - 0.05, ground * APART**2 - 0.05)
    either = (ground / APART - 0.05, ground * APART - 0.05)
    for low, high in (darker, lighter, either):
        if low >= DEEPEST and high <= PALEST:
            return low, high
    if page < MIDDLE:
        return (PALEST + 0.05) / APART - 0.05, PALEST
    return DEEPEST, (DEEPEST + 0.05) * APART - 0.05


def _at_luminance(hue: float, saturation: float, target: float) -> int:
    """The colour of `hue` and `saturation` whose lightness gives luminance `target`."""
    low, high = 0.0, 1.0
    for _ in range(24):
        mid = (low + high) / 2
        if relative_luminance(_argb(colorsys.hls_to_rgb(hue, mid, saturation))) < target:
            low = mid
        else:
            high = mid
    return _argb(colorsys.hls_to_rgb(hue, (low + high) / 2, saturation))


def _rgb(argb: int) -> tuple[float, float, float]:
    return tuple((argb >> shift & 0xFF) / 255 for shift in (16, 8, 0))  # type: ignore[return-value]


def _argb(rgb: tuple[float, float, float]) -> int:
    red, green, blue = (round(min(1.0, max(0.0, c)) * 255) for c in rgb)
    return _OPAQUE | red << 16 | green << 8 | blue
