"""A CSS subset → the same `Theme` data a `card.toml` spells (custom themes by class name).

The original service's custom themes are CSS on a class (`.my-theme h1 { … }`). This module
reads such a stylesheet with tinycss2 and turns the rules it understands into role knobs:
`.<class>` styles the card (its text properties go to the body), `.<class> <element>` a role
(`ELEMENT_ROLES`), and each property maps onto knobs of `layout.style.Style`. What has no
knob (a property, a selector, a value) is never an error: it is collected as a `Note` with
its line, for one warning at load and for `inkcard themes check`. A file is broken (raises
`ThemeError`) only when it is not CSS we can read at all: a syntax error, no `.<class>` rule,
or knobs the theme schema refuses.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import tinycss2
import tinycss2.color4

from layout.style import (
    BASE_ROLES,
    COLOR_KNOBS,
    KNOB_TYPES,
    PAINT_KNOBS,
    Theme,
    ThemeError,
    check_theme,
)

# Bump when the translation changes, so cards drawn from the same CSS bytes are redrawn.
TRANSLATOR_VERSION = "1"
ROOT_SIZE = 16.0  # em and rem are relative to this, as in a browser's default

# `.<class> <selector>` → the role it styles; `th` is the table's header row.
ELEMENT_ROLES: dict[str, str] = {
    **{f"h{n}": f"h{n}" for n in range(1, 7)},
    "p": "body",
    "strong": "strong",
    "b": "strong",
    "em": "em",
    "i": "em",
    "a": "link",
    "del": "del",
    "s": "del",
    "blockquote": "quote",
    "blockquote p": "quote",
    "code": "inline_code",
    "pre": "code_block",
    "pre code": "code_block",
    "ul": "list",
    "ol": "list",
    "li": "list",
    "table": "table",
    "tr": "table",
    "td": "table",
    "th": "th",
    "hr": "hr",
    "img": "image",
}

# Font names (lower case) → the families of fonts/families.toml. Within a stack the first
# name found here wins, as a browser takes the first installed font.
FAMILIES: dict[str, str] = {
    **dict.fromkeys(
        [
            "sans-serif",
            "system-ui",
            "-apple-system",
            "blinkmacsystemfont",
            "ui-sans-serif",
            "pingfang sc",
            "pingfang",
            "hiragino sans gb",
            "microsoft yahei",
            "helvetica",
            "helvetica neue",
            "arial",
            "segoe ui",
            "roboto",
            "inter",
            "noto sans",
            "noto sans sc",
            "noto sans cjk sc",
            "source han sans",
            "source han sans sc",
            "思源黑体",
            "微软雅黑",
            "苹方",
        ],
        "sans",
    ),
    **dict.fromkeys(
        [
            "serif",
            "ui-serif",
            "georgia",
            "times",
            "times new roman",
            "songti sc",
            "simsun",
            "stsong",
            "noto serif",
            "noto serif sc",
            "noto serif cjk sc",
            "source han serif",
            "source han serif sc",
            "宋体",
            "思源宋体",
        ],
        "serif-cjk",
    ),
    **dict.fromkeys(
        [
            "monospace",
            "ui-monospace",
            "menlo",
            "monaco",
            "consolas",
            "sfmono-regular",
            "sf mono",
            "jetbrains mono",
            "fira code",
            "fira mono",
            "source code pro",
            "liberation mono",
            "dejavu sans mono",
            "roboto mono",
        ],
        "mono",
    ),
    **dict.fromkeys(
        ["courier", "courier new", "courier prime", "american typewriter", "special elite"],
        "typewriter",
    ),
    **dict.fromkeys(
        [
            "cursive",
            "kaiti",
            "kaiti sc",
            "stkaiti",
            "kaiti_gb2312",
            "楷体",
            "华文楷体",
            "lxgw wenkai",
            "霞鹜文楷",
            "ar pl ukai",
        ],
        "kai",
    ),
    "fantasy": "display",
}

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
    **{f"h{n}": TEXT_KNOBS for n in range(1, 7)},
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

_CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)(?:\s+(.*))?", re.S)
_THEME_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")


@dataclass(frozen=True, slots=True)
class Note:
    """Something in the stylesheet that has no effect, and why."""

    line: int
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text}"


@dataclass(frozen=True, slots=True)
class Translation:
    """A stylesheet's theme, the knobs it sets per role, and what it could not use."""

    theme: Theme
    notes: tuple[Note, ...]


