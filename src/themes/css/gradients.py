"""A `linear-gradient()` / `radial-gradient()` token → a gradient paint record for the schema.

`{"kind": "linear", "angle": …, "stops": […], "positions": […]}` or the radial kind with its
`center`; the angle is ours (0 up, 90 right), stops are colours, positions fractions of 0..1.
"""

from __future__ import annotations

import math
from typing import Any

from .values import Tokens, Unsupported, color, idents, split_commas

GRADIENTS = ("linear-gradient", "radial-gradient")
MAX_STOPS = 16

_SIDES = {"top": 0.0, "right": 90.0, "bottom": 180.0, "left": 270.0}
_ANGLE_UNITS = {"deg": 1.0, "grad": 0.9, "rad": 180 / math.pi, "turn": 360.0}
_RADIAL_SHAPE_WORDS = frozenset(
    {"circle", "ellipse", "at", "closest-side", "closest-corner", "farthest-side"}
    | {"farthest-corner"}
)
_CENTRE_WORDS = {"left": 0.0, "top": 0.0, "center": 0.5, "right": 1.0, "bottom": 1.0}


def is_gradient(token: Any) -> bool:
    """Whether the token is a gradient function we read."""
    return token.type == "function" and token.lower_name in GRADIENTS


def gradient(function: Any) -> dict[str, Any]:
    """linear-gradient(angle | to side, stops) or radial-gradient([shape] [at x y], stops)."""
    parts = split_commas(function.arguments)
    paint: dict[str, Any] = {
        "kind": "linear" if function.lower_name == "linear-gradient" else "radial"
    }
    first = parts[0]
    if paint["kind"] == "linear" and first and _is_direction(first):
        paint["angle"] = _direction(first)
        parts = parts[1:]
    elif paint["kind"] == "radial" and first and _is_radial_shape(first):
        if "at" in idents(first):
            paint["center"] = _position(first[idents(first).index("at") + 1 :])
        parts = parts[1:]
    if not 2 <= len(parts) <= MAX_STOPS:
        raise Unsupported(f"needs 2 to {MAX_STOPS} colour stops")
    stops = [color(part[0]) for part in parts]
    positions = [_stop_position(part) for part in parts]
    paint["stops"] = stops
    if any(p is not None for p in positions):
        paint["positions"] = _fill_positions(positions)
    return paint


def highlighter(paint: Any) -> tuple[str, float] | None:
    """(colour, share of the text's height) of a marker-stroke gradient, or None: a
    top-to-bottom gradient that is transparent down to p and then one colour, as in
    `linear-gradient(transparent 60%, yellow 60%)` (yellow, 0.4)."""
    if not isinstance(paint, dict) or paint["kind"] != "linear":
        return None
    if paint.get("angle", 180.0) != 180.0 or "positions" not in paint:
        return None
    stops, positions = paint["stops"], paint["positions"]
    seen = [i for i, stop in enumerate(stops) if not _clear(stop)]
    if not seen or any(not _clear(stop) for stop in stops[: seen[0]]):
        return None
    if len({stops[i] for i in seen}) != 1 or seen != list(range(seen[0], len(stops))):
        return None
    top = positions[seen[0]]
    if seen[0] == 0 or positions[seen[0] - 1] < top - 0.05 or top >= 1.0:
        return None  # a soft fade, not a stroke
    return str(stops[seen[0]]), round(1.0 - top, 4)


def _clear(colour: str) -> bool:
    """Whether `#rrggbbaa` is fully transparent."""
    return len(colour) == 9 and colour.endswith("00")


def _is_direction(tokens: Tokens) -> bool:
    return tokens[0].type == "dimension" or idents(tokens)[:1] == ["to"]


def _direction(tokens: Tokens) -> float:
    """A CSS gradient direction as our angle: 0 up, 90 right, 180 down."""
    if tokens[0].type == "dimension":
        unit = tokens[0].lower_unit
        if unit not in _ANGLE_UNITS or len(tokens) != 1:
            raise Unsupported(f"has the angle unit {unit!r}")
        return float(tokens[0].value) * _ANGLE_UNITS[unit] % 360
    sides = idents(tokens)[1:]
    if not sides or any(s not in _SIDES for s in sides) or len(sides) > 2:
        raise Unsupported("has a direction we cannot read")
    angles = [_SIDES[s] for s in sides]
    if len(angles) == 2:  # a corner: halfway between its two sides (top left is 315)
        low, high = sorted(angles)
        return (low + high) / 2 if high - low == 90 else (high + 360 + low) / 2 % 360
    return angles[0]


def _is_radial_shape(tokens: Tokens) -> bool:
    return bool(set(idents(tokens)) & _RADIAL_SHAPE_WORDS)


def _position(tokens: Tokens) -> list[float]:
    """`at x y` as fractions of the box (keywords or percentages; `top left` reads as y x)."""
    values: list[float] = []
    for token in tokens:
        if token.type == "percentage":
            values.append(float(token.value) / 100)
        elif token.type == "ident" and token.lower_value in _CENTRE_WORDS:
            values.append(_CENTRE_WORDS[token.lower_value])
        else:
            raise Unsupported("has a radial centre we cannot read (use keywords or %)")
    if not 1 <= len(values) <= 2:
        raise Unsupported("has a radial centre we cannot read")
    words = idents(tokens)
    vertical_first = words[0] in ("top", "bottom") or words[-1:] in (["left"], ["right"])
    if len(values) == 1:
        return [0.5, values[0]] if vertical_first else [values[0], 0.5]
    return values[::-1] if vertical_first and len(set(words)) == 2 else values


def _stop_position(part: Tokens) -> float | None:
    if len(part) == 1:
        return None
    if len(part) == 2 and part[1].type == "percentage":
        return max(0.0, min(1.0, float(part[1].value) / 100))
    raise Unsupported("has a stop position that is not one percentage")


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
