"""The draw stage's short cuts give the pixels of the long way: glyph runs on one baseline
(`allocRunPosH`), and opaque cards drawn without clearing their buffer first."""

from __future__ import annotations

import math

import numpy as np
import skia

from inkcard.layout.base.boxes import Fill, GlyphRun, Page, Rect
from inkcard.layout.draw.encode import _draw_into
from inkcard.layout.draw.painter import Painter


def _pixels(picture: skia.Picture, page: Page, scale: float, *, clear: bool) -> np.ndarray:
    """The card drawn the long way: the buffer cleared to the opaque background first."""
    w, h = math.ceil(page.width * scale), math.ceil(page.height * scale)
    pixels = np.full((h, w, 4), 0x5A, np.uint8)  # what a reused buffer may hold
    if not clear:
        _draw_into(pixels, w, h, picture, page.background, scale)
        return pixels
    info = skia.ImageInfo.Make(w, h, skia.kRGBA_8888_ColorType, skia.kOpaque_AlphaType)
    surface = skia.Surface.MakeRasterDirect(info, pixels, w * 4)
    canvas = surface.getCanvas()
    canvas.clear(page.background | 0xFF000000)
    canvas.scale(scale, scale)
    canvas.drawPicture(picture)
    surface.flushAndSubmit()
    return pixels


def _run(fonts, text: str, ys: tuple[float, ...] | None = None) -> GlyphRun:
    face = next(name for name in fonts.faces if "CJK" in name or "SC" in name)
    font = skia.Font(fonts.typefaces()[face], 18.0)
    glyphs = tuple(font.textToGlyphs(text))
    xs = tuple(7.3 + 17.9 * i for i in range(len(glyphs)))  # sub-pixel pen positions
    return GlyphRun(face, 18.0, glyphs, xs, ys or (40.6,) * len(glyphs), 0xFF202020)


def _by_points(fonts, run: GlyphRun, page: Page) -> skia.Picture:
    """`run` recorded with a `Point` per glyph, as the painter did before `allocRunPosH`."""
    recorder = skia.PictureRecorder()
    canvas = recorder.beginRecording(skia.Rect.MakeWH(page.width, page.height))
    canvas.drawColor(page.background)
    font = Painter(fonts.typefaces()).font(run.face, run.size, run.skew)
    builder = skia.TextBlobBuilder()
    points = [skia.Point(x, y) for x, y in zip(run.xs, run.ys, strict=True)]
    builder.allocRunPos(font, list(run.glyphs), points)
    canvas.drawTextBlob(builder.make(), 0, 0, skia.Paint(Color=run.color, AntiAlias=True))
    return recorder.finishRecordingAsPicture()


def test_a_run_on_one_baseline_draws_the_pixels_of_a_point_per_glyph(fonts) -> None:
    run = _run(fonts, "卡片 Inkcard，排版。")
    page = Page(220, 60, 0xFFFFFFFF, (run,))
    painted = Painter(fonts.typefaces()).record(page)
    for scale in (1, 2, 1.5):
        ours = _pixels(painted, page, scale, clear=True)
        assert (ours[:, :, :3] < 128).any()  # the glyphs are there
        assert np.array_equal(ours, _pixels(_by_points(fonts, run, page), page, scale, clear=True))


def test_a_run_off_one_baseline_keeps_each_glyphs_own_y(fonts) -> None:
    run = _run(fonts, "x2y", ys=(40.0, 33.5, 40.0))  # a raised glyph
    page = Page(120, 60, 0xFFFFFFFF, (run,))
    painted = Painter(fonts.typefaces()).record(page)
    expected = _pixels(_by_points(fonts, run, page), page, 2, clear=True)
    assert np.array_equal(_pixels(painted, page, 2, clear=True), expected)
    flat = Painter(fonts.typefaces()).record(Page(120, 60, 0xFFFFFFFF, (_run(fonts, "x2y"),)))
    assert not np.array_equal(_pixels(flat, page, 2, clear=True), expected)


def test_an_opaque_card_drawn_without_clearing_is_the_cleared_card(fonts) -> None:
    items = (Fill(Rect(10, 10, 40, 20), 0x80FF0000), _run(fonts, "卡片"))
    for background in (0xFFF7F3E8, 0xFF101418):
        page = Page(100.3, 50.7, background, items)  # fractional: a last partial pixel
        picture = Painter(fonts.typefaces()).record(page)
        for scale in (2, 1.5):
            drawn = _pixels(picture, page, scale, clear=False)
            assert np.array_equal(drawn, _pixels(picture, page, scale, clear=True))
            assert not (drawn == 0x5A).all(axis=2).any()  # no pixel left as the buffer was


def test_a_translucent_card_is_still_laid_over_its_opaque_self(fonts) -> None:
    page = Page(40, 20, 0x40336699, ())
    picture = Painter(fonts.typefaces()).record(page)
    drawn = _pixels(picture, page, 1, clear=False)
    assert np.array_equal(drawn, _pixels(picture, page, 1, clear=True))
    # over itself: its own colour (to rounding), not the buffer's 0x5A seen through it
    assert np.abs(drawn[5, 5, :3].astype(int) - [0x33, 0x66, 0x99]).max() <= 1