@dataclass(slots=True)
class _Sheet:
    """What the rules set so far: knobs per role (in file order) and the notes."""

    name: str = ""
    roles: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)

    def note(self, line: int, text: str) -> None:
        self.notes.append(Note(line, text))


def translate(css: str, source: str = "custom theme") -> Translation:
    """The theme a stylesheet spells. Raises `ThemeError` (starting with `source`) for a
    file that cannot be read as one: a syntax error, no `.<class>` rule, a refused knob."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    sheet = _Sheet()
    for rule in rules:
        if rule.type == "error":
            raise ThemeError(f"{source}: line {rule.source_line}: CSS syntax error: {rule.message}")
        if rule.type == "at-rule":
            sheet.note(rule.source_line, f"@{rule.at_keyword} rules are not supported")
            continue
        _read_rule(sheet, rule, source)
    if not sheet.name:
        raise ThemeError(f"{source}: no `.<class-name>` rule: the class name is the theme's name")
    roles = _finish(sheet)
    data = {
        "name": sheet.name,
        "label": sheet.name,
        "description": f"Custom CSS theme .{sheet.name}",
        "colors": {"all": DARK_CODE} if _dark_code_panel(roles) else {},
        "roles": roles,
    }
    try:
        theme = msgspec.convert(data, Theme)
    except msgspec.ValidationError as error:
        raise ThemeError(f"{source}: {error}") from error
    return Translation(check_theme(theme, source), tuple(sheet.notes))


# --- rules and selectors ---------------------------------------------------------------------


def _read_rule(sheet: _Sheet, rule: Any, source: str) -> None:
    declarations = tinycss2.parse_blocks_contents(
        rule.content, skip_comments=True, skip_whitespace=True
    )
    for item in declarations:
        if item.type == "error":
            raise ThemeError(f"{source}: line {item.source_line}: CSS syntax error: {item.message}")
    roles = []
    for selector in tinycss2.serialize(rule.prelude).split(","):
        role = _selector_role(sheet, selector, rule.source_line)
        if role is not None:
            roles.append(role)
    for role in roles:
        for item in declarations:
            if item.type == "declaration":
                _declare(sheet, role, item)
            else:  # a nested rule (CSS nesting)
                sheet.note(item.source_line, "nested rules are not supported")


def _selector_role(sheet: _Sheet, selector: str, line: int) -> str | None:
    """The role `.<class> <element>` styles ("card" for the class alone), or None."""
    text = " ".join(selector.replace(">", " ").split())
    match = _CLASS.fullmatch(text)
    if match is None:
        sheet.note(line, f"selector {text!r} is not supported: use .<class> or .<class> <element>")
        return None
    name, rest = match.group(1), match.group(2)
    if not sheet.name:
        sheet.name = name
    elif name != sheet.name:
        sheet.note(line, f"selector {text!r} names another class than .{sheet.name}; ignored")
        return None
    if rest is None:
        return "card"
    role = ELEMENT_ROLES.get(rest.lower())
    if role is None:
        sheet.note(line, f"selector {text!r}: no role for {rest!r}")
    return role


# --- declarations ----------------------------------------------------------------------------


def _declare(sheet: _Sheet, role: str, decl: Any) -> None:
    prop = decl.lower_name
    handler = _PROPERTIES.get(prop)
    values = [t for t in decl.value if t.type not in ("whitespace", "comment")]
    if handler is None:
        sheet.note(decl.source_line, f"{prop} ({role}) is not supported")
        return
    try:
        knobs = handler(values, role)
    except _Unsupported as error:
        sheet.note(decl.source_line, f"{prop}: {tinycss2.serialize(decl.value).strip()!r} {error}")
        return
    for knob, value in knobs.items():
        target = _target(role, knob)
        if target is None or target[1] not in KNOB_TYPES:
            sheet.note(decl.source_line, f"{prop} has no effect on {role} (no {knob} knob)")
            continue
        if target[1] in COLOR_KNOBS - PAINT_KNOBS and not isinstance(value, str):
            sheet.note(decl.source_line, f"{prop} on {role} takes a colour, not a gradient")
            continue
        knobs_of = sheet.roles.setdefault(target[0], {})
        if isinstance(value, _PaddingSide):
            value = _with_side(knobs_of.get("padding"), target[0], value)
        knobs_of[target[1]] = value


def _with_side(padding: list[float] | None, role: str, side: _PaddingSide) -> list[float]:
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


class _Unsupported(ValueError):
    """A value this subset cannot map; the message says why (after the value)."""


Tokens = Sequence[Any]


def _one(values: Tokens) -> Any:
    if len(values) != 1:
        raise _Unsupported("takes one value here")
    return values[0]


def length(token: Any, percent_of: float | None = None) -> float:
    """A CSS length in px: px, em/rem (of 16px), pt, a unitless 0, a % of `percent_of`."""
    if token.type == "dimension":
        unit = token.lower_unit
        if unit == "px":
            return float(token.value)
        if unit in ("em", "rem"):
            return float(token.value) * ROOT_SIZE
        if unit == "pt":
            return float(token.value) * 4 / 3
        raise _Unsupported(f"uses the unit {unit!r} (px, em, rem, pt)")
    if token.type == "number" and token.value == 0:
        return 0.0
    if token.type == "percentage" and percent_of is not None:
        return float(token.value) / 100 * percent_of
    raise _Unsupported("is not a length")


def color(token: Any) -> str:
    """A CSS colour (names, hex, rgb/rgba/hsl/hsla in either syntax, …) as `#rrggbb[aa]`."""
    parsed = tinycss2.color4.parse_color(token)
    if parsed is None or isinstance(parsed, str):  # not a colour, or currentcolor
        raise _Unsupported("is not a colour we can use")
    r, g, b = (round(max(0.0, min(1.0, c)) * 255) for c in parsed.to("srgb").coordinates)
    alpha = round(max(0.0, min(1.0, float(parsed.alpha))) * 255)
    text = f"#{r:02x}{g:02x}{b:02x}"
    return text if alpha == 255 else f"{text}{alpha:02x}"


def _color(values: Tokens, role: str) -> dict[str, Any]:
    return {"color": color(_one(values))}


def _background(values: Tokens, role: str) -> dict[str, Any]:
    if len(_split_commas(values)) > 1:
        raise _Unsupported("has several layers; use one")
    gradients = [t for t in values if t.type == "function" and t.lower_name in _GRADIENTS]
    colours = [t for t in values if all(t is not g for g in gradients)]
    if len(gradients) > 1 or len(colours) > 1:
        raise _Unsupported("has more than one colour or gradient (images are not drawn)")
    paints = [color(t) for t in colours] + [_gradient(g) for g in gradients]
    if not paints:
        raise _Unsupported("is empty")
    return {"background": paints[-1]}  # a gradient covers the colour under it


_GRADIENTS = ("linear-gradient", "radial-gradient")


def _split_commas(tokens: Tokens) -> list[list[Any]]:
    parts: list[list[Any]] = [[]]
    for token in tokens:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        elif token.type not in ("whitespace", "comment"):
            parts[-1].append(token)
    return parts


_SIDES = {"top": 0.0, "right": 90.0, "bottom": 180.0, "left": 270.0}
_ANGLE_UNITS = {"deg": 1.0, "grad": 0.9, "rad": 180 / math.pi, "turn": 360.0}


def _gradient(function: Any) -> dict[str, Any]:
    """linear-gradient(angle | to side, stops) or radial-gradient([shape] [at x y], stops)."""
    parts = _split_commas(function.arguments)
    paint: dict[str, Any] = {
        "kind": "linear" if function.lower_name == "linear-gradient" else "radial"
    }
    first = parts[0]
    if paint["kind"] == "linear" and first and _is_direction(first):
        paint["angle"] = _direction(first)
        parts = parts[1:]
    elif paint["kind"] == "radial" and first and _is_radial_shape(first):
        if "at" in _idents(first):
            paint["center"] = _position(first[_idents(first).index("at") + 1 :])
        parts = parts[1:]
    if not 2 <= len(parts) <= 16:
        raise _Unsupported("needs 2 to 16 colour stops")
    stops = [color(part[0]) for part in parts]
    positions = [_stop_position(part) for part in parts]
    paint["stops"] = stops
    if any(p is not None for p in positions):
        paint["positions"] = _fill_positions(positions)
    return paint


def _idents(tokens: Tokens) -> list[str]:
    return [t.lower_value if t.type == "ident" else "" for t in tokens]


def _is_direction(tokens: Tokens) -> bool:
    return tokens[0].type == "dimension" or _idents(tokens)[:1] == ["to"]


def _direction(tokens: Tokens) -> float:
    """A CSS gradient direction as our angle: 0 up, 90 right, 180 down."""
    if tokens[0].type == "dimension":
        unit = tokens[0].lower_unit
        if unit not in _ANGLE_UNITS or len(tokens) != 1:
            raise _Unsupported(f"has the angle unit {unit!r}")
        return float(tokens[0].value) * _ANGLE_UNITS[unit] % 360
    sides = _idents(tokens)[1:]
    if not sides or any(s not in _SIDES for s in sides) or len(sides) > 2:
        raise _Unsupported("has a direction we cannot read")
    angles = [_SIDES[s] for s in sides]
    if len(angles) == 2:  # a corner: halfway between its two sides (top left is 315)
        low, high = sorted(angles)
        return (low + high) / 2 if high - low == 90 else (high + 360 + low) / 2 % 360
    return angles[0]


def _is_radial_shape(tokens: Tokens) -> bool:
    words = {"circle", "ellipse", "at", "closest-side", "closest-corner"}
    return bool(set(_idents(tokens)) & (words | {"farthest-side", "farthest-corner"}))


_CENTRE_WORDS = {"left": 0.0, "top": 0.0, "center": 0.5, "right": 1.0, "bottom": 1.0}


def _position(tokens: Tokens) -> list[float]:
    """`at x y` as fractions of the box (keywords or percentages; `top left` reads as y x)."""
    values: list[float] = []
    for token in tokens:
        if token.type == "percentage":
            values.append(float(token.value) / 100)
        elif token.type == "ident" and token.lower_value in _CENTRE_WORDS:
            values.append(_CENTRE_WORDS[token.lower_value])
        else:
            raise _Unsupported("has a radial centre we cannot read (use keywords or %)")
    if not 1 <= len(values) <= 2:
        raise _Unsupported("has a radial centre we cannot read")
    words = [t.lower_value if t.type == "ident" else "" for t in tokens]
    vertical_first = words[0] in ("top", "bottom") or words[-1:] in (["left"], ["right"])
    if len(values) == 1:
        return [0.5, values[0]] if vertical_first else [values[0], 0.5]
    return values[::-1] if vertical_first and len(set(words)) == 2 else values


def _stop_position(part: Tokens) -> float | None:
    if len(part) == 1:
        return None
    if len(part) == 2 and part[1].type == "percentage":
        return max(0.0, min(1.0, float(part[1].value) / 100))
    raise _Unsupported("has a stop position that is not one percentage")


def _fill_positions(positions: list[float | None]) -> list[float]:
    """Missing stop positions as CSS fills them: ends at 0 and 1, gaps evenly spaced."""
    filled = list(positions)
    if filled[0] is None:
        filled[0] = 0.0
    if filled[-1] is None:
        filled[-1] = 1.0
    start = 0
    for index in range(1, len(filled)):
        if filled[index] is None:
            continue
        low = filled[start]
        high = filled[index]
        assert low is not None and high is not None  # known ends of the gap
        high = max(low, high)
        filled[index] = high
        for step in range(start + 1, index):
            filled[step] = low + (high - low) * (step - start) / (index - start)
        start = index
    return [p if p is not None else 0.0 for p in filled]


def _font_family(values: Tokens, role: str) -> dict[str, Any]:
    names = [
        " ".join(t.value if t.type in ("string", "ident") else "" for t in part).strip().lower()
        for part in _split_commas(values)
    ]
    for name in names:
        if name in FAMILIES:
            return {"family": FAMILIES[name]}
    raise _Unsupported(f"names no font we have; known: {', '.join(sorted(set(FAMILIES.values())))}")


_FONT_SIZE_WORDS = {"small": 13.0, "medium": 16.0, "large": 18.0, "x-large": 24.0}


def _font_size(values: Tokens, role: str) -> dict[str, Any]:
    token = _one(values)
    if token.type == "ident" and token.lower_value in _FONT_SIZE_WORDS:
        return {"size": _FONT_SIZE_WORDS[token.lower_value]}
    size = length(token, percent_of=ROOT_SIZE)
    if size <= 0:
        raise _Unsupported("is not a positive size")
    return {"size": size}


def _font_weight(values: Tokens, role: str) -> dict[str, Any]:
    token = _one(values)
    if token.type == "ident" and token.lower_value in ("normal", "bold"):
        return {"weight": 400 if token.lower_value == "normal" else 700}
    if token.type == "number" and token.is_integer and 1 <= token.int_value <= 1000:
        return {"weight": int(token.int_value)}
    raise _Unsupported("is not normal, bold or 1..1000")


def _font_style(values: Tokens, role: str) -> dict[str, Any]:
    token = _one(values)
    if token.type == "ident" and token.lower_value in ("normal", "italic", "oblique"):
        return {"italic": token.lower_value != "normal"}
    raise _Unsupported("is not normal, italic or oblique")


def _line_height(values: Tokens, role: str) -> dict[str, Any]:
    token = _one(values)
    if token.type == "number" and token.value > 0:
        return {"line_height": float(token.value)}
    if token.type == "percentage" and token.value > 0:
        return {"line_height": float(token.value) / 100}
    if token.type == "ident" and token.lower_value == "normal":
        return {"line_height": 1.2}
    if token.type == "dimension" and token.lower_unit in ("em", "rem") and token.value > 0:
        return {"line_height": float(token.value)}
    px = length(token)
    if px <= 0:
        raise _Unsupported("is not positive")
    return {"line_height": _PxLineHeight(px)}


@dataclass(frozen=True, slots=True)
class _PxLineHeight:
    """A line height in px, turned into a multiple of the role's final size at the end."""

    px: float


