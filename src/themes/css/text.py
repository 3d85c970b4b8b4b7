"""Text properties (colour, font-*, line-height, letter-spacing, text-align) → text knobs.

Each reader takes a declaration's value tokens and the role it is on, and returns the knobs
it sets (`{"size": 24.0}`), or raises `Unsupported`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .values import ROOT_SIZE, Tokens, Unsupported, color, is_word, length, one, split_commas

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

_FONT_SIZE_WORDS = {"small": 13.0, "medium": 16.0, "large": 18.0, "x-large": 24.0}
_ALIGN = {"left": "left", "start": "left", "center": "center", "right": "right", "end": "right"}
NORMAL_LINE_HEIGHT = 1.2  # what `line-height: normal` is taken as


@dataclass(frozen=True, slots=True)
class PxLineHeight:
    """A line height in px, turned into a multiple of the role's final size at the end."""

    px: float


def text_color(values: Tokens, role: str) -> dict[str, Any]:
    return {"color": color(one(values))}


def font_family(values: Tokens, role: str) -> dict[str, Any]:
    """The first name of the stack that we map onto one of our families."""
    names = [
        " ".join(t.value if t.type in ("string", "ident") else "" for t in part).strip().lower()
        for part in split_commas(values)
    ]
    for name in names:
        if name in FAMILIES:
            return {"family": FAMILIES[name]}
    raise Unsupported(f"names no font we have; known: {', '.join(sorted(set(FAMILIES.values())))}")


def font_size(values: Tokens, role: str) -> dict[str, Any]:
    token = one(values)
    if is_word(token, *_FONT_SIZE_WORDS):
        return {"size": _FONT_SIZE_WORDS[token.lower_value]}
    size = length(token, percent_of=ROOT_SIZE)
    if size <= 0:
        raise Unsupported("is not a positive size")
    return {"size": size}


def font_weight(values: Tokens, role: str) -> dict[str, Any]:
    token = one(values)
    if is_word(token, "normal", "bold"):
        return {"weight": 400 if token.lower_value == "normal" else 700}
    if token.type == "number" and token.is_integer and 1 <= token.int_value <= 1000:
        return {"weight": int(token.int_value)}
    raise Unsupported("is not normal, bold or 1..1000")


def font_style(values: Tokens, role: str) -> dict[str, Any]:
    token = one(values)
    if is_word(token, "normal", "italic", "oblique"):
        return {"italic": token.lower_value != "normal"}
    raise Unsupported("is not normal, italic or oblique")


def line_height(values: Tokens, role: str) -> dict[str, Any]:
    """A multiple of the font size; px heights are divided by the size at the end."""
    token = one(values)
    if token.type == "number" and token.value > 0:
        return {"line_height": float(token.value)}
    if token.type == "percentage" and token.value > 0:
        return {"line_height": float(token.value) / 100}
    if is_word(token, "normal"):
        return {"line_height": NORMAL_LINE_HEIGHT}
    if token.type == "dimension" and token.lower_unit in ("em", "rem") and token.value > 0:
        return {"line_height": float(token.value)}
    px = length(token)
    if px <= 0:
        raise Unsupported("is not positive")
    return {"line_height": PxLineHeight(px)}


def letter_spacing(values: Tokens, role: str) -> dict[str, Any]:
    token = one(values)
    if is_word(token, "normal"):
        return {"letter_spacing": 0.0}
    return {"letter_spacing": length(token)}


def text_align(values: Tokens, role: str) -> dict[str, Any]:
    token = one(values)
    word = token.lower_value if token.type == "ident" else ""
    if word == "justify" or word in _ALIGN:
        return {"align": _ALIGN.get(word, word)}
    raise Unsupported("is not left, center, right or justify")


_LINE_STYLES = {"solid": "solid", "dashed": "dashed", "dotted": "dotted", "wavy": "wavy"}
_LINE_WORDS = ("underline", "overline", "line-through", "blink")


def text_decoration(values: Tokens, role: str) -> dict[str, Any]:
    """`none` or `underline [style] [thickness] [colour]` → the underline knobs."""
    if len(values) == 1 and is_word(values[0], "none"):
        return {"underline": "none"}
    knobs: dict[str, Any] = {}
    for token in values:
        if is_word(token, "underline"):
            knobs.setdefault("underline", "solid")
        elif is_word(token, *_LINE_WORDS):
            raise Unsupported("draws only underline (or none)")
        elif is_word(token, *_LINE_STYLES, "double"):
            knobs["underline"] = _LINE_STYLES.get(token.lower_value, "solid")
        elif token.type in ("dimension", "number"):
            knobs["underline_width"] = length(token)
        else:
            knobs["underline_color"] = color(token)
    if "underline" not in knobs:
        raise Unsupported("has no underline (only underline or none is drawn)")
    return knobs


def text_decoration_color(values: Tokens, role: str) -> dict[str, Any]:
    return {"underline_color": color(one(values))}


def text_decoration_style(values: Tokens, role: str) -> dict[str, Any]:
    token = one(values)
    if not is_word(token, *_LINE_STYLES, "double"):
        raise Unsupported("is not solid, dashed, dotted or wavy")
    return {"underline": _LINE_STYLES.get(token.lower_value, "solid")}


def text_decoration_thickness(values: Tokens, role: str) -> dict[str, Any]:
    return {"underline_width": length(one(values))}


def text_underline_offset(values: Tokens, role: str) -> dict[str, Any]:
    return {"underline_offset": length(one(values))}


def text_transform(values: Tokens, role: str) -> dict[str, Any]:
    token = one(values)
    if not is_word(token, "none", "uppercase", "lowercase"):
        raise Unsupported("is not none, uppercase or lowercase")
    return {"text_transform": token.lower_value}
