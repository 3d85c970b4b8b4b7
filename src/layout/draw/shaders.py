"""Paint and effect records → Skia shaders and image filters (draw.py's helpers).

One shader builder per paint kind (`_SHADERS`: gradients, procedural patterns) and one
image filter per effect kind (`_FILTERS`); `skia_paint` is what every painter asks for.
Gradients and patterns are laid over the bounds of the shape they paint, as CSS does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import skia

from ..base.boxes import Blur, Effect, Glow, Gradient, Grain, Paint, Pattern, Shadow

# Passed where a matrix may be None: skia-python converts None through numpy, importing
# it (60-100 ms) in a process that never needs it. An identity matrix changes no pixel.
_IDENTITY = skia.Matrix()


def skia_paint(paint: Paint, bounds: Any, **options: Any) -> Any:
    """An anti-aliased `skia.Paint` for a colour, or a shader laid over `bounds`."""
    if isinstance(paint, int):
        return skia.Paint(Color=paint, AntiAlias=True, **options)
    return skia.Paint(Shader=_SHADERS[type(paint)](paint, bounds), AntiAlias=True, **options)


def _gradient(paint: Gradient, bounds: Any) -> Any:
    positions = list(paint.positions) if paint.positions is not None else None
    colors = list(paint.colors)
    x, y, w, h = bounds.x(), bounds.y(), bounds.width(), bounds.height()
    cx, cy = x + paint.center[0] * w, y + paint.center[1] * h
    if paint.kind == "radial":
        radius = max(paint.radius * max(w, h), 1e-3)
        return skia.GradientShader.MakeRadial(
            skia.Point(cx, cy), radius, colors, positions, localMatrix=_IDENTITY
        )
    if paint.kind == "sweep":  # CSS conic gradients start at 12 o'clock, Skia's at 3
        turn = skia.Matrix.RotateDeg(paint.angle - 90.0, skia.Point(cx, cy))
        return skia.GradientShader.MakeSweep(cx, cy, colors, positions, localMatrix=turn)
    # CSS linear-gradient: the line through the centre, long enough to reach the corners
    turn = math.radians(paint.angle)
    dx, dy = math.sin(turn), -math.cos(turn)
    half = (abs(w * dx) + abs(h * dy)) / 2
    mx, my = x + w / 2, y + h / 2
    points = [
        skia.Point(mx - dx * half, my - dy * half),
        skia.Point(mx + dx * half, my + dy * half),
    ]
    return skia.GradientShader.MakeLinear(points, colors, positions, localMatrix=_IDENTITY)


def _pattern(paint: Pattern, bounds: Any) -> Any:
    if paint.kind == "noise":
        shader = _noise(paint.color, paint.size, 1.0 / paint.spacing, 0.0)
    else:
        shader = _tile(paint)
    if paint.background is not None:
        shader = skia.Shaders.Blend(
            skia.BlendMode.kSrcOver, skia.Shaders.Color(paint.background), shader
        )
    return shader


def _tile(paint: Pattern) -> Any:
    """One tile of a dot, line or grid pattern as a picture shader, so it stays sharp at
    every output scale."""
    s = paint.spacing
    recorder = skia.PictureRecorder()
    canvas = recorder.beginRecording(skia.Rect.MakeWH(s, s))
    ink = skia.Paint(Color=paint.color, AntiAlias=True, StrokeWidth=paint.size)
    if paint.kind == "dots":
        canvas.drawCircle(s / 2, s / 2, paint.size, ink)
    elif paint.kind == "lines":
        canvas.drawLine(0, s / 2, s, s / 2, ink)
    else:  # grid: one horizontal and one vertical line per tile
        canvas.drawLine(0, paint.size / 2, s, paint.size / 2, ink)
        canvas.drawLine(paint.size / 2, 0, paint.size / 2, s, ink)
    matrix = skia.Matrix.Translate(paint.offset[0], paint.offset[1])
    if paint.angle:
        matrix.preRotate(paint.angle)
    return recorder.finishRecordingAsPicture().makeShader(
        skia.TileMode.kRepeat,
        skia.TileMode.kRepeat,
        skia.FilterMode.kLinear,
        matrix,
        skia.Rect.MakeWH(s, s),
    )


NOISE_TILE = 64.0
"""Side of the noise tile in CSS px. Noise is drawn as this tile repeated (Skia stitches
its edges), never per pixel over the card: a full-card Perlin pass cost ~40 ms per card at
scale 2, and its unrepeating pixels made 1.3-1.6 MB PNGs that deflate spent 8-10 ms on. A
tile 64 px wide (128 device px at scale 2) repeats each row's bytes every 384, well inside
deflate's 32 KiB window (docs/decisions/engine.md, "Paper grain and noise are a repeated 64
px tile")."""