def _letter_spacing(values: Tokens, role: str) -> dict[str, Any]:
    token = _one(values)
    if token.type == "ident" and token.lower_value == "normal":
        return {"letter_spacing": 0.0}
    return {"letter_spacing": length(token)}


_ALIGN = {"left": "left", "start": "left", "center": "center", "right": "right", "end": "right"}


def _text_align(values: Tokens, role: str) -> dict[str, Any]:
    token = _one(values)
    word = token.lower_value if token.type == "ident" else ""
    if word == "justify" or word in _ALIGN:
        return {"align": _ALIGN.get(word, word)}
    raise _Unsupported("is not left, center, right or justify")


def _box(values: Tokens) -> list[float]:
    """1 to 4 lengths as [top, right, bottom, left], as margin and padding spell them."""
    if not 1 <= len(values) <= 4:
        raise _Unsupported("takes 1 to 4 lengths")
    sides = [length(v) for v in values]
    top = sides[0]
    right = sides[1] if len(sides) > 1 else top
    bottom = sides[2] if len(sides) > 2 else top
    left = sides[3] if len(sides) > 3 else right
    return [top, right, bottom, left]


def _margin(values: Tokens, role: str) -> dict[str, Any]:
    top, _, bottom, _ = _box(values)
    return {"margin_top": top, "margin_bottom": bottom}


