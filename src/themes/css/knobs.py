"""A declaration on a role → the theme knobs it sets, on the role they land on, or its notes.

`PROPERTIES` names the reader of each CSS property; `ROLE_KNOBS` the knobs the engine draws
for each role. A knob lands where the engine reads it (the card's text knobs on the body, a
`th`'s on the table), and one the role does not draw becomes a note, never an error.
"""

from __future__ import annotations

import math
from typing import Any

from inkcard.layout.style import BASE_ROLES, COLOR_KNOBS, KNOB_TYPES, MAX_INSET, PAINT_KNOBS

from . import boxes, text
from .boxes import CellSides, PaddingSide, Reader
from .read import HEADINGS, INNER_ROLES, Declaration, Note
from .text import PxLineHeight
from .values import ROOT_SIZE, Unsupported

RoleKnobs = dict[str, dict[str, Any]]  # role → knob → value, in the order the file set them

TEXT_KNOBS = frozenset(
    {"family", "size", "weight", "italic", "color", "line_height", "align"}
    | {"margin_top", "margin_bottom", "letter_spacing"}
)
UNDERLINE_KNOBS = frozenset({"underline", "underline_color", "underline_width", "underline_offset"})
INLINE_KNOBS = (
    frozenset({"family", "size", "weight", "italic", "color", "letter_spacing", "text_transform"})
    | UNDERLINE_KNOBS
)
HIGHLIGHT_KNOBS = INLINE_KNOBS | {"background", "background_height", "radius"}
PANEL_KNOBS = frozenset({"background", "radius", "padding", "effects"})
HEADING_KNOBS = (
    TEXT_KNOBS
    | PANEL_KNOBS
    | UNDERLINE_KNOBS
    | {"bar_width", "bar_color", "bar_side", "text_transform"}
)
# The knobs the engine draws for each role; a property landing elsewhere is reported.
ROLE_KNOBS: dict[str, frozenset[str]] = {
    "card": frozenset({"background", "padding", "effects", "radius", "inset"}),
    "body": TEXT_KNOBS,
    **dict.fromkeys(HEADINGS, HEADING_KNOBS),
    "strong": HIGHLIGHT_KNOBS,
    "em": HIGHLIGHT_KNOBS,
    "link": HIGHLIGHT_KNOBS,
    "del": HIGHLIGHT_KNOBS,
    "inline_code": INLINE_KNOBS | {"background", "radius", "padding"},
    "quote": TEXT_KNOBS | PANEL_KNOBS | {"bar_width", "bar_color"},
    "code_block": TEXT_KNOBS | PANEL_KNOBS,
    "list": TEXT_KNOBS | {"indent"},
    "marker": frozenset({"marker_color"}),
    "table": frozenset({"family", "size", "color", "line_height", "padding"})
    | {"margin_top", "margin_bottom", "border_color", "border_width", "radius"},
    "th": frozenset({"header_background", "header_color", "weight", "padding"})
    | {"border_width", "border_color", "grid"},
    "stripe": frozenset({"stripe_background"}),
    "hr": frozenset(
        {"color", "border_color", "border_width", "dash", "margin_top", "margin_bottom"}
    ),
    "image": frozenset({"radius", "margin_top", "margin_bottom", "border_width", "border_color"}),
    "page_number": frozenset({"family", "size", "weight", "italic", "color", "align"})
    | {"letter_spacing", "text_transform"},
}
# Pseudo-roles of this subset → the role whose knobs they set (`li::marker` → the list's
# marker colour, `tr:nth-child(even)` → the table's stripes, `body` → the card's surround).
_PSEUDO_ROLES = {"marker": "list", "stripe": "table", "page": "card"}
_SHOWN = {"pre_code": "pre code", "quote_text": "blockquote p"}
_PSEUDO_KNOBS = {
    ("marker", "color"): "marker_color",
    ("stripe", "background"): "stripe_background",
    ("page", "background"): "outer_background",
}
# Knobs the `.<class>` rule hands to the body, and `th` knobs that are the table's own.
CARD_TO_BODY = TEXT_KNOBS - {"margin_top", "margin_bottom"}
TH_TO_TABLE = frozenset({"padding"})
CARD_MARGIN = 16.0  # px of page around a rounded card without a shadow (or a short one)
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
    "border-right": boxes.border_right,
    "border-bottom": boxes.border_bottom,
    "border-image": boxes.border_image,
    "text-decoration": text.text_decoration,
    "text-decoration-line": text.text_decoration,
    "text-decoration-color": text.text_decoration_color,
    "text-decoration-style": text.text_decoration_style,
    "text-decoration-thickness": text.text_decoration_thickness,
    "text-underline-offset": text.text_underline_offset,
    "text-transform": text.text_transform,
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
        if target is None and role in INNER_ROLES and _invisible(value):
            continue  # `pre code { background: transparent; padding: 0 }` changes nothing
        if target is None and role in INNER_ROLES:
            box = INNER_ROLES[role]
            notes.append(Note(line, f"{prop} on {_SHOWN[role]} is not drawn: the {box} box is"))
        elif target is None or target[1] not in KNOB_TYPES:
            notes.append(Note(line, f"{prop} has no effect on {role} (no {knob} knob)"))
        elif target[1] in _COLOUR_ONLY and not isinstance(value, str):
            notes.append(Note(line, f"{prop} on {role} takes a colour, not a gradient"))
        else:
            _set(roles.setdefault(target[0], {}), target, value)
    return notes


