"""The callout colours every theme gets: palette tokens, one a GitHub alert kind.

A theme names its own in `[colors.*]` (`callout_note = "#…"`); the ones it leaves out
are GitHub's alert colours, a shade darker on light cards so the title (bold, body size)
keeps 4.5:1 on the callout's tinted panel, and GitHub's dark-theme ones on dark cards.
"""

from __future__ import annotations

LIGHT: dict[str, str] = {
    "callout_note": "#0550ae",
    "callout_tip": "#116329",
    "callout_important": "#6639ba",
    "callout_warning": "#7d4e00",
    "callout_caution": "#a40e26",
}
DARK: dict[str, str] = {
    "callout_note": "#4493f8",
    "callout_tip": "#3fb950",
    "callout_important": "#ab7df8",
    "callout_warning": "#d29922",
    "callout_caution": "#f85149",
}
DARK_CARD = 0.18  # a card darker than this (mean WCAG luminance) gets the `DARK` colours


def alert_tokens(named: set[str], card_luminance: float) -> dict[str, str]:
    """The callout tokens for a card of `card_luminance` that the theme has not `named`."""
    tokens = DARK if card_luminance < DARK_CARD else LIGHT
    return {token: colour for token, colour in tokens.items() if token not in named}
