"""The paint stage through its canvas seam, and rasterising at a scale."""

from __future__ import annotations

from typing import Any

import numpy as np
import skia

from inkcard.layout.base.boxes import (
    Blur,
    Cached,
    Fill,
    Glow,
    GlyphRun,
    Gradient,
    Grain,
    Group,
    Layer,
    Page,
    Rect,
    Segment,
    Shadow,
    Stroke,
)
from inkcard.layout.draw import statics
from inkcard.layout.draw.encode import rasterize
from inkcard.layout.draw.painter import Painter
from inkcard.layout.draw.shaders import image_filter
from inkcard.layout.draw.statics import clear_static_cache, static_cache_stats


class RecordingCanvas:
    """Any object with the canvas methods the painter uses; records what it is asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self.calls.append((name, args))


def test_painter_translates_groups_and_draws_records(fonts) -> None:
    canvas = RecordingCanvas()
    face = next(iter(fonts.faces))
    items = (
        Fill(Rect(1, 2, 30, 40), 0xFFFF0000),
        Group((GlyphRun(face, 16.0, (5, 6), (0.0, 9.0), (12.0, 12.0), 0xFF000000),), dy=10),
        Segment(0, 5, 100, 5, 0xFF00FF00, 2.0),
    )
    Painter(fonts.typefaces()).paint(canvas, items)
    names = [name for name, _ in canvas.calls]
    assert names == ["drawRect", "save", "translate", "drawTextBlob", "restore", "drawLine"]
    rect = canvas.calls[0][1][0]
    assert (rect.x(), rect.y(), rect.width(), rect.height()) == (1, 2, 30, 40)
    assert canvas.calls[2][1] == (0, 10)
    blob = canvas.calls[3][1][0]
    assert blob.bounds().left() < 9 < blob.bounds().right()  # both glyphs, at their x
    assert canvas.calls[5][1][:4] == (0, 5, 100, 5)


def test_rasterize_scales_the_recorded_card(fonts) -> None:
    page = Page(100, 50, 0xFFFFFFFF, (Fill(Rect(10, 10, 20, 10), 0xFFFF0000),))
    picture = Painter(fonts.typefaces()).record(page)
    pixels = rasterize(picture, page.width, page.height, page.background, 2)
    assert pixels.shape == (100, 200, 3)
    assert pixels[30, 30].tolist() == [255, 0, 0]  # inside the fill at 2x
    assert pixels[30, 70].tolist() == [255, 255, 255]  # right of it (x 35 at 1x)
    assert pixels[10, 30].tolist() == [255, 255, 255]  # above it


def test_a_layer_with_effects_draws_its_children_in_one_filtered_layer(fonts) -> None:
    canvas = RecordingCanvas()
    box = Fill(Rect(0, 0, 10, 10), 0xFF000000)
    lines = Segment(0, 0, 10, 10, 0xFF000000, 2.0)  # not a box: the shadow needs the layer
    Painter(fonts.typefaces()).paint(canvas, (Layer((box, lines), (Shadow(2, 2, 4, 0x80000000),)),))
    names = [name for name, _ in canvas.calls]
    assert names == ["save", "saveLayer", "drawPicture", "restoreToCount"]
    assert canvas.calls[1][1][1].getImageFilter() is not None  # the shadow's filter
    plain = RecordingCanvas()
    Painter(fonts.typefaces()).paint(plain, (Layer((box,)),))
    assert [name for name, _ in plain.calls] == ["save", "drawRect", "restoreToCount"]


def test_cached_items_are_recorded_once_and_replayed(fonts) -> None:
    clear_static_cache()
    canvas = RecordingCanvas()
    layer = Cached(("test", 1), (Fill(Rect(0, 0, 10, 10), 0xFFFF0000),))
    painter = Painter(fonts.typefaces())
    painter.paint(canvas, (layer,))
    painter.paint(canvas, (Cached(("test", 1), layer.items),))
    first, second = (args[0] for name, args in canvas.calls if name == "drawPicture")
    assert first is second  # one recording, replayed
    assert static_cache_stats() == {
        "recorded": 1,
        "replayed": 1,
        "rasterized": 0,
        "size": 1,
        "rasters": 0,
        "raster_bytes": 0,
    }


def _costly_layer(key: str, width: float, height: float) -> Cached:
    gradient = Gradient("linear", (0xFFFF0000, 0xFF0000FF))
    return Cached((key,), (Fill(Rect(0, 0, width, height), gradient),), 0xFFFFFFFF, (width, height))


def test_rasterized_static_layers_are_kept_within_a_byte_budget(fonts) -> None:
    clear_static_cache()
    painter = Painter(fonts.typefaces(), scale=2)
    surface = skia.Surface(880, 1172)
    for n in range(8):  # eight card-sized layers: 33 MB of pixels at scale 2
        painter.paint(surface.getCanvas(), (_costly_layer(f"card {n}", 440, 586),))
    stats = static_cache_stats()
    assert stats["rasterized"] == 8 and 0 < stats["raster_bytes"] <= statics.RASTER_BYTES
    assert stats["rasters"] == statics.RASTER_BYTES // (880 * 1172 * 4)  # the newest kept
    painter.paint(surface.getCanvas(), (_costly_layer("card 7", 440, 586),))
    assert static_cache_stats()["rasterized"] == 8  # the newest is still kept: not redrawn


def test_the_raster_budget_holds_two_cards_layers_not_more() -> None:
    """A post's cards reuse their layer, and the request before's stays: no more is kept
    (each scale-2 card layer kept is 4 MB of a render process's peak)."""
    assert statics.RASTER_BYTES // (880 * 1172 * 4) == 2


def test_a_static_layer_larger_than_a_card_is_replayed_not_rasterized(fonts) -> None:
    clear_static_cache()
    painter = Painter(fonts.typefaces(), scale=2)
    canvas = RecordingCanvas()
    painter.paint(canvas, (_costly_layer("tall", 440, 3999),))
    assert [name for name, _ in canvas.calls] == ["drawPicture"]
    assert static_cache_stats()["rasterized"] == 0


def _layer_rect(fonts, layer: Layer) -> tuple[float, float, float, float]:
    canvas = RecordingCanvas()
    Painter(fonts.typefaces()).paint(canvas, (layer,))
    [bounds] = [args[0] for name, args in canvas.calls if name == "saveLayer"]
    return bounds.left(), bounds.top(), bounds.right(), bounds.bottom()


def test_an_effect_layer_is_bounded_by_what_its_children_draw(fonts) -> None:
    # A small blurred box on a tall card: its layer is the box (the filter's input; Skia
    # draws the blur's spread and a shadow's offset beyond it), never the card: an
    # unbounded layer costs seconds on a tall card.
    box = Fill(Rect(100, 2000, 40, 30), 0xFF2050A0)
    assert _layer_rect(fonts, Layer((box,), (Blur(8),))) == (100, 2000, 140, 2030)
    for effects in ((Shadow(30, -20, 4, 0x80000000),), (Glow(6, 0xFFFF0000),)):
        grouped = Layer((Group((box,)),), effects)  # not one box: drawn through the layer
        assert _layer_rect(fonts, grouped) == (100, 2000, 140, 2030)
    assert _layer_rect(fonts, Layer((box,), (Grain(0.2),))) == (100, 2000, 140, 2030)
    assert _layer_rect(fonts, Layer((box,), opacity=0.5)) == (100, 2000, 140, 2030)
    # a stroke's bounds take in its width (Skia's are conservative); a group's, its
    # children's where the group moves them
    ring = Group((Stroke(Rect(0, 0, 10, 10), 0xFF000000, 4.0),), dx=50, dy=60)
    left, top, right, bottom = _layer_rect(fonts, Layer((ring,), (Blur(8),)))
    assert 40 <= left <= 48 and 62 <= right <= 70
    assert 50 <= top <= 58 and 72 <= bottom <= 80


def test_a_bounded_layer_keeps_its_shadow_and_rotation(fonts) -> None:
    # A rotated box far down a tall card with a long blurred shadow: the shadow is drawn
    # whole where it is thrown, and the rotated corners are not cut off by the bounds.
    box = Fill(Rect(40, 900, 20, 20), 0xFF000000)
    layer = Layer((box,), (Shadow(40, 0, 6, 0xFF0000FF),), rotate=45, pivot=(50, 910))
    page = Page(200, 1000, 0xFFFFFFFF, (layer,))
    pixels = rasterize(Painter(fonts.typefaces()).record(page), 200, 1000, page.background, 1)
    assert pixels[910, 50].tolist() == [0, 0, 0]  # the box's centre
    assert pixels[910 - 13, 50].tolist() == [0, 0, 0]  # its corner, turned up by 45 degrees
    # The offset is thrown in the layer's turned space: 40 px along its x axis is
    # (28, 28) on the card, so the shadow is a diamond centred on (78, 938).
    row = pixels[938, :, :].astype(int)
    blue = np.nonzero(row[:, 2] - row[:, 0] > 60)[0]
    assert blue.min() <= 78 - 10 and blue.max() >= 78 + 12  # whole, both sides of its centre


def test_an_opaque_box_casts_its_shadows_as_blurred_masks_without_a_layer(fonts) -> None:
    box = Fill(Rect(40, 900, 60, 40), 0xFF204080, radius=8)
    effects = (Shadow(0, 6, 12, 0x66000000), Glow(8, 0xFFFF00FF))
    canvas = RecordingCanvas()
    Painter(fonts.typefaces()).paint(canvas, (Layer((box,), effects),))
    names = [name for name, _ in canvas.calls]
    assert "saveLayer" not in names
    assert names.count("drawRoundRect") == 3  # the shadow, the glow, then the box
    first, second, _ = [args[3] for name, args in canvas.calls if name == "drawRoundRect"]
    assert first.getMaskFilter() is not None and second.getMaskFilter() is not None
    # the same pixels as the filtered layer a translucent box gets, give or take a few
    # levels in the blur's fringe
    page = Page(160, 1000, 0xFFF0E0D0, (Layer((box,), effects),))
    fast = rasterize(Painter(fonts.typefaces()).record(page), 160, 1000, page.background, 2)
    slow = _through_a_layer(Painter(fonts.typefaces()), page)
    difference = np.abs(fast.astype(int) - slow.astype(int))
    assert difference.max() <= 4 and difference.mean() < 0.1
    below = (940 + 4) * 2, 70 * 2  # under the box's bottom edge: in the shadow and glow
    assert (slow[below] != [0xF0, 0xE0, 0xD0]).any() and (fast[below] != [0xF0, 0xE0, 0xD0]).any()


def _through_a_layer(painter: Painter, page: Page) -> np.ndarray:
    """`page` (of layers) drawn through Skia's filtered layers, the general path, at 2x."""
    pixels = np.empty((int(page.height * 2), int(page.width * 2), 4), np.uint8)
    surface = skia.Surface(pixels, colorType=skia.kRGBA_8888_ColorType)
    canvas = surface.getCanvas()
    canvas.clear(page.background)
    canvas.scale(2, 2)
    for layer in page.items:
        assert isinstance(layer, Layer)
        canvas.saveLayer(None, skia.Paint(ImageFilter=image_filter(list(layer.effects))))
        painter.paint(canvas, layer.items)
        canvas.restore()
    return pixels[:, :, :3]


def test_an_outlined_panel_casts_one_shadow_of_its_outer_edge(fonts) -> None:
    rect = Rect(40, 900, 60, 40)
    panel = (Fill(rect, 0xFFFFFFFF, radius=6), Stroke(rect, 0xFF333333, 4.0, radius=6))
    effects = (Shadow(0, 8, 16, 0x55000000),)
    canvas = RecordingCanvas()
    Painter(fonts.typefaces()).paint(canvas, (Layer(panel, effects),))
    assert "saveLayer" not in [name for name, _ in canvas.calls]
    shadow, _, _ = [args for name, args in canvas.calls if name == "drawRoundRect"]  # box, line
    assert shadow[1] == 8 and shadow[3].getMaskFilter() is not None  # radius 6 + half the line
    assert (shadow[0].left(), shadow[0].bottom()) == (38, 942)
    page = Page(160, 1000, 0xFFF0E0D0, (Layer(panel, effects),))
    fast = rasterize(Painter(fonts.typefaces()).record(page), 160, 1000, page.background, 2)
    slow = _through_a_layer(Painter(fonts.typefaces()), page)
    difference = np.abs(fast.astype(int) - slow.astype(int))
    assert difference.max() <= 4 and difference.mean() < 0.1
    # a translucent or dashed outline, or one on another rect, keeps the filtered layer
    for outline in (
        Stroke(rect, 0x80333333, 4.0, radius=6),
        Stroke(rect, 0xFF333333, 4.0, radius=6, dash=(4, 4)),
        Stroke(Rect(40, 900, 30, 40), 0xFF333333, 4.0, radius=6),
    ):
        canvas = RecordingCanvas()
        Painter(fonts.typefaces()).paint(canvas, (Layer((panel[0], outline), effects),))
        assert "saveLayer" in [name for name, _ in canvas.calls]


def test_a_translucent_box_merges_its_shadow_in_a_plain_bounded_layer(fonts) -> None:
    box = Fill(Rect(40, 900, 60, 40), 0x8CFFFFFF, radius=16)  # glass: the shadow shows through
    effects = (Shadow(0, 12, 30, 0x73000000),)
    canvas = RecordingCanvas()
    Painter(fonts.typefaces()).paint(canvas, (Layer((box,), effects),))
    [(bounds, paint)] = [args for name, args in canvas.calls if name == "saveLayer"]
    assert paint is None  # no filter: Skia only composites it
    assert (bounds.left(), bounds.top(), bounds.right(), bounds.bottom()) == (-6, 866, 146, 998)
    page = Page(160, 1000, 0xFF302050, (Layer((box,), effects),))
    fast = rasterize(Painter(fonts.typefaces()).record(page), 160, 1000, page.background, 2)
    slow = _through_a_layer(Painter(fonts.typefaces()), page)
    difference = np.abs(fast.astype(int) - slow.astype(int))
    assert difference.max() <= 4 and difference.mean() < 0.1
