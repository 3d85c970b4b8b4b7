"""`Page` → a recorded `skia.Picture` → pixels at a scale. Paints; never measures.

Every position was decided by layout; this stage turns records into Skia calls. Text is
painted as glyph ids at the positions shaping produced (no Skia text layout). A card is
recorded once and rasterised at any scale, so 2x output and 0.5x test images share one
layout.

Each record kind has one painter (`_PAINTERS`); paints and effects become Skia shaders and
image filters in shaders.py. A `Cached` item (a theme's background and static decorations)
is recorded once per key and replayed on every card, or its pixels drawn (statics.py keeps
them). The recorded cards are encoded here too: PNG (rows packed by png.py), JPEG, WebP, PDF.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import skia

if TYPE_CHECKING:
    pass

from ..base.boxes import (
    Cached,
    Effect,
    Fill,
    Glow,
    GlyphRun,
    Grain,
    Group,
    Item,
    Layer,
    Page,
    Paint,
    Picture,
    Segment,
    Shadow,
    Shape,
    Stroke,
)
from ..base.images import Decoded
from .shaders import grain_shader, image_filter, set_dash, shadow_paint, skia_paint
from .statics import RASTER_MAX, count, is_costly, layer_bytes, rasters, recordings

_SAMPLING = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kLinear)


class Painter:
    """Draws items with the typefaces of one font book (fonts cached per size).

    With the output `scale` known, a costly static layer (effects, gradients, patterns) of
    at most `statics.RASTER_MAX` bytes is rasterized once at that scale and its pixels reused
    while they fit the `statics.RASTER_BYTES` budget (the least recently used go first);
    otherwise it is replayed as a recording on every card. The budget holds a render
    process's memory (a card layer is 4 MB at scale 2: thirty theme-modes' took 96 MB;
    docs/decisions/engine.md, "Rasterized static layers are kept within 16 MB", now 10 MB).
    A `Picture` is drawn from the encoded bytes `images` holds under its `ImageRef.key`,
    each distinct image decoded once by this painter (at most `max_image_pixels` in all);
    one painter draws one render.
    """

    def __init__(
        self,
        typefaces: Mapping[str, Any],
        scale: float | None = None,
        images: Mapping[str, bytes] | None = None,
        max_image_pixels: int | None = None,
    ) -> None:
        self.typefaces = typefaces
        self.scale = scale
        self._zoom = 1.0  # the scale of the groups being painted (a zoomed card's)
        self._fonts: dict[tuple[str, float, float], Any] = {}
        self._images = Decoded(images or {}, max_image_pixels)

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
        """The run as one text blob. A run on one baseline (nearly all) gives Skia its x
        positions and the baseline (`allocRunPosH`), which Skia turns into the same points
        `allocRunPos` is given, without a Python `Point` per glyph."""
        builder = skia.TextBlobBuilder()
        font = self.font(run.face, run.size, run.skew)
        ys = run.ys
        if ys and ys.count(ys[0]) == len(ys):
            builder.allocRunPosH(font, run.glyphs, run.xs, ys[0])
        else:
            points = [skia.Point(x, y) for x, y in zip(run.xs, ys, strict=False)]
            builder.allocRunPos(font, list(run.glyphs), points)
        canvas.drawTextBlob(builder.make(), 0, 0, skia.Paint(Color=run.color, AntiAlias=True))

    def fill(self, canvas: Any, item: Fill) -> None:
        rect = _rect(item.rect)
        paint = skia_paint(item.color, rect)
        if item.radius and any(item.square):
            canvas.drawRRect(_rounded_ends(rect, item.radius, item.square), paint)
        elif item.radius:
            canvas.drawRoundRect(rect, item.radius, item.radius, paint)
        else:
            canvas.drawRect(rect, paint)

    def stroke(self, canvas: Any, item: Stroke) -> None:
        rect = _rect(item.rect)
        paint = skia_paint(item.color, rect, Style=skia.Paint.kStroke_Style, StrokeWidth=item.width)
        set_dash(paint, item.dash)
        canvas.drawRoundRect(rect, item.radius, item.radius, paint)

    def segment(self, canvas: Any, item: Segment) -> None:
        bounds = skia.Rect.MakeLTRB(
            min(item.x1, item.x2),
            min(item.y1, item.y2),
            max(item.x1, item.x2),
            max(item.y1, item.y2),
        ).makeOutset(item.width / 2, item.width / 2)
        paint = skia_paint(item.color, bounds, StrokeWidth=item.width)
        if item.round_cap:
            paint.setStrokeCap(skia.Paint.kRound_Cap)
        set_dash(paint, item.dash)
        canvas.drawLine(item.x1, item.y1, item.x2, item.y2, paint)

    def shape(self, canvas: Any, item: Shape) -> None:
        path = build_path(item.ops)
        bounds = path.computeTightBounds()
        if item.fill is not None:
            canvas.drawPath(path, skia_paint(item.fill, bounds))
        if item.stroke is not None:
            paint = skia_paint(
                item.stroke,
                bounds,
                Style=skia.Paint.kStroke_Style,
                StrokeWidth=item.stroke_width,
                StrokeCap=skia.Paint.kRound_Cap,
                StrokeJoin=skia.Paint.kRound_Join,
            )
            set_dash(paint, item.dash)
            canvas.drawPath(path, paint)

    def picture(self, canvas: Any, item: Picture) -> None:
        """The image decoded on first use; bytes missing or not the image layout measured
        leave its rect empty (layout already drew a placeholder for a bad source)."""
        image = self._images.image(item.image)
        if image is None:
            return
        canvas.save()
        if item.radius:
            canvas.clipRRect(
                skia.RRect.MakeRectXY(_rect(item.rect), item.radius, item.radius), doAntiAlias=True
            )
        canvas.drawImageRect(image, _rect(item.rect), _SAMPLING)
        canvas.restore()

    def group(self, canvas: Any, item: Group) -> None:
        canvas.save()
        canvas.translate(item.dx, item.dy)
        if item.scale != 1.0:
            canvas.scale(item.scale, item.scale)
        if item.clip is not None:
            canvas.clipRect(_rect(item.clip), doAntiAlias=True)
        outer, self._zoom = self._zoom, self._zoom * item.scale
        self.paint(canvas, item.items)
        self._zoom = outer
        canvas.restore()

    def layer(self, canvas: Any, item: Layer) -> None:
        """Children in one layer: rotated, then composited through the effects' filter.

        The layer is bounded by what the children draw: an unbounded layer is the size of
        the whole card, and blurring a tall card costs seconds per effect. Skia takes
        saveLayer's bounds as the filter's input and draws its output (a shadow's offset, a
        blur's spread) beyond them, so they need no growing by the effects' reach (growing
        them only made the layer, and the blur, bigger: measured in docs/decisions/engine.md,
        "Effect layers are bounded by what they draw")."""
        depth = canvas.save()
        if item.rotate:
            canvas.rotate(item.rotate, item.pivot[0], item.pivot[1])
        box = _shadowed_box(item)
        if box is not None:
            shape, radius, alpha = box
            if alpha < 1.0:  # merged in a plain layer, in the filtered layer's order
                canvas.saveLayer(_shadow_bounds(shape, item.effects), None)
            self._shadows(canvas, shape, radius, alpha, item.effects)
            self.paint(canvas, item.items)
            canvas.restoreToCount(depth)
            return
        grains = [e for e in item.effects if isinstance(e, Grain)]
        effects = image_filter([e for e in item.effects if not isinstance(e, Grain)])
        if effects is not None or grains or item.opacity < 1.0:
            children = self._bounded_recording(item.items)
            paint = skia.Paint(ImageFilter=effects) if effects else skia.Paint()
            paint.setAlphaf(item.opacity)
            canvas.saveLayer(children.cullRect(), paint)
            canvas.drawPicture(children, _IDENTITY)
            for grain in grains:  # src-atop: grain only where the layer has paint
                canvas.drawPaint(
                    skia.Paint(Shader=grain_shader(grain), BlendMode=skia.BlendMode.kSrcATop)
                )
        else:
            self.paint(canvas, item.items)
        canvas.restoreToCount(depth)

    def _shadows(
        self, canvas: Any, shape: Any, radius: float, alpha: float, effects: tuple[Effect, ...]
    ) -> None:
        """Shadows and glows of a box of opacity `alpha` as blurred masks of its shape."""
        for effect in effects:
            assert isinstance(effect, Shadow | Glow)
            paint = shadow_paint(effect, alpha)
            canvas.save()
            if isinstance(effect, Shadow):
                canvas.translate(effect.dx, effect.dy)
            if radius:
                canvas.drawRoundRect(shape, radius, radius, paint)
            else:
                canvas.drawRect(shape, paint)
            canvas.restore()

    def _bounded_recording(self, items: tuple[Item, ...]) -> Any:
        """`items` recorded with a bounding-box hierarchy, so that the picture's cull
        rect is the bounds of what they draw (Skia's own, conservative: strokes, glyphs)."""
        recorder = skia.PictureRecorder()
        self.paint(recorder.beginRecording(_UNBOUNDED, _RTREES()), items)
        return recorder.finishRecordingAsPicture()

    def cached(self, canvas: Any, item: Cached) -> None:
        """Replays the recording of `item.key` (recording it on first use), or its pixels."""
        picture, costly = self._recording(item)
        # A zoomed card (type that follows the card) scales the layer: its pixels are made
        # at the output scale times that zoom, so they still land 1:1 on device pixels.
        scale = self.scale * self._zoom if self.scale else None
        if costly and scale and 0 < layer_bytes(item, scale) <= RASTER_MAX:
            image = self._raster(item, picture, scale)
            w, h = image.width() / scale, image.height() / scale
            canvas.drawImageRect(image, skia.Rect.MakeWH(w, h), _EXACT)  # 1:1 on device pixels
        else:
            canvas.drawPicture(picture, _IDENTITY)

    def _recording(self, item: Cached) -> tuple[Any, bool]:
        found = recordings.get(item.key)
        if found is not None:
            count("replayed")
            return found
        recorder = skia.PictureRecorder()
        self.paint(recorder.beginRecording(_UNBOUNDED), item.items)
        entry = (recorder.finishRecordingAsPicture(), is_costly(item.items))
        recordings.put(item.key, entry)
        count("recorded")
        return entry

    def _raster(self, item: Cached, picture: Any, scale: float) -> Any:
        """The layer's pixels at `scale` over the whole card (opaque over `item.base`)."""
        key = (*item.key, scale)
        image = rasters.get(key)
        if image is not None:
            return image
        w, h = math.ceil(item.size[0] * scale), math.ceil(item.size[1] * scale)
        surface = skia.Surface.MakeRasterN32Premul(max(1, w), max(1, h))  # not Surface(): numpy
        canvas = surface.getCanvas()
        canvas.clear(0 if item.base is None else item.base | 0xFF000000)
        if item.base is not None:
            canvas.drawColor(item.base)  # as the card's own recording starts
        canvas.scale(scale, scale)
        canvas.drawPicture(picture, _IDENTITY)
        image = surface.makeImageSnapshot()
        rasters.put(key, image)
        count("rasterized")
        return image


def _shadowed_box(layer: Layer) -> tuple[Any, float, float] | None:
    """The rect, corner radius and opacity of the box `layer` is, when it is one box with
    only shadows and glows: an opaque fill (solid or gradient), maybe outlined by solid
    strokes on the same rect, or one translucent solid fill. Then each shadow is that
    shape under a blur mask filter, which Skia draws analytically, many times faster than
    blurring a layer (a card-sized panel shadow on a tall card took 3 s). The pixels
    differ from the filtered layer's by a few levels at most, in the shadow
    (docs/decisions/engine.md, "A box's shadows and glows are blur mask filters")."""
    if layer.opacity < 1.0 or not layer.items or not layer.effects:
        return None
    if not all(isinstance(e, Shadow | Glow) for e in layer.effects):
        return None
    box, *outlines = layer.items
    if not isinstance(box, Fill):
        return None
    if isinstance(box.color, int) and not outlines:
        return _rect(box.rect), box.radius, (box.color >> 24) / 255
    if not _opaque(box.color):
        return None
    grow = 0.0
    for line in outlines:
        if not isinstance(line, Stroke) or (line.rect, line.radius) != (box.rect, box.radius):
            return None
        if line.dash is not None or not _opaque(line.color):
            return None
        grow = max(grow, line.width / 2)
    radius = box.radius + grow if box.radius else 0.0  # a square corner stays square (miter)
    return _rect(box.rect).makeOutset(grow, grow), radius, 1.0


def _shadow_bounds(shape: Any, effects: tuple[Effect, ...]) -> Any:
    """`shape` with the shadows and glows of `effects` (three sigmas and the offset)."""
    bounds = skia.Rect.MakeLTRB(shape.left(), shape.top(), shape.right(), shape.bottom())
    for effect in effects:
        assert isinstance(effect, Shadow | Glow)
        reach = 1.5 * effect.blur + 1  # three sigmas (sigma is blur / 2) and a pixel
        dx, dy = (effect.dx, effect.dy) if isinstance(effect, Shadow) else (0.0, 0.0)
        bounds.join(shape.makeOffset(dx, dy).makeOutset(reach, reach))
    return bounds


def _opaque(paint: Paint) -> bool:
    colors = (paint,) if isinstance(paint, int) else getattr(paint, "colors", (0,))
    return all(c >> 24 == 0xFF for c in colors)


# Pictures are drawn with this matrix, never the default None: skia-python converts None
# through numpy, importing it (60-100 ms) in a process that never needs it. Skia drops
# an identity matrix, so the pixels are the same.
_IDENTITY = skia.Matrix()
_EXACT = skia.SamplingOptions(skia.FilterMode.kNearest, skia.MipmapMode.kNone)
_UNBOUNDED = skia.Rect.MakeLTRB(-1e5, -1e5, 1e5, 1e5)
_RTREES = skia.RTreeFactory()  # a recording with one of these has tight cull bounds

_PAINTERS: dict[type, Callable[[Painter, Any, Any], None]] = {
    GlyphRun: Painter.glyph_run,
    Fill: Painter.fill,
    Stroke: Painter.stroke,
    Segment: Painter.segment,
    Shape: Painter.shape,
    Picture: Painter.picture,
    Group: Painter.group,
    Layer: Painter.layer,
    Cached: Painter.cached,
}


def _rounded_ends(rect: Any, radius: float, square: tuple[bool, bool]) -> Any:
    """A rounded rectangle whose cut ends (a run broken over lines) are square."""
    left = skia.Point(0, 0) if square[0] else skia.Point(radius, radius)
    right = skia.Point(0, 0) if square[1] else skia.Point(radius, radius)
    rrect = skia.RRect()
    rrect.setRectRadii(rect, [left, right, right, left])  # clockwise from top left
    return rrect


def _rect(rect: Any) -> Any:
    return skia.Rect.MakeXYWH(rect.x, rect.y, rect.width, rect.height)


def build_path(ops: tuple[tuple[Any, ...], ...]) -> Any:
    """A `skia.Path` from `boxes.Shape` ops."""
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
        elif kind == "A":
            size = skia.Path.kLarge_ArcSize if a[3] else skia.Path.kSmall_ArcSize
            sweep = skia.PathDirection.kCW if a[4] else skia.PathDirection.kCCW
            path.arcTo(a[0], a[1], a[2], size, sweep, a[5], a[6])
        elif kind == "O":
            path.addCircle(a[0], a[1], a[2])
        elif kind == "Z":
            path.close()
    return path
