"""The colours a cover draws with, chosen by contrast on the ground its text sits on: the
keywords' emphasis colour (and the marker behind them), the ink on an accent block, the ink
of small keywords. A theme's own colours are kept where they read; else the next that does."""

from __future__ import annotations

import math

from ..style.ground import text_ground
from ..style.looks import Looks
from ..style.resolver import Styles, contrast

MIN_CONTRAST = 3.0  # keywords on the page: WCAG's large-text threshold
SMALL_TEXT_CONTRAST = 4.5  # hashtags and kickers: WCAG's threshold for body-size text
DISTINCT = 90.0  # keywords against the title, RGB distance: reads as another colour
MARKER_ALPHA = 0x66  # the accent behind keywords when no colour sets them apart
OPAQUE = 0xE0  # a colour at least this opaque can colour text
TINT_ALPHA = 0x2E  # a panel behind text: the accent at this opacity over the page


def tint(color: int, alpha: int = TINT_ALPHA) -> int:
    """`color` at `alpha` (0-255) opacity."""
    return (color & 0x00FFFFFF) | (alpha << 24)


def emphasis(styles: Styles) -> tuple[int, int | None]:
    """The colour keywords are drawn in, and the marker drawn behind them (or None).

    The colour is the first of the theme's own emphasis colours (the heading's, strong
    text's) that is opaque and another colour than the title's; else the first of its
    accent, list marker and link colours that also reads on the page (contrast 3:1, the
    large-text threshold); else the title's colour, marked. The marker is strong text's
    background where the theme has one, else a tint of the accent when the colour alone
    does not set the keywords apart."""
    page = text_ground(styles)
    title = styles["h1"].color
    accent, _ = Looks(styles).accent_pair()
    strong = styles.inline.get("strong", {})
    marker = strong.get("background")
    marker = marker if isinstance(marker, int) else None
    own = (styles["h1"].strong_color, strong.get("color"))
    others = (accent, styles["list"].marker_color, styles.inline.get("link", {}).get("color"))
    for color in (*own, *others):
        if not isinstance(color, int) or color >> 24 < OPAQUE or not _apart(color, title):
            continue
        if color in own or contrast(color, page) >= MIN_CONTRAST:
            return color, marker
    return title, marker if marker is not None else tint(accent | 0xFF000000, MARKER_ALPHA)


def small_ink(styles: Styles, accent: int) -> int:
    """The accent where small text in it reads on the ground (4.5:1), else the title's
    colour where that does, else the body text's: a pale accent makes a good band, not a
    hashtag."""
    under = text_ground(styles)
    for color in (accent, styles["h1"].color):
        if color >> 24 >= OPAQUE and contrast(color, under) >= SMALL_TEXT_CONTRAST:
            return color
    return styles["body"].color


def _apart(a: int, b: int) -> bool:
    """Whether two colours read as different colours (distance in RGB)."""
    channels = ((a >> shift & 0xFF) - (b >> shift & 0xFF) for shift in (16, 8, 0))
    return math.hypot(*channels) >= DISTINCT


def ink_on(color: int) -> int:
    """White or near black, whichever reads better on `color`."""
    return max((0xFFFFFFFF, 0xFF1C1F23), key=lambda ink: contrast(ink, color))