def _noise(color: int, opacity: float, frequency: float, seed: float) -> Any:
    """Fractal noise as alpha in `color`: the noise's red channel scaled by `opacity`, as a
    repeating tile."""
    return _noise_tile(color, opacity, frequency, seed).makeShader(
        skia.TileMode.kRepeat,
        skia.TileMode.kRepeat,
        skia.FilterMode.kNearest,  # the tile is drawn at the device's scale: 1:1
        _IDENTITY,
        skia.Rect.MakeWH(NOISE_TILE, NOISE_TILE),
    )


@lru_cache(maxsize=32)
def _noise_tile(color: int, opacity: float, frequency: float, seed: float) -> Any:
    """One tile of the noise, recorded once per look so Skia can keep its pixels (a picture
    shader rasterizes its tile at the scale it is drawn at)."""
    size = skia.ISize(int(NOISE_TILE), int(NOISE_TILE))
    noise = skia.PerlinNoiseShader.MakeFractalNoise(frequency, frequency, 3, seed, size)
    r, g, b = (((color >> shift) & 0xFF) / 255 for shift in (16, 8, 0))
    alpha = opacity * ((color >> 24) & 0xFF) / 255
    tint = skia.ColorFilters.Matrix(
        [0, 0, 0, 0, r, 0, 0, 0, 0, g, 0, 0, 0, 0, b, 2 * alpha, 0, 0, 0, -0.5 * alpha]
    )
    recorder = skia.PictureRecorder()
    canvas = recorder.beginRecording(skia.Rect.MakeWH(NOISE_TILE, NOISE_TILE))
    canvas.drawPaint(skia.Paint(Shader=noise.makeWithColorFilter(tint)))
    return recorder.finishRecordingAsPicture()


def grain_shader(effect: Grain) -> Any:
    return _noise(effect.color, effect.opacity, effect.frequency, effect.seed)


_SHADERS: dict[type, Callable[[Any, Any], Any]] = {Gradient: _gradient, Pattern: _pattern}


def _sigma(blur: float) -> float:
    return blur / 2  # CSS blur radius to a Gaussian sigma


def _shadow(effect: Shadow) -> Any:
    sigma = _sigma(effect.blur)
    return skia.ImageFilters.DropShadowOnly(effect.dx, effect.dy, sigma, sigma, effect.color)


def _glow(effect: Glow) -> Any:
    sigma = _sigma(effect.blur)
    return skia.ImageFilters.DropShadowOnly(0, 0, sigma, sigma, effect.color)


def shadow_paint(effect: Shadow | Glow, opacity: float = 1.0) -> Any:
    """A shadow or glow as a paint for the shape it falls from (of that `opacity`, as the
    image filter takes the shape's alpha): its colour through a blur mask filter of the
    same sigma as `_shadow`'s image filter."""
    alpha = round(((effect.color >> 24) & 0xFF) * opacity)
    paint = skia.Paint(Color=(alpha << 24) | (effect.color & 0xFFFFFF), AntiAlias=True)
    if effect.blur > 0:
        paint.setMaskFilter(skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, _sigma(effect.blur)))
    return paint


_FILTERS: dict[type, Callable[[Any], Any]] = {Shadow: _shadow, Glow: _glow}


def image_filter(effects: list[Effect]) -> Any:
    """Shadows and glows under the source (blurred when a blur effect asks), as one filter."""
    under = [_FILTERS[type(e)](e) for e in effects if type(e) in _FILTERS]
    blurs = [e for e in effects if isinstance(e, Blur)]
    source = None
    if blurs:
        sigma = _sigma(sum(b.blur for b in blurs))
        source = skia.ImageFilters.Blur(sigma, sigma)
    if not under:
        return source
    return skia.ImageFilters.Merge([*under, source])


def set_dash(paint: Any, dash: tuple[float, float] | None) -> None:
    if dash is not None:
        paint.setPathEffect(skia.DashPathEffect.Make(list(dash), 0))
