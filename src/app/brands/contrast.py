"""A brand kit's background image → the themes whose body text would read poorly on it.

A kit is saved once and drawn in any theme, so its background is checked against every
built-in theme: where the image's mean colour and the theme's body text colour fall under
WCAG's 4.5:1, the kit's answer warns (it is not refused: a theme that sets its text on a
panel still reads, and the creator may pick the themes it suits).
"""

from __future__ import annotations

from inkcard import themes
from inkcard.layout.style import relative_luminance, resolve

MIN_CONTRAST = 4.5  # WCAG AA for body text


def background_warnings(mean: int) -> list[str]:
    """One warning naming the themes whose body text falls under 4.5:1 on `mean` (the
    background's mean ARGB colour), with their ratios; none when every theme reads."""
    low = []
    for name in themes.names():
        ratio = _contrast(resolve(themes.load(name), None)["body"].color, mean)
        if ratio < MIN_CONTRAST:
            low.append(f"{name} {ratio:.1f}:1")
    if not low:
        return []
    return [
        f"background: its mean colour #{mean & 0xFFFFFF:06x} leaves body text under"
        f" {MIN_CONTRAST}:1 in {len(low)} themes ({', '.join(low)}); text there may be hard"
        " to read"
    ]


def _contrast(a: int, b: int) -> float:
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
