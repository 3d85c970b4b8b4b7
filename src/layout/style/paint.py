"""Paints and effects as a theme file spells them → resolved `boxes` records.

A paint in a theme file is a colour string (a literal or a palette token) or a table with
a `kind`: `linear`, `radial`, `sweep` (gradients) or `dots`, `lines`, `grid`, `noise`
(procedural patterns). An effect is a table with a `kind`: `shadow`, `glow`, `blur`,
`grain`. msgspec decodes them as tagged unions, so a misspelt kind or field fails at load
with its path; colours resolve against the palette of one mode when a theme is resolved.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated

import msgspec

from ..base.boxes import Blur, Effect, Glow, Gradient, Grain, Paint, Pattern, Shadow
from ..errors import ThemeError

_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
_NUMBER = r"\s*(\d+(?:\.\d*)?|\.\d+)\s*"  # 12, 12., 12.5, .5; never "1..2"
_FUNC = re.compile(rf"rgba?\({_NUMBER},{_NUMBER},{_NUMBER}(?:,{_NUMBER})?\)")


def parse_color(value: str, palette: dict[str, str] | None = None, _depth: int = 0) -> int:
    """Turns a colour literal or palette token into an ARGB int."""
    value = value.strip()
    if m := _HEX.fullmatch(value):
        digits = m.group(1)
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        alpha = int(digits[6:8], 16) if len(digits) == 8 else 255
        return (alpha << 24) | int(digits[:6], 16)
    if m := _FUNC.fullmatch(value):
        r, g, b = (min(255, round(float(v))) for v in m.groups()[:3])
        a = float(m.group(4)) if m.group(4) is not None else 1.0
        return (round(max(0.0, min(1.0, a)) * 255) << 24) | (r << 16) | (g << 8) | b
    if palette is not None and value in palette and _depth < 4:
        return parse_color(palette[value], palette, _depth + 1)
    raise ThemeError(f"unknown colour or palette token {value!r}")


class _Kind(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind"
):
    pass


Stops = Annotated[list[str], msgspec.Meta(min_length=2, max_length=16)]
Fraction = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
Pitch = Annotated[float, msgspec.Meta(gt=0.5, le=2000.0)]


class _Gradient(_Kind, frozen=True):
    stops: Stops
    positions: list[Fraction] | None = None


class Linear(_Gradient, frozen=True, tag="linear"):
    """Stops along `angle` (CSS degrees: 0 up, 90 right, 180 down, the default)."""

    angle: float = 180.0


class Radial(_Gradient, frozen=True, tag="radial"):
    """Stops from `center` (fractions of the box) out to `radius` (of the longer side)."""

    center: tuple[float, float] = (0.5, 0.5)
    radius: Annotated[float, msgspec.Meta(gt=0.0)] = 0.5


class Sweep(_Gradient, frozen=True, tag="sweep"):
    """Stops turning around `center`, starting at `angle` (CSS degrees)."""

    center: tuple[float, float] = (0.5, 0.5)
    angle: float = 0.0


class _Pattern(_Kind, frozen=True):
    color: str
    background: str | None = None
    spacing: Pitch = 20.0
    offset: tuple[float, float] = (0.0, 0.0)


class Dots(_Pattern, frozen=True, tag="dots"):
    """Round dots of radius `size` on a square grid of `spacing`."""

    size: Annotated[float, msgspec.Meta(gt=0.0)] = 1.0


class Lines(_Pattern, frozen=True, tag="lines"):
    """Parallel lines `size` wide every `spacing`, turned by `angle` (0: horizontal)."""

    size: Annotated[float, msgspec.Meta(gt=0.0)] = 1.0
    angle: float = 0.0


class Grid(_Pattern, frozen=True, tag="grid"):
    """Graph paper: lines `size` wide every `spacing`, both ways."""

    size: Annotated[float, msgspec.Meta(gt=0.0)] = 1.0


class Noise(_Pattern, frozen=True, tag="noise"):
    """Fractal noise in `color` at `opacity`; `spacing` is the grain size in px."""

    spacing: Pitch = 1.5
    opacity: Fraction = 0.1


PaintSpec = str | Linear | Radial | Sweep | Dots | Lines | Grid | Noise


class ShadowSpec(_Kind, frozen=True, tag="shadow"):
    """CSS box-shadow: offset, blur radius (0 is a hard copy), colour."""

    dx: float = 0.0
    dy: float = 4.0
    blur: Annotated[float, msgspec.Meta(ge=0.0, le=200.0)] = 10.0
    color: str = "rgba(0,0,0,.1)"


class GlowSpec(_Kind, frozen=True, tag="glow"):
    """A halo of `color`, `blur` px wide, under the shape."""

    blur: Annotated[float, msgspec.Meta(gt=0.0, le=200.0)] = 10.0
    color: str = "highlight"


class BlurSpec(_Kind, frozen=True, tag="blur"):
    """The shape itself blurred by `blur` px."""

    blur: Annotated[float, msgspec.Meta(gt=0.0, le=200.0)] = 8.0


class GrainSpec(_Kind, frozen=True, tag="grain"):
    """Paper grain: noise of `color` at `opacity` where the shape is."""

    opacity: Fraction = 0.08
    frequency: Annotated[float, msgspec.Meta(gt=0.0, le=4.0)] = 0.8
    color: str = "#000000"
    seed: float = 0.0


EffectSpec = ShadowSpec | GlowSpec | BlurSpec | GrainSpec


def resolve_paint(spec: PaintSpec, palette: dict[str, str], where: str = "paint") -> Paint:
    """The paint `spec` names in this palette; errors name the field `where`."""
    try:
        if isinstance(spec, str):
            return parse_color(spec, palette)
        if isinstance(spec, _Gradient):
            return _gradient(spec, palette)
        return _pattern(spec, palette)
    except ThemeError as error:
        raise ThemeError(f"{error} (at {where})") from None


def _gradient(spec: Linear | Radial | Sweep, palette: dict[str, str]) -> Gradient:
    colors = tuple(parse_color(stop, palette) for stop in spec.stops)
    positions = None
    if spec.positions is not None:
        positions = tuple(spec.positions)
        if len(positions) != len(colors):
            raise ThemeError(f"{len(positions)} positions for {len(colors)} stops")
        if list(positions) != sorted(positions):
            raise ThemeError("positions must not decrease")
    if isinstance(spec, Linear):
        return Gradient("linear", colors, positions, angle=spec.angle)
    if isinstance(spec, Radial):
        return Gradient("radial", colors, positions, center=spec.center, radius=spec.radius)
    return Gradient("sweep", colors, positions, angle=spec.angle, center=spec.center)


def _pattern(spec: Dots | Lines | Grid | Noise, palette: dict[str, str]) -> Pattern:
    background = None if spec.background is None else parse_color(spec.background, palette)
    color = parse_color(spec.color, palette)
    size = spec.opacity if isinstance(spec, Noise) else getattr(spec, "size", 1.0)
    return Pattern(
        _PATTERN_KINDS[type(spec)],
        color,
        background,
        spacing=spec.spacing,
        size=size,
        angle=getattr(spec, "angle", 0.0),
        offset=spec.offset,
    )


_PATTERN_KINDS: dict[type, str] = {Dots: "dots", Lines: "lines", Grid: "grid", Noise: "noise"}


def resolve_effects(
    specs: Sequence[EffectSpec], palette: dict[str, str], where: str = "effects"
) -> tuple[Effect, ...]:
    """The effects `specs` name, colours resolved in this palette."""
    effects: list[Effect] = []
    for index, spec in enumerate(specs):
        try:
            effects.append(_effect(spec, palette))
        except ThemeError as error:
            raise ThemeError(f"{error} (at {where}[{index}])") from None
    return tuple(effects)


def _effect(spec: EffectSpec, palette: dict[str, str]) -> Effect:
    if isinstance(spec, ShadowSpec):
        return Shadow(spec.dx, spec.dy, spec.blur, parse_color(spec.color, palette))
    if isinstance(spec, GlowSpec):
        return Glow(spec.blur, parse_color(spec.color, palette))
    if isinstance(spec, BlurSpec):
        return Blur(spec.blur)
    return Grain(spec.opacity, spec.frequency, parse_color(spec.color, palette), spec.seed)


def base_color(paint: Paint | None, default: int = 0xFFFFFFFF) -> int:
    """A solid colour standing for `paint` (what the card is cleared with under it)."""
    if isinstance(paint, int):
        return paint
    if isinstance(paint, Gradient):
        return paint.colors[0]
    if isinstance(paint, Pattern) and paint.background is not None:
        return paint.background
    return default
