"""The callout colours every theme gets: palette tokens, one a GitHub alert kind.

A theme names its own in `[colors.*]` (`callout_note = "#…"`); the ones it leaves out
are GitHub's alert colours, a shade darker where the text is dark (the title, bold at body
size, keeps 4.5:1 on the callout's tinted panel), and GitHub's dark-theme ones, a shade
lighter, where the text is light (a dark ground).
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
    "callout_note": "#79c0ff",
    "callout_tip": "#56d364",
    "callout_important": "#d2a8ff",
    "callout_warning": "#e3b341",
    "callout_caution": "#ff7b72",
}
# Body text lighter than this (WCAG luminance) is on a dark ground: the `DARK` colours. The
# text says it better than the card's paint, which a sheet or a glass panel may cover.
LIGHT_TEXT = 0.4


def alert_tokens(named: set[str], text_luminance: float) -> dict[str, str]:
    """The callout tokens the theme has not `named`, for body text of `text_luminance`."""
    tokens = DARK if text_luminance > LIGHT_TEXT else LIGHT
    return {token: colour for token, colour in tokens.items() if token not in named}
