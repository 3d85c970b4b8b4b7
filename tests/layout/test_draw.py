"""The paint stage through its canvas seam, and rasterising at a scale."""

from __future__ import annotations

from typing import Any

from layout.boxes import Cached, Fill, GlyphRun, Group, Layer, Page, Rect, Segment, Shadow
from layout.draw import Painter, clear_static_cache, rasterize, static_cache_stats


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
    Painter(fonts.typefaces()).paint(canvas, (Layer((box,), (Shadow(2, 2, 4, 0x80000000),)),))
    names = [name for name, _ in canvas.calls]
    assert names == ["save", "saveLayer", "drawRect", "restoreToCount"]
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
    assert static_cache_stats() == {"recorded": 1, "replayed": 1, "rasterized": 0, "size": 1}
