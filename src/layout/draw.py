"""`Page` → a recorded `skia.Picture` → pixels at a scale. Paints; never measures.

Every position was decided by layout; this stage turns records into Skia calls. Text is
painted as glyph ids at the positions shaping produced (no Skia text layout). A card is
recorded once and rasterised at any scale, so 2x output and 0.5x test images share one
layout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import skia

from .boxes import Fill, GlyphRun, Group, Item, Page, Picture, Segment, Shape, Stroke
from .png import encode_rgb

_SAMPLING = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kLinear)


class Painter:
    """Draws items with the typefaces of one font book (fonts cached per size)."""

    def __init__(self, typefaces: Mapping[str, Any]) -> None:
        self.typefaces = typefaces
        self._fonts: dict[tuple[str, float, float], Any] = {}

    def record(self, page: Page) -> Any:
        recorder = skia.PictureRecorder()
        canvas = recorder.beginRecording(skia.Rect.MakeWH(page.width, page.height))
        canvas.drawColor(page.background)
        self.paint(canvas, page.items)
        return recorder.finishRecordingAsPicture()

    def paint(self, canvas: Any, items: tuple[Item, ...]) -> None:
        for item in items:
            _PAINTERS[type(item)](self, canvas, item)

    def font(self, face: str, size: float, skew: float) -> Any:
        key = (face, size, skew)
        font = self._fonts.get(key)
        if font is None:
            font = skia.Font(self.typefaces[face], size)
            font.setSubpixel(True)
            font.setEdging(skia.Font.Edging.kAntiAlias)
            font.setHinting(skia.FontHinting.kNone)
            font.setSkewX(skew)
            self._fonts[key] = font
        return font

    def glyph_run(self, canvas: Any, run: GlyphRun) -> None:
        builder = skia.TextBlobBuilder()
        points = [skia.Point(x, y) for x, y in zip(run.xs, run.ys, strict=False)]
        builder.allocRunPos(self.font(run.face, run.size, run.skew), list(run.glyphs), points)
        canvas.drawTextBlob(builder.make(), 0, 0, skia.Paint(Color=run.color, AntiAlias=True))

    def fill(self, canvas: Any, item: Fill) -> None:
        paint = skia.Paint(Color=item.color, AntiAlias=True)
        rect = _rect(item.rect)
        if item.radius:
            canvas.drawRoundRect(rect, item.radius, item.radius, paint)
        else:
            canvas.drawRect(rect, paint)

    def stroke(self, canvas: Any, item: Stroke) -> None:
        paint = skia.Paint(
            Color=item.color, AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=item.width
        )
        canvas.drawRoundRect(_rect(item.rect), item.radius, item.radius, paint)

    def segment(self, canvas: Any, item: Segment) -> None:
        paint = skia.Paint(Color=item.color, AntiAlias=True, StrokeWidth=item.width)
        canvas.drawLine(item.x1, item.y1, item.x2, item.y2, paint)

    def shape(self, canvas: Any, item: Shape) -> None:
        path = _path(item.ops)
        if item.fill is not None:
            canvas.drawPath(path, skia.Paint(Color=item.fill, AntiAlias=True))
        if item.stroke is not None:
            canvas.drawPath(
                path,
                skia.Paint(
                    Color=item.stroke,
                    AntiAlias=True,
                    Style=skia.Paint.kStroke_Style,
                    StrokeWidth=item.stroke_width,
                    StrokeCap=skia.Paint.kRound_Cap,
                    StrokeJoin=skia.Paint.kRound_Join,
                ),
            )

    def picture(self, canvas: Any, item: Picture) -> None:
        canvas.save()
        if item.radius:
            canvas.clipRRect(
                skia.RRect.MakeRectXY(_rect(item.rect), item.radius, item.radius), doAntiAlias=True
            )
        canvas.drawImageRect(item.image, _rect(item.rect), _SAMPLING)
        canvas.restore()

    def group(self, canvas: Any, item: Group) -> None:
        canvas.save()
        canvas.translate(item.dx, item.dy)
        if item.scale != 1.0:
            canvas.scale(item.scale, item.scale)
        self.paint(canvas, item.items)
        canvas.restore()


_PAINTERS: dict[type, Callable[[Painter, Any, Any], None]] = {
    GlyphRun: Painter.glyph_run,
    Fill: Painter.fill,
    Stroke: Painter.stroke,
    Segment: Painter.segment,
    Shape: Painter.shape,
    Picture: Painter.picture,
    Group: Painter.group,
}


def _rect(rect: Any) -> Any:
    return skia.Rect.MakeXYWH(rect.x, rect.y, rect.width, rect.height)


def _path(ops: tuple[tuple[Any, ...], ...]) -> Any:
    path = skia.Path()
    for kind, *a in ops:
        if kind == "M":
            path.moveTo(a[0], a[1])
        elif kind == "L":
            path.lineTo(a[0], a[1])
        elif kind == "Q":
            path.quadTo(a[0], a[1], a[2], a[3])
        elif kind == "C":
            path.cubicTo(a[0], a[1], a[2], a[3], a[4], a[5])
        elif kind == "O":
            path.addCircle(a[0], a[1], a[2])
        elif kind == "Z":
            path.close()
    return path


def rasterize(
    picture: Any, width: float, height: float, background: int, scale: float
) -> np.ndarray:
    """Pixels of a recorded card as an opaque RGB array, `scale` times its CSS size."""
    w, h = math.ceil(width * scale), math.ceil(height * scale)
    pixels = np.empty((h, w, 4), np.uint8)
    surface = skia.Surface(
        pixels, colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kOpaque_AlphaType
    )
    canvas = surface.getCanvas()
    canvas.clear(background | 0xFF000000)
    canvas.scale(scale, scale)
    canvas.drawPicture(picture)
    surface.flushAndSubmit()
    return pixels[:, :, :3]


def encode_png(picture: Any, width: float, height: float, background: int, scale: float) -> bytes:
    return encode_rgb(rasterize(picture, width, height, background, scale))
