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

from ..contrast import TEXT_FLOOR, Unreadable, text_contrast
from .knobs import RoleKnobs, apply, finish
from .modes import Modal, apply_modes
from .read import HEADINGS, Note, Stylesheet

# Bump when the translation changes, so cards drawn from the same CSS bytes are redrawn.
TRANSLATOR_VERSION = "4"

BASE_MODE = "light-mode"  # the theme itself, when `.<class>.<mode>` rules add modes
# CSS inherits the card's font and colour into these roles unless they set their own.
INHERITED_KNOBS = ("family", "color")
INHERITING_ROLES = (*HEADINGS, "table", "list", "quote")
# The element whose rule colours each text, to name it when the colour is refused.
TEXT_ELEMENTS = {
    **{heading: heading for heading in HEADINGS},
    **{role: role for role in ("strong", "em", "del", "th")},
    "body": "p",
    "page_number": ".card-footer .page",
    "quote": "blockquote",
    "list": "li",
    "code_block": "pre",
    "table": "td",
    "link": "a",
    "inline_code": "code",
}
SHOWN_UNREADABLE = 3  # reasons a refusal lists, so the one log line stays readable


@dataclass(frozen=True, slots=True)
class Translation:
    """A stylesheet's theme, and what it could not use."""

    theme: Theme
    notes: tuple[Note, ...]


def translate(css: str, source: str = "custom theme") -> Translation:
    """The theme a stylesheet spells. Raises `ThemeError` (starting with `source`) for a
    file that cannot be read as one: a syntax error, no `.<class>` rule, a refused knob,
    or text that could not be read on its background."""
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
    _code_chip(roles, inherited.get("body", {}))
    mode_names = [BASE_MODE, *(m for m in applied if m != BASE_MODE)] if modes else []
    theme = check_theme(_theme(sheet.name, finish(roles), colors, mode_names, source), source)
    theme = _readable(theme, source, {mode: modal.line for mode, modal in modes.items()}, notes)
    return Translation(theme, tuple(sorted(notes, key=lambda n: n.line)))


def _readable(theme: Theme, source: str, lines: dict[str, int], notes: list[Note]) -> Theme:
    """The theme less each mode whose text cannot be read (a text colour under
    `TEXT_FLOOR` on its background), with a note naming the selectors; raises
    `ThemeError` naming them when it is the theme's own text: such a card would be drawn,
    but not read."""
    found = text_contrast(theme)
    if any(seen.mode in (None, BASE_MODE) for seen in found):
        raise ThemeError(f"{source}: {_unreadable(theme.name, found)}")
    unread = {seen.mode for seen in found if seen.mode}
    for mode in unread:
        why = _unreadable(theme.name, [seen for seen in found if seen.mode == mode])
        notes.append(Note(lines[mode], f".{mode} is left out whole: {why}"))
    if not unread:
        return theme
    modes = [mode for mode in theme.modes if mode not in unread]
    colors = {mode: tokens for mode, tokens in theme.colors.items() if mode not in unread}
    return msgspec.structs.replace(theme, modes=modes, colors=colors)


def _unreadable(name: str, found: list[Unreadable]) -> str:
    """Why the text of these selectors cannot be read, the first few of them."""
    reasons = [f"{_selector(name, seen)}: {seen}" for seen in found[:SHOWN_UNREADABLE]]
    if len(found) > SHOWN_UNREADABLE:
        reasons.append(f"and {len(found) - SHOWN_UNREADABLE} more")
    return (
        f"text that cannot be read (a text colour needs {TEXT_FLOOR:g}:1 against its "
        f"background): {'; '.join(reasons)}"
    )


def _selector(name: str, seen: Unreadable) -> str:
    """The rule that colours the text: `.<class>[.<mode>] <element>`."""
    rule = f".{name}" + (f".{seen.mode}" if seen.mode and seen.mode != BASE_MODE else "")
    element = TEXT_ELEMENTS[seen.role]
    return f"{rule} (or {rule} {element})" if seen.role == "body" else f"{rule} {element}"


def _inherit(roles: RoleKnobs, inherited: dict[str, object]) -> None:
    """The card's font and colour on each role that inherits them and sets none itself."""
    for role in INHERITING_ROLES:
        for knob in INHERITED_KNOBS:
            if knob in inherited and knob not in roles.get(role, {}):
                roles.setdefault(role, {})[knob] = inherited[knob]


# An inline code chip a sheet colours no background for: its text colour at this alpha, as a
# browser shows GitHub's `rgba(27,31,35,.05)`-like chips: a light grey on a white card, a
# lighter shade of a dark one. The base model's opaque #eaecef left white text on a dark
# card unreadable in its code spans (1.2:1), and the sheet refused.
CODE_CHIP_ALPHA = "1f"  # 12 %


def _code_chip(roles: RoleKnobs, inherited: dict[str, object]) -> None:
    """Inline code's background from the card's text colour, where the sheet sets that
    colour and no background for `code`."""
    colour = inherited.get("color")
    if (
        not isinstance(colour, str)
        or len(colour) != 7
        or "background" in roles.get("inline_code", {})
    ):
        return
    roles.setdefault("inline_code", {})["background"] = colour + CODE_CHIP_ALPHA


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