def _margin_side(side: str) -> Callable[[Tokens, str], dict[str, Any]]:
    def margin(values: Tokens, role: str) -> dict[str, Any]:
        return {f"margin_{side}": length(_one(values))}

    return margin


def _padding(values: Tokens, role: str) -> dict[str, Any]:
    if role == "list":
        raise _Unsupported("on a list: use padding-left (the indent)")
    return {"padding": _box(values)}


def _padding_side(index: int) -> Callable[[Tokens, str], dict[str, Any]]:
    def padding(values: Tokens, role: str) -> dict[str, Any]:
        value = length(_one(values))
        if role == "list" and index == 3:
            return {"indent": value}
        return {"padding": _PaddingSide(index, value)}

    return padding


@dataclass(frozen=True, slots=True)
class _PaddingSide:
    """One side of the padding, laid over the role's padding at the end."""

    index: int
    value: float


_BORDER_STYLES = {"solid", "dashed", "dotted", "double", "groove", "ridge", "inset", "outset"}


def _border_parts(values: Tokens) -> tuple[float | None, str | None]:
    """(width, colour) of a border shorthand; `none` is a zero width."""
    width: float | None = None
    paint: str | None = None
    for token in values:
        if token.type == "ident" and token.lower_value in ("none", "hidden"):
            width = 0.0
        elif token.type == "ident" and token.lower_value in _BORDER_STYLES:
            continue
        elif token.type in ("dimension", "number"):
            width = length(token)
        else:
            paint = color(token)
    return width, paint


