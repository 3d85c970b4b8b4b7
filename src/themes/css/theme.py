"""A stylesheet → the checked `Theme` it spells, with the notes of what it could not use.

The steps: read the rules (`read`), set each declaration's knobs (`knobs`), make each
mode's colours tokens or leave the mode out whole (`modes`), then assemble
the theme record (named after the class, with light code colours on a dark code panel) and
check it against the schema `layout.style.theme`.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from inkcard.layout.style import Theme, ThemeError, check_theme

from .knobs import RoleKnobs, apply, finish
from .modes import Modal, apply_modes
from .read import HEADINGS, Note, Stylesheet

# Bump when the translation changes, so cards drawn from the same CSS bytes are redrawn.
TRANSLATOR_VERSION = "3"

BASE_MODE = "light-mode"  # the theme itself, when `.<class>.<mode>` rules add modes
# CSS inherits the card's font and colour into these roles unless they set their own.
INHERITED_KNOBS = ("family", "color")
INHERITING_ROLES = (*HEADINGS, "table", "list", "quote")


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
    inherited: RoleKnobs = {}  # the card's font and colour, which CSS hands down
    modes: dict[str, Modal] = {}
    notes: list[Note] = []
    for item in sheet:
        if isinstance(item, Note):
            notes.append(item)
            continue
        target = modes.setdefault(item.mode, Modal(line=item.line)) if item.mode else None
        found = apply(item, target.roles if target else roles)
        (target.problems if target else notes).extend(found)  # a mode's refuse it whole
        if item.role == "card" and item.prop in ("color", "font-family"):
            apply(item, target.inherited if target else inherited)
    if not sheet.name:
        raise ThemeError(f"{source}: no `.<class-name>` rule: the class name is the theme's name")
    applied, colors, refused = apply_modes(modes, roles, inherited)
    notes.extend(refused)
    _inherit(roles, inherited.get("body", {}))
    mode_names = [BASE_MODE, *(m for m in applied if m != BASE_MODE)] if modes else []
    theme = _theme(sheet.name, finish(roles), colors, mode_names, source)
    return Translation(check_theme(theme, source), tuple(sorted(notes, key=lambda n: n.line)))


def _inherit(roles: RoleKnobs, inherited: dict[str, object]) -> None:
    """The card's font and colour on each role that inherits them and sets none itself."""
    for role in INHERITING_ROLES:
        for knob in INHERITED_KNOBS:
            if knob in inherited and knob not in roles.get(role, {}):
                roles.setdefault(role, {})[knob] = inherited[knob]


def _theme(
    name: str, roles: RoleKnobs, colors: dict[str, dict[str, str]], modes: list[str], source: str
) -> Theme:
    """The theme record of a class's role knobs; raises `ThemeError` for a refused knob."""
    data = {
        "name": name,
        "label": name,
        "description": f"Custom CSS theme .{name}",
        "modes": modes,
        "colors": colors,
        "roles": roles,
    }
    try:
        return msgspec.convert(data, Theme)
    except msgspec.ValidationError as error:
        raise ThemeError(f"{source}: {error}") from error
