"""A declaration on a role → the theme knobs it sets, on the role they land on, or its notes.

`PROPERTIES` names the reader of each CSS property; `ROLE_KNOBS` the knobs the engine draws
for each role. A knob lands where the engine reads it (the card's text knobs on the body, a
`th`'s on the table), and one the role does not draw becomes a note, never an error.
"""

from __future__ import annotations

from typing import Any

from layout.style import BASE_ROLES, COLOR_KNOBS, KNOB_TYPES, PAINT_KNOBS

from . import boxes, text
from .boxes import PaddingSide, Reader
from .read import HEADINGS, Declaration, Note
from .text import PxLineHeight
from .values import ROOT_SIZE, Unsupported

RoleKnobs = dict[str, dict[str, Any]]  # role → knob → value, in the order the file set them

TEXT_KNOBS = frozenset(
    {"family", "size", "weight", "italic", "color", "line_height", "align"}
    | {"margin_top", "margin_bottom", "letter_spacing"}
)
INLINE_KNOBS = frozenset({"family", "size", "weight", "italic", "color", "letter_spacing"})
PANEL_KNOBS = frozenset({"background", "radius", "padding", "effects"})
# The knobs the engine draws for each role; a property landing elsewhere is reported.
ROLE_KNOBS: dict[str, frozenset[str]] = {
    "card": frozenset({"background", "padding", "effects"}),
    "body": TEXT_KNOBS,
    **dict.fromkeys(HEADINGS, TEXT_KNOBS),
    "strong": INLINE_KNOBS,
    "em": INLINE_KNOBS,
    "link": INLINE_KNOBS,
    "del": INLINE_KNOBS,
    "inline_code": INLINE_KNOBS | {"background", "radius", "padding"},
    "quote": TEXT_KNOBS | PANEL_KNOBS | {"bar_width", "bar_color"},
    "code_block": TEXT_KNOBS | PANEL_KNOBS,
    "list": TEXT_KNOBS | {"indent"},
    "table": frozenset({"family", "size", "color", "line_height", "padding"})
    | {"margin_top", "margin_bottom", "border_color", "border_width"},
    "th": frozenset({"header_background", "header_color", "weight", "padding"}),
    "hr": frozenset({"color", "border_width", "margin_top", "margin_bottom"}),
    "image": frozenset({"radius", "margin_top", "margin_bottom"}),
}
# Knobs the `.<class>` rule hands to the body, and `th` knobs that are the table's own.
CARD_TO_BODY = TEXT_KNOBS - {"margin_top", "margin_bottom"}
TH_TO_TABLE = frozenset({"padding"})
_COLOUR_ONLY = COLOR_KNOBS - PAINT_KNOBS  # colour knobs that take no gradient

PROPERTIES: dict[str, Reader] = {
    "color": text.text_color,
    "background": boxes.background,
    "background-color": boxes.background,
    "background-image": boxes.background,
    "font-family": text.font_family,
    "font-size": text.font_size,
    "font-weight": text.font_weight,
    "font-style": text.font_style,
    "line-height": text.line_height,
    "letter-spacing": text.letter_spacing,
    "text-align": text.text_align,
    "margin": boxes.margin,
    "margin-top": boxes.margin_side("top"),
    "margin-bottom": boxes.margin_side("bottom"),
    "padding": boxes.padding,
    **{f"padding-{side}": boxes.padding_side(side) for side in boxes.SIDES},
    "border": boxes.border,
    "border-top": boxes.border_top,
    "border-left": boxes.border_left,
    "border-color": boxes.border_color,
    "border-width": boxes.border_width,
    "border-radius": boxes.border_radius,
    "box-shadow": boxes.box_shadow,
    "height": boxes.height,
}


def apply(declaration: Declaration, roles: RoleKnobs) -> list[Note]:
    """Sets the declaration's knobs in `roles`; returns a note for each it could not set."""
    line, prop, role = declaration.line, declaration.prop, declaration.role
    reader = PROPERTIES.get(prop)
    if reader is None:
        return [Note(line, f"{prop} ({role}) is not supported")]
    try:
        knobs = reader(declaration.values, role)
    except Unsupported as error:
        return [Note(line, f"{prop}: {declaration.text!r} {error}")]
    notes = []
    for knob, value in knobs.items():
        target = _target(role, knob)
        if target is None or target[1] not in KNOB_TYPES:
            notes.append(Note(line, f"{prop} has no effect on {role} (no {knob} knob)"))
        elif target[1] in _COLOUR_ONLY and not isinstance(value, str):
            notes.append(Note(line, f"{prop} on {role} takes a colour, not a gradient"))
        else:
            _set(roles.setdefault(target[0], {}), target, value)
    return notes


def _set(knobs_of: dict[str, Any], target: tuple[str, str], value: Any) -> None:
    """Sets one knob of a role; one side of the padding is laid over the rest of it."""
    if isinstance(value, PaddingSide):
        value = _with_side(knobs_of.get("padding"), target[0], value)
    knobs_of[target[1]] = value


def _with_side(padding: list[float] | None, role: str, side: PaddingSide) -> list[float]:
    """The role's padding so far (or the base model's) with one side replaced."""
    base = getattr(BASE_ROLES[role], "padding", None)  # Role's fields are built at import
    sides = list(padding or base or (0.0, 0.0, 0.0, 0.0))
    sides[side.index] = side.value
    return sides


def _target(role: str, knob: str) -> tuple[str, str] | None:
    """Where a knob set on `role` lands: the card's text knobs on the body, and so on."""
    if role == "card" and knob in CARD_TO_BODY:
        return "body", knob
    if role == "th" and knob in TH_TO_TABLE:
        return "table", knob
    if role == "th" and knob in ("background", "color"):
        return "table", f"header_{knob}"
    if role == "hr" and knob in ("background", "border_color"):
        return "hr", "color"
    if knob in ROLE_KNOBS[role]:
        return ("table" if role == "th" else role), knob
    return None


def finish(roles: RoleKnobs) -> RoleKnobs:
    """Line heights given in px become multiples of the role's final font size."""
    for role, knobs in roles.items():
        height = knobs.get("line_height")
        if isinstance(height, PxLineHeight):
            size = knobs.get("size") or getattr(BASE_ROLES[role], "size", None)
            size = size or roles.get("body", {}).get("size") or ROOT_SIZE
            knobs["line_height"] = round(height.px / float(size), 4)
    return roles
