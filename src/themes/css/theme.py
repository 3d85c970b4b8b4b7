"""A stylesheet → the checked `Theme` it spells, with the notes of what it could not use.

The steps: read the rules (`read`), set each declaration's knobs (`knobs`), then assemble
the theme record (named after the class, with light code colours on a dark code panel) and
check it against the schema `layout.style`.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from layout.style import Theme, ThemeError, check_theme

from .knobs import RoleKnobs, apply, finish
from .read import Note, Stylesheet

# Bump when the translation changes, so cards drawn from the same CSS bytes are redrawn.
TRANSLATOR_VERSION = "1"

# CSS cannot name our highlighter's token colours, and the base ones are for light panels:
# a dark `pre` background gets these (GitHub's dark palette) so code stays readable.
DARK_CODE: dict[str, str] = {
    "code_keyword": "#ff7b72",
    "code_string": "#a5d6ff",
    "code_comment": "#8b949e",
    "code_number": "#79c0ff",
    "code_function": "#d2a8ff",
    "code_type": "#ffa657",
    "code_builtin": "#79c0ff",
}
DARK = 0.25  # a panel whose mean luminance is below this is dark


@dataclass(frozen=True, slots=True)
class Translation:
    """A stylesheet's theme, and what it could not use."""

    theme: Theme
    notes: tuple[Note, ...]


def translate(css: str, source: str = "custom theme") -> Translation:
    """The theme a stylesheet spells. Raises `ThemeError` (starting with `source`) for a
    file that cannot be read as one: a syntax error, no `.<class>` rule, a refused knob."""
    sheet = Stylesheet(css, source)
    roles: RoleKnobs = {}
    notes: list[Note] = []
    for item in sheet:
        if isinstance(item, Note):
            notes.append(item)
        else:
            notes.extend(apply(item, roles))
    if not sheet.name:
        raise ThemeError(f"{source}: no `.<class-name>` rule: the class name is the theme's name")
    theme = _theme(sheet.name, finish(roles), source)
    return Translation(check_theme(theme, source), tuple(notes))


def _theme(name: str, roles: RoleKnobs, source: str) -> Theme:
    """The theme record of a class's role knobs; raises `ThemeError` for a refused knob."""
    data = {
        "name": name,
        "label": name,
        "description": f"Custom CSS theme .{name}",
        "colors": {"all": DARK_CODE} if _dark_code_panel(roles) else {},
        "roles": roles,
    }
    try:
        return msgspec.convert(data, Theme)
    except msgspec.ValidationError as error:
        raise ThemeError(f"{source}: {error}") from error


def _dark_code_panel(roles: RoleKnobs) -> bool:
    """Whether the code panel's paint (its colour, or its gradient's stops) is dark."""
    paint = roles.get("code_block", {}).get("background")
    if paint is None:
        return False
    stops = [paint] if isinstance(paint, str) else paint["stops"]
    return sum(_luminance(stop) for stop in stops) / len(stops) < DARK


def _luminance(hex_colour: str) -> float:
    """WCAG relative luminance of `#rrggbb[aa]` (alpha ignored)."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
