"""Whether a theme's code stays readable: each code colour against its code panel.

The engine gives a dark code panel a dark token palette when the theme names no token
colour; a theme that names its own is held to them, and `inkcard themes check` reports each
token colour under the WCAG ratio for body text on the panel it is drawn on.
"""

from __future__ import annotations

from inkcard.layout.style import CODE_TOKENS, WHITE, Theme, mean_colour, relative_luminance, resolve

MIN_RATIO = 4.5  # WCAG AA for text under 24 px, as code is


def ratio(a: float, b: float) -> float:
    """The WCAG contrast ratio of two relative luminances."""
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def code_contrast(theme: Theme) -> list[str]:
    """One line per code colour under `MIN_RATIO` on its panel, in each mode."""
    failures = []
    modes: list[str | None] = [*theme.modes] or [None]
    for mode in modes:
        styles = resolve(theme, mode)
        code = styles.roles["code_block"]
        card = styles.roles["card"].background
        ground = mean_colour(card) if card is not None else WHITE
        panel = relative_luminance(
            mean_colour(code.background, ground) if code.background is not None else ground
        )
        colours = {"code text": code.color, **{t: styles.palette[t] for t in CODE_TOKENS}}
        for token, colour in colours.items():
            found = ratio(relative_luminance(colour), panel)
            if found < MIN_RATIO:
                where = f" ({mode})" if mode else ""
                failures.append(
                    f"{token} #{colour & 0xFFFFFF:06x} on the code panel{where}: "
                    f"contrast {found:.1f}:1, under {MIN_RATIO}:1"
                )
    return failures