def _invisible(value: Any) -> bool:
    """Whether a box knob's value draws nothing: transparent, zero, none."""
    if isinstance(value, str):
        return len(value) == 9 and value.endswith("00")
    if isinstance(value, int | float):
        return value == 0
    if isinstance(value, PaddingSide):
        return value.value == 0
    return isinstance(value, list) and all(v == 0 for v in value)


def _set(knobs_of: dict[str, Any], target: tuple[str, str], value: Any) -> None:
    """Sets one knob of a role; one side of the padding is laid over the rest of it."""
    if isinstance(value, PaddingSide):
        value = _with_side(knobs_of.get("padding"), target[0], value)
    if isinstance(value, CellSides):
        before = knobs_of.get("grid")
        value = value.over(before if isinstance(before, CellSides) else None)
    knobs_of[target[1]] = value


def _with_side(padding: list[float] | None, role: str, side: PaddingSide) -> list[float]:
    """The role's padding so far (or the base model's) with one side replaced."""
    base = getattr(BASE_ROLES[role], "padding", None)  # Role's fields are built at import
    sides = list(padding or base or (0.0, 0.0, 0.0, 0.0))
    sides[side.index] = side.value
    return sides


def _target(role: str, knob: str) -> tuple[str, str] | None:
    """Where a knob set on `role` lands: the card's text knobs on the body, and so on."""
    if role in INNER_ROLES:  # only its text reaches the role of the box it sits in
        return (INNER_ROLES[role], knob) if knob in CARD_TO_BODY else None
    if (role, knob) in _PSEUDO_KNOBS:
        return _PSEUDO_ROLES[role], _PSEUDO_KNOBS[role, knob]
    if role == "card" and knob in CARD_TO_BODY:
        return "body", knob
    if role == "cell":  # a `td` styles the table its cells make up
        return ("table", knob) if knob in ROLE_KNOBS["table"] | {"grid"} else None
    if role == "th" and knob in TH_TO_TABLE:
        return "table", knob
    if role == "th" and knob in ("background", "color"):
        return "table", f"header_{knob}"
    if role == "hr" and knob == "background":
        return "hr", "border_color"  # a rule's line is its border, painted by its background
    if knob in ROLE_KNOBS.get(role, ()):
        return ("table" if role == "th" else role), knob
    return None


def finish(roles: RoleKnobs) -> RoleKnobs:
    """Line heights given in px become multiples of the role's final font size, and a
    rounded or shadowed card gets its inset."""
    if "card" in roles:
        _card_inset(roles["card"])
    for role, knobs in roles.items():
        if isinstance(knobs.get("grid"), CellSides):
            knobs["grid"] = knobs["grid"].grid()
            _rounded_grid(knobs)
        height = knobs.get("line_height")
        if isinstance(height, PxLineHeight):
            size = knobs.get("size") or getattr(BASE_ROLES[role], "size", None)
            size = size or roles.get("body", {}).get("size") or ROOT_SIZE
            knobs["line_height"] = round(height.px / float(size), 4)
    return roles


def _rounded_grid(table: dict[str, Any]) -> None:
    """Boxed cells in a table with rounded corners: the outer rules are an outline rounded
    at the table's radius (as `table { border-radius; overflow: hidden }` shows them), not
    square edges over the header's rounded fill."""
    if table["grid"] == "full" and table.get("radius") and "outline_width" not in table:
        width = table.get("border_width", getattr(BASE_ROLES["table"], "border_width", 1.0))
        table["outline_width"] = width


def _card_inset(card: dict[str, Any]) -> None:
    """A card with rounded corners or a shadow is inset as a web page shows it (and
    md2card's export draws it): by its `margin`, but at least its shadows' reach (their
    offset plus their blur, as a margin never clips a shadow in a browser) and
    `CARD_MARGIN`, so the corners and the shadow have a page to show on. A card that
    filled the image would cut both off."""
    if not (card.get("radius") or card.get("effects")):
        return
    shadows = [e for e in card.get("effects", ()) if e["kind"] == "shadow"]
    reach = max((max(abs(e["dx"]), abs(e["dy"])) + e["blur"] for e in shadows), default=0.0)
    inset = max(card.get("inset", 0.0), CARD_MARGIN, float(math.ceil(reach)))
    card["inset"] = min(MAX_INSET, inset)