def _border_knobs(values: Tokens, width_knob: str, paint_knob: str) -> dict[str, Any]:
    """A border shorthand's width and paint as the two knobs named, where given."""
    width, paint = _border_parts(values)
    return {knob: v for knob, v in ((width_knob, width), (paint_knob, paint)) if v is not None}


def _border(values: Tokens, role: str) -> dict[str, Any]:
    knobs = _border_knobs(values, "border_width", "border_color")
    if role == "quote":
        raise _Unsupported("on a quote: only border-left (its bar) is drawn")
    return knobs


def _border_left(values: Tokens, role: str) -> dict[str, Any]:
    if role != "quote":
        raise _Unsupported("is drawn only on blockquote (its bar)")
    return _border_knobs(values, "bar_width", "bar_color")


def _border_top(values: Tokens, role: str) -> dict[str, Any]:
    if role != "hr":
        raise _Unsupported("is drawn only on hr")
    return _border(values, role)


def _border_color(values: Tokens, role: str) -> dict[str, Any]:
    return {("bar_color" if role == "quote" else "border_color"): color(_one(values))}


def _border_width(values: Tokens, role: str) -> dict[str, Any]:
    return {("bar_width" if role == "quote" else "border_width"): length(_one(values))}


def _border_radius(values: Tokens, role: str) -> dict[str, Any]:
    radii = {length(v, percent_of=None) for v in values if v.type != "literal"}
    if len(radii) != 1:
        raise _Unsupported("has several radii; only one for all corners is drawn")
    return {"radius": radii.pop()}


