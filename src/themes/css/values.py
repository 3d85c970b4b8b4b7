"""CSS value tokens (tinycss2 nodes) → plain values: lengths in px, colours as `#rrggbb[aa]`.

The token helpers every property reader shares. A value this subset cannot map raises
`Unsupported`, whose message says why; the note it becomes puts the value in front of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tinycss2

from inkcard.layout.parse import color_hex

ROOT_SIZE = 16.0  # em and rem are relative to this, as in a browser's default
_BLANK = ("whitespace", "comment")

Tokens = Sequence[Any]


class Unsupported(ValueError):
    """A value this subset cannot map; the message says why (after the value)."""


def significant(tokens: Tokens) -> list[Any]:
    """The tokens without whitespace and comments."""
    return [t for t in tokens if t.type not in _BLANK]


def one(values: Tokens) -> Any:
    """The only token of a value that must be a single one."""
    if len(values) != 1:
        raise Unsupported("takes one value here")
    return values[0]


def split_commas(tokens: Tokens) -> list[list[Any]]:
    """A comma-separated list's items, each without whitespace and comments."""
    parts: list[list[Any]] = [[]]
    for token in tokens:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        elif token.type not in _BLANK:
            parts[-1].append(token)
    return parts


def idents(tokens: Tokens) -> list[str]:
    """Each token's keyword in lower case, "" for a token that is not a keyword."""
    return [t.lower_value if t.type == "ident" else "" for t in tokens]


def is_word(token: Any, *words: str) -> bool:
    """Whether the token is one of these keywords (given in lower case)."""
    return token.type == "ident" and token.lower_value in words


def length(token: Any, percent_of: float | None = None) -> float:
    """A CSS length in px: px, em/rem (of 16px), pt, a unitless 0, a % of `percent_of`."""
    if token.type == "dimension":
        unit = token.lower_unit
        if unit == "px":
            return float(token.value)
        if unit in ("em", "rem"):
            return float(token.value) * ROOT_SIZE
        if unit == "pt":
            return float(token.value) * 4 / 3  # 1pt is 4/3 px
        raise Unsupported(f"uses the unit {unit!r} (px, em, rem, pt)")
    if token.type == "number" and token.value == 0:
        return 0.0
    if token.type == "percentage" and percent_of is not None:
        return float(token.value) / 100 * percent_of
    raise Unsupported("is not a length")


def color(token: Any) -> str:
    """A CSS colour (names, hex, rgb/rgba/hsl/hsla in either syntax, …) as `#rrggbb[aa]`:
    the engine's one colour parser, the one inline HTML styles go through too."""
    parsed = color_hex(tinycss2.serialize([token]))
    if parsed is None:  # not a colour, or currentcolor
        raise Unsupported("is not a colour we can use")
    return parsed
