"""A recorded card (a Skia picture) → its pixels → PNG, JPEG, WebP or one PDF of every card.

The card is drawn once into a buffer at the output scale and encoded from it in place: PNG by
`png.py` (rows packed by Pillow unless the process draws a card or two and exits), JPEG and
WebP by Skia's encoders, PDF by Skia's document with the glyph runs kept as text.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import skia

from .png import deflate_rgba

if TYPE_CHECKING:
    import numpy as np

_IDENTITY = skia.Matrix()


def rasterize(
    picture: Any, width: float, height: float, background: int, scale: float
) -> np.ndarray:
    """Pixels of a recorded card as an opaque RGB array, `scale` times its CSS size."""
    return _rgba(picture, width, height, background, scale)[:, :, :3]


def _rgba(picture: Any, width: float, height: float, background: int, scale: float) -> np.ndarray:
    """Pixels of a recorded card as an (h, w, 4) RGBA array, `scale` times its CSS size."""
    import numpy as np  # here, not at start: only tests ask for an array

    w, h = math.ceil(width * scale), math.ceil(height * scale)
    pixels = np.empty((h, w, 4), np.uint8)
    _draw_into(pixels, w, h, picture, background, scale)
    return pixels


def _opaque(w: int, h: int) -> Any:
    """A card's pixels as Skia reads and writes them: w x h RGBA, opaque."""
    return skia.ImageInfo.Make(w, h, skia.kRGBA_8888_ColorType, skia.kOpaque_AlphaType)


def _draw_into(pixels: Any, w: int, h: int, picture: Any, background: int, scale: float) -> None:
    """Draws the card into `pixels` (w x h opaque RGBA, rows packed: an array or a bytearray).

    A card's picture opens by painting its background over the whole card (`Painter.record`),
    so an opaque background needs no clearing first (the same pixels; a fill of the card
    less, ~0.13 ms at the default size); a translucent one is laid over its opaque self."""
    surface = skia.Surface.MakeRasterDirect(_opaque(w, h), pixels, w * 4)
    canvas = surface.getCanvas()
    if background >> 24 & 0xFF != 0xFF:
        canvas.clear(background | 0xFF000000)
    canvas.scale(scale, scale)
    canvas.drawPicture(picture, _IDENTITY)
    surface.flushAndSubmit()


# Whether PNG rows are packed in Python (~2.2 ms a card slower than Pillow, which costs
# ~30-50 ms to import once): only a process that said it draws a card or two and exits
# (`pack_rows_in_python`); every other packs by Pillow, whatever its caller imported.
_rows_in_python = False
_small_pngs = False  # zlib at 6, not ISA-L (`smaller_pngs`)


def load_row_packer() -> None:
    """Imports Pillow now, as the first PNG would (a render worker does it before it says
    it is ready)."""
    import PIL.Image  # noqa: F401


def pack_rows_in_python() -> None:
    """For a process that draws a card or two and exits (`inkcard render`, the MCP stdio
    server): its PNG rows are packed in Python, sparing Pillow's import. The same bytes
    either way (png.py)."""
    global _rows_in_python
    _rows_in_python = True


def smaller_pngs() -> None:
    """For an operator who pays for storage more than CPU: every PNG this process writes
    after is deflated by zlib at level 6 (about a fifth smaller, ~40 ms more a card)."""
    global _small_pngs
    _small_pngs = True


def encode_png(picture: Any, width: float, height: float, background: int, scale: float) -> bytes:
    """The card as a PNG; rows packed by Pillow unless the process asked otherwise."""
    w, h = math.ceil(width * scale), math.ceil(height * scale)
    # A new buffer for each card, freed after it: kept for the next card instead, it raised
    # page faults from ~0.5 to ~700 a card (~+3 ms): glibc raises its mmap and trim
    # thresholds when a block this size is freed, and then keeps the pages in its heap.
    pixels = bytearray(w * h * 4)
    _draw_into(pixels, w, h, picture, background, scale)
    deflated = deflate_rgba(pixels, w, h, _small_pngs, in_python=_rows_in_python)
    del pixels  # freed before the pieces are joined into the file, not after
    return deflated.png()


_RASTER_CODECS = {"jpeg": skia.EncodedImageFormat.kJPEG, "webp": skia.EncodedImageFormat.kWEBP}
PDF_POINTS_PER_PX = 72 / 96  # CSS px are 1/96 inch, PDF points 1/72


def encode_lossy(
    picture: Any,
    width: float,
    height: float,
    background: int,
    scale: float,
    *,
    codec: str,
    quality: int,
) -> bytes:
    """A recorded card as JPEG or WebP (`codec`) at `quality` 1..100, `scale` times its size.

    Skia encodes the drawn pixels in place: no copy of the card is made on the way (each
    whole-card copy is 4 bytes a pixel, 400 MB for the largest card; docs/decisions/engine.md,
    "Memory per output pixel"). The pixels are a bytearray, not a numpy array: numpy is
    not loaded for this (7-10 MB of a render worker for good)."""
    w, h = math.ceil(width * scale), math.ceil(height * scale)
    pixels = bytearray(w * h * 4)
    _draw_into(pixels, w, h, picture, background, scale)
    image = skia.Image.MakeRasterData(_opaque(w, h), pixels, w * 4)
    data = image.encodeToData(_RASTER_CODECS[codec], quality)
    del image, pixels  # the pixels go before the encoded bytes are copied out
    if data is None:
        raise RuntimeError(f"Skia could not encode a {codec} image")
    return bytes(data)


def encode_pdf(cards: list[tuple[Any, float, float, int]]) -> bytes:
    """Recorded cards (picture, width, height, background) as one PDF, a page per card.

    Pages are the cards' CSS size in points; glyph runs stay text (Skia embeds the fonts'
    subsets with their ToUnicode maps), so the text can be selected, searched and extracted.
    """
    stream = skia.DynamicMemoryWStream()
    document = skia.PDF.MakeDocument(stream, Creator="Inkcard", Producer="Inkcard")
    for picture, width, height, background in cards:
        canvas = document.beginPage(width * PDF_POINTS_PER_PX, height * PDF_POINTS_PER_PX)
        canvas.scale(PDF_POINTS_PER_PX, PDF_POINTS_PER_PX)
        canvas.drawColor(background | 0xFF000000)
        canvas.drawPicture(picture, _IDENTITY)
        document.endPage()
    document.close()
    return bytes(stream.detachAsData())
