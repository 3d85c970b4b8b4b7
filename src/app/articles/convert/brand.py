"""Brand knobs of the article themes: a primary colour and a base font size, applied to a
theme's CSS before it is inlined (the reader never sees a variable: WeChat drops `var()`).

A theme declares its knobs once, in a `:root` rule: colour variables (`--primary`,
`--accent`, …) used as `var(--name)`, or as `rgba(var(--name-rgb), a)` for a tint (every
colour variable has its `-rgb` twin), and `--font-size`, the body size every `font-size`
in px is written for. A request's primary colour sets every colour variable, one brand
colour as doocs/md has, darkened first when it is too light to read on white (or to carry
white text); its font size scales every px font size of the theme. A dark theme declares
its panel as `--ground`, which the brand leaves alone: there the colour is lightened
instead, until it reads on that panel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inkcard.layout.parse import css_color
from inkcard.layout.style import relative_luminance

MIN_CONTRAST = 4.5  # WCAG AA for body text, against white
_ROOT = re.compile(r":root\s*\{([^{}]*)\}")
_VAR = re.compile(r"var\(\s*--([a-z0-9-]+)\s*\)")
_FONT_SIZE = re.compile(r"(font-size\s*:\s*)(\d+(?:\.\d+)?)px")
_DARKER = 0.97  # each step keeps this share of every channel (the hue stays)
GROUND = "ground"  # a dark theme's panel colour: not a brand colour, what it must read on
_DARK_GROUND = 0.18  # relative luminance under which a ground is dark (white text reads on it)


@dataclass(frozen=True, slots=True)
class Brand:
    """What a request asks of the theme; the defaults leave it as it is."""

    primary: str = ""  # any CSS colour
    font_size: float | None = None  # px


class ThemeVariableError(ValueError):
    """A theme's CSS uses a variable its `:root` rule does not declare."""


def apply_brand(css: str, brand: Brand) -> str:
    """The theme CSS with its `:root` rule gone and every variable replaced."""
    root = _ROOT.search(css)
    declared = _declared(root.group(1)) if root else {}
    css = css[: root.start()] + css[root.end() :] if root else css
    base = float(declared.pop("font-size", "16px").removesuffix("px"))
    ground = declared.pop(GROUND, None)
    colours = dict(declared)
    if brand.primary:
        colour = readable_on(brand.primary, ground)
        colours = dict.fromkeys(colours, colour)
    if ground is not None:
        colours[GROUND] = ground
    values = {**colours, **{f"{name}-rgb": _rgb(value) for name, value in colours.items()}}
    values["font-size"] = f"{brand.font_size or base:g}px"

    def variable(match: re.Match[str]) -> str:
        if match.group(1) not in values:
            raise ThemeVariableError(f"var(--{match.group(1)}) is not declared in :root")
        return values[match.group(1)]

    if brand.font_size and brand.font_size != base:  # before the base size is filled in
        scale = brand.font_size / base
        css = _FONT_SIZE.sub(
            lambda m: f"{m.group(1)}{round(float(m.group(2)) * scale, 1):g}px", css
        )
    return _VAR.sub(variable, css)


def brand_colour(css: str, brand: Brand) -> str | None:
    """The colour the theme's brand shows in (the request's, made readable, else the
    theme's `--primary`), as `#rrggbb`; None when the theme declares none."""
    root = _ROOT.search(css)
    declared = _declared(root.group(1)) if root else {}
    colour = readable_on_white(brand.primary) if brand.primary else declared.get("primary")
    argb = css_color(colour) if colour else None
    return None if argb is None else f"#{argb & 0xFFFFFF:06x}"


def readable_on(colour: str, ground: str | None) -> str:
    """`colour` made to read on the theme's `ground`: on white (no ground, or a light one)
    `readable_on_white`; on a dark ground, lightened in steps that keep its hue until it
    reads there at `MIN_CONTRAST`."""
    ground_argb = css_color(ground) if ground else None
    if ground_argb is None or relative_luminance(ground_argb & 0xFFFFFF) > _DARK_GROUND:
        return readable_on_white(colour)
    argb = css_color(colour)
    if argb is None:
        raise ValueError(f"{colour!r} is not a CSS colour")
    r, g, b = (argb >> 16 & 0xFF, argb >> 8 & 0xFF, argb & 0xFF)
    floor = relative_luminance(ground_argb & 0xFFFFFF)
    while (relative_luminance((r << 16) | (g << 8) | b) + 0.05) / (floor + 0.05) < MIN_CONTRAST:
        r, g, b = (min(255, c + max(1, round((255 - c) * (1 - _DARKER)))) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def readable_on_white(colour: str) -> str:
    """`colour` as `#rrggbb` (opaque), darkened in steps that keep its hue until it reads
    at `MIN_CONTRAST` on white, which is also how well white text reads on it."""
    argb = css_color(colour)
    if argb is None:
        raise ValueError(f"{colour!r} is not a CSS colour")
    r, g, b = (argb >> 16 & 0xFF, argb >> 8 & 0xFF, argb & 0xFF)
    while _contrast_with_white(r, g, b) < MIN_CONTRAST:
        r, g, b = (int(c * _DARKER) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def _contrast_with_white(r: int, g: int, b: int) -> float:
    luminance = relative_luminance((r << 16) | (g << 8) | b)
    return 1.05 / (luminance + 0.05)


def _scaled(px: str, scale: float) -> str:
    return f"{round(float(px) * scale, 1):g}"


def _declared(body: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in body.split(";"):
        name, colon, value = part.partition(":")
        if colon and name.strip().startswith("--"):
            out[name.strip()[2:]] = value.strip()
    return out


def _rgb(colour: str) -> str:
    argb = css_color(colour)
    if argb is None:
        raise ThemeVariableError(f"{colour!r} is not a colour")
    return f"{argb >> 16 & 0xFF}, {argb >> 8 & 0xFF}, {argb & 0xFF}"