def _box_shadow(values: Tokens, role: str) -> dict[str, Any]:
    if len(values) == 1 and values[0].type == "ident" and values[0].lower_value == "none":
        return {"effects": []}
    return {"effects": [_shadow(part) for part in _split_commas(values)]}


def _shadow(tokens: Tokens) -> dict[str, Any]:
    lengths: list[float] = []
    shade = "rgba(0,0,0,.1)"
    for token in tokens:
        if token.type == "ident" and token.lower_value == "inset":
            raise _Unsupported("is inset; only outer shadows are drawn")
        if token.type in ("dimension", "number"):
            lengths.append(length(token))
        else:
            shade = color(token)
    if len(lengths) not in (2, 3):
        raise _Unsupported("needs x, y and an optional blur (a spread is not drawn)")
    shadow: dict[str, Any] = {"kind": "shadow", "dx": lengths[0], "dy": lengths[1], "color": shade}
    shadow["blur"] = min(200.0, max(0.0, lengths[2])) if len(lengths) == 3 else 0.0
    return shadow


def _height(values: Tokens, role: str) -> dict[str, Any]:
    if role != "hr":
        raise _Unsupported("sets a height only on hr (its thickness)")
    return {"border_width": length(_one(values))}


_PROPERTIES: dict[str, Callable[[Tokens, str], dict[str, Any]]] = {
    "color": _color,
    "background": _background,
    "background-color": _background,
    "background-image": _background,
    "font-family": _font_family,
    "font-size": _font_size,
    "font-weight": _font_weight,
    "font-style": _font_style,
    "line-height": _line_height,
    "letter-spacing": _letter_spacing,
    "text-align": _text_align,
    "margin": _margin,
    "margin-top": _margin_side("top"),
    "margin-bottom": _margin_side("bottom"),
    "padding": _padding,
    "padding-top": _padding_side(0),
    "padding-right": _padding_side(1),
    "padding-bottom": _padding_side(2),
    "padding-left": _padding_side(3),
    "border": _border,
    "border-top": _border_top,
    "border-left": _border_left,
    "border-color": _border_color,
    "border-width": _border_width,
    "border-radius": _border_radius,
    "box-shadow": _box_shadow,
    "height": _height,
}


def _dark_code_panel(roles: dict[str, dict[str, Any]]) -> bool:
    """Whether the code panel's paint (its colour, or its gradient's stops) is dark."""
    paint = roles.get("code_block", {}).get("background")
    if paint is None:
        return False
    stops = [paint] if isinstance(paint, str) else paint["stops"]
    return sum(_luminance(stop) for stop in stops) / len(stops) < 0.25


def _luminance(hex_colour: str) -> float:
    """WCAG relative luminance of `#rrggbb[aa]` (alpha ignored)."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


# --- the end: values that depend on other knobs ----------------------------------------------


def _finish(sheet: _Sheet) -> dict[str, dict[str, Any]]:
    """Line heights given in px become multiples of the role's final font size."""
    for role, knobs in sheet.roles.items():
        height = knobs.get("line_height")
        if isinstance(height, _PxLineHeight):
            size = knobs.get("size") or getattr(BASE_ROLES[role], "size", None)
            size = size or sheet.roles.get("body", {}).get("size") or ROOT_SIZE
            knobs["line_height"] = round(height.px / float(size), 4)
    return sheet.roles
